import type { PlanViolation } from '@monsync/reconciler';

const SETTING: Record<PlanViolation['action'], string> = { delete: 'safety.maxDeletePercent', update: 'safety.maxUpdatePercent' };

/** One line per exceeded threshold: the kind, the count of its total, the percent against the limit, and the setting. */
export function violationLines(violations: readonly PlanViolation[]): string[] {
  return violations.map((v) => `  ${v.kind}: ${v.action}s ${v.count} of ${v.total} (${v.percent}%), limit ${v.limit}% (${SETTING[v.action]})`);
}

/**
 * The ways past a refusal. The flag is named for deletes but accepts every unsafe plan, so an update threshold must
 * say so, or a reader hunting for a delete in an update-only plan finds none and does not know what to do.
 */
export function unsafeAdvice(violations: readonly PlanViolation[]): string {
  const settings = [...new Set(violations.map((v) => SETTING[v.action]))];
  return (
    'Review the plan. If it is what you want: --allow-deletes accepts any unsafe plan, updates as well as deletes ' +
    `(monsync apply --allow-deletes); or raise ${settings.join(' and ')} in monsync.yaml.`
  );
}
