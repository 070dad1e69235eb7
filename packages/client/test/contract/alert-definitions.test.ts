import { describe, expect, it } from 'vitest';
import { InvalidQueryError, NotFoundError, ValidationError } from '@monsync/client';
import { SEEDED } from '@monsync/emulator';
import { useEmulator } from './harness.js';

const api = useEmulator('empty');
const { onCall, nightShift } = SEEDED.alertDefinitions;

describe('alert definitions against the emulator', () => {
  it('activates with PUT (complete body) and deactivates with PATCH, idempotently', async () => {
    await api.client.alertDefinitions.replace(onCall, { IsActive: true });
    expect(api.emulator.control.dump().alertDefinitions.find((d) => d.fields['AlertDefinitionGuid'] === onCall)?.fields['IsActive']).toBe(true);
    await api.client.alertDefinitions.setActive(onCall, false);
    await api.client.alertDefinitions.setActive(onCall, false);
    expect(api.emulator.control.dump().alertDefinitions.find((d) => d.fields['AlertDefinitionGuid'] === onCall)?.fields['IsActive']).toBe(false);
  });

  it('refuses a mismatched body GUID before the emulator would', async () => {
    await expect(api.client.alertDefinitions.patch(onCall, { AlertDefinitionGuid: nightShift, IsActive: true })).rejects.toBeInstanceOf(InvalidQueryError);
  });

  it('gets a NotFoundError for an unknown definition', async () => {
    await expect(api.client.alertDefinitions.setActive('00000000-0000-4000-8000-000000000000', true)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('links integrations to an escalation level, with VariableValues where allowed', async () => {
    const linked = await api.client.alertDefinitions.integrations.link(onCall, 2, { IntegrationGuid: SEEDED.integrations.webhook, VariableValues: { severity: 'high', team: 'shop' } });
    expect(linked).toMatchObject({ IntegrationGuid: SEEDED.integrations.webhook, VariableValues: { severity: 'high', team: 'shop' } });
    await api.client.alertDefinitions.integrations.link(onCall, 2, { IntegrationGuid: SEEDED.integrations.chat });
    const list = await api.client.alertDefinitions.integrations.list(onCall, 2).toArray();
    expect(list.map((i) => i.IntegrationGuid).sort()).toEqual([SEEDED.integrations.chat, SEEDED.integrations.webhook].sort());
    const refused = await api.client.alertDefinitions.integrations
      .link(onCall, 1, { IntegrationGuid: SEEDED.integrations.chat, VariableValues: { severity: 'low' } })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ValidationError);
  });
});
