import { describe, expect, it } from 'vitest';
import { SEEDED } from '../src/index.js';
import { emulator, VIEWER, type Api } from './helpers.js';

const CANARY = 'CANARY-7f3a9c-login';

async function newOperator(api: Api, email = 'ops@example.com'): Promise<string> {
  const res = await api.post('/Operator', { Email: email, FullName: 'Ops', Password: CANARY });
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
  return String(res.body['OperatorGuid']);
}

describe('operators', () => {
  it('lists the seeded operators, administrator included, without passwords', async () => {
    const api = await emulator();
    const res = await api.get('/Operator');
    expect(res.list.map((o) => [o['Email'], o['IsAccountAdministrator']])).toEqual([
      [SEEDED.admin.email, true],
      [SEEDED.viewer.email, false],
    ]);
    expect(res.text).not.toContain(SEEDED.admin.loginPassword);
    expect(res.list[0]).not.toHaveProperty('Password');
  });

  it('creates, reads, updates and deletes an operator; the password is write-only and kept on update', async () => {
    const api = await emulator();
    const created = await api.post('/Operator', { Email: 'new@example.com', FullName: 'New', Password: CANARY, CultureName: 'de-DE', TimeZoneId: 3 });
    expect(created.status).toBe(201);
    expect(created.text).not.toContain(CANARY);
    const guid = String(created.body['OperatorGuid']);
    expect(created.body).toMatchObject({ Email: 'new@example.com', CultureName: 'de-DE', IsAccountAdministrator: false });
    const updated = await api.put(`/Operator/${guid}`, { Email: 'new@example.com', FullName: 'Renamed' });
    expect(updated.body['FullName']).toBe('Renamed');
    const stored = api.control.dump().operators.find((o) => o['OperatorGuid'] === guid);
    expect(stored?.['Password']).toBe(CANARY);
    expect((await api.get(`/Operator/${guid}`)).body['FullName']).toBe('Renamed');
    expect((await api.delete(`/Operator/${guid}`)).status).toBe(200);
    expect((await api.get(`/Operator/${guid}`)).status).toBe(404);
  });

  it('validates operators: e-mail, culture, SMS provider, time zone, duplicates', async () => {
    const api = await emulator();
    const bad = await api.post('/Operator', { Email: 'nope', CultureName: 'xx-XX', SmsProvider: 'Pigeon', TimeZoneId: 999 });
    expect(bad.status).toBe(400);
    expect(bad.error).toEqual(expect.arrayContaining([expect.stringMatching(/Email/), expect.stringMatching(/CultureName/), expect.stringMatching(/SmsProvider/), expect.stringMatching(/TimeZoneId 999/)]));
    const dup = await api.post('/Operator', { Email: SEEDED.viewer.email.toUpperCase() });
    expect(dup.status).toBe(400);
    expect(dup.error).toMatch(/already used/);
  });

  it('refuses (403) to delete the operator of the API account in use', async () => {
    const api = await emulator();
    const res = await api.delete(`/Operator/${SEEDED.admin.guid}`);
    expect(res.status).toBe(403);
    expect(res.error).toMatch(/API account in use/);
  });

  it('lets only administrators change operators', async () => {
    const api = await emulator();
    expect((await api.post('/Operator', { Email: 'x@example.com' }, VIEWER)).status).toBe(403);
    expect((await api.get('/Operator', VIEWER)).status).toBe(200);
  });

  it('removes a deleted operator from its groups, vault authorizations and report recipients', async () => {
    const api = await emulator();
    const guid = await newOperator(api);
    await api.post(`/OperatorGroup/${SEEDED.administratorsGroup}/Member/${guid}`);
    await api.post(`/VaultSection/${SEEDED.defaultVaultSection}/Authorization`, { ContextId: SEEDED.defaultVaultSection, AuthorizationType: 'ViewVaultSection', OperatorGuid: guid });
    await api.delete(`/Operator/${guid}`);
    const admins = await api.get(`/OperatorGroup/${SEEDED.administratorsGroup}/Member`);
    expect(admins.list.map((o) => o['OperatorGuid'])).toEqual([SEEDED.admin.guid]);
    const auths = await api.get(`/VaultSection/${SEEDED.defaultVaultSection}/Authorization`);
    expect(auths.list.some((a) => a['OperatorGuid'] === guid)).toBe(false);
  });
});

describe('duty schedules', () => {
  it.each([
    [{ ScheduleMode: 'Daily', StartTime: '22:00', EndTime: '06:00' }],
    [{ ScheduleMode: 'Weekly', StartTime: '00:00', EndTime: '23:59', WeekDay: 'Sunday' }],
    [{ ScheduleMode: 'Monthly', StartTime: '08:00', EndTime: '12:00', MonthDay: 15 }],
    [{ ScheduleMode: 'OneTime', StartDateTime: '2026-12-24T00:00:00', EndDateTime: '2026-12-27T00:00:00' }],
  ])('accepts a valid %j schedule and returns its new Id', async (schedule) => {
    const api = await emulator();
    const res = await api.post(`/Operator/${SEEDED.viewer.guid}/DutySchedule`, schedule);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...schedule, Id: expect.any(Number) });
    expect((await api.get(`/Operator/${SEEDED.viewer.guid}/DutySchedule`)).list).toHaveLength(1);
  });

  it.each([
    [{ ScheduleMode: 'Daily', StartTime: '22:00' }, /EndTime is required/],
    [{ ScheduleMode: 'Daily', StartTime: '25:00', EndTime: '06:00' }, /StartTime "25:00" is not valid/],
    [{ ScheduleMode: 'Weekly', StartTime: '08:00', EndTime: '09:00' }, /WeekDay is required/],
    [{ ScheduleMode: 'Monthly', StartTime: '08:00', EndTime: '09:00' }, /MonthDay is required/],
    [{ ScheduleMode: 'Monthly', StartTime: '08:00', EndTime: '09:00', MonthDay: 32 }, /MonthDay must be between 1 and 31/],
    [{ ScheduleMode: 'OneTime', StartTime: '08:00', EndTime: '09:00' }, /StartDateTime is required/],
    [{ ScheduleMode: 'OneTime', StartDateTime: '2026-12-27T00:00:00', EndDateTime: '2026-12-24T00:00:00' }, /before EndDateTime/],
    [{ ScheduleMode: 'Daily', StartTime: '08:00', EndTime: '09:00', WeekDay: 'Monday' }, /WeekDay does not apply to a Daily schedule/],
    [{ ScheduleMode: 'Hourly' }, /ScheduleMode "Hourly" is not one of/],
  ])('rejects %j with 400', async (schedule, message) => {
    const api = await emulator();
    const res = await api.post(`/Operator/${SEEDED.viewer.guid}/DutySchedule`, schedule);
    expect(res.status).toBe(400);
    expect([res.error].flat().join('\n')).toMatch(message);
  });

  it('updates and deletes a schedule, and answers 404 for an unknown one', async () => {
    const api = await emulator();
    const base = `/Operator/${SEEDED.viewer.guid}/DutySchedule`;
    const id = Number((await api.post(base, { ScheduleMode: 'Daily', StartTime: '22:00', EndTime: '06:00' })).body['Id']);
    const put = await api.put(`${base}/${id}`, { ScheduleMode: 'Weekly', StartTime: '10:00', EndTime: '11:00', WeekDay: 'Friday' });
    expect(put.status).toBe(200);
    expect((await api.get(base)).list).toEqual([{ Id: id, ScheduleMode: 'Weekly', StartTime: '10:00', EndTime: '11:00', WeekDay: 'Friday' }]);
    expect((await api.delete(`${base}/${id}`)).status).toBe(200);
    expect((await api.delete(`${base}/${id}`)).status).toBe(404);
  });
});

describe('operator groups', () => {
  it('lists the system groups; Everyone holds every operator', async () => {
    const api = await emulator();
    const groups = await api.get('/OperatorGroup');
    expect(groups.list.map((g) => [g['Description'], g['IsEveryone'], g['IsAdministratorsGroup']])).toEqual([
      ['Everyone', true, false],
      ['Administrators', false, true],
    ]);
    const guid = await newOperator(api);
    const everyone = await api.get(`/OperatorGroup/${SEEDED.everyoneGroup}/Member`);
    expect(everyone.list.map((o) => o['OperatorGuid'])).toEqual([SEEDED.admin.guid, SEEDED.viewer.guid, guid]);
  });

  it('keeps Everyone read-only in effect', async () => {
    const api = await emulator();
    expect((await api.post(`/OperatorGroup/${SEEDED.everyoneGroup}/Member/${SEEDED.viewer.guid}`)).status).toBe(400);
    expect((await api.delete(`/OperatorGroup/${SEEDED.everyoneGroup}/Member/${SEEDED.viewer.guid}`)).status).toBe(400);
    expect((await api.delete(`/OperatorGroup/${SEEDED.everyoneGroup}`)).status).toBe(400);
  });

  it('renames a system group and keeps it one; the strict profile refuses the rename', async () => {
    const api = await emulator();
    const renamed = await api.put(`/OperatorGroup/${SEEDED.administratorsGroup}`, { Description: 'Admins' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ Description: 'Admins', IsAdministratorsGroup: true });
    expect((await api.get(`/Operator/${SEEDED.admin.guid}`)).body['IsAccountAdministrator']).toBe(true);
    const strict = await emulator({ profile: 'strict' });
    expect((await strict.put(`/OperatorGroup/${SEEDED.everyoneGroup}`, { Description: 'All' })).status).toBe(400);
    expect((await strict.put(`/OperatorGroup/${SEEDED.administratorsGroup}`, { Description: 'Admins' })).status).toBe(400);
  });

  it('lets Administrators members change, and membership grants administrator rights', async () => {
    const api = await emulator();
    const add = await api.post(`/OperatorGroup/${SEEDED.administratorsGroup}/Member/${SEEDED.viewer.guid}`);
    expect(add.status).toBe(200);
    expect((await api.get(`/Operator/${SEEDED.viewer.guid}`)).body['IsAccountAdministrator']).toBe(true);
    expect((await api.post('/MonitorGroup', { Description: 'by viewer' }, VIEWER)).status).toBe(201);
    expect((await api.delete(`/OperatorGroup/${SEEDED.administratorsGroup}/Member/${SEEDED.viewer.guid}`)).status).toBe(200);
    expect((await api.post('/MonitorGroup', { Description: 'again' }, VIEWER)).status).toBe(403);
  });

  it('refuses to remove the last administrator', async () => {
    const api = await emulator();
    expect((await api.delete(`/OperatorGroup/${SEEDED.administratorsGroup}/Member/${SEEDED.admin.guid}`)).status).toBe(400);
  });

  it('creates, renames and deletes a group', async () => {
    const api = await emulator();
    const created = await api.post('/OperatorGroup', { Description: 'On call' });
    expect(created.body).toMatchObject({ Description: 'On call', IsEveryone: false, IsAdministratorsGroup: false });
    const guid = String(created.body['OperatorGroupGuid']);
    expect((await api.put(`/OperatorGroup/${guid}`, { Description: 'On-call' })).body['Description']).toBe('On-call');
    expect((await api.delete(`/OperatorGroup/${guid}`)).status).toBe(200);
    expect((await api.get(`/OperatorGroup/${guid}`)).status).toBe(404);
    expect((await api.post('/OperatorGroup', {})).status).toBe(400);
  });

  it('applies a group duty schedule to every member', async () => {
    const api = await emulator();
    const g = String((await api.post('/OperatorGroup', { Description: 'Night' })).body['OperatorGroupGuid']);
    const other = await newOperator(api);
    await api.post(`/OperatorGroup/${g}/Member/${SEEDED.viewer.guid}`);
    await api.post(`/OperatorGroup/${g}/Member/${other}`);
    const res = await api.post(`/OperatorGroup/${g}/DutySchedule`, { ScheduleMode: 'Daily', StartTime: '20:00', EndTime: '08:00' });
    expect(res.status).toBe(200);
    const id = Number(res.body['Id']);
    for (const op of [SEEDED.viewer.guid, other]) {
      const list = await api.get(`/Operator/${op}/DutySchedule`);
      expect(list.list).toEqual([{ Id: id, ScheduleMode: 'Daily', StartTime: '20:00', EndTime: '08:00', OperatorGroupGuid: g }]);
    }
    expect((await api.get(`/Operator/${SEEDED.admin.guid}/DutySchedule`)).list).toEqual([]);
    // The group's schedule is changed through the group, not through one operator.
    expect((await api.delete(`/Operator/${other}/DutySchedule/${id}`)).status).toBe(400);
    await api.put(`/OperatorGroup/${g}/DutySchedule/${id}`, { ScheduleMode: 'Daily', StartTime: '21:00', EndTime: '07:00' });
    expect((await api.get(`/Operator/${other}/DutySchedule`)).list[0]).toMatchObject({ StartTime: '21:00' });
    expect((await api.delete(`/OperatorGroup/${g}/DutySchedule/${id}`)).status).toBe(200);
    expect((await api.get(`/Operator/${other}/DutySchedule`)).list).toEqual([]);
    expect((await api.post(`/OperatorGroup/${g}/DutySchedule`, { ScheduleMode: 'Weekly', StartTime: '20:00', EndTime: '08:00' })).status).toBe(400);
  });

  it('copies a group duty schedule onto each member with AddDutyScheduleForAllMembers (the published route)', async () => {
    const api = await emulator({ profile: 'published' });
    const g = String((await api.post('/OperatorGroup', { Description: 'Night' })).body['OperatorGroupGuid']);
    const other = await newOperator(api);
    await api.post(`/OperatorGroup/${g}/Member/${SEEDED.viewer.guid}`);
    await api.post(`/OperatorGroup/${g}/Member/${other}`);
    const night = { ScheduleMode: 'Daily', StartTime: '20:00', EndTime: '08:00' };
    const res = await api.post(`/OperatorGroup/${g}/DutySchedule/AddDutyScheduleForAllMembers`, night);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const copies = await Promise.all([SEEDED.viewer.guid, other].map(async (op) => (await api.get(`/Operator/${op}/DutySchedule`)).list));
    // One copy each, with an id of its own and nothing naming the group: a plain operator schedule.
    expect(copies.map((list) => list.map(({ Id: _id, ...content }) => content))).toEqual([[night], [night]]);
    expect(new Set(copies.map((list) => list[0]?.['Id'])).size).toBe(2);
    // A copy is changed and removed like any schedule of the operator; the other member keeps its own.
    expect((await api.delete(`/Operator/${other}/DutySchedule/${String(copies[1]?.[0]?.['Id'])}`)).status).toBe(204);
    expect((await api.get(`/Operator/${SEEDED.viewer.guid}/DutySchedule`)).list).toHaveLength(1);
    // The spec's group routes are not the service's.
    expect((await api.post(`/OperatorGroup/${g}/DutySchedule`, night)).status).toBe(405);
    expect((await api.delete(`/OperatorGroup/${g}/DutySchedule/1`)).status).toBe(405);
  });

  it('answers an operator schedule POST with 201 and no body on the published profile', async () => {
    const api = await emulator({ profile: 'published' });
    const res = await api.post(`/Operator/${SEEDED.viewer.guid}/DutySchedule`, { ScheduleMode: 'Weekly', WeekDay: 'Friday', StartTime: '18:00', EndTime: '23:00' });
    expect(res.status).toBe(201);
    expect(res.text).toBe('');
    expect((await api.get(`/Operator/${SEEDED.viewer.guid}/DutySchedule`)).list).toEqual([{ Id: expect.any(Number), ScheduleMode: 'Weekly', WeekDay: 'Friday', StartTime: '18:00', EndTime: '23:00' }]);
  });

  it('manages authorizations in the legacy form (ids, body)', async () => {
    const api = await emulator();
    const base = `/OperatorGroup/${SEEDED.administratorsGroup}/Authorization`;
    const created = await api.post(base, { AuthorizationType: 'FinancialOperator' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ AuthorizationType: 'FinancialOperator', OperatorGroupGuid: SEEDED.administratorsGroup });
    const list = await api.get(base);
    expect(list.list).toEqual([{ AuthorizationId: created.body['AuthorizationId'], AuthorizationType: 'FinancialOperator', OperatorGroupGuid: SEEDED.administratorsGroup }]);
    expect((await api.delete(`${base}/${String(created.body['AuthorizationId'])}`)).status).toBe(200);
    expect((await api.get(base)).list).toEqual([]);
    expect((await api.post(base, { AuthorizationType: 'not valid!' })).status).toBe(400);
  });

  it('manages authorizations in the announced form (type in the path, no body, names only)', async () => {
    const api = await emulator({ operatorGroupAuthorizationForm: 'announced' });
    const base = `/OperatorGroup/${SEEDED.administratorsGroup}/Authorization`;
    expect((await api.post(`${base}/AllowInfra`)).status).toBe(200);
    expect((await api.post(`${base}/FinancialOperator`)).status).toBe(200);
    expect((await api.get(base)).json).toEqual(['AllowInfra', 'FinancialOperator']);
    expect((await api.delete(`${base}/AllowInfra`)).status).toBe(200);
    expect((await api.get(base)).json).toEqual(['FinancialOperator']);
    expect((await api.delete(`${base}/AllowInfra`)).status).toBe(404);
  });
});

describe('authorizations the service never lets a client assign', () => {
  it.each([['legacy'], ['announced']] as const)('refuses Administrator and AccountAdministrator on an operator group (%s form) with 400 and says why', async (form) => {
    const api = await emulator({ operatorGroupAuthorizationForm: form });
    const base = `/OperatorGroup/${SEEDED.administratorsGroup}/Authorization`;
    for (const type of ['Administrator', 'AccountAdministrator']) {
      const res = form === 'legacy' ? await api.post(base, { AuthorizationType: type }) : await api.post(`${base}/${type}`);
      expect(res.status).toBe(400);
      expect(res.error).toBe(`AuthorizationType ${type} cannot be assigned: it comes with membership of the Administrators group; add the operator to that group instead.`);
    }
    expect((await api.get(base)).json).toEqual([]);
  });

  it('refuses them on an operator too, in the published form, where a new operator has AccountAccess by itself', async () => {
    const api = await emulator({ profile: 'published' });
    const guid = await newOperator(api);
    const base = `/Operator/${guid}/Authorization`;
    expect((await api.get(base)).json).toEqual(['AccountAccess']);
    for (const type of ['AccountAdministrator', 'Administrator']) {
      const res = await api.post(`${base}/${type}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ Messages: [{ Message: expect.stringContaining(`AuthorizationType ${type} cannot be assigned`) }] });
    }
    const added = await api.post(`${base}/FinancialOperator`);
    expect([added.status, added.text]).toEqual([201, '']);
    expect((await api.get(base)).json).toEqual(['AccountAccess', 'FinancialOperator']);
    expect((await api.delete(`${base}/FinancialOperator`)).status).toBe(204);
    // The account administrator's own right is listed, never assignable or removable.
    expect((await api.get(`/Operator/${SEEDED.admin.guid}/Authorization`)).json).toEqual(['AccountAdministrator', 'AccountAccess']);
    expect((await api.delete(`/Operator/${SEEDED.admin.guid}/Authorization/AccountAdministrator`)).status).toBe(400);
  });
});

describe("an operator's own authorizations in every profile", () => {
  // Published definition section 7: POST answers 201 with no body (2022), 204 (2021); DELETE 204. The other profiles
  // take the other plausible answers, so the client is tested against each.
  const ANSWERS = {
    default: { post: [200, '["AccountAccess","AllowInfra"]'], remove: 200 },
    strict: { post: [200, '["AccountAccess","AllowInfra"]'], remove: 200 },
    published: { post: [201, ''], remove: 204 },
    lean: { post: [204, ''], remove: 200 },
    'rate-limited': { post: [200, '["AccountAccess","AllowInfra"]'], remove: 200 },
  } as const;

  it.each(Object.entries(ANSWERS))('the %s profile adds and removes by type in the path, and lists type names', async (profile, answers) => {
    const api = await emulator({ profile: profile as keyof typeof ANSWERS, rateLimit: { share: 0 } });
    const guid = await newOperator(api);
    const base = `/Operator/${guid}/Authorization`;
    const added = await api.post(`${base}/AllowInfra`);
    expect([added.status, added.text]).toEqual(answers.post);
    expect((await api.get(base)).json).toEqual(['AccountAccess', 'AllowInfra']);
    expect((await api.delete(`${base}/AllowInfra`)).status).toBe(answers.remove);
    expect((await api.get(base)).json).toEqual(['AccountAccess']);
  });

  it.each([['BasicOperator'], ['SuperUser'], ['Administrator']])('refuses %s, which the published definition does not list as an operator type it can assign, and stores nothing', async (type) => {
    const api = await emulator({ profile: 'published' });
    const guid = await newOperator(api);
    const res = await api.post(`/Operator/${guid}/Authorization/${type}`);
    expect(res.status).toBe(400);
    expect((await api.get(`/Operator/${guid}/Authorization`)).json).toEqual(['AccountAccess']);
  });

  it('takes AccountAccess away when asked, and a second remove is 404', async () => {
    const api = await emulator();
    const guid = await newOperator(api);
    const base = `/Operator/${guid}/Authorization`;
    expect((await api.delete(`${base}/AccountAccess`)).status).toBe(200);
    expect((await api.get(base)).json).toEqual([]);
    expect((await api.delete(`${base}/AccountAccess`)).status).toBe(404);
  });
});
