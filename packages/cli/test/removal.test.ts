import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from '@monsync/client';
import { profileFromEnv, startEmulator, type RunningEmulator } from '@monsync/emulator';
import type { Plan } from '@monsync/reconciler';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { monsync, tempTree } from './helpers.js';

const MONITORS = (names: readonly string[]) => `monitors:\n${names.map((n) => `  - { Name: ${n}, MonitorType: Https, Url: "https://${n.toLowerCase()}.example.com/" }\n`).join('')}`;
const SETTINGS = (removal?: string) =>
  `apiVersion: monsync/v1\nmanage:\n  monitors: { prune: true${removal === undefined ? '' : `, removal: ${removal}`} }\nsafety:\n  maxDeletePercent: 50\n`;

let emulator: RunningEmulator;
/** The `lean` profile: a service without DELETE /Monitor/{guid} (the spec lists none), answered 405. */
let lean: RunningEmulator;

beforeAll(async () => {
  // The profile under test, one that has DELETE /Monitor/{guid}: lean, which has not, gets an emulator of its own here.
  const profile = profileFromEnv();
  emulator = await startEmulator({ port: 0, profile: profile === 'lean' ? 'default' : profile, seed: 'empty' });
  lean = await startEmulator({ port: 0, profile: 'lean', seed: 'empty' });
});
afterAll(async () => {
  await lean.close();
  await emulator.close();
});
beforeEach(async () => {
  await emulator.control.reset('empty');
  await lean.control.reset('empty');
});

const envFor = (url: string) => ({ MONSYNC_API_URL: url, MONSYNC_API_USERNAME: 'demo', MONSYNC_API_PASSWORD: 'demo-password' });

async function monitors(on: RunningEmulator = emulator): Promise<Record<string, unknown>[]> {
  const client = createClient({ baseUrl: on.url, username: 'demo', password: 'demo-password' });
  try {
    return await client.monitors.list().toArray();
  } finally {
    await client.close();
  }
}

/** A tree declaring `names`, applied; the same folder is rewritten by later steps of a test. */
async function appliedTree(url: string, names: readonly string[], removal?: string): Promise<string> {
  const tree = tempTree({ 'monsync.yaml': SETTINGS(removal), 'monitors.yaml': MONITORS(names) });
  const applied = await monsync(['apply', '--auto-approve'], { cwd: tree, env: envFor(url) });
  expect(applied.code, applied.err).toBe(ExitCode.Ok);
  return tree;
}

describe('removal of a pruned monitor (manage.monitors.removal)', () => {
  it('auto deletes it where the service allows DELETE, and the plan says which strategy it uses', async () => {
    const tree = await appliedTree(emulator.url, ['Alpha', 'Beta', 'Gamma']);
    writeFileSync(join(tree, 'monitors.yaml'), MONITORS(['Alpha', 'Gamma']));
    const plan = await monsync(['plan', '--format', 'json'], { cwd: tree, env: envFor(emulator.url) });
    const step = (JSON.parse(plan.out) as Plan).steps.find((s) => s.key === 'Beta');
    expect(step).toMatchObject({ action: 'delete', kind: 'monitor', removal: 'auto' });
    const text = await monsync(['plan'], { cwd: tree, env: envFor(emulator.url) });
    expect(text.out).toContain('- delete monitor "Beta"');
    expect(text.out).toContain('removal: auto: DELETE; where the service refuses it, retired instead');

    const applied = await monsync(['apply', '--auto-approve'], { cwd: tree, env: envFor(emulator.url) });
    expect(applied.code).toBe(ExitCode.Ok);
    expect(applied.err).toMatch(/- monitor "Beta" deleted\n/);
    expect((await monitors()).map((m) => m['Name']).sort()).toEqual(['Alpha', 'Gamma']);
  });

  it('auto retires it on the lean profile, which refuses DELETE (405), then plans nothing, then revives the same monitor when it is declared again', async () => {
    const tree = await appliedTree(lean.url, ['Alpha', 'Beta', 'Gamma']);
    const beta = (await monitors(lean)).find((m) => m['Name'] === 'Beta');
    writeFileSync(join(tree, 'monitors.yaml'), MONITORS(['Alpha', 'Gamma']));

    const applied = await monsync(['apply', '--auto-approve'], { cwd: tree, env: envFor(lean.url) });
    expect(applied.code, applied.err).toBe(ExitCode.Ok);
    expect(applied.err).toContain('- monitor "Beta" deleted [retired: the service refused DELETE (405)]');
    const retired = (await monitors(lean)).find((m) => m['Name'] === 'Beta');
    expect(retired).toMatchObject({ MonitorGuid: beta?.['MonitorGuid'], IsActive: false, GenerateAlert: false, Notes: 'monsync:retired=auto' });

    const after = await monsync(['plan', '--detailed-exitcode', '--format', 'json'], { cwd: tree, env: envFor(lean.url) });
    expect(after.code).toBe(ExitCode.Ok);
    expect(JSON.parse(after.out) as Plan).toMatchObject({ steps: [], unmanaged: [], summary: { unchanged: 2, unmanaged: 0 } });

    // Pulled, the account gives a tree without it (written, the next plan would revive it), and says so.
    const pulled = await monsync(['pull', '--out', join(tempTree({}), 'pulled')], { cwd: tree, env: envFor(lean.url) });
    expect(pulled.out).toContain('note: 1 monitor retired by monsync left out ("Beta"); declare one to revive it');

    writeFileSync(join(tree, 'monitors.yaml'), MONITORS(['Alpha', 'Beta', 'Gamma']));
    const revive = await monsync(['plan'], { cwd: tree, env: envFor(lean.url) });
    expect(revive.out).toContain('~ update monitor "Beta"');
    expect(revive.out).toContain('reason: revived: retired by monsync, declared again');
    expect(revive.out).toContain('IsActive: false -> true');
    const revived = await monsync(['apply', '--auto-approve'], { cwd: tree, env: envFor(lean.url) });
    expect(revived.code, revived.err).toBe(ExitCode.Ok);
    const back = (await monitors(lean)).filter((m) => m['Name'] === 'Beta');
    expect(back).toHaveLength(1);
    expect(back[0]).toMatchObject({ MonitorGuid: beta?.['MonitorGuid'], IsActive: true, GenerateAlert: true, Notes: '' });
    expect((await monsync(['plan', '--detailed-exitcode'], { cwd: tree, env: envFor(lean.url) })).code).toBe(ExitCode.Ok);
  });

  it('auto releases the vault items a retired monitor used, so pruning them in the same apply succeeds (lean profile)', async () => {
    const settings = 'apiVersion: monsync/v1\nmanage:\n  monitors: { prune: true }\n  vault: { prune: true }\nsafety:\n  maxDeletePercent: 100\n';
    const vault = (items: readonly string[]) =>
      `vault:\n  sections:\n    - Name: Web\n      items:\n${items.map((n) => `        - { Name: ${n}, VaultItemType: CredentialSet, UserName: robot, Password: { fromEnv: REMOVAL_CANARY } }\n`).join('')}`;
    const multiStep = (name: string, item: string) =>
      `  - Name: ${name}\n    MonitorType: MultiStepApi\n    Url: "https://${name.toLowerCase()}.example.com/"\n    PredefinedVariables:\n      - { Key: login, Value: { vault: "Web/${item}" } }\n`;
    const tree = tempTree({ 'monsync.yaml': settings, 'vault.yaml': vault(['alpha-login', 'beta-login']), 'monitors.yaml': `monitors:\n${multiStep('Alpha', 'alpha-login')}${multiStep('Beta', 'beta-login')}` });
    const env = { ...envFor(lean.url), REMOVAL_CANARY: 'CANARY-removal-7' };
    const first = await monsync(['apply', '--auto-approve'], { cwd: tree, env });
    expect(first.code, first.err).toBe(ExitCode.Ok);

    // Beta and the item only it used leave the config together: Beta is retired (DELETE is refused), the item deleted.
    writeFileSync(join(tree, 'vault.yaml'), vault(['alpha-login']));
    writeFileSync(join(tree, 'monitors.yaml'), `monitors:\n${multiStep('Alpha', 'alpha-login')}`);
    const applied = await monsync(['apply', '--auto-approve'], { cwd: tree, env });
    expect(applied.code, `${applied.out}\n${applied.err}`).toBe(ExitCode.Ok);
    expect(applied.err).toContain('- monitor "Beta" deleted [retired: the service refused DELETE (405)]');
    expect(applied.err).toContain('- vault item "Web/beta-login" deleted\n');
    const retired = (await monitors(lean)).find((m) => m['Name'] === 'Beta');
    expect(retired).toMatchObject({ IsActive: false, PredefinedVariables: [] });
    expect(`${first.out}${first.err}${applied.out}${applied.err}`).not.toContain('CANARY-removal-7');
    expect((await monsync(['plan', '--detailed-exitcode'], { cwd: tree, env })).code).toBe(ExitCode.Ok);
  });

  it('delete makes a refused DELETE an error naming the other strategies, and changes nothing', async () => {
    const tree = await appliedTree(lean.url, ['Alpha', 'Beta', 'Gamma'], 'delete');
    writeFileSync(join(tree, 'monitors.yaml'), MONITORS(['Alpha', 'Gamma']));
    const failed = await monsync(['apply', '--auto-approve'], { cwd: tree, env: envFor(lean.url) });
    expect(failed.code).toBe(ExitCode.Error);
    expect(failed.out).toContain('the service refused DELETE /Monitor/');
    expect(failed.out).toContain('(405) for monitor "Beta", and manage.monitors.removal is "delete". Set removal to "auto"');
    expect(failed.out).toContain('"deactivate" (always retire');
    expect((await monitors(lean)).find((m) => m['Name'] === 'Beta')).toMatchObject({ IsActive: true });
  });

  it('deactivate retires it without sending DELETE, and the plan says retire', async () => {
    const tree = await appliedTree(emulator.url, ['Alpha', 'Beta', 'Gamma'], 'deactivate');
    writeFileSync(join(tree, 'monitors.yaml'), MONITORS(['Alpha', 'Gamma']));
    const plan = await monsync(['plan'], { cwd: tree, env: envFor(emulator.url) });
    expect(plan.out).toContain('- retire monitor "Beta"');
    expect(plan.out).toContain('removal: deactivate: retired, not deleted');
    emulator.control.clearLog();
    const applied = await monsync(['apply', '--auto-approve'], { cwd: tree, env: envFor(emulator.url) });
    expect(applied.code).toBe(ExitCode.Ok);
    expect(applied.err).toContain('[retired (removal: deactivate)]');
    expect(emulator.control.requestLog().entries.filter((e) => e.route === 'DELETE /Monitor/{monitorGuid}')).toEqual([]);
    expect((await monitors()).find((m) => m['Name'] === 'Beta')).toMatchObject({ IsActive: false, GenerateAlert: false, Notes: 'monsync:retired=deactivate' });
  });

  it('counts retires and deletes alike against the safety thresholds, and leaves retired monitors out of the total', async () => {
    const tree = await appliedTree(emulator.url, ['Alpha', 'Beta', 'Gamma', 'Delta'], 'deactivate');
    writeFileSync(join(tree, 'monitors.yaml'), MONITORS(['Alpha', 'Beta']));
    expect((await monsync(['apply', '--auto-approve'], { cwd: tree, env: envFor(emulator.url) })).code).toBe(ExitCode.Ok);
    // 2 live monitors now (2 retired are not counted): retiring both is every one of them, not half of four.
    writeFileSync(join(tree, 'monitors.yaml'), 'monitors: []\n');
    const plan = await monsync(['plan', '--format', 'json'], { cwd: tree, env: envFor(emulator.url) });
    expect(plan.code).toBe(ExitCode.UnsafeOrStale);
    expect((JSON.parse(plan.out) as Plan).violations).toMatchObject([{ kind: 'monitor', action: 'delete', rule: 'every', count: 2, total: 2 }]);
  });

  it('rejects an unknown strategy, and a removal on another kind, at its line', async () => {
    const tree = tempTree({
      'monsync.yaml': 'apiVersion: monsync/v1\nmanage:\n  monitors: { prune: true, removal: archive }\n  slas: { prune: true, removal: delete }\n',
      'monitors.yaml': MONITORS(['Alpha']),
    });
    const result = await monsync(['validate'], { cwd: tree, env: {} });
    expect(result.code).toBe(ExitCode.Error);
    expect(result.err).toMatch(/monsync\.yaml:3:\d+: [^\n]*removal[^\n]*(auto|delete|deactivate)/);
    expect(result.err).toMatch(/monsync\.yaml:4:\d+: [^\n]*removal/);
  });
});
