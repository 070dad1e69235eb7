import { desiredEntry, liveEntry, str, type KindModule } from './contract.js';
import { apiFields, findOne, idOf, pinned, requireGuid } from './shared.js';

export const vaultSectionKind: KindModule = {
  kind: 'vaultSection',
  title: 'vault sections',
  manage: 'vault',
  guidField: 'VaultSectionGuid',
  readOnlyFields: ['VaultSectionGuid'],
  writeOnlyFields: [],
  setFields: [],
  serverDefaults: {},
  updateReplaces: true,
  reads: ['vaultSection'],

  desired(state) {
    return state.vaultSections.map(({ value, source }) => {
      const guid = pinned(value, 'VaultSectionGuid');
      return desiredEntry('vaultSection', value.Name, apiFields(value), source, [], { pinnedGuid: guid });
    });
  },

  live(snapshot) {
    return snapshot.vaultSections.map((fields) => liveEntry('vaultSection', str(fields, 'Name') ?? '', idOf(fields, 'VaultSectionGuid'), fields, []));
  },

  requests: {
    async create(client, _step, body) {
      return idOf(await client.vaultSections.create(body), 'VaultSectionGuid');
    },
    async update(client, step, body) {
      const guid = requireGuid(step.guid, step.id);
      await client.vaultSections.replace(guid, { ...body, VaultSectionGuid: guid });
    },
    async delete(client, step) {
      await client.vaultSections.delete(requireGuid(step.guid, step.id));
    },
    find(client, step) {
      return findOne(client.vaultSections.list(), (s) => s.Name === step.key, 'VaultSectionGuid');
    },
  },
};
