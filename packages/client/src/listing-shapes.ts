/**
 * What one entry of each listing must be before anything is built from it: an object (or, where the published
 * definition lists bare values, a string) holding the fields that name it. A listing is read whole or not at all: an
 * entry that is `null`, a number, an array, or an object without its GUID or key would otherwise reach a plan as an
 * object keyed `""` or `undefined`, and be planned as a delete of something that exists. One table, keyed by the
 * route the listing is asked on, checked by `Core.page` for every batch of every listing.
 */
import { MalformedListingError } from './errors.js';

/**
 * `guid`: a non-empty string. `text`: a string (a name may be anything the service accepted). `id`: an integer, or a
 * non-empty string (the published definition's int32 ids, which a service may also send quoted).
 */
export type EntryFieldType = 'guid' | 'text' | 'id';

export interface EntryShape {
  /** What one entry is, for people: `a monitor`, `a member of a monitor group`. */
  readonly what: string;
  /** Fields every entry holds, each with its type. */
  readonly fields: Readonly<Record<string, EntryFieldType>>;
  /** Fields of which at least one holds a GUID (an authorization names an operator or an operator group). */
  readonly oneOf?: readonly string[];
  /** The field a bare string entry stands for (member GUIDs, authorization type names), when one may be listed. */
  readonly bare?: string;
}

const MONITOR: EntryShape = { what: 'a monitor', fields: { MonitorGuid: 'guid', Name: 'text' } };

/** By `METHOD /route` (the path template the client asks on). */
export const LISTING_SHAPES: Readonly<Record<string, EntryShape>> = {
  'GET /Monitor': MONITOR,
  'GET /Monitor/MonitorGroup/{monitorGroupGuid}': MONITOR,
  'GET /MonitorGroup': { what: 'a monitor group', fields: { MonitorGroupGuid: 'guid', Description: 'text' } },
  'GET /MonitorGroup/{monitorGroupGuid}/Member': { what: 'a member of a monitor group', fields: { MonitorGuid: 'guid' }, bare: 'MonitorGuid' },
  'GET /VaultSection': { what: 'a vault section', fields: { VaultSectionGuid: 'guid', Name: 'text' } },
  'GET /VaultItem': { what: 'a vault item', fields: { VaultItemGuid: 'guid', Name: 'text', VaultSectionGuid: 'guid' } },
  'GET /VaultSection/{vaultSectionGuid}/Authorization': {
    what: 'a vault section authorization',
    fields: { AuthorizationType: 'text' },
    oneOf: ['OperatorGuid', 'OperatorGroupGuid'],
  },
  'GET /Sla': { what: 'an SLA', fields: { SlaGuid: 'guid', Description: 'text' } },
  'GET /Sla/{slaGuid}/ExclusionPeriod': { what: 'an SLA exclusion period', fields: { ExclusionPeriodId: 'id', Description: 'text' } },
  'GET /ScheduledReport': { what: 'a scheduled report', fields: { ScheduledReportGuid: 'guid' } },
  'GET /Operator': { what: 'an operator', fields: { OperatorGuid: 'guid', Email: 'text' } },
  'GET /Operator/{operatorGuid}/Authorization': { what: 'an operator authorization', fields: { AuthorizationType: 'text' }, bare: 'AuthorizationType' },
  'GET /Operator/{operatorGuid}/DutySchedule': { what: 'a duty schedule', fields: { Id: 'id', ScheduleMode: 'text' } },
  'GET /OperatorGroup': { what: 'an operator group', fields: { OperatorGroupGuid: 'guid', Description: 'text' } },
  'GET /OperatorGroup/{operatorGroupGuid}/Member': { what: 'a member of an operator group', fields: { OperatorGuid: 'guid' }, bare: 'OperatorGuid' },
  'GET /OperatorGroup/{operatorGroupGuid}/Authorization': {
    what: 'an operator group authorization',
    fields: { AuthorizationType: 'text' },
    bare: 'AuthorizationType',
  },
  'GET /Timezone': { what: 'a time zone', fields: { TimezoneId: 'id' } },
  'GET /OutgoingPhoneNumber': { what: 'an outgoing phone number', fields: { Id: 'id' } },
  'GET /AlertDefinition': { what: 'an alert definition', fields: { AlertDefinitionGuid: 'guid' } },
  'GET /Rum/Website': { what: 'a RUM website', fields: { RumWebsiteId: 'guid', Description: 'text' } },
};

const TYPE_TEXT: Record<EntryFieldType, string> = {
  guid: 'a non-empty string',
  text: 'a string',
  id: 'an integer or a non-empty string',
};

function fits(value: unknown, type: EntryFieldType): boolean {
  if (type === 'text') return typeof value === 'string';
  if (typeof value === 'string') return value !== '';
  return type === 'id' && typeof value === 'number' && Number.isSafeInteger(value);
}

/** What a value is, never what it holds: the entry may carry text nobody should see in an error. */
function kindOf(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** `an object with MonitorGuid (a non-empty string) and Name (a string)`, the expectation every message states. */
export function expectedEntry(shape: EntryShape): string {
  const fields = Object.entries(shape.fields).map(([name, type]) => `${name} (${TYPE_TEXT[type]})`);
  if (shape.oneOf !== undefined) fields.push(`${shape.oneOf.join(' or ')} (a non-empty string)`);
  const object = `an object with ${fields.length === 1 ? fields[0] : `${fields.slice(0, -1).join(', ')} and ${fields.at(-1)}`}`;
  return shape.bare === undefined ? object : `${object}, or the ${shape.bare} alone as a non-empty string`;
}

/** Why an entry is not of the shape, or undefined when it is. */
function problemOf(entry: unknown, shape: EntryShape): string | undefined {
  if (typeof entry === 'string' && shape.bare !== undefined) return entry === '' ? 'an empty string' : undefined;
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return kindOf(entry);
  const object = entry as Record<string, unknown>;
  for (const name in shape.fields) {
    const type = shape.fields[name] as EntryFieldType;
    const value = object[name];
    if (!fits(value, type)) return value === undefined ? `an object without ${name}` : `an object whose ${name} is ${kindOf(value)}`;
  }
  if (shape.oneOf !== undefined && !shape.oneOf.some((name) => fits(object[name], 'guid'))) return `an object with neither ${shape.oneOf.join(' nor ')}`;
  return undefined;
}

export interface ListingPlace {
  method: string;
  /** The path asked (the route with its parameters). */
  path: string;
  route: string;
  status: number;
  /** The batch's number in its cursor chain, from 1; undefined when the caller asked for one batch by cursor. */
  batch?: number | undefined;
}

/**
 * Checks the raw entries of one batch against the route's shape (none: the listing is not one monsync builds from)
 * and maps them. An entry is checked as an object before `map` sees it and for its fields after (`map` puts an older
 * spelling under the published name).
 */
export function checkedEntries<T>(items: readonly unknown[], place: ListingPlace, map: ((item: unknown) => T) | undefined): T[] {
  const shape = LISTING_SHAPES[`${place.method} ${place.route}`];
  if (shape === undefined) return map === undefined ? (items as T[]) : items.map(map);
  const out: T[] = map === undefined ? (items as T[]) : new Array<T>(items.length);
  for (let index = 0; index < items.length; index += 1) {
    const raw = items[index];
    const bare = typeof raw === 'string' && shape.bare !== undefined;
    // Before map: a map reads fields, and null has none.
    const early = bare || (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) ? undefined : kindOf(raw);
    const item = early === undefined && map !== undefined ? map(raw) : (raw as T);
    const problem = early ?? problemOf(bare ? raw : item, shape);
    if (problem !== undefined) throw new MalformedListingError({ ...place, index, entry: problem, what: shape.what, expected: expectedEntry(shape) });
    if (map !== undefined) out[index] = item;
  }
  return out;
}
