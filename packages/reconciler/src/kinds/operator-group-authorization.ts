import { OPERATOR_GROUP_AUTHORIZATION_KIND, OPERATOR_GROUP_KIND } from '@monsync/schema';
import { listedPerParent } from '../live/snapshot.js';
import { desiredEntry, liveEntry, placeholder, type KindModule, type LiveEntry } from './contract.js';
import { isEveryoneGroup } from './operator-group.js';
import { bodyString, idOf, splitCompound } from './shared.js';

const GROUP = OPERATOR_GROUP_KIND.kind;

/**
 * An authorization type a group holds, declared by the group's `authorizations`; authoritative for groups that
 * declare the list. The service takes the type in the path (`POST`/`DELETE .../Authorization/{type}`, 201 empty /
 * 204) and lists type names, so the type is the whole identity: step GUID `<groupGuid>/<type>`. The legacy listing
 * (objects with `AuthorizationType`) is read too.
 */
export const operatorGroupAuthorizationKind: KindModule = {
  ...OPERATOR_GROUP_AUTHORIZATION_KIND,
  serverDefaults: {},
  relation: true,
  parents: [GROUP],
  ownedBy: [GROUP],
  builtFrom: [GROUP, 'operatorGroupAuthorization'],
  read: {
    perParent: {
      parent: GROUP,
      of: (group) => !isEveryoneGroup(group),
      list: (client, groupGuid) => client.operatorGroups.authorizations.list(groupGuid),
      what: (group) => `authorizations of operator group "${idOf(group, 'Description')}" (${idOf(group, 'OperatorGroupGuid')})`,
      keep: (authorization) => ({ AuthorizationType: idOf(authorization, 'AuthorizationType') }),
    },
  },
  diff: () => [],

  desired(state) {
    return (state.operatorGroups ?? []).flatMap(({ value, source }) =>
      (value.authorizations ?? []).map((type) =>
        desiredEntry('operatorGroupAuthorization', `${value.Description}/${type}`, { AuthorizationType: type }, source, [{ kind: GROUP, key: value.Description }]),
      ),
    );
  },

  live(snapshot, resolver) {
    const entries: LiveEntry[] = [];
    const lists = listedPerParent(snapshot, 'operatorGroupAuthorization');
    for (const groupGuid of Object.keys(lists)) {
      const group = resolver.desiredOf(GROUP, groupGuid);
      if (group?.manages?.includes('operatorGroupAuthorization') !== true) continue;
      for (const authorization of lists[groupGuid] ?? []) {
        const type = idOf(authorization, 'AuthorizationType');
        entries.push(liveEntry('operatorGroupAuthorization', `${group.key}/${type}`, `${groupGuid}/${type}`, { AuthorizationType: type }, [{ kind: GROUP, guid: groupGuid }]));
      }
    }
    return entries;
  },

  createExtras(entry, resolver) {
    const group = entry.refs[0]?.key ?? '';
    return { OperatorGroupGuid: resolver.guidOf(GROUP, group) ?? placeholder(GROUP, group) };
  },

  requests: {
    async create(client, _step, body) {
      const group = bodyString(body, 'OperatorGroupGuid');
      const type = bodyString(body, 'AuthorizationType');
      await client.operatorGroups.authorizations.addByType(group, type);
      return `${group}/${type}`;
    },
    update() {
      return Promise.reject(new Error('an operator group authorization has nothing to update'));
    },
    async delete(client, step) {
      const [group, type] = splitCompound(step.guid);
      await client.operatorGroups.authorizations.removeByType(group, type);
    },
    async find(client, _step, body) {
      const group = bodyString(body, 'OperatorGroupGuid');
      const type = bodyString(body, 'AuthorizationType');
      const listed = await client.operatorGroups.authorizations.list(group).toArray();
      return listed.some((a) => idOf(a, 'AuthorizationType') === type) ? `${group}/${type}` : undefined;
    },
  },
};
