/**
 * What a create answered, read generously. The spec shows no create's answer, and services differ: the created
 * object (under the expected identifier or another plausible name), the bare identifier (a JSON string or number, or
 * plain text), or nothing at all (201 or 204 with an empty body). Any 2xx is a success; when the answer does not
 * name the new object, it is found by listing and matching on the same key the reconciler matches on.
 */

/** How a family finds the object a create made when the answer does not say. */
export interface CreatedLookup<T> {
  /** The field that identifies the object, e.g. `MonitorGuid`, `ExclusionPeriodId`. */
  idField: string;
  /** Listings of the same key are shared by the creates that wait for one (see `Core.created`). */
  listKey: string;
  /** Every object of the listing the new one appears in. */
  list: () => Promise<T[]>;
  /** Whether a listed object is the one the create made (its name, its parent and name, its content). */
  matches: (item: T) => boolean;
  /** When several listed objects match: the one to take (default the last listed, the newest on every list seen). */
  pick?: (matches: T[]) => T;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INTEGER = /^\d{1,15}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** An identifier as the service may write one: a GUID, or a whole number (duty schedules, exclusion periods). */
function asId(value: unknown): string | number | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  if (typeof value !== 'string') return undefined;
  const text = value.trim().replace(/^"(.*)"$/, '$1').replace(/^\{(.*)\}$/, '$1');
  if (GUID.test(text)) return text;
  if (INTEGER.test(text)) return Number(text);
  return undefined;
}

/** Names under which an answer may carry the new identifier besides the expected one. */
const OTHER_ID_NAMES = ['Guid', 'guid', 'Id', 'id', 'ID'];

/**
 * The created object when the answer holds it, with its identifier under `idField`; the identifier alone when that is
 * all there is; undefined when the answer does not name it.
 */
export function readCreated(body: unknown, text: string | undefined, idField: string): { object?: Record<string, unknown>; id?: string | number } {
  if (isRecord(body)) {
    const direct = asId(body[idField]);
    if (direct !== undefined) return { object: body, id: direct };
    const lower = idField.toLowerCase();
    for (const key of Object.keys(body)) {
      if (key.toLowerCase() !== lower) continue;
      const id = asId(body[key]);
      if (id !== undefined) return { object: { ...body, [idField]: id }, id };
    }
    for (const key of OTHER_ID_NAMES) {
      const id = asId(body[key]);
      if (id !== undefined) return { object: { ...body, [idField]: id }, id };
    }
    // The object in an envelope (`{Data: {...}}`), as the published envelopes wrap their items.
    if (isRecord(body.Data)) return readCreated(body.Data, undefined, idField);
    return {};
  }
  const id = asId(body) ?? asId(text);
  return id === undefined ? {} : { id };
}

/** The last of several matches: lists seen so far give objects in creation order. */
export function lastOf<T>(items: T[]): T {
  return items[items.length - 1] as T;
}

/** Whether every scalar field sent is what the listed object holds (matching on content, for objects with no name). */
export function sameContent(sent: Readonly<Record<string, unknown>>, listed: unknown): boolean {
  if (!isRecord(listed)) return false;
  for (const [key, value] of Object.entries(sent)) {
    if (value === undefined || value === null || typeof value === 'object') continue;
    const other = listed[key];
    if (other === undefined || other === null) continue;
    if (String(other) !== String(value)) return false;
  }
  return true;
}
