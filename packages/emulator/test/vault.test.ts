import { describe, expect, it } from 'vitest';
import { DEMO, SEEDED } from '../src/index.js';
import { emulator, VIEWER, type Api } from './helpers.js';

const CANARY = 'CANARY-7f3a9c';
const DEFAULT = SEEDED.defaultVaultSection;

async function item(api: Api, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await api.post('/VaultItem', { VaultSectionGuid: DEFAULT, ...body });
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
  return res.json as Record<string, unknown>;
}

describe('vault sections', () => {
  it('shows a section only to operators with View authorization', async () => {
    const api = await emulator();
    expect((await api.get('/VaultSection')).list.map((s) => s['Name'])).toEqual(['Default']);
    expect((await api.get('/VaultSection', VIEWER)).json).toEqual([]);
    expect((await api.get(`/VaultSection/${DEFAULT}`, VIEWER)).status).toBe(403);
  });

  it('gives the creator View and Change, and nobody else', async () => {
    const api = await emulator();
    const created = await api.post('/VaultSection', { Name: 'Mine' }, VIEWER);
    expect(created.status).toBe(201);
    const guid = String(created.body['VaultSectionGuid']);
    const auths = await api.get(`/VaultSection/${guid}/Authorization`, VIEWER);
    expect(auths.list.map((a) => [a['AuthorizationType'], a['OperatorGuid']]).sort()).toEqual([
      ['ChangeVaultSection', SEEDED.viewer.guid],
      ['ViewVaultSection', SEEDED.viewer.guid],
    ]);
    // Even the administrator does not see it until authorized.
    expect((await api.get('/VaultSection')).list.map((s) => s['Name'])).toEqual(['Default']);
  });

  it('adds View when Change is granted, and Change lets the grantee edit', async () => {
    const api = await emulator();
    const res = await api.post(`/VaultSection/${DEFAULT}/Authorization`, { ContextId: DEFAULT, AuthorizationType: 'ChangeVaultSection', OperatorGuid: SEEDED.viewer.guid });
    expect(res.status).toBe(201);
    const auths = (await api.get(`/VaultSection/${DEFAULT}/Authorization`)).list;
    const forViewer = auths.filter((a) => a['OperatorGuid'] === SEEDED.viewer.guid).map((a) => a['AuthorizationType']).sort();
    expect(forViewer).toEqual(['ChangeVaultSection', 'ViewVaultSection']);
    expect((await api.put(`/VaultSection/${DEFAULT}`, { Name: 'Renamed' }, VIEWER)).status).toBe(200);
  });

  it('lets View alone decide viewing: with its View authorization removed, Change alone shows nothing', async () => {
    const api = await emulator();
    await api.post(`/VaultSection/${DEFAULT}/Authorization`, { ContextId: DEFAULT, AuthorizationType: 'ChangeVaultSection', OperatorGuid: SEEDED.viewer.guid });
    const view = (await api.get(`/VaultSection/${DEFAULT}/Authorization`)).list.find((a) => a['OperatorGuid'] === SEEDED.viewer.guid && a['AuthorizationType'] === 'ViewVaultSection');
    expect((await api.delete(`/VaultSection/${DEFAULT}/Authorization/${String(view?.['AuthorizationId'])}`)).status).toBe(200);
    expect((await api.get(`/VaultSection/${DEFAULT}`, VIEWER)).status).toBe(403);
    expect((await api.get('/VaultSection', VIEWER)).list.map((x) => x['VaultSectionGuid'])).not.toContain(DEFAULT);
  });

  it('requires exactly one of OperatorGuid and OperatorGroupId', async () => {
    const api = await emulator();
    const both = await api.post(`/VaultSection/${DEFAULT}/Authorization`, {
      ContextId: DEFAULT,
      AuthorizationType: 'ViewVaultSection',
      OperatorGuid: SEEDED.viewer.guid,
      OperatorGroupId: SEEDED.everyoneGroup,
    });
    expect(both.status).toBe(400);
    const neither = await api.post(`/VaultSection/${DEFAULT}/Authorization`, { ContextId: DEFAULT, AuthorizationType: 'ViewVaultSection', OperatorGuid: null, OperatorGroupId: '' });
    expect(neither.status).toBe(400);
  });

  it('grants a group: members of Everyone then see the section', async () => {
    const api = await emulator();
    const res = await api.post(`/VaultSection/${DEFAULT}/Authorization`, { ContextId: DEFAULT, AuthorizationType: 'ViewVaultSection', OperatorGroupId: SEEDED.everyoneGroup });
    expect(res.status).toBe(201);
    expect((await api.get('/VaultSection', VIEWER)).json).toHaveLength(1);
    const id = String(res.body['AuthorizationId']);
    expect((await api.delete(`/VaultSection/${DEFAULT}/Authorization/${id}`)).status).toBe(200);
    expect((await api.get('/VaultSection', VIEWER)).json).toHaveLength(0);
  });

  it('answers 403 for changes with View only', async () => {
    const api = await emulator({ seed: 'demo' });
    expect((await api.get(`/VaultSection/${DEMO.vaultSection}`, VIEWER)).status).toBe(200);
    expect((await api.put(`/VaultSection/${DEMO.vaultSection}`, { Name: 'x' }, VIEWER)).status).toBe(403);
    expect((await api.post('/VaultItem', { VaultSectionGuid: DEMO.vaultSection, Name: 'x', VaultItemType: 'Certificate', Value: 'k' }, VIEWER)).status).toBe(403);
  });

  it('refuses to delete a section that still has items, with an explanation', async () => {
    const api = await emulator();
    const s = String((await api.post('/VaultSection', { Name: 'S' })).body['VaultSectionGuid']);
    const i = await item(api, { VaultSectionGuid: s, Name: 'cert', VaultItemType: 'Certificate', Value: 'PUBLIC KEY' });
    const res = await api.delete(`/VaultSection/${s}`);
    expect(res.status).toBe(400);
    expect(res.error).toMatch(/still contains 1 item.*cert.*delete the items first/);
    await api.delete(`/VaultItem/${String(i['VaultItemGuid'])}`);
    expect((await api.delete(`/VaultSection/${s}`)).status).toBe(200);
  });
});

describe('vault items', () => {
  it('returns sensitive values empty from every read', async () => {
    const api = await emulator();
    const cred = await item(api, { Name: 'login', VaultItemType: 'CredentialSet', UserName: 'robot', Password: CANARY });
    const archive = await item(api, {
      Name: 'pfx',
      VaultItemType: 'CertificateArchive',
      Value: Buffer.from(CANARY).toString('base64'),
      CertificateArchive: { Issuer: 'CN=x', Password: CANARY, ArchiveData: Buffer.from(CANARY).toString('base64') },
    });
    const otp = await item(api, { Name: 'otp', VaultItemType: 'OneTimePassword', Value: 'CANARYOTPSECRETA' });
    expect(cred['Password']).toBe('');
    expect(cred['UserName']).toBe('robot');
    expect(cred['IsSensitive']).toBe(true);
    expect(archive['Value']).toBe('');
    expect(archive['CertificateArchive']).toMatchObject({ Issuer: 'CN=x', Password: '', ArchiveData: '' });
    expect(otp['Value']).toBe('');
    const list = await api.get('/VaultItem');
    const one = await api.get(`/VaultItem/${String(cred['VaultItemGuid'])}`);
    for (const text of [list.text, one.text, JSON.stringify(cred), JSON.stringify(archive)]) {
      expect(text).not.toContain(CANARY);
      expect(text).not.toContain(Buffer.from(CANARY).toString('base64'));
      expect(text).not.toContain('CANARYOTPSECRETA');
    }
  });

  it('returns a plain public-key certificate as stored', async () => {
    const api = await emulator();
    const cert = await item(api, { Name: 'sso', VaultItemType: 'Certificate', Value: '-----BEGIN PUBLIC KEY-----' });
    expect(cert['IsSensitive']).toBe(false);
    expect((await api.get(`/VaultItem/${String(cert['VaultItemGuid'])}`)).body['Value']).toBe('-----BEGIN PUBLIC KEY-----');
  });

  it('keeps IsSensitive (ignored on writes; the strict profile refuses a change), VaultSectionGuid and VaultItemType immutable', async () => {
    const strict = await emulator({ profile: 'strict' });
    const strictCert = await item(strict, { Name: 'c', VaultItemType: 'Certificate', Value: 'k' });
    expect((await strict.put(`/VaultItem/${String(strictCert['VaultItemGuid'])}`, { Name: 'c', IsSensitive: true })).status).toBe(400);
    expect((await strict.post('/VaultItem', { VaultSectionGuid: DEFAULT, Name: 'l', VaultItemType: 'CredentialSet', IsSensitive: false })).status).toBe(400);
    const api = await emulator();
    const other = String((await api.post('/VaultSection', { Name: 'Other' })).body['VaultSectionGuid']);
    const cert = await item(api, { Name: 'c', VaultItemType: 'Certificate', Value: 'k' });
    const path = `/VaultItem/${String(cert['VaultItemGuid'])}`;
    const ignored = await api.put(path, { Name: 'c', IsSensitive: true });
    expect(ignored.status).toBe(200);
    expect(ignored.body['IsSensitive']).toBe(false);
    expect((await api.put(path, { Name: 'c', VaultSectionGuid: other })).status).toBe(400);
    expect((await api.put(path, { Name: 'c', VaultItemType: 'File' })).status).toBe(400);
    expect((await api.patch(path, { VaultSectionGuid: other })).status).toBe(400);
  });

  it('PUT empties omitted ordinary fields but keeps omitted sensitive ones', async () => {
    const api = await emulator();
    const cred = await item(api, { Name: 'login', VaultItemType: 'CredentialSet', UserName: 'robot', Password: CANARY, Notes: 'note' });
    const guid = String(cred['VaultItemGuid']);
    const res = await api.put(`/VaultItem/${guid}`, { Name: 'login2' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ Name: 'login2', UserName: '', Notes: '', Password: '' });
    const stored = api.control.dump().vaultItems.find((i) => i['VaultItemGuid'] === guid);
    expect(stored?.['Password']).toBe(CANARY);
  });

  it('PATCH changes only the given fields and keeps the type and VaultItemUsedBy', async () => {
    const api = await emulator();
    const cred = await item(api, { Name: 'login', VaultItemType: 'CredentialSet', UserName: 'robot', Password: CANARY });
    const guid = String(cred['VaultItemGuid']);
    await api.post('/Monitor', { Name: 'm', MonitorType: 'PostmanApi', PredefinedVariables: [{ Key: 'l', Value: `{{vault:${guid}}}` }] });
    const res = await api.patch(`/VaultItem/${guid}`, { Notes: 'changed', VaultItemType: 'File', VaultItemUsedBy: '-' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ Name: 'login', UserName: 'robot', Notes: 'changed', VaultItemType: 'CredentialSet', VaultItemUsedBy: '1 monitor' });
  });

  it('rejects a File over 2 MB with 400 and accepts one at the limit', async () => {
    const api = await emulator();
    const big = Buffer.alloc(2 * 1024 * 1024 + 1, 1).toString('base64');
    const res = await api.post('/VaultItem', { VaultSectionGuid: DEFAULT, Name: 'f', VaultItemType: 'File', Value: big });
    expect(res.status).toBe(400);
    expect(res.error).toMatch(/2 MB/);
    const ok = await api.post('/VaultItem', { VaultSectionGuid: DEFAULT, Name: 'f', VaultItemType: 'File', Value: Buffer.alloc(2 * 1024 * 1024, 1).toString('base64') });
    expect(ok.status).toBe(201);
  });

  it('computes VaultItemUsedBy from monitors referencing {{vault:<guid>}}', async () => {
    const api = await emulator();
    const cred = await item(api, { Name: 'login', VaultItemType: 'CredentialSet', UserName: 'u', Password: 'p' });
    const guid = String(cred['VaultItemGuid']);
    expect(cred['VaultItemUsedBy']).toBe('-');
    const ref = [{ Key: 'login', Value: `user={{vault:${guid}}}` }];
    const m1 = await api.createMonitor({ MonitorType: 'PostmanApi', PredefinedVariables: ref });
    await api.createMonitor({ MonitorType: 'PostmanApi', PredefinedVariables: ref });
    expect((await api.get(`/VaultItem/${guid}`)).body['VaultItemUsedBy']).toBe('2 monitors');
    await api.patch(`/Monitor/${String(m1['MonitorGuid'])}`, { PredefinedVariables: [] });
    expect((await api.get(`/VaultItem/${guid}`)).body['VaultItemUsedBy']).toBe('1 monitor');
  });

  it('refuses to delete an item in use, with an explanation naming the monitor', async () => {
    const api = await emulator();
    const cred = await item(api, { Name: 'login', VaultItemType: 'CredentialSet', UserName: 'u', Password: 'p' });
    const guid = String(cred['VaultItemGuid']);
    const m = await api.createMonitor({ Name: 'Checkout', MonitorType: 'PostmanApi', PredefinedVariables: [{ Key: 'l', Value: `{{vault:${guid}}}` }] });
    const res = await api.delete(`/VaultItem/${guid}`);
    expect(res.status).toBe(400);
    expect(res.error).toMatch(/in use by 1 monitor.*"Checkout"/);
    await api.delete(`/Monitor/${String(m['MonitorGuid'])}`);
    expect((await api.delete(`/VaultItem/${guid}`)).status).toBe(200);
    expect((await api.get(`/VaultItem/${guid}`)).status).toBe(404);
  });

  it('accepts one-time-password secrets in Hex or Base32 and rejects a mismatch', async () => {
    const api = await emulator();
    expect((await api.post('/VaultItem', { VaultSectionGuid: DEFAULT, Name: 'o1', VaultItemType: 'OneTimePassword', Value: 'CANARYOTPSECRETA' })).status).toBe(201);
    expect((await api.post('/VaultItem', { VaultSectionGuid: DEFAULT, Name: 'o2', VaultItemType: 'OneTimePassword', Value: '48656c6c6f', SecretEncoding: 'Hex' })).status).toBe(201);
    expect((await api.post('/VaultItem', { VaultSectionGuid: DEFAULT, Name: 'o3', VaultItemType: 'OneTimePassword', Value: 'xyz!', SecretEncoding: 'Hex' })).status).toBe(400);
    expect((await api.post('/VaultItem', { VaultSectionGuid: DEFAULT, Name: 'o4', VaultItemType: 'OneTimePassword', Value: '0189', SecretEncoding: 'Base32' })).status).toBe(400);
    expect((await api.post('/VaultItem', { VaultSectionGuid: DEFAULT, Name: 'o5', VaultItemType: 'OneTimePassword', Value: 'AB', SecretEncoding: 'Octal' })).status).toBe(400);
  });

  it('lists only items of sections the caller can see', async () => {
    const api = await emulator({ seed: 'demo' });
    await item(api, { Name: 'admin-only', VaultItemType: 'Certificate', Value: 'k' });
    const viewer = await api.get('/VaultItem', VIEWER);
    expect(viewer.list.map((i) => i['Name']).sort()).toEqual(['client-cert', 'shop-login']);
    const admin = await api.get('/VaultItem');
    expect(admin.json).toHaveLength(3);
  });

  it('rejects an unknown VaultItemType and an unknown section', async () => {
    const api = await emulator();
    expect((await api.post('/VaultItem', { VaultSectionGuid: DEFAULT, Name: 'x', VaultItemType: 'Password' })).status).toBe(400);
    expect((await api.post('/VaultItem', { VaultSectionGuid: '00000000-0000-4000-8000-000000000000', Name: 'x', VaultItemType: 'Certificate' })).status).toBe(400);
  });
});
