import { describe, expect, it } from 'vitest';
import { SEEDED } from '../src/index.js';
import { ADMIN, VIEWER, emulator } from './helpers.js';

// Behaviour that the emulator's indexes (member sets, quota counters, per-monitor maintenance periods, the
// verified-credentials cache) must keep exactly as a full scan would.

const ALL = SEEDED.allMonitorsGroup;
const QUOTAS = ['UsedBasicMonitorQuota', 'UsedBrowserMonitorQuota', 'UsedTransactionMonitorQuota', 'UsedApiMonitorQuota'] as const;

async function group(api: Awaited<ReturnType<typeof emulator>>, description: string): Promise<string> {
  const res = await api.post('/MonitorGroup', { Description: description });
  expect(res.status).toBe(201);
  return String(res.body['MonitorGroupGuid']);
}

describe('group members', () => {
  it('lists members in creation order, whatever order they were added in', async () => {
    const api = await emulator({ profile: 'strict' });
    const [a, b, c] = [await api.createMonitor(), await api.createMonitor(), await api.createMonitor()].map((m) => String(m['MonitorGuid']));
    const g = await group(api, 'G');
    for (const m of [c, a, b]) expect((await api.post(`/MonitorGroup/${g}/Member/${m}`)).status).toBe(200);
    expect((await api.get(`/MonitorGroup/${g}/Member`)).list.map((m) => m['MonitorGuid'])).toEqual([a, b, c]);
    const paged = await api.listAllMonitors(`/Monitor/MonitorGroup/${g}?Take=2`);
    expect(paged.requests).toBe(2);
    expect(paged.items.map((m) => m['MonitorGuid'])).toEqual([a, b, c]);
  });

  it('drops a deleted monitor from the listings of its groups', async () => {
    const api = await emulator();
    const [a, b] = [await api.createMonitor(), await api.createMonitor()].map((m) => String(m['MonitorGuid']));
    const g = await group(api, 'G');
    await api.post(`/MonitorGroup/${g}/Member/${a}`);
    await api.post(`/MonitorGroup/${g}/Member/${b}`);
    expect((await api.delete(`/Monitor/${a}`)).status).toBe(204);
    expect((await api.get(`/MonitorGroup/${g}/Member`)).list.map((m) => m['MonitorGuid'])).toEqual([b]);
    expect((await api.get(`/MonitorGroup/${g}`)).body['UsedBasicMonitorQuota']).toBe(1);
  });

  it('ignores member GUIDs of a loaded state that name no monitor', async () => {
    const api = await emulator();
    const a = String((await api.createMonitor())['MonitorGuid']);
    const state = api.control.dump();
    state.monitorGroups.push({
      fields: { MonitorGroupGuid: '20000000-0000-4000-8000-000000000001', Description: 'Loaded', IsAll: false, IsQuotaUnlimited: false },
      members: ['10000000-0000-4000-8000-00000000dead', a.toUpperCase()],
    });
    await api.control.load(state);
    const members = await api.get('/MonitorGroup/20000000-0000-4000-8000-000000000001/Member');
    expect(members.list.map((m) => m['MonitorGuid'])).toEqual([a]);
    expect((await api.get('/MonitorGroup/20000000-0000-4000-8000-000000000001')).body['UsedBasicMonitorQuota']).toBe(1);
  });
});

describe('All Monitors quota', () => {
  const quotas = async (api: Awaited<ReturnType<typeof emulator>>): Promise<number[]> => {
    const all = (await api.get(`/MonitorGroup/${ALL}`)).body;
    return QUOTAS.map((f) => Number(all[f]));
  };

  it('follows creates, type changes, group-wide writes and deletes', async () => {
    const api = await emulator();
    expect(await quotas(api)).toEqual([0, 0, 0, 0]);
    const web = String((await api.createMonitor({ MonitorType: 'Https' }))['MonitorGuid']);
    const page = String((await api.createMonitor({ MonitorType: 'FullPageCheck' }))['MonitorGuid']);
    await api.createMonitor({ MonitorType: 'Transaction' });
    expect(await quotas(api)).toEqual([1, 1, 1, 0]);
    expect((await api.put(`/Monitor/${web}`, { Name: 'api now', MonitorType: 'MultiStepApi' })).status).toBe(200);
    expect(await quotas(api)).toEqual([0, 1, 1, 1]);
    expect((await api.patch(`/Monitor/${page}`, { MonitorType: 'Dns' })).status).toBe(200);
    expect(await quotas(api)).toEqual([1, 0, 1, 1]);
    expect((await api.post(`/MonitorGroup/${ALL}/StopAllMonitors`)).status).toBe(200);
    expect(await quotas(api)).toEqual([1, 0, 1, 1]);
    expect((await api.delete(`/Monitor/${web}`)).status).toBe(204);
    expect(await quotas(api)).toEqual([1, 0, 1, 0]);
  });

  it('is the same after a dump and load as before', async () => {
    const api = await emulator({ seed: 'demo' });
    const before = await quotas(api);
    expect(before.reduce((a, b) => a + b, 0)).toBe(13);
    const other = await emulator();
    await other.control.load(api.control.dump());
    expect(await quotas(other)).toEqual(before);
  });
});

describe('maintenance periods', () => {
  it('forgets the periods of a deleted monitor and keeps the others through a dump and load', async () => {
    const api = await emulator();
    const g = await group(api, 'G');
    const keep = String((await api.post(`/Monitor/MonitorGroup/${g}`, { Name: 'keep', MonitorType: 'Https' })).body['MonitorGuid']);
    const drop = String((await api.post(`/Monitor/MonitorGroup/${g}`, { Name: 'drop', MonitorType: 'Https' })).body['MonitorGuid']);
    for (const day of ['01', '02']) {
      const res = await api.post(`/MonitorGroup/${g}/AddMaintenancePeriodToAllMembers`, { From: `2026-01-${day}T00:00:00`, Until: `2026-01-${day}T04:00:00` });
      expect(res.status).toBe(200);
    }
    expect(api.control.dump().maintenancePeriods).toHaveLength(4);
    await api.delete(`/Monitor/${drop}`);
    const periods = api.control.dump().maintenancePeriods;
    expect(periods.map((p) => [p.MonitorGuid, p.period['From']])).toEqual([
      [keep, '2026-01-01T00:00:00'],
      [keep, '2026-01-02T00:00:00'],
    ]);
    const other = await emulator();
    await other.control.load(api.control.dump());
    expect(other.control.dump().maintenancePeriods).toEqual(periods);
  });
});

describe('credentials', () => {
  it('stops accepting an API account once its operator is deleted', async () => {
    const api = await emulator();
    const op = await api.post('/Operator', { Email: 'temp@example.com', FullName: 'Temp', Password: 'temp-login-password' });
    expect(op.status).toBe(201);
    const reg = await api.post('/Register', undefined, { user: 'temp@example.com', password: 'temp-login-password' });
    expect(reg.status).toBe(201);
    const creds = { user: String(reg.body['UserName']), password: String(reg.body['Password']) };
    expect((await api.get('/Timezone', creds)).status).toBe(200);
    expect((await api.delete(`/Operator/${String(op.body['OperatorGuid'])}`)).status).toBe(200);
    expect((await api.get('/Timezone', creds)).status).toBe(401);
  });

  it('refuses the old password once a loaded state changes it, and accepts the new one', async () => {
    const api = await emulator();
    expect((await api.get('/Timezone')).status).toBe(200);
    const state = api.control.dump();
    const account = state.apiAccounts.find((a) => a.UserName === 'demo');
    if (!account) throw new Error('the seed has no demo account');
    account.Password = 'CANARY-7f3a9c';
    await api.control.load(state);
    const denied = await api.get('/Timezone');
    expect(denied.status).toBe(401);
    expect(denied.text).not.toContain('demo-password');
    expect((await api.get('/Timezone', { user: 'demo', password: 'CANARY-7f3a9c' })).status).toBe(200);
  });

  it('tells administrators and viewers apart on every request, not only the first', async () => {
    const api = await emulator({ seed: 'demo' });
    for (let i = 0; i < 2; i++) {
      expect((await api.post('/MonitorGroup', { Description: `g${i}` }, VIEWER)).status).toBe(403);
      expect((await api.post('/MonitorGroup', { Description: `g${i}` }, ADMIN)).status).toBe(201);
    }
  });

  it('takes away administrator rights as soon as the operator leaves the Administrators group', async () => {
    const api = await emulator();
    const op = await api.post('/Operator', { Email: 'second@example.com', FullName: 'Second', Password: 'second-login-password' });
    const guid = String(op.body['OperatorGuid']);
    expect((await api.post(`/OperatorGroup/${SEEDED.administratorsGroup}/Member/${guid}`)).status).toBe(200);
    const reg = await api.post('/Register', undefined, { user: 'second@example.com', password: 'second-login-password' });
    expect(reg.status).toBe(201);
    const creds = { user: String(reg.body['UserName']), password: String(reg.body['Password']) };
    expect((await api.post('/MonitorGroup', { Description: 'a' }, creds)).status).toBe(201);
    expect((await api.delete(`/OperatorGroup/${SEEDED.administratorsGroup}/Member/${guid}`)).status).toBe(200);
    expect((await api.post('/MonitorGroup', { Description: 'b' }, creds)).status).toBe(403);
  });
});
