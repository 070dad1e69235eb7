import { SLA_EXCLUSION_PERIOD_KIND, SLA_KIND } from '@monsync/schema';
import { listedPerParent } from '../live/snapshot.js';
import { desiredEntry, liveEntry, placeholder, str, type KindModule, type LiveEntry } from './contract.js';
import { answeredId, apiFields, bodyString, findOne, idOf, pinned, splitCompound, withoutFields } from './shared.js';

const SLA = SLA_KIND.kind;

/**
 * Exclusion periods of an SLA, keyed `<sla>/<period>`; reconciled for SLAs that declare `exclusionPeriods`.
 * Step GUID `<slaGuid>/<ExclusionPeriodId>`; the create body carries `SlaGuid` as a path parameter.
 */
export const slaExclusionPeriodKind: KindModule = {
  ...SLA_EXCLUSION_PERIOD_KIND,
  serverDefaults: {},
  parents: [SLA],
  ownedBy: [SLA],
  builtFrom: [SLA, 'slaExclusionPeriod'],
  read: {
    perParent: {
      parent: SLA,
      list: (client, slaGuid) => client.slas.exclusionPeriods.list(slaGuid),
      what: (sla) => `exclusion periods of SLA "${idOf(sla, 'Description')}" (${idOf(sla, 'SlaGuid')})`,
    },
  },

  desired(state) {
    return state.slas.flatMap(({ value: sla }) =>
      (sla.exclusionPeriods ?? []).map(({ value, source }) => {
        const id = pinned(value, 'ExclusionPeriodId');
        return desiredEntry('slaExclusionPeriod', `${sla.Description}/${value.Description}`, apiFields(value), source, [{ kind: SLA, key: sla.Description }], { pinnedGuid: id });
      }),
    );
  },

  live(snapshot, resolver) {
    const entries: LiveEntry[] = [];
    const periods = listedPerParent(snapshot, 'slaExclusionPeriod');
    for (const slaGuid of Object.keys(periods)) {
      const sla = resolver.desiredOf(SLA, slaGuid);
      if (sla?.manages?.includes('slaExclusionPeriod') !== true) continue;
      for (const fields of periods[slaGuid] ?? []) {
        entries.push(liveEntry('slaExclusionPeriod', `${sla.key}/${str(fields, 'Description') ?? ''}`, `${slaGuid}/${idOf(fields, 'ExclusionPeriodId')}`, fields, [{ kind: SLA, guid: slaGuid }]));
      }
    }
    return entries;
  },

  createExtras(entry, resolver) {
    const sla = entry.refs[0]?.key ?? '';
    return { SlaGuid: resolver.guidOf(SLA, sla) ?? placeholder(SLA, sla) };
  },

  requests: {
    /** The client finds the new period by Description when the service answers without it (the spec's 204). */
    async create(client, step, body) {
      const sla = bodyString(body, 'SlaGuid');
      const created = await client.slas.exclusionPeriods.create(sla, withoutFields(body, ['SlaGuid']));
      const id =
        answeredId(created, 'ExclusionPeriodId') ?? (await findOne(client.slas.exclusionPeriods.list(sla), (p) => p.Description === body.Description, 'ExclusionPeriodId'));
      if (id === undefined) throw new Error(`${step.id}: the service accepted the exclusion period but it is not in the listing`);
      return `${sla}/${id}`;
    },
    async update(client, step, body) {
      const [sla, id] = splitCompound(step.guid);
      await client.slas.exclusionPeriods.patch(sla, id, withoutFields(body, ['SlaGuid']));
    },
    async delete(client, step) {
      const [sla, id] = splitCompound(step.guid);
      await client.slas.exclusionPeriods.delete(sla, id);
    },
    async find(client, _step, body) {
      const sla = bodyString(body, 'SlaGuid');
      const id = await findOne(client.slas.exclusionPeriods.list(sla), (p) => p.Description === body.Description, 'ExclusionPeriodId');
      return id === undefined ? undefined : `${sla}/${id}`;
    },
  },
};
