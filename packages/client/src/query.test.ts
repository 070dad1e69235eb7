import { describe, expect, it } from 'vitest';
import { InvalidQueryError, ValidationError } from './errors.js';
import { mockApi } from './test-utils/mock-api.js';

const GUID = '12345678-0000-0000-0000-000000000000';

/** Runs `call` and returns its InvalidQueryError, checking nothing was sent. */
async function refused(api: ReturnType<typeof mockApi>, call: () => unknown): Promise<InvalidQueryError> {
  let error: unknown;
  try {
    await call();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(InvalidQueryError);
  expect(error).toBeInstanceOf(ValidationError);
  expect(error).toMatchObject({ code: 'INVALID_QUERY', status: 0 });
  expect(api.calls()).toHaveLength(0);
  return error as InvalidQueryError;
}

describe('Take', () => {
  it.each([0, 101, 2.5, -1, Number.NaN])('refuses Take=%s before sending', async (take) => {
    const api = mockApi();
    const error = await refused(api, () => api.client.monitors.list({ Take: take }));
    expect(error.message).toMatch(/Take must be a whole number from 1 to 100/);
    expect(error.message).toMatch(/request not sent/);
  });

  it('refuses a bad Take on alert and group-monitor lists too', async () => {
    const api = mockApi();
    await refused(api, () => api.client.alerts.byGroupPage(GUID, { Take: 500 }));
    await refused(api, () => api.client.monitors.listInGroup(GUID, { Take: 0 }));
  });

  it.each([1, 100])('accepts Take=%i', async (take) => {
    const api = mockApi();
    api.reply('GET', '/Monitor', 200, { Data: [] });
    await api.client.monitors.listPage({ Take: take });
    expect(api.last().url).toBe(`/v4/Monitor?Take=${take}`);
  });
});

describe('periods', () => {
  it('refuses Start without End, and End without Start', async () => {
    const api = mockApi();
    expect((await refused(api, () => api.client.alerts.byMonitor(GUID, { Start: '2026-11-01' }))).message).toMatch(/add End/);
    expect((await refused(api, () => api.client.statistics.monitor(GUID, { End: '2026-11-01T00:00:00' }))).message).toMatch(/add Start/);
  });

  it('refuses Start/End combined with PresetPeriod', async () => {
    const api = mockApi();
    const error = await refused(api, () => api.client.alerts.byMonitor(GUID, { Start: '2026-11-01', End: '2026-11-02', PresetPeriod: 'Last7Days' }));
    expect(error.message).toMatch(/PresetPeriod cannot be combined with Start\/End/);
  });

  it('refuses an unknown PresetPeriod', async () => {
    const api = mockApi();
    // Cast: a JavaScript caller or a config file can pass any string.
    const error = await refused(api, () => api.client.statistics.group(GUID, { PresetPeriod: 'Yesterday' as 'PreviousDay' }));
    expect(error.message).toMatch(/unknown PresetPeriod "Yesterday"/);
  });

  it('refuses dates in the wrong format for the endpoint', async () => {
    const api = mockApi();
    expect((await refused(api, () => api.client.alerts.byMonitor(GUID, { Start: '2026-11-01T00:00:00', End: '2026-11-02T00:00:00' }))).message).toMatch(/YYYY-MM-DD,/);
    expect((await refused(api, () => api.client.statistics.monitor(GUID, { Start: '2026-11-01', End: '2026-11-02' }))).message).toMatch(/YYYY-MM-DDTHH:MM:SS/);
  });

  it('refuses Start after End', async () => {
    const api = mockApi();
    await refused(api, () => api.client.alerts.byMonitor(GUID, { Start: '2026-11-03', End: '2026-11-02' }));
  });

  it('writes Dates in the format of the endpoint', async () => {
    const api = mockApi();
    api.reply('GET', `/Alert/Monitor/${GUID}`, 200, { Data: [] });
    api.reply('GET', `/Statistics/Monitor/${GUID}`, 200, { Data: [] });
    const start = new Date(Date.UTC(2026, 10, 1, 6, 30, 0, 250));
    const end = new Date(Date.UTC(2026, 10, 2, 6, 30, 0));
    await api.client.alerts.byMonitorPage(GUID, { Start: start, End: end });
    await api.client.statistics.monitor(GUID, { Start: start, End: end });
    expect(api.calls().map((c) => c.url)).toEqual([
      `/v4/Alert/Monitor/${GUID}?Start=2026-11-01&End=2026-11-02`,
      `/v4/Statistics/Monitor/${GUID}?Start=2026-11-01T06:30:00&End=2026-11-02T06:30:00`,
    ]);
  });
});

describe('AlertDefinitionGuid in a body', () => {
  it('refuses a PATCH whose body GUID differs from the path', async () => {
    const api = mockApi();
    const error = await refused(api, () => api.client.alertDefinitions.patch(GUID, { AlertDefinitionGuid: 'other', IsActive: true }));
    expect(error.message).toMatch(/body AlertDefinitionGuid "other" differs from the one in the path/);
  });

  it('refuses a PUT whose body GUID differs from the path', async () => {
    const api = mockApi();
    await refused(api, () => api.client.alertDefinitions.replace(GUID, { AlertDefinitionGuid: 'other', IsActive: false }));
  });

  it('accepts the same GUID written in another case', async () => {
    const api = mockApi();
    api.reply('PATCH', `/AlertDefinition/${GUID}`, 204);
    await api.client.alertDefinitions.patch(GUID, { AlertDefinitionGuid: GUID.toUpperCase(), IsActive: true });
    expect(api.last().body).toEqual({ AlertDefinitionGuid: GUID.toUpperCase(), IsActive: true });
  });
});

describe('vault authorizations', () => {
  it('refuses a body with both or neither of OperatorGuid and OperatorGroupGuid', async () => {
    const api = mockApi();
    // The cast reaches the runtime check a JavaScript caller would hit.
    const both = { AuthorizationType: 'ViewVaultSection', OperatorGuid: 'o', OperatorGroupGuid: 'g' } as never;
    const neither = { AuthorizationType: 'ViewVaultSection' } as never;
    await refused(api, () => api.client.vaultSections.authorizations.create(GUID, both));
    await refused(api, () => api.client.vaultSections.authorizations.create(GUID, neither));
  });
});
