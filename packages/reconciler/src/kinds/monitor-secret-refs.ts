/**
 * Where a monitor's secrets come from, kept in its fingerprint marker (`monsync:fp=<hex> refs=...` in `Notes`):
 * the service returns a monitor variable's value in clear, so `pull` must know which variables the config reads
 * from the environment or a file, and write the same reference back instead of the value. Names of variables and
 * files are not secrets; values never enter the marker.
 */
import type { SecretValue } from '../desired.js';
import type { ApiObject } from '../live/types.js';
import { isPlainObject } from '../plan/values.js';

/** A secret's reference as the config wrote it. */
export type SecretRefWritten = { fromEnv: string } | { fromFile: string };

export interface MonitorSecretRefs {
  /** By variable `Key`: the reference of its `Value`. */
  variables: Map<string, SecretRefWritten>;
  /** By JSON pointer below the monitor (`/BearerToken`, `/Auth/ClientSecret`): the reference there. */
  fields: Map<string, SecretRefWritten>;
}

const VARIABLE_VALUE = /^\/PredefinedVariables\/(\d+)\/Value$/;

function written(secret: SecretValue): string | undefined {
  const shown = secret.describe();
  if (shown.startsWith('env ')) return `env:${encodeURIComponent(shown.slice(4))}`;
  const ref = (secret as { ref?: unknown }).ref;
  const file = isPlainObject(ref) && typeof ref.fromFile === 'string' ? ref.fromFile : undefined;
  return file === undefined ? undefined : `file:${encodeURIComponent(file)}`;
}

/** ` refs=var:KEY=env:NAME;/BearerToken=file:path`, or nothing when no secret has a reference to keep. */
export function describeSecretRefs(fields: ApiObject, secrets: readonly { pointer: string; secret: SecretValue }[]): string {
  const variables = Array.isArray(fields.PredefinedVariables) ? fields.PredefinedVariables : [];
  const parts: string[] = [];
  for (const { pointer, secret } of secrets) {
    const how = written(secret);
    if (how === undefined) continue;
    const index = VARIABLE_VALUE.exec(pointer)?.[1];
    const variable: unknown = index === undefined ? undefined : variables[Number(index)];
    const key = isPlainObject(variable) && typeof variable.Key === 'string' ? variable.Key : undefined;
    parts.push(`${key === undefined ? encodeURIComponent(pointer) : `var:${encodeURIComponent(key)}`}=${how}`);
  }
  return parts.length === 0 ? '' : ` refs=${parts.join(';')}`;
}

/** The references a monitor's fingerprint marker records (empty when it has none, or no marker). */
export function parseSecretRefs(marker: string | undefined): MonitorSecretRefs {
  const refs: MonitorSecretRefs = { variables: new Map(), fields: new Map() };
  const list = marker === undefined ? undefined : / refs=(\S*)/.exec(marker)?.[1];
  if (list === undefined || list === '') return refs;
  for (const part of list.split(';')) {
    const [where = '', how = ''] = part.split('=');
    const colon = how.indexOf(':');
    let value: string;
    try {
      value = decodeURIComponent(how.slice(colon + 1));
    } catch {
      continue; // a marker edited by hand: that reference is not known
    }
    const ref: SecretRefWritten | undefined = how.startsWith('env:') ? { fromEnv: value } : how.startsWith('file:') ? { fromFile: value } : undefined;
    if (ref === undefined || value === '') continue;
    try {
      if (where.startsWith('var:')) refs.variables.set(decodeURIComponent(where.slice(4)), ref);
      else refs.fields.set(decodeURIComponent(where), ref);
    } catch {
      continue;
    }
  }
  return refs;
}
