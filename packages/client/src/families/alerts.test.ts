import { describe, expect, it } from 'vitest';
import { mockApi } from '../test-utils/mock-api.js';

const M = 'f0000000-0000-0000-0000-000000000001';
const G = 'a0000000-0000-0000-0000-000000000002';
const attributes = { AlertType: 'Error', MonitorGuid: M, Timestamp: '2026-11-20T10:00:00', MonitorCheckId: 5, ErrorDescription: 'timeout' };
const relationships = [{ Id: '5', Type: 'MonitorCheck', Links: { Self: '/MonitorCheck/5' } }];

describe('alerts', () => {
  it('lists alerts of a monitor with GET /Alert/Monitor/{guid} and its query, following cursors', async () => {
    const api = mockApi();
    api.reply('GET', `/Alert/Monitor/${M}`, 200, { Data: [{ Id: 'a1', Type: 'Alert', Attributes: attributes, Relationships: relationships }], Cursors: { Next: 'c2' } });
    api.reply('GET', `/Alert/Monitor/${M}`, 200, { Data: [{ Id: 'a2', Type: 'Alert', Attributes: { ...attributes, AlertType: 'Reminder' } }], Cursors: { Next: 'c3' } });
    api.reply('GET', `/Alert/Monitor/${M}`, 200, { Data: [{ Id: 'a3', Type: 'Alert', Attributes: attributes }] });
    const alerts = await api.client.alerts.byMonitor(M, { IncludeReminders: true, Take: 1, PresetPeriod: 'PreviousWeek', Sorting: 'Descending' }).toArray();
    expect(alerts.map((a) => [a.Id, a.Attributes.AlertType])).toEqual([
      ['a1', 'Error'],
      ['a2', 'Reminder'],
      ['a3', 'Error'],
    ]);
    expect(alerts[0]?.Relationships).toEqual(relationships);
    const q = 'IncludeReminders=true&Take=1&PresetPeriod=PreviousWeek&Sorting=Descending';
    expect(api.calls().map((c) => c.url)).toEqual([`/v4/Alert/Monitor/${M}?${q}`, `/v4/Alert/Monitor/${M}?${q}&Cursor=c2`, `/v4/Alert/Monitor/${M}?${q}&Cursor=c3`]);
  });

  it('moves alert fields given at the top level of an item into Attributes', async () => {
    const api = mockApi();
    api.reply('GET', `/Alert/Monitor/${M}`, 200, [{ ...attributes, Id: 'x1' }]);
    const page = await api.client.alerts.byMonitorPage(M);
    expect(page.items).toEqual([{ Id: 'x1', Attributes: attributes, Relationships: [] }]);
  });

  it('reads a single alert object answered without a list', async () => {
    const api = mockApi();
    api.reply('GET', `/Alert/Monitor/${M}`, 200, attributes);
    const page = await api.client.alerts.byMonitorPage(M);
    expect(page.items).toEqual([{ Attributes: attributes, Relationships: [] }]);
  });

  it('lists alerts of a group with GET /Alert/MonitorGroup/{guid} and a custom range', async () => {
    const api = mockApi();
    api.reply('GET', `/Alert/MonitorGroup/${G}`, 200, { Data: [{ Id: 'g1', Type: 'Alert', Attributes: attributes, Relationships: relationships }], Cursors: { Next: 'n', Self: 's' } });
    const page = await api.client.alerts.byGroupPage(G, { Start: '2026-11-01', End: '2026-11-08' });
    expect(page.cursors).toEqual({ next: 'n', self: 's' });
    expect(page.items[0]?.Attributes.MonitorGuid).toBe(M);
    expect(api.last()).toMatchObject({ method: 'GET', url: `/v4/Alert/MonitorGroup/${G}?Start=2026-11-01&End=2026-11-08` });
  });

  it('follows group alert cursors with byGroup', async () => {
    const api = mockApi();
    api.reply('GET', `/Alert/MonitorGroup/${G}`, 200, { Data: [{ Id: '1', Attributes: attributes }], Cursors: { Next: 'n' } });
    api.reply('GET', `/Alert/MonitorGroup/${G}`, 200, { Data: [{ Id: '2', Attributes: attributes }] });
    expect((await api.client.alerts.byGroup(G).toArray()).map((a) => a.Id)).toEqual(['1', '2']);
  });
});

describe('statistics', () => {
  const item = { Id: '11/20/2026 10:00:00 AM', Type: 'Statistics', Attributes: { UptimePercentage: 99.9, Checks: 12, Alerts: 0 }, Relationships: [{ Id: M, Type: 'Monitor', Links: { Self: `/Monitor/${M}` } }] };

  it('reads monitor statistics with GET /Statistics/Monitor/{guid}, a field filter and a preset period', async () => {
    const api = mockApi();
    api.reply('GET', `/Statistics/Monitor/${M}`, 200, { Data: [item] });
    const stats = await api.client.statistics.monitor(M, { Filter: ['Alerts', 'UptimePercentage'], PresetPeriod: 'Last24Hours' });
    expect(stats).toEqual([item]);
    expect(api.last()).toMatchObject({ method: 'GET', url: `/v4/Statistics/Monitor/${M}?Filter=Alerts,UptimePercentage&PresetPeriod=Last24Hours` });
  });

  it('reads group statistics with GET /Statistics/MonitorGroup/{guid} and a custom range', async () => {
    const api = mockApi();
    api.reply('GET', `/Statistics/MonitorGroup/${G}`, 200, { Data: [item, item] });
    const stats = await api.client.statistics.group(G, { Start: '2026-11-01T00:00:00', End: '2026-11-02T00:00:00' });
    expect(stats).toHaveLength(2);
    expect(stats[0]?.Attributes.UptimePercentage).toBe(99.9);
    expect(api.last().url).toBe(`/v4/Statistics/MonitorGroup/${G}?Start=2026-11-01T00:00:00&End=2026-11-02T00:00:00`);
  });
});
