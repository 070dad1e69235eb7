import { describe, expect, it } from 'vitest';
import { DEMO, PROFILE_NAMES, SEEDED, profileFromEnv, runEmulatorCli, type ProfileName } from '../src/index.js';
import { asObj, emulator, type Api, type Obj } from './helpers.js';

const NOW = new Date('2026-06-15T12:30:00Z');
const MISSING = '00000000-0000-4000-8000-000000000000';
const REPORT = {
  DashboardGuid: DEMO.dashboard,
  FileType: 'PDFAttachment',
  IsActive: true,
  Schedule: { ScheduleType: 'Daily', Time: '08:00:00' },
  Recipients: { ExtraEmailAddresses: ['ops@example.com'] },
};

const withProfile = (profile: ProfileName, seed: 'demo' | 'empty' = 'empty'): Promise<Api> => emulator({ profile, seed, now: () => NOW });

describe('profile selection', () => {
  it('reads MONSYNC_EMULATOR_PROFILE, defaulting to default, and names the choices when it is wrong', () => {
    expect(profileFromEnv({})).toBe('default');
    expect(profileFromEnv({ MONSYNC_EMULATOR_PROFILE: '' })).toBe('default');
    for (const name of PROFILE_NAMES) expect(profileFromEnv({ MONSYNC_EMULATOR_PROFILE: name })).toBe(name);
    expect(() => profileFromEnv({ MONSYNC_EMULATOR_PROFILE: 'loose' })).toThrow(/default, strict, published, lean, rate-limited/);
  });

  it('takes --profile on the command line and refuses an unknown one', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const bad = await runEmulatorCli(['--profile', 'loose'], { stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
    expect(bad).toBe(1);
    expect(err.join('')).toMatch(/--profile "loose" must be one of: default, strict, published, lean, rate-limited/);
    const controller = new AbortController();
    const code = runEmulatorCli(['--port', '0', '--profile', 'lean'], {
      stdout: (t) => out.push(t),
      signal: controller.signal,
      onListening: () => controller.abort(),
    });
    expect(await code).toBe(0);
    expect(out.join('')).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/v4\n {2}profile: lean\n/);
  });
});

describe('default', () => {
  it('answers creates 201 with the object, lists monitors as one bare array, errors as MessageList, DELETE /Monitor 204', async () => {
    const api = await withProfile('default');
    const sla = await api.post('/Sla', { Description: 'Gold', OperatorReponseTimeThreshold: 15 });
    expect(sla.status).toBe(201);
    expect(sla.body).toMatchObject({ SlaGuid: expect.any(String), OperatorReponseTimeThreshold: 15 });
    expect((await api.post('/Sla', { Description: 'Gold' })).status).toBe(409);
    const m = await api.createMonitor();
    const list = await api.get('/Monitor');
    expect(Array.isArray(list.json)).toBe(true);
    const missing = await api.get(`/Monitor/${MISSING}`);
    expect(missing.json).toEqual({ Messages: [{ Message: `Monitor ${MISSING} does not exist.` }] });
    const deleted = await api.delete(`/Monitor/${String(m['MonitorGuid'])}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
  });
});

describe('strict', () => {
  it('refuses what the spec does not state (camelCase keys, Take=0) and pages GET /Monitor with Cursor', async () => {
    const api = await emulator({ profile: 'strict', pageSize: 2 });
    expect((await api.post('/Monitor', { Name: 'x', MonitorType: 'Https', checkFrequency: 5 })).status).toBe(400);
    for (let i = 0; i < 3; i++) await api.createMonitor();
    const first = await api.get('/Monitor');
    expect(first.body['Data']).toHaveLength(2);
    expect(first.cursors?.Next).toEqual(expect.any(String));
    expect((await api.get('/Monitor?Take=0')).status).toBe(400);
  });
});

describe('published', () => {
  it('drops spec-only fields silently and adds the load-time conditions the service adds', async () => {
    const api = await withProfile('published');
    const created = await api.post('/Monitor', { Name: 'Shop', MonitorType: 'Https', CheckFrequency: 5, CheckInterval: 5, ErrorConditions: [{ ErrorConditionType: 'ContentMatch', Value: 'ok' }] });
    expect(created.status).toBe(201);
    const read = await api.get(`/Monitor/${String(created.body['MonitorGuid'])}`);
    expect(read.body).not.toHaveProperty('CheckFrequency');
    expect(read.body['CheckInterval']).toBe(5);
    expect((read.body['ErrorConditions'] as Obj[]).map((ec) => ec['ErrorConditionType'])).toEqual(['ContentMatch', 'LoadTimeLimit1', 'LoadTimeLimit2']);
    const sla = await api.post('/Sla', { Description: 'Gold', OperatorResponseTimeThreshold: 15 });
    expect(sla.status).toBe(201);
    expect(sla.body).not.toHaveProperty('OperatorResponseTimeThreshold');
    expect(sla.body['OperatorReponseTimeThreshold']).toBeNull();
  });

  it('refuses the spec-only spellings with 400, answers writes 204, members as {MonitorGuid}, and has no 409 on SLA names', async () => {
    const api = await withProfile('published', 'demo');
    const spec = await api.post('/ScheduledReport', { ...REPORT, FileType: 'PDFDownloadLink' });
    expect(spec.status).toBe(400);
    expect(spec.error).toMatch(/PDFLink/);
    expect((await api.post('/ScheduledReport', { ...REPORT, FileType: 'PDFLink', SelectedPeriod: 'Last7DaysExcl' })).status).toBe(201);
    expect((await api.get(`/Alert/Monitor/${String((await api.get('/Monitor')).list[0]?.['MonitorGuid'])}?PresetPeriod=${encodeURIComponent('Previous Day')}`)).status).toBe(400);
    const members = await api.get(`/MonitorGroup/${DEMO.groups.marketing}/Member`);
    expect(members.list.every((m) => Object.keys(m).join() === 'MonitorGuid')).toBe(true);
    const patched = await api.patch(`/Sla/${DEMO.slas.gold}`, { UptimeErrorThreshold: 99 });
    expect(patched.status).toBe(204);
    const putMonitor = await api.patch(`/Monitor/${String(members.list[0]?.['MonitorGuid'])}`, { IsActive: true });
    expect(putMonitor.status).toBe(204);
    expect(putMonitor.text).toBe('');
    expect((await api.post('/Sla', { Description: 'Gold' })).status).toBe(201);
  });
});

/** A day on which the monitor raised exactly one alert (the simulated history is deterministic for a fixed clock). */
async function dayWithOneAlert(api: Api, monitorGuid: string): Promise<string> {
  for (let back = 1; back <= 120; back++) {
    const day = new Date(NOW.getTime() - back * 86_400_000).toISOString().slice(0, 10);
    const res = await api.get(`/Alert/Monitor/${monitorGuid}?Start=${day}&End=${day}`);
    if (res.data.length === 1) return day;
  }
  throw new Error('no day with exactly one alert in the last 120 days');
}

describe('lean', () => {
  it('answers creates without the object (empty 201, bare GUID, 200 with the object), and refuses DELETE /Monitor with 405', async () => {
    const api = await withProfile('lean');
    const monitor = await api.post('/Monitor', { Name: 'Shop', MonitorType: 'Https' });
    expect(monitor.status).toBe(201);
    expect(monitor.text).toBe('');
    const sla = await api.post('/Sla', { Description: 'Gold' });
    expect(sla.status).toBe(201);
    expect(sla.json).toMatch(/^[0-9a-f-]{36}$/);
    expect((await api.post('/Sla', { Description: 'Gold' })).status).toBe(201);
    const group = await api.post('/MonitorGroup', { Description: 'Shop' });
    expect(group.status).toBe(200);
    expect(group.body['Description']).toBe('Shop');
    const guid = String((await api.get('/Monitor')).list[0]?.['MonitorGuid']);
    const refused = await api.delete(`/Monitor/${guid}`);
    expect(refused.status).toBe(405);
    expect((await api.get(`/Monitor/${guid}`)).status).toBe(200);
  });

  it('fills in defaults on create: load-time conditions, multi-step variables, the group a monitor was created into', async () => {
    const api = await withProfile('lean');
    const group = String((await api.post('/MonitorGroup', { Description: 'Shop' })).body['MonitorGroupGuid']);
    expect((await api.post(`/Monitor/MonitorGroup/${group}`, { Name: 'api', MonitorType: 'MultiStepApi' })).status).toBe(204);
    const m = asObj((await api.get('/Monitor')).list[0]);
    expect((m['ErrorConditions'] as Obj[]).map((ec) => ec['ErrorConditionType'])).toEqual(['LoadTimeLimit1', 'LoadTimeLimit2']);
    expect(m['PredefinedVariables']).toEqual([{ Key: 'environment', Value: 'production' }]);
    expect(m['MonitorGroups']).toEqual([group]);
  });

  it('answers a single alert without the envelope, and gives cursors no Self', async () => {
    const api = await withProfile('lean', 'demo');
    const blog = String((await api.get('/Monitor')).list.find((m) => m['Name'] === 'Blog')?.['MonitorGuid']);
    const reference = await withProfile('default', 'demo');
    const day = await dayWithOneAlert(reference, blog);
    const single = await api.get(`/Alert/Monitor/${blog}?Start=${day}&End=${day}`);
    expect(single.body).not.toHaveProperty('Data');
    expect(single.body).toMatchObject({ Type: 'Alert', Attributes: { MonitorGuid: blog } });
    const paged = await api.get(`/Alert/MonitorGroup/${SEEDED.allMonitorsGroup}?Take=1&PresetPeriod=Last7Days`);
    expect(paged.cursors?.Next).toEqual(expect.any(String));
    expect(paged.cursors).not.toHaveProperty('Self');
  });

  it('reads the /Register parameters from the body, not the query', async () => {
    const api = await withProfile('lean');
    const login = { user: SEEDED.admin.email, password: SEEDED.admin.loginPassword };
    const fromQuery = await api.request('POST', `/Register?operatorGuid=${MISSING}`, undefined, login);
    expect(fromQuery.status).toBe(200);
    const fromBody = await api.post('/Register', { operatorGuid: MISSING }, login);
    expect(fromBody.status).toBe(400);
  });
});

describe('rate-limited', () => {
  it('answers a seeded share of requests 429 with Retry-After, the same ones for the same seed', async () => {
    const statuses = async (): Promise<number[]> => {
      const api = await emulator({ profile: 'rate-limited' });
      const out: number[] = [];
      for (let i = 0; i < 100; i++) {
        const res = await api.get('/Timezone');
        if (res.status === 429) expect(res.headers.get('retry-after')).toBe('1');
        out.push(res.status);
      }
      return out;
    };
    const first = await statuses();
    const limited = first.filter((s) => s === 429).length;
    expect(limited).toBeGreaterThan(0);
    expect(limited).toBeLessThan(25);
    expect(first.every((s) => s === 200 || s === 429)).toBe(true);
    expect(await statuses()).toEqual(first);
  });

  it('takes the share as an option', async () => {
    const api = await emulator({ profile: 'rate-limited', rateLimit: { share: 1, retryAfterSeconds: 3 } });
    const res = await api.get('/Timezone');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(api.control.requestLog().entries[0]?.fault).toBe('rate-limit');
  });

  it('keeps a scripted fault after a write for a write that gets through: a refused create is not applied, then lost', async () => {
    const api = await emulator({ profile: 'rate-limited', rateLimit: { share: 1 } });
    api.control.setFaults({ scripted: [{ method: 'POST', route: '/VaultSection', count: 1, kind: 'applied-then-reset' }] });
    const res = await api.post('/VaultSection', { Name: 'Refused' });
    expect(res.status).toBe(429);
    expect(api.control.requestLog().entries.map((e) => e.fault)).toEqual(['rate-limit']);
    expect(api.control.faults().scripted).toEqual([{ method: 'POST', route: '/VaultSection', count: 1, kind: 'applied-then-reset' }]);
    expect(api.control.dump().vaultSections.map((s) => s.Name)).not.toContain('Refused');
  });
});

describe('a request rate (--rate, any profile)', () => {
  it('lets a burst through, then answers 429 with the Retry-After the bucket implies, and refills with time', async () => {
    let now = NOW.getTime();
    const api = await emulator({ profile: 'published', requestRate: { perSecond: 0.5, burst: 3 }, now: () => new Date(now) });
    const burst = [await api.get('/Timezone'), await api.get('/Timezone'), await api.get('/Timezone')];
    expect(burst.map((r) => r.status)).toEqual([200, 200, 200]);
    const refused = await api.get('/Timezone');
    expect(refused.status).toBe(429);
    // An empty bucket at half a token a second: the next token is 2 s away.
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(api.control.requestLog().entries.at(-1)?.fault).toBe('rate-limit');
    now += 1000;
    expect((await api.get('/Timezone')).status).toBe(429);
    now += 1000;
    expect((await api.get('/Timezone')).status).toBe(200);
    expect((await api.get('/Timezone')).status).toBe(429);
  });

  it('does not spend a token on a refused request: a client that waits the Retry-After out gets through', async () => {
    let now = NOW.getTime();
    const api = await emulator({ requestRate: { perSecond: 10, burst: 1 }, now: () => new Date(now) });
    expect((await api.get('/Timezone')).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await api.get('/Timezone')).status).toBe(429);
    now += 100;
    expect((await api.get('/Timezone')).status).toBe(200);
  });

  it('takes --rate and --burst on the command line and refuses a burst without a rate', async () => {
    const err: string[] = [];
    expect(await runEmulatorCli(['--burst', '5'], { stderr: (t) => err.push(t) })).toBe(1);
    expect(err.join('')).toMatch(/--burst limits the --rate bucket: give --rate N too/);
  });
});
