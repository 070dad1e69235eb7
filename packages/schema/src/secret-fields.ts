/**
 * Which fields hold write-only secrets, and how a secret that cannot be kept in a config file is named when it
 * becomes a `{ fromEnv: NAME }` placeholder. Shared by the loader (literal secrets in pass-through fields) and the
 * JSON import; `monsync pull` names its placeholders by the same scheme.
 */

/**
 * Field names that hold secrets by convention. The spec does not show the names of the bearer-token fields of
 * multi-step API monitors, so a name is judged by how it ends.
 */
export const SECRET_FIELD_PATTERN = /(Password|Token|Secret|ApiKey)$/;

export function isSecretFieldName(name: string): boolean {
  return SECRET_FIELD_PATTERN.test(name);
}

/**
 * A name that holds a secret at any depth of a pass-through field or in a monitor variable's `Key`: the API's casing
 * inside nested objects varies (`ClientSecret`, `client_secret`, `apiKey`), so this one ignores case.
 */
const SECRET_NAME_ANY_CASE = /(password|passphrase|passwd|token|secret|api_?key|private_?key|credentials?)$/i;

export function looksSecret(name: string): boolean {
  return SECRET_NAME_ANY_CASE.test(name);
}

/**
 * A header that carries a credential (`Authorization: Bearer ...`, a session `Cookie`, `X-Api-Key`), by its name: as
 * a field of a header mapping, or as the `Name` of a `{ Name, Value }` header entry.
 */
const SECRET_HEADER = /^((proxy-)?authorization|(set-)?cookie|x-[a-z0-9-]*(api[-_]?key|token|auth|secret|session|password)[a-z0-9-]*|api[-_]?key)$/i;

export function isSecretHeaderName(name: string): boolean {
  return SECRET_HEADER.test(name);
}

/** Names of a key of some sort (`key`, `apiKey`, `accessKey`, `signing_key`) and short passwords (`pwd`, `db_pass`). */
const SECRET_KEY_WORD = /((^|[^a-z])(key|pass|pwd)|(api|access|private|secret|signing|client|auth|encryption|license|master|subscription|session)[-_]?key)$/i;

/**
 * Whether a name given to a value (a monitor variable's `Key`, a header entry's `Name`) says the value is a credential:
 * a password, token, secret or key of some sort, or a credential header. The loader refuses such a value written
 * literally, and `pull` writes it as a placeholder: one rule for both.
 */
export function namesSecret(name: string): boolean {
  return looksSecret(name) || SECRET_KEY_WORD.test(name) || isSecretHeaderName(name);
}

/** Fields that name the value beside them (`{ Key: token, Value: ... }`, `{ Name: Authorization, Value: ... }`). */
export const NAMING_FIELDS = ['Key', 'Name', 'HeaderName', 'Header'] as const;

/** The name a `{ Key|Name|HeaderName|Header, Value }` entry gives its `Value`, when that name says it is a credential. */
export function secretPairName(entry: Readonly<Record<string, unknown>>): string | undefined {
  if (!Object.hasOwn(entry, 'Value')) return undefined;
  for (const field of NAMING_FIELDS) {
    const name = entry[field];
    if (typeof name === 'string' && namesSecret(name)) return name;
  }
  return undefined;
}

/** What a credential written into a string looks like, whatever field holds it. */
export type SecretShape = 'bearer' | 'jwt' | 'url-password';

const AUTH_SCHEME_VALUE = /^(bearer|basic|token)\s+([A-Za-z0-9\-._~+/]{8,}=*)$/i;
/** A word after the scheme (`Basic authentication`) is prose, not a credential. */
const WORD = /^[A-Za-z][a-z]+$/;
/** A JSON Web Token: base64url of `{"...` (header), a dot, base64url of `{"...` (claims), a dot, the signature. */
const JWT = /^eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*$/;
/** `scheme://user:password@`: a password in a URL's user-info (an empty one is none). */
const URL_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^/?#@\s:]*:[^/?#@\s]+@/i;

/**
 * Whether a string is shaped like a credential: an `Authorization` value (`Bearer <token>`, `Basic <base64>`), a JSON
 * Web Token, or a URL with `user:password@`. Cheap tests first: most strings hold neither `://` nor a scheme word.
 */
export function secretShape(value: string): SecretShape | undefined {
  if (value.includes('://') && value.includes('@') && URL_PASSWORD.test(value)) return 'url-password';
  if (value.startsWith('eyJ') && JWT.test(value)) return 'jwt';
  const credential = AUTH_SCHEME_VALUE.exec(value)?.[2];
  if (credential !== undefined && !WORD.test(credential)) return 'bearer';
  return undefined;
}

/** How a message names a shape, without the value. */
export const SECRET_SHAPE_TEXT: Record<SecretShape, string> = {
  bearer: 'an authorization credential (`Bearer ...`, `Basic ...`)',
  jwt: 'a JSON Web Token (`eyJ....eyJ....`)',
  'url-password': 'a URL with a password in it (`user:password@`)',
};

/** An object under one of these keys holds credentials (`Auth: { Type: Bearer, Value: ... }`). */
const AUTH_OBJECT = /^(auth|authentication|authorization|oauth\d*|credentials?)$/i;
/** Fields of an authentication object that describe it rather than hold its secret. */
const AUTH_DESCRIPTION = /(type|mode|method|scheme|name|username|user|id|url|uri|endpoint|scope|scopes|audience|header|headername|granttype|enabled)$/i;

/**
 * Whether the string at the end of `keys` (the field names from the top of a pass-through value down to it) holds a
 * secret: its own name looks secret, or it sits in an authentication object and does not merely describe it. The
 * loader refuses such a literal, and `pull` writes such a value as a placeholder: one rule for both.
 */
export function isSecretLeaf(keys: readonly string[]): boolean {
  const own = keys[keys.length - 1];
  if (own === undefined) return false;
  if (looksSecret(own) || isSecretHeaderName(own)) return true;
  return keys.slice(0, -1).some((key) => AUTH_OBJECT.test(key)) && !AUTH_DESCRIPTION.test(own);
}

/**
 * `MONSYNC_SECRET_<PART>_<PART>...`: each part upper-cased, every run of other characters turned into `_`, empty
 * parts left out (the scheme of `monsync pull`). Deterministic, so a second import names the same variables.
 */
export function secretEnvName(...parts: readonly string[]): string {
  return ['MONSYNC_SECRET', ...parts]
    .map((part) => part.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, ''))
    .filter((part) => part !== '')
    .join('_');
}

/** `BearerToken` -> `Bearer_Token`, so that API field names read as words in a variable name. */
export function fieldWords(field: string): string {
  return field.replace(/([a-z0-9])([A-Z])/g, '$1_$2');
}
