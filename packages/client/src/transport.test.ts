import { describe, expect, it } from 'vitest';
import { MockAgent, type Dispatcher } from 'undici';
import { createClient } from './client.js';
import { ClientConfigError, InvalidQueryError, NetworkError } from './errors.js';
import type { RequestEvent, ResponseEvent } from './transport.js';
import { BASE_URL, CANARY_PASSWORD, ORIGIN, mockApi } from './test-utils/mock-api.js';

const GUID = 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee';

describe('request headers', () => {
  it('sends Basic auth, Accept JSON and the monsync User-Agent', async () => {
    const api = mockApi();
    api.reply('GET', '/Timezone', 200, []);
    await api.client.timezones.list().toArray();
    const { headers } = api.last();
    const expected = Buffer.from(`demo:${CANARY_PASSWORD}`).toString('base64');
    expect(headers.authorization).toBe(`Basic ${expected}`);
    expect(headers.accept).toBe('application/json');
    expect(headers['user-agent']).toMatch(/^monsync\/\d+\.\d+\.\d+/);
    expect(headers['content-type']).toBeUndefined();
  });

  it('sends a JSON body with a content type', async () => {
    const api = mockApi();
    api.reply('POST', '/VaultSection', 200, { VaultSectionGuid: GUID, Name: 'Web' });
    await api.client.vaultSections.create({ Name: 'Web' });
    expect(api.last().headers['content-type']).toBe('application/json');
    expect(api.last().body).toEqual({ Name: 'Web' });
  });

  it('lets the caller replace the User-Agent', async () => {
    const api = mockApi({ userAgent: 'monsync-cli/1.2.3' });
    api.reply('GET', '/Timezone', 200, []);
    await api.client.timezones.list().toArray();
    expect(api.last().headers['user-agent']).toBe('monsync-cli/1.2.3');
  });
});

describe('base URL', () => {
  it.each([`${ORIGIN}/v4`, `${ORIGIN}/v4/`, `${ORIGIN}/v4//`])('keeps the /v4 root of %s when joining paths', async (baseUrl) => {
    const api = mockApi({ baseUrl });
    api.reply('GET', `/Monitor/${GUID}`, 200, { MonitorGuid: GUID, Name: 'x' });
    await api.client.monitors.get(GUID);
    expect(api.last().url).toBe(`/v4/Monitor/${GUID}`);
  });

  it('rejects a URL that is not http(s), has credentials, or a query', () => {
    const base = { username: 'demo', password: 'pw' };
    expect(() => createClient({ ...base, baseUrl: 'ftp://host/v4' })).toThrow(/http or https/);
    expect(() => createClient({ ...base, baseUrl: 'not a url' })).toThrow(ClientConfigError);
    expect(() => createClient({ ...base, baseUrl: 'http://u:secret-pw@host/v4' })).toThrow(/must not contain credentials/);
    expect(() => createClient({ ...base, baseUrl: 'http://host/v4?x=1' })).toThrow(/query or fragment/);
  });

  it('does not echo an unparsable URL that may hold credentials', () => {
    let message = '';
    try {
      createClient({ username: 'demo', password: 'pw', baseUrl: 'http://u:hunter2-secret@[bad' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('not a valid URL');
    expect(message).not.toContain('hunter2-secret');
  });

  it('does not echo a query or fragment, nor an unparsable URL without userinfo, that may hold a token', () => {
    const messages: string[] = [];
    for (const baseUrl of ['http://host/v4?token=CANARY-7f3a9c', 'http://host/v4#CANARY-7f3a9c', 'http://[bad?token=CANARY-7f3a9c']) {
      try {
        createClient({ username: 'demo', password: 'pw', baseUrl });
      } catch (error) {
        messages.push((error as Error).message);
      }
    }
    expect(messages).toHaveLength(3);
    for (const message of messages) expect(message).not.toContain('CANARY-7f3a9c');
  });

  it('requires a username, a password and sane limits', () => {
    expect(() => createClient({ baseUrl: BASE_URL, username: '', password: 'pw' })).toThrow(/username is required/);
    expect(() => createClient({ baseUrl: BASE_URL, username: 'demo', password: '' })).toThrow(/password is required/);
    expect(() => createClient({ baseUrl: BASE_URL, username: 'demo', password: 'pw', parallelism: 0 })).toThrow(/parallelism/);
    expect(() => createClient({ baseUrl: BASE_URL, username: 'demo', password: 'pw', timeoutMs: -1 })).toThrow(/timeoutMs/);
    expect(() => createClient({ baseUrl: BASE_URL, username: 'demo', password: 'pw', retry: { maxAttempts: 0 } })).toThrow(/maxAttempts/);
  });
});

describe('path and query encoding', () => {
  it('percent-encodes path parameters', async () => {
    const api = mockApi();
    api.reply('GET', '/Timezone/a%2Fb%20c', 200, { TimezoneId: 1 });
    await api.client.timezones.get('a/b c');
    expect(api.last().url).toBe('/v4/Timezone/a%2Fb%20c');
  });

  it('refuses an empty path parameter without sending anything', async () => {
    const api = mockApi();
    const error = await api.client.monitors.get('').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidQueryError);
    expect((error as Error).message).toMatch(/monitorGuid is required/);
    expect(api.calls()).toHaveLength(0);
  });

  it('refuses a path parameter that makes a . or .. segment without sending anything', async () => {
    const api = mockApi();
    for (const guid of ['..', '.']) {
      await expect(api.client.monitors.get(guid)).rejects.toBeInstanceOf(InvalidQueryError);
    }
    expect(api.calls()).toHaveLength(0);
  });

  it('writes booleans as true/false and skips undefined values', async () => {
    const api = mockApi();
    api.reply('GET', `/Alert/Monitor/${GUID}`, 200, { Data: [] });
    await api.client.alerts.byMonitorPage(GUID, { PresetPeriod: 'PreviousDay', IncludeReminders: true, Take: 10 });
    expect(api.last().url).toBe(`/v4/Alert/Monitor/${GUID}?PresetPeriod=PreviousDay&IncludeReminders=true&Take=10`);
  });
});

describe('response bodies', () => {
  it('reads a JSON answer that starts with a byte order mark', async () => {
    const api = mockApi();
    api.reply('GET', '/Timezone', 200, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('[{"TimezoneId":1}]')]), { 'content-type': 'application/json' });
    await expect(api.client.timezones.list().toArray()).resolves.toMatchObject([{ TimezoneId: 1 }]);
  });
});

describe('raw requests', () => {
  it('sends any method and path below the root with query and body, and parses the answer', async () => {
    const api = mockApi();
    api.reply('POST', '/Integration/Custom', 200, { Id: 7 });
    const result = await api.client.request('POST', '/Integration/Custom', { query: { dryRun: false }, body: { Name: 'hook' } });
    expect(result).toEqual({ Id: 7 });
    expect(api.last()).toMatchObject({ method: 'POST', url: '/v4/Integration/Custom?dryRun=false', body: { Name: 'hook' } });
  });

  it('resolves to undefined for an empty answer', async () => {
    const api = mockApi();
    api.reply('DELETE', '/ApiUser/42', 204);
    await expect(api.client.request('DELETE', '/ApiUser/42')).resolves.toBeUndefined();
  });

  it('refuses paths that could leave the API root or smuggle a query', async () => {
    const api = mockApi();
    for (const path of ['RUM', '/../admin', '/RUM/./x', '/RUM?x=1', '/RUM list']) {
      await expect(api.client.request('GET', path)).rejects.toBeInstanceOf(InvalidQueryError);
    }
    expect(api.calls()).toHaveLength(0);
  });
});

describe('events', () => {
  it('reports each request and response with route, path, status, attempt and duration', async () => {
    const requests: RequestEvent[] = [];
    const responses: ResponseEvent[] = [];
    const api = mockApi({ onRequest: (e) => requests.push(e), onResponse: (e) => responses.push(e) });
    api.reply('GET', `/Monitor/${GUID}`, 503).times(1);
    api.reply('GET', `/Monitor/${GUID}`, 200, { MonitorGuid: GUID });
    await api.client.monitors.get(GUID);
    expect(requests).toEqual([
      { method: 'GET', route: '/Monitor/{monitorGuid}', path: `/Monitor/${GUID}`, attempt: 1 },
      { method: 'GET', route: '/Monitor/{monitorGuid}', path: `/Monitor/${GUID}`, attempt: 2 },
    ]);
    expect(responses.map((r) => [r.status, r.attempt])).toEqual([
      [503, 1],
      [200, 2],
    ]);
    for (const r of responses) expect(r.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('reports a failed attempt with status 0 and the error code', async () => {
    const responses: ResponseEvent[] = [];
    const api = mockApi({ onResponse: (e) => responses.push(e), retry: { maxAttempts: 1 } });
    api.fail('GET', '/Sla', 'ECONNREFUSED');
    await expect(api.client.slas.listPage()).rejects.toBeInstanceOf(NetworkError);
    expect(responses).toMatchObject([{ status: 0, errorCode: 'ECONNREFUSED', route: '/Sla' }]);
  });

  it('is not disturbed by a listener that throws', async () => {
    const api = mockApi({
      onRequest: () => {
        throw new Error('listener bug');
      },
    });
    api.reply('GET', '/Sla', 200, []);
    await expect(api.client.slas.list().toArray()).resolves.toEqual([]);
  });
});

describe('connection pool', () => {
  it('leaves an injected dispatcher open on close', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get(ORIGIN).intercept({ path: '/v4/Sla', method: 'GET' }).reply(200, []).times(2);
    const client = createClient({ baseUrl: BASE_URL, username: 'demo', password: 'pw', dispatcher: agent as Dispatcher });
    await client.slas.list().toArray();
    await client.close();
    await expect(client.slas.list().toArray()).resolves.toEqual([]);
  });

  it('closes a pool it created itself', async () => {
    const client = createClient({ baseUrl: 'http://127.0.0.1:9/v4', username: 'demo', password: 'pw' });
    await client.close();
    // A destroyed pool refuses before connecting; an open one would have tried port 9 and got ECONNREFUSED.
    const error = await client.slas.listPage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toMatch(/UND_ERR_DESTROYED/);
  });
});
