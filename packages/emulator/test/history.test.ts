import { describe, expect, it } from 'vitest';
import { DEMO, SEEDED } from '../src/index.js';
import { asObj, asList, emulator, TIMESTAMP, VIEWER, type Api, type Obj } from './helpers.js';

const NOW = new Date('2026-06-15T12:30:00Z');
const ALL = SEEDED.allMonitorsGroup;

async function demo(): Promise<Api> {
  return emulator({ seed: 'demo', now: () => NOW });
}

async function monitorGuid(api: Api, name: string): Promise<string> {
  const list = await api.get('/Monitor');
  return String(list.data.find((m) => m['Name'] === name)?.['MonitorGuid']);
}

function attrs(item: Obj): Obj {
  return asObj(item['Attributes'], 'Attributes');
}

async function allPages(api: Api, path: string): Promise<{ items: Obj[]; requests: number; cursors: number; lastCursors: { Next?: string; Self?: string } | undefined }> {
  const items: Obj[] = [];
  let requests = 0;
  let cursors = 0;
  let next: string | undefined;
  let lastCursors: { Next?: string; Self?: string } | undefined;
  do {
    const res = await api.get(next ? `${path}&Cursor=${encodeURIComponent(next)}` : path);
    expect(res.status).toBe(200);
    requests++;
    items.push(...res.data);
    lastCursors = res.cursors;
    next = res.cursors?.Next;
    if (next) cursors++;
  } while (next);
  return { items, requests, cursors, lastCursors };
}

describe('alerts', () => {
  it('returns the Data/Relationships envelope with every alert field', async () => {
    const api = await demo();
    const res = await api.get(`/Alert/MonitorGroup/${ALL}?PresetPeriod=Last7Days`);
    expect(res.status).toBe(200);
    expect(res.data.length).toBeGreaterThan(0);
    for (const item of res.data) {
      expect(item['Type']).toBe('Alert');
      const a = attrs(item);
      expect(Object.keys(a).sort()).toEqual(['AlertType', 'ErrorDescription', 'FirstError', 'FirstErrorMonitorCheckId', 'IncidentKey', 'MonitorCheckId', 'MonitorGuid', 'Timestamp'].sort());
      expect(a['Timestamp']).toMatch(TIMESTAMP);
      expect(a['FirstError']).toMatch(TIMESTAMP);
      const rel = asList(item['Relationships']);
      expect(rel.map((r) => r['Type'])).toEqual(['MonitorCheck', 'MonitorCheck']);
      expect(asObj(rel[0]?.['Links'])['Self']).toBe(`/MonitorCheck/${String(a['MonitorCheckId'])}`);
      expect(asObj(rel[1]?.['Links'])['Self']).toBe(`/MonitorCheck/${String(a['FirstErrorMonitorCheckId'])}`);
    }
  });

  it('leaves out reminders unless IncludeReminders=true', async () => {
    const api = await demo();
    const without = await api.get(`/Alert/MonitorGroup/${ALL}?PresetPeriod=Last7Days&Take=100`);
    expect(without.data.every((i) => attrs(i)['AlertType'] === 'Error')).toBe(true);
    const withRem = await allPages(api, `/Alert/MonitorGroup/${ALL}?PresetPeriod=Last7Days&IncludeReminders=true`);
    expect(withRem.items.some((i) => attrs(i)['AlertType'] === 'Reminder')).toBe(true);
    expect((await api.get(`/Alert/MonitorGroup/${ALL}?IncludeReminders=maybe`)).status).toBe(400);
  });

  it('creates a cursor per batch, none when one batch holds everything, and pages without gaps', async () => {
    const api = await demo();
    const whole = await allPages(api, `/Alert/MonitorGroup/${ALL}?PresetPeriod=Last7Days&IncludeReminders=true&Take=100`);
    const paged = await allPages(api, `/Alert/MonitorGroup/${ALL}?PresetPeriod=Last7Days&IncludeReminders=true&Take=7`);
    expect(paged.items.map((i) => i['Id'])).toEqual(whole.items.map((i) => i['Id']));
    expect(paged.requests).toBe(Math.ceil(whole.items.length / 7));
    expect(paged.cursors).toBe(paged.requests - 1);
    expect(paged.lastCursors?.Next).toBeUndefined();
    expect(paged.lastCursors?.Self).toEqual(expect.any(String));
    const single = await api.get(`/Alert/MonitorGroup/${ALL}?PresetPeriod=Last2Hours&Take=100`);
    expect(single.data.length).toBeLessThan(100);
    expect(single.cursors).toBeUndefined();
  });

  it.each(['101', 'x', '-1'])('rejects Take=%s with 400', async (take) => {
    const api = await demo();
    expect((await api.get(`/Alert/MonitorGroup/${ALL}?Take=${take}`)).status).toBe(400);
  });

  it('takes Take=0 (the spec allows 0..100) as an empty batch with no next one; the strict profile refuses it', async () => {
    const api = await demo();
    const none = await api.get(`/Alert/MonitorGroup/${ALL}?Take=0&IncludeReminders=true`);
    expect(none.status).toBe(200);
    expect(none.data).toEqual([]);
    expect(none.cursors?.Next).toBeUndefined();
    const strict = await emulator({ seed: 'demo', now: () => NOW, profile: 'strict' });
    expect((await strict.get(`/Alert/MonitorGroup/${ALL}?Take=0`)).status).toBe(400);
  });

  it('rejects Start/End combined with PresetPeriod, and Start without End', async () => {
    const api = await demo();
    const both = await api.get(`/Alert/MonitorGroup/${ALL}?Start=2026-06-01&End=2026-06-02&PresetPeriod=Last7Days`);
    expect(both.status).toBe(400);
    expect(both.error).toMatch(/cannot be combined/);
    expect((await api.get(`/Alert/MonitorGroup/${ALL}?Start=2026-06-01`)).status).toBe(400);
    expect((await api.get(`/Alert/MonitorGroup/${ALL}?Start=2026-06-01&End=2026-05-01`)).status).toBe(400);
    expect((await api.get(`/Alert/MonitorGroup/${ALL}?PresetPeriod=LastWeekish`)).status).toBe(400);
  });

  it('keeps a custom Start/End range, End day included', async () => {
    const api = await demo();
    const { items } = await allPages(api, `/Alert/MonitorGroup/${ALL}?Start=2026-06-01&End=2026-06-02&IncludeReminders=true`);
    expect(items.length).toBeGreaterThan(0);
    for (const i of items) expect(String(attrs(i)['Timestamp']) >= '2026-06-01T00:00:00' && String(attrs(i)['Timestamp']) < '2026-06-03T00:00:00').toBe(true);
  });

  it('covers whole elapsed units only: PreviousDay is yesterday, Last24Hours stops at the current hour', async () => {
    const api = await demo();
    const yesterday = await allPages(api, `/Alert/MonitorGroup/${ALL}?PresetPeriod=PreviousDay&IncludeReminders=true`);
    expect(yesterday.items.length).toBeGreaterThan(0);
    for (const i of yesterday.items) expect(String(attrs(i)['Timestamp']).slice(0, 10)).toBe('2026-06-14');
    const last24 = await allPages(api, `/Alert/MonitorGroup/${ALL}?PresetPeriod=Last24Hours&IncludeReminders=true`);
    for (const i of last24.items) {
      const t = String(attrs(i)['Timestamp']);
      expect(t >= '2026-06-14T12:00:00' && t < '2026-06-15T12:00:00').toBe(true);
    }
  });

  it('sorts newest first by default and oldest first with Sorting=asc', async () => {
    const api = await demo();
    const desc = (await api.get(`/Alert/MonitorGroup/${ALL}?PresetPeriod=Last7Days`)).data.map((i) => String(attrs(i)['Timestamp']));
    const asc = (await api.get(`/Alert/MonitorGroup/${ALL}?PresetPeriod=Last7Days&Sorting=asc`)).data.map((i) => String(attrs(i)['Timestamp']));
    expect(desc).toEqual([...desc].sort().reverse());
    expect(asc).toEqual([...asc].sort());
  });

  it('is deterministic across emulators and limited to one monitor on the monitor endpoint', async () => {
    const a = await demo();
    const b = await demo();
    const guid = await monitorGuid(a, 'Shop homepage');
    const ra = await a.get(`/Alert/Monitor/${guid}?PresetPeriod=Last30Days&IncludeReminders=true`);
    const rb = await b.get(`/Alert/Monitor/${guid}?PresetPeriod=Last30Days&IncludeReminders=true`);
    expect(ra.text.replace(/"(Next|Self)":"[^"]+"/g, '')).toBe(rb.text.replace(/"(Next|Self)":"[^"]+"/g, ''));
    expect(ra.data.every((i) => attrs(i)['MonitorGuid'] === guid)).toBe(true);
  });

  it('shows a non-administrator only the alerts of monitors it may view', async () => {
    const api = await demo();
    const { items } = await allPages(api, `/Alert/MonitorGroup/${ALL}?PresetPeriod=Last30Days&IncludeReminders=true`);
    const viewerRes = await api.get(`/Alert/MonitorGroup/${ALL}?PresetPeriod=Last30Days&Take=100`, VIEWER);
    const visible = new Set((await api.get('/Monitor', VIEWER)).data.map((m) => m['MonitorGuid']));
    expect(viewerRes.data.every((i) => visible.has(attrs(i)['MonitorGuid']))).toBe(true);
    expect(items.some((i) => !visible.has(attrs(i)['MonitorGuid']))).toBe(true);
  });
});

describe('statistics', () => {
  it('defaults to Last24Hours with hourly intervals', async () => {
    const api = await demo();
    const guid = await monitorGuid(api, 'Shop homepage');
    const res = await api.get(`/Statistics/Monitor/${guid}`);
    expect(res.status).toBe(200);
    expect(res.data).toHaveLength(24);
    const first = res.data[0] ?? {};
    expect(first['Type']).toBe('Statistics');
    expect(first['Id']).toBe('6/14/2026 12:00:00 PM');
    expect(attrs(first)).toMatchObject({ StartDateTime: '2026-06-14T12:00:00', EndDateTime: '2026-06-14T13:00:00', Checks: 12 });
    expect(attrs(res.data[23] ?? {})['EndDateTime']).toBe('2026-06-15T12:00:00');
    expect(asList(first['Relationships'])[0]).toEqual({ Id: guid, Type: 'Monitor', Links: { Self: `/Monitor/${guid}` } });
  });

  it('returns only the fields named in Filter', async () => {
    const api = await demo();
    const guid = await monitorGuid(api, 'Shop homepage');
    const res = await api.get(`/Statistics/Monitor/${guid}?Filter=${encodeURIComponent('Alerts, UptimePercentage')}`);
    for (const item of res.data) expect(Object.keys(attrs(item))).toEqual(['Alerts', 'UptimePercentage']);
    expect((await api.get(`/Statistics/Monitor/${guid}?Filter=Bogus`)).status).toBe(400);
  });

  it('uses daily intervals for Last7Days and monthly for Last3Months', async () => {
    const api = await demo();
    const guid = await monitorGuid(api, 'Shop homepage');
    const week = await api.get(`/Statistics/Monitor/${guid}?PresetPeriod=Last7Days`);
    expect(week.data.map((i) => attrs(i)['StartDateTime'])).toEqual([8, 9, 10, 11, 12, 13, 14].map((d) => `2026-06-${String(d).padStart(2, '0')}T00:00:00`));
    const months = await api.get(`/Statistics/Monitor/${guid}?PresetPeriod=Last3Months&Filter=StartDateTime`);
    expect(months.data.map((i) => attrs(i)['StartDateTime'])).toEqual(['2026-03-01T00:00:00', '2026-04-01T00:00:00', '2026-05-01T00:00:00']);
  });

  it.each([
    ['PreviousWeek', '2026-06-08T00:00:00', '2026-06-15T00:00:00', 7],
    ['PreviousMonth', '2026-05-01T00:00:00', '2026-06-01T00:00:00', 31],
    ['PreviousQuarter', '2026-01-01T00:00:00', '2026-04-01T00:00:00', 3],
    ['PreviousYear', '2025-01-01T00:00:00', '2026-01-01T00:00:00', 12],
    ['Last2Hours', '2026-06-15T10:00:00', '2026-06-15T12:00:00', 2],
    ['Last30Days', '2026-05-16T00:00:00', '2026-06-15T00:00:00', 30],
    ['CurrentDay', '2026-06-15T00:00:00', '2026-06-15T12:30:00', 13],
    ['CurrentWeek', '2026-06-15T00:00:00', '2026-06-15T12:30:00', 1],
  ])('resolves PresetPeriod %s to [%s, %s) in %i intervals', async (preset, from, to, count) => {
    const api = await demo();
    const guid = await monitorGuid(api, 'Blog');
    const res = await api.get(`/Statistics/Monitor/${guid}?PresetPeriod=${encodeURIComponent(preset)}&Filter=StartDateTime,EndDateTime`);
    expect(res.status).toBe(200);
    expect(res.data).toHaveLength(count);
    expect(attrs(res.data[0] ?? {})['StartDateTime']).toBe(from);
    expect(attrs(res.data[count - 1] ?? {})['EndDateTime']).toBe(to);
  });

  it('speaks the published spelling: "Previous Day" (the spec spelling, with a space) is refused naming PreviousDay; All is a period', async () => {
    const api = await demo();
    const guid = await monitorGuid(api, 'Blog');
    const spaced = await api.get(`/Statistics/Monitor/${guid}?PresetPeriod=${encodeURIComponent('Previous Day')}`);
    expect(spaced.status).toBe(400);
    expect(spaced.error).toMatch(/"PreviousDay"/);
    const all = await api.get(`/Statistics/Monitor/${guid}?PresetPeriod=All&Filter=StartDateTime`);
    expect(all.status).toBe(200);
    expect(all.data.length).toBeGreaterThan(12);
  });

  it('keeps uptime and downtime consistent', async () => {
    const api = await demo();
    const res = await api.get(`/Statistics/MonitorGroup/${DEMO.groups.shop}?PresetPeriod=Last7Days`);
    for (const item of res.data) {
      const a = attrs(item);
      expect(Number(a['UptimePercentage']) + Number(a['DowntimePercentage'])).toBeCloseTo(100, 2);
      expect(Number(a['Uptime']) + Number(a['Downtime'])).toBeCloseTo(4 * 24 * 60, 1);
      expect(Number(a['Checks'])).toBe(4 * 24 * 12);
    }
    expect(asList(res.data[0]?.['Relationships'])[0]).toMatchObject({ Type: 'MonitorGroup', Id: DEMO.groups.shop });
  });

  it('takes Start/End date-times and refuses them with PresetPeriod', async () => {
    const api = await demo();
    const guid = await monitorGuid(api, 'Shop homepage');
    const res = await api.get(`/Statistics/Monitor/${guid}?Start=2026-06-01T00:00:00&End=2026-06-01T06:00:00`);
    expect(res.data).toHaveLength(6);
    expect((await api.get(`/Statistics/Monitor/${guid}?Start=2026-06-01T00:00:00&End=2026-06-02T00:00:00&PresetPeriod=Last24Hours`)).status).toBe(400);
    expect((await api.get(`/Statistics/Monitor/${guid}?Start=2026-06-01&End=2026-06-02`)).status).toBe(400);
  });
});

describe('monitor checks', () => {
  async function checkOf(api: Api, name: string): Promise<number> {
    const guid = await monitorGuid(api, name);
    const res = await api.get(`/Alert/Monitor/${guid}?PresetPeriod=Last90Days&Take=1`);
    const first = res.data[0];
    if (!first) throw new Error(`no alert for ${name}`);
    return Number(attrs(first)['MonitorCheckId']);
  }

  it('returns waterfall metrics with PageLoadMetricsCollection for browser-based monitors', async () => {
    const api = await demo();
    const id = await checkOf(api, 'Shop product images');
    const res = await api.get(`/MonitorCheck/${id}/Waterfall`);
    expect(res.status).toBe(200);
    const metrics = asList(res.body['PageLoadMetricsCollection']);
    expect(Object.keys(metrics[0] ?? {}).sort()).toEqual(
      ['CumulativeLayoutShift', 'DomComplete', 'DomInteractive', 'FirstContentfulPaint', 'LargestContentfulPaint', 'LoadEventEnd', 'SendStart', 'TimeToFirstByte', 'TimeToInteractive', 'TotalBlockingTime'].sort(),
    );
  });

  it('answers 400 for a waterfall of a non-browser monitor and 404 for an unknown check', async () => {
    const api = await demo();
    const id = await checkOf(api, 'Mail relay');
    expect((await api.get(`/MonitorCheck/${id}/Waterfall`)).status).toBe(400);
    expect((await api.get('/MonitorCheck/999999999999/Waterfall')).status).toBe(404);
    expect((await api.get('/MonitorCheck/abc/Waterfall')).status).toBe(400);
  });

  it('returns multi-step and collection API details for those monitor types', async () => {
    const api = await demo();
    const multi = await api.get(`/MonitorCheck/${await checkOf(api, 'Shop search API')}/MultiStepAPI`);
    expect(multi.status).toBe(200);
    expect(asList(multi.body['Steps']).length).toBeGreaterThan(0);
    const coll = await api.get(`/MonitorCheck/${await checkOf(api, 'Auth service')}/CollectionAPI`);
    expect(coll.status).toBe(200);
    expect(coll.body).toHaveProperty('HttpStatusCode');
  });
});
