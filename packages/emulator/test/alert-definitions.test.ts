import { describe, expect, it } from 'vitest';
import { SEEDED } from '../src/index.js';
import { emulator, type Api } from './helpers.js';

const DEF = SEEDED.alertDefinitions.onCall;
const { email, phone, chat, webhook } = SEEDED.integrations;
const LEVEL = (def: string, n: number | string) => `/AlertDefinition/${def}/EscalationLevel/${n}`;

async function created(api: Api, name: string): Promise<string> {
  const res = await api.post('/AlertDefinition', { AlertName: name, IsActive: true });
  expect(res.status).toBe(201);
  return String(res.body['AlertDefinitionGuid']);
}

describe('alert definitions', () => {
  it('a fresh account has one default definition with 3 levels and the predefined integrations', async () => {
    const api = await emulator({ seed: 'empty' });
    expect((await api.get('/AlertDefinition')).json).toEqual([{ AlertDefinitionGuid: SEEDED.alertDefinitions.default, AlertName: 'Default alerting', IsActive: true }]);
    const levels = (await api.get(`/AlertDefinition/${SEEDED.alertDefinitions.default}/EscalationLevel`)).list;
    expect(levels.map((l) => l['Id'])).toEqual([1, 2, 3]);
    expect(Object.keys(levels[0] ?? {}).sort()).toEqual(['EscalationMode', 'Id', 'IncludeTraceRoute', 'IsActive', 'Message', 'NumberOfReminders', 'ReminderDelay', 'ThresholdErrorCount', 'ThresholdMinutes']);
    expect((await api.get('/Integration')).list.map((i) => `${String(i['Name'])}:${String(i['Type'])}`)).toEqual(['Email:Email', 'SMS:Sms', 'Phone:Phone']);
  });

  it('creates (201 with the object), renames, reads and deletes a definition', async () => {
    const api = await emulator({ seed: 'demo' });
    const guid = await created(api, 'Shop on-call');
    expect((await api.get(`/AlertDefinition/${guid}`)).body).toEqual({ AlertDefinitionGuid: guid, AlertName: 'Shop on-call', IsActive: true });
    expect((await api.patch(`/AlertDefinition/${guid}`, { AlertName: 'Shop paging' })).status).toBe(200);
    expect((await api.get(`/AlertDefinition/${guid}`)).body['AlertName']).toBe('Shop paging');
    expect((await api.post('/AlertDefinition', { IsActive: true })).status).toBe(400);
    expect((await api.delete(`/AlertDefinition/${guid}`)).status).toBe(204);
    expect((await api.get(`/AlertDefinition/${guid}`)).status).toBe(404);
  });

  it('gives a new definition as many levels as the account has: 4 by the account setting', async () => {
    const api = await emulator({ seed: 'demo' });
    await api.control.load({ ...api.control.dump(), escalationLevelCount: 4 });
    const guid = await created(api, 'Four levels');
    expect((await api.get(`/AlertDefinition/${guid}/EscalationLevel`)).list.map((l) => l['Id'])).toEqual([1, 2, 3, 4]);
    expect((await api.get(LEVEL(guid, 5))).status).toBe(404);
  });

  it('activates with PUT (complete body) and deactivates with PATCH; a body GUID must equal the path', async () => {
    const api = await emulator({ seed: 'demo' });
    expect((await api.put(`/AlertDefinition/${DEF}`, { AlertDefinitionGuid: DEF, IsActive: true })).body).toEqual({ AlertDefinitionGuid: DEF, AlertName: 'Escalate to on-call', IsActive: true });
    expect((await api.put(`/AlertDefinition/${DEF}`, { IsActive: true })).status).toBe(400);
    expect((await api.patch(`/AlertDefinition/${DEF}`, { IsActive: false })).body['IsActive']).toBe(false);
    const wrong = await api.patch(`/AlertDefinition/${DEF}`, { AlertDefinitionGuid: SEEDED.alertDefinitions.default, IsActive: true });
    expect(wrong.status).toBe(400);
    expect(wrong.error).toMatch(/must equal the one in the path/);
    expect((await api.patch('/AlertDefinition/00000000-0000-4000-8000-000000000000', { IsActive: true })).status).toBe(404);
  });

  it('updates a level only with its complete body, and checks EscalationMode', async () => {
    const api = await emulator({ seed: 'demo' });
    const level = { Id: 2, EscalationMode: 'AlertOnErrorDuration', ThresholdErrorCount: 1, ThresholdMinutes: 30, IsActive: true, Message: 'Shop down', NumberOfReminders: 2, ReminderDelay: 15, IncludeTraceRoute: true };
    expect((await api.patch(LEVEL(DEF, 2), level)).status).toBe(204);
    expect((await api.get(LEVEL(DEF, 2))).body).toEqual(level);
    const partial = await api.patch(LEVEL(DEF, 2), { ThresholdMinutes: 45 });
    expect(partial.status).toBe(400);
    expect(partial.error).toEqual(expect.arrayContaining(['EscalationMode is required.']));
    expect((await api.put(LEVEL(DEF, 2), { ...level, EscalationMode: 'AlertOnErrors' })).status).toBe(400);
    expect((await api.put(LEVEL(DEF, 2), { ...level, Id: 3 })).status).toBe(400);
  });

  it('adds and removes the monitors and groups a definition covers one at a time, refusing unknown GUIDs', async () => {
    const api = await emulator({ seed: 'demo' });
    const [monitor] = (await api.get('/Monitor')).data;
    const monitorGuid = String(monitor?.['MonitorGuid']);
    const members = `/AlertDefinition/${DEF}/Member`;
    const add = await api.post(`${members}/Monitor/${monitorGuid}`);
    expect(add.status).toBe(201);
    expect(add.body).toEqual({ AlertDefinition: DEF, Monitor: monitorGuid });
    expect((await api.post(`${members}/MonitorGroup/${SEEDED.allMonitorsGroup}`)).status).toBe(404);
    expect((await api.post(`${members}/Monitor/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await api.get(members)).json).toEqual([{ MonitorGuid: monitorGuid }]);
    expect((await api.delete(`${members}/Monitor/${monitorGuid}`)).status).toBe(204);
    expect((await api.get(members)).json).toEqual([]);
  });

  it('adds level members (answered with Escalationlevel, lower-case l) and refuses unknown operators', async () => {
    const api = await emulator({ seed: 'demo' });
    const members = `${LEVEL(DEF, 1)}/Member`;
    const add = await api.post(`${members}/Operator/${SEEDED.admin.guid}`);
    expect(add.body).toEqual({ AlertDefinition: DEF, Escalationlevel: 1, Operator: SEEDED.admin.guid });
    expect((await api.post(`${members}/OperatorGroup/${SEEDED.administratorsGroup}`)).status).toBe(201);
    expect((await api.post(`${members}/Operator/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await api.get(members)).json).toEqual([{ OperatorGuid: SEEDED.admin.guid }, { OperatorGroupGuid: SEEDED.administratorsGroup }]);
    expect((await api.delete(`${members}/OperatorGroup/${SEEDED.administratorsGroup}`)).status).toBe(204);
    expect((await api.get(members)).json).toEqual([{ OperatorGuid: SEEDED.admin.guid }]);
  });

  it('treats a repeated add or a remove of a non-member as done, except in the strict profile', async () => {
    const lenient = await emulator({ seed: 'demo' });
    const strict = await emulator({ seed: 'demo', profile: 'strict' });
    for (const api of [lenient, strict]) {
      const path = `${LEVEL(DEF, 1)}/Member/Operator/${SEEDED.admin.guid}`;
      expect((await api.post(path)).status).toBe(201);
      expect((await api.post(path)).status).toBe(api === strict ? 400 : 201);
      expect((await api.delete(path)).status).toBe(204);
      expect((await api.delete(path)).status).toBe(api === strict ? 404 : 204);
    }
  });

  it('attaches integrations with their settings, never returns the write-only ones, and reads e-mails back as one string', async () => {
    const api = await emulator({ seed: 'demo' });
    const links = `${LEVEL(DEF, 2)}/Integration`;
    const res = await api.post(links, { IntegrationGuid: email, ExtraEmailAddresses: ['a@example.com', 'b@example.com'], ExtraEmailAddressesSpecified: true, IsActive: true, SendOkAlerts: true, SendReminderAlerts: false });
    expect(res.status).toBe(201);
    expect((await api.get(links)).json).toEqual([{ IntegrationGuid: email, ExtraEmailAddresses: 'a@example.com,b@example.com' }]);
    expect((await api.patch(`${links}/${email}`, { ExtraEmailAddresses: ['c@example.com'], ExtraEmailAddressesSpecified: true })).status).toBe(204);
    expect((await api.get(`${links}/${email}`)).body).toEqual({ IntegrationGuid: email, ExtraEmailAddresses: 'c@example.com' });
    expect((await api.delete(`${links}/${email}`)).status).toBe(204);
    expect((await api.get(links)).json).toEqual([]);
  });

  it('applies the type rules: no OK alerts by phone or webhook, e-mails for Email only, variables where the integration takes them', async () => {
    const api = await emulator({ seed: 'demo' });
    const links = `${LEVEL(DEF, 1)}/Integration`;
    const refused = async (body: Record<string, unknown>): Promise<unknown> => {
      const res = await api.post(links, { IsActive: true, SendOkAlerts: false, SendReminderAlerts: false, ...body });
      expect(res.status).toBe(400);
      return res.error;
    };
    expect(await refused({ IntegrationGuid: phone, SendOkAlerts: true })).toMatch(/SendOkAlerts must be false for a Phone/);
    expect(await refused({ IntegrationGuid: webhook, SendReminderAlerts: true })).toMatch(/SendReminderAlerts must be false/);
    expect(await refused({ IntegrationGuid: chat, ExtraEmailAddresses: ['a@example.com'] })).toMatch(/refused by a Slack integration/);
    expect(await refused({ IntegrationGuid: email, VariableValues: { a: 'b' } })).toMatch(/does not allow variables/);
    expect(await refused({ IntegrationGuid: '00000000-0000-4000-8000-000000000000' })).toMatch(/does not exist/);
    expect((await api.post(links, { IntegrationGuid: chat, VariableValues: { channel: '#shop' } })).status).toBe(201);
    expect((await api.get(links)).json).toEqual([{ IntegrationGuid: chat, VariableValues: { channel: '#shop' } }]);
  });

  it('in the published profile: 204 for updates, write-only settings required on POST, e-mails only with their Specified flag', async () => {
    const api = await emulator({ profile: 'published' });
    const links = `${LEVEL(SEEDED.alertDefinitions.default, 1)}/Integration`;
    expect((await api.post(links, { IntegrationGuid: email })).status).toBe(400);
    const body = { IntegrationGuid: email, IsActive: true, SendOkAlerts: true, SendReminderAlerts: true, ExtraEmailAddresses: ['a@example.com'] };
    expect((await api.post(links, body)).status).toBe(201);
    expect((await api.get(links)).json).toEqual([{ IntegrationGuid: email }]);
    expect((await api.patch(`/AlertDefinition/${SEEDED.alertDefinitions.default}`, { IsActive: false })).status).toBe(204);
  });

  it('grants and removes EditAlertDefinition on /Authorizations (plural)', async () => {
    const api = await emulator({ seed: 'demo' });
    const route = `/AlertDefinition/${DEF}/Authorizations`;
    const granted = await api.post(route, { AuthorizationType: 'EditAlertDefinition', OperatorGroupGuid: SEEDED.administratorsGroup });
    expect(granted.status).toBe(200);
    const [entry] = granted.list;
    expect(entry).toMatchObject({ AuthorizationType: 'EditAlertDefinition', OperatorGroupGuid: SEEDED.administratorsGroup });
    expect((await api.post(route, { AuthorizationType: 'ViewAlertDefinition', OperatorGuid: SEEDED.admin.guid })).status).toBe(400);
    expect((await api.delete(`${route}/${String(entry?.['AuthorizationId'])}`)).status).toBe(204);
    expect((await api.get(route)).json).toEqual([]);
  });
});
