import { describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '@monsync/client';
import { SEEDED } from '@monsync/emulator';
import { useEmulator } from './harness.js';

const api = useEmulator('empty');
const CANARY = 'CANARY-7f3a9c-vault';

describe('vault against the emulator', () => {
  it('creates, reads, renames and deletes a section', async () => {
    const sections = await api.client.vaultSections.list().toArray();
    expect(sections.map((s) => s.VaultSectionGuid)).toContain(SEEDED.defaultVaultSection);
    const section = await api.client.vaultSections.create({ Name: 'Web' });
    expect(section.Name).toBe('Web');
    expect(await api.client.vaultSections.get(section.VaultSectionGuid)).toMatchObject({ Name: 'Web' });
    await api.client.vaultSections.replace(section.VaultSectionGuid, { Name: 'Web EU' });
    expect((await api.client.vaultSections.get(section.VaultSectionGuid)).Name).toBe('Web EU');
    await api.client.vaultSections.delete(section.VaultSectionGuid);
    await expect(api.client.vaultSections.get(section.VaultSectionGuid)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('lists, creates and deletes section authorizations', async () => {
    const section = await api.client.vaultSections.create({ Name: 'Shared' });
    const before = await api.client.vaultSections.authorizations.list(section.VaultSectionGuid).toArray();
    await api.client.vaultSections.authorizations.create(section.VaultSectionGuid, { AuthorizationType: 'ViewVaultSection', OperatorGroupGuid: SEEDED.everyoneGroup });
    const after = await api.client.vaultSections.authorizations.list(section.VaultSectionGuid).toArray();
    const added = after.find((a) => a.OperatorGroupGuid === SEEDED.everyoneGroup);
    expect(after.length).toBe(before.length + 1);
    expect(added).toMatchObject({ AuthorizationType: 'ViewVaultSection' });
    await api.client.vaultSections.authorizations.delete(section.VaultSectionGuid, String(added?.AuthorizationId));
    expect(await api.client.vaultSections.authorizations.list(section.VaultSectionGuid).toArray()).toHaveLength(before.length);
  });

  it('creates, reads, replaces, patches and deletes an item, never reading back the secret', async () => {
    const item = await api.client.vaultItems.create({
      Name: 'shop-login',
      VaultSectionGuid: SEEDED.defaultVaultSection,
      VaultItemType: 'CredentialSet',
      UserName: 'robot',
      Password: CANARY,
    });
    expect(item.VaultItemGuid).toMatch(/^[0-9a-f-]{36}$/i);
    const read = await api.client.vaultItems.get(item.VaultItemGuid);
    expect(read).toMatchObject({ Name: 'shop-login', UserName: 'robot', IsSensitive: true });
    expect(JSON.stringify(read)).not.toContain(CANARY);
    expect(JSON.stringify(await api.client.vaultItems.list().toArray())).not.toContain(CANARY);

    await api.client.vaultItems.replace(item.VaultItemGuid, { Name: 'shop-login', VaultSectionGuid: SEEDED.defaultVaultSection, VaultItemType: 'CredentialSet', UserName: 'robot2' });
    expect((await api.client.vaultItems.get(item.VaultItemGuid)).UserName).toBe('robot2');
    await api.client.vaultItems.patch(item.VaultItemGuid, { Notes: 'monsync:fp=abc' });
    expect((await api.client.vaultItems.get(item.VaultItemGuid)).Notes).toBe('monsync:fp=abc');
    await api.client.vaultItems.delete(item.VaultItemGuid);
    await expect(api.client.vaultItems.get(item.VaultItemGuid)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses to delete an item a monitor references, and a section holding items (400)', async () => {
    const item = await api.client.vaultItems.create({ Name: 'token', VaultSectionGuid: SEEDED.defaultVaultSection, VaultItemType: 'CredentialSet', UserName: 'u', Password: CANARY });
    await api.client.monitors.create({ Name: 'Uses vault', MonitorType: 'Https', PredefinedVariables: [{ Key: 'login', Value: `{{vault:${item.VaultItemGuid}}}` }] });
    const inUse = await api.client.vaultItems.delete(item.VaultItemGuid).catch((e: unknown) => e);
    expect(inUse).toBeInstanceOf(ValidationError);
    const notEmpty = await api.client.vaultSections.delete(SEEDED.defaultVaultSection).catch((e: unknown) => e);
    expect(notEmpty).toBeInstanceOf(ValidationError);
    for (const e of [inUse, notEmpty]) expect(JSON.stringify(e) + String((e as Error).stack)).not.toContain(CANARY);
  });
});
