import { describe, expect, it } from 'vitest';
import { SEEDED } from '../src/index.js';
import { emulator } from './helpers.js';

const DEF = SEEDED.alertDefinitions.onCall;

describe('alert definitions', () => {
  it('activates with PUT and deactivates with PATCH', async () => {
    const api = await emulator();
    const put = await api.put(`/AlertDefinition/${DEF}`, { AlertDefinitionGuid: DEF, IsActive: true });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ AlertDefinitionGuid: DEF, AlertName: 'Escalate to on-call', IsActive: true });
    const patch = await api.patch(`/AlertDefinition/${DEF}`, { IsActive: false });
    expect(patch.body['IsActive']).toBe(false);
    const stored = api.control.dump().alertDefinitions.find((d) => d.fields['AlertDefinitionGuid'] === DEF);
    expect(stored?.fields['IsActive']).toBe(false);
  });

  it('accepts PUT IsActive false when the definition is already inactive', async () => {
    const api = await emulator();
    const res = await api.put(`/AlertDefinition/${DEF}`, { AlertDefinitionGuid: DEF, IsActive: false });
    expect(res.status).toBe(200);
    expect(res.body['IsActive']).toBe(false);
  });

  it('answers 400 when a PATCH body GUID differs from the path', async () => {
    const api = await emulator();
    const res = await api.patch(`/AlertDefinition/${DEF}`, { AlertDefinitionGuid: SEEDED.alertDefinitions.default, IsActive: true });
    expect(res.status).toBe(400);
    expect(res.error).toMatch(/must equal the one in the path/);
  });

  it('requires the complete field list on PUT', async () => {
    const api = await emulator();
    expect((await api.put(`/AlertDefinition/${DEF}`, { IsActive: true })).status).toBe(400);
  });

  it('answers 404 for an unknown definition', async () => {
    const api = await emulator();
    expect((await api.patch('/AlertDefinition/00000000-0000-4000-8000-000000000000', { IsActive: true })).status).toBe(404);
  });

  it('links integrations to an escalation level with VariableValues', async () => {
    const api = await emulator();
    const base = `/AlertDefinition/${DEF}/EscalationLevel/2/Integration`;
    const res = await api.post(base, { IntegrationGuid: SEEDED.integrations.webhook, VariableValues: { severity: 'high' } });
    expect(res.status).toBe(200);
    expect((await api.get(base)).json).toEqual([{ IntegrationGuid: SEEDED.integrations.webhook, VariableValues: { severity: 'high' } }]);
    const bad = await api.post(base, { IntegrationGuid: SEEDED.integrations.webhook, VariableValues: { severity: 3 } });
    expect(bad.status).toBe(400);
    const notAllowed = await api.post(base, { IntegrationGuid: SEEDED.integrations.chat, VariableValues: { a: 'b' } });
    expect(notAllowed.status).toBe(400);
    expect((await api.delete(`${base}/${SEEDED.integrations.webhook}`)).status).toBe(200);
    expect((await api.get(base)).json).toEqual([]);
    expect((await api.get(`/AlertDefinition/${DEF}/EscalationLevel/9/Integration`)).status).toBe(404);
  });
});
