/**
 * The desired state the reconciler consumes (contract B). A local copy until `@monsync/schema` exports these
 * types; it is written structurally so that the schema package's `DesiredState` is assignable to it.
 */

/** Where a declaration was written: `file` relative to the config root, 1-based line and column. */
export interface SourceRef {
  file: string;
  line: number;
  column: number;
}

export type ManagedKind = 'monitors' | 'monitorGroups' | 'vault' | 'slas' | 'scheduledReports' | 'alertDefinitions';

export const MANAGED_KINDS: readonly ManagedKind[] = ['monitors', 'monitorGroups', 'vault', 'slas', 'scheduledReports', 'alertDefinitions'];

export interface Settings {
  apiVersion: 'monsync/v1';
  /** A kind absent from `manage` is not planned at all. */
  manage: Partial<Record<ManagedKind, { prune: boolean }>>;
  /** `kind:glob`, kind singular (`monitor:legacy-*`). */
  ignore: string[];
  safety: { maxDeletePercent: number; maxUpdatePercent: number };
}

export interface Declared<T> {
  value: T;
  source: SourceRef;
}

/**
 * A write-only value declared by reference (the schema package's `Secret`). Matched structurally so that two
 * installed copies of the schema package, or a test double, are recognised alike.
 */
export interface SecretValue {
  describe(): string;
  reveal(): string;
}

/** `{ vault: "Section/Item" }` in a monitor variable value. */
export interface VaultRef {
  vault: string;
}

/** PascalCase API fields pass through; monsync's own keys are camelCase. */
export interface ApiFields {
  [field: string]: unknown;
}

export interface MonitorConfig extends ApiFields {
  Name: string;
}

export interface MonitorGroupConfig extends ApiFields {
  Description: string;
  members?: string[];
}

export interface VaultItemConfig extends ApiFields {
  Name: string;
}

export interface VaultSectionConfig extends ApiFields {
  Name: string;
  items?: Declared<VaultItemConfig>[];
}

export interface ExclusionPeriodConfig extends ApiFields {
  Description: string;
}

export interface SlaConfig extends ApiFields {
  Description: string;
  exclusionPeriods?: Declared<ExclusionPeriodConfig>[];
}

export interface ScheduledReportConfig extends ApiFields {
  key: string;
}

export interface AlertDefinitionConfig extends ApiFields {
  AlertDefinitionGuid: string;
  IsActive: boolean;
}

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
}

export function isSecretValue(value: unknown): value is SecretValue {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { reveal?: unknown; describe?: unknown };
  return typeof candidate.reveal === 'function' && typeof candidate.describe === 'function';
}

export function isVaultRef(value: unknown): value is VaultRef {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === 'vault' && typeof (value as { vault: unknown }).vault === 'string';
}
