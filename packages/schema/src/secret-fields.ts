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
  if (looksSecret(own)) return true;
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
