/**
 * The plan JSON (contract C, `schemas/plan.schema.json`). A local copy until `@monsync/schema` exports `Plan`;
 * field order here is the order the plan is built in, which keeps the JSON byte-stable.
 */
import type { SourceRef } from '../desired.js';

export type StepKind =
  | 'monitor'
  | 'monitorGroup'
  | 'groupMembership'
  | 'vaultSection'
  | 'vaultItem'
  | 'sla'
  | 'slaExclusionPeriod'
  | 'scheduledReport'
  | 'alertDefinition';

export type StepAction = 'create' | 'update' | 'delete' | 'ensure';

export interface PlanChange {
  op: 'add' | 'remove' | 'replace';
  /** JSON pointer into the object; set-like arrays are addressed by their key (`/ErrorConditions/HttpStatus/Value`). */
  path: string;
  before?: unknown;
  after?: unknown;
  sensitive?: boolean;
}

export interface PlanDrift {
  lastModifiedDate?: string;
  lastModifiedByOperatorId?: string;
  operatorName?: string;
}

export interface PlanStep {
  /** Stable: `<kind>:<key>`, plus `:<action>` (then `:<guid>`) only when needed for uniqueness. */
  id: string;
  action: StepAction;
  kind: StepKind;
  /** Natural key (membership `<group>/<monitor>`, item `<section>/<item>`, period `<sla>/<period>`). */
  key: string;
  /** Live GUID or id when known; child kinds use `<parentGuid>/<id>` because their requests need both. */
  guid?: string;
  changes: PlanChange[];
  dependsOn: string[];
  reason?: string;
  drift?: PlanDrift;
  source?: SourceRef;
  /** Body to send for create/update; secrets as `{ sensitive: true, fingerprint }`, GUIDs of objects created in this plan as placeholders. */
  desired?: Record<string, unknown>;
}

export interface PlanViolation {
  kind: string;
  action: 'delete' | 'update';
  count: number;
  total: number;
  percent: number;
  limit: number;
  message: string;
}

export interface PlanWarning {
  code: string;
  message: string;
  kind?: string;
  key?: string;
}

export interface PlanSummary {
  create: number;
  update: number;
  delete: number;
  ensure: number;
  unchanged: number;
  unmanaged: number;
}

export interface Plan {
  formatVersion: 1;
  configDigest: string;
  liveDigest: string;
  summary: PlanSummary;
  safe: boolean;
  violations: PlanViolation[];
  steps: PlanStep[];
  unmanaged: { kind: string; key: string; guid: string }[];
  warnings: PlanWarning[];
}

/** Rendered in place of every secret value. */
export const SENSITIVE = '(sensitive)';
