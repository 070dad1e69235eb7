import { describe, expect, it } from 'vitest';
import { InvalidQueryError, NotFoundError, ValidationError } from '@monsync/client';
import { SEEDED } from '@monsync/emulator';
import { useEmulator } from './harness.js';

const api = useEmulator('demo');
const { onCall, nightShift } = SEEDED.alertDefinitions;
const { chat, webhook, email } = SEEDED.integrations;

describe('alert definitions against the emulator', () => {
  it('activates with PUT (complete body) and deactivates with PATCH, idempotently', async () => {
    await api.client.alertDefinitions.replace(onCall, { IsActive: true });
    expect((await api.client.alertDefinitions.get(onCall)).IsActive).toBe(true);
    await api.client.alertDefinitions.setActive(onCall, false);
    await api.client.alertDefinitions.setActive(onCall, false);
    expect((await api.client.alertDefinitions.get(onCall)).IsActive).toBe(false);
  });

  it('refuses a mismatched body GUID before the emulator would', async () => {
    await expect(api.client.alertDefinitions.patch(onCall, { AlertDefinitionGuid: nightShift, IsActive: true })).rejects.toBeInstanceOf(InvalidQueryError);
  });

  it('gets a NotFoundError for an unknown definition', async () => {
    await expect(api.client.alertDefinitions.setActive('00000000-0000-4000-8000-000000000000', true)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('creates a definition, updates a level whole, adds members and deletes it, in every profile', async () => {
    const c = api.client.alertDefinitions;
    const created = await c.create({ AlertName: 'Contract on-call', IsActive: true });
    const guid = created.AlertDefinitionGuid;
    const levels = await c.escalationLevels.list(guid).toArray();
    expect(levels.map((l) => l.Id)).toEqual([1, 2, 3]);
    const level = { ...levels[1], Id: 2, EscalationMode: 'AlertOnErrorDuration' as const, ThresholdMinutes: 30, IsActive: true };
    await c.escalationLevels.patch(guid, 2, level);
    expect(await c.escalationLevels.get(guid, 2)).toMatchObject({ EscalationMode: 'AlertOnErrorDuration', ThresholdMinutes: 30 });
    const groups = await api.client.monitorGroups.list().toArray();
    const shop = groups.find((g) => g.Description === 'Shop')?.MonitorGroupGuid ?? '';
    await c.members.addMonitorGroup(guid, shop);
    expect(await c.members.list(guid).toArray()).toEqual([{ MonitorGroupGuid: shop }]);
    await c.escalationLevels.members.addOperator(guid, 2, SEEDED.admin.guid);
    expect(await c.escalationLevels.members.list(guid, 2).toArray()).toEqual([{ OperatorGuid: SEEDED.admin.guid }]);
    await c.delete(guid);
    await expect(c.get(guid)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('attaches integrations with settings and reads e-mail addresses back as a list', async () => {
    const links = api.client.alertDefinitions.integrations;
    await links.link(onCall, 2, { IntegrationGuid: webhook, VariableValues: { severity: 'high', team: 'shop' }, IsActive: true, SendOkAlerts: false, SendReminderAlerts: false });
    await links.link(onCall, 2, { IntegrationGuid: email, ExtraEmailAddresses: ['a@example.com', 'b@example.com'], IsActive: true, SendOkAlerts: true, SendReminderAlerts: true });
    const list = await links.list(onCall, 2).toArray();
    expect(list.find((l) => l.IntegrationGuid === email)?.ExtraEmailAddresses).toEqual(['a@example.com', 'b@example.com']);
    expect(list.find((l) => l.IntegrationGuid === webhook)?.VariableValues).toEqual({ severity: 'high', team: 'shop' });
    const refused = await links.link(onCall, 1, { IntegrationGuid: chat, ExtraEmailAddresses: ['x@example.com'], IsActive: true, SendOkAlerts: false, SendReminderAlerts: false }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ValidationError);
    await links.unlink(onCall, 2, webhook);
    expect((await links.list(onCall, 2).toArray()).map((l) => l.IntegrationGuid)).toEqual([email]);
  });

  it('lists the integrations of the account with their types', async () => {
    const listed = await api.client.integrations.list().toArray();
    expect(listed.map((i) => `${i.Name}:${String(i.Type)}`)).toEqual(['Email:Email', 'SMS:Sms', 'Phone:Phone', 'Ops chat channel:Slack', 'Incident webhook:GenericWebhook']);
  });
});
