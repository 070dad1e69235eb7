import { describe, expect, it } from 'vitest';
import { mockApi } from '../test-utils/mock-api.js';

const M = 'f0000000-0000-0000-0000-000000000001';
const G = 'a0000000-0000-0000-0000-000000000002';
const monitor = { MonitorGuid: M, Name: 'Shop homepage', MonitorType: 'Https', MonitorMode: 'Production', IsActive: true, GenerateAlert: true, CreatedDate: '2026-01-02T03:04:05' };

describe('monitors', () => {
  it('lists monitors with GET /Monitor and Take, returning whole monitor objects', async () => {
    const api = mockApi();
    api.reply('GET', '/Monitor', 200, { Data: [monitor], Cursors: { Self: 'c' } });
    const all = await api.client.monitors.list({ Take: 50 }).toArray();
    expect(api.last()).toMatchObject({ method: 'GET', url: '/v4/Monitor?Take=50', body: undefined });
    expect(all).toEqual([monitor]);
  });

  it('reads one monitor with GET /Monitor/{guid}', async () => {
    const api = mockApi();
    api.reply('GET', `/Monitor/${M}`, 200, monitor);
    await expect(api.client.monitors.get(M)).resolves.toEqual(monitor);
    expect(api.last()).toMatchObject({ method: 'GET', url: `/v4/Monitor/${M}` });
  });

  it('creates with POST /Monitor and returns the created monitor', async () => {
    const api = mockApi();
    api.reply('POST', '/Monitor', 200, monitor);
    const body = { Name: 'Shop homepage', MonitorType: 'Https', ErrorConditions: [{ ErrorConditionType: 'HttpStatus', Value: '200' }] };
    await expect(api.client.monitors.create(body)).resolves.toMatchObject({ MonitorGuid: M });
    expect(api.last()).toMatchObject({ method: 'POST', url: '/v4/Monitor', body });
  });

  it('creates in a group with POST /Monitor/MonitorGroup/{groupGuid}', async () => {
    const api = mockApi();
    api.reply('POST', `/Monitor/MonitorGroup/${G}`, 200, monitor);
    await api.client.monitors.createInGroup(G, { Name: 'Shop homepage' });
    expect(api.last()).toMatchObject({ method: 'POST', url: `/v4/Monitor/MonitorGroup/${G}`, body: { Name: 'Shop homepage' } });
  });

  it('lists the monitors of a group with GET /Monitor/MonitorGroup/{groupGuid}, following cursors', async () => {
    const api = mockApi();
    api.reply('GET', `/Monitor/MonitorGroup/${G}`, 200, { Data: [monitor], Cursors: { Next: 'n2' } });
    api.reply('GET', `/Monitor/MonitorGroup/${G}`, 200, { Data: [{ ...monitor, MonitorGuid: 'm2' }] });
    const all = await api.client.monitors.listInGroup(G, { Take: 1 }).toArray();
    expect(all.map((m) => m.MonitorGuid)).toEqual([M, 'm2']);
    expect(api.calls().map((c) => c.url)).toEqual([`/v4/Monitor/MonitorGroup/${G}?Take=1`, `/v4/Monitor/MonitorGroup/${G}?Take=1&Cursor=n2`]);
  });

  it('replaces with PUT, resolving to the monitor or to undefined on 204', async () => {
    const api = mockApi();
    api.reply('PUT', `/Monitor/${M}`, 200, monitor);
    api.reply('PUT', `/Monitor/${M}`, 204);
    await expect(api.client.monitors.replace(M, { Name: 'Shop homepage', IsActive: false })).resolves.toEqual(monitor);
    expect(api.last()).toMatchObject({ method: 'PUT', url: `/v4/Monitor/${M}`, body: { Name: 'Shop homepage', IsActive: false } });
    await expect(api.client.monitors.replace(M, { Name: 'x' })).resolves.toBeUndefined();
  });

  it('patches with PATCH /Monitor/{guid}, sending only the given fields', async () => {
    const api = mockApi();
    api.reply('PATCH', `/Monitor/${M}`, 204);
    await api.client.monitors.patch(M, { IsActive: false });
    expect(api.last()).toMatchObject({ method: 'PATCH', url: `/v4/Monitor/${M}`, body: { IsActive: false } });
  });

  it('deletes with DELETE /Monitor/{guid}', async () => {
    const api = mockApi();
    api.reply('DELETE', `/Monitor/${M}`, 204);
    await expect(api.client.monitors.delete(M)).resolves.toBeUndefined();
    expect(api.last()).toMatchObject({ method: 'DELETE', url: `/v4/Monitor/${M}`, body: undefined });
  });

  it('passes unknown fields through in both directions', async () => {
    const api = mockApi();
    api.reply('PATCH', `/Monitor/${M}`, 200, { ...monitor, CheckFrequency: 5 });
    const result = await api.client.monitors.patch(M, { CheckFrequency: 5 });
    expect(api.last().body).toEqual({ CheckFrequency: 5 });
    expect(result?.CheckFrequency).toBe(5);
  });

  it('reports an empty create answer whose monitor the listing lacks as an unclear outcome', async () => {
    const api = mockApi();
    api.reply('POST', '/Monitor', 200);
    api.reply('GET', '/Monitor', 200, []);
    await expect(api.client.monitors.create({ Name: 'x' })).rejects.toThrow(/answered 200 with an empty body that does not name the new object's MonitorGuid/);
  });
});

describe('monitorChecks', () => {
  it('reads the waterfall with GET /MonitorCheck/{id}/Waterfall', async () => {
    const api = mockApi();
    const body = { PageLoadMetricsCollection: [{ FirstContentfulPaint: 812, LargestContentfulPaint: 1290 }] };
    api.reply('GET', '/MonitorCheck/123456/Waterfall', 200, body);
    await expect(api.client.monitorChecks.waterfall(123456)).resolves.toEqual(body);
    expect(api.last()).toMatchObject({ method: 'GET', url: '/v4/MonitorCheck/123456/Waterfall' });
  });

  it('reads multi-step API details with GET /MonitorCheck/{id}/MultiStepAPI', async () => {
    const api = mockApi();
    api.reply('GET', '/MonitorCheck/77/MultiStepAPI', 200, { Steps: [] });
    await expect(api.client.monitorChecks.multiStepApi(77)).resolves.toEqual({ Steps: [] });
    expect(api.last().url).toBe('/v4/MonitorCheck/77/MultiStepAPI');
  });

  it('reads collection-based API details with GET /MonitorCheck/{id}/CollectionAPI', async () => {
    const api = mockApi();
    api.reply('GET', '/MonitorCheck/78/CollectionAPI', 200, { HttpStatusCode: 200 });
    await expect(api.client.monitorChecks.collectionApi('78')).resolves.toEqual({ HttpStatusCode: 200 });
    expect(api.last().url).toBe('/v4/MonitorCheck/78/CollectionAPI');
  });
});
