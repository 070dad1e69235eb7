import { describe, expect, it } from 'vitest';
import { aLiveMonitor, aMonitor, desiredState, guidFor, liveSnapshot, planFor } from '../src/test-utils/index.js';

const retired = (name: string, notes = 'monsync:retired=auto', guid = guidFor('monitor', name)) =>
  aLiveMonitor({ Name: name, MonitorGuid: guid, IsActive: false, GenerateAlert: false, Notes: notes });

describe('retired monitors', () => {
  it('plan nothing when no file declares them: no delete, not unmanaged, not in the safety total', () => {
    for (const prune of [true, false]) {
      const desired = desiredState({ manage: { monitors: { prune } }, monitors: [aMonitor({ Name: 'Kept' })] });
      const plan = planFor(desired, liveSnapshot({ monitors: [aLiveMonitor({ Name: 'Kept' }), retired('Old one'), retired('Older one')] }));
      expect(plan.steps).toEqual([]);
      expect(plan.unmanaged).toEqual([]);
      expect(plan.summary).toMatchObject({ unchanged: 1, unmanaged: 0 });
    }
    // Two live monitors counted: deleting both is every one of them, not half of four.
    const none = desiredState({ manage: { monitors: { prune: true } }, monitors: [] });
    const plan = planFor(none, liveSnapshot({ monitors: [aLiveMonitor({ Name: 'Kept' }), aLiveMonitor({ Name: 'Also kept' }), retired('Old one'), retired('Older one')] }));
    expect(plan.violations).toMatchObject([{ kind: 'monitor', action: 'delete', rule: 'every', count: 2, total: 2 }]);
  });

  it('are revived, the same object, when declared again: switched back on, the marker dropped, the reason given', () => {
    const desired = desiredState({ manage: { monitors: { prune: true } }, monitors: [aMonitor({ Name: 'Back' })] });
    const plan = planFor(desired, liveSnapshot({ monitors: [retired('Back', 'owned by ops\nmonsync:retired=deactivate')] }));
    expect(plan.steps).toHaveLength(1);
    expect(plan.steps[0]).toMatchObject({ action: 'update', guid: guidFor('monitor', 'Back'), reason: 'revived: retired by monsync, declared again' });
    expect(plan.steps[0]?.changes).toEqual([
      { op: 'replace', path: '/GenerateAlert', before: false, after: true },
      { op: 'replace', path: '/IsActive', before: false, after: true },
      { op: 'replace', path: '/Notes', before: 'owned by ops\nmonsync:retired=deactivate', after: 'owned by ops' },
    ]);
    expect(plan.steps[0]?.desired).toMatchObject({ IsActive: true, GenerateAlert: true, Notes: 'owned by ops' });
  });

  it('keep what the config declares when revived (a monitor declared inactive stays inactive)', () => {
    const desired = desiredState({ manage: { monitors: { prune: true } }, monitors: [aMonitor({ Name: 'Back', IsActive: false })] });
    const plan = planFor(desired, liveSnapshot({ monitors: [retired('Back')] }));
    expect(plan.steps[0]?.changes.map((c) => c.path)).toEqual(['/GenerateAlert', '/Notes']);
    expect(plan.steps[0]?.desired).toMatchObject({ IsActive: false, GenerateAlert: true, Notes: '' });
  });

  it('never meet an active monitor of the same name as a duplicate: the active one is matched, retired copies stay dormant', () => {
    const desired = desiredState({ manage: { monitors: { prune: true } }, monitors: [aMonitor({ Name: 'Twice' })] });
    const plan = planFor(
      desired,
      liveSnapshot({ monitors: [retired('Twice', 'monsync:retired=auto', '00000000-0000-4000-8000-000000000001'), aLiveMonitor({ Name: 'Twice' }), retired('Twice', 'monsync:retired=auto', '00000000-0000-4000-8000-000000000002')] }),
    );
    expect(plan.steps).toEqual([]);
    // Two retired copies and no active one: the lowest GUID is revived, the other stays dormant.
    const revived = planFor(
      desired,
      liveSnapshot({ monitors: [retired('Twice', 'monsync:retired=auto', '00000000-0000-4000-8000-000000000002'), retired('Twice', 'monsync:retired=auto', '00000000-0000-4000-8000-000000000001')] }),
    );
    expect(revived.steps.map((s) => [s.action, s.guid])).toEqual([['update', '00000000-0000-4000-8000-000000000001']]);
  });

  it('are retired by a delete step that carries the strategy and, unless it is delete, the retire body keeping the Notes text and releasing its variables', () => {
    for (const removal of ['auto', 'deactivate', 'delete'] as const) {
      const desired = desiredState({ manage: { monitors: { prune: true, removal } }, monitors: [aMonitor({ Name: 'Kept' })], safety: { maxDeletePercent: 100, maxUpdatePercent: 100 } });
      const plan = planFor(desired, liveSnapshot({ monitors: [aLiveMonitor({ Name: 'Kept' }), aLiveMonitor({ Name: 'Gone', Notes: 'runbook: wiki/gone' })] }));
      const step = plan.steps.find((s) => s.key === 'Gone');
      expect(step).toMatchObject({ action: 'delete', removal });
      if (removal === 'delete') expect(step?.desired).toBeUndefined();
      else expect(step?.desired).toEqual({ IsActive: false, GenerateAlert: false, PredefinedVariables: [], Notes: `runbook: wiki/gone\nmonsync:retired=${removal}` });
    }
  });
});
