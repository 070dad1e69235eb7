import type { DesiredState } from '../desired.js';
import { KINDS, monitorKind, operatorGroupKind, vaultAccessKind, vaultItemKind } from '../kinds/index.js';
import { vaultReferencesIn } from '../kinds/monitor.js';
import { namesIntegrations } from '../kinds/alerting.js';
import { namesOutgoingPhoneNumbers } from '../kinds/outgoing-phone-number.js';
import type { LiveScope } from '../live/types.js';
import type { StepKind } from './types.js';

/**
 * The kinds to read: the managed kinds, those they reference (a group's members are monitors; a monitor's vault
 * references are vault items) and those that can keep a pruned object in use (monitors, when the vault is pruned).
 * Nothing else is read, so an account's other data costs no requests.
 */
export function liveScope(desired: DesiredState): LiveScope {
  const manage = desired.settings.manage;
  const wanted = new Set<StepKind>();
  for (const mod of KINDS) {
    if (manage[mod.section] === undefined || mod.readWhen?.(desired) === false) continue;
    for (const kind of mod.builtFrom) wanted.add(kind);
  }
  // A monitor's vault references are looked up among the items read, whether or not the vault is managed.
  if (manage[monitorKind.section] !== undefined && desired.monitors.some(({ value }) => vaultReferencesIn(value).length > 0)) {
    for (const kind of vaultItemKind.builtFrom) wanted.add(kind);
  }
  // A group the tree prunes, or a membership it removes, may be the API account's way into a section it manages: the
  // sections' access is read to tell (kinds/self-routes.ts), though no section declares `access`.
  if (manage[vaultAccessKind.section] !== undefined && desired.vaultSections.length > 0 && cutsGroupRoutes(desired)) {
    for (const kind of vaultAccessKind.builtFrom) wanted.add(kind);
  }
  // A pruned object cannot be deleted while anything refers to it, managed or not: the plan must see every referrer.
  const pruned = new Set(KINDS.filter((mod) => manage[mod.section]?.prune === true).map((mod) => mod.kind));
  for (const mod of KINDS) if (mod.references?.kinds.some((kind) => pruned.has(kind)) === true) for (const kind of mod.builtFrom) wanted.add(kind);
  const operators = KINDS.some((mod) => manage[mod.section] !== undefined && mod.lastModified !== undefined);
  const scope: LiveScope = { kinds: KINDS.map((m) => m.kind).filter((k) => wanted.has(k)), operators };
  // A child kind the tree declares under some parents only (an operator's authorizations) is listed under those.
  for (const mod of KINDS) {
    const only = mod.read?.perParent?.only;
    if (only !== undefined && wanted.has(mod.kind)) (scope.parents ??= {})[mod.kind] = only(desired);
  }
  // Only when a number is named: a tree of ids costs no request.
  if (namesOutgoingPhoneNumbers(desired)) scope.outgoingPhoneNumbers = true;
  if (namesIntegrations(desired)) scope.integrations = true;
  return scope;
}

/** Whether the tree may delete an operator group or remove a member from one (it prunes groups, or declares members). */
function cutsGroupRoutes(desired: DesiredState): boolean {
  const groups = desired.settings.manage[operatorGroupKind.section];
  return groups !== undefined && (groups.prune || (desired.operatorGroups ?? []).some(({ value }) => Array.isArray(value.members)));
}
