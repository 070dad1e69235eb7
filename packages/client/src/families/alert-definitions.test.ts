import { describe, expect, it } from 'vitest';
import { mockApi, type MockApi } from '../test-utils/mock-api.js';

const A = '0b1e0000-0000-0000-0000-00000000000a';
const M = '0b1e0000-0000-0000-0000-00000000000b';
const I = '0b1e0000-0000-0000-0000-00000000000c';

/**
 * The published definition's fields and enumerations for alert definitions, written out by hand: the field names each request
 * body of these routes may hold, and the enumeration values it may send. Nothing else may go out.
 */
const FACT_FIELDS: Record<string, readonly string[]> = {
  AlertDefinition: ['AlertDefinitionGuid', 'AlertName', 'IsActive'],
  EscalationLevel: ['Id', 'EscalationMode', 'ThresholdErrorCount', 'ThresholdMinutes', 'IsActive', 'Message', 'NumberOfReminders', 'ReminderDelay', 'IncludeTraceRoute'],
  EscalationLevelIntegration: [
    'IntegrationGuid',
    'ExtraEmailAddresses',
    'ExtraEmailAddressesSpecified',
    'StatusHubServiceList',
    'StatusHubServiceListSpecified',
    'IsActive',
    'SendOkAlerts',
    'SendReminderAlerts',
    'VariableValues',
  ],
  AlertDefinitionAuthorization: ['AuthorizationType', 'OperatorGuid', 'OperatorGroupGuid'],
};
const FACT_ENUMS: Record<string, readonly string[]> = { EscalationMode: ['AlertOnErrorCount', 'AlertOnErrorDuration'], AuthorizationType: ['EditAlertDefinition'] };

/** Which object of the table a route's body is. */
function objectOf(method: string, url: string): string | undefined {
  const path = url.replace(/^\/v4/, '').split('?')[0] ?? '';
  if (method === 'DELETE' || /\/Member\//.test(path)) return 'none';
  if (/\/Integration(\/[^/]+)?$/.test(path)) return 'EscalationLevelIntegration';
  if (/\/EscalationLevel\/[^/]+$/.test(path)) return 'EscalationLevel';
  if (/\/Authorizations$/.test(path)) return 'AlertDefinitionAuthorization';
  if (/^\/AlertDefinition(\/[^/]+)?$/.test(path)) return 'AlertDefinition';
  return undefined;
}

function everyWrite(api: MockApi): Promise<unknown>[] {
  const c = api.client.alertDefinitions;
  const level = { Id: 2, EscalationMode: 'AlertOnErrorDuration' as const, ThresholdErrorCount: 1, ThresholdMinutes: 30, IsActive: true, Message: 'm', NumberOfReminders: 1, ReminderDelay: 10, IncludeTraceRoute: false };
  const link = { IntegrationGuid: I, ExtraEmailAddresses: ['a@example.com'], IsActive: true, SendOkAlerts: false, SendReminderAlerts: true, VariableValues: { channel: '#ops' } };
  return [
    c.create({ AlertName: 'Shop', IsActive: true }),
    c.replace(A, { AlertName: 'Shop', IsActive: false }),
    c.patch(A, { AlertName: 'Shop' }),
    c.setActive(A, true),
    c.delete(A),
    c.members.addMonitor(A, M),
    c.members.removeMonitor(A, M),
    c.members.addMonitorGroup(A, M),
    c.members.removeMonitorGroup(A, M),
    c.escalationLevels.replace(A, 2, level),
    c.escalationLevels.patch(A, 2, level),
    c.escalationLevels.members.addOperator(A, 2, M),
    c.escalationLevels.members.removeOperator(A, 2, M),
    c.escalationLevels.members.addOperatorGroup(A, 2, M),
    c.escalationLevels.members.removeOperatorGroup(A, 2, M),
    c.integrations.link(A, 2, link),
    c.integrations.replace(A, 2, I, link),
    c.integrations.patch(A, 2, I, { VariableValues: { channel: '#shop' } }),
    c.integrations.unlink(A, 2, I),
    c.authorizations.create(A, { AuthorizationType: 'EditAlertDefinition', OperatorGroupGuid: M }),
    c.authorizations.delete(A, I),
  ];
}

describe('alertDefinitions', () => {
  it('sends only the field names and enumeration values the fact table lists, on every write route', async () => {
    const api = mockApi();
    api.reply('POST', '/AlertDefinition', 201, { AlertDefinitionGuid: A, AlertName: 'Shop', IsActive: true });
    api.agent.get('http://api.test').intercept({ path: () => true, method: () => true }).reply(204).persist();
    await Promise.all(everyWrite(api));
    const writes = api.calls().filter((call) => call.method !== 'GET');
    expect(writes).toHaveLength(21);
    for (const call of writes) {
      const object = objectOf(call.method, call.url);
      expect(object, `${call.method} ${call.url}`).toBeDefined();
      if (object === 'none') {
        expect(call.body, `${call.method} ${call.url} sends no body`).toBeUndefined();
        continue;
      }
      const body = call.body as Record<string, unknown>;
      for (const [field, value] of Object.entries(body)) {
        expect(FACT_FIELDS[object ?? ''], `${call.method} ${call.url}: ${field}`).toContain(field);
        const allowed = FACT_ENUMS[field];
        if (allowed !== undefined) expect(allowed, `${call.method} ${call.url}: ${field}`).toContain(value);
      }
    }
  });

  it('flags ExtraEmailAddresses with its Specified companion only when it is sent', async () => {
    const api = mockApi();
    api.reply('POST', `/AlertDefinition/${A}/EscalationLevel/1/Integration`, 201, {}).times(2);
    await api.client.alertDefinitions.integrations.link(A, 1, { IntegrationGuid: I, ExtraEmailAddresses: ['a@example.com'] });
    expect(api.last().body).toEqual({ IntegrationGuid: I, ExtraEmailAddresses: ['a@example.com'], ExtraEmailAddressesSpecified: true });
    await api.client.alertDefinitions.integrations.link(A, 1, { IntegrationGuid: I });
    expect(api.last().body).toEqual({ IntegrationGuid: I });
  });

  it('reads ExtraEmailAddresses as an array whether the service answers an array or one comma-separated string', async () => {
    const api = mockApi();
    api.reply('GET', `/AlertDefinition/${A}/EscalationLevel/1/Integration`, 200, [
      { IntegrationGuid: I, ExtraEmailAddresses: 'a@example.com, b@example.com' },
      { IntegrationGuid: M, ExtraEmailAddresses: ['c@example.com'] },
      { IntegrationGuid: A, ExtraEmailAddresses: '' },
    ]);
    const links = await api.client.alertDefinitions.integrations.list(A, 1).toArray();
    expect(links.map((l) => l.ExtraEmailAddresses)).toEqual([['a@example.com', 'b@example.com'], ['c@example.com'], []]);
    api.reply('GET', '/Integration', 200, [{ IntegrationGuid: I, Name: 'Email', Type: 'Email', ExtraEmailAddresses: 'ops@example.com,dev@example.com' }]);
    expect((await api.client.integrations.list().toArray())[0]?.ExtraEmailAddresses).toEqual(['ops@example.com', 'dev@example.com']);
  });

  it('reads members listed as objects or as bare GUIDs', async () => {
    const api = mockApi();
    api.reply('GET', `/AlertDefinition/${A}/Member`, 200, [{ MonitorGroupGuid: M }, I]);
    expect(await api.client.alertDefinitions.members.list(A).toArray()).toEqual([{ MonitorGroupGuid: M }, { MonitorGuid: I }]);
  });

  it('finds a created definition by listing when the answer does not name it (matching AlertName ignoring case)', async () => {
    const api = mockApi();
    api.reply('POST', '/AlertDefinition', 201);
    api.reply('GET', '/AlertDefinition', 200, [{ AlertDefinitionGuid: A, AlertName: 'shop ON-CALL', IsActive: true }]);
    await expect(api.client.alertDefinitions.create({ AlertName: 'Shop on-call', IsActive: true })).resolves.toMatchObject({ AlertDefinitionGuid: A });
  });

  it('refuses a PATCH whose body GUID differs from the path before sending', async () => {
    const api = mockApi();
    await expect(api.client.alertDefinitions.patch(A, { AlertDefinitionGuid: M, IsActive: true })).rejects.toThrow(/differs from the one in the path/);
    expect(api.calls()).toHaveLength(0);
  });
});
