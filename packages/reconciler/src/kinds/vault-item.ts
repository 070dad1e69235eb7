import { desiredEntry, liveEntry, placeholder, str, type KindModule } from './contract.js';
import { apiFields, bodyString, findOne, idOf, pinned, requireGuid } from './shared.js';

/**
 * Vault items, keyed `<section>/<item>`. Secret fields are write-only: their combined fingerprint is kept as a
 * `monsync:fp=<hex>` line at the end of `Notes`.
 */
export const vaultItemKind: KindModule = {
  kind: 'vaultItem',
  title: 'vault items',
  manage: 'vault',
  guidField: 'VaultItemGuid',
  readOnlyFields: ['VaultItemGuid', 'VaultItemUsedBy', 'IsSensitive', 'VaultSectionGuid'],
  writeOnlyFields: ['/Value', '/Password', '/CertificateArchive/Password', '/CertificateArchive/ArchiveData'],
  setFields: [],
  serverDefaults: {},
  immutableFields: ['VaultItemType'],
  parents: ['vaultSection'],
  marker: { field: 'Notes', name: 'fp' },
  reads: ['vaultSection', 'vaultItem'],

  desired(state) {
    return state.vaultSections.flatMap(({ value: section }) =>
      (section.items ?? []).map(({ value, source }) => {
        const guid = pinned(value, 'VaultItemGuid');
        return desiredEntry('vaultItem', `${section.Name}/${value.Name}`, apiFields(value), source, [{ kind: 'vaultSection', key: section.Name }], { pinnedGuid: guid });
      }),
    );
  },

  live(snapshot, resolver) {
    return snapshot.vaultItems.map((fields) => {
      const sectionGuid = idOf(fields, 'VaultSectionGuid');
      const key = `${resolver.keyOf('vaultSection', sectionGuid) ?? sectionGuid}/${str(fields, 'Name') ?? ''}`;
      return liveEntry('vaultItem', key, idOf(fields, 'VaultItemGuid'), fields, [{ kind: 'vaultSection', guid: sectionGuid }]);
    });
  },

  createExtras(entry, resolver) {
    const section = entry.refs[0]?.key ?? '';
    return { VaultSectionGuid: resolver.guidOf('vaultSection', section) ?? placeholder('vaultSection', section) };
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
