import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientFromEnv, DEFAULT_READ_ATTEMPTS, DEFAULT_WRITE_ATTEMPTS } from '@monsync/client';
import type { Plan } from '@monsync/reconciler';
import { describe, expect, it } from 'vitest';
import type { PromptingIo } from '../src/commands/apply.js';
import { ExitCode } from '../src/exit-codes.js';
import { bufferedIo } from '../src/io.js';
import { run } from '../src/main.js';
import { copyOfDemoConfigs, expectReadFailureLast, monsync, REPO_ROOT, stageFingerprints, tempTree, useEmulator } from './helpers.js';

const CANARIES = {
  DEMO_SHOP_PASSWORD: 'CANARY-7f3a9c-apply-shop-password',
  DEMO_SHOP_OTP_SECRET: 'CANARYSEVENFAAPPLYOTP',
  DEMO_CLIENT_CERT_PFX_BASE64: Buffer.from('CANARY-7f3a9c-apply-pfx-bytes').toString('base64'),
  DEMO_CLIENT_CERT_PASSWORD: 'CANARY-7f3a9c-apply-pfx-password',
};
const API_PASSWORD = 'demo-password';

const suite = useEmulator({
  seed: 'demo',
  start: { retryAfterSeconds: 0 },
  operator: 'admin@example.com',
  env: { MONSYNC_API_PASSWORD: API_PASSWORD, ...CANARIES },
  eachTest: { faultsOff: true, reset: true, stageFingerprints: true, clearLog: true },
});

function expectNoSecrets(...texts: string[]): void {
  for (const text of texts) for (const value of [...Object.values(CANARIES), API_PASSWORD, 'CANARYROTATED']) expect(text).not.toContain(value);
}

const writes = () => suite.emulator.control.requestLog().entries.filter((e) => e.method !== 'GET');

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

async function monitorGuid(name: string): Promise<string> {
  const client = clientFromEnv(suite.env);
  try {
    const found = (await client.monitors.list().toArray()).find((m) => m.Name === name);
    return String(found?.MonitorGuid);
  } finally {
    await client.close();
  }
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

describe('monsync apply PLANFILE (a saved plan)', () => {
  it('applies a plan saved by plan --out when the account has not changed', async () => {
    const tree = copyOfDemoConfigs();
    expect((await monsync(['plan', '--config', 'configs', '--out', 'plan.json'], { env: suite.env, cwd: tree })).code).toBe(ExitCode.Ok);
    const saved = JSON.parse(readFileSync(join(tree, 'plan.json'), 'utf8')) as Plan;
    const { code, out } = await monsync(['apply', 'plan.json', '--config', 'configs', '--auto-approve'], { env: suite.env, cwd: tree });
    expect(code).toBe(ExitCode.Ok);
    expect(out).toContain(`Apply complete: ${saved.steps.length} of ${saved.steps.length} steps done`);
    expect((await monsync(['plan', '--config', 'configs', '--detailed-exitcode'], { env: suite.env, cwd: tree })).code).toBe(ExitCode.Ok);
  });

  it('refuses with exit 3 when the live account changed since, naming the object, and writes nothing', async () => {
    const tree = copyOfDemoConfigs();
    await monsync(['plan', '--config', 'configs', '--out', 'plan.json'], { env: suite.env, cwd: tree });
    const guid = await monitorGuid('Blog');
    await suite.emulator.control.actAs('sam.ops@example.com', { method: 'PATCH', path: `/Monitor/${guid}`, body: { CheckInterval: 30 } });
    suite.emulator.control.clearLog();
    const { code, err } = await monsync(['apply', 'plan.json', '--config', 'configs', '--auto-approve'], { env: suite.env, cwd: tree });
    expect(code).toBe(ExitCode.UnsafeOrStale);
    expect(err).toContain('apply refused: the live account changed since plan.json was made');
    expect(err).toMatch(/ {2}monitor "Blog": its update differs from the saved plan's \(changed outside git by Sam Ops at \d{4}-\d\d-\d\dT/);
    expect(err).toContain('monsync apply plan.json --replan');
    expect(writes()).toEqual([]);
  });

  it('says so when the change is to something the plan does not touch', async () => {
    const tree = copyOfDemoConfigs();
    await monsync(['plan', '--config', 'configs', '--out', 'plan.json'], { env: suite.env, cwd: tree });
    const guid = await monitorGuid('Marketing site');
    // Timeout is not declared in configs/, so the plan stays the same while the live digest does not.
    await suite.emulator.control.actAs('sam.ops@example.com', { method: 'PATCH', path: `/Monitor/${guid}`, body: { Timeout: 45 } });
    const { code, err } = await monsync(['apply', 'plan.json', '--config', 'configs', '--auto-approve'], { env: suite.env, cwd: tree });
    expect(code).toBe(ExitCode.UnsafeOrStale);
    expect(err).toContain('objects or fields the plan does not touch');
  });

  it('--replan shows and applies a fresh plan instead', async () => {
    const tree = copyOfDemoConfigs();
    await monsync(['plan', '--config', 'configs', '--out', 'plan.json'], { env: suite.env, cwd: tree });
    const guid = await monitorGuid('Blog');
    await suite.emulator.control.actAs('sam.ops@example.com', { method: 'PATCH', path: `/Monitor/${guid}`, body: { CheckInterval: 30 } });
    const { code, out, err } = await monsync(['apply', 'plan.json', '--config', 'configs', '--auto-approve', '--replan', '--verify'], { env: suite.env, cwd: tree });
    expect(code).toBe(ExitCode.Ok);
    expect(err).toContain('applying a fresh plan instead (--replan)');
    expect(out).toContain('CheckInterval: 30 -> 15');
    expect(out).toContain('Verified');
  });

  it('refuses with exit 3 when a secret changed since the plan was made, and names its source, not its value', async () => {
    const tree = copyOfDemoConfigs();
    const planned = await monsync(['plan', '--config', 'configs', '--out', 'plan.json'], { env: suite.env, cwd: tree });
    expect(planned.out).toContain('+ create vaultItem "Web/shop-otp"');
    suite.emulator.control.clearLog();
    const rotated = { ...suite.env, DEMO_SHOP_OTP_SECRET: 'CANARYROTATEDAFTERREVIEW' };
    const { code, out, err } = await monsync(['apply', 'plan.json', '--config', 'configs', '--auto-approve'], { env: rotated, cwd: tree });
    expect(code).toBe(ExitCode.UnsafeOrStale);
    expect(err).toContain('apply refused: a secret has changed since the plan was made, so nothing was applied');
    expect(err).toContain('vaultItem:Web/shop-otp /Value (env DEMO_SHOP_OTP_SECRET)');
    expect(writes()).toEqual([]);
    expectNoSecrets(out, err);
  });

  it('refuses with exit 3 when the config tree changed since the plan was made, suggesting --replan, and writes nothing', async () => {
    const tree = copyOfDemoConfigs();
    expect((await monsync(['plan', '--config', 'configs', '--out', 'plan.json'], { env: suite.env, cwd: tree })).code).toBe(ExitCode.Ok);
    const file = join(tree, 'configs', 'monitors', 'marketing.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('Url: https://status.example.com/', 'Url: https://status.example.net/'));
    suite.emulator.control.clearLog();
    const { code, err } = await monsync(['apply', 'plan.json', '--config', 'configs', '--auto-approve'], { env: suite.env, cwd: tree });
    expect(code).toBe(ExitCode.UnsafeOrStale);
    expect(err).toContain('apply refused: the config tree configs changed since plan.json was made');
    expect(err).toContain('monsync apply plan.json --replan');
    expect(writes()).toEqual([]);
    const replanned = await monsync(['apply', 'plan.json', '--config', 'configs', '--auto-approve', '--replan', '--verify'], { env: suite.env, cwd: tree });
    expect(replanned.code).toBe(ExitCode.Ok);
    expect(replanned.err).toContain('applying a fresh plan instead (--replan)');
    expect(replanned.out).toContain('+ Url: "https://status.example.net/"');
  });

  it('refuses a plan made from another config tree', async () => {
    const other = tempTree({
      'monsync.yaml': 'apiVersion: monsync/v1\nmanage:\n  monitors: { prune: false }\n',
      'monitors.yaml': 'monitors:\n  - { Name: Elsewhere, MonitorType: Https, Url: "https://elsewhere.example.com/" }\n',
    });
    expect((await monsync(['plan', '--out', 'plan.json'], { env: suite.env, cwd: other })).code).toBe(ExitCode.Ok);
    suite.emulator.control.clearLog();
    const { code, err } = await monsync(['apply', join(other, 'plan.json'), '--config', 'configs', '--auto-approve'], { env: suite.env });
    expect(code).toBe(ExitCode.UnsafeOrStale);
    expect(err).toMatch(/apply refused: the config tree configs changed since \S*plan\.json was made/);
    expect(writes()).toEqual([]);
  });

  it('refuses a plan file whose steps were edited after planning, naming the step', async () => {
    const tree = copyOfDemoConfigs();
    await monsync(['plan', '--config', 'configs', '--out', 'plan.json'], { env: suite.env, cwd: tree });
    const saved = JSON.parse(readFileSync(join(tree, 'plan.json'), 'utf8')) as Plan;
    const step = saved.steps.find((s) => s.action === 'create' && s.kind === 'monitor' && s.key === 'Status page');
    expect(step?.desired).toBeDefined();
    if (step?.desired !== undefined) step.desired['Url'] = 'https://attacker.example.com/';
    writeFileSync(join(tree, 'plan.json'), JSON.stringify(saved));
    suite.emulator.control.clearLog();
    const { code, err } = await monsync(['apply', 'plan.json', '--config', 'configs', '--auto-approve'], { env: suite.env, cwd: tree });
    expect(code).toBe(ExitCode.UnsafeOrStale);
    expect(err).toContain('apply refused: the steps of plan.json do not match a fresh plan of the same config tree and live account');
    expect(err).toContain('monitor "Status page": its create differs from the saved plan\'s');
    expect(writes()).toEqual([]);
  });

  it('refuses a plan file edited to pass the safety check', async () => {
    const tree = tempTree({
      'monsync.yaml': 'apiVersion: monsync/v1\nmanage:\n  monitors: { prune: true }\nignore: ["monitor:legacy-*"]\n',
      'monitors.yaml': 'monitors:\n  - { Name: Shop homepage, MonitorType: Https }\n',
    });
    expect((await monsync(['plan', '--out', 'plan.json'], { env: suite.env, cwd: tree })).code).toBe(ExitCode.UnsafeOrStale);
    const saved = JSON.parse(readFileSync(join(tree, 'plan.json'), 'utf8')) as Plan;
    writeFileSync(join(tree, 'plan.json'), JSON.stringify({ ...saved, safe: true, violations: [] }));
    suite.emulator.control.clearLog();
    const { code, err } = await monsync(['apply', 'plan.json', '--auto-approve'], { env: suite.env, cwd: tree });
    expect(code).toBe(ExitCode.UnsafeOrStale);
    expect(err).toContain('do not match a fresh plan');
    expect(writes()).toEqual([]);
  });

  it('applies a saved plan narrowed with --target, and only its steps', async () => {
    const tree = copyOfDemoConfigs();
    expect((await monsync(['plan', '--config', 'configs', '--target', 'groupMembership:Marketing/Status page', '--out', 'plan.json'], { env: suite.env, cwd: tree })).code).toBe(ExitCode.Ok);
    const saved = JSON.parse(readFileSync(join(tree, 'plan.json'), 'utf8')) as Plan;
    expect(saved.steps.map((s) => s.id)).toEqual(['monitor:Status page', 'groupMembership:Marketing/Status page']);
    const { code, out, err } = await monsync(['apply', 'plan.json', '--config', 'configs', '--auto-approve'], { env: suite.env, cwd: tree });
    expect(err).not.toContain('refused');
    expect(code).toBe(ExitCode.Ok);
    expect(out).toContain('Apply complete: 2 of 2 steps done (2 created)');
  });

  it('names the file when it is not a plan', async () => {
    const tree = tempTree({ 'plan.json': '{"formatVersion": 1,' });
    const broken = await monsync(['apply', 'plan.json', '--config', join(REPO_ROOT, 'configs'), '--auto-approve'], { env: suite.env, cwd: tree });
    expect(broken.code).toBe(ExitCode.Error);
    // Placed where the text stops, as an editor counts: line 1, just past its 20 characters.
    expect(broken.err).toMatch(/PLAN_FILE_INVALID: plan\.json:1:21: not valid JSON \(.+\); pass a file written by monsync plan --out FILE/);
    expect(suite.emulator.control.requestLog().total).toBe(0);
  });
});
