import { describe, expect, it } from 'vitest';
import { isUnclearOutcome } from '../errors.js';
import { mockApi } from '../test-utils/mock-api.js';

const O = 'c0000000-0000-0000-0000-00000000000c';
const OG = 'd0000000-0000-0000-0000-00000000000d';
const operator = { OperatorGuid: O, Email: 'sam@example.com', FullName: 'Sam Ops', IsAccountAdministrator: false, CultureName: 'en-GB', TimeZoneId: 4 };

describe('operators', () => {
  it('lists with GET /Operator and reads one with GET /Operator/{guid}', async () => {
    const api = mockApi();
    api.reply('GET', '/Operator', 200, [{ ...operator, UserName: 'sam' }]);
    api.reply('GET', `/Operator/${O}`, 200, operator);
    expect((await api.client.operators.list().toArray())[0]?.UserName).toBe('sam');
    await expect(api.client.operators.get(O)).resolves.toEqual(operator);
    expect(api.calls().map((c) => `${c.method} ${c.url}`)).toEqual(['GET /v4/Operator', `GET /v4/Operator/${O}`]);
  });

  it('creates with POST /Operator, returning the operator with its GUID', async () => {
    const api = mockApi();
    api.reply('POST', '/Operator', 200, operator);
    const body = { Email: 'sam@example.com', Password: 'initial-pw', FullName: 'Sam Ops', SmsProvider: 'SmsProviderEurope' as const };
    await expect(api.client.operators.create(body)).resolves.toMatchObject({ OperatorGuid: O });
    expect(api.last()).toMatchObject({ method: 'POST', url: '/v4/Operator', body });
  });

  it('replaces with PUT and deletes with DELETE /Operator/{guid}', async () => {
    const api = mockApi();
    api.reply('PUT', `/Operator/${O}`, 200, operator);
    api.reply('DELETE', `/Operator/${O}`, 200);
    await expect(api.client.operators.replace(O, { Email: 'sam@example.com', FullName: 'Sam' })).resolves.toEqual(operator);
    await api.client.operators.delete(O);
    expect(api.calls().map((c) => [c.method, c.url, c.body])).toEqual([
      ['PUT', `/v4/Operator/${O}`, { Email: 'sam@example.com', FullName: 'Sam' }],
      ['DELETE', `/v4/Operator/${O}`, undefined],
    ]);
  });

  it('manages duty schedules under /Operator/{guid}/DutySchedule', async () => {
    const api = mockApi();
    api.reply('GET', `/Operator/${O}/DutySchedule`, 200, [{ Id: 3, ScheduleMode: 'Daily', StartTime: '22:00', EndTime: '06:00' }]);
    api.reply('POST', `/Operator/${O}/DutySchedule`, 200, { Id: 4, ScheduleMode: 'Weekly', WeekDay: 'Sunday', StartTime: '00:00', EndTime: '23:59' });
    api.reply('PUT', `/Operator/${O}/DutySchedule/4`, 204);
    api.reply('DELETE', `/Operator/${O}/DutySchedule/4`, 204);
    const list = await api.client.operators.dutySchedules.list(O).toArray();
    const created = await api.client.operators.dutySchedules.create(O, { ScheduleMode: 'Weekly', WeekDay: 'Sunday', StartTime: '00:00', EndTime: '23:59' });
    await api.client.operators.dutySchedules.replace(O, created.Id, { ScheduleMode: 'Monthly', MonthDay: 1, StartTime: '00:00', EndTime: '08:00' });
    await api.client.operators.dutySchedules.delete(O, 4);
    expect(list[0]?.Id).toBe(3);
    expect(created.Id).toBe(4);
    expect(api.calls().map((c) => [c.method, c.url, c.body])).toEqual([
      ['GET', `/v4/Operator/${O}/DutySchedule`, undefined],
      ['POST', `/v4/Operator/${O}/DutySchedule`, { ScheduleMode: 'Weekly', WeekDay: 'Sunday', StartTime: '00:00', EndTime: '23:59' }],
      ['PUT', `/v4/Operator/${O}/DutySchedule/4`, { ScheduleMode: 'Monthly', MonthDay: 1, StartTime: '00:00', EndTime: '08:00' }],
      ['DELETE', `/v4/Operator/${O}/DutySchedule/4`, undefined],
    ]);
  });
});

describe("an operator's own authorizations", () => {
  it('reads bare type names and objects with AuthorizationType from GET /Operator/{guid}/Authorization', async () => {
    const api = mockApi();
    api.reply('GET', `/Operator/${O}/Authorization`, 200, ['AccountAccess', 'FinancialOperator']);
    expect(await api.client.operators.authorizations.list(O).toArray()).toEqual([{ AuthorizationType: 'AccountAccess' }, { AuthorizationType: 'FinancialOperator' }]);
    api.reply('GET', `/Operator/${O}/Authorization`, 200, [{ AuthorizationType: 'AllowInfra', OperatorGuid: O }]);
    expect(await api.client.operators.authorizations.list(O).toArray()).toEqual([{ AuthorizationType: 'AllowInfra', OperatorGuid: O }]);
    // No body at all is an empty list, as for every listing.
    api.reply('GET', `/Operator/${O}/Authorization`, 204);
    expect(await api.client.operators.authorizations.list(O).toArray()).toEqual([]);
  });

  it('refuses a listing entry that is neither a type name nor an object naming one', async () => {
    const api = mockApi();
    api.reply('GET', `/Operator/${O}/Authorization`, 200, ['AccountAccess', null]);
    await expect(api.client.operators.authorizations.list(O).toArray()).rejects.toMatchObject({ code: 'MALFORMED_LISTING' });
  });

  it.each([
    ['201 with no body (published)', 201, undefined],
    ['204 (the 2021 definition)', 204, undefined],
    ['200 with the list of types', 200, ['AccountAccess', 'AllowInfra']],
    ['201 with text that is not JSON', 201, 'Created'],
  ] as const)('adds with POST .../Authorization/{type} and no body, taking %s', async (_what, status, body) => {
    const api = mockApi();
    api.reply('POST', `/Operator/${O}/Authorization/AllowInfra`, status, body);
    await expect(api.client.operators.authorizations.add(O, 'AllowInfra')).resolves.toBeUndefined();
    expect(api.calls().map((c) => [c.method, c.url, c.body])).toEqual([['POST', `/v4/Operator/${O}/Authorization/AllowInfra`, undefined]]);
  });

  it('removes with DELETE .../Authorization/{type}, taking 204 or 200', async () => {
    const api = mockApi();
    api.reply('DELETE', `/Operator/${O}/Authorization/AllowInfra`, 204);
    api.reply('DELETE', `/Operator/${O}/Authorization/FinancialOperator`, 200, ['AccountAccess']);
    await api.client.operators.authorizations.remove(O, 'AllowInfra');
    await api.client.operators.authorizations.remove(O, 'FinancialOperator');
    expect(api.calls().map((c) => `${c.method} ${c.url}`)).toEqual([`DELETE /v4/Operator/${O}/Authorization/AllowInfra`, `DELETE /v4/Operator/${O}/Authorization/FinancialOperator`]);
  });

  it('never sends an add again after a 503: the outcome is unclear, and the caller looks before sending it again', async () => {
    const api = mockApi();
    api.reply('POST', `/Operator/${O}/Authorization/AllowInfra`, 503).persist();
    const error = await api.client.operators.authorizations.add(O, 'AllowInfra').catch((e: unknown) => e);
    expect(isUnclearOutcome(error)).toBe(true);
    expect(api.calls()).toHaveLength(1);
  });

  it('sends a DELETE again after a 503, as every idempotent request', async () => {
    const api = mockApi();
    api.reply('DELETE', `/Operator/${O}/Authorization/AllowInfra`, 503);
    api.reply('DELETE', `/Operator/${O}/Authorization/AllowInfra`, 204);
    await api.client.operators.authorizations.remove(O, 'AllowInfra');
    expect(api.calls()).toHaveLength(2);
  });
});

describe('operatorGroups', () => {
  it('lists with GET /OperatorGroup, giving IsAdministratorsGroup for either spelling', async () => {
    const api = mockApi();
    api.reply('GET', '/OperatorGroup', 200, [
      { OperatorGroupGuid: 'e', Description: 'Everyone', IsEveryone: true, IsAdministratorsGroup: false },
      { OperatorGroupGuid: 'a', Description: 'Administrators', IsEveryone: false, IsAdministratorGroup: true },
    ]);
    const groups = await api.client.operatorGroups.list().toArray();
    expect(groups.map((g) => [g.Description, g.IsAdministratorsGroup])).toEqual([
      ['Everyone', false],
      ['Administrators', true],
    ]);
  });

  it('reads, creates, replaces and deletes under /OperatorGroup', async () => {
    const api = mockApi();
    const group = { OperatorGroupGuid: OG, Description: 'On call' };
    api.reply('GET', `/OperatorGroup/${OG}`, 200, group);
    api.reply('POST', '/OperatorGroup', 200, group);
    api.reply('PUT', `/OperatorGroup/${OG}`, 204);
    api.reply('DELETE', `/OperatorGroup/${OG}`, 204);
    await expect(api.client.operatorGroups.get(OG)).resolves.toEqual(group);
    await expect(api.client.operatorGroups.create({ Description: 'On call' })).resolves.toEqual(group);
    await expect(api.client.operatorGroups.replace(OG, { Description: 'On call EU' })).resolves.toBeUndefined();
    await api.client.operatorGroups.delete(OG);
    expect(api.calls().map((c) => [c.method, c.url, c.body])).toEqual([
      ['GET', `/v4/OperatorGroup/${OG}`, undefined],
      ['POST', '/v4/OperatorGroup', { Description: 'On call' }],
      ['PUT', `/v4/OperatorGroup/${OG}`, { Description: 'On call EU' }],
      ['DELETE', `/v4/OperatorGroup/${OG}`, undefined],
    ]);
  });

  it('lists members with GET /OperatorGroup/{guid}/Member', async () => {
    const api = mockApi();
    api.reply('GET', `/OperatorGroup/${OG}/Member`, 200, [operator]);
    await expect(api.client.operatorGroups.members(OG).toArray()).resolves.toEqual([operator]);
    expect(api.last().url).toBe(`/v4/OperatorGroup/${OG}/Member`);
  });

  it('manages group duty schedules under /OperatorGroup/{guid}/DutySchedule', async () => {
    const api = mockApi();
    api.reply('POST', `/OperatorGroup/${OG}/DutySchedule`, 200, { Id: 9 });
    api.reply('PUT', `/OperatorGroup/${OG}/DutySchedule/9`, 204);
    api.reply('DELETE', `/OperatorGroup/${OG}/DutySchedule/9`, 204);
    const oneTime = { ScheduleMode: 'OneTime', StartDateTime: '2026-12-24T18:00:00', EndDateTime: '2026-12-27T08:00:00' } as const;
    await expect(api.client.operatorGroups.dutySchedules.create(OG, oneTime)).resolves.toEqual({ Id: 9 });
    await api.client.operatorGroups.dutySchedules.replace(OG, 9, { ScheduleMode: 'Daily', StartTime: '20:00', EndTime: '07:00' });
    await api.client.operatorGroups.dutySchedules.delete(OG, 9);
    expect(api.calls().map((c) => [c.method, c.url, c.body])).toEqual([
      ['POST', `/v4/OperatorGroup/${OG}/DutySchedule`, oneTime],
      ['PUT', `/v4/OperatorGroup/${OG}/DutySchedule/9`, { ScheduleMode: 'Daily', StartTime: '20:00', EndTime: '07:00' }],
      ['DELETE', `/v4/OperatorGroup/${OG}/DutySchedule/9`, undefined],
    ]);
  });

  it('copies a group duty schedule onto the members with POST .../DutySchedule/AddDutyScheduleForAllMembers (204)', async () => {
    const api = mockApi();
    api.reply('POST', `/OperatorGroup/${OG}/DutySchedule/AddDutyScheduleForAllMembers`, 204);
    const night = { ScheduleMode: 'Daily', StartTime: '20:00', EndTime: '07:00' } as const;
    await expect(api.client.operatorGroups.dutySchedules.addForAllMembers(OG, night)).resolves.toBeUndefined();
    expect(api.calls().map((c) => [c.method, c.url, c.body])).toEqual([['POST', `/v4/OperatorGroup/${OG}/DutySchedule/AddDutyScheduleForAllMembers`, night]]);
  });

  it('lists authorizations in the legacy form (objects with ids)', async () => {
    const api = mockApi();
    api.reply('GET', `/OperatorGroup/${OG}/Authorization`, 200, [{ AuthorizationId: 'x1', AuthorizationType: 'FinancialOperator', OperatorGroupGuid: OG }]);
    await expect(api.client.operatorGroups.authorizations.list(OG).toArray()).resolves.toEqual([
      { AuthorizationId: 'x1', AuthorizationType: 'FinancialOperator', OperatorGroupGuid: OG },
    ]);
  });

  it('lists authorizations in the announced form (bare type names) as objects', async () => {
    const api = mockApi();
    api.reply('GET', `/OperatorGroup/${OG}/Authorization`, 200, ['FinancialOperator', 'AllowInfra']);
    await expect(api.client.operatorGroups.authorizations.list(OG).toArray()).resolves.toEqual([
      { AuthorizationType: 'FinancialOperator' },
      { AuthorizationType: 'AllowInfra' },
    ]);
  });

  it('adds and removes authorizations in the legacy form (type in the body, id in the path)', async () => {
    const api = mockApi();
    api.reply('POST', `/OperatorGroup/${OG}/Authorization`, 200, { AuthorizationId: 'x2', AuthorizationType: 'AllowInfra' });
    api.reply('DELETE', `/OperatorGroup/${OG}/Authorization/x2`, 204);
    await expect(api.client.operatorGroups.authorizations.add(OG, 'AllowInfra')).resolves.toMatchObject({ AuthorizationId: 'x2' });
    await api.client.operatorGroups.authorizations.remove(OG, 'x2');
    expect(api.calls().map((c) => [c.method, c.url, c.body])).toEqual([
      ['POST', `/v4/OperatorGroup/${OG}/Authorization`, { AuthorizationType: 'AllowInfra' }],
      ['DELETE', `/v4/OperatorGroup/${OG}/Authorization/x2`, undefined],
    ]);
  });

  it('adds and removes authorizations in the announced form (type in the path, no body)', async () => {
    const api = mockApi();
    api.reply('POST', `/OperatorGroup/${OG}/Authorization/FinancialOperator`, 204);
    api.reply('DELETE', `/OperatorGroup/${OG}/Authorization/FinancialOperator`, 204);
    await api.client.operatorGroups.authorizations.addByType(OG, 'FinancialOperator');
    await api.client.operatorGroups.authorizations.removeByType(OG, 'FinancialOperator');
    expect(api.calls().map((c) => [c.method, c.url, c.body])).toEqual([
      ['POST', `/v4/OperatorGroup/${OG}/Authorization/FinancialOperator`, undefined],
      ['DELETE', `/v4/OperatorGroup/${OG}/Authorization/FinancialOperator`, undefined],
    ]);
  });
});

describe('timezones', () => {
  it('lists with GET /Timezone and reads one with GET /Timezone/{id}, whichever Id spelling comes back', async () => {
    const api = mockApi();
    api.reply('GET', '/Timezone', 200, [
      { TimezoneId: 1, Description: 'UTC', OffsetFromUtc: 0, HasDaylightSaving: false },
      { TimeZoneId: 4, Description: 'Amsterdam', OffsetFromUtc: 60, HasDaylightSaving: true, DaylightSavingOffset: 60 },
    ]);
    api.reply('GET', '/Timezone/4', 200, { TimeZoneId: 4, Description: 'Amsterdam' });
    const zones = await api.client.timezones.list().toArray();
    expect(zones.map((z) => z.TimezoneId)).toEqual([1, 4]);
    await expect(api.client.timezones.get(4)).resolves.toMatchObject({ TimezoneId: 4, Description: 'Amsterdam' });
    expect(api.calls().map((c) => c.url)).toEqual(['/v4/Timezone', '/v4/Timezone/4']);
  });
});
