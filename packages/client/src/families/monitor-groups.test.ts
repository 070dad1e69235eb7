import { describe, expect, it } from 'vitest';
import { mockApi } from '../test-utils/mock-api.js';

const G = 'a0000000-0000-0000-0000-000000000002';
const M = 'f0000000-0000-0000-0000-000000000001';
const group = { MonitorGroupGuid: G, Description: 'Shop', IsAll: false, UsedBasicMonitorQuota: 3 };

describe('monitorGroups', () => {
  it('lists with GET /MonitorGroup (bare array)', async () => {
    const api = mockApi();
    api.reply('GET', '/MonitorGroup', 200, [group, { MonitorGroupGuid: 'all', Description: 'All Monitors', IsAll: true }]);
    const groups = await api.client.monitorGroups.list().toArray();
    expect(groups.map((g) => g.Description)).toEqual(['Shop', 'All Monitors']);
    expect(api.last()).toMatchObject({ method: 'GET', url: '/v4/MonitorGroup' });
  });

  it('reads one with GET /MonitorGroup/{guid}', async () => {
    const api = mockApi();
    api.reply('GET', `/MonitorGroup/${G}`, 200, group);
    await expect(api.client.monitorGroups.get(G)).resolves.toEqual(group);
  });

  it('creates with POST /MonitorGroup', async () => {
    const api = mockApi();
    api.reply('POST', '/MonitorGroup', 200, group);
    await expect(api.client.monitorGroups.create({ Description: 'Shop' })).resolves.toEqual(group);
    expect(api.last()).toMatchObject({ method: 'POST', url: '/v4/MonitorGroup', body: { Description: 'Shop' } });
  });

  it('replaces with PUT and deletes with DELETE /MonitorGroup/{guid}', async () => {
    const api = mockApi();
    api.reply('PUT', `/MonitorGroup/${G}`, 204);
    api.reply('DELETE', `/MonitorGroup/${G}`, 204);
    await expect(api.client.monitorGroups.replace(G, { Description: 'Shop EU' })).resolves.toBeUndefined();
    await api.client.monitorGroups.delete(G);
    expect(api.calls().map((c) => [c.method, c.url, c.body])).toEqual([
      ['PUT', `/v4/MonitorGroup/${G}`, { Description: 'Shop EU' }],
      ['DELETE', `/v4/MonitorGroup/${G}`, undefined],
    ]);
  });

  it('lists members with GET /MonitorGroup/{guid}/Member', async () => {
    const api = mockApi();
    api.reply('GET', `/MonitorGroup/${G}/Member`, 200, [{ MonitorGuid: M, Name: 'Shop homepage' }]);
    const members = await api.client.monitorGroups.members(G).toArray();
    expect(members.map((m) => m.MonitorGuid)).toEqual([M]);
    expect(api.last().url).toBe(`/v4/MonitorGroup/${G}/Member`);
  });

  it('adds and removes a member with POST and DELETE /MonitorGroup/{guid}/Member/{monitorGuid}', async () => {
    const api = mockApi();
    api.reply('POST', `/MonitorGroup/${G}/Member/${M}`, 200, {});
    api.reply('DELETE', `/MonitorGroup/${G}/Member/${M}`, 204);
    await api.client.monitorGroups.addMember(G, M);
    await api.client.monitorGroups.removeMember(G, M);
    expect(api.calls().map((c) => [c.method, c.url, c.body])).toEqual([
      ['POST', `/v4/MonitorGroup/${G}/Member/${M}`, undefined],
      ['DELETE', `/v4/MonitorGroup/${G}/Member/${M}`, undefined],
    ]);
  });

  it('starts and stops all monitors and all alerts with POST actions', async () => {
    const api = mockApi();
    for (const action of ['StartAllMonitors', 'StopAllMonitors', 'StartAllMonitorAlerts', 'StopAllMonitorAlerts']) {
      api.reply('POST', `/MonitorGroup/${G}/${action}`, 204);
    }
    await api.client.monitorGroups.startAllMonitors(G);
    await api.client.monitorGroups.stopAllMonitors(G);
    await api.client.monitorGroups.startAllMonitorAlerts(G);
    await api.client.monitorGroups.stopAllMonitorAlerts(G);
    expect(api.calls().map((c) => `${c.method} ${c.url}`)).toEqual([
      `POST /v4/MonitorGroup/${G}/StartAllMonitors`,
      `POST /v4/MonitorGroup/${G}/StopAllMonitors`,
      `POST /v4/MonitorGroup/${G}/StartAllMonitorAlerts`,
      `POST /v4/MonitorGroup/${G}/StopAllMonitorAlerts`,
    ]);
  });

  it('adds a maintenance period to all members, sending the payload as given', async () => {
    const api = mockApi();
    api.reply('POST', `/MonitorGroup/${G}/AddMaintenancePeriodToAllMembers`, 200, {});
    const period = { ScheduleMode: 'OneTime', MaintenanceType: 'DisableMonitoring', StartDateTime: '2026-11-27T00:00:00', EndDateTime: '2026-11-27T04:00:00', Description: 'upgrade' } as const;
    await api.client.monitorGroups.addMaintenancePeriodToAllMembers(G, period);
    expect(api.last()).toMatchObject({ method: 'POST', url: `/v4/MonitorGroup/${G}/AddMaintenancePeriodToAllMembers`, body: period });
  });
});
