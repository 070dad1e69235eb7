import type { ApiFields } from '../desired.js';
import type { ApiObject, Listing } from '../live/types.js';

const NONE: readonly string[] = [];

/**
 * Rule of case (docs/architecture.md, The config format): PascalCase keys are API fields, camelCase keys are monsync's own. When every key of the
 * value is a defined API field (most declarations: monitors have no keys of monsync's own), the value itself is
 * returned rather than a copy of it; nothing downstream modifies declared fields.
 */
export function apiFields(value: ApiFields, without: readonly string[] = NONE): ApiObject {
  if (allApiFields(value, without)) return value;
  const out: ApiObject = {};
  for (const key of Object.keys(value)) if (isApiField(value, key, without)) out[key] = value[key];
  return out;
}

/**
 * Asked of each of 100,000 monitors at account scale: `for...in` reads the keys without the array `Object.keys`
 * allocates for each object (a tenth of what matching a monitor allocates).
 */
function allApiFields(value: ApiFields, without: readonly string[]): boolean {
  for (const key in value) if (!isApiField(value, key, without)) return false;
  return true;
}

function isApiField(value: ApiFields, key: string, without: readonly string[]): boolean {
  const first = key.charCodeAt(0);
  return first >= 65 && first <= 90 && value[key] !== undefined && (without.length === 0 || !without.includes(key));
}

export function pinned(value: ApiFields, guidField: string): string | undefined {
  const guid = value[guidField];
  if (typeof guid === 'string' && guid !== '') return guid;
  if (typeof guid === 'number') return String(guid);
  return undefined;
}

export function idOf(object: ApiObject, field: string): string {
  const value = object[field];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** `<parent>/<child>` step GUIDs of child kinds. */
export function splitCompound(guid: string | undefined): [string, string] {
  const at = guid?.indexOf('/') ?? -1;
  if (guid === undefined || at < 0) throw new Error(`expected a "<parent>/<id>" step GUID, got ${JSON.stringify(guid)}`);
  return [guid.slice(0, at), guid.slice(at + 1)];
}

export function requireGuid(guid: string | undefined, what: string): string {
  if (guid === undefined || guid === '') throw new Error(`${what}: the step has no GUID`);
  return guid;
}

/** Request bodies carry path parameters under these names; they are removed before sending. */
export function withoutFields(body: ApiObject, fields: readonly string[]): ApiObject {
  const out: ApiObject = {};
  for (const [k, v] of Object.entries(body)) if (!fields.includes(k)) out[k] = v;
  return out;
}

export function bodyString(body: ApiObject, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value === '' || value.startsWith('{{')) {
    throw new Error(`the request body has no resolved ${field} (apply substitutes placeholders before sending)`);
  }
  return value;
}

/** The identifier a create resolved to (the client's answer), when it has one. */
export function answeredId(created: unknown, field: string): string | undefined {
  if (created === null || typeof created !== 'object') return undefined;
  const id = idOf(created as ApiObject, field);
  return id === '' ? undefined : id;
}

export async function findOne(listing: Listing<ApiObject>, match: (o: ApiObject) => boolean, guidField: string): Promise<string | undefined> {
  const all = await listing.toArray();
  const found = all.find(match);
  return found === undefined ? undefined : idOf(found, guidField);
}
