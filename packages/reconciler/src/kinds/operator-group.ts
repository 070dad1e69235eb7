import { OPERATOR_GROUP_AUTHORIZATION_KIND, OPERATOR_GROUP_KIND, OPERATOR_GROUP_MEMBER_KIND } from '@monsync/schema';
import { listed } from '../live/snapshot.js';
import type { ApiObject } from '../live/types.js';
import type { StepKind } from '../plan/types.js';
import { desiredEntry, liveEntry, str, type KindModule } from './contract.js';
import { apiFields, findOne, idOf, pinned, requireGuid } from './shared.js';

/** The spec also spells the Administrators flag `IsAdministratorGroup`. */
export function isAdministratorsGroup(group: ApiObject): boolean {
  return group.IsAdministratorsGroup === true || group.IsAdministratorGroup === true;
}

export function isEveryoneGroup(group: ApiObject): boolean {
  return group.IsEveryone === true;
}

/**
 * Operator groups, keyed by Description. Everyone is never planned (every operator is in it); Administrators is
 * planned only when declared, for its members: it is never deleted, and its Description never changed.
 */
export const operatorGroupKind: KindModule = {
  ...OPERATOR_GROUP_KIND,
  serverDefaults: {},
  updateReplaces: true,
  builtFrom: ['operatorGroup'],
  read: { list: (client) => client.operatorGroups.list() },

  desired(state) {
    return (state.operatorGroups ?? []).map(({ value, source }) => {
      const manages: StepKind[] = [];
      if (Array.isArray(value.members)) manages.push(OPERATOR_GROUP_MEMBER_KIND.kind);
      if (Array.isArray(value.authorizations)) manages.push(OPERATOR_GROUP_AUTHORIZATION_KIND.kind);
      return desiredEntry('operatorGroup', value.Description, apiFields(value), source, [], {
        pinnedGuid: pinned(value, 'OperatorGroupGuid'),
        manages: manages.length === 0 ? undefined : manages,
      });
    });
  },

  /** Everyone is the account itself: never listed. Administrators is listed, but is a system object (below). */
  live(snapshot) {
    return listed(snapshot, 'operatorGroup')
      .filter((g) => !isEveryoneGroup(g))
      .map((fields) => liveEntry('operatorGroup', str(fields, 'Description') ?? '', idOf(fields, 'OperatorGroupGuid'), fields, []));
  },

  /** Administrators can be neither created nor deleted: planned only when declared, for its members. */
  system: (entry) => isAdministratorsGroup(entry.fields),

  requests: {
    async create(client, _step, body) {
      return idOf(await client.operatorGroups.create(body), 'OperatorGroupGuid');
    },
    /** PUT with the whole group, as the vendor's provider sends it (the flags are the live ones, the service keeps them). */
    async update(client, step, body) {
      const guid = requireGuid(step.guid, step.id);
      await client.operatorGroups.replace(guid, { ...body, OperatorGroupGuid: guid });
    },
    async delete(client, step) {
      await client.operatorGroups.delete(requireGuid(step.guid, step.id));
    },
    find(client, step) {
      return findOne(client.operatorGroups.list(), (g) => g.Description === step.key && !isEveryoneGroup(g), 'OperatorGroupGuid');
    },
  },
};
