/**
 * A listing answered as one large bare array, as the published definition lists every monitor: read as its bytes
 * arrive (`json-array-reader.ts`), with the same entries, the same shape checks and the same refusals as a small one.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from './client.js';
import { ImpreciseNumberError, MalformedListingError, UnexpectedResponseError } from './errors.js';
import { READ_ARRAY_FROM } from './exchange.js';
import { REDACTED } from './redact.js';
import { CANARY_PASSWORD, mockApi } from './test-utils/mock-api.js';

/** Monitors as the published definition lists them, with names that hold what the splitter looks at. */
function monitors(count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => ({
    MonitorGuid: `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    Name: `shop [${i}], "eu" {\\} ☃ 😀`,
    MonitorType: 'Https',
    IsActive: i % 2 === 0,
    CheckInterval: 5,
    ErrorConditions: [{ ErrorConditionType: 'HttpStatus', Value: '200' }],
    PredefinedVariables: [],
    Url: `https://site-${i}.example.com/${'x'.repeat(200)}`,
  }));
}

/** A count of monitors whose listing is beyond the size read as it arrives. */
const LARGE = Math.ceil(READ_ARRAY_FROM / 350) + 100;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(async (server) => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  }));
});

/** A service that answers GET /v4/Monitor with `body`, written in pieces of `piece` bytes, one per event loop turn. */
async function serviceSending(body: Buffer, piece: number): Promise<string> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
    let at = 0;
    const next = (): void => {
      if (at >= body.length) return void response.end();
      response.write(body.subarray(at, at + piece));
      at += piece;
      setImmediate(next);
    };
    next();
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v4`;
}

describe('a listing answered as one large bare array', () => {
  it('reads every entry as sent when the array arrives in many pieces, after a byte order mark', async () => {
    const sent = monitors(LARGE);
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(sent, null, 1))]);
    expect(body.length).toBeGreaterThan(READ_ARRAY_FROM);
    const client = createClient({ baseUrl: await serviceSending(body, 8 * 1024 + 3), username: 'demo', password: 'demo-password' });
    try {
      expect(await client.monitors.list().toArray()).toEqual(sent);
    } finally {
      await client.close();
    }
  });

  it('names a malformed entry deep in the array by its batch and index', async () => {
    const api = mockApi();
    const sent: unknown[] = monitors(LARGE);
    sent[LARGE - 7] = null;
    api.reply('GET', '/Monitor', 200, JSON.stringify(sent));
    const error = await api.client.monitors.list().toArray().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(MalformedListingError);
    expect((error as MalformedListingError).message).toBe(
      `GET /Monitor answered an entry that is not a monitor (batch 1, index ${LARGE - 7}): null; expected an object with MonitorGuid (a non-empty string) and Name (a string)`,
    );
  });

  it('refuses a listing, large or small, holding an integer a JavaScript number would round, naming the field, not the value', async () => {
    for (const count of [3, LARGE]) {
      const api = mockApi();
      const text = JSON.stringify(monitors(count)).replace('"CheckInterval":5', '"CheckInterval":5,"ExternalId":9007199254740993');
      api.reply('GET', '/Monitor', 200, text);
      const error = await api.client.monitors.list().toArray().then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(ImpreciseNumberError);
      expect(error).toMatchObject({ code: 'IMPRECISE_NUMBER' });
      const { message } = error as ImpreciseNumberError;
      expect(message).toContain('GET /Monitor answered an integer of 16 digits in `ExternalId`, beyond 2^53');
      expect(message).not.toContain('9007199254740993');
      expect(message).not.toContain('9007199254740992');
    }
  });

  it('refuses an array cut off before its end, quoting its start without the credentials it echoes', async () => {
    const api = mockApi();
    const text = JSON.stringify([{ MonitorGuid: 'm', Name: `echo ${CANARY_PASSWORD}` }, ...monitors(LARGE)]);
    const cut = text.slice(0, text.length - 500);
    api.reply('GET', '/Monitor', 200, cut);
    const error = await api.client.monitors.list().toArray().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    const { message } = error as UnexpectedResponseError;
    const bytes = Buffer.byteLength(cut).toLocaleString('en-US');
    expect(message.startsWith(
      `GET /Monitor answered 200 with a body that is not JSON: a JSON array that ends at byte ${Buffer.byteLength(cut)} before its array is closed: [{"MonitorGuid":"m","Name":"echo ${REDACTED}"},`,
    )).toBe(true);
    expect(message).toContain(`... (${bytes} bytes in all)`);
    expect(JSON.stringify(error)).not.toContain(CANARY_PASSWORD);
    expect(`${message}${String((error as UnexpectedResponseError).response?.body)}`).not.toContain(CANARY_PASSWORD);
  });

  it('reads a large listing in its paged form (an envelope) whole, as before', async () => {
    const api = mockApi();
    const sent = monitors(LARGE);
    api.reply('GET', '/Monitor', 200, JSON.stringify({ Data: sent, Cursors: {} }));
    expect(await api.client.monitors.list().toArray()).toEqual(sent);
  });
});
