import { ClientConfigError, clientOptionsFromEnv, type ClientOptions } from '@monsync/client';

const EXAMPLE = 'give only the API root, e.g. http://127.0.0.1:8080/v4';

/** What the caller calls the three settings, so that a message names what the user actually set (a variable, an input). */
export interface CredentialNames {
  url: string;
  username: string;
  password: string;
}

export const ENV_CREDENTIAL_NAMES: CredentialNames = { url: 'MONSYNC_API_URL', username: 'MONSYNC_API_USERNAME', password: 'MONSYNC_API_PASSWORD' };

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
 * Checks the API URL before the client does: the client's own messages quote the URL it was given, query and all.
 * An empty URL is left to the caller (`clientOptionsFromEnv` names every missing variable at once).
 */
export function checkApiUrlValue(rawUrl: string | undefined, names: CredentialNames = ENV_CREDENTIAL_NAMES): void {
  const raw = rawUrl?.trim();
  if (raw === undefined || raw === '') return;
  const shown = JSON.stringify(printableUrl(raw));
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ClientConfigError(`${names.url} is not a valid URL: ${shown} (shown without any query or user name); ${EXAMPLE}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ClientConfigError(`${names.url} must use http or https, got ${url.protocol}; ${EXAMPLE}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ClientConfigError(
      `${names.url} must not contain a user name or password: ${printableUrl(raw)} (shown without them); put them in ${names.username} and ${names.password}`,
    );
  }
  if (url.search !== '' || url.hash !== '' || raw.includes('?') || raw.includes('#')) {
    throw new ClientConfigError(`${names.url} must not have a query or fragment: ${printableUrl(raw)} (shown without it); ${EXAMPLE}`);
  }
}

/** `checkApiUrlValue` on MONSYNC_API_URL. */
export function checkApiUrl(env: Readonly<Record<string, string | undefined>>): void {
  checkApiUrlValue(env['MONSYNC_API_URL']);
}

/** `clientOptionsFromEnv`, after the URL check above. */
export function checkedClientOptions(env: Readonly<Record<string, string | undefined>>, overrides: Partial<ClientOptions> = {}): ClientOptions {
  checkApiUrl(env);
  return clientOptionsFromEnv(env, overrides);
}
