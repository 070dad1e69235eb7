import { alertDefinitionKind } from './alert-definition.js';
import type { KindModule } from './contract.js';
import { groupMembershipKind } from './group-membership.js';
import { monitorGroupKind } from './monitor-group.js';
import { monitorKind } from './monitor.js';
import { scheduledReportKind } from './scheduled-report.js';
import { slaExclusionPeriodKind } from './sla-exclusion-period.js';
import { slaKind } from './sla.js';
import { vaultItemKind } from './vault-item.js';
import { vaultSectionKind } from './vault-section.js';
import type { StepKind } from '../plan/types.js';

/** DESIGN §5 order: creates and updates run in this order, deletes in reverse. */
export const KINDS: readonly KindModule[] = [
  vaultSectionKind,
  vaultItemKind,
  monitorGroupKind,
  monitorKind,
  groupMembershipKind,
  slaKind,
  slaExclusionPeriodKind,
  scheduledReportKind,
  alertDefinitionKind,
];

/**
 * Kinds whose creates may replace an object of `kind` a plan deletes: its own kind (a rename without a pinned GUID
 * is a create and a delete), and the kinds of the objects that live inside one (a replacement SLA is whole only
 * with its exclusion periods, a replacement monitor with its memberships, a replacement section with its items).
 */
export function replacedBy(kind: StepKind): StepKind[] {
  return [kind, ...KINDS.filter((m) => m.parents?.includes(kind) === true).map((m) => m.kind)];
}

export function kindModule(kind: StepKind): KindModule {
  const found = KINDS.find((m) => m.kind === kind);
  if (found === undefined) throw new Error(`no kind module for ${kind}`);
  return found;
}

export {
  alertDefinitionKind,
  groupMembershipKind,
  monitorGroupKind,
  monitorKind,
  scheduledReportKind,
  slaExclusionPeriodKind,
  slaKind,
  vaultItemKind,
  vaultSectionKind,
};
