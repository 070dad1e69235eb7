import { describe, expect, it } from 'vitest';
import { ApiError, NotFoundError } from '@monsync/client';
import { SEEDED } from '@monsync/emulator';
import { useEmulator } from './harness.js';

const api = useEmulator('empty');

describe('monitorGroups against the emulator', () => {
  it('lists the All Monitors group and creates, reads, replaces and deletes a group', async () => {
    const before = await api.client.monitorGroups.list().toArray();
    expect(before.find((g) => g.IsAll === true)?.MonitorGroupGuid).toBe(SEEDED.allMonitorsGroup);

    const group = await api.client.monitorGroups.create({ Description: 'Shop' });
    expect(group).toMatchObject({ Description: 'Shop' });
    expect(await api.client.monitorGroups.get(group.MonitorGroupGuid)).toMatchObject({ Description: 'Shop' });

    await api.client.monitorGroups.replace(group.MonitorGroupGuid, { Description: 'Shop EU' });
    expect((await api.client.monitorGroups.get(group.MonitorGroupGuid)).Description).toBe('Shop EU');

    await api.client.monitorGroups.delete(group.MonitorGroupGuid);
    await expect(api.client.monitorGroups.get(group.MonitorGroupGuid)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('adds and removes members', async () => {
    const group = await api.client.monitorGroups.create({ Description: 'Platform' });
    const m = await api.client.monitors.create({ Name: 'Gateway', MonitorType: 'Https' });
    await api.client.monitorGroups.addMember(group.MonitorGroupGuid, m.MonitorGuid);
    expect((await api.client.monitorGroups.members(group.MonitorGroupGuid).toArray()).map((x) => x.MonitorGuid)).toEqual([m.MonitorGuid]);
    await api.client.monitorGroups.removeMember(group.MonitorGroupGuid, m.MonitorGuid);
    expect(await api.client.monitorGroups.members(group.MonitorGroupGuid).toArray()).toEqual([]);
  });

  it('refuses membership changes on the All Monitors group with an API error', async () => {
    const m = await api.client.monitors.create({ Name: 'Gateway', MonitorType: 'Https' });
    const error = await api.client.monitorGroups.removeMember(SEEDED.allMonitorsGroup, m.MonitorGuid).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect([400, 403, 409]).toContain((error as ApiError).status);
  });

  it('stops and starts all monitors and all alerts of a group', async () => {
    const group = await api.client.monitorGroups.create({ Description: 'Ops' });
    const m = await api.client.monitors.createInGroup(group.MonitorGroupGuid, { Name: 'Gateway', MonitorType: 'Https' });
    await api.client.monitorGroups.stopAllMonitors(group.MonitorGroupGuid);
    expect((await api.client.monitors.get(m.MonitorGuid)).IsActive).toBe(false);
    await api.client.monitorGroups.startAllMonitors(group.MonitorGroupGuid);
    expect((await api.client.monitors.get(m.MonitorGuid)).IsActive).toBe(true);
    await api.client.monitorGroups.stopAllMonitorAlerts(group.MonitorGroupGuid);
    expect((await api.client.monitors.get(m.MonitorGuid)).GenerateAlert).toBe(false);
    await api.client.monitorGroups.startAllMonitorAlerts(group.MonitorGroupGuid);
    expect((await api.client.monitors.get(m.MonitorGuid)).GenerateAlert).toBe(true);
  });

  it('adds a maintenance period to all members', async () => {
    const group = await api.client.monitorGroups.create({ Description: 'Ops' });
    await api.client.monitors.createInGroup(group.MonitorGroupGuid, { Name: 'Gateway', MonitorType: 'Https' });
    await expect(
      api.client.monitorGroups.addMaintenancePeriodToAllMembers(group.MonitorGroupGuid, {
        ScheduleMode: 'OneTime',
        MaintenanceType: 'DisableMonitoring',
        StartDateTime: '2026-12-01T00:00:00',
        EndDateTime: '2026-12-01T04:00:00',
        // The emulator still reads the spec's From/Until.
        From: '2026-12-01T00:00:00',
        Until: '2026-12-01T04:00:00',
      }),
    ).resolves.toBeUndefined();
    expect(api.emulator.control.dump().maintenancePeriods).toHaveLength(1);
  });
});
