import { SLA_EXCLUSION_PERIOD_KIND, SLA_KIND } from '@monsync/schema';
import { listed } from '../live/snapshot.js';
import { isLockObject } from '../lock/record.js';
import { desiredEntry, liveEntry, str, type KindModule } from './contract.js';
import { answeredId, apiFields, findOne, idOf, pinned, requireGuid } from './shared.js';

export const slaKind: KindModule = {
  ...SLA_KIND,
  // The service refuses a second SLA whose Description differs only in case or surrounding spaces (409).
  identity: (key) => key.trim().toLowerCase(),
  serverDefaults: {},
  builtFrom: ['sla'],
  // The apply lock is an SLA (lock/apply-lock.ts): no plan, pull or safety count may see it.
  read: { list: (client) => client.slas.list(), own: isLockObject },

  desired(state) {
    return state.slas.map(({ value, source }) => {
      const guid = pinned(value, 'SlaGuid');
      return desiredEntry('sla', value.Description, apiFields(value), source, [], {
        pinnedGuid: guid,
        manages: Array.isArray(value.exclusionPeriods) ? [SLA_EXCLUSION_PERIOD_KIND.kind] : undefined,
      });
    });
  },

  live(snapshot) {
    return listed(snapshot, 'sla').map((fields) => liveEntry('sla', str(fields, 'Description') ?? '', idOf(fields, 'SlaGuid'), fields, []));
  },

  requests: {
    /** The client finds the new SLA by Description when the service answers without it (the spec's 204). */
    async create(client, step, body) {
      const created = await client.slas.create(body);
      const guid = answeredId(created, 'SlaGuid') ?? (await findOne(client.slas.list(), (s) => s.Description === body.Description, 'SlaGuid'));
      if (guid === undefined) throw new Error(`${step.id}: the service accepted the SLA but it is not in the listing`);
      return guid;
    },
    async update(client, step, body) {
      await client.slas.patch(requireGuid(step.guid, step.id), body);
    },
    async delete(client, step) {
      await client.slas.delete(requireGuid(step.guid, step.id));
    },
    find(client, _step, body) {
      return findOne(client.slas.list(), (s) => s.Description === body.Description, 'SlaGuid');
    },
  },
};
