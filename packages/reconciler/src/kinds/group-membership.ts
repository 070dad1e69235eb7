import { desiredEntry, liveEntry, placeholder, type KindModule, type LiveEntry } from './contract.js';
import { bodyString, splitCompound } from './shared.js';

/**
 * A monitor in a group, declared by the group's `members` list (monitor names). Only groups that declare
 * `members` have their membership reconciled, and for them the list is authoritative. Step GUID:
 * `<groupGuid>/<monitorGuid>`; the create body carries both GUIDs (path parameters, not sent as a body).
 */
export const groupMembershipKind: KindModule = {
  kind: 'groupMembership',
  title: 'group memberships',
  manage: 'monitorGroups',
  guidField: '',
  readOnlyFields: [],
  writeOnlyFields: [],
  setFields: [],
  serverDefaults: {},
  relation: true,
  parents: ['monitorGroup', 'monitor'],
  ownedBy: ['monitorGroup', 'monitor'],
  reads: ['monitorGroup', 'groupMembership', 'monitor'],

  desired(state) {
    return state.monitorGroups.flatMap(({ value, source }) =>
      (value.members ?? []).map((member) =>
        desiredEntry('groupMembership', `${value.Description}/${member}`, {}, source, [
          { kind: 'monitorGroup', key: value.Description },
          { kind: 'monitor', key: member },
        ]),
      ),
    );
  },

  live(snapshot, resolver) {
    const entries: LiveEntry[] = [];
    for (const groupGuid of Object.keys(snapshot.groupMembers)) {
      const group = resolver.desiredOf('monitorGroup', groupGuid);
      if (group?.manages?.includes('groupMembership') !== true) continue;
      for (const monitorGuid of snapshot.groupMembers[groupGuid] ?? []) {
        entries.push(
          liveEntry('groupMembership', `${group.key}/${resolver.keyOf('monitor', monitorGuid) ?? monitorGuid}`, `${groupGuid}/${monitorGuid}`, {}, [
            { kind: 'monitorGroup', guid: groupGuid },
            { kind: 'monitor', guid: monitorGuid },
          ]),
        );
      }
    }
    return entries;
  },

  createExtras(entry, resolver) {
    const [group, monitor] = entry.refs;
    const guidOr = (kind: 'monitorGroup' | 'monitor', key: string): string => resolver.guidOf(kind, key) ?? placeholder(kind, key);
    return {
      MonitorGroupGuid: guidOr('monitorGroup', group?.key ?? ''),
      MonitorGuid: guidOr('monitor', monitor?.key ?? ''),
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
