/**
 * Duty schedules converge: for random own and group schedules (with members) and a random account (operators
 * holding schedules, copies among them, groups with members), one apply leaves nothing to plan and a second apply
 * writes nothing. Then, with the answer to a schedule create lost after it was applied, the schedule exists once.
 * `MONSYNC_PROPERTY_RUNS` sets the number of runs (default 60 here: each run builds an account through the API).
 */
import fc from 'fast-check';
import { SEEDED } from '@monsync/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitoringClient } from '@monsync/client';
import type { DesiredState } from '../../src/desired.js';
import { anOperator, anOperatorGroup, desiredState } from '../../src/test-utils/index.js';
import { applyWith, describeSteps, planAgainst, startHarness, writeRequests, type Harness } from './harness.js';

const RUNS = Math.min(Number(process.env.MONSYNC_PROPERTY_RUNS ?? 60), 200);
const PEOPLE = ['ann@example.com', 'bob@example.com', 'cat@example.com'];
const GROUPS = ['Night shift', 'Weekend'];
const SCHEDULES = [
  { ScheduleMode: 'Daily', StartTime: '22:00', EndTime: '06:00' },
  { ScheduleMode: 'Daily', StartTime: '08:00', EndTime: '17:00' },
  { ScheduleMode: 'Weekly', WeekDay: 'Saturday', StartTime: '00:00', EndTime: '00:00' },
  { ScheduleMode: 'Monthly', MonthDay: 31, StartTime: '09:00', EndTime: '17:00' },
  { ScheduleMode: 'OneTime', StartDateTime: '2026-12-24T18:00:00', EndDateTime: '2026-12-27T08:00:00' },
];

const indexes = fc.subarray([0, 1, 2, 3, 4]);
const desiredArb = fc.record({
  own: fc.array(fc.tuple(fc.constantFrom(...PEOPLE), indexes), { maxLength: 3 }),
  groups: fc.array(fc.tuple(fc.constantFrom(...GROUPS), fc.subarray(PEOPLE), indexes), { maxLength: 2 }),
});
const liveArb = fc.record({
  // Rows per operator; the same index twice is a duplicate row (a copy beside an own one).
  rows: fc.array(fc.tuple(fc.constantFrom(...PEOPLE), fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 4 })), { maxLength: 3 }),
  members: fc.array(fc.tuple(fc.constantFrom(...GROUPS), fc.subarray(PEOPLE)), { maxLength: 2 }),
});

type DesiredInput = typeof desiredArb extends fc.Arbitrary<infer T> ? T : never;
type LiveInput = typeof liveArb extends fc.Arbitrary<infer T> ? T : never;

function unique<T extends readonly unknown[]>(list: readonly T[]): T[] {
  const seen = new Set<unknown>();
  return list.filter((entry) => (seen.has(entry[0]) ? false : (seen.add(entry[0]), true)));
}

function buildDesired(input: DesiredInput): DesiredState {
  const own = new Map(unique(input.own).map(([email, picked]) => [email, picked.map((i) => SCHEDULES[i])]));
  return desiredState({
    manage: { operators: { prune: false }, operatorGroups: { prune: false } },
    safety: { maxDeletePercent: 100, maxUpdatePercent: 100 },
    operators: [anOperator({ Email: SEEDED.admin.email }), ...PEOPLE.map((email) => anOperator({ Email: email, ...(own.has(email) ? { dutySchedules: own.get(email) } : {}) }))],
    operatorGroups: unique(input.groups).map(([name, members, picked]) => anOperatorGroup({ Description: name, members, dutySchedules: picked.map((i) => SCHEDULES[i]) })),
  } as never);
}

async function buildLive(client: MonitoringClient, input: LiveInput): Promise<void> {
  const guids = new Map<string, string>();
  for (const email of PEOPLE) guids.set(email, String((await client.operators.create({ Email: email, FullName: email } as never)).OperatorGuid));
  for (const [email, rows] of unique(input.rows)) for (const i of rows) await client.operators.dutySchedules.create(guids.get(email) ?? '', SCHEDULES[i] as never);
  for (const [name, members] of unique(input.members)) {
    const group = await client.operatorGroups.create({ Description: name });
    for (const email of members) await client.operatorGroups.addMember(group.OperatorGroupGuid, guids.get(email) ?? '');
  }
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

describe('duty schedules converge', () => {
  it(`one apply converges random schedules of operators and groups, and a second apply writes nothing (${RUNS} runs)`, { timeout: 600_000 }, async () => {
    let nonEmptyPlans = 0;
    await fc.assert(
      fc.asyncProperty(desiredArb, liveArb, async (desiredInput, liveInput) => {
        await h.emulator.control.reset('empty');
        await buildLive(h.client, liveInput);
        const desired = buildDesired(desiredInput);
        const plan = await planAgainst(h, desired);
        if (plan.steps.some((s) => s.kind === 'dutySchedule')) nonEmptyPlans += 1;
        const report = await applyWith(h, plan, desired);
        expect(report.failed).toEqual([]);
        const second = await planAgainst(h, desired);
        expect(describeSteps(second)).toEqual([]);
        h.emulator.control.clearLog();
        expect((await applyWith(h, second, desired)).total).toBe(0);
        expect(writeRequests(h)).toEqual([]);
      }),
      { numRuns: RUNS },
    );
    expect(nonEmptyPlans).toBeGreaterThan(RUNS / 3);
  });

  it('creates a schedule once when the answer to its applied POST is lost, and plans nothing after', async () => {
    await h.emulator.control.reset('empty');
    await buildLive(h.client, { rows: [], members: [] });
    const desired = buildDesired({ own: [['ann@example.com', [0]]], groups: [['Night shift', ['bob@example.com'], [1]]] });
    const plan = await planAgainst(h, desired);
    h.emulator.control.setFaults({ scripted: [{ method: 'POST', route: '/Operator/{operatorGuid}/DutySchedule', count: 1, kind: 'applied-then-reset' }] });
    const report = await applyWith(h, plan, desired);
    expect(report.failed).toEqual([]);
    expect(report.done.map((d) => d.note).filter((n) => n !== undefined)).toContain('found after an unclear outcome');
    const ann = (await h.client.operators.list().toArray()).find((o) => o.Email === 'ann@example.com');
    expect(await h.client.operators.dutySchedules.list(String(ann?.OperatorGuid)).toArray()).toHaveLength(1);
    expect(describeSteps(await planAgainst(h, desired))).toEqual([]);
  });
});
