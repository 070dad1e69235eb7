import type { PlanViolation } from '../plan/types.js';

const SETTING: Record<PlanViolation['action'], string> = { delete: 'safety.maxDeletePercent', update: 'safety.maxUpdatePercent' };

/** One line per exceeded threshold: the kind, the count of its total, the percent against the limit, and the setting. */
export function violationLines(violations: readonly PlanViolation[]): string[] {
  return violations.map((v) => `  ${v.kind}: ${v.action}s ${v.count} of ${v.total} (${v.percent}%), limit ${v.limit}% (${SETTING[v.action]})`);
}

/** How the caller accepts an unsafe plan: the CLI's flag, or the action's input. */
export interface OverrideWording {
  /** What to set, e.g. `--allow-deletes`. */
  name: string;
  /** Where it goes, e.g. `monsync apply --allow-deletes`. */
  example: string;
}

export const CLI_OVERRIDE: OverrideWording = { name: '--allow-deletes', example: 'monsync apply --allow-deletes' };

/**
 * The ways past a refusal. The override is named for deletes but accepts every unsafe plan, so an update threshold
 * must say so, or a reader hunting for a delete in an update-only plan finds none and does not know what to do.
 */
export function unsafeAdvice(violations: readonly PlanViolation[], override: OverrideWording = CLI_OVERRIDE): string {
  const settings = [...new Set(violations.map((v) => SETTING[v.action]))];
  return (
    `Review the plan. If it is what you want: ${override.name} accepts any unsafe plan, updates as well as deletes ` +
    `(${override.example}); or raise ${settings.join(' and ')} in monsync.yaml.`
  );
}
