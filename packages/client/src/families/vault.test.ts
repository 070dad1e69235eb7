import { describe, expect, it } from 'vitest';
import { mockApi } from '../test-utils/mock-api.js';

const S = 'b0000000-0000-0000-0000-00000000000b';
const I = 'e0000000-0000-0000-0000-00000000000e';
const item = { VaultItemGuid: I, Name: 'shop-login', VaultSectionGuid: S, VaultItemType: 'CredentialSet', UserName: 'robot', Password: '', IsSensitive: true, VaultItemUsedBy: '-' };

describe('vaultItems', () => {
  it('lists with GET /VaultItem and reads one with GET /VaultItem/{guid}', async () => {
    const api = mockApi();
    api.reply('GET', '/VaultItem', 200, [item]);
    api.reply('GET', `/VaultItem/${I}`, 200, item);
    await expect(api.client.vaultItems.list().toArray()).resolves.toEqual([item]);
    await expect(api.client.vaultItems.get(I)).resolves.toEqual(item);
    expect(api.calls().map((c) => `${c.method} ${c.url}`)).toEqual(['GET /v4/VaultItem', `GET /v4/VaultItem/${I}`]);
  });

  it('creates with POST /VaultItem, sending the secret only in the request body', async () => {
    const api = mockApi();
    api.reply('POST', '/VaultItem', 200, item);
    const body = { Name: 'shop-login', VaultSectionGuid: S, VaultItemType: 'CredentialSet' as const, UserName: 'robot', Password: 's3cret' };
    await expect(api.client.vaultItems.create(body)).resolves.toMatchObject({ VaultItemGuid: I });
    expect(api.last()).toMatchObject({ method: 'POST', url: '/v4/VaultItem', body });
  });

  it('replaces with PUT, patches with PATCH and deletes with DELETE /VaultItem/{guid}', async () => {
    const api = mockApi();
    api.reply('PUT', `/VaultItem/${I}`, 200, item);
    api.reply('PATCH', `/VaultItem/${I}`, 204);
    api.reply('DELETE', `/VaultItem/${I}`, 204);
    await expect(api.client.vaultItems.replace(I, { Name: 'shop-login', VaultSectionGuid: S, VaultItemType: 'CredentialSet', UserName: 'robot' })).resolves.toEqual(item);
    await expect(api.client.vaultItems.patch(I, { Notes: 'monsync:fp=abc' })).resolves.toBeUndefined();
    await api.client.vaultItems.delete(I);
    expect(api.calls().map((c) => [c.method, c.url, c.body])).toEqual([
      ['PUT', `/v4/VaultItem/${I}`, { Name: 'shop-login', VaultSectionGuid: S, VaultItemType: 'CredentialSet', UserName: 'robot' }],
      ['PATCH', `/v4/VaultItem/${I}`, { Notes: 'monsync:fp=abc' }],
      ['DELETE', `/v4/VaultItem/${I}`, undefined],
    ]);
  });

  it('surfaces the 400 for an item in use as a ValidationError with the service text', async () => {
    const api = mockApi();
    api.reply('DELETE', `/VaultItem/${I}`, 400, { ErrorDescription: 'The vault item is used by 2 monitors' });
    await expect(api.client.vaultItems.delete(I)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', serviceMessage: 'The vault item is used by 2 monitors' });
  });
});

describe('vaultSections', () => {
  const section = { VaultSectionGuid: S, Name: 'Web' };

  it('lists, reads, creates, replaces and deletes under /VaultSection', async () => {
    const api = mockApi();
    api.reply('GET', '/VaultSection', 200, [section]);
    api.reply('GET', `/VaultSection/${S}`, 200, section);
    api.reply('POST', '/VaultSection', 200, section);
    api.reply('PUT', `/VaultSection/${S}`, 200, { ...section, Name: 'Web EU' });
    api.reply('DELETE', `/VaultSection/${S}`, 204);
    await expect(api.client.vaultSections.list().toArray()).resolves.toEqual([section]);
    await expect(api.client.vaultSections.get(S)).resolves.toEqual(section);
    await expect(api.client.vaultSections.create({ Name: 'Web' })).resolves.toEqual(section);
    await expect(api.client.vaultSections.replace(S, { Name: 'Web EU' })).resolves.toEqual({ ...section, Name: 'Web EU' });
    await api.client.vaultSections.delete(S);
    expect(api.calls().map((c) => [c.method, c.url, c.body])).toEqual([
      ['GET', '/v4/VaultSection', undefined],
      ['GET', `/v4/VaultSection/${S}`, undefined],
      ['POST', '/v4/VaultSection', { Name: 'Web' }],
      ['PUT', `/v4/VaultSection/${S}`, { Name: 'Web EU' }],
      ['DELETE', `/v4/VaultSection/${S}`, undefined],
    ]);
  });

  it('writes section authorizations in the published form (OperatorGroupGuid, no ContextId) and reads the spec form as it', async () => {
    const api = mockApi();
    const specForm = { AuthorizationId: 'z1', ContextId: S, AuthorizationType: 'ChangeVaultSection', OperatorGuid: null, OperatorGroupId: 'og1' };
    const published = { AuthorizationId: 'z2', AuthorizationType: 'ViewVaultSection', OperatorGuid: null, OperatorGroupGuid: 'og1' };
    api.reply('GET', `/VaultSection/${S}/Authorization`, 200, [specForm, published]);
    api.reply('POST', `/VaultSection/${S}/Authorization`, 201, published);
    api.reply('DELETE', `/VaultSection/${S}/Authorization/z1`, 204);
    await expect(api.client.vaultSections.authorizations.list(S).toArray()).resolves.toEqual([
      { AuthorizationId: 'z1', ContextId: S, AuthorizationType: 'ChangeVaultSection', OperatorGuid: null, OperatorGroupGuid: 'og1' },
      published,
    ]);
    await expect(api.client.vaultSections.authorizations.create(S, { AuthorizationType: 'ViewVaultSection', OperatorGroupGuid: 'og1' })).resolves.toEqual(published);
    await api.client.vaultSections.authorizations.delete(S, 'z1');
    expect(api.calls().map((c) => [c.method, c.url, c.body])).toEqual([
      ['GET', `/v4/VaultSection/${S}/Authorization`, undefined],
      ['POST', `/v4/VaultSection/${S}/Authorization`, { AuthorizationType: 'ViewVaultSection', OperatorGroupGuid: 'og1' }],
      ['DELETE', `/v4/VaultSection/${S}/Authorization/z1`, undefined],
    ]);
  });
});
