import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientFromEnv } from '@monsync/client';
import type { Plan } from '@monsync/reconciler';
import { beforeEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { monsync, tempTree, useEmulator } from './helpers.js';

const suite = useEmulator({ eachTest: { reset: true } });
const SETTINGS = 'apiVersion: monsync/v1\nmanage:\n  monitors: { prune: true }\nsafety: { maxDeletePercent: 100, maxUpdatePercent: 100 }\n';
const writes = () => suite.emulator.control.requestLog().entries.filter((entry) => entry.method !== 'GET');

// Declared after useEmulator, so it runs after the reset: the live monitors the protect and policy rules match.
beforeEach(async () => {
  const client = clientFromEnv(suite.env);
  try {
    for (const name of ['prod-db', 'test-db']) await client.monitors.create({ Name: name, MonitorType: 'Https', Url: `https://${name}.example.com/`, CheckInterval: 5 });
  } finally {
    await client.close();
  }
  suite.emulator.control.clearLog();
});

describe('protect, end to end', () => {
  it('plan shows the protected delete as refused and exits 1; apply --allow-unsafe writes nothing and exits 1', async () => {
    const tree = tempTree({ 'monsync.yaml': `${SETTINGS}protect:\n  - "monitor:prod-*"\n`, 'monitors.yaml': 'monitors: []\n' });
    const plan = await monsync(['plan', '--config', tree, '--format', 'json'], { env: suite.env });
    expect(plan.code).toBe(ExitCode.Error);
    const json = JSON.parse(plan.out) as Plan;
    expect(json.steps.filter((s) => s.action === 'delete').map((s) => [s.key, s.protectedBy])).toEqual([
      ['prod-db', { rule: 'monitor:prod-*', source: { file: 'monsync.yaml', line: 6, column: 5 } }],
      ['test-db', undefined],
    ]);
    expect(plan.err).toContain('monsync.yaml:6:5: delete monitor "prod-db" refused: protected by monitor:prod-*');

    const apply = await monsync(['apply', '--config', tree, '--auto-approve', '--allow-unsafe'], { env: suite.env });
    expect(apply.code).toBe(ExitCode.Error);
    expect(apply.err).toContain('apply refused, nothing was changed');
    expect(writes()).toEqual([]);
  });

  it('a saved plan with a protected delete is refused too, with no write', async () => {
    const tree = tempTree({ 'monsync.yaml': SETTINGS, 'monitors.yaml': 'monitors:\n  - { Name: prod-db, protect: true }\n  - { Name: test-db }\n' });
    // The declaration is gone (and its protect: true with it): the pattern is what still guards the object.
    writeFileSync(join(tree, 'monsync.yaml'), `${SETTINGS}protect: ["monitor:prod-*"]\n`);
    writeFileSync(join(tree, 'monitors.yaml'), 'monitors:\n  - { Name: test-db }\n');
    const planFile = join(tree, 'plan.json');
    expect((await monsync(['plan', '--config', tree, '--out', planFile], { env: suite.env })).code).toBe(ExitCode.Error);
    const apply = await monsync(['apply', planFile, '--config', tree, '--auto-approve', '--allow-unsafe'], { env: suite.env });
    expect(apply.code).toBe(ExitCode.Error);
    expect(writes()).toEqual([]);
  });

  it('once the protection is removed in a reviewed change, the delete goes through', async () => {
    const tree = tempTree({ 'monsync.yaml': SETTINGS, 'monitors.yaml': 'monitors:\n  - { Name: test-db }\n' });
    const apply = await monsync(['apply', '--config', tree, '--auto-approve'], { env: suite.env });
    expect(apply.code).toBe(ExitCode.Ok);
    expect(writes().map((w) => w.route)).toEqual(expect.arrayContaining(['DELETE /Monitor/{monitorGuid}']));
  });
});

describe('policy, end to end', () => {
  const POLICY = 'policy:\n  checkInterval:\n    - { max: 2, severity: warning }\n  activeMonitorsAlert: {}\n';
  const MONITORS = 'monitors:\n  - { Name: prod-db, MonitorType: Https, Url: "https://prod-db.example.com/", CheckInterval: 5, GenerateAlert: true }\n  - { Name: test-db, MonitorType: Https, Url: "https://test-db.example.com/", CheckInterval: 5 }\n';

  it('validate exits 1 on an error-severity finding, with file:line:col, the rule and the fix; warnings alone pass', async () => {
    const tree = tempTree({ 'monsync.yaml': `${SETTINGS}${POLICY}`, 'monitors.yaml': MONITORS });
    const validate = await monsync(['validate', '--config', tree]);
    expect(validate.code).toBe(ExitCode.Error);
    expect(validate.err).toContain('monitors.yaml:3:13: error POLICY_ERROR: activeMonitorsAlert: monitor `test-db` is active but does not declare GenerateAlert: true');
    expect(validate.err).toContain('hint: set GenerateAlert: true, or IsActive: false for a monitor that should not run');
    expect(validate.err).toContain('monitors.yaml:2:94: warning POLICY_WARNING: checkInterval:');
    const warningsOnly = tempTree({ 'monsync.yaml': `${SETTINGS}${POLICY.replace('  activeMonitorsAlert: {}\n', '')}`, 'monitors.yaml': MONITORS });
    expect((await monsync(['validate', '--config', warningsOnly])).code).toBe(ExitCode.Ok);
  });

  it('plan shows the findings with the plan and exits 1 on an error, 0 on warnings; apply refuses with no write', async () => {
    const tree = tempTree({ 'monsync.yaml': `${SETTINGS}${POLICY}`, 'monitors.yaml': MONITORS });
    const plan = await monsync(['plan', '--config', tree], { env: suite.env });
    expect(plan.code).toBe(ExitCode.Error);
    expect(plan.out).toMatch(/Policy:\n {2}! checkInterval: monitor `prod-db`[^\n]*\(monitors\.yaml:2:94\)/);
    expect(plan.out).toContain('✗ activeMonitorsAlert: monitor `test-db`');
    expect(plan.err).toContain('the plan breaks a policy rule of severity error:');
    const apply = await monsync(['apply', '--config', tree, '--auto-approve', '--allow-unsafe'], { env: suite.env });
    expect(apply.code).toBe(ExitCode.Error);
    expect(writes()).toEqual([]);

    const warningsOnly = tempTree({ 'monsync.yaml': `${SETTINGS}${POLICY.replace('  activeMonitorsAlert: {}\n', '')}`, 'monitors.yaml': MONITORS });
    const json = await monsync(['plan', '--config', warningsOnly, '--format', 'json', '--detailed-exitcode'], { env: suite.env });
    expect(json.code).toBe(ExitCode.Ok);
    expect((JSON.parse(json.out) as Plan).policy?.map((f) => [f.rule, f.severity, f.key])).toEqual([
      ['checkInterval', 'warning', 'prod-db'],
      ['checkInterval', 'warning', 'test-db'],
    ]);
  });
});
