import { describe, expect, it } from 'vitest';
import { DEMO, SEEDED } from '../src/index.js';
import { emulator, VIEWER } from './helpers.js';

describe('authentication', () => {
  it('answers 401 with a Basic challenge when credentials are missing', async () => {
    const api = await emulator();
    const res = await api.get('/Monitor', null);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect(res.error).toMatch(/Authentication required/);
  });

  it('answers 401 for a wrong password without echoing it', async () => {
    const api = await emulator();
    const res = await api.get('/Monitor', { user: 'demo', password: 'CANARY-7f3a9c' });
    expect(res.status).toBe(401);
    expect(res.text).not.toContain('CANARY-7f3a9c');
  });

  it('answers 401 for an unknown user and for a malformed header', async () => {
    const api = await emulator();
    expect((await api.get('/Monitor', { user: 'nobody', password: 'x' })).status).toBe(401);
    expect((await api.request('GET', '/Monitor', undefined, null, { authorization: 'Bearer abc' })).status).toBe(401);
  });

  it('does not accept an operator login on API endpoints (only on /Register)', async () => {
    const api = await emulator();
    const res = await api.get('/Monitor', { user: SEEDED.admin.email, password: SEEDED.admin.loginPassword });
    expect(res.status).toBe(401);
  });

  it('uses the --user/--password credentials for the administrator API account', async () => {
    const api = await emulator({ user: 'ci-bot', password: 'ci-secret' });
    expect((await api.get('/Monitor', { user: 'ci-bot', password: 'ci-secret' })).status).toBe(200);
    expect((await api.get('/Monitor')).status).toBe(401);
  });

  it('checks authentication before reading the body', async () => {
    const api = await emulator();
    const res = await api.request('POST', '/Monitor', '{broken', null);
    expect(res.status).toBe(401);
  });
});

describe('non-administrator operator', () => {
  it('sees only monitors with view-data permission, with at least the fields the spec lists', async () => {
    const api = await emulator({ seed: 'demo' });
    const res = await api.get('/Monitor', VIEWER);
    expect(res.status).toBe(200);
    expect(res.data.map((m) => m['Name'])).toEqual(['Shop homepage', 'Marketing site', 'Blog']);
    for (const m of res.data) {
      for (const f of ['MonitorGuid', 'Name', 'MonitorType', 'MonitorMode', 'IsActive', 'GenerateAlert']) expect(m).toHaveProperty(f);
    }
  });

  it('gets 403 reading a monitor without view-data permission, and 200 once granted', async () => {
    const api = await emulator({ seed: 'demo' });
    const all = await api.get('/Monitor');
    const checkout = all.data.find((m) => m['Name'] === 'Shop checkout');
    expect((await api.get(`/Monitor/${String(checkout?.['MonitorGuid'])}`, VIEWER)).status).toBe(403);
    await api.control.setMonitorView(SEEDED.viewer.email, [String(checkout?.['MonitorGuid'])]);
    expect((await api.get(`/Monitor/${String(checkout?.['MonitorGuid'])}`, VIEWER)).status).toBe(200);
  });

  it('gets 403 for monitor and group writes', async () => {
    const api = await emulator({ seed: 'demo' });
    expect((await api.post('/Monitor', { Name: 'x', MonitorType: 'Https' }, VIEWER)).status).toBe(403);
    expect((await api.post('/MonitorGroup', { Description: 'x' }, VIEWER)).status).toBe(403);
    expect((await api.post(`/MonitorGroup/${DEMO.groups.shop}/StopAllMonitors`, undefined, VIEWER)).status).toBe(403);
  });

  it('sees group members filtered by view-data permission', async () => {
    const api = await emulator({ seed: 'demo' });
    const res = await api.get(`/MonitorGroup/${DEMO.groups.marketing}/Member`, VIEWER);
    expect(res.list.map((m) => m['Name'])).toEqual(['Marketing site', 'Blog']);
    const shop = await api.get(`/MonitorGroup/${DEMO.groups.shop}/Member`, VIEWER);
    expect(shop.list.map((m) => m['Name'])).toEqual(['Shop homepage']);
  });
});

describe('paths', () => {
  it('accepts the plural the spec names (.../Members) and invents no other', async () => {
    const api = await emulator({ seed: 'demo' });
    expect((await api.get(`/MonitorGroup/${DEMO.groups.shop}/Members`)).json).toHaveLength(4);
    for (const invented of ['/Monitors', `/MonitorGroups/${DEMO.groups.shop}/Member`, '/VaultItems', '/Slas', `/Sla/${DEMO.slas.gold}/ExclusionPeriods`]) {
      expect((await api.get(invented)).status, invented).toBe(404);
    }
  });

  it('answers 404 and 405 only to an authenticated caller', async () => {
    const api = await emulator();
    expect((await api.get('/Nope', null)).status).toBe(401);
    expect((await api.request('DELETE', '/Monitor', undefined, null)).status).toBe(401);
    expect((await api.get('/Nope')).status).toBe(404);
  });

  it('answers 404 for an unknown endpoint and 405 for a wrong method', async () => {
    const api = await emulator();
    const unknown = await api.get('/Nope');
    expect(unknown.status).toBe(404);
    const wrong = await api.request('DELETE', '/Monitor');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toContain('GET');
  });

  it('answers 404 outside the /v4 root', async () => {
    const api = await emulator();
    const res = await fetch(api.url.replace('/v4', '/v3/Monitor'));
    expect(res.status).toBe(404);
  });
});
