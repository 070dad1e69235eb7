import { isAlias, isMap, isScalar, isSeq, type LineCounter, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import { LEGACY_ERROR_CONDITION_FIELDS, legacyMappingOf, UNPUBLISHED_V3_MONITOR_FIELDS, type LegacyFieldMapping } from './legacy-fields.js';
import type { MigrationProblemCode } from './codes.js';
import type { MigrationErrorCondition, MigrationLocation, MigrationProblem } from './types.js';

export interface SourceContext {
  /** The file name used in the `file` of changes and problems (as the caller named the file). */
  file: string;
  /** The file as messages name it: relative to the config root (or to the folder of JSON exports). */
  shown?: string;
  lineCounter: LineCounter;
}

export interface PlannedEntry {
  condition: MigrationErrorCondition;
  /** The removed pairs this entry comes from, in source order (their comments travel with the entry). */
  pairs: Pair[];
}

/** Removed pairs whose condition the monitor's ErrorConditions already holds, equal: that entry replaces them. */
export interface MatchedEntry {
  pairs: Pair[];
  /** The existing list item. */
  item: unknown;
}

export interface ExistingConditions {
  pair: Pair;
  /** Null when the key is present with no value (`ErrorConditions:`). */
  seq: YAMLSeq | null;
}

export interface MonitorPlan {
  monitor: string;
  map: YAMLMap;
  location: MigrationLocation;
  /** Every removed-field pair of the monitor, in source order. */
  removedPairs: Pair[];
  /** Entries to add, in the spec's table order. */
  entries: PlannedEntry[];
  /** Removed pairs an existing, equal entry already stands for (their comments go to that entry). */
  matched: MatchedEntry[];
  existing: ExistingConditions | undefined;
  /** Info notes about the rewrite (errors never produce a plan). */
  notes: MigrationProblem[];
}

export type MonitorAnalysis =
  | { kind: 'none' }
  | { kind: 'blocked'; problems: MigrationProblem[] }
  | { kind: 'plan'; plan: MonitorPlan };

const ERROR_CONDITIONS = 'ErrorConditions';

export function keyName(pair: Pair): string | undefined {
  return isScalar(pair.key) && typeof pair.key.value === 'string' ? pair.key.value : undefined;
}

export function startOf(node: unknown): number {
  if (node !== null && typeof node === 'object' && 'range' in node) {
    const range = (node as { range?: readonly number[] | null }).range;
    if (range && typeof range[0] === 'number') return range[0];
  }
  return 0;
}

export function locate(ctx: SourceContext, offset: number): MigrationLocation {
  const { line, col } = ctx.lineCounter.linePos(offset);
  return { file: ctx.file, line, column: col };
}

/** A place in the message text: never an absolute path, whatever the caller passed. */
function where(ctx: SourceContext, location: MigrationLocation): string {
  return `${ctx.shown ?? location.file}:${location.line}:${location.column}`;
}

export function monitorName(map: YAMLMap, index: number): string {
  const name = map.get('Name');
  return typeof name === 'string' && name !== '' ? name : `monitors[${index}]`;
}

type Read<T> = { kind: 'absent' } | { kind: 'ok'; value: T } | { kind: 'invalid'; shown: string };

function shown(node: unknown): string {
  if (isScalar(node)) return JSON.stringify(node.value) ?? String(node.value);
  if (isMap(node)) return 'a mapping';
  if (isSeq(node)) return 'a list';
  return String(node);
}

function readFlag(node: unknown): Read<boolean> {
  if (node === null || node === undefined) return { kind: 'absent' };
  if (isScalar(node)) {
    if (node.value === null) return { kind: 'absent' };
    if (typeof node.value === 'boolean') return { kind: 'ok', value: node.value };
  }
  return { kind: 'invalid', shown: shown(node) };
}

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** The limit as the API's string `Value`: numbers in canonical form, numeric strings as written. */
function readLimit(node: unknown): Read<string> {
  if (node === null || node === undefined) return { kind: 'absent' };
  if (isScalar(node)) {
    const value = node.value;
    if (value === null) return { kind: 'absent' };
    if (typeof value === 'number' && Number.isFinite(value)) return { kind: 'ok', value: String(value) };
    if (typeof value === 'bigint') return { kind: 'ok', value: value.toString() };
    if (typeof value === 'string' && DECIMAL.test(value.trim())) return { kind: 'ok', value: value.trim() };
  }
  return { kind: 'invalid', shown: shown(node) };
}

function text(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

interface ExistingEntry {
  Value: string | undefined;
  Percentage: string | undefined;
  Effect: string | undefined;
  location: MigrationLocation;
  node: unknown;
}

function describe(entry: { Value?: string | undefined; Percentage?: string | undefined; Effect?: string | undefined }): string {
  const parts: string[] = [];
  parts.push(entry.Value === undefined ? 'no Value' : `Value "${entry.Value}"`);
  if (entry.Percentage !== undefined) parts.push(`Percentage "${entry.Percentage}"`);
  parts.push(entry.Effect === undefined ? 'no Effect' : `Effect ${entry.Effect}`);
  return parts.join(', ');
}

function conditionFrom(mapping: LegacyFieldMapping, flag: boolean, limit: string): MigrationErrorCondition | undefined {
  if (mapping.flagMeaning === 'specified') {
    return flag ? { ErrorConditionType: mapping.type, Value: limit } : undefined;
  }
  const effect = flag ? 'Error' : 'Indicate';
  return mapping.into === 'ValueAndPercentage'
    ? { ErrorConditionType: mapping.type, Value: limit, Percentage: limit, Effect: effect }
    : { ErrorConditionType: mapping.type, Value: limit, Effect: effect };
}

/** What the checks of one monitor share: its name, where messages point, and the problems found so far. */
interface Analysis {
  monitor: string;
  ctx: SourceContext;
  errors: MigrationProblem[];
  notes: MigrationProblem[];
}

function problem(a: Analysis, pair: Pair, severity: MigrationProblem['severity'], code: MigrationProblemCode, message: string): MigrationProblem {
  return { severity, code, message, ...locate(a.ctx, startOf(pair.key)) };
}

interface MonitorFields {
  pairsByField: Map<string, Pair>;
  /** Every removed-field pair, in the map's order. */
  removedPairs: Pair[];
  existingPair: Pair | undefined;
}

function monitorFields(map: YAMLMap): MonitorFields {
  const pairsByField = new Map<string, Pair>();
  const removedPairs: Pair[] = [];
  let existingPair: Pair | undefined;
  for (const item of map.items) {
    const name = keyName(item);
    if (name === undefined) continue;
    if (name === ERROR_CONDITIONS) existingPair = item;
    if (legacyMappingOf(name)) {
      pairsByField.set(name, item);
      removedPairs.push(item);
    }
    // Dropped with no replacement (unpublishedNotes says so): nothing else reads them.
    if (Object.hasOwn(UNPUBLISHED_V3_MONITOR_FIELDS, name)) removedPairs.push(item);
  }
  return { pairsByField, removedPairs, existingPair };
}

function entriesByType(seq: YAMLSeq, ctx: SourceContext): Map<string, ExistingEntry[]> {
  const byType = new Map<string, ExistingEntry[]>();
  for (const item of seq.items) {
    if (!isMap(item)) continue;
    const type = text(item.get('ErrorConditionType'));
    if (type === undefined) continue;
    const list = byType.get(type) ?? [];
    list.push({
      Value: text(item.get('Value')),
      Percentage: text(item.get('Percentage')),
      Effect: text(item.get('Effect')),
      location: locate(ctx, startOf(item)),
      node: item,
    });
    byType.set(type, list);
  }
  return byType;
}

/** The monitor's own ErrorConditions, when it has them; a value that is not a list is an error. */
function readExisting(a: Analysis, existingPair: Pair | undefined): { existing: ExistingConditions | undefined; byType: Map<string, ExistingEntry[]> } {
  const byType = new Map<string, ExistingEntry[]>();
  if (!existingPair) return { existing: undefined, byType };
  const value = existingPair.value;
  if (isSeq(value)) return { existing: { pair: existingPair, seq: value }, byType: entriesByType(value, a.ctx) };
  if (value === null || value === undefined || (isScalar(value) && value.value === null)) return { existing: { pair: existingPair, seq: null }, byType };
  a.errors.push(
    problem(
      a,
      existingPair,
      'error',
      'MIGRATE_ERROR_CONDITIONS_NOT_A_LIST',
      `monitor "${a.monitor}": ErrorConditions is ${shown(value)}, not a list, so the removed fields cannot be added to it; ` +
        'make it a list of { ErrorConditionType, Value, Effect } entries and run `monsync migrate` again',
    ),
  );
  return { existing: undefined, byType };
}

function checkAliases(a: Analysis, removedPairs: Pair[]): void {
  for (const pair of removedPairs) {
    const value: unknown = pair.value;
    const anchored = isAlias(value) || (value !== null && typeof value === 'object' && 'anchor' in value && typeof value.anchor === 'string');
    if (!anchored) continue;
    a.errors.push(
      problem(
        a,
        pair,
        'error',
        'MIGRATE_YAML_ALIAS',
        `monitor "${a.monitor}": ${keyName(pair)} uses a YAML anchor or alias, which moving it would break; ` +
          'write the value out in full and run `monsync migrate` again',
      ),
    );
  }
}

/** One legacy flag/value pair of fields as the monitor writes them. */
interface FieldPair {
  mapping: LegacyFieldMapping;
  flagPair: Pair | undefined;
  valuePair: Pair | undefined;
  /** The pairs present, in source order. */
  pairs: Pair[];
  first: Pair;
}

/**
 * The condition a pair of fields gives, or undefined when it gives none: an invalid or incomplete pair is an error,
 * a pair with nothing in it or an unspecified status code is dropped with a note.
 */
function conditionOf(a: Analysis, field: FieldPair): MigrationErrorCondition | undefined {
  const { mapping, flagPair, valuePair, pairs, first } = field;
  const flag = readFlag(flagPair?.value);
  const limit = readLimit(valuePair?.value);
  if (flagPair && flag.kind === 'invalid') {
    a.errors.push(
      problem(
        a,
        flagPair,
        'error',
        'MIGRATE_INVALID_FLAG',
        `monitor "${a.monitor}": ${mapping.flag} is ${flag.shown}, expected true or false; ` +
          'fix it (or remove the removed fields by hand) and run `monsync migrate` again',
      ),
    );
  }
  if (valuePair && limit.kind === 'invalid') {
    a.errors.push(
      problem(
        a,
        valuePair,
        'error',
        'MIGRATE_INVALID_VALUE',
        `monitor "${a.monitor}": ${mapping.value} is ${limit.shown}, expected a number; ` +
          'fix it (or write the ErrorConditions entry by hand) and run `monsync migrate` again',
      ),
    );
  }
  if (flag.kind === 'invalid' || limit.kind === 'invalid') return undefined;

  if (flag.kind === 'absent' && limit.kind === 'absent') {
    a.notes.push(
      problem(
        a,
        first,
        'info',
        'MIGRATE_EMPTY_FIELDS_DROPPED',
        `monitor "${a.monitor}": ${pairs.map((pair) => keyName(pair)).join(' and ')} had no value and ${pairs.length === 1 ? 'was' : 'were'} dropped`,
      ),
    );
    return undefined;
  }
  if (mapping.flagMeaning === 'specified' && flag.kind === 'ok' && !flag.value) {
    a.notes.push(
      problem(
        a,
        first,
        'info',
        'MIGRATE_HTTP_STATUS_UNSPECIFIED',
        `monitor "${a.monitor}": ${mapping.flag} is false, so ${mapping.value} never applied; both fields were dropped and no HttpStatus condition was added`,
      ),
    );
    return undefined;
  }
  if (flag.kind === 'absent') {
    a.errors.push(
      problem(
        a,
        valuePair ?? first,
        'error',
        'MIGRATE_VALUE_WITHOUT_FLAG',
        `monitor "${a.monitor}": ${mapping.value} is set but ${mapping.flag} is missing, so it is unknown ` +
          `${mapping.flagMeaning === 'specified' ? 'whether the status code applies' : 'whether it should raise an error or only indicate'}; ` +
          `add ${mapping.flag}: true or false and run \`monsync migrate\` again`,
      ),
    );
    return undefined;
  }
  if (limit.kind === 'absent') {
    a.errors.push(
      problem(
        a,
        flagPair ?? first,
        'error',
        'MIGRATE_FLAG_WITHOUT_VALUE',
        `monitor "${a.monitor}": ${mapping.flag} is set but ${mapping.value} is missing, so there is no limit for ${mapping.type}; ` +
          `add ${mapping.value} (or remove ${mapping.flag}) and run \`monsync migrate\` again`,
      ),
    );
    return undefined;
  }
  return conditionFrom(mapping, flag.value, limit.value);
}

/** Notes on a new entry whose Percentage the removed fields did not say. */
function percentageNotes(a: Analysis, field: FieldPair): void {
  const { mapping, first } = field;
  if (mapping.type === 'PageElementMaxSizeWithPercentage') {
    a.notes.push(
      problem(
        a,
        first,
        'info',
        'MIGRATE_PERCENTAGE_NOT_SET',
        `monitor "${a.monitor}": ${mapping.value} became the Value of ${mapping.type}; the removed fields had no share of page elements, ` +
          'so no Percentage was set (add one if you want it; `monsync plan` shows what the service holds)',
      ),
    );
  }
  if (mapping.into === 'ValueAndPercentage') {
    a.notes.push(
      problem(
        a,
        first,
        'info',
        'MIGRATE_PERCENTAGE_COPIED',
        `monitor "${a.monitor}": ${mapping.value} is a percentage, so it became both the Value and the Percentage of ${mapping.type} ` +
          '(`monsync plan` shows any difference from what the service holds)',
      ),
    );
  }
}

/**
 * Where a condition goes: an existing entry that differs is a conflict (an error), an equal one stands for the
 * removed fields (matched), otherwise it is a new entry.
 */
function placeCondition(a: Analysis, field: FieldPair, condition: MigrationErrorCondition, same: ExistingEntry[], out: { entries: PlannedEntry[]; matched: MatchedEntry[] }): void {
  const { mapping, pairs, first } = field;
  const different = same.filter(
    (entry) => entry.Value !== condition.Value || entry.Percentage !== condition.Percentage || entry.Effect !== condition.Effect,
  );
  if (different.length > 0) {
    const other = different[0] as ExistingEntry;
    const here = locate(a.ctx, startOf(first.key));
    a.errors.push({
      severity: 'error',
      code: 'MIGRATE_CONFLICT',
      message:
        `monitor "${a.monitor}": the removed fields ${pairs.map((pair) => keyName(pair)).join(' and ')} at ${where(a.ctx, here)} give ` +
        `${mapping.type} with ${describe(condition)}, but the ErrorConditions entry at ${where(a.ctx, other.location)} has ${describe(other)}; ` +
        'keep one: delete the removed fields or the entry, then run `monsync migrate` again',
      ...here,
      related: different.map((entry) => entry.location),
    });
    return;
  }
  if (same.length > 0) {
    out.matched.push({ pairs, item: (same[0] as ExistingEntry).node });
    return;
  }
  percentageNotes(a, field);
  out.entries.push({ condition, pairs });
}

/** A note for each v3 field dropped because v4 has no place for it, with its value: the report keeps what the tree loses. */
function unpublishedNotes(a: Analysis, removedPairs: readonly Pair[]): void {
  for (const pair of removedPairs) {
    const name = keyName(pair);
    if (name === undefined || !Object.hasOwn(UNPUBLISHED_V3_MONITOR_FIELDS, name)) continue;
    // Anchors and aliases blocked the monitor already (checkAliases): the value is plain data.
    const value = JSON.stringify(isScalar(pair.value) || isMap(pair.value) || isSeq(pair.value) ? (pair.value.toJSON() as unknown) : null);
    a.notes.push(problem(a, pair, 'info', 'MIGRATE_UNPUBLISHED_FIELD_DROPPED', `monitor "${a.monitor}": ${name} (${value}) is no field of the published v4 definition, which the service drops, so it was removed; ${UNPUBLISHED_V3_MONITOR_FIELDS[name] ?? ''}`));
  }
}

function fieldPair(mapping: LegacyFieldMapping, pairsByField: Map<string, Pair>): FieldPair | undefined {
  const flagPair = pairsByField.get(mapping.flag);
  const valuePair = pairsByField.get(mapping.value);
  if (!flagPair && !valuePair) return undefined;
  const pairs = [flagPair, valuePair].filter((pair): pair is Pair => pair !== undefined).sort((a, b) => startOf(a.key) - startOf(b.key));
  return { mapping, flagPair, valuePair, pairs, first: pairs[0] as Pair };
}

/**
 * Decides how one monitor leaves the removed fields. Nothing is guessed: any doubt (a flag without its value,
 * a conflicting existing entry, a value that is not a number) blocks the whole monitor, which stays unchanged.
 */
export function analyzeMonitor(map: YAMLMap, index: number, ctx: SourceContext): MonitorAnalysis {
  const { pairsByField, removedPairs, existingPair } = monitorFields(map);
  if (removedPairs.length === 0) return { kind: 'none' };

  const a: Analysis = { monitor: monitorName(map, index), ctx, errors: [], notes: [] };
  const { existing, byType } = readExisting(a, existingPair);
  checkAliases(a, removedPairs);
  if (a.errors.length > 0) return { kind: 'blocked', problems: a.errors };

  const out = { entries: [] as PlannedEntry[], matched: [] as MatchedEntry[] };
  for (const mapping of LEGACY_ERROR_CONDITION_FIELDS) {
    const field = fieldPair(mapping, pairsByField);
    if (field === undefined) continue;
    const condition = conditionOf(a, field);
    if (condition !== undefined) placeCondition(a, field, condition, byType.get(mapping.type) ?? [], out);
  }

  if (a.errors.length > 0) return { kind: 'blocked', problems: a.errors };
  unpublishedNotes(a, removedPairs);
  removedPairs.sort((x, y) => startOf(x.key) - startOf(y.key));
  return {
    kind: 'plan',
    plan: {
      monitor: a.monitor,
      map,
      location: locate(ctx, startOf((removedPairs[0] as Pair).key)),
      removedPairs,
      entries: out.entries,
      matched: out.matched,
      existing,
      notes: a.notes,
    },
  };
}
