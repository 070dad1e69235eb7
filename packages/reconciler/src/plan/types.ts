/**
 * The plan JSON (docs/architecture.md, The plan): the types come from `@monsync/schema`, which also renders
 * `schemas/plan.schema.json` from the same definitions.
 */
export type {
  Plan,
  PlanAction as StepAction,
  PlanChange,
  PlanDrift,
  PlanProtection,
  PolicyFinding,
  PlanStep,
  PlanStepKind as StepKind,
  PlanSummary,
  PlanTarget,
  PlanUnmanaged,
  PlanViolation,
  PlanWarning,
} from '@monsync/schema';

export { PLAN_FORMAT_VERSION } from '@monsync/schema';

/** Rendered in place of every secret value. */
export const SENSITIVE = '(sensitive)';
