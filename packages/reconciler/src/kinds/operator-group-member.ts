import { OPERATOR_GROUP_KIND, OPERATOR_GROUP_MEMBER_KIND, OPERATOR_KIND } from '@monsync/schema';
import { listedPerParent } from '../live/snapshot.js';
import { desiredEntry, liveEntry, placeholder, type KindModule, type LiveEntry } from './contract.js';
import { isEveryoneGroup } from './operator-group.js';
import { selfRoutes } from './self-routes.js';
import { bodyString, idOf, splitCompound } from './shared.js';

const GROUP = OPERATOR_GROUP_KIND.kind;
const OPERATOR = OPERATOR_KIND.kind;

/**
 * An operator in a group, declared by the group's `members` list (e-mails). Only groups that declare `members`
 * have their membership reconciled, and for them the list is authoritative. Step GUID: `<groupGuid>/<operatorGuid>`.
 * Members are listed as `{OperatorGuid}` items (published) or whole operators; `POST .../Member/{operatorGuid}`
 * answers 201 with no body.
 */
export const operatorGroupMemberKind: KindModule = {
  ...OPERATOR_GROUP_MEMBER_KIND,
  serverDefaults: {},
  relation: true,
  parents: [GROUP, OPERATOR],
  ownedBy: [GROUP, OPERATOR],
  builtFrom: [GROUP, 'operatorGroupMember', OPERATOR],
  read: {
    perParent: {
      parent: GROUP,
      // Everyone holds every operator and cannot change: listing it would list the account again.
      of: (group) => !isEveryoneGroup(group),
      list: (client, groupGuid) => client.operatorGroups.members(groupGuid),
      what: (group) => `members of operator group "${idOf(group, 'Description')}" (${idOf(group, 'OperatorGroupGuid')})`,
      keep: (member) => ({ OperatorGuid: idOf(member, 'OperatorGuid') }),
    },
  },
  diff: () => [],

  desired(state) {
    return (state.operatorGroups ?? []).flatMap(({ value, source }) =>
      (value.members ?? []).map((email) =>
        desiredEntry('operatorGroupMember', `${value.Description}/${email}`, {}, source, [
          { kind: GROUP, key: value.Description },
          { kind: OPERATOR, key: email },
        ]),
      ),
    );
  },

  // A membership that is the API account's one way into a managed vault section stays (self-routes.ts).
  keptWhy: (entry) => (typeof entry.fields.kept === 'string' ? entry.fields.kept : undefined),

  live(snapshot, resolver, desired) {
    const entries: LiveEntry[] = [];
    const members = listedPerParent(snapshot, 'operatorGroupMember');
    const routes = selfRoutes(snapshot, desired, resolver);
    for (const groupGuid of Object.keys(members)) {
      const group = resolver.desiredOf(GROUP, groupGuid);
      if (group?.manages?.includes('operatorGroupMember') !== true) continue;
      for (const member of members[groupGuid] ?? []) {
        const operatorGuid = idOf(member, 'OperatorGuid');
        const kept = routes.membership(groupGuid, operatorGuid);
        entries.push(
          liveEntry('operatorGroupMember', `${group.key}/${resolver.keyOf(OPERATOR, operatorGuid) ?? operatorGuid}`, `${groupGuid}/${operatorGuid}`, kept === undefined ? {} : { kept }, [
            { kind: GROUP, guid: groupGuid },
            { kind: OPERATOR, guid: operatorGuid },
          ]),
        );
      }
    }
    return entries;
  },

  createExtras(entry, resolver) {
    const [group, operator] = entry.refs;
    const guidOr = (kind: typeof GROUP | typeof OPERATOR, key: string): string => resolver.guidOf(kind, key) ?? placeholder(kind, key);
    return { OperatorGroupGuid: guidOr(GROUP, group?.key ?? ''), OperatorGuid: guidOr(OPERATOR, operator?.key ?? '') };
  },

  requests: {
    async create(client, _step, body) {
      const group = bodyString(body, 'OperatorGroupGuid');
      const operator = bodyString(body, 'OperatorGuid');
      await client.operatorGroups.addMember(group, operator);
      return `${group}/${operator}`;
    },
    update() {
      return Promise.reject(new Error('an operator group membership has nothing to update'));
    },
    async delete(client, step) {
      const [group, operator] = splitCompound(step.guid);
      await client.operatorGroups.removeMember(group, operator);
    },
    async find(client, _step, body) {
      const group = bodyString(body, 'OperatorGroupGuid');
      const operator = bodyString(body, 'OperatorGuid');
      const members = await client.operatorGroups.members(group).toArray();
      return members.some((m) => idOf(m, 'OperatorGuid').toLowerCase() === operator.toLowerCase()) ? `${group}/${operator}` : undefined;
    },
  },
};
