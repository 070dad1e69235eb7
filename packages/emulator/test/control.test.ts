import { mkdtempSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEEDED, startEmulator } from '../src/index.js';
import { emulator } from './helpers.js';

describe('control API', () => {
  it('counts API requests per method and route, with a total, and clears the log', async () => {
    const api = await emulator({ seed: 'demo' });
    await api.get('/Monitor');
    await api.get('/monitor');
    const m = await api.createMonitor();
    await api.get(`/Monitor/${String(m['MonitorGuid'])}`);
    await api.get('/Monitor', null);
    const log = api.control.requestLog();
    expect(log.total).toBe(5);
    expect(log.counts).toEqual({ 'GET /Monitor': 3, 'POST /Monitor': 1, 'GET /Monitor/{monitorGuid}': 1 });
    expect(log.entries.map((e) => e.status)).toEqual([200, 200, 201, 200, 401]);
    const http = await api.controlRequest('GET', '/log');
    expect(http.body['total']).toBe(5);
    expect((await api.controlRequest('DELETE', '/log')).status).toBe(204);
    expect(api.control.requestLog().total).toBe(0);
  });

  it('is not subject to authentication and is not logged', async () => {
    const api = await emulator();
    const res = await api.controlRequest('GET', '/state');
    expect(res.status).toBe(200);
    expect(res.body['format']).toBe('monsync-emulator-state');
    expect(api.control.requestLog().total).toBe(0);
  });

  it('resets to a seed over HTTP', async () => {
    const api = await emulator();
    await api.createMonitor();
    expect((await api.controlRequest('POST', '/reset', { seed: 'demo' })).status).toBe(204);
    expect((await api.get('/Monitor')).data).toHaveLength(13);
    await api.control.reset();
    expect((await api.get('/Monitor')).data).toHaveLength(0);
    expect((await api.controlRequest('POST', '/reset', { seed: 'bogus' })).status).toBe(400);
  });

  it('dumps and loads state, including over HTTP', async () => {
    const api = await emulator();
    const m = await api.createMonitor({ Name: 'kept' });
    const state = (await api.controlRequest('GET', '/state')).json;
    await api.control.reset();
    expect((await api.get('/Monitor')).data).toHaveLength(0);
    expect((await api.controlRequest('PUT', '/state', state)).status).toBe(204);
    const back = await api.get(`/Monitor/${String(m['MonitorGuid'])}`);
    expect(back.body['Name']).toBe('kept');
    expect((await api.controlRequest('PUT', '/state', { hello: 1 })).status).toBe(400);
  });

  it('edits as another operator, so LastModifiedByOperatorId shows who drifted', async () => {
    let t = new Date('2026-02-01T10:00:00Z');
    const api = await emulator({ now: () => t });
    const m = await api.createMonitor({ Name: 'web' });
    t = new Date('2026-02-02T11:30:00Z');
    const res = await api.controlRequest('POST', '/act-as', { operator: SEEDED.viewer.email, method: 'PATCH', path: `/v4/Monitor/${String(m['MonitorGuid'])}`, body: { IsActive: false } });
    // The viewer is no administrator: act-as keeps the rules.
    expect(res.body['status']).toBe(403);
    await api.control.reset('demo');
    const blog = (await api.get('/Monitor')).data.find((x) => x['Name'] === 'Blog');
    const drift = await api.control.actAs(SEEDED.colleague.email, { method: 'PATCH', path: `/Monitor/${String(blog?.['MonitorGuid'])}`, body: { CheckInterval: 30 } });
    expect(drift.status).toBe(200);
    const after = await api.get(`/Monitor/${String(blog?.['MonitorGuid'])}`);
    expect(after.json).toMatchObject({ CheckInterval: 30, LastModifiedByOperatorId: SEEDED.colleague.guid, LastModifiedDate: '2026-02-02T11:30:00' });
    expect(api.control.requestLog().counts['PATCH /Monitor/{monitorGuid}']).toBeUndefined();
  });

  it('deletes a monitor as the web application does, with its memberships, also where the API has no DELETE /Monitor', async () => {
    const api = await emulator({ profile: 'lean', seed: 'demo' });
    const monitors = (await api.get('/Monitor')).data;
    const blog = String(monitors.find((x) => x['Name'] === 'Blog')?.['MonitorGuid']);
    const memberGuids = async (): Promise<string[]> => {
      const found: string[] = [];
      for (const group of (await api.get('/MonitorGroup')).data) {
        for (const m of (await api.get(`/MonitorGroup/${String(group['MonitorGroupGuid'])}/Member`)).data) found.push(String(m['MonitorGuid']));
      }
      return found;
    };
    expect(await memberGuids()).toContain(blog);
    // The lean profile follows the spec, which lists no DELETE /Monitor: act-as is the API, refused as it is.
    expect((await api.control.actAs(SEEDED.admin.email, { method: 'DELETE', path: `/Monitor/${blog}` })).status).toBe(405);
    const removed = await api.controlRequest('POST', '/remove-monitor', { monitorGuid: blog });
    expect(removed.status).toBe(204);
    expect((await api.get('/Monitor')).data.map((x) => x['Name'])).toEqual(monitors.map((x) => x['Name']).filter((name) => name !== 'Blog'));
    expect(await memberGuids()).not.toContain(blog);
    expect((await api.controlRequest('POST', '/remove-monitor', { monitorGuid: blog })).status).toBe(400);
  });

  it('grants view-data permission over HTTP', async () => {
    const api = await emulator();
    const m = await api.createMonitor();
    const res = await api.controlRequest('POST', '/monitor-view', { operator: SEEDED.viewer.guid, monitorGuids: [m['MonitorGuid']] });
    expect(res.status).toBe(204);
    expect((await api.get('/Monitor', { user: 'viewer', password: 'viewer-password' })).data).toHaveLength(1);
  });

  const external = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

  it.skipIf(!external)('refuses control requests from a non-loopback address while the API still answers', async () => {
    const api = await emulator({ host: '0.0.0.0' });
    const base = `http://${String(external)}:${api.emu.port}`;
    const control = await fetch(`${base}/__emulator/state`);
    expect(control.status).toBe(403);
    const res = await api.get(`${base}/v4/Monitor`);
    expect(res.status).toBe(200);
  });

  it('answers 404 for an unknown control endpoint', async () => {
    const api = await emulator();
    expect((await api.controlRequest('GET', '/nope')).status).toBe(404);
  });
});

describe('faults', () => {
  it('fails the next N scripted requests with 503, then recovers', async () => {
    const api = await emulator();
    api.control.setFaults({ scripted: [{ method: 'GET', route: '/Monitor', count: 2, kind: '503' }] });
    expect((await api.get('/Monitor')).status).toBe(503);
    expect((await api.get('/Monitor')).status).toBe(503);
    expect((await api.get('/Monitor')).status).toBe(200);
    expect(api.control.requestLog().entries.map((e) => e.fault ?? '-')).toEqual(['503', '503', '-']);
  });

  it('answers 429 with a configurable Retry-After', async () => {
    const api = await emulator();
    api.control.setFaults({ retryAfterSeconds: 0, scripted: [{ route: 'GET /Monitor', count: 1, kind: '429' }] });
    const res = await api.get('/Monitor');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('0');
    const viaHttp = await api.controlRequest('PUT', '/faults', { retryAfterSeconds: 1, scripted: [{ method: 'GET', route: '/Monitor', count: 1, kind: '429' }] });
    expect(viaHttp.status).toBe(200);
    expect((await api.get('/Monitor')).headers.get('retry-after')).toBe('1');
  });

  it('resets the connection without applying the write', async () => {
    const api = await emulator();
    api.control.setFaults({ scripted: [{ method: 'POST', route: '/Monitor', count: 1, kind: 'reset' }] });
    await expect(api.post('/Monitor', { Name: 'x', MonitorType: 'Https' })).rejects.toThrow();
    expect((await api.get('/Monitor')).data).toHaveLength(0);
  });

  it('applies the write and then drops the connection (applied-then-reset)', async () => {
    const api = await emulator();
    api.control.setFaults({ scripted: [{ method: 'POST', route: '/Monitor', count: 1, kind: 'applied-then-reset' }] });
    await expect(api.post('/Monitor', { Name: 'ghost', MonitorType: 'Https' })).rejects.toThrow();
    const list = await api.get('/Monitor');
    expect(list.data.map((m) => m['Name'])).toEqual(['ghost']);
  });

  it('draws the same fault sequence for the same seed', async () => {
    const run = async (seed: number): Promise<string> => {
      const api = await emulator({ faultRate: 0.5, faultSeed: seed, faultKinds: ['500', '503', '429'] });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await api.get('/Monitor')).status);
      return statuses.join(',');
    };
    const a = await run(42);
    const b = await run(42);
    const c = await run(7);
    expect(a).toBe(b);
    expect(a).not.toBe(c);
    expect(a.split(',').some((s) => s !== '200')).toBe(true);
    expect(a.split(',')).toContain('200');
  });

  it('never injects faults into the control API', async () => {
    const api = await emulator({ faultRate: 1, faultKinds: ['500'] });
    expect((await api.get('/Monitor')).status).toBe(500);
    expect((await api.controlRequest('GET', '/log')).status).toBe(200);
  });

  it('answers a scripted malformed body without carrying the request out, then answers as before', async () => {
    const api = await emulator();
    await api.post('/Monitor', { Name: 'kept', MonitorType: 'Https' });
    api.control.setFaults({ scripted: [{ route: 'GET /Monitor', count: 1, kind: 'answer', body: [null, 1, { Name: 'no guid' }] }] });
    const malformed = await api.get('/Monitor');
    expect([malformed.status, malformed.json]).toEqual([200, [null, 1, { Name: 'no guid' }]]);
    expect((await api.get('/Monitor')).data.map((m) => m['Name'])).toEqual(['kept']);
    expect(api.control.requestLog().entries.map((e) => e.fault ?? '-')).toEqual(['-', 'answer', '-']);
    // A write answered this way is not carried out.
    api.control.setFaults({ scripted: [{ route: 'POST /Monitor', count: 1, kind: 'answer', body: {} }] });
    await api.post('/Monitor', { Name: 'never', MonitorType: 'Https' });
    expect((await api.get('/Monitor')).data.map((m) => m['Name'])).toEqual(['kept']);
  });

  it('takes a body with kind answer only, and only there', async () => {
    const api = await emulator();
    expect(() => api.control.setFaults({ scripted: [{ route: 'GET /Monitor', count: 1, kind: 'answer' }] })).toThrow(/"body" goes with kind "answer"/);
    expect(() => api.control.setFaults({ scripted: [{ route: 'GET /Monitor', count: 1, kind: '503', body: [] }] })).toThrow(/"body" goes with kind "answer"/);
    expect((await api.controlRequest('PUT', '/faults', { kinds: ['answer'] })).status).toBe(400);
  });

  it('rejects invalid fault settings', async () => {
    const api = await emulator();
    expect(() => api.control.setFaults({ rate: 2 })).toThrow(/from 0 to 1/);
    expect((await api.controlRequest('PUT', '/faults', { kinds: ['teapot'] })).status).toBe(400);
  });
});

describe('held requests', () => {
  it('holds the requests named before they are carried out, lets others through, and carries them out on release', async () => {
    const api = await emulator();
    api.control.hold({ method: 'POST', route: '/Monitor' });
    const creating = api.post('/Monitor', { Name: 'held', MonitorType: 'Https' });
    while (api.control.held() === 0) await new Promise((resolve) => setImmediate(resolve));
    expect((await api.get('/Monitor')).data).toEqual([]);
    expect(api.control.release()).toBe(1);
    expect((await creating).status).toBe(201);
    expect((await api.get('/Monitor')).data.map((m) => m['Name'])).toEqual(['held']);
    // Released, nothing is held any more.
    expect((await api.post('/Monitor', { Name: 'not held', MonitorType: 'Https' })).status).toBe(201);
    expect(api.control.held()).toBe(0);
  });

  it('is set, counted and released over HTTP, and refuses to hold every request', async () => {
    const api = await emulator();
    expect((await api.controlRequest('PUT', '/hold', { route: 'DELETE /Monitor/{monitorGuid}' })).status).toBe(204);
    const monitor = await api.createMonitor();
    const deleting = api.delete(`/Monitor/${String(monitor['MonitorGuid'])}`);
    while ((await api.controlRequest('GET', '/hold')).body['held'] === 0) await new Promise((resolve) => setImmediate(resolve));
    expect((await api.get('/Monitor')).data).toHaveLength(1);
    expect((await api.controlRequest('DELETE', '/hold')).body).toEqual({ released: 1 });
    expect((await deleting).status).toBe(204);
    expect((await api.controlRequest('PUT', '/hold', {})).status).toBe(400);
  });
});

describe('latency', () => {
  it('still answers normally with latency set, and rejects a negative latency', async () => {
    const api = await emulator({ latencyMs: 20 });
    expect((await api.get('/Monitor')).status).toBe(200);
    expect(() => api.control.setLatency(-1)).toThrow(/non-negative/);
    expect((await api.controlRequest('PUT', '/latency', { ms: 0 })).status).toBe(204);
  });
});

describe('persisted state', () => {
  it('writes the state file at start and after every write, and loads it on the next start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'monsync-emu-'));
    const statePath = join(dir, 'state.json');
    const first = await startEmulator({ statePath, seed: 'demo' });
    expect(existsSync(statePath)).toBe(true);
    const res = await fetch(`${first.url}/Monitor`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('demo:demo-password').toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ Name: 'persisted', MonitorType: 'Https' }),
    });
    expect(res.status).toBe(201);
    const onDisk = JSON.parse(readFileSync(statePath, 'utf8')) as { monitors: Array<{ fields: { Name: string } }> };
    expect(onDisk.monitors.map((m) => m.fields.Name)).toContain('persisted');
    await first.close();
    // No temp files are left behind.
    expect(readdirSync(dir)).toEqual(['state.json']);
    const second = await startEmulator({ statePath, seed: 'empty' });
    try {
      expect(second.control.dump().monitors.map((m) => m.fields['Name'])).toContain('persisted');
    } finally {
      await second.close();
    }
  });

  it('saves every monitor change, not the monitor as it was at an earlier save', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'monsync-emu-'));
    const statePath = join(dir, 'state.json');
    const emu = await startEmulator({ statePath, seed: 'demo' });
    const call = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
      const res = await fetch(`${emu.url}${path}`, {
        method,
        headers: { authorization: `Basic ${Buffer.from('demo:demo-password').toString('base64')}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      expect(res.ok).toBe(true);
      const text = await res.text();
      return text ? (JSON.parse(text) as Record<string, unknown>) : {};
    };
    const onDisk = (): unknown => JSON.parse(readFileSync(statePath, 'utf8'));
    try {
      const a = String((await call('POST', '/Monitor', { Name: 'a', MonitorType: 'Https' }))['MonitorGuid']);
      const b = String((await call('POST', '/Monitor', { Name: 'b', MonitorType: 'Https' }))['MonitorGuid']);
      expect(onDisk()).toEqual(emu.control.dump());
      await call('PATCH', `/Monitor/${a}`, { Name: 'a renamed' });
      expect(onDisk()).toEqual(emu.control.dump());
      await call('PUT', `/Monitor/${b}`, { Name: 'b replaced', MonitorType: 'Dns' });
      await call('POST', `/MonitorGroup/${SEEDED.allMonitorsGroup}/StopAllMonitors`);
      expect(onDisk()).toEqual(emu.control.dump());
      await call('DELETE', `/Monitor/${a}`);
      const saved = onDisk() as { monitors: Array<{ fields: Record<string, unknown> }> };
      expect(saved).toEqual(emu.control.dump());
      expect(saved.monitors.find((m) => m.fields['MonitorGuid'] === b)?.fields).toMatchObject({ Name: 'b replaced', MonitorType: 'Dns', IsActive: false });
      expect(saved.monitors.some((m) => m.fields['MonitorGuid'] === a)).toBe(false);
    } finally {
      await emu.close();
    }
  });

  it('refuses to start from a state file that is not valid JSON, naming the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'monsync-emu-'));
    const statePath = join(dir, 'broken.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(statePath, '{"format": ');
    await expect(startEmulator({ statePath })).rejects.toThrow(/broken\.json: the state file is not valid JSON/);
  });
});

describe('large accounts over the control API', () => {
  it('loads a state of 100,000 monitors and 5,000 groups through PUT /__emulator/state', async () => {
    const api = await emulator();
    const state = api.control.dump();
    const monitors = 100_000;
    const groups = 5_000;
    const guid = (kind: number, i: number): string => `${String(kind).padStart(8, '0')}-0000-4000-8000-${String(i).padStart(12, '0')}`;
    for (let i = 0; i < monitors; i++) {
      state.monitors.push({
        seq: i + 1,
        fields: { MonitorGuid: guid(1, i), Name: `monitor ${i}`, MonitorType: 'Https', MonitorMode: 'Production', IsActive: true, GenerateAlert: true, UserAgent: 'ChromeLatest', ErrorConditions: [{ ErrorConditionType: 'HttpStatus', Value: '200' }], PredefinedVariables: [], Url: `https://site-${i}.example.com/` },
      });
    }
    const perGroup = monitors / groups;
    for (let g = 0; g < groups; g++) {
      state.monitorGroups.push({ fields: { MonitorGroupGuid: guid(2, g), Description: `group ${g}`, IsAll: false, IsQuotaUnlimited: false }, members: Array.from({ length: perGroup }, (_, k) => guid(1, g * perGroup + k)) });
    }
    state.counters.monitorSeq = monitors;
    const body = JSON.stringify(state);
    // Well past the 8 MiB an API request may carry.
    expect(body.length).toBeGreaterThan(8 * 1024 * 1024);
    expect((await api.controlRequest('PUT', '/state', body)).status).toBe(204);
    expect((await api.get('/Monitor')).list).toHaveLength(monitors);
    expect((await api.get('/MonitorGroup')).list).toHaveLength(groups + 1);
    const last = await api.get(`/MonitorGroup/${guid(2, groups - 1)}/Member`);
    expect(last.list.map((m) => m['Name'])).toEqual(Array.from({ length: perGroup }, (_, k) => `monitor ${(groups - 1) * perGroup + k}`));
    // A generous limit for a shared machine: this test is about size, not speed.
  }, 120_000);

  it('still refuses an API request body over 8 MiB', async () => {
    const api = await emulator();
    const res = await api.post('/Monitor', { Name: 'x', MonitorType: 'Https', Notes: 'x'.repeat(9 * 1024 * 1024) });
    expect(res.status).toBe(413);
  });
});
