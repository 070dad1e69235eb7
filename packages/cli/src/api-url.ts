import { ClientConfigError, clientOptionsFromEnv, type ClientOptions } from '@monsync/client';

const EXAMPLE = 'give only the API root, e.g. http://127.0.0.1:8080/v4';

/**
 * The URL as it may be printed: scheme, host, port and path. A user name, password, query (`?token=...`) or
 * fragment can hold a credential, and error output ends up in CI logs.
 */
export function printableUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    // Not a URL: cut it by hand below.
  }
  // What precedes a `?` or `#`, and of that only what follows the last `@` (anything before it may be userinfo).
  const head = raw.split(/[?#]/, 1)[0] ?? '';
  const at = head.lastIndexOf('@');
  return at < 0 ? head : head.slice(at + 1);
}

/**
 * Checks MONSYNC_API_URL before the client does: the client's own messages quote the URL it was given, query and
 * all. A missing variable is left to `clientOptionsFromEnv`, which names every missing one at once.
 */
export function checkApiUrl(env: Readonly<Record<string, string | undefined>>): void {
  const raw = env['MONSYNC_API_URL']?.trim();
  if (raw === undefined || raw === '') return;
  const shown = JSON.stringify(printableUrl(raw));
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ClientConfigError(`MONSYNC_API_URL is not a valid URL: ${shown} (shown without any query or user name); ${EXAMPLE}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ClientConfigError(`MONSYNC_API_URL must use http or https, got ${url.protocol}; ${EXAMPLE}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ClientConfigError(
      `MONSYNC_API_URL must not contain a user name or password: ${printableUrl(raw)} (shown without them); put them in MONSYNC_API_USERNAME and MONSYNC_API_PASSWORD`,
    );
  }
  if (url.search !== '' || url.hash !== '' || raw.includes('?') || raw.includes('#')) {
    throw new ClientConfigError(`MONSYNC_API_URL must not have a query or fragment: ${printableUrl(raw)} (shown without it); ${EXAMPLE}`);
  }
}

/** `clientOptionsFromEnv`, after the URL check above. */
export function clientOptions(env: Readonly<Record<string, string | undefined>>, overrides: Partial<ClientOptions> = {}): ClientOptions {
  checkApiUrl(env);
  return clientOptionsFromEnv(env, overrides);
}
