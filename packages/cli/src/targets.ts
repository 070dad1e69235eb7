import { UsageError } from './errors.js';

/** Step kinds a `--target` may name (contract C). */
export const TARGET_KINDS = [
  'monitor',
  'monitorGroup',
  'groupMembership',
  'vaultSection',
  'vaultItem',
  'sla',
  'slaExclusionPeriod',
  'scheduledReport',
  'alertDefinition',
] as const;

/** Children planned as their own steps, keyed `<parent key>/<child>`: targeting a parent takes them along. */
const CHILD_KINDS: Partial<Record<string, string>> = {
  monitorGroup: 'groupMembership',
  vaultSection: 'vaultItem',
  sla: 'slaExclusionPeriod',
};

export interface Target {
  kind: string;
  pattern: string;
  matches(key: string): boolean;
}

function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

/** `kind:key`, where key may use `*` and `?` (a monitor Name may itself hold a colon: only the first one splits). */
export function parseTarget(text: string): Target {
  const colon = text.indexOf(':');
  const kind = colon < 0 ? text : text.slice(0, colon);
  const pattern = colon < 0 ? '' : text.slice(colon + 1);
  if (!(TARGET_KINDS as readonly string[]).includes(kind) || pattern === '') {
    throw new UsageError(`--target ${text}: expected kind:key with kind one of ${TARGET_KINDS.join(', ')} (e.g. --target "monitor:Shop homepage")`, 'plan');
  }
  const regex = globToRegExp(pattern);
  return { kind, pattern, matches: (key) => regex.test(key) };
}

interface StepLike {
  id: string;
  action: string;
  kind: string;
  key: string;
  dependsOn: string[];
}

interface ViolationLike {
  kind: string;
  action: 'delete' | 'update';
  count: number;
  total: number;
  percent: number;
  limit: number;
  message: string;
}

interface PlanLike<S extends StepLike> {
  summary: { create: number; update: number; delete: number; ensure: number; unchanged: number; unmanaged: number };
  safe: boolean;
  violations: ViolationLike[];
  steps: S[];
  unmanaged: { kind: string; key: string; guid: string }[];
  warnings: { code: string; message: string; kind?: string; key?: string }[];
}

function selects(targets: readonly Target[], kind: string, key: string): boolean {
  return targets.some((target) => {
    if (target.kind === kind && target.matches(key)) return true;
    const slash = key.indexOf('/');
    return slash > 0 && CHILD_KINDS[target.kind] === kind && target.matches(key.slice(0, slash));
  });
}

/**
 * Narrows a plan to the targeted objects, their children and every step they depend on (as terraform's
 * -target does), recounting the summary and the safety violations over what remains. The digests stay: they
 * describe the inputs, which did not change.
 */
export function targetPlan<S extends StepLike, P extends PlanLike<S>>(plan: P, targets: readonly Target[]): P {
  if (targets.length === 0) return plan;
  const byId = new Map(plan.steps.map((step) => [step.id, step]));
  const keep = new Set<string>();
  const visit = (id: string) => {
    if (keep.has(id)) return;
    const step = byId.get(id);
    if (step === undefined) return;
    keep.add(id);
    step.dependsOn.forEach(visit);
  };
  for (const step of plan.steps) if (selects(targets, step.kind, step.key)) visit(step.id);
  const steps = plan.steps.filter((step) => keep.has(step.id));
  const count = (action: string) => steps.filter((step) => step.action === action).length;
  const unmanaged = plan.unmanaged.filter((entry) => selects(targets, entry.kind, entry.key));
  const violations = plan.violations.flatMap((violation) => {
    const remaining = steps.filter((step) => step.kind === violation.kind && step.action === violation.action).length;
    const percent = violation.total === 0 ? 0 : Math.round((remaining / violation.total) * 1000) / 10;
    if (remaining === 0 || percent <= violation.limit) return [];
    const message = `${violation.action === 'delete' ? 'deletes' : 'updates'} ${remaining} of ${violation.total} live ${violation.kind} objects (${percent}%), above the limit of ${violation.limit}%`;
    return [{ ...violation, count: remaining, percent, message }];
  });
  const shown = targets.map((target) => `${target.kind}:${target.pattern}`).join(', ');
  return {
    ...plan,
    summary: { ...plan.summary, create: count('create'), update: count('update'), delete: count('delete'), ensure: count('ensure'), unmanaged: unmanaged.length },
    safe: violations.length === 0,
    violations,
    steps,
    unmanaged,
    warnings: [
      ...plan.warnings,
      { code: 'TARGETED_PLAN', message: `plan limited to --target ${shown} and what it depends on; ${plan.steps.length - steps.length} other step(s) are not shown and would not be applied` },
    ],
  };
}
