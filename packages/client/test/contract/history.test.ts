import { describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError, type Monitor } from '@monsync/client';
import { DEMO } from '@monsync/emulator';
import { useEmulator } from './harness.js';

const api = useEmulator('demo');

async function monitorNamed(name: string): Promise<Monitor> {
  const found = (await api.client.monitors.list().toArray()).find((m) => m.Name === name);
  if (!found) throw new Error(`demo seed has no monitor named ${name}`);
  return found;
}

describe('alerts against the emulator', () => {
  it('follows alert cursors over three or more pages, keeping the query', async () => {
    const m = await monitorNamed('Marketing site');
    const pages = [];
    for await (const page of api.client.alerts.byMonitor(m.MonitorGuid, { Take: 2, PresetPeriod: 'Last7Days', IncludeReminders: true }).pages()) {
      pages.push(page);
      if (pages.length === 4) break;
    }
    expect(pages).toHaveLength(4);
    for (const page of pages) {
      expect(page.items).toHaveLength(2);
      for (const alert of page.items) {
        expect(alert.Attributes.MonitorGuid?.toLowerCase()).toBe(m.MonitorGuid.toLowerCase());
        expect(alert.Attributes.Timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
      }
    }
    const ids = pages.flatMap((p) => p.items.map((a) => a.Id));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('reads group alerts with a custom date range (Start/End as YYYY-MM-DD)', async () => {
    const end = new Date();
    const start = new Date(end.getTime() - 10 * 86_400_000);
    const page = await api.client.alerts.byGroupPage(DEMO.groups.shop, { Start: start, End: end, Take: 5 });
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.items[0]?.Relationships.length).toBeGreaterThan(0);
  });

});

describe('alerts against the emulator speaking the published definition', () => {
  const published = useEmulator('demo', { profile: 'published' });

  it('sends a Previous... PresetPeriod as the service spells it, even when given the spec spelling', async () => {
    const m = (await published.client.monitors.list().toArray()).find((x) => x.Name === 'Marketing site');
    if (!m) throw new Error('demo seed has no monitor named Marketing site');
    await expect(published.client.alerts.byMonitorPage(m.MonitorGuid, { PresetPeriod: 'PreviousWeek', Take: 1 })).resolves.toHaveProperty('items');
    // Cast: an older caller passes the spec's spelling.
    await expect(published.client.alerts.byMonitorPage(m.MonitorGuid, { PresetPeriod: 'Previous Week' as 'PreviousWeek', Take: 1 })).resolves.toHaveProperty('items');
    expect(published.responses.at(-1)?.status).toBe(200);
  });
});

describe('statistics against the emulator', () => {
  it('reads monitor statistics with a field filter', async () => {
    const m = await monitorNamed('Shop homepage');
    const stats = await api.client.statistics.monitor(m.MonitorGuid, { Filter: ['Alerts', 'UptimePercentage'] });
    expect(stats.length).toBeGreaterThan(0);
    expect(stats[0]?.Attributes.UptimePercentage).toBeTypeOf('number');
    expect(stats[0]?.Type).toBe('Statistics');
  });

  it('reads group statistics for a custom range', async () => {
    const stats = await api.client.statistics.group(DEMO.groups.shop, { Start: '2026-01-01T00:00:00', End: '2026-01-01T06:00:00' });
    expect(stats.length).toBeGreaterThan(0);
  });
});

describe('monitor checks against the emulator', () => {
  async function checkId(name: string): Promise<number> {
    const m = await monitorNamed(name);
    const page = await api.client.alerts.byMonitorPage(m.MonitorGuid, { PresetPeriod: 'Last30Days', Take: 1 });
    const id = page.items[0]?.Attributes.MonitorCheckId;
    if (id === undefined) throw new Error(`no alert with a check id for ${name}`);
    return id;
  }

  it('reads a browser check waterfall with PageLoadMetricsCollection', async () => {
    const waterfall = await api.client.monitorChecks.waterfall(await checkId('Shop product images'));
    expect(waterfall.PageLoadMetricsCollection?.[0]?.FirstContentfulPaint).toBeTypeOf('number');
  });

  it('reads multi-step and collection API check details', async () => {
    await expect(api.client.monitorChecks.multiStepApi(await checkId('Shop search API'))).resolves.toHaveProperty('Steps');
    await expect(api.client.monitorChecks.collectionApi(await checkId('Auth service'))).resolves.toHaveProperty('HttpStatusCode');
  });

  it('gets a ValidationError asking a non-browser check for a waterfall, and NotFound for an unknown check', async () => {
    await expect(api.client.monitorChecks.waterfall(await checkId('Auth service'))).rejects.toBeInstanceOf(ValidationError);
    // The emulator encodes the monitor in the low six digits; 999999 names none.
    await expect(api.client.monitorChecks.waterfall(999_999)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('checkpoints against the emulator', () => {
  it('reads a checkpoint server with plain-string IPv6 addresses', async () => {
    const server = await api.client.checkpoints.server(101);
    expect(server.Ipv4Addresses).toEqual(['198.51.100.11']);
    expect(server.IpV6Addresses).toEqual(['2001:db8:101::11']);
  });

  it('reads private checkpoint health with Warnings', async () => {
    const health = await api.client.checkpoints.privateHealth();
    expect(health.length).toBeGreaterThan(0);
    expect(health[0]?.Warnings).toBeDefined();
  });
});
