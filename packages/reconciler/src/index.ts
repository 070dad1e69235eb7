export type {
  AlertDefinitionConfig,
  Declared,
  DesiredState,
  ExclusionPeriodConfig,
  ManagedKind,
  MonitorConfig,
  MonitorGroupConfig,
  ScheduledReportConfig,
  SecretValue,
  Settings,
  SlaConfig,
  SourceRef,
  VaultItemConfig,
  VaultRef,
  VaultSectionConfig,
} from './desired.js';
export type { DesiredEntry, GuidRef, KeyRef, KindModule, KindRead, KindRequests, LiveEntry, MarkerSpec, PerParentRead, Resolver, SetField } from './kinds/contract.js';
export { placeholder } from './kinds/contract.js';
export { KINDS, kindModule } from './kinds/index.js';
export type { ApiObject, LiveClient, LiveScope, LiveSnapshot, Listing, WriteClient } from './live/types.js';
export { readLive } from './live/read-live.js';
export { isSelfSection, readSelf, recordSelf, SELF_SECTION_NAME, selfMatters, selfOf, type SelfClient, type SelfRecord } from './live/self.js';
export { readZonesBySwitchingTz } from './on-call/zone.js';
export { emptySnapshot, listed, listedPerParent } from './live/snapshot.js';
export { NON_ADMINISTRATOR_MONITOR_FIELDS } from './kinds/monitor.js';
export { parseSecretRefs, type MonitorSecretRefs, type SecretRefWritten } from './kinds/monitor-secret-refs.js';
export { assemblePlan, type PlanOptions } from './plan/assemble.js';
export { globMatches } from './plan/phases/order.js';
export { DUPLICATE_REASON } from './plan/phases/deletes.js';
export { ROTATION_REASON } from './plan/phases/drafts.js';
export { LiveReadError, PlanError, type LiveReadErrorCode, type PlanProblem, type PlanProblemCode } from './plan/errors.js';
export { fingerprintDesiredSecrets } from './plan/fingerprint.js';
export { splitMarker, withMarker } from './plan/markers.js';
export { liveScope } from './plan/scope.js';
export { combineFingerprints, fingerprintValue, secretAddress, type SecretFingerprints } from './plan/secrets.js';
export type { Plan, PlanChange, PlanDrift, PlanProtection, PlanStep, PlanSummary, PlanTarget, PlanViolation, PlanWarning, PolicyFinding, StepAction, StepKind } from './plan/types.js';
export { policyErrors, policyLines, protectedLines, protectedSteps, refusalLines } from './plan/refusals.js';
export { SENSITIVE } from './plan/types.js';
export { renderText, type TextOptions } from './render/text.js';
export { DEFAULT_MARKDOWN_BUDGET, MARKDOWN_MARKER, markdownLength, renderMarkdown, renderPolicySection, renderStepList, type MarkdownOptions } from './render/markdown.js';
export { errorText, markdownCode, markdownText, plainLines, plainText, shownValue } from './render/escape.js';
export { stepTitle } from './render/format.js';
export { renderJson } from './render/json.js';
export * from './apply/index.js';
export * from './run/index.js';
export * from './lock/index.js';
export { blockLines, flowText, scalar as yamlScalar, toYaml } from './pull/yaml-writer.js';
export { pullInto, type PullIntoOptions, type PullIntoResult, type TreeFile } from './pull/pull-into.js';
export { PULLED_KINDS, pulledTree, type PulledSnapshot, type PulledTree, type SecretPlaceholder } from './pull/pull-tree.js';
export type { UnreadSettings } from './pull/pull-alerting.js';
export { olderAlertDefinitions, readAlertDefinitionChildren } from './pull/older-alert-definitions.js';
