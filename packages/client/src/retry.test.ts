import { describe, expect, it } from 'vitest';
import { NetworkError, NotFoundError, RateLimitError, ServerError, TimeoutError, ValidationError, type ApiError } from './errors.js';
import { backoffDelay, DEFAULT_READ_ATTEMPTS, DEFAULT_WRITE_ATTEMPTS, parseRetryAfter, resolveRetryPolicy } from './retry.js';
import type { RetryEvent } from './transport.js';
import { mockApi } from './test-utils/mock-api.js';

const GUID = '0b1e0000-0000-0000-0000-000000000001';
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

describe('parseRetryAfter', () => {
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('3', NOW)).toBe(3000);
    expect(parseRetryAfter(' 120 ', NOW)).toBe(120_000);
    expect(parseRetryAfter('0.5', NOW)).toBe(500);
  });
  it('reads an HTTP date relative to now, and a past date as 0', () => {
    expect(parseRetryAfter(new Date(NOW + 7000).toUTCString(), NOW)).toBe(7000);
    expect(parseRetryAfter(new Date(NOW - 7000).toUTCString(), NOW)).toBe(0);
  });
  it('ignores absent and unreadable values', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfter('', NOW)).toBeUndefined();
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('draws uniformly below a ceiling that doubles per attempt up to maxDelayMs', () => {
    const top = resolveRetryPolicy({ baseDelayMs: 100, maxDelayMs: 1000, random: () => 0.999999 });
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffDelay(top, a))).toEqual([99, 199, 399, 799, 999, 999]);
    const bottom = resolveRetryPolicy({ baseDelayMs: 100, maxDelayMs: 1000, random: () => 0 });
    expect(backoffDelay(bottom, 4)).toBe(0);
  });
});

describe('retries', () => {
  it('retries a GET on 429, waiting the Retry-After seconds in full', async () => {
    const api = mockApi();
    api.reply('GET', `/Monitor/${GUID}`, 429, { ErrorDescription: 'rate limited' }, { 'retry-after': '7' });
    api.reply('GET', `/Monitor/${GUID}`, 200, { MonitorGuid: GUID, Name: 'ok' });
    await expect(api.client.monitors.get(GUID)).resolves.toMatchObject({ Name: 'ok' });
    expect(api.sleeps).toEqual([7000]);
    expect(api.calls()).toHaveLength(2);
  });

  it('retries on 429 with Retry-After as an HTTP date', async () => {
    const api = mockApi({ retry: { now: () => NOW } });
    api.reply('GET', '/Sla', 429, '', { 'retry-after': new Date(NOW + 45_000).toUTCString() });
    api.reply('GET', '/Sla', 200, []);
    await api.client.slas.list().toArray();
    expect(api.sleeps).toEqual([45_000]);
  });

  it('retries a GET on 503 with jittered exponential backoff', async () => {
    const api = mockApi({ retry: { baseDelayMs: 100, random: () => 0.5 } });
    api.reply('GET', '/Sla', 503).times(3);
    api.reply('GET', '/Sla', 200, [{ SlaGuid: GUID, Description: 'Gold' }]);
    await expect(api.client.slas.list().toArray()).resolves.toHaveLength(1);
    expect(api.sleeps).toEqual([50, 100, 200]);
  });

  it('retries 502 and 504 as well', async () => {
    const api = mockApi();
    api.reply('GET', '/Sla', 502);
    api.reply('GET', '/Sla', 504);
    api.reply('GET', '/Sla', 200, []);
    await api.client.slas.list().toArray();
    expect(api.calls()).toHaveLength(3);
  });

  it('retries a GET after a connection reset', async () => {
    const api = mockApi();
    api.fail('GET', '/VaultItem', 'ECONNRESET');
    api.reply('GET', '/VaultItem', 200, []);
    await expect(api.client.vaultItems.list().toArray()).resolves.toEqual([]);
    expect(api.calls()).toHaveLength(2);
  });

  it.each(['PUT', 'PATCH', 'DELETE'] as const)('retries %s, which is idempotent in this API', async (method) => {
    const api = mockApi();
    api.reply(method, `/Sla/${GUID}`, 503);
    api.reply(method, `/Sla/${GUID}`, 204);
    const call = { PUT: () => api.client.slas.replace(GUID, { Description: 'Gold' }), PATCH: () => api.client.slas.patch(GUID, { UptimeErrorThreshold: 99 }), DELETE: () => api.client.slas.delete(GUID) }[method];
    await expect(call()).resolves.toBeUndefined();
    expect(api.calls().map((c) => c.method)).toEqual([method, method]);
  });

  it('never retries a POST on 503', async () => {
    const api = mockApi();
    api.reply('POST', '/Monitor', 503, { ErrorDescription: 'busy' });
    const error = await api.client.monitors.create({ Name: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(api.calls()).toHaveLength(1);
    expect(api.sleeps).toEqual([]);
  });

  it('retries a POST answered 429 (refused, not processed), after the Retry-After', async () => {
    const api = mockApi();
    api.reply('POST', '/Sla', 429, '', { 'retry-after': '1' });
    api.reply('POST', '/Sla', 201, { SlaGuid: GUID, Description: 'x' });
    await expect(api.client.slas.create({ Description: 'x' })).resolves.toMatchObject({ SlaGuid: GUID });
    expect(api.calls().map((c) => c.method)).toEqual(['POST', 'POST']);
    expect(api.sleeps).toEqual([1000]);
  });

  it('gives up on a POST answered 429 at the configured attempts, with the wait the service asked for', async () => {
    const api = mockApi({ retry: { maxAttempts: 3 } });
    api.reply('POST', '/Sla', 429, '', { 'retry-after': '1' }).times(3);
    const error = (await api.client.slas.create({ Description: 'x' }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ attempts: 3, retryAfterMs: 1000 });
    expect(api.calls()).toHaveLength(3);
  });

  it("gives a write refused with 429 a read's attempts (8) by default: none of them was processed", async () => {
    const api = mockApi();
    api.reply('POST', '/Sla', 429, '', { 'retry-after': '0' }).times(7);
    api.reply('POST', '/Sla', 201, { SlaGuid: GUID, Description: 'x' });
    await expect(api.client.slas.create({ Description: 'x' })).resolves.toMatchObject({ SlaGuid: GUID });
    expect(api.calls()).toHaveLength(8);
    const refused = mockApi();
    refused.reply('POST', '/Sla', 429, '', { 'retry-after': '0' }).persist();
    const error = (await refused.client.slas.create({ Description: 'x' }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.attempts).toBe(DEFAULT_READ_ATTEMPTS);
  });

  it('retries a POST whose connection was refused (nothing reached the service)', async () => {
    const api = mockApi();
    api.fail('POST', '/Sla', 'ECONNREFUSED');
    api.reply('POST', '/Sla', 201, { SlaGuid: GUID, Description: 'x' });
    await expect(api.client.slas.create({ Description: 'x' })).resolves.toMatchObject({ SlaGuid: GUID });
    expect(api.calls()).toHaveLength(2);
  });

  it('never retries a POST on 500', async () => {
    const api = mockApi();
    api.reply('POST', '/Monitor', 500);
    await expect(api.client.monitors.create({ Name: 'x' })).rejects.toBeInstanceOf(ServerError);
    expect(api.calls()).toHaveLength(1);
  });

  it('never retries a POST after a reset (the write may have happened)', async () => {
    const api = mockApi();
    api.fail('POST', '/VaultItem', 'ECONNRESET');
    const error = await api.client.vaultItems.create({ Name: 'n', VaultSectionGuid: GUID, VaultItemType: 'File' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ status: 0, attempts: 1 });
    expect(api.calls()).toHaveLength(1);
  });

  it('retries a GET answered 500, with backoff', async () => {
    const api = mockApi();
    api.reply('GET', '/Sla', 500);
    api.reply('GET', '/Sla', 200, []);
    await expect(api.client.slas.list().toArray()).resolves.toEqual([]);
    expect(api.calls()).toHaveLength(2);
    expect(api.sleeps).toEqual([250]);
  });

  it.each(['PUT', 'PATCH', 'DELETE'] as const)('retries %s answered 500 (idempotent)', async (method) => {
    const api = mockApi();
    api.reply(method, `/Sla/${GUID}`, 500);
    api.reply(method, `/Sla/${GUID}`, 204);
    const call = { PUT: () => api.client.slas.replace(GUID, { Description: 'Gold' }), PATCH: () => api.client.slas.patch(GUID, { UptimeErrorThreshold: 99 }), DELETE: () => api.client.slas.delete(GUID) }[method];
    await call();
    expect(api.calls()).toHaveLength(2);
  });

  it('does not retry other statuses (400, 404, 501)', async () => {
    const api = mockApi();
    api.reply('GET', '/Sla', 501);
    api.reply('GET', '/Operator', 400);
    api.reply('GET', `/Sla/${GUID}`, 404);
    await expect(api.client.slas.listPage()).rejects.toBeInstanceOf(ServerError);
    await expect(api.client.operators.listPage()).rejects.toBeInstanceOf(ValidationError);
    await expect(api.client.slas.get(GUID)).rejects.toBeInstanceOf(NotFoundError);
    expect(api.calls()).toHaveLength(3);
  });

  it('never sends a request more than maxAttempts times in all, whatever mix of failures', async () => {
    const api = mockApi({ retry: { maxAttempts: 4 } });
    api.reply('GET', '/Sla', 500);
    api.reply('GET', '/Sla', 429, '', { 'retry-after': '0' });
    api.fail('GET', '/Sla', 'ECONNRESET');
    api.reply('GET', '/Sla', 503);
    api.reply('GET', '/Sla', 200, []);
    const error = (await api.client.slas.listPage().catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 503, attempts: 4 });
    expect(api.calls()).toHaveLength(4);
  });

  it('fails at once with a clear RateLimitError when Retry-After exceeds the cap', async () => {
    const api = mockApi();
    api.reply('GET', '/Sla', 429, { ErrorDescription: 'quota' }, { 'retry-after': '600' });
    const error = (await api.client.slas.listPage().catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toMatch(/retry after 600 s, longer than the cap of 120 s \(retry\.maxRetryAfterMs\)/);
    expect(error.retryAfterMs).toBe(600_000);
    expect(api.calls()).toHaveLength(1);
    expect(api.sleeps).toEqual([]);
  });

  it('honours a Retry-After exactly at the cap, and a raised cap', async () => {
    const api = mockApi({ retry: { maxRetryAfterMs: 300_000 } });
    api.reply('GET', '/Sla', 429, '', { 'retry-after': '300' });
    api.reply('GET', '/Sla', 200, []);
    await api.client.slas.list().toArray();
    expect(api.sleeps).toEqual([300_000]);
  });

  it('stops a read after DEFAULT_READ_ATTEMPTS (8) by default and says how many were made', async () => {
    const api = mockApi();
    api.reply('GET', '/Sla', 503, { ErrorDescription: 'down' }).persist();
    const error = (await api.client.slas.listPage().catch((e: unknown) => e)) as ApiError;
    expect(DEFAULT_READ_ATTEMPTS).toBe(8);
    expect(api.client.maxReadAttempts).toBe(DEFAULT_READ_ATTEMPTS);
    expect(error).toBeInstanceOf(ServerError);
    expect(error.attempts).toBe(8);
    expect(error.message).toContain('after 8 attempts');
    expect(api.calls()).toHaveLength(8);
    expect(api.sleeps).toHaveLength(7);
  });

  it('stops a write after DEFAULT_WRITE_ATTEMPTS (5) by default', async () => {
    const api = mockApi();
    api.reply('PUT', `/Sla/${GUID}`, 503, { ErrorDescription: 'down' }).persist();
    const error = (await api.client.slas.replace(GUID, { Description: 'x' }).catch((e: unknown) => e)) as ApiError;
    expect(DEFAULT_WRITE_ATTEMPTS).toBe(5);
    expect(api.client.maxAttempts).toBe(DEFAULT_WRITE_ATTEMPTS);
    expect(error).toBeInstanceOf(ServerError);
    expect(error.attempts).toBe(5);
    expect(api.calls()).toHaveLength(5);
  });

  it('waits at most 1 s between the attempts of a read, 6.5 s in all, where a write waits up to 7.5 s', async () => {
    const read = mockApi({ retry: { random: () => 0.999999 } });
    read.reply('GET', '/Sla', 503).persist();
    await expect(read.client.slas.listPage()).rejects.toBeInstanceOf(ServerError);
    expect(read.sleeps).toEqual([499, 999, 999, 999, 999, 999, 999]);
    const write = mockApi({ retry: { random: () => 0.999999 } });
    write.reply('DELETE', `/Sla/${GUID}`, 503).persist();
    await expect(write.client.slas.delete(GUID)).rejects.toBeInstanceOf(ServerError);
    expect(write.sleeps).toEqual([499, 999, 1999, 3999]);
  });

  it('honours a Retry-After longer than a read\'s backoff ceiling', async () => {
    const api = mockApi();
    api.reply('GET', '/Sla', 429, '', { 'retry-after': '5' });
    api.reply('GET', '/Sla', 200, []);
    await api.client.slas.list().toArray();
    expect(api.sleeps).toEqual([5000]);
  });

  it('gives reads the configured maxAttempts too, unless maxReadAttempts says otherwise', async () => {
    const same = mockApi({ retry: { maxAttempts: 2 } });
    same.reply('GET', '/Sla', 503, { ErrorDescription: 'down' }).persist();
    await expect(same.client.slas.listPage()).rejects.toMatchObject({ attempts: 2 });
    const own = mockApi({ retry: { maxAttempts: 2, maxReadAttempts: 3, maxReadDelayMs: 100 } });
    own.reply('GET', '/Sla', 503, { ErrorDescription: 'down' }).persist();
    await expect(own.client.slas.listPage()).rejects.toMatchObject({ attempts: 3 });
    expect(own.sleeps).toEqual([50, 50]);
    expect(() => resolveRetryPolicy({ maxReadAttempts: 0 })).toThrow(/maxReadAttempts/);
    expect(() => resolveRetryPolicy({ maxReadDelayMs: -1 })).toThrow(/maxReadDelayMs/);
  });

  it('stops after the configured number of attempts for resets too', async () => {
    const api = mockApi({ retry: { maxAttempts: 3 } });
    for (let i = 0; i < 3; i += 1) api.fail('GET', '/Sla', 'ECONNRESET');
    await expect(api.client.slas.listPage()).rejects.toMatchObject({ code: 'NETWORK_ERROR', attempts: 3 });
    expect(api.calls()).toHaveLength(3);
  });

  it('does not retry errors that another attempt cannot fix (DNS not found)', async () => {
    const api = mockApi();
    api.fail('GET', '/Sla', 'ENOTFOUND');
    await expect(api.client.slas.listPage()).rejects.toBeInstanceOf(NetworkError);
    expect(api.calls()).toHaveLength(1);
  });

  it('reports each retry with its reason and wait', async () => {
    const retries: RetryEvent[] = [];
    const api = mockApi({ onRetry: (e) => retries.push(e) });
    api.reply('GET', '/Sla', 429, '', { 'retry-after': '2' });
    api.fail('GET', '/Sla', 'ECONNRESET');
    api.reply('GET', '/Sla', 200, []);
    await api.client.slas.list().toArray();
    expect(retries).toMatchObject([
      { attempt: 1, reason: '429', delayMs: 2000, retryAfter: true, route: '/Sla', parallelism: 4 },
      { attempt: 2, reason: 'ECONNRESET', retryAfter: false },
    ]);
  });
});

describe('timeouts', () => {
  it('turns a request that takes longer than timeoutMs into a TimeoutError, retrying a GET', async () => {
    const api = mockApi({ timeoutMs: 20, retry: { maxAttempts: 2 } });
    api.reply('GET', '/Sla', 200, []).delay(5_000).times(2);
    const error = (await api.client.slas.listPage().catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ code: 'TIMEOUT', status: 0, attempts: 2 });
    expect(error.message).toMatch(/timed out after 2 attempts: no complete response within 20 ms/);
    expect(api.calls()).toHaveLength(2);
  });

  it('holds a read that keeps timing out to a write\'s attempts: each one already waited timeoutMs', async () => {
    const api = mockApi({ timeoutMs: 20, retry: { maxAttempts: 2, maxReadAttempts: 4 } });
    api.reply('GET', '/Sla', 200, []).delay(5_000).times(4);
    await expect(api.client.slas.listPage()).rejects.toMatchObject({ code: 'TIMEOUT', attempts: 2 });
    expect(api.calls()).toHaveLength(2);
  });

  it('does not retry a POST that timed out', async () => {
    const api = mockApi({ timeoutMs: 20 });
    api.reply('POST', '/MonitorGroup', 200, {}).delay(5_000);
    await expect(api.client.monitorGroups.create({ Description: 'g' })).rejects.toBeInstanceOf(TimeoutError);
    expect(api.calls()).toHaveLength(1);
  });
});
