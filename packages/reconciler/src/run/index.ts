// What the CLI and the GitHub Action share around the engine: credentials, the plan session, safety wording.
export { checkApiUrl, checkApiUrlValue, checkedClientOptions, ENV_CREDENTIAL_NAMES, printableUrl, type CredentialNames } from './api-url.js';
export { MAX_PARALLELISM, openSession, operatorValues, ownOperators, recordSelfAfterApply, selfOperatorGuid, type PlanSession, type SessionOptions } from './session.js';
export { CLI_OVERRIDE, unsafeAdvice, violationLines, type OverrideWording } from './safety.js';
export { formatCount, hasChanges, pluralCount } from '../render/format.js';
export { compareSavedPlan, expectedPlan, stepDifferences, type FreshPlan, type SavedPlanComparison, type StepDifference } from './saved-plan.js';
export { planPipeline, readAndPlan, type PipelineSteps, type ReadAndPlan, type ReadAndPlanOptions } from './pipeline.js';
export { normalisedApiUrl, planTarget, targetMismatch } from './plan-target.js';
