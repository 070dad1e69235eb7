import { describe, expect, it } from 'vitest';
import { ALL_MONITORS_GROUP, aGroup, aLiveGroup, aLiveMonitor, aMonitor, desiredState, guidFor, liveSnapshot, planFor } from '../src/test-utils/index.js';

const groupsOnly = (prune: boolean) => ({ monitorGroups: { prune } });

describe('monitorGroup kind', () => {
  it('creates a declared group', () => {
    const plan = planFor(desiredState({ manage: groupsOnly(false), monitorGroups: [aGroup({ Description: 'Checkout' })] }), liveSnapshot());
    expect(plan.steps).toMatchObject([{ id: 'monitorGroup:Checkout', action: 'create', desired: { Description: 'Checkout' } }]);
  });

  it('updates a declared field', () => {
    const desired = desiredState({ manage: groupsOnly(false), monitorGroups: [aGroup({ IsQuotaUnlimited: true })] });
    const plan = planFor(desired, liveSnapshot({ monitorGroups: [aLiveGroup()] }));
    expect(plan.steps).toHaveLength(1);
    expect(plan.steps[0]).toMatchObject({ action: 'update', guid: guidFor('monitorGroup', 'Shop'), changes: [{ op: 'replace', path: '/IsQuotaUnlimited', before: false, after: true }] });
  });

  it('deletes an undeclared group with prune, and never the All Monitors group', () => {
    const live = liveSnapshot({ monitorGroups: [aLiveGroup(), aLiveGroup({ Description: 'Old' }), aLiveGroup({ Description: 'A' }), aLiveGroup({ Description: 'B' })] });
    const plan = planFor(desiredState({ manage: groupsOnly(true), monitorGroups: [aGroup(), aGroup({ Description: 'A' }), aGroup({ Description: 'B' })] }), live);
    expect(plan.steps.map((s) => [s.action, s.key])).toEqual([['delete', 'Old']]);
    expect(JSON.stringify(plan)).not.toContain(String(ALL_MONITORS_GROUP.MonitorGroupGuid));
  });

  it('lists an undeclared group as unmanaged without prune', () => {
    const plan = planFor(desiredState({ manage: groupsOnly(false), monitorGroups: [aGroup()] }), liveSnapshot({ monitorGroups: [aLiveGroup(), aLiveGroup({ Description: 'Old' })] }));
    expect(plan.steps).toEqual([]);
    expect(plan.unmanaged).toEqual([{ kind: 'monitorGroup', key: 'Old', guid: guidFor('monitorGroup', 'Old') }]);
  });

  it('plans nothing for a matching group', () => {
    const plan = planFor(desiredState({ manage: groupsOnly(true), monitorGroups: [aGroup()] }), liveSnapshot({ monitorGroups: [aLiveGroup()] }));
    expect(plan.steps).toEqual([]);
    expect(plan.summary.unchanged).toBe(1);
  });

  it('plans zero changes when live differs only by quota counters and read-only fields', () => {
    const live = aLiveGroup({ UsedBasicMonitorQuota: 42, UsedApiMonitorQuota: 7, IsQuotaUnlimited: 'false' });
    const desired = desiredState({ manage: groupsOnly(true), monitorGroups: [aGroup({ IsQuotaUnlimited: false })] });
    expect(planFor(desired, liveSnapshot({ monitorGroups: [live] })).steps).toEqual([]);
  });
});

describe('groupMembership kind', () => {
  const monitors = [aMonitor({ Name: 'A' }), aMonitor({ Name: 'B' }), aMonitor({ Name: 'C' })];
  const liveMonitors = [aLiveMonitor({ Name: 'A' }), aLiveMonitor({ Name: 'B' }), aLiveMonitor({ Name: 'C' })];
  const manage = { monitors: { prune: false }, monitorGroups: { prune: false } };

  it('adds a declared member, depending on nothing when group and monitor exist', () => {
    const desired = desiredState({ manage, monitors, monitorGroups: [aGroup({ members: ['A', 'B'] })] });
    const live = liveSnapshot({ monitors: liveMonitors, monitorGroups: [aLiveGroup()], members: { Shop: [guidFor('monitor', 'A')] } });
    const plan = planFor(desired, live);
    expect(plan.steps).toEqual([
      expect.objectContaining({
        id: 'groupMembership:Shop/B',
        action: 'create',
        dependsOn: [],
        desired: { MonitorGroupGuid: guidFor('monitorGroup', 'Shop'), MonitorGuid: guidFor('monitor', 'B') },
      }),
    ]);
  });

  it('removes a member the list no longer names, whatever prune says (the list is authoritative)', () => {
    const desired = desiredState({ manage, monitors, monitorGroups: [aGroup({ members: ['A'] })] });
    const live = liveSnapshot({ monitors: liveMonitors, monitorGroups: [aLiveGroup()], members: { Shop: [guidFor('monitor', 'A'), guidFor('monitor', 'C')] } });
    const plan = planFor(desired, live, {});
    expect(plan.steps.map((s) => [s.action, s.key, s.guid])).toEqual([['delete', 'Shop/C', `${guidFor('monitorGroup', 'Shop')}/${guidFor('monitor', 'C')}`]]);
  });

  it('leaves membership alone for a group that does not declare members', () => {
    const desired = desiredState({ manage, monitors, monitorGroups: [aGroup()] });
    const live = liveSnapshot({ monitors: liveMonitors, monitorGroups: [aLiveGroup()], members: { Shop: [guidFor('monitor', 'C')] } });
    const plan = planFor(desired, live);
    expect(plan.steps).toEqual([]);
    expect(plan.unmanaged).toEqual([]);
  });

  it('plans nothing when members match, in any order', () => {
    const desired = desiredState({ manage, monitors, monitorGroups: [aGroup({ members: ['B', 'A'] })] });
    const live = liveSnapshot({ monitors: liveMonitors, monitorGroups: [aLiveGroup()], members: { Shop: [guidFor('monitor', 'A'), guidFor('monitor', 'B')] } });
    const plan = planFor(desired, live);
    expect(plan.steps).toEqual([]);
    expect(plan.summary.unchanged).toBe(1 + 3 + 2);
  });

  it('uses placeholders and depends on the creates when group and monitor are new', () => {
    const desired = desiredState({ manage, monitors: [aMonitor({ Name: 'New' })], monitorGroups: [aGroup({ Description: 'Fresh', members: ['New'] })] });
    const plan = planFor(desired, liveSnapshot());
    expect(plan.steps.map((s) => s.id)).toEqual(['monitorGroup:Fresh', 'monitor:New', 'groupMembership:Fresh/New']);
    expect(plan.steps[2]).toMatchObject({ dependsOn: ['monitor:New', 'monitorGroup:Fresh'], desired: { MonitorGroupGuid: '{{monitorGroup:Fresh}}', MonitorGuid: '{{monitor:New}}' } });
  });

  it('keeps membership when a member monitor is renamed by its pinned GUID', () => {
    const guid = guidFor('monitor', 'A');
    const desired = desiredState({ manage, monitors: [aMonitor({ Name: 'A renamed', MonitorGuid: guid })], monitorGroups: [aGroup({ members: ['A renamed'] })] });
    const live = liveSnapshot({ monitors: [aLiveMonitor({ Name: 'A' })], monitorGroups: [aLiveGroup()], members: { Shop: [guid] } });
    const plan = planFor(desired, live);
    expect(plan.steps.map((s) => [s.action, s.id])).toEqual([['update', 'monitor:A renamed']]);
  });

  it('plans no separate member removals when the group itself is deleted', () => {
    const desired = desiredState({ manage: { monitors: { prune: false }, monitorGroups: { prune: true } }, monitors, monitorGroups: [aGroup({ Description: 'Kept', members: [] })] });
    const live = liveSnapshot({
      monitors: liveMonitors,
      monitorGroups: [aLiveGroup({ Description: 'Kept' }), aLiveGroup({ Description: 'Gone' })],
      members: { Gone: [guidFor('monitor', 'A')] },
    });
    const plan = planFor(desired, live, {});
    expect(plan.steps.map((s) => s.id)).toEqual(['monitorGroup:Gone']);
  });
});
