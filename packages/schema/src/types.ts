/**
 * Desired-state types (docs/architecture.md, The config format). Every field type comes from the TypeBox schemas; this file only says how
 * declarations are wrapped with their source position.
 */
import type { Static } from '@sinclair/typebox';
import type {
  ALERT_TYPES,
  AlertDefinitionSchema,
  EscalationLevelIntegrationSchema,
  EscalationLevelSchema,
  CULTURE_NAMES,
  CertificateArchiveSchema,
  DutyScheduleSchema,
  EFFECTS,
  ERROR_CONDITION_TYPES,
  ErrorConditionSchema,
  FILE_TYPES,
  ManagedKind,
  MonitorGroupSchema,
  MonitorSchema,
  OperatorGroupSchema,
  OperatorSchema,
  VaultAccessSchema,
  PredefinedVariableSchema,
  QUARTER_START_MONTHS,
  REMOVAL_STRATEGIES,
  RecipientsSchema,
  ReportScheduleSchema,
  SCHEDULE_MODES,
  SCHEDULE_TYPES,
  SMS_PROVIDERS,
  ScheduledReportSchema,
  RumWebsiteSchema,
  SlaExclusionPeriodSchema,
  SlaSchema,
  USER_AGENTS,
  VAULT_ITEM_TYPES,
  VaultItemSchema,
  VaultRefSchema,
  VaultSectionSchema,
  WEEK_DAYS,
} from './config-schema.js';
import type { KindName } from './kinds.js';
import type { PolicyFinding } from './plan-schema.js';
import type { PolicySeverity } from './policy/rules.js';
import type { PlanWaiver } from './policy/check.js';
import type { AllowUnknown } from './published-fields.js';
import type { SourceRef } from './secret.js';

export type { SourceRef } from './secret.js';
export type { ManagedKind } from './config-schema.js';

/** Unknown PascalCase API fields pass through verbatim (rule of case). */
export type PassThrough = { [field: string]: unknown };

/** A declaration and where it was written. */
export interface Declared<T> {
  value: T;
  source: SourceRef;
  /**
   * Where fields resolved only at plan time were written (an operator's `outgoingPhoneNumber`, looked up in the
   * account's numbers), so the plan can point at the field itself.
   */
  fieldSources?: Record<string, SourceRef>;
}

export type UserAgent = (typeof USER_AGENTS)[number];
export type ErrorConditionType = (typeof ERROR_CONDITION_TYPES)[number];
export type Effect = (typeof EFFECTS)[number];
export type VaultItemType = (typeof VAULT_ITEM_TYPES)[number];
export type FileType = (typeof FILE_TYPES)[number];
export type ScheduleType = (typeof SCHEDULE_TYPES)[number];
export type ScheduleMode = (typeof SCHEDULE_MODES)[number];
export type WeekDay = (typeof WEEK_DAYS)[number];
export type CultureName = (typeof CULTURE_NAMES)[number];
export type SmsProvider = (typeof SMS_PROVIDERS)[number];
export type QuarterStartMonth = (typeof QUARTER_START_MONTHS)[number];
export type AlertType = (typeof ALERT_TYPES)[number];

export type VaultRef = Static<typeof VaultRefSchema>;
export type ErrorConditionConfig = Static<typeof ErrorConditionSchema> & PassThrough;
export type PredefinedVariableConfig = Static<typeof PredefinedVariableSchema> & PassThrough;
export type MonitorConfig = Static<typeof MonitorSchema> & PassThrough;
export type MonitorGroupConfig = Static<typeof MonitorGroupSchema> & PassThrough;
export type CertificateArchiveConfig = Static<typeof CertificateArchiveSchema> & PassThrough;
export type VaultItemConfig = Static<typeof VaultItemSchema> & PassThrough;
export type VaultSectionConfig = Omit<Static<typeof VaultSectionSchema>, 'items'> & { items?: Declared<VaultItemConfig>[] } & PassThrough;
export type ExclusionPeriodConfig = Static<typeof SlaExclusionPeriodSchema> & PassThrough;
export type SlaConfig = Omit<Static<typeof SlaSchema>, 'exclusionPeriods'> & { exclusionPeriods?: Declared<ExclusionPeriodConfig>[] } & PassThrough;
export type ReportScheduleConfig = Static<typeof ReportScheduleSchema> & PassThrough;
export type RecipientsConfig = Static<typeof RecipientsSchema> & PassThrough;
export type ScheduledReportConfig = Static<typeof ScheduledReportSchema> & PassThrough;
export type EscalationLevelIntegrationConfig = Static<typeof EscalationLevelIntegrationSchema> & PassThrough;
export type EscalationLevelConfig = Omit<Static<typeof EscalationLevelSchema>, 'integrations'> & { integrations?: Declared<EscalationLevelIntegrationConfig>[] } & PassThrough;
export type AlertDefinitionConfig = Omit<Static<typeof AlertDefinitionSchema>, 'escalationLevels'> & { escalationLevels?: Declared<EscalationLevelConfig>[] } & PassThrough;
export type OperatorConfig = Static<typeof OperatorSchema> & PassThrough;
export type OperatorGroupConfig = Static<typeof OperatorGroupSchema> & PassThrough;
export type VaultAccessConfig = Static<typeof VaultAccessSchema>;
export type DutyScheduleConfig = Static<typeof DutyScheduleSchema> & PassThrough;
export type RumWebsiteConfig = Static<typeof RumWebsiteSchema> & PassThrough;

/** How a pruned monitor leaves the account (`manage.monitors.removal`). */
export type RemovalStrategy = (typeof REMOVAL_STRATEGIES)[number];

export interface ManageSettings {
  prune: boolean;
  /** Monitors only; default `auto`. */
  removal?: RemovalStrategy;
}

/**
 * Thresholds of one weight class: a kind's deletes (updates) make a plan unsafe when they are more than the share of
 * its live objects and at least the count. See docs/architecture.md, "Safety".
 */
export interface SafetyLimits {
  maxDeletePercent: number;
  maxUpdatePercent: number;
  minDeleteCount: number;
  minUpdateCount: number;
}

/** Objects' limits at the top; relation rows (memberships, accesses, schedule copies) weighed apart under `relations`. */
export interface SafetySettings extends SafetyLimits {
  relations: SafetyLimits;
}

/** `monsync.yaml` after defaults. */
export interface Settings {
  apiVersion: 'monsync/v1';
  /** A kind absent from `manage` is not planned at all. */
  manage: Partial<Record<ManagedKind, ManageSettings>>;
  /** Patterns `kind:glob` with a singular kind, e.g. `monitor:legacy-*`. */
  ignore: string[];
  /** `safety:` after defaults (`DEFAULT_SAFETY`); the rule is the reconciler's safety phase. */
  safety: SafetySettings;
  /** `protect:` patterns (`kind:glob`), as written. */
  protect?: string[];
  /** The entries of `policy:`, one per rule (or per entry of a rule that takes a list). */
  policy?: PolicyRuleEntry[];
  /** `apiOperator:`: the operator the API account belongs to, by Email or OperatorGuid. */
  apiOperator?: string;
  /** `allowUnknown:`: API fields and enum values the service added after this release, let through on purpose; absent when none. */
  allowUnknown?: AllowUnknown;
}

/** One entry of `policy:` in monsync.yaml. */
export interface PolicyRuleEntry {
  rule: string;
  severity: PolicySeverity;
  /** The parameters as written (checked against the rule's schema). */
  params: Record<string, unknown>;
  source: SourceRef;
}

/** What protects objects from deletion: a `protect:` pattern (`glob`), or `protect: true` on one declaration (`key`). */
export interface Protection {
  kind: KindName;
  /** As shown in a refusal: the pattern as written, or `protect: true`. */
  rule: string;
  glob?: string;
  /** The declaration's key (`Section/Item` for a child kind), as the plan keys it. */
  key?: string;
  source: SourceRef;
}

/** The reconciler's input: every declaration of the tree, merged across files. */
export interface DesiredState {
  /** Absolute path of the config folder. */
  root: string;
  settings: Settings;
  settingsSource?: SourceRef;
  monitors: Declared<MonitorConfig>[];
  monitorGroups: Declared<MonitorGroupConfig>[];
  vaultSections: Declared<VaultSectionConfig>[];
  slas: Declared<SlaConfig>[];
  scheduledReports: Declared<ScheduledReportConfig>[];
  alertDefinitions: Declared<AlertDefinitionConfig>[];
  /** Protections from deletion, patterns first (none: nothing is protected). */
  protection?: Protection[];
  /** Findings of the policy rules on the tree, after waivers (rules about the account are checked on the plan). */
  policy?: PolicyFinding[];
  /** Valid waivers of the rules checked by plan (`scope: 'plan'`), which only the plan can apply. */
  planWaivers?: PlanWaiver[];
  operators?: Declared<OperatorConfig>[];
  operatorGroups?: Declared<OperatorGroupConfig>[];
  rumWebsites?: Declared<RumWebsiteConfig>[];
}
