import { describe, expect, it } from 'vitest';
import { SEEDED } from '../src/index.js';
import { emulator, TIMESTAMP, VIEWER } from './helpers.js';

const FIXED = new Date('2026-03-04T05:06:07.891Z');

describe('monitor create', () => {
  it('assigns MonitorGuid, timestamps without milliseconds and the calling operator', async () => {
    const api = await emulator({ now: () => FIXED });
    const res = await api.post('/Monitor', { Name: 'Shop', MonitorType: 'Https' });
    expect(res.status).toBe(201);
    expect(res.body['MonitorGuid']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body['CreatedDate']).toBe('2026-03-04T05:06:07');
    expect(res.body['LastModifiedDate']).toBe('2026-03-04T05:06:07');
    expect(res.body['LastModifiedByOperatorId']).toBe(SEEDED.admin.guid);
  });

  it('fills the documented defaults for omitted fields', async () => {
    const api = await emulator();
    const res = await api.post('/Monitor', { Name: 'Shop', MonitorType: 'Https' });
    expect(res.json).toMatchObject({
      IsActive: true,
      GenerateAlert: true,
      ErrorConditions: [],
      PredefinedVariables: [],
      UserAgent: 'ChromeLatest',
      MonitorMode: 'Production',
    });
  });

  it('stores and returns unknown PascalCase fields', async () => {
    const api = await emulator();
    const created = await api.createMonitor({ Url: 'https://x.example', SomeFutureField: 5 });
    const res = await api.get(`/Monitor/${String(created['MonitorGuid'])}`);
    expect(res.body['Url']).toBe('https://x.example');
    expect(res.body['SomeFutureField']).toBe(5);
  });

  it('stores camelCase keys like any unknown field; the strict profile rejects them', async () => {
    const loose = await emulator();
    const kept = await loose.post('/Monitor', { Name: 'x', MonitorType: 'Https', members: ['a'] });
    expect(kept.status).toBe(201);
    expect(kept.body['members']).toEqual(['a']);
    const api = await emulator({ profile: 'strict' });
    const res = await api.post('/Monitor', { Name: 'x', MonitorType: 'Https', members: ['a'] });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.error)).toContain('members');
  });

  it('requires Name and MonitorType, listing every problem', async () => {
    const api = await emulator();
    const res = await api.post('/Monitor', { IsActive: 'yes' });
    expect(res.status).toBe(400);
    expect(res.error).toEqual(
      expect.arrayContaining(['Name is required.', 'MonitorType is required.', 'IsActive must be true or false.']),
    );
  });

  it('rejects a body that is not valid JSON with 400', async () => {
    const api = await emulator();
    const res = await api.post('/Monitor', '{"Name": ');
    expect(res.status).toBe(400);
    expect(res.error).toMatch(/not valid JSON/);
  });

  it.each([
    ['AlertOnLoadTimeLimit1', 'LoadTimeLimit1'],
    ['LoadTimeLimit1', 'LoadTimeLimit1'],
    ['AlertOnLoadTimeLimit2', 'LoadTimeLimit2'],
    ['LoadTimeLimit2', 'LoadTimeLimit2'],
    ['AlertOnMaximumBytes', 'TotalMaxBytes'],
    ['MaximumBytes', 'TotalMaxBytes'],
    ['AlertOnMinimumBytes', 'TotalMinBytes'],
    ['MinimumBytes', 'TotalMinBytes'],
    ['AlertOnMaximumSize', 'PageElementMaxSizeWithPercentage'],
    ['ElementMaximumSize', 'PageElementMaxSizeWithPercentage'],
    ['AlertOnPercentageFail', 'PageElementFailedWithPercentage'],
    ['FailedObjectPercentage', 'PageElementFailedWithPercentage'],
    ['ExpectedHttpStatusCode', 'HttpStatus'],
    ['ExpectedHttpStatusCodeSpecified', 'HttpStatus'],
  ])('strict: rejects the removed field %s with 400 naming ErrorConditions type %s', async (field, type) => {
    const api = await emulator({ profile: 'strict' });
    const res = await api.post('/Monitor', { Name: 'x', MonitorType: 'Https', [field]: 1 });
    expect(res.status).toBe(400);
    expect(res.error).toContain(field);
    expect(res.error).toContain(`ErrorConditionType "${type}"`);
  });

  it('drops removed fields silently, as fields the service no longer knows', async () => {
    const api = await emulator();
    const res = await api.post('/Monitor', { Name: 'x', MonitorType: 'Https', LoadTimeLimit1: 5, AlertOnLoadTimeLimit1: true });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).not.toContain('LoadTimeLimit1');
    const stored = await api.get(`/Monitor/${String(res.body['MonitorGuid'])}`);
    expect(Object.keys(stored.body)).not.toContain('AlertOnLoadTimeLimit1');
  });

  it('strict: rejects removed fields on PUT, PATCH and create-in-group too', async () => {
    const api = await emulator({ profile: 'strict' });
    const m = await api.createMonitor();
    const guid = String(m['MonitorGuid']);
    expect((await api.put(`/Monitor/${guid}`, { Name: 'x', MonitorType: 'Https', MaximumBytes: 5 })).status).toBe(400);
    expect((await api.patch(`/Monitor/${guid}`, { AlertOnMinimumBytes: true })).status).toBe(400);
    expect((await api.post(`/Monitor/MonitorGroup/${SEEDED.allMonitorsGroup}`, { Name: 'y', MonitorType: 'Https', ExpectedHttpStatusCode: 200 })).status).toBe(400);
  });

  it('never returns removed fields, even from a loaded state that still holds them', async () => {
    const api = await emulator({ seed: 'demo' });
    const state = api.control.dump();
    const first = state.monitors[0];
    if (!first) throw new Error('demo seed has monitors');
    first.fields['LoadTimeLimit1'] = 4000;
    first.fields['ExpectedHttpStatusCode'] = 200;
    await api.control.load(state);
    const res = await api.get(`/Monitor/${String(first.fields['MonitorGuid'])}`);
    expect(res.body).not.toHaveProperty('LoadTimeLimit1');
    expect(res.body).not.toHaveProperty('ExpectedHttpStatusCode');
    expect(res.body['Name']).toBe(first.fields['Name']);
  });

  it('validates ErrorConditions types and duplicates', async () => {
    const api = await emulator();
    const bad = await api.post('/Monitor', { Name: 'x', MonitorType: 'Https', ErrorConditions: [{ ErrorConditionType: 'Nope', Value: '1' }] });
    expect(bad.status).toBe(400);
    const dup = await api.post('/Monitor', {
      Name: 'x',
      MonitorType: 'Https',
      ErrorConditions: [
        { ErrorConditionType: 'HttpStatus', Value: '200' },
        { ErrorConditionType: 'HttpStatus', Value: '201' },
      ],
    });
    expect(dup.status).toBe(400);
    const good = await api.post('/Monitor', {
      Name: 'x',
      MonitorType: 'FullPageCheck',
      ErrorConditions: [{ ErrorConditionType: 'PageElementFailedWithPercentage', Value: '1', Percentage: '5', Effect: 'Error' }],
    });
    expect(good.status).toBe(201);
    expect(good.body['ErrorConditions']).toEqual([{ ErrorConditionType: 'PageElementFailedWithPercentage', Value: '1', Percentage: '5', Effect: 'Error' }]);
  });

  it('rejects PredefinedVariables[].Sensitive for multi-step API monitors only', async () => {
    const api = await emulator();
    const vars = [{ Key: 'token', Value: 'x', Sensitive: true }];
    const multi = await api.post('/Monitor', { Name: 'api', MonitorType: 'MultiStepApi', PredefinedVariables: vars });
    expect(multi.status).toBe(400);
    expect(multi.error).toMatch(/Sensitive is obsolete/);
    const other = await api.post('/Monitor', { Name: 'coll', MonitorType: 'PostmanApi', PredefinedVariables: vars });
    expect(other.status).toBe(201);
  });

  it('rejects a vault reference to an item that does not exist', async () => {
    const api = await emulator();
    const res = await api.post('/Monitor', {
      Name: 'x',
      MonitorType: 'PostmanApi',
      PredefinedVariables: [{ Key: 'pw', Value: '{{vault:00000000-0000-4000-8000-000000000000}}' }],
    });
    expect(res.status).toBe(400);
    expect(res.error).toMatch(/does not exist/);
  });
});

describe('bearer tokens', () => {
  const CANARY = 'CANARY-7f3a9c-bearer';

  it('accepts a bearer token on a multi-step API monitor and never returns it from any endpoint', async () => {
    const api = await emulator();
    const created = await api.post('/Monitor', { Name: 'api', MonitorType: 'MultiStepApi', BearerToken: CANARY });
    expect(created.status).toBe(201);
    const guid = String(created.body['MonitorGuid']);
    const reads = [
      created,
      await api.get(`/Monitor/${guid}`),
      await api.get('/Monitor'),
      await api.get(`/Monitor/MonitorGroup/${SEEDED.allMonitorsGroup}`),
      await api.get(`/MonitorGroup/${SEEDED.allMonitorsGroup}/Member`),
      await api.patch(`/Monitor/${guid}`, { Name: 'api2' }),
    ];
    for (const r of reads) {
      expect([200, 201]).toContain(r.status);
      expect(r.text).not.toContain(CANARY);
      expect(r.text).not.toContain('BearerToken');
    }
    expect(JSON.stringify(api.control.requestLog())).not.toContain(CANARY);
  });

  it('keeps the token when PUT or PATCH omit it and clears it on null', async () => {
    const api = await emulator();
    const created = await api.post('/Monitor', { Name: 'api', MonitorType: 'MultiStepApi', BearerToken: CANARY });
    const guid = String(created.body['MonitorGuid']);
    await api.put(`/Monitor/${guid}`, { Name: 'api', MonitorType: 'MultiStepApi' });
    const stored = () => api.control.dump().monitors.find((m) => m.fields['MonitorGuid'] === guid)?.fields['BearerToken'];
    expect(stored()).toBe(CANARY);
    await api.patch(`/Monitor/${guid}`, { BearerToken: null });
    expect(stored()).toBeUndefined();
  });

  it('rejects a bearer token on a monitor that is not a multi-step API monitor', async () => {
    const api = await emulator();
    const res = await api.post('/Monitor', { Name: 'web', MonitorType: 'Https', BearerToken: CANARY });
    expect(res.status).toBe(400);
    expect(res.text).not.toContain(CANARY);
  });
});

describe('monitor replace, patch and delete', () => {
  it('PUT replaces: omitted fields return to defaults and unknown fields not sent disappear', async () => {
    let t = new Date('2026-01-01T00:00:00Z');
    const api = await emulator({ now: () => t });
    const m = await api.createMonitor({ Name: 'a', IsActive: false, Url: 'https://a.example', UserAgent: 'EdgeLatest' });
    t = new Date('2026-01-02T00:00:00Z');
    const res = await api.put(`/Monitor/${String(m['MonitorGuid'])}`, { Name: 'b', MonitorType: 'Http' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ Name: 'b', MonitorType: 'Http', IsActive: true, UserAgent: 'ChromeLatest' });
    expect(res.body['Url']).toBeUndefined();
    expect(res.body['CreatedDate']).toBe('2026-01-01T00:00:00');
    expect(res.body['LastModifiedDate']).toBe('2026-01-02T00:00:00');
  });

  it('PATCH merges: fields not sent keep their values', async () => {
    const api = await emulator();
    const m = await api.createMonitor({ Name: 'a', Url: 'https://a.example', ErrorConditions: [{ ErrorConditionType: 'HttpStatus', Value: '200' }] });
    const res = await api.patch(`/Monitor/${String(m['MonitorGuid'])}`, { IsActive: false });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ Name: 'a', Url: 'https://a.example', IsActive: false, ErrorConditions: [{ ErrorConditionType: 'HttpStatus', Value: '200' }] });
  });

  it('lists each change at once, in /Monitor and in group member listings, after listings were read', async () => {
    const api = await emulator();
    const m = await api.createMonitor({ Name: 'a', Url: 'https://a.example' });
    const guid = String(m['MonitorGuid']);
    const group = String((await api.post('/MonitorGroup', { Description: 'g' })).body['MonitorGroupGuid']);
    await api.post(`/MonitorGroup/${group}/Member/${guid}`);
    const listed = async (): Promise<Array<Record<string, unknown>>> => [(await api.get('/Monitor')).data[0] ?? {}, (await api.get(`/MonitorGroup/${group}/Member`)).list[0] ?? {}];
    expect((await listed()).map((x) => x['Url'])).toEqual(['https://a.example', 'https://a.example']);
    await api.patch(`/Monitor/${guid}`, { Url: 'https://b.example' });
    expect((await listed()).map((x) => x['Url'])).toEqual(['https://b.example', 'https://b.example']);
    await api.post(`/MonitorGroup/${group}/StopAllMonitors`);
    expect((await listed()).map((x) => x['IsActive'])).toEqual([false, false]);
    await api.put(`/Monitor/${guid}`, { Name: 'renamed', MonitorType: 'Https' });
    expect((await listed()).map((x) => [x['Name'], x['Url'], x['IsActive']])).toEqual([
      ['renamed', undefined, true],
      ['renamed', undefined, true],
    ]);
  });

  it('rejects a body MonitorGuid that differs from the path', async () => {
    const api = await emulator();
    const m = await api.createMonitor();
    const res = await api.patch(`/Monitor/${String(m['MonitorGuid'])}`, { MonitorGuid: '11111111-1111-4111-8111-111111111111' });
    expect(res.status).toBe(400);
  });

  it('ignores read-only fields sent back from a GET', async () => {
    const api = await emulator();
    const m = await api.createMonitor();
    const res = await api.put(`/Monitor/${String(m['MonitorGuid'])}`, { ...m, CreatedDate: '1999-01-01T00:00:00', Name: 'renamed' });
    expect(res.status).toBe(200);
    expect(res.body['CreatedDate']).toBe(m['CreatedDate']);
    expect(res.body['Name']).toBe('renamed');
  });

  it('DELETE removes the monitor (204) and then answers 404', async () => {
    const api = await emulator();
    const m = await api.createMonitor();
    const guid = String(m['MonitorGuid']);
    expect((await api.delete(`/Monitor/${guid}`)).status).toBe(204);
    expect((await api.get(`/Monitor/${guid}`)).status).toBe(404);
    expect((await api.delete(`/Monitor/${guid}`)).status).toBe(404);
  });

  it('accepts names that are not unique', async () => {
    const api = await emulator();
    await api.createMonitor({ Name: 'same' });
    const res = await api.post('/Monitor', { Name: 'same', MonitorType: 'Https' });
    expect(res.status).toBe(201);
  });

  it('creates a monitor in a group and adds the membership', async () => {
    const api = await emulator();
    const g = await api.post('/MonitorGroup', { Description: 'Shop' });
    const res = await api.post(`/Monitor/MonitorGroup/${String(g.body['MonitorGroupGuid'])}`, { Name: 'x', MonitorType: 'Https' });
    expect(res.status).toBe(201);
    const members = await api.get(`/MonitorGroup/${String(g.body['MonitorGroupGuid'])}/Member`);
    expect(members.list.map((m) => m['MonitorGuid'])).toEqual([res.body['MonitorGuid']]);
    const inGroup = await api.get(`/Monitor/MonitorGroup/${String(g.body['MonitorGroupGuid'])}`);
    expect(inGroup.data.map((m) => m['MonitorGuid'])).toEqual([res.body['MonitorGuid']]);
  });

  it('answers 404 when creating in a group that does not exist', async () => {
    const api = await emulator();
    const res = await api.post('/Monitor/MonitorGroup/00000000-0000-4000-8000-000000000000', { Name: 'x', MonitorType: 'Https' });
    expect(res.status).toBe(404);
  });

  it('returns timestamps as YYYY-MM-DDTHH:MM:SS', async () => {
    const api = await emulator({ seed: 'demo' });
    const res = await api.get('/Monitor');
    for (const m of res.data) {
      expect(m.CreatedDate).toMatch(TIMESTAMP);
      expect(m.LastModifiedDate).toMatch(TIMESTAMP);
    }
  });
});

describe('monitor list paging (strict: paged with Cursor, as the spec says)', () => {
  it('default: answers one bare array, whatever Take or page size asks', async () => {
    const api = await emulator({ seed: 'demo', pageSize: 2 });
    const res = await api.get('/Monitor?Take=1');
    expect(Array.isArray(res.json)).toBe(true);
    expect(res.list).toHaveLength(13);
  });

  it('returns everything in one batch without Cursors when it fits', async () => {
    const api = await emulator({ seed: 'demo', profile: 'strict' });
    const res = await api.get('/Monitor');
    expect(res.data.length).toBe(13);
    expect(res.cursors).toBeUndefined();
  });

  it('pages by cursor with the configured page size, in creation order, without gaps or repeats', async () => {
    const api = await emulator({ pageSize: 3, profile: 'strict' });
    const created: string[] = [];
    for (let i = 0; i < 10; i++) created.push(String((await api.createMonitor({ Name: `m${i}` }))['MonitorGuid']));
    const { items, requests } = await api.listAllMonitors();
    expect(requests).toBe(4);
    expect(items.map((m) => m['MonitorGuid'])).toEqual(created);
  });

  it('gives the last batch of a paged listing Cursors.Self, which re-fetches it, and no Next', async () => {
    const api = await emulator({ pageSize: 3, profile: 'strict' });
    for (let i = 0; i < 7; i++) await api.createMonitor({ Name: `m${i}` });
    const first = await api.get('/Monitor');
    const second = await api.get(`/Monitor?Cursor=${encodeURIComponent(String(first.cursors?.Next))}`);
    const last = await api.get(`/Monitor?Cursor=${encodeURIComponent(String(second.cursors?.Next))}`);
    expect(last.data.map((m) => m['Name'])).toEqual(['m6']);
    expect(last.cursors?.Next).toBeUndefined();
    const self = String(last.cursors?.Self);
    expect(self.length).toBeGreaterThan(40);
    const again = await api.get(`/Monitor?Cursor=${encodeURIComponent(self)}`);
    expect(again.data.map((m) => m['Name'])).toEqual(['m6']);
    expect(again.cursors?.Next).toBeUndefined();
  });

  it('honours Take and gives long opaque cursors; Self re-fetches the same batch', async () => {
    const api = await emulator({ seed: 'demo', profile: 'strict' });
    const first = await api.get('/Monitor?Take=5');
    expect(first.data).toHaveLength(5);
    const Next = String(first.cursors?.Next);
    const Self = String(first.cursors?.Self);
    expect(Next.length).toBeGreaterThan(40);
    expect(Next).not.toMatch(/^\d+$/);
    const again = await api.get(`/Monitor?Cursor=${encodeURIComponent(Self)}`);
    expect(again.data.map((m) => m['Name'])).toEqual(first.data.map((m) => m['Name']));
    const second = await api.get(`/Monitor?Cursor=${encodeURIComponent(Next)}`);
    expect(second.data[0]?.['Name']).toBe('Blog');
  });

  it.each(['0', '101', '-1', 'abc', '2.5'])('rejects Take=%s with 400', async (take) => {
    const api = await emulator({ profile: 'strict' });
    const res = await api.get(`/Monitor?Take=${take}`);
    expect(res.status).toBe(400);
    expect(res.error).toMatch(/Take/);
  });

  it('accepts Take=1 and Take=100', async () => {
    const api = await emulator({ seed: 'demo', profile: 'strict' });
    expect((await api.get('/Monitor?Take=1')).data).toHaveLength(1);
    expect((await api.get('/Monitor?Take=100')).data).toHaveLength(13);
  });

  it('rejects old-format numeric cursors and altered cursors with 400', async () => {
    const api = await emulator({ seed: 'demo', profile: 'strict' });
    expect((await api.get('/Monitor?Cursor=12345')).status).toBe(400);
    const next = String((await api.get('/Monitor?Take=2')).cursors?.Next);
    const altered = `${next.slice(0, 10)}${next[10] === 'A' ? 'B' : 'A'}${next.slice(11)}`;
    const res = await api.get(`/Monitor?Cursor=${encodeURIComponent(altered)}`);
    expect(res.status).toBe(400);
  });

  it('rejects a cursor from another list', async () => {
    const api = await emulator({ seed: 'demo', profile: 'strict' });
    const next = String((await api.get('/Monitor?Take=2')).cursors?.Next);
    const res = await api.get(`/Monitor/MonitorGroup/${SEEDED.allMonitorsGroup}?Cursor=${encodeURIComponent(next)}`);
    expect(res.status).toBe(400);
  });

  it('answers a batch asked for again with what the monitors are now: a change, a delete and a create since it was first answered all show', async () => {
    const api = await emulator({ pageSize: 2, profile: 'strict' });
    const guids: string[] = [];
    for (let i = 0; i < 5; i++) guids.push(String((await api.createMonitor({ Name: `m${i}` }))['MonitorGuid']));
    const first = await api.get('/Monitor');
    const second = await api.get(`/Monitor?Cursor=${encodeURIComponent(String(first.cursors?.Next))}`);
    const self = encodeURIComponent(String(second.cursors?.Self));
    expect(second.data.map((m) => m['Name'])).toEqual(['m2', 'm3']);

    expect((await api.patch(`/Monitor/${guids[2] ?? ''}`, { Name: 'm2 renamed' })).status).toBeLessThan(300);
    expect((await api.get(`/Monitor?Cursor=${self}`)).data.map((m) => m['Name'])).toEqual(['m2 renamed', 'm3']);

    expect((await api.delete(`/Monitor/${guids[3] ?? ''}`)).status).toBeLessThan(300);
    const afterDelete = await api.get(`/Monitor?Cursor=${self}`);
    expect(afterDelete.data.map((m) => m['Name'])).toEqual(['m2 renamed', 'm4']);
    expect(afterDelete.cursors?.Next).toBeUndefined();

    await api.createMonitor({ Name: 'm5' });
    const afterCreate = await api.get(`/Monitor?Cursor=${self}`);
    expect(afterCreate.data.map((m) => m['Name'])).toEqual(['m2 renamed', 'm4']);
    const last = await api.get(`/Monitor?Cursor=${encodeURIComponent(String(afterCreate.cursors?.Next))}`);
    expect(last.data.map((m) => m['Name'])).toEqual(['m5']);
  });

  it("gives a non-administrator only the monitors it may view, batch by batch, after an administrator's walk of the same listing", async () => {
    const api = await emulator({ seed: 'demo', pageSize: 2, profile: 'strict' });
    const admin = await api.listAllMonitors();
    expect(admin.items).toHaveLength(13);
    const viewer = await api.listAllMonitors('/Monitor', VIEWER);
    expect(viewer.items.map((m) => m['Name'])).toEqual(['Shop homepage', 'Marketing site', 'Blog']);
    expect(Object.keys(viewer.items[0] ?? {}).sort()).toEqual(['GenerateAlert', 'IsActive', 'MonitorGuid', 'MonitorMode', 'MonitorType', 'Name']);
    expect((await api.listAllMonitors()).items).toEqual(admin.items);
  });

  it('keeps paging stable when a monitor of an earlier page is deleted meanwhile', async () => {
    const api = await emulator({ pageSize: 2, profile: 'strict' });
    const guids: string[] = [];
    for (let i = 0; i < 5; i++) guids.push(String((await api.createMonitor({ Name: `m${i}` }))['MonitorGuid']));
    const first = await api.get('/Monitor');
    await api.delete(`/Monitor/${guids[0] ?? ''}`);
    const second = await api.get(`/Monitor?Cursor=${encodeURIComponent(String(first.cursors?.Next))}`);
    expect(second.data.map((m) => m['MonitorGuid'])).toEqual([guids[2], guids[3]]);
  });
});
