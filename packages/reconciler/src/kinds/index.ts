import { alertDefinitionMemberKind } from './alert-definition-member.js';
import { alertDefinitionKind } from './alert-definition.js';
import { escalationLevelIntegrationKind } from './escalation-level-integration.js';
import { escalationLevelMemberKind } from './escalation-level-member.js';
import { escalationLevelKind } from './escalation-level.js';
import type { KindModule } from './contract.js';
import { dutyScheduleKind } from './duty-schedule.js';
import { groupMembershipKind } from './group-membership.js';
import { monitorGroupKind } from './monitor-group.js';
import { monitorKind } from './monitor.js';
import { operatorAuthorizationKind } from './operator-authorization.js';
import { operatorGroupAuthorizationKind } from './operator-group-authorization.js';
import { operatorGroupMemberKind } from './operator-group-member.js';
import { operatorGroupKind } from './operator-group.js';
import { operatorKind } from './operator.js';
import { rumWebsiteKind } from './rum-website.js';
import { vaultAccessKind } from './vault-access.js';
import { scheduledReportKind } from './scheduled-report.js';
import { slaExclusionPeriodKind } from './sla-exclusion-period.js';
import { slaKind } from './sla.js';
import { vaultItemKind } from './vault-item.js';
import { vaultSectionKind } from './vault-section.js';
import { KIND_ENTRIES } from '@monsync/schema';
import type { StepKind } from '../plan/types.js';

/** The module of every kind of the registry: a kind of the registry without a module does not compile. */
const MODULES: { readonly [K in StepKind]: KindModule } = {
  operator: operatorKind,
  operatorAuthorization: operatorAuthorizationKind,
  operatorGroup: operatorGroupKind,
  operatorGroupMember: operatorGroupMemberKind,
  operatorGroupAuthorization: operatorGroupAuthorizationKind,
  dutySchedule: dutyScheduleKind,
  vaultSection: vaultSectionKind,
  vaultAccess: vaultAccessKind,
  vaultItem: vaultItemKind,
  monitorGroup: monitorGroupKind,
  monitor: monitorKind,
  groupMembership: groupMembershipKind,
  sla: slaKind,
  slaExclusionPeriod: slaExclusionPeriodKind,
  scheduledReport: scheduledReportKind,
  alertDefinition: alertDefinitionKind,
  escalationLevel: escalationLevelKind,
  alertDefinitionMember: alertDefinitionMemberKind,
  escalationLevelMember: escalationLevelMemberKind,
  escalationLevelIntegration: escalationLevelIntegrationKind,
  rumWebsite: rumWebsiteKind,
};

/** Every kind module, in the registry's plan order: creates and updates run in this order, deletes in reverse. */
export const KINDS: readonly KindModule[] = KIND_ENTRIES.map((entry) => MODULES[entry.kind]);

/**
 * Kinds whose creates may replace an object of `kind` a plan deletes: its own kind (a rename without a pinned GUID
 * is a create and a delete), and the kinds of the objects that live inside one (a replacement SLA is whole only
 * with its exclusion periods, a replacement monitor with its memberships, a replacement section with its items).
 */
export function replacedBy(kind: StepKind): StepKind[] {
  return [kind, ...KINDS.filter((m) => m.parents?.includes(kind) === true).map((m) => m.kind)];
}

export function kindModule(kind: StepKind): KindModule {
  return MODULES[kind];
}

export {
  alertDefinitionKind,
  alertDefinitionMemberKind,
  escalationLevelIntegrationKind,
  escalationLevelKind,
  escalationLevelMemberKind,
  dutyScheduleKind,
  groupMembershipKind,
  monitorGroupKind,
  monitorKind,
  operatorAuthorizationKind,
  operatorGroupAuthorizationKind,
  operatorGroupKind,
  operatorGroupMemberKind,
  operatorKind,
  rumWebsiteKind,
  scheduledReportKind,
  slaExclusionPeriodKind,
  slaKind,
  vaultAccessKind,
  vaultItemKind,
  vaultSectionKind,
};
