import type { SourceRef } from '@monsync/schema';
/** The desired state the reconciler consumes (`DesiredState`, docs/architecture.md: The config format), from `@monsync/schema`, plus structural helpers. */

export type {
  AlertDefinitionConfig,
  Declared,
  DesiredState,
  ExclusionPeriodConfig,
  ManagedKind,
  MonitorConfig,
  MonitorGroupConfig,
  OperatorConfig,
  OperatorGroupConfig,
  RumWebsiteConfig,
  ScheduledReportConfig,
  Settings,
  SlaConfig,
  SourceRef,
  VaultItemConfig,
  VaultRef,
  VaultAccessConfig,
  VaultSectionConfig,
} from '@monsync/schema';

/**
 * A write-only value declared by reference (the schema package's `Secret`). Matched structurally so that two
 * installed copies of the schema package, or a test double, are recognised alike.
 */
export interface SecretValue {
  describe(): string;
  reveal(): string;
  /** Where the reference is written (the schema's `Secret` has it), for a problem about its value. */
  readonly source?: SourceRef;
}

/** PascalCase API fields pass through; monsync's own keys are camelCase. */
export interface ApiFields {
  [field: string]: unknown;
}

export function isSecretValue(value: unknown): value is SecretValue {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { reveal?: unknown; describe?: unknown };
  return typeof candidate.reveal === 'function' && typeof candidate.describe === 'function';
}

export function isVaultRef(value: unknown): value is { vault: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === 'vault' && typeof (value as { vault: unknown }).vault === 'string';
}
