import { ALERT_DEFINITION_KIND, ALERT_DEFINITION_MEMBER_KIND, ESCALATION_LEVEL_KIND } from '@monsync/schema';
import { listed } from '../live/snapshot.js';
import type { StepKind } from '../plan/types.js';
import { alertWrites } from './alerting.js';
import { desiredEntry, liveEntry, str, type KindModule } from './contract.js';
import { answeredId, apiFields, findOne, pinned, requireGuid, idOf } from './shared.js';

/** The service's lookup by name ignores case (the vendor's provider; it refuses a name that is not unique). */
const sameName = (key: string): string => key.toLowerCase();

/**
 * Alert definitions, keyed by `AlertName`: read, created, renamed (with a pinned GUID), updated and deleted like
 * any other kind. A definition named in the tree that exists on the account (the default one a fresh account has
 * included) is adopted, not created again. The older form (`{ AlertDefinitionGuid, IsActive }`, no name) is keyed
 * by its GUID and pins it, so it still plans only `IsActive`.
 */
export const alertDefinitionKind: KindModule = {
  ...ALERT_DEFINITION_KIND,
  identity: sameName,
  serverDefaults: {},
  builtFrom: ['alertDefinition'],
  read: { list: (client) => alertWrites.reads(client).list() },

  desired(state) {
    return state.alertDefinitions.map(({ value, source }) => {
      const manages: StepKind[] = [];
      if (Array.isArray(value.escalationLevels)) manages.push(ESCALATION_LEVEL_KIND.kind);
      if (value.members !== undefined) manages.push(ALERT_DEFINITION_MEMBER_KIND.kind);
      const guid = pinned(value, 'AlertDefinitionGuid');
      return desiredEntry('alertDefinition', value.AlertName ?? guid ?? '', apiFields(value), source, [], { pinnedGuid: guid, manages: manages.length === 0 ? undefined : manages });
    });
  },

  live(snapshot) {
    return listed(snapshot, 'alertDefinition').map((fields) => liveEntry('alertDefinition', str(fields, 'AlertName') ?? '', idOf(fields, 'AlertDefinitionGuid'), fields, []));
  },

  requests: {
    async create(client, step, body) {
      const name = body.AlertName;
      if (typeof name !== 'string') throw new Error(`${step.id}: an alert definition is created by its AlertName`);
      const created = await alertWrites.of(client).create({ ...body, AlertName: name });
      const guid = answeredId(created, 'AlertDefinitionGuid');
      if (guid === undefined) throw new Error(`${step.id}: the service accepted the alert definition but did not say which it is`);
      return guid;
    },
    async update(client, step, body) {
      await client.alertDefinitions.patch(requireGuid(step.guid, step.id), body);
    },
    async delete(client, step) {
      await alertWrites.of(client).delete(requireGuid(step.guid, step.id));
    },
    find(client, step, body) {
      const name = typeof body.AlertName === 'string' ? body.AlertName : step.key;
      return findOne(alertWrites.of(client).list(), (d) => typeof d.AlertName === 'string' && sameName(d.AlertName) === sameName(name), 'AlertDefinitionGuid');
    },
  },
};
