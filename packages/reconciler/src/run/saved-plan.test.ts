import { describe, expect, it } from 'vitest';
import { aLiveMonitor, aMonitor, desiredState, liveSnapshot, planFor } from '../test-utils/index.js';
import type { LiveSnapshot } from '../live/types.js';
import type { DesiredState } from '../desired.js';
import { compareSavedPlan, type FreshPlan } from './saved-plan.js';

const manage = { monitors: { prune: true } };

function fresh(desired: DesiredState, live: LiveSnapshot): FreshPlan {
  return { plan: planFor(desired, live), narrowed: (targets) => planFor(desired, live, { targets }) };
}

describe('compareSavedPlan', () => {
  const desired = desiredState({ manage, monitors: [aMonitor({ Name: 'a', IsActive: false }), aMonitor({ Name: 'b' })] });
  const live = liveSnapshot({ monitors: [aLiveMonitor({ Name: 'a' })] });
  const saved = planFor(desired, live);

  it('is current when the tree and the account are unchanged', () => {
    expect(compareSavedPlan(saved, fresh(desired, live))).toEqual({ status: 'current' });
  });

  it('is current for a plan narrowed with targets, compared with the fresh plan narrowed to its steps', () => {
    expect(compareSavedPlan(planFor(desired, live, { targets: ['monitor:b'] }), fresh(desired, live))).toEqual({ status: 'current' });
  });

  it('says the config changed when the tree did', () => {
    const edited = desiredState({ manage, monitors: [aMonitor({ Name: 'a' })] });
    expect(compareSavedPlan(saved, fresh(edited, live)).status).toBe('config-changed');
  });

  it('names the steps that changed with the account', () => {
    const changed = liveSnapshot({ monitors: [aLiveMonitor({ Name: 'a' }), aLiveMonitor({ Name: 'b' })] });
    expect(compareSavedPlan(saved, fresh(desired, changed))).toEqual({ status: 'live-changed', differences: [expect.objectContaining({ change: 'gone', step: expect.objectContaining({ id: 'monitor:b' }) })] });
  });

  it('finds a hand-edited step in an otherwise current plan', () => {
    const edited = { ...saved, steps: saved.steps.map((step) => ({ ...step, desired: { ...step.desired, Name: 'other' } })) };
    const result = compareSavedPlan(edited, fresh(desired, live));
    expect(result.status).toBe('steps-differ');
  });
});
