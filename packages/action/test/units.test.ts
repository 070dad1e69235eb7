import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthenticationError, NetworkError } from '@monsync/client';
import { Secret } from '@monsync/schema';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Plan } from '@monsync/reconciler';
import { applyBody, boundedLines, footerLine, validationBody } from '../src/bodies.js';
import { logStep } from '../src/commands/apply.js';
import { readContext } from '../src/github-context.js';
import { failureMessage } from '../src/main.js';
import { applyMarker, driftMarker, planMarker } from '../src/markers.js';
import { findSecrets, Masker, maskTreeSecrets } from '../src/masking.js';
import { parseCommands } from './harness.js';

function capture(): { lines(): string[] } {
  const chunks: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  });
  return { lines: () => chunks.join('').split('\n').filter((line) => line !== '') };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('markers', () => {
  it('name the folder exactly, so that one folder never matches the marker of a folder inside it', () => {
    expect(planMarker('configs')).toBe('<!-- monsync:plan config=configs -->');
    expect(planMarker('configs/eu').includes(planMarker('configs'))).toBe(false);
    expect(applyMarker('.')).toBe('<!-- monsync:apply config=. -->');
    expect(driftMarker('a b')).toBe('<!-- monsync:drift config=a%20b -->');
  });

  it('cannot be ended early by a folder name holding -->', () => {
    const marker = planMarker('x-->y');
    expect(marker.indexOf('-->')).toBe(marker.length - 3);
  });
});

describe('logStep', () => {
  it('logs a create that is sent again, with the attempt and the reason', () => {
    const out = capture();
    const step = { id: 'monitor:Shop', action: 'create', kind: 'monitor', key: 'Shop' } as unknown as Parameters<typeof logStep>[0]['step'];
    const progress = { done: 0, failed: 0, skipped: 0, total: 1 } as unknown as Parameters<typeof logStep>[0]['progress'];
    logStep({ type: 'retry', step, reason: 'HTTP 429, after 1.0s', attempt: 2, progress });
    expect(out.lines()).toEqual(['  monitor "Shop": create tried again, attempt 2 (HTTP 429, after 1.0s)']);
  });
});

describe('applyBody', () => {
  it('cuts a long list of done steps with a count that reads as English', () => {
    const done = Array.from({ length: 400 }, (_, i) => ({ id: `monitor:m${i}`, action: 'create' as const, kind: 'monitor' as const, key: `m${i}` }));
    const plan = { formatVersion: 1, safe: true, steps: [], unmanaged: [], warnings: [], violations: [], summary: { create: 0, update: 0, delete: 0, ensure: 0, unchanged: 0, unmanaged: 0 } } as unknown as Plan;
    const report = { total: 400, done, failed: [], skipped: [], notRun: [], ok: true, durationMs: 1000 };
    const body = applyBody({ kind: 'applied', plan, report }, { marker: '', label: 'configs', footer: '', fullPlanHint: 'see the plan file', budget: 4000 });
    expect(body).toMatch(/- … \d+ more steps: see the plan file/);
    expect(body).not.toContain('dones');
  });
});

describe('boundedLines', () => {
  it('keeps whole lines within the budget and says how many more there are', () => {
    const lines = Array.from({ length: 50 }, (_, i) => `- line ${i}`);
    const text = boundedLines(lines, 120, (n) => `- … ${n} more`);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(120);
    const kept = text.split('\n').filter((line) => line.startsWith('- line'));
    expect(text).toContain(`- … ${50 - kept.length} more`);
    expect(kept.length).toBeGreaterThan(0);
  });

  it('keeps everything when it fits', () => {
    expect(boundedLines(['a', 'b'], 100, () => 'more')).toBe('a\nb\n');
  });
});

describe('validationBody', () => {
  /** A GFM table row's cells: split at every pipe GitHub does not see as escaped, the outer two dropped. */
  const cells = (row: string): string[] => row.split(/(?<!\\)\|/).slice(1, -1);

  it('keeps a path holding | or a backtick in its own column, shown as it is', () => {
    const diagnostic = { severity: 'error' as const, code: 'UNKNOWN_FIELD', message: 'Field "Nmae" is unknown; did you mean Name?', file: 'x', line: 3, column: 5 };
    const body = validationBody([diagnostic], () => 'configs/a|b`c/monitors.yaml', { marker: '', label: 'configs/a|b`c', footer: '', fullPlanHint: '', budget: 65_000 });
    const row = body.split('\n').find((line) => line.includes('UNKNOWN_FIELD'));
    expect(row).toBeDefined();
    expect(cells(row ?? '')).toHaveLength(4);
    expect(cells(row ?? '')[0]).toBe(' ``configs/a\\|b`c/monitors.yaml:3:5`` ');
  });
});

describe('footerLine', () => {
  it('names the short commit and links the run', () => {
    expect(footerLine('0123456789abcdef', 'https://github.com/o/r/actions/runs/1')).toBe('\n<sub>monsync · commit `0123456` · [workflow run](https://github.com/o/r/actions/runs/1)</sub>\n');
  });
});

describe('readContext', () => {
  function event(payload: object): string {
    const path = join(mkdtempSync(join(tmpdir(), 'monsync-action-event-')), 'event.json');
    writeFileSync(path, JSON.stringify(payload));
    return path;
  }

  it('tells a fork pull request from one of the repository, and a deleted fork counts as a fork', () => {
    const base = { base: { repo: { full_name: 'acme/mon' } } };
    const own = readContext({ GITHUB_REPOSITORY: 'acme/mon', GITHUB_EVENT_PATH: event({ pull_request: { number: 3, head: { repo: { full_name: 'Acme/Mon' } }, ...base } }) });
    expect(own.pullRequest).toEqual({ number: 3, fork: false, headSha: '' });
    const fork = readContext({ GITHUB_REPOSITORY: 'acme/mon', GITHUB_EVENT_PATH: event({ pull_request: { number: 4, head: { repo: { full_name: 'eve/mon' } }, ...base } }) });
    expect(fork.pullRequest).toEqual({ number: 4, fork: true, headSha: '' });
    const gone = readContext({ GITHUB_REPOSITORY: 'acme/mon', GITHUB_EVENT_PATH: event({ pull_request: { number: 5, head: { repo: null }, ...base } }) });
    expect(gone.pullRequest).toEqual({ number: 5, fork: true, headSha: '' });
  });

  it('defaults the API and server URLs and has no pull request on a push', () => {
    const context = readContext({ GITHUB_EVENT_PATH: event({ ref: 'refs/heads/main' }), GITHUB_WORKSPACE: '/w' });
    expect(context).toMatchObject({ apiUrl: 'https://api.github.com', serverUrl: 'https://github.com', workspace: '/w', tempDir: '/w', pullRequest: undefined });
  });

  it('says which variable holds a payload that is not JSON', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'monsync-action-event-')), 'event.json');
    writeFileSync(path, '{not json');
    expect(() => readContext({ GITHUB_EVENT_PATH: path })).toThrow(/^GITHUB_EVENT_PATH .*event\.json: the event payload is not JSON/);
  });
});

describe('Masker', () => {
  it('registers a value once, and each line of a multi-line value, before redacting them from messages', () => {
    const out = capture();
    const masker = new Masker();
    masker.add('CANARY-one');
    masker.add('CANARY-one');
    masker.add('-----BEGIN KEY-----\nCANARY-line-two\n-----END KEY-----');
    masker.add('');
    const masks = parseCommands(out.lines()).filter((c) => c.command === 'add-mask').map((c) => c.message);
    expect(masks).toEqual(['CANARY-one', '-----BEGIN KEY-----\nCANARY-line-two\n-----END KEY-----', '-----BEGIN KEY-----', 'CANARY-line-two', '-----END KEY-----']);
    expect(masker.redact()('login failed for CANARY-one and CANARY-line-two')).toBe('login failed for [redacted] and [redacted]');
  });

  it('finds the secrets anywhere in a loaded tree, and names one it cannot read without a value', () => {
    const out = capture();
    const source = { file: 'vault.yaml', line: 3, column: 5 };
    const present = new Secret({ fromEnv: 'PRESENT' }, source, { baseDir: '/tmp', env: { PRESENT: 'CANARY-present' } });
    const missing = new Secret({ fromEnv: 'MISSING' }, source, { baseDir: '/tmp', env: {} });
    const tree = { vault: [{ items: [{ Password: present, nested: { deeper: [missing] } }] }], self: {} as object };
    (tree.self as { loop?: object }).loop = tree;
    expect(findSecrets(tree)).toEqual([present, missing]);
    const masker = new Masker();
    expect(maskTreeSecrets(masker, tree)).toEqual({ masked: 1, unavailable: ['env MISSING'] });
    expect(parseCommands(out.lines()).map((c) => c.message)).toEqual(['CANARY-present']);
  });
});

describe('failureMessage', () => {
  it('gives a GitHub failure its status and request without the query, and an error its code, never a stack', () => {
    const http = Object.assign(new Error('Not Found'), { name: 'HttpError', status: 404, request: { method: 'GET', url: 'https://api.github.com/repos/o/r/issues?state=open&access_token=CANARY' } });
    expect(failureMessage(http)).toBe('GitHub API request failed with 404 (GET https://api.github.com/repos/o/r/issues): Not Found; check the workflow permissions (pull-requests: write for plan and apply, issues: write for drift)');
    expect(failureMessage(Object.assign(new Error('boom'), { code: 'SOME_CODE' }))).toBe('SOME_CODE: boom');
    expect(failureMessage('plain')).toBe('plain');
  });

  it("names the inputs to check when the service refused the login or could not be reached, never their values", () => {
    const refused = new AuthenticationError({ method: 'GET', path: '/Monitor', status: 401, serviceMessage: 'Invalid API credentials.' });
    const plan = new Error('reading monitors from the service failed', { cause: refused });
    expect(failureMessage(plan)).toBe("reading monitors from the service failed. Check the api-username and api-password inputs: the API account's user name and password (not a web login), for the service api-url names.");
    const unreachable = new NetworkError({ method: 'GET', path: '/Monitor', status: 0 });
    expect(failureMessage(unreachable)).toMatch(/^Monitoring API: NETWORK_ERROR: .+\. Check the api-url input \(the API root, e\.g\. https:\/\/api\.example\.com\/v4\) and that the service is reachable from the runner\.$/);
    expect(failureMessage(Object.assign(new Error('boom'), { code: 'SOME_CODE' }))).toBe('SOME_CODE: boom');
  });
});
