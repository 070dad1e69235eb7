import { describe, expect, it } from 'vitest';
import { bufferedIo } from './io.js';
import { combineHooks, readProgress, verboseHooks } from './request-log.js';

const request = { method: 'GET', route: '/Monitor', path: '/Monitor', attempt: 1 };

describe('request log and progress', () => {
  it('--verbose logs one line per request and response with method, path, status and time', () => {
    const io = bufferedIo();
    const hooks = verboseHooks(io);
    hooks.onRequest({ ...request, path: '/Monitor?Cursor=abc123&Take=100' });
    hooks.onResponse({ ...request, path: '/VaultItem/9b1', route: '/VaultItem/{vaultItemGuid}', status: 200, durationMs: 12.4 });
    hooks.onResponse({ ...request, attempt: 2, status: 0, durationMs: 30000 });
    hooks.onRetry?.({ ...request, delayMs: 1500, reason: '503' });
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
});
