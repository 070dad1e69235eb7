import { desiredEntry, liveEntry, str, type KindModule } from './contract.js';
import { answeredId, apiFields, findOne, idOf, pinned, requireGuid } from './shared.js';

export const slaKind: KindModule = {
  kind: 'sla',
  title: 'SLAs',
  manage: 'slas',
  guidField: 'SlaGuid',
  // The service refuses a second SLA whose Description differs only in case or surrounding spaces (409).
  identity: (key) => key.trim().toLowerCase(),
  readOnlyFields: ['SlaGuid', 'Hash'],
  writeOnlyFields: [],
  setFields: [],
  serverDefaults: {},
  reads: ['sla'],

  desired(state) {
    return state.slas.map(({ value, source }) => {
      const guid = pinned(value, 'SlaGuid');
      return desiredEntry('sla', value.Description, apiFields(value), source, [], {
        pinnedGuid: guid,
        manages: Array.isArray(value.exclusionPeriods) ? ['slaExclusionPeriod'] : undefined,
      });
    });
  },

  live(snapshot) {
    return snapshot.slas.map((fields) => liveEntry('sla', str(fields, 'Description') ?? '', idOf(fields, 'SlaGuid'), fields, []));
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
