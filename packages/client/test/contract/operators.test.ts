import { describe, expect, it } from 'vitest';
import { NotFoundError } from '@monsync/client';
import { SEEDED } from '@monsync/emulator';
import { useEmulator } from './harness.js';

const api = useEmulator('empty');

describe('operators against the emulator', () => {
  it('lists the seeded operators and creates, reads, replaces and deletes one', async () => {
    const before = await api.client.operators.list().toArray();
    expect(before.map((o) => o.OperatorGuid)).toContain(SEEDED.admin.guid);
    const created = await api.client.operators.create({ Email: 'new.ops@example.com', Password: 'CANARY-7f3a9c-op', FullName: 'New Ops', CultureName: 'en-GB', TimeZoneId: 3 });
    expect(created).toMatchObject({ Email: 'new.ops@example.com', FullName: 'New Ops', CultureName: 'en-GB' });
    expect(JSON.stringify(created)).not.toContain('CANARY-7f3a9c-op');
    expect(await api.client.operators.get(created.OperatorGuid)).toMatchObject({ Email: 'new.ops@example.com' });
    await api.client.operators.replace(created.OperatorGuid, { Email: 'new.ops@example.com', FullName: 'Renamed Ops', SmsProvider: 'SmsProviderEurope' });
    expect(await api.client.operators.get(created.OperatorGuid)).toMatchObject({ FullName: 'Renamed Ops', SmsProvider: 'SmsProviderEurope' });
    await api.client.operators.delete(created.OperatorGuid);
    await expect(api.client.operators.get(created.OperatorGuid)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('manages an operator duty schedule', async () => {
    const op = await api.client.operators.create({ Email: 'sched@example.com' });
    const created = await api.client.operators.dutySchedules.create(op.OperatorGuid, { ScheduleMode: 'Weekly', WeekDay: 'Sunday', StartTime: '00:00', EndTime: '23:59' });
    expect(created.Id).toBeDefined();
    await api.client.operators.dutySchedules.replace(op.OperatorGuid, created.Id, { ScheduleMode: 'Daily', StartTime: '22:00', EndTime: '06:00' });
    const list = await api.client.operators.dutySchedules.list(op.OperatorGuid).toArray();
    expect(list).toEqual([expect.objectContaining({ Id: created.Id, ScheduleMode: 'Daily', StartTime: '22:00' })]);
    await api.client.operators.dutySchedules.delete(op.OperatorGuid, created.Id);
    expect(await api.client.operators.dutySchedules.list(op.OperatorGuid).toArray()).toEqual([]);
  });
});

describe('operator groups against the emulator', () => {
  it('lists system groups and creates, reads, replaces and deletes a group', async () => {
    const groups = await api.client.operatorGroups.list().toArray();
    expect(groups.find((g) => g.IsEveryone === true)?.OperatorGroupGuid).toBe(SEEDED.everyoneGroup);
    expect(groups.find((g) => g.IsAdministratorsGroup === true)?.OperatorGroupGuid).toBe(SEEDED.administratorsGroup);
    const created = await api.client.operatorGroups.create({ Description: 'On call' });
    expect(created.OperatorGroupGuid).toBeTypeOf('string');
    await api.client.operatorGroups.replace(created.OperatorGroupGuid, { Description: 'On call EU' });
    expect((await api.client.operatorGroups.get(created.OperatorGroupGuid)).Description).toBe('On call EU');
    await api.client.operatorGroups.delete(created.OperatorGroupGuid);
    await expect(api.client.operatorGroups.get(created.OperatorGroupGuid)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('lists members of the Administrators group', async () => {
    const members = await api.client.operatorGroups.members(SEEDED.administratorsGroup).toArray();
    expect(members.map((m) => m.OperatorGuid)).toContain(SEEDED.admin.guid);
  });

  it('adds, updates and deletes a duty schedule for every operator of a group', async () => {
    const schedule = await api.client.operatorGroups.dutySchedules.create(SEEDED.administratorsGroup, {
      ScheduleMode: 'OneTime',
      StartDateTime: '2026-12-24T18:00:00',
      EndDateTime: '2026-12-27T08:00:00',
    });
    expect(schedule?.Id).toBeDefined();
    const id = schedule?.Id ?? -1;
    await api.client.operatorGroups.dutySchedules.replace(SEEDED.administratorsGroup, id, { ScheduleMode: 'Monthly', MonthDay: 1, StartTime: '00:00', EndTime: '08:00' });
    await api.client.operatorGroups.dutySchedules.delete(SEEDED.administratorsGroup, id);
  });

  it('grants and revokes authorizations in the legacy form', async () => {
    const g = await api.client.operatorGroups.create({ Description: 'Finance' });
    const added = await api.client.operatorGroups.authorizations.add(g.OperatorGroupGuid, 'FinancialOperator');
    expect(added).toMatchObject({ AuthorizationType: 'FinancialOperator' });
    const list = await api.client.operatorGroups.authorizations.list(g.OperatorGroupGuid).toArray();
    expect(list).toEqual([expect.objectContaining({ AuthorizationType: 'FinancialOperator', AuthorizationId: added?.AuthorizationId })]);
    await api.client.operatorGroups.authorizations.remove(g.OperatorGroupGuid, String(added?.AuthorizationId));
    expect(await api.client.operatorGroups.authorizations.list(g.OperatorGroupGuid).toArray()).toEqual([]);
  });

  it('grants and revokes authorizations in the announced form', async () => {
    const g = await api.client.operatorGroups.create({ Description: 'Infra' });
    await api.client.operatorGroups.authorizations.addByType(g.OperatorGroupGuid, 'AllowInfra');
    expect((await api.client.operatorGroups.authorizations.list(g.OperatorGroupGuid).toArray()).map((a) => a.AuthorizationType)).toEqual(['AllowInfra']);
    await api.client.operatorGroups.authorizations.removeByType(g.OperatorGroupGuid, 'AllowInfra');
    expect(await api.client.operatorGroups.authorizations.list(g.OperatorGroupGuid).toArray()).toEqual([]);
  });
});

describe('time zones against the emulator', () => {
  it('lists time zones and reads one', async () => {
    const zones = await api.client.timezones.list().toArray();
    expect(zones.length).toBeGreaterThan(1);
    const first = zones[0];
    expect(first?.TimezoneId).toBeTypeOf('number');
    expect(await api.client.timezones.get(first?.TimezoneId ?? -1)).toMatchObject({ TimezoneId: first?.TimezoneId, Description: first?.Description });
  });
});
