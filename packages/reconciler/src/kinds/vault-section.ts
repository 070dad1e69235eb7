import { VAULT_ACCESS_KIND, VAULT_SECTION_KIND } from '@monsync/schema';
import { isSelfSection } from '../live/self.js';
import { listed } from '../live/snapshot.js';
import { desiredEntry, liveEntry, str, type KindModule } from './contract.js';
import { apiFields, findOne, idOf, pinned, requireGuid } from './shared.js';

export const vaultSectionKind: KindModule = {
  ...VAULT_SECTION_KIND,
  serverDefaults: {},
  updateReplaces: true,
  builtFrom: ['vaultSection'],
  // The section that records the API account's operator is monsync's own (live/self.ts): never planned.
  read: { list: (client) => client.vaultSections.list(), own: isSelfSection },

  desired(state) {
    return state.vaultSections.map(({ value, source }) => {
      const guid = pinned(value, 'VaultSectionGuid');
      const manages = Array.isArray((value as { access?: unknown }).access) ? [VAULT_ACCESS_KIND.kind] : undefined;
      return desiredEntry('vaultSection', value.Name, apiFields(value), source, [], { pinnedGuid: guid, manages });
    });
  },

  live(snapshot) {
    return listed(snapshot, 'vaultSection').map((fields) => liveEntry('vaultSection', str(fields, 'Name') ?? '', idOf(fields, 'VaultSectionGuid'), fields, []));
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
