import { describe, expect, it } from 'vitest';
import { aLiveMonitor, desiredState, liveSnapshot } from '../../test-utils/index.js';
import { draftDeletes } from './deletes.js';
import { orderAndName } from './order.js';
import { safetyViolations } from './safety.js';
import { matched } from '../../test-utils/index.js';

describe('safety phase', () => {
  it('is a violation when deletes exceed the share of live objects allowed, and none within it', () => {
    const live = liveSnapshot({ monitors: ['a', 'b', 'c', 'd'].map((Name) => aLiveMonitor({ Name })) });
    const desired = desiredState({ manage: { monitors: { prune: true } } });
    const { states } = matched(desired, live);
    const steps = orderAndName(draftDeletes(states).drafts);
    expect(safetyViolations(states, steps, { maxDeletePercent: 30, maxUpdatePercent: 50 })).toEqual([expect.objectContaining({ kind: 'monitor', action: 'delete', count: 4, total: 4, percent: 100 })]);
    expect(safetyViolations(states, steps, { maxDeletePercent: 100, maxUpdatePercent: 50 })).toEqual([]);
  });
});
