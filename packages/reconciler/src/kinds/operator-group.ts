import { OPERATOR_GROUP_AUTHORIZATION_KIND, OPERATOR_GROUP_KIND, OPERATOR_GROUP_MEMBER_KIND } from '@monsync/schema';
import { listed } from '../live/snapshot.js';
import type { StepKind } from '../plan/types.js';
import { desiredEntry, liveEntry, str, type KindModule } from './contract.js';
import { isAdministratorsGroup, isEveryoneGroup } from './operator-group-flags.js';
import { selfRoutes } from './self-routes.js';
import { apiFields, findOne, idOf, pinned, requireGuid } from './shared.js';

export { isAdministratorsGroup, isEveryoneGroup } from './operator-group-flags.js';

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

  /**
   * Everyone is the account itself: never listed. Administrators is listed, but is a system object (below). A group
   * the tree does not declare carries `kept` when it is the API account's way into a section the tree manages
   * (self-routes.ts): `prune` then keeps it. Declared groups never do: their fields are what an update sends.
   */
  live(snapshot, resolver, desired) {
    const declared = new Set<string>();
    for (const { value } of desired.operatorGroups ?? []) declared.add(value.Description).add(pinned(value, 'OperatorGroupGuid')?.toLowerCase() ?? '');
    const routes = selfRoutes(snapshot, desired, resolver);
    return listed(snapshot, 'operatorGroup')
      .filter((g) => !isEveryoneGroup(g))
      .map((fields) => {
        const [key, guid] = [str(fields, 'Description') ?? '', idOf(fields, 'OperatorGroupGuid')];
        const kept = declared.has(key) || declared.has(guid.toLowerCase()) ? undefined : routes.group(guid);
        return liveEntry('operatorGroup', key, guid, kept === undefined ? fields : { ...fields, kept }, []);
      });
  },

  keptWhy: (entry) => (typeof entry.fields.kept === 'string' ? entry.fields.kept : undefined),

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
