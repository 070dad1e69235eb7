export { applyPlan, checkPlan, DEFAULT_PARALLELISM } from './apply-plan.js';
export { readLiveAgainOnUnclear } from './read-live-again.js';
export { InvalidPlanError, PlanRefusedError, SecretChangedError, SecretSourceError, type SecretMismatch } from './errors.js';
export { REDACTED_TEXT, redactor, type Redactor } from './redact.js';
export { resolveSecrets, sensitiveSlots, type ResolvedSecrets } from './secrets.js';
export type { ApplyOptions, ApplyProgress, ApplyReport, DoneStep, FailedStep, SecretSource, SkippedStep, StepEvent, StepRef } from './types.js';
