/**
 * Duty schedules converge: for random own and group schedules (with members) and a random account (operators
 * holding schedules, copies among them, groups with members), one apply leaves nothing to plan and a second apply
 * writes nothing. People alone, so every run is about them; the generators and the property are those of the
 * convergence test (`people-trees.ts`, `expectConvergesInOneApply`), and a lost answer to a schedule create is in the
 * fault suite. `MONSYNC_PROPERTY_RUNS` sets the number of runs (default 60 here: each run builds an account through the API).
 */
import fc from 'fast-check';
import { DUTY_SCHEDULE_KIND } from '@monsync/schema';
import { describe, expect, it } from 'vitest';
import { desiredState } from '../../src/test-utils/index.js';
import { expectConvergesInOneApply, useEmulatorHarness, type Harness } from './harness.js';
import { buildPeopleDesired, buildPeopleLive, peopleDesiredArb, peopleLiveArb, type PeopleDesired } from './people-trees.js';

const RUNS = Math.min(Number(process.env.MONSYNC_PROPERTY_RUNS ?? 60), 200);

function buildDesired(input: PeopleDesired) {
  const people = buildPeopleDesired(input);
  return desiredState({ manage: people.manage, safety: { maxDeletePercent: 100, maxUpdatePercent: 100 }, operators: people.operators, operatorGroups: people.operatorGroups });
}

let h: Harness;
useEmulatorHarness((harness) => (h = harness));

describe('duty schedules converge', () => {
  it(`one apply converges random schedules of operators and groups, and a second apply writes nothing (${RUNS} runs)`, { timeout: 600_000 }, async () => {
    let schedulePlans = 0;
    await fc.assert(
      fc.asyncProperty(peopleDesiredArb, peopleLiveArb, async (desiredInput, liveInput) => {
        await h.emulator.control.reset('empty');
        await buildPeopleLive(h.client, liveInput);
        const plan = await expectConvergesInOneApply(h, buildDesired(desiredInput));
        if (plan.steps.some((s) => s.kind === DUTY_SCHEDULE_KIND.kind)) schedulePlans += 1;
      }),
      { numRuns: RUNS },
    );
    expect(schedulePlans).toBeGreaterThan(RUNS / 3);
  });
});
