import { GROUP_MEMBERSHIP_KIND, MONITOR_GROUP_KIND } from '@monsync/schema';
import { listed } from '../live/snapshot.js';
import { desiredEntry, liveEntry, str, type KindModule } from './contract.js';
import { apiFields, findOne, idOf, pinned, requireGuid } from './shared.js';

export const monitorGroupKind: KindModule = {
  ...MONITOR_GROUP_KIND,
  serverDefaults: {},
  updateReplaces: true,
  builtFrom: ['monitorGroup'],
  read: { list: (client) => client.monitorGroups.list() },

  desired(state) {
    return state.monitorGroups.map(({ value, source }) => {
      const guid = pinned(value, 'MonitorGroupGuid');
      return desiredEntry('monitorGroup', value.Description, apiFields(value), source, [], {
        pinnedGuid: guid,
        manages: Array.isArray(value.members) ? [GROUP_MEMBERSHIP_KIND.kind] : undefined,
      });
    });
  },

  /** The All Monitors group is the account itself: never planned, never listed as unmanaged. */
  live(snapshot) {
    return listed(snapshot, 'monitorGroup')
      .filter((g) => g.IsAll !== true)
      .map((fields) => liveEntry('monitorGroup', str(fields, 'Description') ?? '', idOf(fields, 'MonitorGroupGuid'), fields, []));
  },

  requests: {
    async create(client, _step, body) {
      return idOf(await client.monitorGroups.create(body), 'MonitorGroupGuid');
    },
    /** PUT only: the body holds the declared fields and the live ones the config leaves out (`updateReplaces`). */
    async update(client, step, body) {
      const guid = requireGuid(step.guid, step.id);
      await client.monitorGroups.replace(guid, { ...body, MonitorGroupGuid: guid });
    },
    async delete(client, step) {
      await client.monitorGroups.delete(requireGuid(step.guid, step.id));
    },
    find(client, step) {
      return findOne(client.monitorGroups.list(), (g) => g.Description === step.key && g.IsAll !== true, 'MonitorGroupGuid');
    },
  },
};
