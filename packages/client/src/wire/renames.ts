/**
 * Where monsync (from the spec, or from the v3 API) spelled a field or a value differently from the running
 * service: one table, read by the client (reads accept both spellings and return the published one), by the
 * config validator (a warning naming the published spelling) and by `monsync migrate` (which rewrites it).
 * No I/O: the schema package imports this module without loading the HTTP client.
 */

/** The objects whose fields the table names; `query` is a query parameter of the statistics and alert reads. */
export type WireKind = 'monitor' | 'sla' | 'scheduledReport' | 'vaultAuthorization' | 'query';

/** Where an older spelling comes from: the spec of the v4 API, or the v3 API's field of the same meaning. */
export type RenameOrigin = 'spec' | 'v3';

export interface UnitConversion {
  readonly from: string;
  readonly to: string;
  /** Published value = old value x factor (1 when the units agree). */
  readonly factor: number;
}

export interface FieldRename {
  readonly kind: WireKind;
  readonly from: string;
  readonly to: string;
  readonly origin: RenameOrigin;
  /** Which published source says so: "D22" (OpenAPI definition, 2022), "P26" (the vendor's provider, 2026). */
  readonly source: string;
  /** Numbers are converted when the two fields count in different units. */
  readonly unit?: UnitConversion;
}

export interface ValueRename {
  readonly kind: WireKind;
  /** The field holding the value (top level of the object, or the query parameter). */
  readonly field: string;
  readonly from: string;
  readonly to: string;
  readonly origin: RenameOrigin;
  readonly source: string;
}

/**
 * `CheckFrequency` is the v3 monitor's interval, in minutes. The v4 field is `CheckInterval`: the 2022 definition
 * documents it in seconds, but the 2026 provider (newest, so what the service does today) counts it in minutes
 * and adds a separate `CheckIntervalSeconds`. Minutes to minutes: the number is kept.
 */
export const CHECK_INTERVAL_UNIT: UnitConversion = { from: 'minutes', to: 'minutes', factor: 1 };

export const FIELD_RENAMES: readonly FieldRename[] = [
  {
    kind: 'monitor',
    from: 'CheckFrequency',
    to: 'CheckInterval',
    origin: 'v3',
    source: 'D22, P26',
    unit: CHECK_INTERVAL_UNIT,
  },
  // Misspelled on the wire (no "s" in "Repon"); config trees write it the same way, as every API field is written.
  { kind: 'sla', from: 'OperatorResponseTimeThreshold', to: 'OperatorReponseTimeThreshold', origin: 'spec', source: 'D22' },
  { kind: 'vaultAuthorization', from: 'OperatorGroupId', to: 'OperatorGroupGuid', origin: 'spec', source: 'D22, P26' },
];

const PREVIOUS = ['Day', 'Week', 'Month', 'Quarter', 'Year'] as const;

function presetRenames(kind: WireKind, field: string): ValueRename[] {
  return PREVIOUS.map((unit) => ({ kind, field, from: `Previous ${unit}`, to: `Previous${unit}`, origin: 'spec', source: 'D22' }));
}

export const VALUE_RENAMES: readonly ValueRename[] = [
  { kind: 'scheduledReport', field: 'FileType', from: 'PDFDownloadLink', to: 'PDFLink', origin: 'spec', source: 'D22' },
  { kind: 'scheduledReport', field: 'FileType', from: 'ExcelDownloadLink', to: 'ExcelLink', origin: 'spec', source: 'D22' },
  { kind: 'scheduledReport', field: 'FileType', from: 'HTMLEmail', to: 'Html', origin: 'spec', source: 'D22' },
  ...presetRenames('scheduledReport', 'SelectedPeriod'),
  ...presetRenames('query', 'PresetPeriod'),
];

const fieldsByKind = new Map<WireKind, FieldRename[]>();
for (const rename of FIELD_RENAMES) fieldsByKind.set(rename.kind, [...(fieldsByKind.get(rename.kind) ?? []), rename]);

const valuesByField = new Map<string, Map<string, ValueRename>>();
for (const rename of VALUE_RENAMES) {
  const at = `${rename.kind}.${rename.field}`;
  const map = valuesByField.get(at) ?? new Map<string, ValueRename>();
  map.set(rename.from, rename);
  valuesByField.set(at, map);
}

/** The field renames of one kind (empty when it has none). */
export function fieldRenamesOf(kind: WireKind): readonly FieldRename[] {
  return fieldsByKind.get(kind) ?? [];
}

/** The rename of an older spelling of a field, if `field` is one. */
export function fieldRename(kind: WireKind, field: string): FieldRename | undefined {
  return fieldsByKind.get(kind)?.find((rename) => rename.from === field);
}

/** The rename of an older spelling of a value of `field`, if `value` is one. */
export function valueRename(kind: WireKind, field: string, value: unknown): ValueRename | undefined {
  return typeof value === 'string' ? valuesByField.get(`${kind}.${field}`)?.get(value) : undefined;
}

/** Fields of a kind that have renamed values. */
export function renamedValueFields(kind: WireKind): string[] {
  const out = new Set<string>();
  for (const rename of VALUE_RENAMES) if (rename.kind === kind) out.add(rename.field);
  return [...out];
}

/** The published value of an older field's number (unit conversion), or the number itself. */
export function convertValue(rename: FieldRename, value: unknown): unknown {
  if (rename.unit === undefined || rename.unit.factor === 1 || typeof value !== 'number') return value;
  return value * rename.unit.factor;
}
