import { describe, expect, it } from 'vitest';
import { bufferedIo } from './io.js';
import { combineHooks, readProgress, readUnder, verboseHooks } from './request-log.js';

const request = { method: 'GET' as const, route: '/Monitor', path: '/Monitor', attempt: 1 };

describe('request log and progress', () => {
  it('--verbose logs one line per request and response with method, path, status and time', () => {
    const io = bufferedIo();
    const hooks = verboseHooks(io);
    hooks.onRequest({ ...request, path: '/Monitor?Cursor=abc123&Take=100' });
    hooks.onResponse({ ...request, path: '/VaultItem/9b1', route: '/VaultItem/{vaultItemGuid}', status: 200, durationMs: 12.4 });
    hooks.onResponse({ ...request, attempt: 2, status: 0, durationMs: 30000 });
    hooks.onRetry?.({ ...request, delayMs: 1500, reason: '503', retryAfter: false, parallelism: 8 });
    expect(io.err()).toBe('-> GET /Monitor?Cursor=***&Take=100\n<- 200 GET /VaultItem/9b1 12ms\n<- failed GET /Monitor 30000ms\n   retrying GET /Monitor in 1.5s (503)\n');
  });

  it('prints plain lines once per route when not on a terminal (CI logs stay short)', () => {
    const io = bufferedIo({ isTTY: false });
    const progress = readProgress(io, 'reading live account');
    for (let i = 0; i < 3; i++) {
      progress.onRequest({ ...request, route: '/MonitorGroup/{monitorGroupGuid}/Member' });
      progress.onResponse({ ...request, status: 200, durationMs: 1 });
    }
    progress.done('read 3');
    expect(io.err()).toBe('reading live account...\n  reading /MonitorGroup/{monitorGroupGuid}/Member\nread 3\n');
    expect(progress.requests).toBe(3);
  });

  it('draws one rewritten line on an interactive terminal and clears it at the end', () => {
    const io = bufferedIo({ isTTY: true, env: {} });
    const progress = readProgress(io, 'reading');
    progress.onRequest(request);
    progress.done('done');
    const shown = io.err().replaceAll('\u001b', '<ESC>');
    expect(shown).toMatch(/^\r<ESC>\[Kreading: 0 requests, 1 in flight, [0-9.]+s\r<ESC>\[Kdone\n$/);
  });

  it('says on the live line that it waits for the rate limit, with the lowered parallelism', () => {
    const io = bufferedIo({ isTTY: true, env: {} });
    const progress = readProgress(io, 'reading');
    progress.onRequest(request);
    progress.onRetry({ ...request, delayMs: 3000, reason: '429', retryAfter: true, parallelism: 4 });
    expect(io.err()).toMatch(/reading: 0 requests, 1 in flight, [0-9.]+s, waiting for the rate limit \([0-9]+s, parallelism 4\)$/);
  });

  it('prints one plain line per rate-limit wait in CI, not one per refused request', () => {
    const io = bufferedIo({ isTTY: false });
    const progress = readProgress(io, 'reading');
    progress.onRetry({ ...request, delayMs: 60_000, reason: '429', retryAfter: true, parallelism: 4 });
    progress.onRetry({ ...request, delayMs: 60_000, reason: '429', retryAfter: true, parallelism: 4 });
    progress.onRetry({ ...request, delayMs: 500, reason: '503', retryAfter: false, parallelism: 4 });
    expect(io.err()).toBe('reading...\n  waiting for the rate limit: 60.0s, parallelism lowered to 4\n');
  });

  it('falls back to plain lines in CI even on a terminal', () => {
    const io = bufferedIo({ isTTY: true, env: { CI: 'true' } });
    readProgress(io, 'reading').done('done');
    expect(io.err()).toBe('reading...\ndone\n');
  });

  it('feeds every listener', () => {
    const seen: string[] = [];
    const hooks = combineHooks({ onRequest: () => seen.push('a'), onResponse: () => seen.push('a!') }, undefined, { onRequest: () => seen.push('b'), onResponse: () => seen.push('b!') });
    hooks.onRequest(request);
    hooks.onResponse({ ...request, status: 200, durationMs: 1 });
    expect(seen).toEqual(['a', 'b', 'a!', 'b!']);
  });

  it('after a failed read, ends with the failure line: requests in flight are counted, refused ones and later events are not shown', async () => {
    const io = bufferedIo({ isTTY: true, env: {} });
    const progress = readProgress(io, 'reading');
    const failure = new Error('GET /Monitor failed with 500');
    const read = async () => {
      progress.onRequest(request);
      progress.onRequest({ ...request, route: '/Sla', path: '/Sla' });
      progress.onResponse({ ...request, status: 500, durationMs: 1 });
      throw failure;
    };
    const close = async () => {
      // The closed client refuses a request queued behind the limit (status 0) and lets the one in flight end.
      progress.onRequest({ ...request, route: '/Sla/{slaGuid}/ExclusionPeriod', path: '/Sla/x/ExclusionPeriod' });
      progress.onResponse({ ...request, route: '/Sla/{slaGuid}/ExclusionPeriod', path: '/Sla/x/ExclusionPeriod', status: 0, durationMs: 0 });
      progress.onResponse({ ...request, route: '/Sla', path: '/Sla', status: 200, durationMs: 3 });
    };
    await expect(readUnder(progress, 'reading', read, close)).rejects.toBe(failure);
    progress.onRequest(request);
    progress.onResponse({ ...request, status: 200, durationMs: 1 });
    progress.done();
    const shown = io.err().split('\r\u001b[K');
    expect(shown.at(-1)).toBe('reading failed after 2 requests\n');
    expect(progress.requests).toBe(2);
  });
});
