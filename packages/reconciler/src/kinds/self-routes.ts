/**
 * How the API account's operator reaches the vault sections the tree manages, and which of those ways in a plan must
 * not cut (no self lock-out; docs/architecture.md, The lock-out guard). A way in is an access of its own to the
 * section, or a group it is in that has access to it. Each is read twice: as listed (before the plan) and as the tree
 * declares it (after): a group stays unless `prune` deletes it, a group's members are its declared `members` when it
 * declares them, a section's access is its declared `access` when it declares it. monsync needs `change` on a section
 * it manages (the service asks for it to update or delete the section and to write any of its items), or as much as
 * it had. When the plan would leave it less, every way in the plan cuts or lowers that gave more is kept, with the
 * reason: the membership, the group, the group's access, the operator's own access. Ways in the plan changes never
 * count on each other, so two cut in one plan both stay; nor do ways in the plan makes (apply may cut the old one
 * before it makes the new), so the fix a reason gives is a plan of its own.
 *
 * Who the API account's operator is: known (`Resolver.isSelf`), then a group whose members were not read may hold it;
 * unknown, any operator may be it, and a group whose members were not read may hold any.
 */
import { OPERATOR_GROUP_KIND, OPERATOR_GROUP_MEMBER_KIND, OPERATOR_KIND, VAULT_ACCESS_KIND, VAULT_SECTION_KIND, type VaultAccessConfig } from '@monsync/schema';
import type { DesiredState } from '../desired.js';
import { listed, listedPerParent } from '../live/snapshot.js';
import type { LiveSnapshot } from '../live/types.js';
import type { Resolver } from './contract.js';
import { isAdministratorsGroup, isEveryoneGroup } from './operator-group-flags.js';
import { idOf, pinned } from './shared.js';
import { principalOf } from './vault-principal.js';

const OPERATOR = OPERATOR_KIND.kind;

/** Levels of access, in order: what `view` and `change` (Change and View) grant. */
type Level = 0 | 1 | 2;
const NONE: Level = 0;
const CHANGE: Level = 2;

/** The level of a declared `level` (`view`, `change`) or of one the vault-access kind read (`change (without view)`). */
export function levelRank(level: unknown): Level {
  if (typeof level !== 'string') return NONE;
  if (level.startsWith('change')) return CHANGE;
  return level === 'view' ? 1 : NONE;
}

/** Why each way in must stay, by what it is; keys lower case. */
export interface SelfRoutes {
  /** `<groupGuid>/<operatorGuid>`: an operator's membership of a group. */
  membership(groupGuid: string, operatorGuid: string): string | undefined;
  group(groupGuid: string): string | undefined;
  /** `principal`: `operator:<guid>` or `group:<guid>`. */
  access(sectionGuid: string, principal: string): string | undefined;
}

/** A managed section: its name, and each principal's level as listed and as declared (`operator:<guid>`, `group:<guid>`). */
interface Section {
  guid: string;
  name: string;
  before: Map<string, Level>;
  after: Map<string, Level>;
}

/** A group as a way in: whether it stays, and its members as listed and as declared (undefined: not read / not declared). */
interface Group {
  guid: string;
  stays: boolean;
  everyone: boolean;
  before: ReadonlySet<string> | undefined;
  after: ReadonlySet<string> | undefined;
}

/**
 * Who may be the API account's operator: an operator (`guid`), or one only known to be in a group whose members were
 * not read (`only`). `assumed`: whether it is taken to be in every group whose members were not read (the known
 * operator is, before the plan: it may be in any of them).
 */
interface Candidate {
  guid: string;
  self: 'known' | 'unknown';
  assumed: boolean;
  only?: string;
}

const NO_ROUTES: SelfRoutes = { membership: () => undefined, group: () => undefined, access: () => undefined };
const cache = new WeakMap<Resolver, { snapshot: LiveSnapshot; desired: DesiredState; routes: SelfRoutes }>();

/** The ways in of a plan, worked out once for the kinds that ask (groups, memberships, access). */
export function selfRoutes(snapshot: LiveSnapshot, desired: DesiredState, resolver: Resolver): SelfRoutes {
  const cached = cache.get(resolver);
  if (cached !== undefined && cached.snapshot === snapshot && cached.desired === desired) return cached.routes;
  const routes = routesOf(snapshot, desired, resolver);
  cache.set(resolver, { snapshot, desired, routes });
  return routes;
}

function routesOf(snapshot: LiveSnapshot, desired: DesiredState, resolver: Resolver): SelfRoutes {
  const lists = listedPerParent(snapshot, VAULT_ACCESS_KIND.kind);
  if (Object.keys(lists).length === 0) return NO_ROUTES;
  const groupGuids = new Map(listed(snapshot, OPERATOR_GROUP_KIND.kind).map((g) => [idOf(g, 'Description'), idOf(g, 'OperatorGroupGuid').toLowerCase()]));
  const sections = sectionsOf(snapshot, desired, resolver, groupGuids);
  if (sections.length === 0) return NO_ROUTES;
  const groups = groupsOf(snapshot, desired, resolver);
  const kept = { membership: new Map<string, string>(), group: new Map<string, string>(), access: new Map<string, string>() };
  for (const candidate of candidatesOf(sections, groups, resolver)) {
    for (const section of sections) keepRoutes(candidate, section, groups, kept);
  }
  return {
    membership: (group, operator) => kept.membership.get(`${group}/${operator}`.toLowerCase()),
    group: (group) => kept.group.get(group.toLowerCase()),
    access: (section, principal) => kept.access.get(`${section}/${principal}`.toLowerCase()),
  };
}

/** The declared sections as listed, with each principal's level before and after the plan. */
function sectionsOf(snapshot: LiveSnapshot, desired: DesiredState, resolver: Resolver, groupGuids: ReadonlyMap<string, string>): Section[] {
  const lists = listedPerParent(snapshot, VAULT_ACCESS_KIND.kind);
  const declared = new Map<string, { access: VaultAccessConfig[] | undefined }>();
  const pins = new Map<string, string>();
  for (const { value } of desired.vaultSections) {
    const access = (value as { access?: unknown }).access;
    declared.set(value.Name, { access: Array.isArray(access) ? (access as VaultAccessConfig[]) : undefined });
    const pin = pinned(value, 'VaultSectionGuid');
    if (pin !== undefined) pins.set(pin.toLowerCase(), value.Name);
  }
  const sections: Section[] = [];
  for (const section of listed(snapshot, VAULT_SECTION_KIND.kind)) {
    const guid = idOf(section, 'VaultSectionGuid');
    const name = pins.get(guid.toLowerCase()) ?? idOf(section, 'Name');
    const tree = declared.get(name);
    const authorizations = lists[guid];
    if (tree === undefined || authorizations === undefined) continue;
    const before = new Map<string, Level>();
    for (const authorization of authorizations) {
      const principal = principalOf(authorization);
      if (principal === undefined) continue;
      const id = `${principal.who === OPERATOR ? OPERATOR : 'group'}:${principal.guid.toLowerCase()}`;
      const level = idOf(authorization, 'AuthorizationType') === 'ChangeVaultSection' ? CHANGE : 1;
      before.set(id, Math.max(before.get(id) ?? NONE, level) as Level);
    }
    sections.push({ guid: guid.toLowerCase(), name, before, after: tree.access === undefined ? before : accessAfter(tree.access, before, resolver, groupGuids) });
  }
  return sections;
}

/**
 * A section's access once a plan declaring `access` has run: the declared levels, and of the undeclared ones those
 * the vault-access kind keeps whatever happens (the API account's own; any, while it is unknown).
 */
function accessAfter(access: readonly VaultAccessConfig[], before: ReadonlyMap<string, Level>, resolver: Resolver, groupGuids: ReadonlyMap<string, string>): Map<string, Level> {
  const after = new Map<string, Level>();
  for (const [id, level] of before) if (!resolver.knowsSelf() || (id.startsWith(`${OPERATOR}:`) && resolver.isSelf(id.slice(OPERATOR.length + 1)))) after.set(id, level);
  for (const entry of access) {
    const guid = OPERATOR in entry ? resolver.guidOf(OPERATOR, entry.operator) : groupGuids.get(entry.group);
    if (guid !== undefined) after.set(`${OPERATOR in entry ? OPERATOR : 'group'}:${guid.toLowerCase()}`, levelRank(entry.level));
  }
  return after;
}

function groupsOf(snapshot: LiveSnapshot, desired: DesiredState, resolver: Resolver): Group[] {
  const members = listedPerParent(snapshot, OPERATOR_GROUP_MEMBER_KIND.kind);
  const pruned = desired.settings.manage[OPERATOR_GROUP_KIND.section]?.prune === true;
  const names = new Map<string, readonly string[] | undefined>();
  const pins = new Map<string, string>();
  for (const { value } of desired.operatorGroups ?? []) {
    names.set(value.Description, value.members);
    const pin = pinned(value, 'OperatorGroupGuid');
    if (pin !== undefined) pins.set(pin.toLowerCase(), value.Description);
  }
  return listed(snapshot, OPERATOR_GROUP_KIND.kind).map((group) => {
    const guid = idOf(group, 'OperatorGroupGuid');
    const name = pins.get(guid.toLowerCase()) ?? idOf(group, 'Description');
    const listedMembers = members[guid];
    const before = listedMembers === undefined ? undefined : new Set(listedMembers.map((m) => idOf(m, 'OperatorGuid').toLowerCase()));
    const declaredMembers = names.get(name);
    const after = declaredMembers === undefined ? before : new Set(declaredMembers.flatMap((email) => resolver.guidOf(OPERATOR, email)?.toLowerCase() ?? []));
    const stays = names.has(name) || !pruned || isAdministratorsGroup(group) || isEveryoneGroup(group);
    return { guid: guid.toLowerCase(), stays, everyone: isEveryoneGroup(group), before, after };
  });
}

/** Known: the API account's operators among those seen (or one seen nowhere). Unknown: every operator seen, and one per group not read. */
function candidatesOf(sections: readonly Section[], groups: readonly Group[], resolver: Resolver): Candidate[] {
  const seen = new Set<string>();
  for (const section of sections) for (const id of section.before.keys()) if (id.startsWith(`${OPERATOR}:`)) seen.add(id.slice(OPERATOR.length + 1));
  for (const group of groups) for (const member of group.before ?? []) seen.add(member);
  if (resolver.knowsSelf()) {
    const own = [...seen].filter((guid) => resolver.isSelf(guid));
    return (own.length === 0 ? [''] : own).map((guid) => ({ guid, self: 'known', assumed: true }));
  }
  const unread = groups.filter((g) => g.before === undefined && !g.everyone).map((g): Candidate => ({ guid: '', self: 'unknown', assumed: false, only: g.guid }));
  return [...[...seen].map((guid): Candidate => ({ guid, self: 'unknown', assumed: false })), ...unread];
}

function inBefore(candidate: Candidate, group: Group): boolean {
  if (group.everyone) return true;
  if (candidate.only !== undefined) return candidate.only === group.guid;
  return group.before === undefined ? candidate.assumed : group.before.has(candidate.guid);
}

/** Not counted on where it is not known: a group whose members were not read, unless the candidate stands for one. */
function inAfter(candidate: Candidate, group: Group): boolean {
  if (!group.stays) return false;
  if (group.everyone) return true;
  if (candidate.only !== undefined) return candidate.only === group.guid && group.after === undefined;
  return group.after?.has(candidate.guid) === true;
}

/** Records every way into `section` the plan cuts below what `candidate` needs there, with why it stays. */
function keepRoutes(candidate: Candidate, section: Section, groups: readonly Group[], kept: { membership: Map<string, string>; group: Map<string, string>; access: Map<string, string> }): void {
  const own = `${OPERATOR}:${candidate.guid}`;
  const ownBefore = candidate.guid === '' ? NONE : (section.before.get(own) ?? NONE);
  // A way in counts after the plan only as far as it is there before: apply may cut the old one before it makes a new.
  const ownAfter = candidate.guid === '' ? NONE : Math.min(ownBefore, section.after.get(own) ?? NONE);
  const through = groups.map((group) => {
    const before = inBefore(candidate, group) ? (section.before.get(`group:${group.guid}`) ?? NONE) : NONE;
    return { group, before, after: before > NONE && inAfter(candidate, group) ? Math.min(before, section.after.get(`group:${group.guid}`) ?? NONE) : NONE };
  });
  const before = Math.max(ownBefore, ...through.map((t) => t.before));
  const after = Math.max(ownAfter, ...through.map((t) => t.after));
  const needed = Math.min(CHANGE, before);
  if (after >= needed) return;
  const record = (map: Map<string, string>, key: string, thing: Thing): void => {
    if (!map.has(key)) map.set(key, reason(candidate, section, needed as Level, thing));
  };
  if (ownBefore > after && ownBefore > ownAfter) record(kept.access, `${section.guid}/${own}`, 'own');
  for (const { group, before: level, after: left } of through) {
    if (level <= after || level <= left) continue;
    const unread = group.before === undefined && candidate.self === 'known' ? 'unread' : 'group';
    record(kept.group, group.guid, unread);
    record(kept.access, `${section.guid}/group:${group.guid}`, unread);
    if (candidate.guid !== '') record(kept.membership, `${group.guid}/${candidate.guid}`, 'membership');
  }
}

/** What is kept: a group (its members read or not), a membership of one, or the operator's own access. */
type Thing = 'group' | 'unread' | 'membership' | 'own';

function reason(candidate: Candidate, section: Section, needed: Level, thing: Thing): string {
  const name = JSON.stringify(section.name);
  const change = needed === CHANGE;
  const [holds, hold] = change ? [`holds \`change\` on vault section ${name}`, `hold \`change\` on vault section ${name}`] : [`reads vault section ${name}`, `read vault section ${name}`];
  if (candidate.self === 'unknown') {
    const what = thing === 'membership' ? 'this membership' : thing === 'own' ? 'this access' : 'this group';
    return `monsync cannot tell which operator the API account acts for, and ${what} may be how it ${holds} (name it with \`apiOperator:\` in monsync.yaml)`;
  }
  const need = change ? 'monsync needs that to change the section and its items' : 'monsync would no longer see a section it manages';
  const level = change ? 'change' : 'view';
  if (thing === 'own') {
    return `the API account's operator ${holds} only through this access of its own, and ${need}; declare \`level: ${level}\` for it, or give it \`${level}\` through a group first, in a plan of its own`;
  }
  const via = thing === 'unread' ? `may ${hold} only through this group, whose members monsync did not read,` : `${holds} only through this group,`;
  return `the API account's operator ${via} and ${need}; give it \`${level}\` access of its own in the section's \`access:\` first, in a plan of its own`;
}
