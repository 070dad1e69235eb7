import { describe, expect, it } from 'vitest';
import { PlanError } from '../src/plan/errors.js';
import { aLivePeriod, aLiveSla, anSla, aPeriod, desiredState, guidFor, liveSnapshot, planFor } from '../src/test-utils/index.js';

const slasOnly = (prune: boolean) => ({ slas: { prune } });
const gold = guidFor('sla', 'Gold');

describe('sla kind', () => {
  it('creates a declared SLA and its exclusion periods after it', () => {
    const plan = planFor(desiredState({ manage: slasOnly(false), slas: [anSla({ Description: 'Silver', exclusionPeriods: [aPeriod()] })] }), liveSnapshot());
    expect(plan.steps.map((s) => [s.id, s.dependsOn])).toEqual([
      ['sla:Silver', []],
      ['slaExclusionPeriod:Silver/Black Friday freeze', ['sla:Silver']],
    ]);
    expect(plan.steps[0]?.desired).toEqual({ Description: 'Silver', UptimeErrorThreshold: 99.5, UptimeWarningThreshold: 99.9 });
    expect(plan.steps[1]?.desired).toEqual({ Description: 'Black Friday freeze', From: '2026-11-27T00:00:00', Until: '2026-11-28T00:00:00', SlaGuid: '{{sla:Silver}}' });
  });

  it('updates a threshold', () => {
    const plan = planFor(desiredState({ manage: slasOnly(false), slas: [anSla({ UptimeErrorThreshold: 99 })] }), liveSnapshot({ slas: [aLiveSla()] }));
    expect(plan.steps).toMatchObject([{ action: 'update', guid: gold, changes: [{ op: 'replace', path: '/UptimeErrorThreshold', before: 99.5, after: 99 }] }]);
  });

  it('deletes an undeclared SLA with prune, without separate period deletes', () => {
    const live = liveSnapshot({
      slas: [aLiveSla(), aLiveSla({ Description: 'Old' }), aLiveSla({ Description: 'A' }), aLiveSla({ Description: 'B' })],
      exclusionPeriods: { Old: [aLivePeriod(1)] },
    });
    const plan = planFor(desiredState({ manage: slasOnly(true), slas: [anSla(), anSla({ Description: 'A' }), anSla({ Description: 'B' })] }), live);
    expect(plan.steps.map((s) => [s.action, s.id])).toEqual([['delete', 'sla:Old']]);
  });

  it('lists an undeclared SLA as unmanaged without prune', () => {
    const plan = planFor(desiredState({ manage: slasOnly(false), slas: [anSla()] }), liveSnapshot({ slas: [aLiveSla(), aLiveSla({ Description: 'Old' })] }));
    expect(plan.unmanaged).toEqual([{ kind: 'sla', key: 'Old', guid: guidFor('sla', 'Old') }]);
    expect(plan.steps).toEqual([]);
  });

  it('plans zero changes when live differs only by Hash, thresholds as numeric strings and unmanaged thresholds', () => {
    const live = aLiveSla({ Hash: 'changed', UptimeErrorThreshold: '99.5', UptimeWarningThreshold: '99.90', LoadTimeErrorThreshold: 12 });
    const plan = planFor(desiredState({ manage: slasOnly(true), slas: [anSla()] }), liveSnapshot({ slas: [live] }));
    expect(plan.steps).toEqual([]);
    expect(plan.summary.unchanged).toBe(1);
  });
});

describe('sla identity, as the service compares SLA names (ignoring case and surrounding spaces)', () => {
  const pruned = (description: string) =>
    planFor(
      desiredState({ manage: slasOnly(true), safety: { maxDeletePercent: 100 }, slas: [anSla({ Description: description, exclusionPeriods: [aPeriod()] })] }),
      liveSnapshot({ slas: [aLiveSla()], exclusionPeriods: { Gold: [aLivePeriod(1)] } }),
    );

  it('renames Gold to GOLD in place: one update of the same SLA, not a create the service refuses (409) and a delete', () => {
    const plan = pruned('GOLD');
    expect(plan.steps).toMatchObject([{ action: 'update', id: 'sla:GOLD', guid: gold, changes: [{ op: 'replace', path: '/Description', before: 'Gold', after: 'GOLD' }] }]);
    // Its exclusion periods stay matched under the new name.
    expect(plan.summary).toMatchObject({ create: 0, update: 1, delete: 0, unchanged: 1 });
  });

  it('matches a name that differs only by surrounding spaces', () => {
    expect(pruned(' Gold ').steps.map((s) => [s.action, s.guid])).toEqual([['update', gold]]);
  });

  it('refuses two declared SLAs the service cannot tell apart', () => {
    const desired = desiredState({ manage: slasOnly(false), slas: [anSla(), anSla({ Description: 'gold' })] });
    expect(() => planFor(desired, liveSnapshot())).toThrow(PlanError);
    expect(() => planFor(desired, liveSnapshot())).toThrow(/sla "gold" is declared twice \(also at slas\.yaml:\d+:5 as "Gold", which the service does not tell apart from it\)/);
  });
});

describe('slaExclusionPeriod kind', () => {
  const live = (periods: ReturnType<typeof aLivePeriod>[]) => liveSnapshot({ slas: [aLiveSla()], exclusionPeriods: { Gold: periods } });

  it('creates a declared period of an existing SLA with its GUID as a path parameter', () => {
    const plan = planFor(desiredState({ manage: slasOnly(false), slas: [anSla({ exclusionPeriods: [aPeriod()] })] }), live([]));
    expect(plan.steps).toMatchObject([{ action: 'create', key: 'Gold/Black Friday freeze', dependsOn: [], desired: { SlaGuid: gold } }]);
  });

  it('updates a period boundary, comparing timestamps without milliseconds or zone', () => {
    const plan = planFor(
      desiredState({ manage: slasOnly(false), slas: [anSla({ exclusionPeriods: [aPeriod({ Until: '2026-11-29T00:00:00' })] })] }),
      live([aLivePeriod(7, { From: '2026-11-27T00:00:00.000', Until: '2026-11-28T00:00:00Z' })]),
    );
    expect(plan.steps).toMatchObject([
      { action: 'update', guid: `${gold}/7`, changes: [{ op: 'replace', path: '/Until', before: '2026-11-28T00:00:00', after: '2026-11-29T00:00:00' }] },
    ]);
  });

  it('deletes an undeclared period of a declared SLA with prune', () => {
    const desired = desiredState({ manage: slasOnly(true), safety: { maxDeletePercent: 100 }, slas: [anSla({ exclusionPeriods: [aPeriod()] })] });
    const plan = planFor(desired, live([aLivePeriod(1), aLivePeriod(2, { Description: 'Old freeze' })]));
    expect(plan.steps.map((s) => [s.action, s.key, s.guid])).toEqual([['delete', 'Gold/Old freeze', `${gold}/2`]]);
  });

  it('lists an undeclared period as unmanaged without prune', () => {
    const plan = planFor(desiredState({ manage: slasOnly(false), slas: [anSla({ exclusionPeriods: [] })] }), live([aLivePeriod(2, { Description: 'Old freeze' })]));
    expect(plan.unmanaged).toEqual([{ kind: 'slaExclusionPeriod', key: 'Gold/Old freeze', guid: `${gold}/2` }]);
  });

  it('leaves the periods of an SLA that declares none alone', () => {
    const plan = planFor(desiredState({ manage: slasOnly(true), slas: [anSla()] }), live([aLivePeriod(2)]));
    expect(plan.steps).toEqual([]);
    expect(plan.unmanaged).toEqual([]);
  });

  it('hints the period\'s own id as the pin for two periods with one key, and that pin resolves the duplicate', () => {
    const twins = live([aLivePeriod(1), aLivePeriod(2, { From: '2026-11-26T00:00:00' })]);
    const declared = (pin?: number) => desiredState({ manage: slasOnly(false), slas: [anSla({ exclusionPeriods: [aPeriod(pin === undefined ? {} : { ExclusionPeriodId: pin })] })] });
    expect(() => planFor(declared(), twins)).toThrow(
      `2 live SLA exclusion periods have the key "Gold/Black Friday freeze": ${gold}/1; ${gold}/2. Run monsync plan --dedupe to plan keeping the oldest (${gold}/1, no creation date to tell age: the lowest GUID) and deleting the others, or add "ExclusionPeriodId: 1" to this entry to pin one`,
    );
    const plan = planFor(declared(2), twins);
    expect(plan.steps).toMatchObject([{ action: 'update', guid: `${gold}/2`, changes: [{ path: '/From', before: '2026-11-26T00:00:00', after: '2026-11-27T00:00:00' }] }]);
    expect(plan.unmanaged).toEqual([{ kind: 'slaExclusionPeriod', key: 'Gold/Black Friday freeze', guid: `${gold}/1` }]);
  });

  it('pins a period only among its own SLA\'s periods (ids may repeat across SLAs), and accepts the <slaGuid>/<id> form', () => {
    const silver = guidFor('sla', 'Silver');
    const snapshot = liveSnapshot({ slas: [aLiveSla(), aLiveSla({ Description: 'Silver' })], exclusionPeriods: { Gold: [aLivePeriod(1)], Silver: [aLivePeriod(2, { Description: 'Maintenance' })] } });
    const pinnedTo = (pin: string | number) => desiredState({ manage: slasOnly(false), slas: [anSla({ exclusionPeriods: [aPeriod({ Description: 'Renamed', ExclusionPeriodId: pin })] }), anSla({ Description: 'Silver', exclusionPeriods: [aPeriod({ Description: 'Maintenance' })] })] });
    expect(() => planFor(pinnedTo(2), snapshot)).toThrow(/slaExclusionPeriod "Gold\/Renamed" pins ExclusionPeriodId 2, which is not in the account/);
    expect(planFor(pinnedTo(`${gold}/1`), snapshot).steps).toMatchObject([{ action: 'update', guid: `${gold}/1`, reason: 'pinned GUID rename' }]);
    expect(planFor(pinnedTo(1), snapshot).steps.map((s) => [s.action, s.guid])).toEqual([['update', `${gold}/1`]]);
    expect(planFor(pinnedTo(1), snapshot).steps.some((s) => s.guid?.startsWith(silver) === true)).toBe(false);
  });

  it('plans zero changes when live differs only by id, Hash and timestamp format', () => {
    const plan = planFor(
      desiredState({ manage: slasOnly(true), slas: [anSla({ exclusionPeriods: [aPeriod()] })] }),
      live([aLivePeriod(3, { Hash: 'zzz', From: '2026-11-27T00:00:00.000', Until: '2026-11-28T00:00:00+00:00' })]),
    );
    expect(plan.steps).toEqual([]);
    expect(plan.summary.unchanged).toBe(2);
  });
});
