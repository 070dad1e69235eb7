/**
 * How operators reach the vault sections the tree manages through operator groups, read from the snapshot: the API
 * account's operator may read a section only through a group it is in, and then neither that membership nor that
 * group's access may go (no self lock-out; docs/architecture.md, Identity, ownership and secrets).
 */
import { OPERATOR_GROUP_MEMBER_KIND, VAULT_ACCESS_KIND, VAULT_SECTION_KIND } from '@monsync/schema';
import type { DesiredState } from '../desired.js';
import { listed, listedPerParent } from '../live/snapshot.js';
import type { LiveSnapshot } from '../live/types.js';
import { principalOf } from './vault-access.js';
import { idOf } from './shared.js';

/** A managed section one group has access to, and the operators that hold access of their own to it. */
export interface GroupRoute {
  section: string;
  sectionGuid: string;
  direct: ReadonlySet<string>;
}

/** Per group GUID (lower case): the declared sections the group has access to. Empty when no access was read. */
export function groupRoutes(snapshot: LiveSnapshot, desired: DesiredState): Map<string, GroupRoute[]> {
  const routes = new Map<string, GroupRoute[]>();
  const lists = listedPerParent(snapshot, VAULT_ACCESS_KIND.kind);
  const sectionGuids = Object.keys(lists);
  if (sectionGuids.length === 0) return routes;
  const declared = new Set(desired.vaultSections.map(({ value }) => value.Name));
  const names = new Map(listed(snapshot, VAULT_SECTION_KIND.kind).map((s) => [idOf(s, 'VaultSectionGuid').toLowerCase(), idOf(s, 'Name')]));
  for (const sectionGuid of sectionGuids) {
    const section = names.get(sectionGuid.toLowerCase());
    if (section === undefined || !declared.has(section)) continue;
    const direct = new Set<string>();
    const groups = new Set<string>();
    for (const authorization of lists[sectionGuid] ?? []) {
      const principal = principalOf(authorization);
      if (principal === undefined) continue;
      if (principal.who === 'group') groups.add(principal.guid.toLowerCase());
      else direct.add(principal.guid.toLowerCase());
    }
    for (const group of groups) routes.set(group, [...(routes.get(group) ?? []), { section, sectionGuid, direct }]);
  }
  return routes;
}

/** Per group GUID (lower case): its members' operator GUIDs (lower case), for the groups whose members were read. */
export function membersByGroup(snapshot: LiveSnapshot): Map<string, Set<string>> {
  const lists = listedPerParent(snapshot, OPERATOR_GROUP_MEMBER_KIND.kind);
  return new Map(Object.entries(lists).map(([group, members]) => [group.toLowerCase(), new Set(members.map((m) => idOf(m, 'OperatorGuid').toLowerCase()))]));
}

/**
 * Why `operator`'s membership of `group` must stay: the group is its one way into a managed section (it holds no
 * access of its own there, and is in no other group with access to it whose membership `stays` after the plan), and
 * it is, or may be, the API account's. A membership the plan removes too is no way in: two routes removed in one
 * plan would otherwise each count on the other, and both would go.
 */
export function membershipKeptBecause(
  routes: ReadonlyMap<string, readonly GroupRoute[]>,
  members: ReadonlyMap<string, ReadonlySet<string>>,
  membership: { group: string; operator: string; stays: (group: string, operator: string) => boolean },
  self: { knows: boolean; is: boolean },
): string | undefined {
  if (self.knows && !self.is) return undefined;
  const [g, o] = [membership.group.toLowerCase(), membership.operator.toLowerCase()];
  const elsewhere = (other: string, list: readonly GroupRoute[], route: GroupRoute): boolean =>
    other !== g && members.get(other)?.has(o) === true && membership.stays(other, o) && list.some((r) => r.sectionGuid === route.sectionGuid);
  const only = (routes.get(g) ?? []).find((route) => !route.direct.has(o) && ![...routes].some(([other, list]) => elsewhere(other, list, route)));
  if (only === undefined) return undefined;
  const section = JSON.stringify(only.section);
  return self.knows
    ? `the API account's operator reads vault section ${section} only through this group (it holds no access of its own to the section), so removing it would lock monsync out of a section it manages; give it access of its own in the section's \`access:\` first, in a plan of its own`
    : `monsync cannot tell which operator the API account acts for, and this membership may be how it reads vault section ${section} (name it with \`apiOperator:\` in monsync.yaml)`;
}
