import { describe, expect, it } from 'vitest';
import { SEEDED } from '../src/index.js';
import { basic, emulator, VIEWER } from './helpers.js';

describe('time zones', () => {
  it('lists zones with and without daylight saving; DaylightSavingOffset only when it applies', async () => {
    const api = await emulator();
    const res = await api.get('/Timezone');
    const withDst = res.list.filter((z) => z['HasDaylightSaving'] === true);
    const withoutDst = res.list.filter((z) => z['HasDaylightSaving'] === false);
    expect(withDst.length).toBeGreaterThan(0);
    expect(withoutDst.length).toBeGreaterThan(0);
    for (const z of withDst) expect(typeof z['DaylightSavingOffset']).toBe('number');
    for (const z of withoutDst) expect(z).not.toHaveProperty('DaylightSavingOffset');
  });

  it('returns one zone, 404 for an unknown id and 400 for a non-number', async () => {
    const api = await emulator();
    expect((await api.get('/Timezone/3')).body).toMatchObject({ TimezoneId: 3, OffsetFromUtc: 60 });
    expect((await api.get('/Timezone/999')).status).toBe(404);
    expect((await api.get('/Timezone/abc')).status).toBe(400);
  });
});

describe('checkpoints', () => {
  it('lists IPv4 and IPv6 addresses as plain strings, including a private location', async () => {
    const api = await emulator();
    const res = await api.get('/Checkpoint');
    for (const cp of res.list) {
      expect((cp['Ipv4Addresses'] as unknown[]).every((a) => typeof a === 'string')).toBe(true);
      expect((cp['IpV6Addresses'] as unknown[]).every((a) => typeof a === 'string')).toBe(true);
    }
    expect(res.list.some((cp) => cp['IsPrivateLocation'] === true)).toBe(true);
  });

  it('returns a checkpoint server, including private-location servers', async () => {
    const api = await emulator();
    expect((await api.get('/Checkpoint/Server/101')).body).toMatchObject({ ServerId: 101, CheckpointName: 'Amsterdam', Ipv4Addresses: ['198.51.100.11'], IpV6Addresses: ['2001:db8:101::11'] });
    expect((await api.get('/Checkpoint/Server/9001')).body).toMatchObject({ IsPrivateLocation: true });
    expect((await api.get('/Checkpoint/Server/5')).status).toBe(404);
  });

  it('reports private checkpoint health with Warnings', async () => {
    const api = await emulator();
    const res = await api.get('/PrivateCheckpointHealth');
    expect(res.list).toHaveLength(1);
    expect(Array.isArray(res.list[0]?.['Warnings'])).toBe(true);
  });
});

describe('register', () => {
  const login = { user: SEEDED.viewer.email, password: SEEDED.viewer.loginPassword };

  it('creates API credentials with the operator login, and they work at once', async () => {
    const api = await emulator();
    const res = await api.post('/Register', { Description: 'CI' }, login);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ AccountId: expect.any(String), OperatorName: SEEDED.viewer.fullName, status: 'OK' });
    const creds = { user: String(res.body['UserName']), password: String(res.body['Password']) };
    expect(creds.password.length).toBeGreaterThan(20);
    const use = await api.get('/Operator', creds);
    expect(use.status).toBe(200);
  });

  it('rejects API-account credentials and wrong login passwords with 401', async () => {
    const api = await emulator();
    expect((await api.post('/Register', undefined, VIEWER)).status).toBe(401);
    expect((await api.post('/Register', undefined, { user: SEEDED.viewer.email, password: 'wrong' })).status).toBe(401);
  });

  it('refuses operators that sign in only with single sign-on', async () => {
    const api = await emulator();
    await api.put(`/Operator/${SEEDED.viewer.guid}`, { Email: SEEDED.viewer.email, AllowNativeLogin: false });
    const res = await api.post('/Register', undefined, login);
    expect(res.status).toBe(401);
    expect(res.error).toMatch(/single sign-on/);
  });

  it('creates an account for another operator only for administrators', async () => {
    const api = await emulator();
    const denied = await api.post('/Register', { operatorGuid: SEEDED.admin.guid }, login);
    expect(denied.status).toBe(403);
    const admin = { user: SEEDED.admin.email, password: SEEDED.admin.loginPassword };
    const res = await api.request('POST', `/Register?operatorGuid=${SEEDED.viewer.guid}`, undefined, null, { authorization: basic(admin) });
    expect(res.status).toBe(201);
    expect(res.body['OperatorName']).toBe(SEEDED.viewer.fullName);
  });
});
