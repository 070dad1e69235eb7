/**
 * The service adds `LoadTimeLimit1` and `LoadTimeLimit2` error conditions to every monitor that lacks them
 * (`SERVER_ADDED_ENTRIES` in `@monsync/client/wire`). A config that does not declare them must plan nothing about
 * them; one that declares them manages them like any other entry.
 */
import { describe, expect, it } from 'vitest';
import type { PlanStep } from '../src/index.js';
import { aLiveMonitor, aMonitor, desiredState, liveSnapshot, planFor } from '../src/test-utils/index.js';

const manage = { monitors: { prune: false } };
const serviceAdded = [
  { ErrorConditionType: 'LoadTimeLimit1', Value: '30000', Effect: 'Indicate' },
  { ErrorConditionType: 'LoadTimeLimit2', Value: '40000', Effect: 'Indicate' },
];

function monitorStep(steps: PlanStep[]): PlanStep | undefined {
  return steps.find((step) => step.kind === 'monitor');
}

describe('error conditions the service adds by itself', () => {
  it('plans nothing for a monitor declared without them after the service added them', () => {
    const live = aLiveMonitor({ ErrorConditions: [{ ErrorConditionType: 'HttpStatus', Value: '200' }, ...serviceAdded] });
    const desired = desiredState({ manage, monitors: [aMonitor({ ErrorConditions: [{ ErrorConditionType: 'HttpStatus', Value: '200' }] })] });
    const plan = planFor(desired, liveSnapshot({ monitors: [live] }));
    expect(monitorStep(plan.steps)).toBeUndefined();
    expect(plan.summary.unchanged).toBe(1);
  });

  it('plans nothing for a declared empty list either: only the service put them there', () => {
    const desired = desiredState({ manage, monitors: [aMonitor({ ErrorConditions: [] })] });
    const plan = planFor(desired, liveSnapshot({ monitors: [aLiveMonitor({ ErrorConditions: serviceAdded })] }));
    expect(monitorStep(plan.steps)).toBeUndefined();
  });

  it('applies the declared values of one that is declared, and keeps the other as the service has it', () => {
    const live = aLiveMonitor({ ErrorConditions: [{ ErrorConditionType: 'HttpStatus', Value: '200' }, ...serviceAdded] });
    const desired = desiredState({
      manage,
      monitors: [aMonitor({ ErrorConditions: [{ ErrorConditionType: 'HttpStatus', Value: '200' }, { ErrorConditionType: 'LoadTimeLimit1', Value: '2500', Effect: 'Error' }] })],
    });
    const step = monitorStep(planFor(desired, liveSnapshot({ monitors: [live] })).steps);
    expect(step?.action).toBe('update');
    expect(step?.changes).toEqual([
      { op: 'replace', path: '/ErrorConditions/LoadTimeLimit1/Effect', before: 'Indicate', after: 'Error' },
      { op: 'replace', path: '/ErrorConditions/LoadTimeLimit1/Value', before: '30000', after: '2500' },
    ]);
    // PATCH replaces the list: LoadTimeLimit2 goes back as the service holds it, not reset to its default.
    expect(step?.desired?.ErrorConditions).toEqual([
      { ErrorConditionType: 'HttpStatus', Value: '200' },
      { ErrorConditionType: 'LoadTimeLimit1', Value: '2500', Effect: 'Error' },
      { ErrorConditionType: 'LoadTimeLimit2', Value: '40000', Effect: 'Indicate' },
    ]);
  });

  it('still removes an entry of another type that the declared list leaves out', () => {
    const live = aLiveMonitor({ ErrorConditions: [{ ErrorConditionType: 'TotalMaxBytes', Value: '5000' }, ...serviceAdded] });
    const desired = desiredState({ manage, monitors: [aMonitor({ ErrorConditions: [] })] });
    const step = monitorStep(planFor(desired, liveSnapshot({ monitors: [live] })).steps);
    expect(step?.changes.map((c) => `${c.op} ${c.path}`)).toEqual(['remove /ErrorConditions/TotalMaxBytes']);
    expect(step?.desired?.ErrorConditions).toEqual(serviceAdded);
  });
});
