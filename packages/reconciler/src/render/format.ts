/** Shared wording of the renderers, so text and markdown say the same thing. */
import { SENSITIVE, type Plan, type PlanChange, type PlanStep, type PolicyFinding } from '../plan/types.js';

export const SYMBOL: Record<PlanStep['action'], string> = { create: '+', update: '~', delete: '-', ensure: '=' };

export const CHANGE_SYMBOL: Record<PlanChange['op'], string> = { add: '+', remove: '-', replace: '~' };

const MAX_VALUE = 240;

/** One value on one line: JSON, cut with an ellipsis when long. */
export function formatValue(value: unknown): string {
  if (value === undefined) return '(none)';
  const text = JSON.stringify(value) ?? String(value);
  const flat = text.replace(/[\r\n\t]/g, ' ');
  return flat.length > MAX_VALUE ? `${flat.slice(0, MAX_VALUE - 1)}…` : flat;
}

/** `ErrorConditions/HttpStatus/Value` rather than the JSON pointer's leading slash. */
export function formatPath(pointer: string): string {
  return pointer.startsWith('/') ? pointer.slice(1) : pointer;
}

/** A change as `path: before -> after`; a sensitive change never shows a value, whatever the plan holds. */
export function formatChange(change: PlanChange): string {
  const path = formatPath(change.path);
  if (change.sensitive === true) return `${path}: ${SENSITIVE}`;
  if (change.op === 'add') return `${path}: ${formatValue(change.after)}`;
  if (change.op === 'remove') return `${path}: ${formatValue(change.before)}`;
  return `${path}: ${formatValue(change.before)} -> ${formatValue(change.after)}`;
}

export function stepTitle(step: PlanStep): string {
  return `${step.kind} ${JSON.stringify(step.key)}`;
}

export function driftLine(step: PlanStep): string | undefined {
  const drift = step.drift;
  if (drift === undefined) return undefined;
  const who = drift.operatorName ?? (drift.lastModifiedByOperatorId === undefined ? 'another operator' : `operator ${drift.lastModifiedByOperatorId}`);
  return `changed outside git by ${who}${drift.lastModifiedDate === undefined ? '' : ` at ${drift.lastModifiedDate}`}`;
}

/** What an `ensure` step asserts (alert definitions: `IsActive: true`). */
export function ensureLine(step: PlanStep): string {
  const fields = step.desired ?? {};
  return Object.keys(fields)
    .sort()
    .map((k) => `${k}: ${formatValue(fields[k])}`)
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
  const where = by.source === undefined ? '' : ` (${by.source.file}:${by.source.line}:${by.source.column})`;
  return `REFUSED: protected by ${by.rule}${where}; no option allows it`;
}

/** `monitors/shop.yaml:4:20`, or nothing for a finding without a position. */
export function findingPlace(finding: PolicyFinding): string | undefined {
  return finding.file === undefined ? undefined : `${finding.file}:${finding.line ?? 1}:${finding.column ?? 1}`;
}
