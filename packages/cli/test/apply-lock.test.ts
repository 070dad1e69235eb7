import { clientFromEnv } from '@monsync/client';
import { LOCK_SLA_THRESHOLDS } from '@monsync/reconciler';
import { beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { bufferedIo } from '../src/io.js';
import { run } from '../src/main.js';
import { monsync, tempTree, useEmulator } from './helpers.js';

// Two applies of one tree that creates monitors and an SLA: without the lock both plan the creates and both send them.
const TREE = {
  'monsync.yaml': 'apiVersion: monsync/v1\nmanage:\n  monitors: { prune: true }\n  slas: { prune: true }\n',
  'monitors.yaml':
    'monitors:\n' +
    [1, 2, 3, 4].map((n) => `  - { Name: Lock test ${n}, MonitorType: Https, Url: "https://lock-${n}.example.com/" }\n`).join('') +
    'slas:\n  - { Description: Lock test SLA, UptimeErrorThreshold: 99, UptimeWarningThreshold: 99.5 }\n',
};

const suite = useEmulator({ start: { latencyMs: 20 }, eachTest: { reset: true, clearLog: true } });
let tree: string;
const envOf = (operator: string) => ({ ...suite.env, MONSYNC_OPERATOR: operator });

beforeAll(() => {
  tree = tempTree(TREE);
});

async function liveNames(): Promise<{ monitors: string[]; slas: string[] }> {
  const client = clientFromEnv(suite.env);
  try {
    const monitors = await client.monitors.list().toArray();
    const slas = await client.slas.list().toArray();
    return { monitors: monitors.map((m) => String(m['Name'])).sort(), slas: slas.map((s) => String(s['Description'])).sort() };
  } finally {
    await client.close();
  }
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 3000 && !condition(); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  if (!condition()) throw new Error('the condition did not come true within a minute');
}

function duplicates(names: readonly string[]): string[] {
  return names.filter((name, i) => names.indexOf(name) !== i);
}

interface Ran {
  code: number;
  out: string;
  err: string;
}

/**
 * Two applies started together. With `holdUntilOneWaits`, every monitor create is held at the emulator until one of
 * them says it waits for the apply lock: whichever takes the lock cannot finish before the other has seen it held,
 * however long a Retry-After pause keeps the other back (the order comes from what was observed, not from timing).
 */
async function twoApplies(extra: string[] = [], options: { holdUntilOneWaits?: boolean } = {}): Promise<[Ran, Ran]> {
  const argv = ['apply', '--auto-approve', ...extra];
  const alice = bufferedIo({ cwd: tree, env: envOf('alice@example.com'), isTTY: false });
  const bob = bufferedIo({ cwd: tree, env: envOf('bob@example.com'), isTTY: false });
  if (options.holdUntilOneWaits === true) suite.emulator.control.hold({ method: 'POST', route: '/Monitor' });
  const running = Promise.all([run(argv, alice), run(argv, bob)]);
  try {
    if (options.holdUntilOneWaits === true) await until(() => [alice, bob].some((io) => io.err().includes('waiting for the apply lock')));
  } finally {
    suite.emulator.control.release();
  }
  const [aliceCode, bobCode] = await running;
  return [
    { code: aliceCode, out: alice.out(), err: alice.err() },
    { code: bobCode, out: bob.out(), err: bob.err() },
  ];
}

describe('two applies started together', () => {
  it('never duplicate an object: 20 of 20 tries, and the one that waits names the holder', { timeout: 240_000 }, async () => {
    for (let attempt = 1; attempt <= 20; attempt += 1) {
      await suite.emulator.control.reset('empty');
      const [alice, bob] = await twoApplies([], { holdUntilOneWaits: true });
      expect([alice.code, bob.code], `try ${attempt}: ${alice.err}\n${bob.err}`).toEqual([ExitCode.Ok, ExitCode.Ok]);
      const live = await liveNames();
      expect(duplicates(live.monitors), `try ${attempt}`).toEqual([]);
      expect(live.monitors).toHaveLength(4);
      // The lock itself is gone, and no plan saw it.
      expect(live.slas, `try ${attempt}`).toEqual(['Lock test SLA']);
      // One applied the plan; the other waited for it (naming it), read the account again under the lock, and had
      // nothing left to do. (In a collision both wait a moment: each names the other until one backs off.)
      const waiter = [alice, bob].find((r) => r.out.includes('Nothing to apply: the account matches the config.'));
      expect(waiter, `try ${attempt}: neither apply found the other's work done\n${alice.err}\n${bob.err}`).toBeDefined();
      const holder = waiter === alice ? 'bob@example\\.com' : 'alice@example\\.com';
      expect(waiter?.err).toMatch(new RegExp(`waiting for the apply lock, held by \\S+@\\S+ \\(operator ${holder}\\) since \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ \\(lease until `));
      expect(waiter?.err).toContain('the live account changed since the plan was made (another apply wrote to it before this one took the apply lock); the plan made now:');
    }
  });

  it('with --no-lock do duplicate objects, so it is the lock that prevents it', { timeout: 120_000 }, async () => {
    let duplicated: string[] = [];
    for (let attempt = 1; attempt <= 5 && duplicated.length === 0; attempt += 1) {
      await suite.emulator.control.reset('empty');
      await twoApplies(['--no-lock']);
      duplicated = duplicates((await liveNames()).monitors);
    }
    expect(duplicated.length).toBeGreaterThan(0);
  });
});

describe('--lock-timeout', () => {
  it('fails with exit 1 naming the holder when another apply (here an older monsync, by its name) keeps the lock longer', async () => {
    const client = clientFromEnv(suite.env);
    const expires = new Date(Date.now() + 10 * 60_000).toISOString().slice(0, 19);
    try {
      await client.slas.create({ Description: `monsync:lock id=other since=2026-01-01T00:00:00Z expires=${expires}Z host=ci-runner-7 user=runner run=https%3A%2F%2Fgithub.com%2Facme%2Fmon%2Factions%2Fruns%2F42` });
    } finally {
      await client.close();
    }
    suite.emulator.control.clearLog();
    const result = await monsync(['apply', '--auto-approve', '--lock-timeout', '1s'], { cwd: tree, env: envOf('alice@example.com') });
    expect(result.code).toBe(ExitCode.Error);
    expect(result.err).toContain('waiting for the apply lock, held by runner@ci-runner-7 (run https://github.com/acme/mon/actions/runs/42) since 2026-01-01T00:00:00Z');
    expect(result.err).toMatch(/error LOCK_HELD: another apply holds the apply lock: runner@ci-runner-7 \(run https:\/\/github\.com\/acme\/mon\/actions\/runs\/42\) since 2026-01-01T00:00:00Z \(lease until [^)]+\); gave up after \ds\. Run apply again once it is done, or wait longer with --lock-timeout/);
    // Nothing but its own lock object was written, and that is gone again.
    const writes = suite.emulator.control.requestLog().entries.filter((e) => e.method !== 'GET').map((e) => e.route);
    expect(writes.every((route) => route === 'POST /Sla' || route === 'DELETE /Sla/{slaGuid}')).toBe(true);
    expect((await liveNames()).slas).toHaveLength(1);
    expect((await liveNames()).monitors).toEqual([]);
  });

  it('applies once the holder releases the lock within the timeout', async () => {
    const client = clientFromEnv(suite.env);
    const expires = new Date(Date.now() + 10 * 60_000).toISOString().slice(0, 19);
    try {
      await client.slas.create({ Description: `monsync apply lock (do not edit) id=other since=2026-01-01T00:00:00Z expires=${expires}Z host=laptop user=sam`, ...LOCK_SLA_THRESHOLDS });
      const [lock] = (await client.slas.list().toArray()).filter((s) => String(s.Description).startsWith('monsync apply lock'));
      suite.emulator.control.clearLog();
      const applying = monsync(['apply', '--auto-approve', '--lock-timeout', '1m'], { cwd: tree, env: envOf('alice@example.com') });
      // The plan lists SLAs once, then the lock lists them and finds the holder: from then on the apply waits. Refused
      // listings (429 under the rate-limited profile) do not count.
      await until(() => suite.emulator.control.requestLog().entries.filter((e) => e.route === 'GET /Sla' && e.status === 200).length >= 2);
      await client.slas.delete(String(lock?.SlaGuid));
      const result = await applying;
      expect(result.err).toContain('waiting for the apply lock, held by sam@laptop since 2026-01-01T00:00:00Z');
      expect(result.err).toContain('apply lock taken: the other apply is done');
      expect(result.code).toBe(ExitCode.Ok);
      expect((await liveNames()).monitors).toHaveLength(4);
    } finally {
      await client.close();
    }
  });

  it('rejects a duration without a unit', async () => {
    const result = await monsync(['apply', '--auto-approve', '--lock-timeout', '30'], { cwd: tree, env: envOf('alice@example.com') });
    expect(result.code).toBe(ExitCode.Error);
    expect(result.err).toContain("option --lock-timeout: '30' is not a length of time; write it with a unit, e.g. 30s, 5m or 1h");
    expect(suite.emulator.control.requestLog().total).toBe(0);
  });
});

describe('monsync unlock', () => {
  async function plantLock(expires: Date): Promise<string> {
    const client = clientFromEnv(suite.env);
    try {
      await client.slas.create({ Description: `monsync apply lock (do not edit) id=crashed since=2026-01-01T00:00:00Z expires=${expires.toISOString().slice(0, 19)}Z host=build-3 user=jenkins`, ...LOCK_SLA_THRESHOLDS });
      const [lock] = (await client.slas.list().toArray()).filter((s) => String(s.Description).startsWith('monsync apply lock'));
      return String(lock?.SlaGuid);
    } finally {
      await client.close();
    }
  }

  it('breaks a lock past its lease that stopped an apply, which then goes through', async () => {
    const guid = await plantLock(new Date(Date.now() - 60_000));
    const stopped = await monsync(['apply', '--auto-approve'], { cwd: tree, env: envOf('alice@example.com') });
    expect(stopped.code).toBe(ExitCode.Error);
    expect(stopped.err).toContain(`error LOCK_STALE: the apply lock is held by jenkins@build-3 since 2026-01-01T00:00:00Z`);
    expect(stopped.err).toContain(`its lease has run out: that apply stopped without releasing it. If it is no longer running, break the lock with: monsync unlock ${guid}`);
    expect((await liveNames()).monitors).toEqual([]);

    const refused = await monsync(['unlock'], { cwd: tree, env: envOf('alice@example.com') });
    expect(refused.code).toBe(ExitCode.Error);
    expect(refused.err).toContain(`not on a terminal, so there is nobody to confirm; pass --force to break the apply lock ${guid}`);

    const broken = await monsync(['unlock', guid, '--force'], { cwd: tree, env: envOf('alice@example.com') });
    expect(broken.code).toBe(ExitCode.Ok);
    expect(broken.out).toBe(`Apply lock ${guid} broken (it was held by jenkins@build-3 since 2026-01-01T00:00:00Z (lease until ${broken.out.match(/lease until ([^)]+)\)/)?.[1] ?? ''})).\n`);
    expect((await liveNames()).slas).toEqual([]);

    const applied = await monsync(['apply', '--auto-approve'], { cwd: tree, env: envOf('alice@example.com') });
    expect(applied.code).toBe(ExitCode.Ok);
    expect((await liveNames()).monitors).toHaveLength(4);
  });

  it('asks on a terminal, and breaks the lock only on yes', async () => {
    const guid = await plantLock(new Date(Date.now() - 60_000));
    const questions: string[] = [];
    const io = Object.assign(bufferedIo({ env: envOf('alice@example.com'), isTTY: true, cwd: tree }), {
      prompt: async (question: string) => {
        questions.push(question);
        return questions.length === 1 ? 'no' : 'yes';
      },
    });
    expect(await run(['unlock'], io)).toBe(ExitCode.Error);
    expect(io.err()).toContain('Unlock cancelled; the lock stays.');
    expect((await liveNames()).slas).toHaveLength(1);
    expect(await run(['unlock'], io)).toBe(ExitCode.Ok);
    expect(questions[1]).toBe(`Break the apply lock ${guid}, held by jenkins@build-3 since 2026-01-01T00:00:00Z (lease until ${questions[1]?.match(/lease until ([^)]+)\)/)?.[1] ?? ''})?\nDo it only when that apply is no longer running. Only 'yes' is accepted: `);
    expect((await liveNames()).slas).toEqual([]);
  });

  it('breaks a lock within its lease with --force, naming its holder, and asks on a terminal saying it may still be running', async () => {
    const guid = await plantLock(new Date(Date.now() + 10 * 60_000));
    const refused = await monsync(['unlock'], { cwd: tree, env: envOf('alice@example.com') });
    expect(refused.code).toBe(ExitCode.Error);
    expect(refused.err).toContain(`monsync unlock: the apply lock ${guid} is held by jenkins@build-3 since 2026-01-01T00:00:00Z`);
    expect(refused.err).toContain(`its lease has not run out, so that apply may still be running. Not on a terminal, so there is nobody to confirm; pass --force to break the apply lock ${guid}.`);
    expect((await liveNames()).slas).toHaveLength(1);

    const questions: string[] = [];
    const io = Object.assign(bufferedIo({ env: envOf('alice@example.com'), isTTY: true, cwd: tree }), {
      prompt: async (question: string) => {
        questions.push(question);
        return 'no';
      },
    });
    expect(await run(['unlock'], io)).toBe(ExitCode.Error);
    expect(questions[0]).toContain(`Break the apply lock ${guid}, held by jenkins@build-3 since 2026-01-01T00:00:00Z`);
    expect(questions[0]).toContain('\nIts lease has not run out, so that apply may still be running: breaking the lock lets another apply write at the same time.\n');
    expect((await liveNames()).slas).toHaveLength(1);

    const broken = await monsync(['unlock', '--force'], { cwd: tree, env: envOf('alice@example.com') });
    expect(broken.code).toBe(ExitCode.Ok);
    expect(broken.err).toContain(`warning: the apply lock ${guid} is within its lease (held by jenkins@build-3 since 2026-01-01T00:00:00Z`);
    expect(broken.out).toContain(`Apply lock ${guid} broken (it was held by jenkins@build-3 since 2026-01-01T00:00:00Z`);
    expect((await liveNames()).slas).toEqual([]);
    const applied = await monsync(['apply', '--auto-approve', '--lock-timeout', '0'], { cwd: tree, env: envOf('alice@example.com') });
    expect(applied.code).toBe(ExitCode.Ok);
  });

  it('says so when no lock is held, and names the locks when the GUID matches none', async () => {
    const none = await monsync(['unlock', '--force'], { cwd: tree, env: envOf('alice@example.com') });
    expect(none.code).toBe(ExitCode.Ok);
    expect(none.out).toBe('No apply lock is held: there is nothing to unlock.\n');
    const guid = await plantLock(new Date(Date.now() - 60_000));
    const wrong = await monsync(['unlock', '00000000-0000-0000-0000-000000000000', '--force'], { cwd: tree, env: envOf('alice@example.com') });
    expect(wrong.code).toBe(ExitCode.Error);
    expect(wrong.err).toContain(`error LOCK_NOT_FOUND: no apply lock 00000000-0000-0000-0000-000000000000 is in the account; the apply locks there are:\n  ${guid}: jenkins@build-3`);
  });

  it('is invisible to plan and pull while held', async () => {
    await plantLock(new Date(Date.now() + 10 * 60_000));
    const plan = await monsync(['plan', '--format', 'json'], { cwd: tree, env: envOf('alice@example.com') });
    expect(plan.out).not.toContain('monsync apply lock');
    const out = tempTree({});
    const pulled = await monsync(['pull', '--out', `${out}/pulled`], { cwd: tree, env: envOf('alice@example.com') });
    expect(pulled.code).toBe(ExitCode.Ok);
    expect(pulled.out).not.toContain('slas');
  });
});
