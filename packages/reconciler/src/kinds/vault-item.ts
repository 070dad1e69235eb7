import { VAULT_ITEM_KIND, VAULT_SECTION_KIND } from '@monsync/schema';
import { listed } from '../live/snapshot.js';
import { desiredEntry, liveEntry, placeholder, str, type KindModule } from './contract.js';
import { apiFields, bodyString, findOne, idOf, pinned, requireGuid } from './shared.js';

const SECTION = VAULT_SECTION_KIND.kind;

/**
 * Vault items, keyed `<section>/<item>`. Secret fields are write-only: their combined fingerprint is kept as a
 * `monsync:fp=<hex>` line at the end of `Notes`.
 */
export const vaultItemKind: KindModule = {
  ...VAULT_ITEM_KIND,
  serverDefaults: {},
  immutableFields: ['VaultItemType'],
  parents: [SECTION],
  marker: { field: 'Notes', name: 'fp' },
  builtFrom: [SECTION, 'vaultItem'],
  read: { list: (client) => client.vaultItems.list() },

  desired(state) {
    return state.vaultSections.flatMap(({ value: section }) =>
      (section.items ?? []).map(({ value, source }) => {
        const guid = pinned(value, 'VaultItemGuid');
        return desiredEntry('vaultItem', `${section.Name}/${value.Name}`, apiFields(value), source, [{ kind: SECTION, key: section.Name }], { pinnedGuid: guid });
      }),
    );
  },

  live(snapshot, resolver) {
    return listed(snapshot, 'vaultItem').map((fields) => {
      const sectionGuid = idOf(fields, 'VaultSectionGuid');
      const key = `${resolver.keyOf(SECTION, sectionGuid) ?? sectionGuid}/${str(fields, 'Name') ?? ''}`;
      return liveEntry('vaultItem', key, idOf(fields, 'VaultItemGuid'), fields, [{ kind: SECTION, guid: sectionGuid }]);
    });
  },

  inlinePlaceholder: {
    of: (key) => `{{vault:${key}}}`,
    resolved: (guid) => `{{vault:${guid}}}`,
  },

  createExtras(entry, resolver) {
    const section = entry.refs[0]?.key ?? '';
    return { VaultSectionGuid: resolver.guidOf(SECTION, section) ?? placeholder(SECTION, section) };
  },

  requests: {
    async create(client, _step, body) {
      return idOf(await client.vaultItems.create(body), 'VaultItemGuid');
    },
    async update(client, step, body) {
      await client.vaultItems.patch(requireGuid(step.guid, step.id), body);
    },
    async delete(client, step) {
      await client.vaultItems.delete(requireGuid(step.guid, step.id));
    },
    find(client, _step, body) {
      const section = bodyString(body, 'VaultSectionGuid');
      return findOne(client.vaultItems.list(), (i) => i.VaultSectionGuid === section && i.Name === body.Name, 'VaultItemGuid');
    },
  },
};
