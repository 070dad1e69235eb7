import { describe, expect, it } from 'vitest';
import { aLiveMonitor, aLivePeriod, aLiveSla, aMonitor, anSla, aPeriod, desiredState, guidFor, liveSnapshot, planFor } from '../src/test-utils/index.js';

// The service (and the emulator) compare GUIDs ignoring case, and so does the check for deletes of objects in use:
// a pin written in another case names the same object.
describe('pinned GUIDs match ignoring case', () => {
  const guid = guidFor('monitor', 'Old name');

  it('matches a pin written in upper case to the live monitor, planning a rename', () => {
    const desired = desiredState({ manage: { monitors: { prune: true } }, monitors: [aMonitor({ Name: 'New name', MonitorGuid: guid.toUpperCase() })] });
    const plan = planFor(desired, liveSnapshot({ monitors: [aLiveMonitor({ Name: 'Old name' })] }));
    expect(plan.steps).toMatchObject([{ action: 'update', key: 'New name', guid, reason: 'pinned GUID rename', changes: [{ op: 'replace', path: '/Name', before: 'Old name', after: 'New name' }] }]);
  });

  it('matches a lower-case pin to a live GUID the service lists in upper case', () => {
    const desired = desiredState({ manage: { monitors: { prune: true } }, monitors: [aMonitor({ Name: 'New name', MonitorGuid: guid })] });
    const plan = planFor(desired, liveSnapshot({ monitors: [aLiveMonitor({ Name: 'Old name', MonitorGuid: guid.toUpperCase() })] }));
    expect(plan.steps.map((s) => [s.action, s.guid])).toEqual([['update', guid.toUpperCase()]]);
  });

  it('matches an exclusion period pinned as <SLAGUID>/<id> in upper case', () => {
    const gold = guidFor('sla', 'Gold');
    const desired = desiredState({ manage: { slas: { prune: false } }, slas: [anSla({ exclusionPeriods: [aPeriod({ Description: 'Renamed', ExclusionPeriodId: `${gold.toUpperCase()}/1` })] })] });
    const plan = planFor(desired, liveSnapshot({ slas: [aLiveSla()], exclusionPeriods: { Gold: [aLivePeriod(1)] } }));
    expect(plan.steps).toMatchObject([{ action: 'update', guid: `${gold}/1`, reason: 'pinned GUID rename' }]);
  });

  it('still reports a pin that names no live object, whatever its case', () => {
    const desired = desiredState({ manage: { monitors: { prune: false } }, monitors: [aMonitor({ Name: 'New name', MonitorGuid: guidFor('monitor', 'nowhere').toUpperCase() })] });
    expect(() => planFor(desired, liveSnapshot({ monitors: [aLiveMonitor({ Name: 'Old name' })] }))).toThrowError(expect.objectContaining({ message: expect.stringContaining('which is not in the account') }));
  });
});
