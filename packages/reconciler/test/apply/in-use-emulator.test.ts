/**
 * Against the emulator, which refuses (400) to delete a vault item a monitor refers to: a plan that would prune
 * an item kept in use is refused before apply, and the plans that free the item first apply with no 400 at all.
 */
import { describe, expect, it } from 'vitest';
import { PlanError } from '../../src/plan/errors.js';
import { aMonitor, anItem, aSection, desiredState, type DesiredParts } from '../../src/test-utils/index.js';
import { applyWith, describeSteps, planAgainst, type Harness, useEmulatorHarness } from './harness.js';

let h: Harness;
useEmulatorHarness((harness) => (h = harness));

/** Section Web with items shop-login and old, and a monitor whose variable refers to old, made as a person would. */
async function accountWithReference(): Promise<{ item: string; monitor: string }> {
  const section = await h.client.vaultSections.create({ Name: 'Web' } as never);
  for (const name of ['shop-login', 'old']) {
    await h.client.vaultItems.create({ VaultSectionGuid: section.VaultSectionGuid, Name: name, VaultItemType: 'CredentialSet', UserName: 'robot', Password: 'set-by-hand' } as never);
  }
  const item = String((await h.client.vaultItems.list().toArray()).find((i) => i.Name === 'old')?.VaultItemGuid);
  const created = await h.client.monitors.create({ Name: 'Shop homepage', MonitorType: 'Https', PredefinedVariables: [{ Key: 'login', Value: `{{vault:${item}}}` }] } as never);
  return { item, monitor: String(created.MonitorGuid) };
}

/** Web declares only shop-login, so Web/old is pruned; the account's Default section stays. */
function tree(parts: DesiredParts) {
  return desiredState({
    safety: { maxDeletePercent: 100, maxUpdatePercent: 100 },
    vaultSections: [aSection({ Name: 'Default' }), aSection({ Name: 'Web' }, [anItem({ UserName: 'robot' })])],
    ...parts,
  });
}

function refusedRequests(): string[] {
  return h.emulator.control
    .requestLog()
    .entries.filter((e) => e.status >= 400)
    .map((e) => `${e.status} ${e.route}`);
}

describe('pruning a vault item a monitor refers to, against the emulator', () => {
  it('refuses to plan while the declared monitor leaves out PredefinedVariables, and the service would indeed refuse the delete', async () => {
    const { item, monitor } = await accountWithReference();
    const desired = tree({ manage: { vault: { prune: true }, monitors: { prune: false } }, monitors: [aMonitor({ IsActive: false })] });
    const planning = planAgainst(h, desired);
    await expect(planning).rejects.toBeInstanceOf(PlanError);
    await expect(planning).rejects.toMatchObject({ code: 'DELETE_IN_USE' });
    await expect(planning).rejects.toThrow(`vaultItem "Web/old" (${item}) cannot be deleted`);
    await expect(planning).rejects.toThrow(`monitor "Shop homepage" (${monitor}) refers to it`);
    // The refusal the plan predicts is the service's own.
    await expect(h.client.vaultItems.delete(item)).rejects.toMatchObject({ status: 400 });
  });

  it('refuses to plan while monitors are not managed, reading them only to find the reference', async () => {
    const { monitor } = await accountWithReference();
    await expect(planAgainst(h, tree({ manage: { vault: { prune: true } } }))).rejects.toThrow(`monitor "Shop homepage" (${monitor}) refers to it: monitors are not managed`);
  });

  it('applies with no 400 when the declared monitor drops the reference first', async () => {
    await accountWithReference();
    const desired = tree({ manage: { vault: { prune: true }, monitors: { prune: false } }, monitors: [aMonitor({ IsActive: false, PredefinedVariables: [] })] });
    const plan = await planAgainst(h, desired);
    expect(plan.steps.map((s) => [s.action, s.id, s.dependsOn])).toEqual([
      ['update', 'monitor:Shop homepage', []],
      ['delete', 'vaultItem:Web/old', ['monitor:Shop homepage']],
    ]);
    h.emulator.control.clearLog();
    const report = await applyWith(h, plan, desired, { parallelism: 8 });
    expect(report.failed).toEqual([]);
    expect(report.ok).toBe(true);
    expect(refusedRequests()).toEqual([]);
    expect((await h.client.vaultItems.list().toArray()).map((i) => i.Name)).toEqual(['shop-login']);
    expect(describeSteps(await planAgainst(h, desired))).toEqual([]);
  });

  it('applies with no 400 when the referring monitor is pruned in the same plan', async () => {
    await accountWithReference();
    const desired = tree({ manage: { vault: { prune: true }, monitors: { prune: true } } });
    const plan = await planAgainst(h, desired);
    expect(plan.steps.map((s) => [s.action, s.id, s.dependsOn])).toEqual([
      ['delete', 'monitor:Shop homepage', []],
      ['delete', 'vaultItem:Web/old', ['monitor:Shop homepage']],
    ]);
    h.emulator.control.clearLog();
    const report = await applyWith(h, plan, desired);
    expect(report.failed).toEqual([]);
    expect(refusedRequests()).toEqual([]);
    expect(await h.client.monitors.list().toArray()).toEqual([]);
  });
});
