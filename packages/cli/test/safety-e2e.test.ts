/**
 * The safety rule end to end (docs/architecture.md, "Safety"): in a small team's account (3 monitors, 1 SLA, 1 vault
 * item, a group of the 3 monitors) ordinary edits plan as safe, and deleting every monitor is unsafe until
 * --allow-unsafe (or its former name, with a warning) accepts it.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { monsync, tempTree, useEmulator } from './helpers.js';

const suite = useEmulator({ env: { SHOP_PASSWORD: 'pw-1' } });
const writes = (): unknown[] => suite.emulator.control.requestLog().entries.filter((entry) => entry.method !== 'GET');

const MONITORS = ['Shop homepage', 'Shop checkout', 'Shop search'];
const monitorsYaml = (names: readonly string[]) =>
  `monitors:\n${names.map((name, i) => `  - { Name: ${name}, MonitorType: Https, Url: "https://shop.example.com/${i}", CheckInterval: 5 }\n`).join('')}`;
const groupYaml = (members: readonly string[]) => `monitorGroups:\n  - Description: Shop\n    members: [${members.join(', ')}]\n`;
const slaYaml = (threshold: number) => `slas:\n  - { Description: Gold, UptimeErrorThreshold: ${threshold}, UptimeWarningThreshold: 99.9, LoadTimeErrorThreshold: 4, OperatorReponseTimeThreshold: 15 }\n`;

const FILES: Record<string, string> = {
  'monsync.yaml': 'apiVersion: monsync/v1\nmanage:\n  monitors: { prune: true }\n  monitorGroups: { prune: true }\n  slas: { prune: true }\n  vault: { prune: false }\n',
  'monitors.yaml': monitorsYaml(MONITORS),
  'groups.yaml': groupYaml(MONITORS),
  'slas.yaml': slaYaml(99.5),
  'vault.yaml': 'vault:\n  sections:\n    - Name: Web\n      items:\n        - { Name: shop-login, VaultItemType: CredentialSet, UserName: robot, Password: { fromEnv: SHOP_PASSWORD } }\n',
};
const tree = tempTree(FILES);

/** `plan --detailed-exitcode` of the tree with files replaced, and the files put back after. */
async function planWith(files: Record<string, string>, env: Record<string, string> = {}): Promise<{ code: number; err: string }> {
  for (const [file, content] of Object.entries(files)) writeFileSync(join(tree, file), content);
  try {
    return await monsync(['plan', '--config', tree, '--detailed-exitcode'], { env: { ...suite.env, ...env } });
  } finally {
    for (const file of Object.keys(files)) writeFileSync(join(tree, file), FILES[file] ?? '');
  }
}

beforeAll(async () => {
  const applied = await monsync(['apply', '--config', tree, '--auto-approve'], { env: suite.env });
  expect(applied.code, applied.err).toBe(ExitCode.Ok);
  expect((await monsync(['plan', '--config', tree, '--detailed-exitcode'], { env: suite.env })).code).toBe(ExitCode.Ok);
});

describe('ordinary edits of a small account plan as safe (exit 2: changes, not 3: unsafe)', () => {
  it('changing the only SLA', async () => {
    const { code, err } = await planWith({ 'slas.yaml': slaYaml(99) });
    expect(code, err).toBe(ExitCode.Changes);
  });

  it('rotating the only vault secret', async () => {
    const { code, err } = await planWith({}, { SHOP_PASSWORD: 'pw-2' });
    expect(code, err).toBe(ExitCode.Changes);
  });

  it('removing one membership of the group of 3', async () => {
    const { code, err } = await planWith({ 'groups.yaml': groupYaml(MONITORS.slice(0, 2)) });
    expect(code, err).toBe(ExitCode.Changes);
  });

  it('deleting one of the 3 monitors', async () => {
    const { code, err } = await planWith({ 'monitors.yaml': monitorsYaml(MONITORS.slice(0, 2)), 'groups.yaml': groupYaml(MONITORS.slice(0, 2)) });
    expect(code, err).toBe(ExitCode.Changes);
  });
});

describe('deleting every monitor stays unsafe', () => {
  it('plan exits 3 naming the rule; apply refuses it with no write, and --allow-deletes still accepts it with a deprecation warning', async () => {
    rmSync(join(tree, 'monitors.yaml'));
    writeFileSync(join(tree, 'groups.yaml'), groupYaml([]));
    const plan = await monsync(['plan', '--config', tree], { env: suite.env });
    expect(plan.code).toBe(ExitCode.UnsafeOrStale);
    expect(plan.err).toContain(
      'plan is unsafe (over the safety thresholds of monsync.yaml):\n  monitor: deletes 3 of 3 (100%), over 30% and at least 3 (safety.maxDeletePercent, safety.minDeleteCount)\n' +
        'Review the plan. If it is what you want: --allow-unsafe accepts it (monsync apply --allow-unsafe); or raise safety.maxDeletePercent in monsync.yaml.',
    );

    const accepted = await monsync(['plan', '--config', tree, '--allow-unsafe', '--detailed-exitcode'], { env: suite.env });
    expect(accepted.code).toBe(ExitCode.Changes);
    expect(accepted.err).toContain('plan is unsafe (over the safety thresholds of monsync.yaml), accepted with --allow-unsafe:');

    suite.emulator.control.clearLog();
    const refused = await monsync(['apply', '--config', tree, '--auto-approve'], { env: suite.env });
    expect(refused.code).toBe(ExitCode.UnsafeOrStale);
    expect(writes()).toEqual([]);

    const applied = await monsync(['apply', '--config', tree, '--auto-approve', '--allow-deletes'], { env: suite.env });
    expect(applied.code, applied.err).toBe(ExitCode.Ok);
    expect(applied.err).toContain('warning: --allow-deletes is deprecated and will be removed in the next release; write --allow-unsafe');
    // Deleted, or retired where the service has no DELETE /Monitor (the lean profile): nothing is left to plan.
    expect((await monsync(['plan', '--config', tree, '--detailed-exitcode'], { env: suite.env })).code).toBe(ExitCode.Ok);
  });
});
