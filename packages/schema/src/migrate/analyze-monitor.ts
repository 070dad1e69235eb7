import { isAlias, isMap, isScalar, isSeq, type LineCounter, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import { LEGACY_ERROR_CONDITION_FIELDS, legacyMappingOf, type LegacyFieldMapping } from './legacy-fields.js';
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

/**
 * Decides how one monitor leaves the removed fields. Nothing is guessed: any doubt (a flag without its value,
 * a conflicting existing entry, a value that is not a number) blocks the whole monitor, which stays unchanged.
 */
export function analyzeMonitor(map: YAMLMap, index: number, ctx: SourceContext): MonitorAnalysis {
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
  }
  if (removedPairs.length === 0) return { kind: 'none' };

  const monitor = monitorName(map, index);
  const errors: MigrationProblem[] = [];
  const notes: MigrationProblem[] = [];
  const problem = (pair: Pair, severity: MigrationProblem['severity'], code: MigrationProblemCode, message: string): MigrationProblem => ({
    severity,
    code,
    message,
    ...locate(ctx, startOf(pair.key)),
  });

  let existing: ExistingConditions | undefined;
  const existingByType = new Map<string, ExistingEntry[]>();
  if (existingPair) {
    const value = existingPair.value;
    if (isSeq(value)) {
      existing = { pair: existingPair, seq: value };
      for (const item of value.items) {
        if (!isMap(item)) continue;
        const type = text(item.get('ErrorConditionType'));
        if (type === undefined) continue;
        const list = existingByType.get(type) ?? [];
        list.push({
          Value: text(item.get('Value')),
          Percentage: text(item.get('Percentage')),
          Effect: text(item.get('Effect')),
          location: locate(ctx, startOf(item)),
          node: item,
        });
        existingByType.set(type, list);
      }
    } else if (value === null || value === undefined || (isScalar(value) && value.value === null)) {
      existing = { pair: existingPair, seq: null };
    } else {
      errors.push(
        problem(
          existingPair,
          'error',
          'MIGRATE_ERROR_CONDITIONS_NOT_A_LIST',
          `monitor "${monitor}": ErrorConditions is ${shown(value)}, not a list, so the removed fields cannot be added to it; ` +
            'make it a list of { ErrorConditionType, Value, Effect } entries and run `monsync migrate` again',
        ),
      );
    }
  }

  for (const pair of removedPairs) {
    const value: unknown = pair.value;
    const anchored = isAlias(value) || (value !== null && typeof value === 'object' && 'anchor' in value && typeof value.anchor === 'string');
    if (anchored) {
      errors.push(
        problem(
          pair,
          'error',
          'MIGRATE_YAML_ALIAS',
          `monitor "${monitor}": ${keyName(pair)} uses a YAML anchor or alias, which moving it would break; ` +
            'write the value out in full and run `monsync migrate` again',
        ),
      );
    }
  }
  if (errors.length > 0) return { kind: 'blocked', problems: errors };

  const entries: PlannedEntry[] = [];
  const matched: MatchedEntry[] = [];
  for (const mapping of LEGACY_ERROR_CONDITION_FIELDS) {
    const flagPair = pairsByField.get(mapping.flag);
    const valuePair = pairsByField.get(mapping.value);
    if (!flagPair && !valuePair) continue;
    const pairs = [flagPair, valuePair]
      .filter((pair): pair is Pair => pair !== undefined)
      .sort((a, b) => startOf(a.key) - startOf(b.key));
    const first = pairs[0] as Pair;
    const flag = readFlag(flagPair?.value);
    const limit = readLimit(valuePair?.value);

    if (flagPair && flag.kind === 'invalid') {
      errors.push(
        problem(
          flagPair,
          'error',
          'MIGRATE_INVALID_FLAG',
          `monitor "${monitor}": ${mapping.flag} is ${flag.shown}, expected true or false; ` +
            'fix it (or remove the removed fields by hand) and run `monsync migrate` again',
        ),
      );
    }
    if (valuePair && limit.kind === 'invalid') {
      errors.push(
        problem(
          valuePair,
          'error',
          'MIGRATE_INVALID_VALUE',
          `monitor "${monitor}": ${mapping.value} is ${limit.shown}, expected a number; ` +
            'fix it (or write the ErrorConditions entry by hand) and run `monsync migrate` again',
        ),
      );
    }
    if (flag.kind === 'invalid' || limit.kind === 'invalid') continue;

    if (flag.kind === 'absent' && limit.kind === 'absent') {
      notes.push(
        problem(
          first,
          'info',
          'MIGRATE_EMPTY_FIELDS_DROPPED',
          `monitor "${monitor}": ${pairs.map((pair) => keyName(pair)).join(' and ')} had no value and ${pairs.length === 1 ? 'was' : 'were'} dropped`,
        ),
      );
      continue;
    }
    if (mapping.flagMeaning === 'specified' && flag.kind === 'ok' && !flag.value) {
      notes.push(
        problem(
          first,
          'info',
          'MIGRATE_HTTP_STATUS_UNSPECIFIED',
          `monitor "${monitor}": ${mapping.flag} is false, so ${mapping.value} never applied; both fields were dropped and no HttpStatus condition was added`,
        ),
      );
      continue;
    }
    if (flag.kind === 'absent') {
      errors.push(
        problem(
          valuePair ?? first,
          'error',
          'MIGRATE_VALUE_WITHOUT_FLAG',
          `monitor "${monitor}": ${mapping.value} is set but ${mapping.flag} is missing, so it is unknown ` +
            `${mapping.flagMeaning === 'specified' ? 'whether the status code applies' : 'whether it should raise an error or only indicate'}; ` +
            `add ${mapping.flag}: true or false and run \`monsync migrate\` again`,
        ),
      );
      continue;
    }
    if (limit.kind === 'absent') {
      errors.push(
        problem(
          flagPair ?? first,
          'error',
          'MIGRATE_FLAG_WITHOUT_VALUE',
          `monitor "${monitor}": ${mapping.flag} is set but ${mapping.value} is missing, so there is no limit for ${mapping.type}; ` +
            `add ${mapping.value} (or remove ${mapping.flag}) and run \`monsync migrate\` again`,
        ),
      );
      continue;
    }
    const condition = conditionFrom(mapping, flag.value, limit.value);
    if (!condition) continue;

    const same = existingByType.get(mapping.type) ?? [];
    const different = same.filter(
      (entry) => entry.Value !== condition.Value || entry.Percentage !== condition.Percentage || entry.Effect !== condition.Effect,
    );
    if (different.length > 0) {
      const other = different[0] as ExistingEntry;
      const here = locate(ctx, startOf(first.key));
      errors.push({
        severity: 'error',
        code: 'MIGRATE_CONFLICT',
        message:
          `monitor "${monitor}": the removed fields ${pairs.map((pair) => keyName(pair)).join(' and ')} at ${where(ctx, here)} give ` +
          `${mapping.type} with ${describe(condition)}, but the ErrorConditions entry at ${where(ctx, other.location)} has ${describe(other)}; ` +
          'keep one: delete the removed fields or the entry, then run `monsync migrate` again',
        ...here,
        related: different.map((entry) => entry.location),
      });
      continue;
    }
    if (same.length > 0) {
      matched.push({ pairs, item: (same[0] as ExistingEntry).node });
      continue;
    }
    if (mapping.type === 'PageElementMaxSizeWithPercentage') {
      notes.push(
        problem(
          first,
          'info',
          'MIGRATE_PERCENTAGE_NOT_SET',
          `monitor "${monitor}": ${mapping.value} became the Value of ${mapping.type}; the removed fields had no share of page elements, ` +
            'so no Percentage was set (add one if you want it; `monsync plan` shows what the service holds)',
        ),
      );
    }
    if (mapping.into === 'ValueAndPercentage') {
      notes.push(
        problem(
          first,
          'info',
          'MIGRATE_PERCENTAGE_COPIED',
          `monitor "${monitor}": ${mapping.value} is a percentage, so it became both the Value and the Percentage of ${mapping.type} ` +
            '(`monsync plan` shows any difference from what the service holds)',
        ),
      );
    }
    entries.push({ condition, pairs });
  }

  if (errors.length > 0) return { kind: 'blocked', problems: errors };
  removedPairs.sort((a, b) => startOf(a.key) - startOf(b.key));
  return {
    kind: 'plan',
    plan: {
      monitor,
      map,
      location: locate(ctx, startOf((removedPairs[0] as Pair).key)),
      removedPairs,
      entries,
      matched,
      existing,
      notes,
    },
  };
}
