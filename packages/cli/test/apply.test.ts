import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_READ_ATTEMPTS, DEFAULT_WRITE_ATTEMPTS } from '@monsync/client';
import { describe, expect, it } from 'vitest';
import type { PromptingIo } from '../src/commands/apply.js';
import { ExitCode } from '../src/exit-codes.js';
import { bufferedIo } from '../src/io.js';
import { run } from '../src/main.js';
import { expectNoSecrets, useApplySuite } from './apply-fixtures.js';
import { copyOfDemoConfigs, expectReadFailureLast, monsync, REPO_ROOT, stageFingerprints, tempTree } from './helpers.js';

const { suite, writes, monitorGuid } = useApplySuite();

/** Runs monsync on a terminal whose user answers `answer` (and may do something first, like a colleague would). */
async function onTerminal(argv: string[], answer: string, before?: () => Promise<void>) {
  const questions: string[] = [];
  const io: PromptingIo & ReturnType<typeof bufferedIo> = Object.assign(bufferedIo({ env: suite.env, isTTY: true, cwd: REPO_ROOT }), {
    prompt: async (question: string) => {
      questions.push(question);
      await before?.();
      return answer;
    },
  });
  const code = await run(argv, io);
  return { code, out: io.out(), err: io.err(), questions };
}

describe('monsync apply (plan, then apply)', () => {
  it('applies the demo tree with --auto-approve, after which plan shows no changes', async () => {
    const { code, out, err } = await monsync(['apply', '--config', 'configs', '--auto-approve'], { env: suite.env });
    expect(err).not.toContain('error');
    expect(code).toBe(ExitCode.Ok);
    expect(out).toContain('+ create monitor "Status page"');
    expect(out).toMatch(/Apply complete: (\d+) of \1 steps done \(\d+ created, \d+ updated, 1 deleted\), 0 failed, 0 skipped/);
    // Without a terminal: one line per step.
    expect(err).toContain('  + monitor "Status page" created (');
    expect(err).toContain('  - monitor "Old status page" deleted');
    expect(err).toContain('  + alert definition "Shop on-call" created (');
    const again = await monsync(['plan', '--config', 'configs', '--detailed-exitcode'], { env: suite.env });
    expect(again.code).toBe(ExitCode.Ok);
    expectNoSecrets(out, err, again.out, again.err);
  });

  it('writes nothing on a second apply (alert definitions are read and compared, not re-asserted)', async () => {
    await monsync(['apply', '--config', 'configs', '--auto-approve'], { env: suite.env });
    suite.emulator.control.clearLog();
    const second = await monsync(['apply', '--config', 'configs', '--auto-approve'], { env: suite.env });
    expect(second.code).toBe(ExitCode.Ok);
    // Nothing to do, so not even the apply lock is taken. On the rate-limited
    // profile a request it refused with 429 was never carried out, and the client sends it again.
    const carriedOut = writes().filter((e) => e.fault !== 'rate-limit');
    expect(carriedOut.map((e) => e.route)).toEqual([]);
  });

  it('requires --auto-approve when not on a terminal, before reading or writing anything', async () => {
    const { code, err } = await monsync(['apply', '--config', 'configs'], { env: suite.env });
    expect(code).toBe(ExitCode.Error);
    expect(err).toContain('not on a terminal, so there is nobody to confirm');
    expect(err).toContain('--auto-approve');
    expect(suite.emulator.control.requestLog().total).toBe(0);
  });

  it('asks on a terminal and changes nothing unless the answer is yes', async () => {
    const refused = await onTerminal(['apply', '--config', 'configs'], 'y');
    expect(refused.code).toBe(ExitCode.Error);
    expect(refused.questions[0]).toMatch(/Apply \d+ changes \(\d+ created, \d+ updated, 1 deleted\) to http:\/\/127\.0\.0\.1:\d+\/v4\?\nOnly 'yes' is accepted: $/);
    expect(refused.err).toContain('Apply cancelled; nothing was changed.');
    expect(writes()).toEqual([]);
    const accepted = await onTerminal(['apply', '--config', 'configs'], 'yes');
    expect(accepted.code).toBe(ExitCode.Ok);
    expect(accepted.out).toContain('Apply complete');
    // The live line: rewritten in place, with done/total and in flight.
    expect(accepted.err).toContain('\r\u001b[Kapplying: ');
    expect(accepted.err).toMatch(/applying: \d+\/\d+ done, \d+ in flight/);
  });

  it('--verify plans again after applying and fails when something remains', async () => {
    const ok = await monsync(['apply', '--config', 'configs', '--auto-approve', '--verify'], { env: suite.env });
    expect(ok.code).toBe(ExitCode.Ok);
    expect(ok.out).toContain('Verified: a new plan shows no changes.');

    await suite.emulator.control.reset('demo');
    await stageFingerprints(suite.emulator, suite.env);
    const guid = await monitorGuid('Marketing site');
    // A colleague changes a monitor in the web app while the plan is on screen: not in this plan, found by --verify
    // (without the lock: under it, the account is read again before the first write and the change is planned).
    const raced = await onTerminal(['apply', '--config', 'configs', '--verify', '--no-lock'], 'yes', async () => {
      const result = await suite.emulator.control.actAs('sam.ops@example.com', { method: 'PATCH', path: `/Monitor/${guid}`, body: { CheckInterval: 60 } });
      // 200 in the spec's reading, 204 as the published definition answers a PATCH.
      expect([200, 204]).toContain(result.status);
    });
    expect(raced.code).toBe(ExitCode.Error);
    expect(raced.out).toContain('Apply complete');
    expect(raced.err).toContain('verify failed: 1 change remain after apply: update monitor "Marketing site"');
  });

  it('reads the account again under the apply lock: a change made while the plan was on screen is planned and asked about again', async () => {
    const guid = await monitorGuid('Marketing site');
    let asked = 0;
    const raced = await onTerminal(['apply', '--config', 'configs', '--verify'], 'yes', async () => {
      asked += 1;
      if (asked > 1) return;
      const result = await suite.emulator.control.actAs('sam.ops@example.com', { method: 'PATCH', path: `/Monitor/${guid}`, body: { CheckInterval: 60 } });
      expect([200, 204]).toContain(result.status);
    });
    expect(raced.err).toContain('the live account changed since the plan was made (another apply wrote to it before this one took the apply lock); the plan made now:');
    expect(raced.questions).toHaveLength(2);
    expect(raced.out).toContain('Verified: a new plan shows no changes.');
    expect(raced.code).toBe(ExitCode.Ok);
  });

  it('reports a failed step with the service message, skips what depends on it, exits 1, and a rerun converges', async () => {
    // A create answered 500 is looked up and sent again until the client's attempts of a write are used up.
    suite.emulator.control.setFaults({ scripted: [{ method: 'POST', route: '/Monitor', count: DEFAULT_WRITE_ATTEMPTS, kind: '500' }] });
    const failed = await monsync(['apply', '--config', 'configs', '--auto-approve', '--parallelism', '1'], { env: suite.env });
    expect(failed.code).toBe(ExitCode.Error);
    expect(failed.out).toContain('Apply finished with failures');
    expect(failed.out).toContain('monitor "Status page" (create): POST /Monitor failed with 500 Internal Server Error: Internal server error (injected fault).');
    expect(failed.out).toContain('group membership "Marketing/Status page" (create): waited for monitor:Status page');
    expect(failed.err).toContain('  ! monitor "Status page": create failed: POST /Monitor failed with 500');
    expect(failed.out).toContain('Run monsync apply again once the cause is fixed');
    const rerun = await monsync(['apply', '--config', 'configs', '--auto-approve', '--verify'], { env: suite.env });
    expect(rerun.code).toBe(ExitCode.Ok);
    expect(await monitorGuid('Status page')).toMatch(/^[0-9a-f-]{36}$/);
    expectNoSecrets(failed.out, failed.err, rerun.out, rerun.err);
  });

  it('refuses an unsafe plan without --allow-unsafe, naming the kind and the counts', async () => {
    const tree = tempTree({
      'monsync.yaml': 'apiVersion: monsync/v1\nmanage:\n  monitors: { prune: true }\nignore: ["monitor:legacy-*"]\n',
      'monitors.yaml': 'monitors:\n  - { Name: Shop homepage, MonitorType: Https }\n',
    });
    const refused = await monsync(['apply', '--auto-approve'], { env: suite.env, cwd: tree });
    expect(refused.code).toBe(ExitCode.UnsafeOrStale);
    expect(refused.err).toMatch(/apply refused: the plan is unsafe[^\n]*\n {2}monitor: deletes \d+ of \d+ \(\d+(\.\d)?%\), over 30% and at least 3 \(safety\.maxDeletePercent, safety\.minDeleteCount\)/);
    expect(refused.err).toContain('--allow-unsafe');
    expect(writes()).toEqual([]);
    const allowed = await monsync(['apply', '--auto-approve', '--allow-unsafe'], { env: suite.env, cwd: tree });
    expect(allowed.code).toBe(ExitCode.Ok);
    expect(allowed.out).toMatch(/Apply complete: \d+ of \d+ steps done \(\d+ deleted\)/);
  });

  it('refuses a plan over the update threshold saying what was exceeded and both ways on', async () => {
    // Without fingerprint markers every vault item plans an update: 2 of 2, over 50% and, with minUpdateCount 2, enough of them.
    await suite.emulator.control.reset('demo');
    suite.emulator.control.clearLog();
    const root = copyOfDemoConfigs();
    const settings = join(root, 'configs', 'monsync.yaml');
    writeFileSync(settings, readFileSync(settings, 'utf8').replace('minUpdateCount: 10', 'minUpdateCount: 2'));
    const refused = await monsync(['apply', '--config', join(root, 'configs'), '--auto-approve'], { env: suite.env });
    expect(refused.code).toBe(ExitCode.UnsafeOrStale);
    expect(refused.err).toContain('  vaultItem: updates 2 of 2 (100%), over 50% and at least 2 (safety.maxUpdatePercent, safety.minUpdateCount)');
    expect(refused.err).toContain('--allow-unsafe accepts it (monsync apply --allow-unsafe)');
    expect(refused.err).toContain('raise safety.maxUpdatePercent in monsync.yaml');
    expect(writes()).toEqual([]);
  });

  it('ends the read with "failed after N requests" when a listing keeps failing with a 500, and writes nothing', async () => {
    // A read that fails every attempt the client makes of it (its one retry policy): the fault outlasts them.
    suite.emulator.control.setFaults({ scripted: [{ method: 'GET', route: '/Monitor', count: DEFAULT_READ_ATTEMPTS, kind: '500' }] });
    const { code, err } = await monsync(['apply', '--config', 'configs', '--auto-approve', '--verbose'], { env: suite.env });
    expect(code).toBe(ExitCode.Error);
    expect(expectReadFailureLast(err, 'apply')).toBe(suite.emulator.control.requestLog().total);
    expect(writes()).toEqual([]);
  });

  it('logs a retried listing with --verbose, as plan does', async () => {
    suite.emulator.control.setFaults({ scripted: [{ method: 'GET', route: '/Sla', count: 1, kind: '503' }] });
    const { code, err } = await monsync(['apply', '--config', 'configs', '--auto-approve', '--verbose'], { env: suite.env });
    expect(code).toBe(ExitCode.Ok);
    expect(err).toMatch(/^ {3}retrying GET \/Sla in [0-9.]+s \(503\)$/m);
  });

  it('rejects a bad --parallelism and --replan without a plan file', async () => {
    const bad = await monsync(['apply', '--config', 'configs', '--auto-approve', '--parallelism', '0'], { env: suite.env });
    expect(bad.code).toBe(ExitCode.Error);
    expect(bad.err).toContain("option --parallelism: '0' is not a whole number from 1 to 64");
    const replan = await monsync(['apply', '--config', 'configs', '--auto-approve', '--replan'], { env: suite.env });
    expect(replan.code).toBe(ExitCode.Error);
    expect(replan.err).toContain('--replan applies to a saved plan');
  });
});
