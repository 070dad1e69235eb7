import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plan } from '@monsync/reconciler';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { expectNoSecrets, useApplySuite } from './apply-fixtures.js';
import { copyOfDemoConfigs, monsync, REPO_ROOT, tempTree } from './helpers.js';

const { suite, writes, monitorGuid } = useApplySuite();

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
