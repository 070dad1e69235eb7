import { describe, expect, it } from 'vitest';
import { DEMO, SEEDED } from '../src/index.js';
import { emulator } from './helpers.js';

const ALL = SEEDED.allMonitorsGroup;

describe('monitor groups', () => {
  it('has an All Monitors group that holds every monitor', async () => {
    const api = await emulator();
    const a = await api.createMonitor();
    const b = await api.createMonitor();
    const groups = await api.get('/MonitorGroup');
    const all = groups.list.find((g) => g['IsAll']);
    expect(all?.['MonitorGroupGuid']).toBe(ALL);
    const members = await api.get(`/MonitorGroup/${ALL}/Member`);
    expect(members.list.map((m) => m['MonitorGuid'])).toEqual([a['MonitorGuid'], b['MonitorGuid']]);
  });

  it('refuses membership changes, changes and deletion of the All Monitors group with 400', async () => {
    const api = await emulator();
    const m = await api.createMonitor();
    expect((await api.post(`/MonitorGroup/${ALL}/Member/${String(m['MonitorGuid'])}`)).status).toBe(400);
    const del = await api.delete(`/MonitorGroup/${ALL}/Member/${String(m['MonitorGuid'])}`);
    expect(del.status).toBe(400);
    expect(del.error).toMatch(/All Monitors/);
    expect((await api.put(`/MonitorGroup/${ALL}`, { Description: 'Everything' })).status).toBe(400);
    expect((await api.delete(`/MonitorGroup/${ALL}`)).status).toBe(400);
  });

  it('creates, reads, updates and deletes a group', async () => {
    const api = await emulator();
    const created = await api.post('/MonitorGroup', { Description: 'Shop' });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ Description: 'Shop', IsAll: false });
    const guid = String(created.body['MonitorGroupGuid']);
    const updated = await api.put(`/MonitorGroup/${guid}`, { Description: 'Webshop', IsQuotaUnlimited: true });
    expect(updated.json).toMatchObject({ Description: 'Webshop', IsQuotaUnlimited: true });
    expect((await api.get(`/MonitorGroup/${guid}`)).body['Description']).toBe('Webshop');
    expect((await api.delete(`/MonitorGroup/${guid}`)).status).toBe(200);
    expect((await api.get(`/MonitorGroup/${guid}`)).status).toBe(404);
  });

  it('requires a Description and refuses IsAll on create', async () => {
    const api = await emulator();
    expect((await api.post('/MonitorGroup', {})).status).toBe(400);
    expect((await api.post('/MonitorGroup', { Description: 'x', IsAll: true })).status).toBe(400);
  });

  it('adds and removes members; deleting a group keeps its monitors', async () => {
    const api = await emulator();
    const g = String((await api.post('/MonitorGroup', { Description: 'G' })).body['MonitorGroupGuid']);
    const m = String((await api.createMonitor())['MonitorGuid']);
    expect((await api.post(`/MonitorGroup/${g}/Member/${m}`)).status).toBe(200);
    expect((await api.post(`/MonitorGroup/${g}/Member/${m}`)).status).toBe(200);
    expect((await api.get(`/MonitorGroup/${g}/Member`)).json).toHaveLength(1);
    expect((await api.delete(`/MonitorGroup/${g}/Member/${m}`)).status).toBe(200);
    expect((await api.get(`/MonitorGroup/${g}/Member`)).json).toHaveLength(0);
    await api.post(`/MonitorGroup/${g}/Member/${m}`);
    await api.delete(`/MonitorGroup/${g}`);
    expect((await api.get(`/Monitor/${m}`)).status).toBe(200);
  });

  it('lists a group\'s members as they are now when asked again: a renamed, an added, a removed and a deleted member all show', async () => {
    const api = await emulator();
    const g = String((await api.post('/MonitorGroup', { Description: 'G' })).body['MonitorGroupGuid']);
    const [a, b, c] = [String((await api.createMonitor({ Name: 'a' }))['MonitorGuid']), String((await api.createMonitor({ Name: 'b' }))['MonitorGuid']), String((await api.createMonitor({ Name: 'c' }))['MonitorGuid'])];
    await api.post(`/MonitorGroup/${g}/Member/${a}`);
    await api.post(`/MonitorGroup/${g}/Member/${b}`);
    const names = async (): Promise<unknown[]> => (await api.get(`/MonitorGroup/${g}/Member`)).list.map((m) => m['Name'] ?? m['MonitorGuid']);
    expect(await names()).toEqual(['a', 'b']);
    await api.patch(`/Monitor/${a}`, { Name: 'a renamed' });
    expect(await names()).toEqual(['a renamed', 'b']);
    await api.post(`/MonitorGroup/${g}/Member/${c}`);
    expect(await names()).toEqual(['a renamed', 'b', 'c']);
    await api.delete(`/MonitorGroup/${g}/Member/${b}`);
    expect(await names()).toEqual(['a renamed', 'c']);
    await api.delete(`/Monitor/${c}`);
    expect(await names()).toEqual(['a renamed']);
  });

  it('answers 404 adding a monitor that does not exist', async () => {
    const api = await emulator();
    const g = String((await api.post('/MonitorGroup', { Description: 'G' })).body['MonitorGroupGuid']);
    expect((await api.post(`/MonitorGroup/${g}/Member/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
  });

  it('computes Used...Quota from members by monitor type', async () => {
    const api = await emulator({ seed: 'demo' });
    const shop = await api.get(`/MonitorGroup/${DEMO.groups.shop}`);
    expect(shop.json).toMatchObject({
      UsedBasicMonitorQuota: 1,
      UsedTransactionMonitorQuota: 1,
      UsedApiMonitorQuota: 1,
      UsedBrowserMonitorQuota: 1,
      UsedClassicQuota: 0,
    });
    const all = await api.get(`/MonitorGroup/${ALL}`);
    const used = ['UsedBasicMonitorQuota', 'UsedBrowserMonitorQuota', 'UsedTransactionMonitorQuota', 'UsedApiMonitorQuota'].map((f) => Number(all.body[f]));
    expect(used.reduce((a, b) => a + b, 0)).toBe(13);
  });

  it('stops and starts all monitors and alerts of a group, leaving others alone', async () => {
    const api = await emulator();
    const g = String((await api.post('/MonitorGroup', { Description: 'G' })).body['MonitorGroupGuid']);
    const inside = String((await api.post(`/Monitor/MonitorGroup/${g}`, { Name: 'in', MonitorType: 'Https' })).body['MonitorGuid']);
    const outside = String((await api.createMonitor())['MonitorGuid']);
    expect((await api.post(`/MonitorGroup/${g}/StopAllMonitors`)).status).toBe(200);
    expect((await api.get(`/Monitor/${inside}`)).body['IsActive']).toBe(false);
    expect((await api.get(`/Monitor/${outside}`)).body['IsActive']).toBe(true);
    await api.post(`/MonitorGroup/${g}/StopAllMonitorAlerts`);
    expect((await api.get(`/Monitor/${inside}`)).body['GenerateAlert']).toBe(false);
    await api.post(`/MonitorGroup/${g}/StartAllMonitors`);
    await api.post(`/MonitorGroup/${g}/StartAllMonitorAlerts`);
    expect((await api.get(`/Monitor/${inside}`)).json).toMatchObject({ IsActive: true, GenerateAlert: true });
  });

  it('treats the All Monitors GUID as the whole account for start/stop', async () => {
    const api = await emulator({ seed: 'demo' });
    await api.post(`/MonitorGroup/${ALL}/StopAllMonitors`);
    const all = await api.get('/Monitor');
    expect(all.data.every((m) => m['IsActive'] === false)).toBe(true);
  });

  it('adds a maintenance period to every member and validates the period', async () => {
    const api = await emulator({ seed: 'demo' });
    const bad = await api.post(`/MonitorGroup/${DEMO.groups.shop}/AddMaintenancePeriodToAllMembers`, { From: '2026-01-02T00:00:00', Until: '2026-01-01T00:00:00' });
    expect(bad.status).toBe(400);
    const res = await api.post(`/MonitorGroup/${DEMO.groups.shop}/AddMaintenancePeriodToAllMembers`, { From: '2026-01-01T00:00:00', Until: '2026-01-01T04:00:00' });
    expect(res.status).toBe(200);
    expect(api.control.dump().maintenancePeriods).toHaveLength(4);
  });
});
