import { describe, expect, it } from 'vitest';
import { isUnclearOutcome, UnexpectedResponseError } from './errors.js';
import { mockApi } from './test-utils/mock-api.js';

const M = '10000000-0000-4000-8000-000000000001';
const OTHER = '10000000-0000-4000-8000-000000000002';
const SECTION = '30000000-0000-4000-8000-000000000001';
const SECTION_2 = '30000000-0000-4000-8000-000000000002';
const SLA = '50000000-0000-4000-8000-000000000001';
const OP = '60000000-0000-4000-8000-000000000001';
const body = { Name: 'Shop', MonitorType: 'Https' as const };
const listed = (guid: string, name: string) => ({ MonitorGuid: guid, Name: name, MonitorType: 'Https' });

describe('a create answered with the new object or its identifier', () => {
  it.each([
    ['201 with the object under MonitorGuid', 201, { ...listed(M, 'Shop'), IsActive: true }],
    ['200 with the object under MonitorGuid', 200, { ...listed(M, 'Shop'), IsActive: true }],
    ['201 with the object under Guid', 201, { Guid: M, Name: 'Shop', MonitorType: 'Https', IsActive: true }],
    ['201 with the object under monitorGuid', 201, { monitorGuid: M, Name: 'Shop', MonitorType: 'Https', IsActive: true }],
    ['201 with the object in a Data envelope', 201, { Data: { MonitorGuid: M, Name: 'Shop', MonitorType: 'Https', IsActive: true } }],
  ] as const)('reads %s, with no second request', async (_name, status, answer) => {
    const api = mockApi();
    api.reply('POST', '/Monitor', status, answer);
    const created = await api.client.monitors.create(body);
    expect(created).toMatchObject({ MonitorGuid: M, Name: 'Shop', IsActive: true });
    expect(api.calls().map((c) => c.method)).toEqual(['POST']);
  });

  it.each([
    ['a JSON string', 201, JSON.stringify(M), { 'content-type': 'application/json' }],
    ['plain text', 201, M, { 'content-type': 'text/plain' }],
    ['plain text in braces', 200, `{${M}}`, { 'content-type': 'text/plain' }],
  ] as const)('reads a bare GUID given as %s as the sent object with its MonitorGuid', async (_name, status, text, headers) => {
    const api = mockApi();
    api.reply('POST', '/Monitor', status, text, headers);
    await expect(api.client.monitors.create(body)).resolves.toEqual({ ...body, MonitorGuid: M });
    expect(api.calls()).toHaveLength(1);
  });

  it('reads a bare number as the new Id (a duty schedule)', async () => {
    const api = mockApi();
    const schedule = { ScheduleMode: 'Daily' as const, StartTime: '22:00', EndTime: '06:00' };
    api.reply('POST', `/Operator/${OP}/DutySchedule`, 201, '17', { 'content-type': 'application/json' });
    await expect(api.client.operators.dutySchedules.create(OP, schedule)).resolves.toEqual({ ...schedule, Id: 17 });
  });
});

describe('a create whose answer does not name the new object', () => {
  it.each([
    ['201 with an empty body', 201, undefined],
    ['204', 204, undefined],
    ['200 with an empty body', 200, undefined],
    ['201 with an object without an identifier', 201, { Name: 'Shop' }],
    ['201 with null', 201, 'null'],
  ] as const)('answered %s: finds the monitor by re-listing and matching its Name', async (_name, status, answer) => {
    const api = mockApi();
    api.reply('POST', '/Monitor', status, answer, answer === 'null' ? { 'content-type': 'application/json' } : {});
    api.reply('GET', '/Monitor', 200, [listed(OTHER, 'Other'), listed(M, 'Shop')]);
    await expect(api.client.monitors.create(body)).resolves.toEqual(listed(M, 'Shop'));
    expect(api.calls().map((c) => `${c.method} ${c.url}`)).toEqual(['POST /v4/Monitor', 'GET /v4/Monitor']);
  });

  it('follows the cursors of the listing it searches', async () => {
    const api = mockApi();
    api.reply('POST', '/Monitor', 201);
    api.reply('GET', '/Monitor', 200, { Data: [listed(OTHER, 'Other')], Cursors: { Next: 'c2' } });
    api.reply('GET', '/Monitor', 200, { Data: [listed(M, 'Shop')] });
    await expect(api.client.monitors.create(body)).resolves.toMatchObject({ MonitorGuid: M });
  });

  it('shares one listing between creates answered in the same turn', async () => {
    const api = mockApi();
    api.reply('POST', '/Monitor', 201).times(2);
    api.reply('GET', '/Monitor', 200, [listed(M, 'Shop'), listed(OTHER, 'Other')]);
    const [a, b] = await Promise.all([api.client.monitors.create(body), api.client.monitors.create({ Name: 'Other', MonitorType: 'Https' })]);
    expect([a.MonitorGuid, b.MonitorGuid]).toEqual([M, OTHER]);
    expect(api.calls().filter((c) => c.method === 'GET')).toHaveLength(1);
  });

  it('finds a vault item by its section and Name, not by a same-named item of another section', async () => {
    const api = mockApi();
    api.reply('POST', '/VaultItem', 201);
    api.reply('GET', '/VaultItem', 200, [
      { VaultItemGuid: OTHER, Name: 'login', VaultSectionGuid: SECTION_2 },
      { VaultItemGuid: M, Name: 'login', VaultSectionGuid: SECTION },
    ]);
    const item = await api.client.vaultItems.create({ Name: 'login', VaultSectionGuid: SECTION, VaultItemType: 'CredentialSet', Password: 'CANARY-created' });
    expect(item.VaultItemGuid).toBe(M);
  });

  it('finds an SLA answered 204 by its Description, ignoring case and surrounding spaces as the service does', async () => {
    const api = mockApi();
    api.reply('POST', '/Sla', 204);
    api.reply('GET', '/Sla', 200, [{ SlaGuid: SLA, Description: 'gold ' }]);
    await expect(api.client.slas.create({ Description: 'Gold' })).resolves.toMatchObject({ SlaGuid: SLA });
  });

  it('finds an exclusion period answered 204 by Description, the newest of two', async () => {
    const api = mockApi();
    api.reply('POST', `/Sla/${SLA}/ExclusionPeriod`, 204);
    api.reply('GET', `/Sla/${SLA}/ExclusionPeriod`, 200, [
      { ExclusionPeriodId: 4, Description: 'Freeze' },
      { ExclusionPeriodId: 9, Description: 'Freeze' },
      { ExclusionPeriodId: 12, Description: 'Other' },
    ]);
    const period = await api.client.slas.exclusionPeriods.create(SLA, { Description: 'Freeze', From: '2026-11-27T00:00:00', Until: '2026-11-28T00:00:00' });
    expect(period.ExclusionPeriodId).toBe(9);
  });

  it('finds a scheduled report by the InternalNotes it was sent with', async () => {
    const api = mockApi();
    const report = { DashboardGuid: 'd', FileType: 'PDFAttachment' as const, InternalNotes: 'monsync:key=weekly', Schedule: { ScheduleType: 'Weekly' as const, Time: '08:00:00', WeekDay: 'Monday' as const } };
    api.reply('POST', '/ScheduledReport', 201);
    api.reply('GET', '/ScheduledReport', 200, [
      { ScheduledReportGuid: OTHER, DashboardGuid: 'd', InternalNotes: 'monsync:key=daily' },
      { ScheduledReportGuid: M, DashboardGuid: 'd', InternalNotes: 'monsync:key=weekly' },
    ]);
    await expect(api.client.scheduledReports.create(report)).resolves.toMatchObject({ ScheduledReportGuid: M });
  });

  it('finds a monitor group, an operator group, a vault section and an operator by their names', async () => {
    const api = mockApi();
    api.reply('POST', '/MonitorGroup', 201);
    api.reply('GET', '/MonitorGroup', 200, [{ MonitorGroupGuid: OTHER, Description: 'Shop', IsAll: true }, { MonitorGroupGuid: M, Description: 'Shop' }]);
    expect((await api.client.monitorGroups.create({ Description: 'Shop' })).MonitorGroupGuid).toBe(M);
    api.reply('POST', '/OperatorGroup', 204);
    api.reply('GET', '/OperatorGroup', 200, [{ OperatorGroupGuid: M, Description: 'On call' }]);
    expect((await api.client.operatorGroups.create({ Description: 'On call' })).OperatorGroupGuid).toBe(M);
    api.reply('POST', '/VaultSection', 201);
    api.reply('GET', '/VaultSection', 200, [{ VaultSectionGuid: SECTION, Name: 'Web' }]);
    expect((await api.client.vaultSections.create({ Name: 'Web' })).VaultSectionGuid).toBe(SECTION);
    api.reply('POST', '/Operator', 201);
    api.reply('GET', '/Operator', 200, [{ OperatorGuid: OP, Email: 'Sam@Example.com' }]);
    expect((await api.client.operators.create({ Email: 'sam@example.com' })).OperatorGuid).toBe(OP);
  });

  it('finds a duty schedule answered 201 with no body by its content, the newest match', async () => {
    const api = mockApi();
    const schedule = { ScheduleMode: 'Daily' as const, StartTime: '22:00', EndTime: '06:00' };
    api.reply('POST', `/Operator/${OP}/DutySchedule`, 201);
    api.reply('GET', `/Operator/${OP}/DutySchedule`, 200, [
      { Id: 3, ScheduleMode: 'Weekly', StartTime: '22:00', EndTime: '06:00' },
      { Id: 8, ...schedule },
    ]);
    await expect(api.client.operators.dutySchedules.create(OP, schedule)).resolves.toMatchObject({ Id: 8 });
  });

  it('accepts a member add answered 201 with no body or with text', async () => {
    const api = mockApi();
    api.reply('POST', `/MonitorGroup/${SECTION}/Member/${M}`, 201);
    api.reply('POST', `/MonitorGroup/${SECTION}/Member/${OTHER}`, 200, 'Created', { 'content-type': 'text/plain' });
    await api.client.monitorGroups.addMember(SECTION, M);
    await api.client.monitorGroups.addMember(SECTION, OTHER);
    expect(api.calls()).toHaveLength(2);
  });
});

describe('a create whose outcome is unclear', () => {
  it('a 2xx whose body is neither JSON nor an identifier: unclear, and nothing is sent again', async () => {
    const api = mockApi();
    api.reply('POST', '/Monitor', 201, '<html>created</html>', { 'content-type': 'text/html' });
    const error = await api.client.monitors.create(body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(isUnclearOutcome(error)).toBe(true);
    expect(api.calls().map((c) => c.method)).toEqual(['POST']);
  });

  it('an answer without the object and a listing without it: unclear, never a second POST', async () => {
    const api = mockApi();
    api.reply('POST', '/Monitor', 201);
    api.reply('GET', '/Monitor', 200, [listed(OTHER, 'Other')]);
    const error = await api.client.monitors.create(body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(isUnclearOutcome(error)).toBe(true);
    expect((error as Error).message).toContain('MonitorGuid');
    expect(api.calls().map((c) => c.method)).toEqual(['POST', 'GET']);
  });

  it('a 2xx body that is not JSON on a read is not a success either', async () => {
    const api = mockApi();
    api.reply('GET', `/Monitor/${M}`, 200, 'oops', { 'content-type': 'text/plain' });
    await expect(api.client.monitors.get(M)).rejects.toBeInstanceOf(UnexpectedResponseError);
  });
});
