/**
 * Ctrl-C and SIGTERM sent to a real `monsync apply` process (the bundled bin, as users run it) while it takes the
 * apply lock and while it writes. The emulator's `hold` stops the process at a known request, so each signal lands
 * where the test says, whatever the machine's speed: the order comes from what the test observed, never from time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { clientFromEnv } from '@monsync/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { monsync, REPO_ROOT, tempTree, useEmulator } from './helpers.js';

const BIN = join(REPO_ROOT, 'packages', 'cli', 'bin', 'monsync.js');

const TREE = {
  'monsync.yaml': 'apiVersion: monsync/v1\nmanage:\n  monitors: { prune: true }\n  slas: { prune: true }\n',
  'monitors.yaml':
    'monitors:\n' +
    [1, 2, 3, 4].map((n) => `  - { Name: Stop test ${n}, MonitorType: Https, Url: "https://stop-${n}.example.com/" }\n`).join('') +
    'slas:\n  - { Description: Stop test SLA, UptimeErrorThreshold: 99, UptimeWarningThreshold: 99.5 }\n',
};

const suite = useEmulator({ eachTest: { reset: true, clearLog: true } });
let tree: string;

beforeAll(() => {
  tree = tempTree(TREE);
});

interface Running {
  child: ChildProcess;
  err(): string;
  out(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `monsync apply` as its own process, from the bundle `pnpm build` writes. */
function spawnApply(args: string[]): Running {
  expect(existsSync(join(REPO_ROOT, 'packages', 'cli', 'dist', 'bin.js')), 'packages/cli/dist/bin.js is missing: run `npx pnpm@10 build`').toBe(true);
  const child = spawn(process.execPath, [BIN, 'apply', '--auto-approve', ...args], { cwd: tree, env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', ...suite.env } });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  return { child, err: () => err, out: () => out, exited };
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 3000; i += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${what} did not happen within a minute`);
}

async function live(): Promise<{ monitors: string[]; slas: string[] }> {
  const client = clientFromEnv(suite.env);
  try {
    const monitors = (await client.monitors.list().toArray()).map((m) => String(m['Name'])).sort();
    const slas = (await client.slas.list().toArray()).map((s) => String(s['Description'])).sort();
    return { monitors, slas };
  } finally {
    await client.close();
  }
}

/** Every request of `route` the emulator took has been answered (a held one, released, is carried out even for a process gone). */
function answered(route: string): boolean {
  const entries = suite.emulator.control.requestLog().entries.filter((e) => e.route === route);
  return entries.length > 0 && entries.every((e) => e.status !== 0);
}

const ALL_MONITORS = [1, 2, 3, 4].map((n) => `Stop test ${n}`);

/** The next apply takes the lock at once (`--lock-timeout 0`) and finishes the job without duplicating anything. */
async function nextApplyFinishes(): Promise<void> {
  const next = await monsync(['apply', '--auto-approve', '--lock-timeout', '0'], { cwd: tree, env: suite.env });
  expect(next.code, next.err).toBe(ExitCode.Ok);
  expect(await live()).toEqual({ monitors: ALL_MONITORS, slas: ['Stop test SLA'] });
}

describe('monsync apply stopped by a signal', () => {
  it('SIGINT while it takes the apply lock: nothing changed, no lock left, exit 130', { timeout: 120_000 }, async () => {
    suite.emulator.control.hold({ method: 'POST', route: '/Sla' });
    const apply = spawnApply([]);
    try {
      await until(() => suite.emulator.control.held() > 0, 'the lock announcing itself');
      apply.child.kill('SIGINT');
      await until(() => apply.err().includes('SIGINT received'), 'apply reporting the interrupt');
    } finally {
      suite.emulator.control.release();
    }
    const { code } = await apply.exited;
    expect(code, apply.err()).toBe(130);
    expect(apply.err()).toContain('monsync: SIGINT received: starting no new step, letting the requests under way finish (at most 10s), then releasing the apply lock (SIGINT again exits at once).');
    expect(apply.err()).toMatch(/Apply stopped (while taking the apply lock|once it held the apply lock, before any change): nothing was changed/);
    expect(await live()).toEqual({ monitors: [], slas: [] });
    await nextApplyFinishes();
  });

  it('SIGTERM mid-apply: the write under way settles, the rest is not run and listed, the lock is released, exit 143', { timeout: 120_000 }, async () => {
    suite.emulator.control.hold({ method: 'POST', route: '/Monitor' });
    const apply = spawnApply(['--parallelism', '1']);
    try {
      await until(() => suite.emulator.control.held() > 0, 'the first monitor create');
      apply.child.kill('SIGTERM');
      await until(() => apply.err().includes('SIGTERM received'), 'apply reporting the signal');
    } finally {
      suite.emulator.control.release();
    }
    const { code } = await apply.exited;
    expect(code, apply.err()).toBe(143);
    expect(apply.out()).toContain('Apply stopped: 1 of 5 steps done (1 created), 0 failed, 0 skipped, 4 not run, in ');
    expect(apply.out()).toContain(
      'Not run: 4 steps (the apply was stopped):\n' +
        '  + monitor "Stop test 2" (create)\n  + monitor "Stop test 3" (create)\n  + monitor "Stop test 4" (create)\n  + SLA "Stop test SLA" (create)\n' +
        'Run monsync apply again to finish: what is done stays done, and only the rest is planned.\n',
    );
    expect(apply.err()).toContain('The apply lock was released: the next apply starts at once.');
    expect(await live()).toEqual({ monitors: ['Stop test 1'], slas: [] });
    await nextApplyFinishes();
  });

  it('a second SIGINT exits at once, saying the lock is left and how to break it', { timeout: 120_000 }, async () => {
    suite.emulator.control.hold({ method: 'POST', route: '/Monitor' });
    const apply = spawnApply(['--parallelism', '1']);
    try {
      await until(() => suite.emulator.control.held() > 0, 'the first monitor create');
      apply.child.kill('SIGINT');
      await until(() => apply.err().includes('SIGINT received'), 'apply reporting the interrupt');
      apply.child.kill('SIGINT');
      const { code } = await apply.exited;
      expect(code).toBe(130);
    } finally {
      suite.emulator.control.release();
    }
    const left = /The apply lock (\S+) is left in the account \(lease until [^)]+\), so the next apply waits for it: break it with monsync unlock (\S+) --force\./.exec(apply.err());
    expect(left, apply.err()).not.toBeNull();
    expect(left?.[2]).toBe(left?.[1]);
    expect(apply.err()).toContain('monsync: SIGINT again: exiting at once.');
    // The create it left under way is carried out by the service all the same.
    await until(() => answered('POST /Monitor'), 'the held create being carried out');
    expect((await live()).slas).toEqual([expect.stringMatching(/^monsync apply lock \(do not edit\) id=/)]);

    const waited = await monsync(['apply', '--auto-approve', '--lock-timeout', '0'], { cwd: tree, env: suite.env });
    expect(waited.code).toBe(ExitCode.Error);
    expect(waited.err).toContain('error LOCK_HELD');
    const broken = await monsync(['unlock', String(left?.[1]), '--force'], { cwd: tree, env: suite.env });
    expect(broken.code, broken.err).toBe(ExitCode.Ok);
    await nextApplyFinishes();
  });
});
