import { GROUP_MEMBERSHIP_KIND, MONITOR_GROUP_KIND, MONITOR_KIND } from '@monsync/schema';
import { listedPerParent } from '../live/snapshot.js';
import { desiredEntry, liveEntry, placeholder, type KindModule, type LiveEntry } from './contract.js';
import { bodyString, idOf, splitCompound } from './shared.js';

const GROUP = MONITOR_GROUP_KIND.kind;
const MONITOR = MONITOR_KIND.kind;

/**
 * A monitor in a group, declared by the group's `members` list (monitor names). Only groups that declare
 * `members` have their membership reconciled, and for them the list is authoritative. Step GUID:
 * `<groupGuid>/<monitorGuid>`; the create body carries both GUIDs (path parameters, not sent as a body).
 */
export const groupMembershipKind: KindModule = {
  ...GROUP_MEMBERSHIP_KIND,
  serverDefaults: {},
  relation: true,
  parents: [GROUP, MONITOR],
  ownedBy: [GROUP, MONITOR],
  builtFrom: [GROUP, 'groupMembership', MONITOR],
  read: {
    perParent: {
      parent: GROUP,
      // The All Monitors group holds every monitor and its membership cannot change: nothing to read there.
      of: (group) => group.IsAll !== true,
      list: (client, groupGuid) => client.monitorGroups.members(groupGuid),
      what: (group) => `members of monitor group "${idOf(group, 'Description')}" (${idOf(group, 'MonitorGroupGuid')})`,
      keep: (member) => ({ MonitorGuid: idOf(member, 'MonitorGuid') }),
    },
  },
  // A membership that exists is all there is to it: nothing to compare.
  diff: () => [],
  memberSets: {
    parent: GROUP,
    declared: (state) => state.monitorGroups.filter(({ value }) => Array.isArray(value.members)).map(({ value }) => ({ parent: value.Description, members: [{ kind: MONITOR, keys: value.members ?? [] }] })),
    listed: (snapshot) => listedPerParent(snapshot, 'groupMembership'),
    memberKind: () => MONITOR,
    memberGuid: (member) => idOf(member, 'MonitorGuid'),
  },

  desired(state) {
    return state.monitorGroups.flatMap(({ value, source }) =>
      (value.members ?? []).map((member) =>
        desiredEntry('groupMembership', `${value.Description}/${member}`, {}, source, [
          { kind: GROUP, key: value.Description },
          { kind: MONITOR, key: member },
        ]),
      ),
    );
  },

  live(snapshot, resolver) {
    const entries: LiveEntry[] = [];
    const members = listedPerParent(snapshot, 'groupMembership');
    for (const groupGuid of Object.keys(members)) {
      const group = resolver.desiredOf(GROUP, groupGuid);
      if (group?.manages?.includes('groupMembership') !== true) continue;
      for (const member of members[groupGuid] ?? []) {
        const monitorGuid = idOf(member, 'MonitorGuid');
        entries.push(
          liveEntry('groupMembership', `${group.key}/${resolver.keyOf(MONITOR, monitorGuid) ?? monitorGuid}`, `${groupGuid}/${monitorGuid}`, {}, [
            { kind: GROUP, guid: groupGuid },
            { kind: MONITOR, guid: monitorGuid },
          ]),
        );
      }
    }
    return entries;
  },

  createExtras(entry, resolver) {
    const [group, monitor] = entry.refs;
    const guidOr = (kind: typeof GROUP | typeof MONITOR, key: string): string => resolver.guidOf(kind, key) ?? placeholder(kind, key);
    return {
      MonitorGroupGuid: guidOr(GROUP, group?.key ?? ''),
      MonitorGuid: guidOr(MONITOR, monitor?.key ?? ''),
    };
  },

  requests: {
    async create(client, _step, body) {
      const group = bodyString(body, 'MonitorGroupGuid');
      const monitor = bodyString(body, 'MonitorGuid');
      await client.monitorGroups.addMember(group, monitor);
      return `${group}/${monitor}`;
    },
    update() {
      return Promise.reject(new Error('a group membership has nothing to update'));
    },
    async delete(client, step) {
      const [group, monitor] = splitCompound(step.guid);
      await client.monitorGroups.removeMember(group, monitor);
    },
    async find(client, _step, body) {
      const group = bodyString(body, 'MonitorGroupGuid');
      const monitor = bodyString(body, 'MonitorGuid');
      const members = await client.monitorGroups.members(group).toArray();
      return members.some((m) => m.MonitorGuid === monitor) ? `${group}/${monitor}` : undefined;
    },
  },
};
