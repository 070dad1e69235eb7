/**
 * Whether a saved plan (`monsync plan --out`) may still be applied: pure, from the saved plan and a plan made now of
 * the same tree and account. The plan file holds digests, not objects, so what changed is named through the steps.
 */
import type { Plan, PlanStep } from '../plan/types.js';

/** A plan made now, and the same reading planned for other targets (a saved plan made with `--target`). */
export interface FreshPlan {
  plan: Plan;
  narrowed(targets: readonly string[]): Plan;
}

/** A step that is new in the fresh plan, differs from the saved one, or is gone from it. */
export interface StepDifference {
  change: 'new' | 'differs' | 'gone';
  step: PlanStep;
}

export type SavedPlanComparison =
  /** Apply the saved plan as it is. */
  | { status: 'current' }
  /** The config tree changed (or the plan was made from another tree): it is not the plan that was reviewed. */
  | { status: 'config-changed' }
  /** The live account changed since planning. */
  | { status: 'live-changed'; differences: StepDifference[] }
  /** Same tree and account, other steps: the file was edited, or made by another version of monsync. */
  | { status: 'steps-differ'; differences: StepDifference[] };

/** What apply executes and what a reviewer approved must be the same: the parts of a plan that decide what is written. */
function sameSteps(a: Plan, b: Plan): boolean {
  return JSON.stringify([a.steps, a.safe, a.violations, a.summary]) === JSON.stringify([b.steps, b.safe, b.violations, b.summary]);
}

/**
 * The fresh plan a saved plan should equal: the whole plan, or, for a plan narrowed with `plan --target`, the fresh
 * plan narrowed to the saved steps (the file does not record its targets; its steps name them). A key holding a
 * glob character is matched by `?`, which may select a neighbour too: the plans then differ and apply refuses.
 */
export function expectedPlan(saved: Plan, fresh: FreshPlan): Plan {
  if (sameSteps(saved, fresh.plan) || saved.steps.length === 0) return fresh.plan;
  return fresh.narrowed(saved.steps.map((step) => `${step.kind}:${step.key.replace(/[*?]/g, '?')}`));
}

/** The steps that differ between two plans, matched by kind, key and action. */
export function stepDifferences(saved: Plan, fresh: Plan): StepDifference[] {
  const index = (plan: Plan) => new Map(plan.steps.map((s) => [`${s.kind}\u0000${s.key}\u0000${s.action}`, s]));
  const before = index(saved);
  const after = index(fresh);
  const same = (a: PlanStep, b: PlanStep) => JSON.stringify([a.guid, a.changes, a.desired]) === JSON.stringify([b.guid, b.changes, b.desired]);
  const differences: StepDifference[] = [];
  for (const [slot, step] of after) {
    const old = before.get(slot);
    if (old === undefined) differences.push({ change: 'new', step });
    else if (!same(old, step)) differences.push({ change: 'differs', step });
  }
  for (const [slot, step] of before) if (!after.has(slot)) differences.push({ change: 'gone', step });
  return differences;
}

export function compareSavedPlan(saved: Plan, fresh: FreshPlan): SavedPlanComparison {
  if (saved.configDigest !== fresh.plan.configDigest) return { status: 'config-changed' };
  if (saved.liveDigest !== fresh.plan.liveDigest) return { status: 'live-changed', differences: stepDifferences(saved, fresh.plan) };
  const expected = expectedPlan(saved, fresh);
  return sameSteps(saved, expected) ? { status: 'current' } : { status: 'steps-differ', differences: stepDifferences(saved, expected) };
}
