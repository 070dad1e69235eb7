import { describe, expect, it } from 'vitest';
import { mockApi } from '../test-utils/mock-api.js';

const A = '0b1e0000-0000-0000-0000-00000000000a';

describe('alertDefinitions', () => {
  it('replaces with PUT /AlertDefinition/{guid}, filling AlertDefinitionGuid from the path', async () => {
    const api = mockApi();
    api.reply('PUT', `/AlertDefinition/${A}`, 200, { AlertDefinitionGuid: A, IsActive: false });
    await expect(api.client.alertDefinitions.replace(A, { IsActive: false })).resolves.toEqual({ AlertDefinitionGuid: A, IsActive: false });
    expect(api.last()).toMatchObject({ method: 'PUT', url: `/v4/AlertDefinition/${A}`, body: { IsActive: false, AlertDefinitionGuid: A } });
  });

  it('patches with PATCH /AlertDefinition/{guid}, without adding a GUID to the body', async () => {
    const api = mockApi();
    api.reply('PATCH', `/AlertDefinition/${A}`, 204);
    await expect(api.client.alertDefinitions.patch(A, { IsActive: true })).resolves.toBeUndefined();
    expect(api.last()).toMatchObject({ method: 'PATCH', url: `/v4/AlertDefinition/${A}`, body: { IsActive: true } });
  });

  it('sets activation with setActive (a PATCH of IsActive)', async () => {
    const api = mockApi();
    api.reply('PATCH', `/AlertDefinition/${A}`, 204);
    await api.client.alertDefinitions.setActive(A, false);
    expect(api.last()).toMatchObject({ method: 'PATCH', body: { IsActive: false } });
  });

  it('links an integration to an escalation level with VariableValues', async () => {
    const api = mockApi();
    api.reply('POST', `/AlertDefinition/${A}/EscalationLevel/2/Integration`, 200, { IntegrationGuid: 'i1' });
    const body = { IntegrationGuid: 'i1', VariableValues: { channel: '#ops', severity: 'high' } };
    await expect(api.client.alertDefinitions.integrations.link(A, 2, body)).resolves.toEqual({ IntegrationGuid: 'i1' });
    expect(api.last()).toMatchObject({ method: 'POST', url: `/v4/AlertDefinition/${A}/EscalationLevel/2/Integration`, body });
  });

  it('lists the integrations of an escalation level', async () => {
    const api = mockApi();
    api.reply('GET', `/AlertDefinition/${A}/EscalationLevel/1/Integration`, 200, [{ IntegrationGuid: 'i1' }]);
    await expect(api.client.alertDefinitions.integrations.list(A, 1).toArray()).resolves.toEqual([{ IntegrationGuid: 'i1' }]);
  });
});
