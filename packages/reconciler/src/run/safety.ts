import type { PlanViolation } from '../plan/types.js';

const SETTING: Record<PlanViolation['action'], string> = { delete: 'safety.maxDeletePercent', update: 'safety.maxUpdatePercent' };

/** The setting to raise; plans of earlier releases do not name it. */
function settingOf(v: PlanViolation): string {
  return v.setting ?? SETTING[v.action];
}

function describeViolation(v: PlanViolation): string {
  const verb = v.action === 'delete' ? 'deletes' : 'updates';
  if (v.rule === 'every') return `deletes every one of ${v.total} (${settingOf(v)})`;
  const counted = `${verb} ${v.count} of ${v.total} (${v.percent}%)`;
  // Plans of earlier releases had no count threshold.
  if (v.minCount === undefined) return `${counted}, limit ${v.limit}% (${settingOf(v)})`;
  const countSetting = settingOf(v).replace(/max(Delete|Update)Percent$/, 'min$1Count');
  return `${counted}, over ${v.limit}% and at least ${v.minCount} (${settingOf(v)}, ${countSetting})`;
}

/** One line per exceeded threshold: the kind (or all kinds together), the count of its total, the thresholds and their settings. */
export function violationLines(violations: readonly PlanViolation[]): string[] {
  return violations.map((v) => `  ${v.kind === '*' ? 'objects of all kinds together' : v.kind}: ${describeViolation(v)}`);
}

/** How the caller accepts an unsafe plan: the CLI's flag, or the action's input. */
export interface OverrideWording {
  /** What to set, e.g. `--allow-unsafe`. */
  name: string;
  /** Where it goes, e.g. `monsync apply --allow-unsafe`. */
  example: string;
}

export const CLI_OVERRIDE: OverrideWording = { name: '--allow-unsafe', example: 'monsync apply --allow-unsafe' };

/** The ways past a refusal: the override, or the settings the plan is over. */
export function unsafeAdvice(violations: readonly PlanViolation[], override: OverrideWording = CLI_OVERRIDE): string {
  const settings = [...new Set(violations.map(settingOf))];
  return `Review the plan. If it is what you want: ${override.name} accepts it (${override.example}); or raise ${settings.join(' and ')} in monsync.yaml.`;
}
