/**
 * Redaction of request and response data kept on errors. Errors travel far (logs, plan output, PR comments),
 * so anything that may hold a secret is replaced before it is stored, never on the way out.
 */

export const REDACTED = '[redacted]';

/** Field names whose values are secrets wherever they appear. */
const SECRET_KEY = /password|passphrase|secret|token|bearer|archivedata|authorization|apikey|api_key|cookie|^variablevalues$/i;

/**
 * `Value` holds a vault item's content and a monitor variable's value (either may be a literal secret), but
 * also an error condition's threshold, which is harmless and useful in a message; only the latter is kept.
 */
function isSecretField(key: string, parent: Record<string, unknown>): boolean {
  if (SECRET_KEY.test(key)) return true;
  if (/^value$/i.test(key)) return !('ErrorConditionType' in parent);
  return false;
}

/** Secrets shorter than this are not scrubbed from free text: replacing every "1" would destroy messages. */
const MIN_SCRUB_LENGTH = 4;

function collectStrings(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') {
    if (value.length >= MIN_SCRUB_LENGTH) into.add(value);
  } else if (Array.isArray(value)) {
    for (const v of value) collectStrings(v, into);
  } else if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) collectStrings(v, into);
  }
}

/**
 * Deep copy of a JSON value with every secret field replaced by `[redacted]`; the secret strings found are
 * added to `secrets` so that free text (a service message echoing a field) can be scrubbed as well.
 */
export function redactJson(value: unknown, secrets: Set<string> = new Set()): unknown {
  if (Array.isArray(value)) return value.map((v) => redactJson(v, secrets));
  if (value === null || typeof value !== 'object') return value;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(source)) {
    if (isSecretField(key, source) && v !== null && v !== undefined && v !== '') {
      collectStrings(v, secrets);
      out[key] = REDACTED;
    } else {
      out[key] = redactJson(v, secrets);
    }
  }
  return out;
}

/** Replaces every occurrence of a known secret in a text. Longest first, so a secret inside another goes too. */
export function scrubText(text: string, secrets: Iterable<string>): string {
  let out = text;
  const sorted = [...secrets].filter((s) => s.length >= MIN_SCRUB_LENGTH).sort((a, b) => b.length - a.length);
  for (const secret of sorted) out = out.split(secret).join(REDACTED);
  return out;
}

/** Deep copy of a JSON value with known secrets scrubbed from every string in it. */
export function scrubJson(value: unknown, secrets: Iterable<string>): unknown {
  const list = [...secrets];
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrubText(v, list);
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
  };
  return walk(value);
}

/** Header copy with credentials and cookies replaced. */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    out[lower] = SECRET_KEY.test(lower) ? REDACTED : Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}... (${text.length - max} more characters)`;
}
