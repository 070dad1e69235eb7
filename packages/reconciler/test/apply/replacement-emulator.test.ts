/**
 * No delete of an object whose replacement failed. Against the emulator, which refuses (409) a second
 * SLA whose name differs only in case, and with scripted faults that make a replacement's create fail for good.
 */
import { describe, expect, it } from 'vitest';
import { aMonitor, anSla, aPeriod, desiredState } from '../../src/test-utils/index.js';
import { applyWith, describeSteps, planAgainst, writeRequests, type Harness, useEmulatorHarness } from './harness.js';

let h: Harness;
useEmulatorHarness((harness) => (h = harness));

const slaTree = (description: string) =>
  desiredState({ manage: { slas: { prune: true } }, safety: { maxDeletePercent: 100, maxUpdatePercent: 100 }, slas: [anSla({ Description: description, exclusionPeriods: [aPeriod()] })] });

async function slaNames(): Promise<string[]> {
  return (await h.client.slas.list().toArray()).map((s) => String(s.Description)).sort();
}

describe('renaming an SLA against the emulator', () => {
  it('renames Gold to GOLD with one PATCH of the same SLA (the service would refuse a create of GOLD next to Gold)', async () => {
    const first = slaTree('Gold');
    await applyWith(h, await planAgainst(h, first), first);
    const guid = String((await h.client.slas.list().toArray())[0]?.SlaGuid);
    const second = slaTree('GOLD');
    const plan = await planAgainst(h, second);
    expect(describeSteps(plan)).toEqual(['update sla:GOLD']);
    h.emulator.control.clearLog();
    const report = await applyWith(h, plan, second);
    expect(report.failed).toEqual([]);
    expect(writeRequests(h).map((e) => `${e.status} ${e.route}`)).toEqual(['204 PATCH /Sla/{slaGuid}']);
    expect((await h.client.slas.list().toArray()).map((s) => [s.SlaGuid, s.Description])).toEqual([[guid, 'GOLD']]);
    expect(describeSteps(await planAgainst(h, second))).toEqual([]);
  });

  it('keeps Gold when the create of its replacement Platinum fails, reporting the delete as skipped, and finishes on the next run', async () => {
    const first = slaTree('Gold');
    await applyWith(h, await planAgainst(h, first), first);
    const second = slaTree('Platinum');
    const plan = await planAgainst(h, second);
    expect(describeSteps(plan)).toEqual(['create sla:Platinum', 'create slaExclusionPeriod:Platinum/Black Friday freeze', 'delete sla:Gold']);
    // Every attempt of the POST fails before it is applied: apply looks for Platinum, finds none, and tries 3 times.
    h.emulator.control.setFaults({ scripted: [{ method: 'POST', route: '/Sla', count: 5, kind: '500' }] });
    h.emulator.control.clearLog();
    const report = await applyWith(h, plan, second);
    expect(report.failed.map((f) => [f.id, f.status])).toEqual([['sla:Platinum', 500]]);
    expect([...report.skipped].sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      expect.objectContaining({ id: 'sla:Gold', action: 'delete', waitedFor: 'sla:Platinum' }),
      expect.objectContaining({ id: 'slaExclusionPeriod:Platinum/Black Friday freeze', waitedFor: 'sla:Platinum' }),
    ]);
    expect(writeRequests(h).filter((e) => e.method === 'DELETE')).toEqual([]);
    expect(await slaNames()).toEqual(['Gold']);
    const rerun = await applyWith(h, await planAgainst(h, second), second);
    expect(rerun.ok).toBe(true);
    expect(await slaNames()).toEqual(['Platinum']);
    expect(describeSteps(await planAgainst(h, second))).toEqual([]);
  });

  it('keeps Gold when the replacement SLA is created but its exclusion period is not', async () => {
    const first = slaTree('Gold');
    await applyWith(h, await planAgainst(h, first), first);
    const second = slaTree('Platinum');
    const plan = await planAgainst(h, second);
    h.emulator.control.setFaults({ scripted: [{ method: 'POST', route: '/Sla/{slaGuid}/ExclusionPeriod', count: 5, kind: '500' }] });
    const report = await applyWith(h, plan, second);
    expect(report.failed.map((f) => f.id)).toEqual(['slaExclusionPeriod:Platinum/Black Friday freeze']);
    expect(report.skipped).toEqual([expect.objectContaining({ id: 'sla:Gold', waitedFor: 'slaExclusionPeriod:Platinum/Black Friday freeze' })]);
    expect(await slaNames()).toEqual(['Gold', 'Platinum']);
  });
});

describe('renaming a monitor without a pinned GUID against the emulator', () => {
  it('does not delete the old monitor when the create of the new one fails', async () => {
    const tree = (name: string) => desiredState({ manage: { monitors: { prune: true } }, safety: { maxDeletePercent: 100 }, monitors: [aMonitor({ Name: name })] });
    const first = tree('Shop');
    await applyWith(h, await planAgainst(h, first), first);
    const second = tree('Shop homepage');
    const plan = await planAgainst(h, second);
    // No dependency in the plan: apply holds every delete of a kind until the kind's creates are done.
    expect(plan.steps.map((s) => [s.action, s.id, s.dependsOn])).toEqual([
      ['create', 'monitor:Shop homepage', []],
      ['delete', 'monitor:Shop', []],
    ]);
    h.emulator.control.setFaults({ scripted: [{ method: 'POST', route: '/Monitor', count: 5, kind: '503' }] });
    const report = await applyWith(h, plan, second);
    expect(report.failed.map((f) => f.id)).toEqual(['monitor:Shop homepage']);
    expect(report.skipped).toEqual([expect.objectContaining({ id: 'monitor:Shop', action: 'delete', waitedFor: 'monitor:Shop homepage' })]);
    expect((await h.client.monitors.list().toArray()).map((m) => m.Name)).toEqual(['Shop']);
  });
});
