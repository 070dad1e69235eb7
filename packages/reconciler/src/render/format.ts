/** Shared wording of the renderers, so text and markdown say the same thing. */
import { SENSITIVE, type Plan, type PlanChange, type PlanDrift, type PlanStep, type PolicyFinding } from '../plan/types.js';
import { plainText, shownValue } from './escape.js';

export const SYMBOL: Record<PlanStep['action'], string> = { create: '+', update: '~', delete: '-', ensure: '=' };

export const CHANGE_SYMBOL: Record<PlanChange['op'], string> = { add: '+', remove: '-', replace: '~' };

/** Most characters of a value shown on one line; a longer one is cut, around its first difference in a change. */
const MAX_VALUE = 240;
/** Characters kept from the start of a value when the shown part is its first difference. */
const HEAD = 24;
/** Characters shown before a first difference. */
const BEFORE_DIFFERENCE = 40;

/** A shown value's characters, each escape one of them: a cut never splits `\u001b` or a surrogate pair. */
const SHOWN_CHAR = /\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\.|[\s\S]/gu;

function shownChars(value: unknown): string[] {
  return shownValue(value).match(SHOWN_CHAR) ?? [];
}

/** Where characters were left out: `…(+380 chars)`. Never ambiguous: a shown value has no raw ellipsis (`shownValue`). */
const left = (count: number): string => `…(+${formatCount(count)} chars)`;

/**
 * A value's characters within MAX_VALUE: whole, or cut with the count left out (`…(+380 chars)`). When `first` (the
 * index of the first character that differs from the other side of a change) would be cut, the start is kept, then
 * the text around `first`, so the two sides of a change never read the same.
 */
function cut(chars: readonly string[], first: number): string {
  if (chars.length <= MAX_VALUE) return chars.join('');
  if (first < MAX_VALUE - BEFORE_DIFFERENCE) return `${chars.slice(0, MAX_VALUE).join('')}${left(chars.length - MAX_VALUE)}`;
  const from = first - BEFORE_DIFFERENCE;
  const to = Math.min(chars.length, from + MAX_VALUE - HEAD);
  return `${chars.slice(0, HEAD).join('')}${left(from - HEAD)}…${chars.slice(from, to).join('')}${to < chars.length ? left(chars.length - to) : ''}`;
}

/** One value on one line: JSON with every invisible character escaped (`shownValue`), cut when long. */
export function formatValue(value: unknown): string {
  if (value === undefined) return '(none)';
  return cut(shownChars(value), 0);
}

/** Both sides of a change, each cut around their first difference when long. */
export function formatValues(before: unknown, after: unknown): [string, string] {
  if (before === undefined || after === undefined) return [formatValue(before), formatValue(after)];
  const a = shownChars(before);
  const b = shownChars(after);
  let first = 0;
  while (first < a.length && first < b.length && a[first] === b[first]) first += 1;
  return [cut(a, first), cut(b, first)];
}

/** `ErrorConditions/HttpStatus/Value` rather than the JSON pointer's leading slash; names in it shown with `plainText`. */
export function formatPath(pointer: string): string {
  return plainText(pointer.startsWith('/') ? pointer.slice(1) : pointer);
}

/** A change as `path: before -> after`; a sensitive change never shows a value, whatever the plan holds. */
export function formatChange(change: PlanChange): string {
  const path = formatPath(change.path);
  if (change.sensitive === true) return `${path}: ${SENSITIVE}`;
  if (change.op === 'add') return `${path}: ${formatValue(change.after)}`;
  if (change.op === 'remove') return `${path}: ${formatValue(change.before)}`;
  const [before, after] = formatValues(change.before, change.after);
  return `${path}: ${before} -> ${after}`;
}

/** `monitor "Shop"`: the key quoted, with look-alike and invisible characters escaped (`shownValue`). */
export function stepTitle(step: { kind: string; key: string }): string {
  return `${step.kind} ${shownValue(step.key)}`;
}

/** `[guid]` of a step that has one, the GUID shown as the service's text is. */
export function guidTag(step: Pick<PlanStep, 'guid' | 'action'>): string {
  return step.guid !== undefined && step.action !== 'ensure' ? `[${plainText(step.guid)}]` : '';
}

/** `monitors.yaml:4:5`: a source position, the file name shown with `plainText`. */
export function sourcePlace(source: { file: string; line: number; column: number }): string {
  return `${plainText(source.file)}:${source.line}:${source.column}`;
}

export function driftLine(step: PlanStep): string | undefined {
  const drift = step.drift;
  if (drift === undefined) return undefined;
  return `changed outside git by ${plainText(driftAuthor(drift))}${drift.lastModifiedDate === undefined ? '' : ` at ${plainText(drift.lastModifiedDate)}`}`;
}

/** Who changed an object outside git, as the service names them: the operator's name, else their id. */
export function driftAuthor(drift: PlanDrift): string {
  return drift.operatorName ?? (drift.lastModifiedByOperatorId === undefined ? 'another operator' : `operator ${drift.lastModifiedByOperatorId}`);
}

/** What an `ensure` step asserts (alert definitions: `IsActive: true`). */
export function ensureLine(step: PlanStep): string {
  const fields = step.desired ?? {};
  return Object.keys(fields)
    .sort()
    .map((k) => `${plainText(k)}: ${formatValue(fields[k])}`)
    .join(', ');
}

/** A count as people read it in a plan: `12,500`, whatever the machine's locale. */
export function formatCount(value: number): string {
  // Not toLocaleString: its first call loads ICU's locale data, about 50 ms of every `monsync plan`'s start.
  if (!Number.isSafeInteger(value)) return value.toLocaleString('en-US');
  const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, ',');
  return value < 0 ? `-${digits}` : digits;
}

/** `1 object`, `12,500 objects`. */
export function pluralCount(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

const REMOVAL: Record<NonNullable<PlanStep['removal']>, string> = {
  auto: 'auto: DELETE; where the service refuses it, retired instead (inactive, no alerts, marked monsync:retired in Notes)',
  delete: 'delete: DELETE only; a refusal fails the step',
  deactivate: 'deactivate: retired, not deleted (inactive, no alerts, marked monsync:retired in Notes; revived if declared again)',
};

/** How a delete of a kind with a removal strategy removes the object, for people. */
export function removalLine(step: Pick<PlanStep, 'removal'>): string | undefined {
  return step.removal === undefined ? undefined : `removal: ${REMOVAL[step.removal]}`;
}

/** The verb shown for a step: a delete that only retires its object says so. */
export function actionWord(step: Pick<PlanStep, 'action' | 'removal'>): string {
  return step.action === 'delete' && step.removal === 'deactivate' ? 'retire' : step.action;
}

export function summaryLine(plan: Plan): string {
  const s = plan.summary;
  const n = formatCount;
  return `${n(s.create)} to create, ${n(s.update)} to update, ${n(s.delete)} to delete, ${n(s.ensure)} to ensure; ${n(s.unchanged)} unchanged, ${n(s.unmanaged)} unmanaged`;
}

export function hasChanges(plan: Plan): boolean {
  return plan.summary.create + plan.summary.update + plan.summary.delete > 0;
}

/** `refused: protected by monitor:prod-* (monsync.yaml:7:5)`, for a step that deletes a protected object. */
export function protectedLine(step: PlanStep): string | undefined {
  const by = step.protectedBy;
  if (by === undefined) return undefined;
  const where = by.source === undefined ? '' : ` (${sourcePlace(by.source)})`;
  return `REFUSED: protected by ${plainText(by.rule)}${where}; no option allows it`;
}

/** `monitors/shop.yaml:4:20`, or nothing for a finding without a position. */
export function findingPlace(finding: PolicyFinding): string | undefined {
  return finding.file === undefined ? undefined : sourcePlace({ file: finding.file, line: finding.line ?? 1, column: finding.column ?? 1 });
}
