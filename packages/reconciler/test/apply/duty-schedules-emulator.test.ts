/**
 * Duty schedules of operators and groups against the emulator, under every profile (`MONSYNC_EMULATOR_PROFILE`). On
 * `published` an operator schedule POST answers 201 with no body and groups have no schedule routes of their own:
 * a group's schedule is a copy on each member.
 */
import { SEEDED } from '@monsync/emulator';
import { describe, expect, it } from 'vitest';
import type { DesiredState } from '../../src/desired.js';
import { readLiveAgainOnUnclear } from '../../src/apply/read-live-again.js';
import { liveScope } from '../../src/plan/scope.js';
import type { Plan } from '../../src/plan/types.js';
import { anOperator, anOperatorGroup, desiredState, planFor } from '../../src/test-utils/index.js';
import { applyWith, describeSteps, type Harness, useEmulatorHarness, writeRequests } from './harness.js';

let h: Harness;
useEmulatorHarness((harness) => (h = harness));

const ADMIN = SEEDED.admin;
const NOW = Date.parse('2026-03-26T12:00:00Z');
const night = { ScheduleMode: 'Daily', StartTime: '22:00', EndTime: '06:00' };
const late = { ScheduleMode: 'Daily', StartTime: '23:00', EndTime: '06:00' };
const friday = { ScheduleMode: 'Weekly', WeekDay: 'Friday', StartTime: '18:00', EndTime: '23:00' };
const monthEnd = { ScheduleMode: 'Monthly', MonthDay: 31, StartTime: '09:00', EndTime: '17:00' };

async function plan(desired: DesiredState): Promise<Plan> {
  return planFor(desired, await readLiveAgainOnUnclear(h.client, liveScope(desired)), { selfOperatorGuid: ADMIN.guid, now: NOW });
}

async function converge(desired: DesiredState): Promise<Plan> {
  const first = await plan(desired);
  const report = await applyWith(h, first, desired);
  expect(report.failed).toEqual([]);
  return first;
}

function team(parts: { ann?: object[]; bob?: object[]; group?: object[]; members?: string[] } = {}): DesiredState {
  return desiredState({
    manage: { operators: { prune: false }, operatorGroups: { prune: false } },
    safety: { maxDeletePercent: 100, maxUpdatePercent: 100 },
    operators: [
      anOperator({ Email: ADMIN.email }),
      anOperator({ Email: 'ann@example.com', TimeZoneId: 3, ...(parts.ann === undefined ? {} : { dutySchedules: parts.ann }) }),
      anOperator({ Email: 'bob@example.com', TimeZoneId: 3, ...(parts.bob === undefined ? {} : { dutySchedules: parts.bob }) }),
    ],
    operatorGroups: [anOperatorGroup({ Description: 'Night shift', members: parts.members ?? ['ann@example.com', 'bob@example.com'], dutySchedules: parts.group ?? [night] })],
  } as never);
}

async function held(email: string): Promise<string[]> {
  const operator = (await h.client.operators.list().toArray()).find((o) => o.Email === email);
  const rows = await h.client.operators.dutySchedules.list(String(operator?.OperatorGuid)).toArray();
  return rows.map((r) => `${r.ScheduleMode} ${r.WeekDay ?? r.MonthDay ?? ''} ${r.StartTime}-${r.EndTime}`.replace('  ', ' ')).sort();
}

describe('duty schedules as code, against the emulator', () => {
  it('copies a group schedule onto each member and adds an operator’s own, one POST each; the next plan is empty', async () => {
    const desired = team({ ann: [friday] });
    h.emulator.control.clearLog();
    const first = await converge(desired);
    expect(describeSteps(first).filter((s) => s.includes('dutySchedule'))).toEqual([
      'create dutySchedule:ann@example.com/Daily 22:00-06:00',
      'create dutySchedule:ann@example.com/Weekly Friday 18:00-23:00',
      'create dutySchedule:bob@example.com/Daily 22:00-06:00',
    ]);
    // One POST per schedule: a create answered 201 with no body is found by listing, never by posting again.
    expect(writeRequests(h).filter((e) => e.route.includes('DutySchedule')).map((e) => e.route)).toEqual(Array(3).fill('POST /Operator/{operatorGuid}/DutySchedule'));
    expect(await held('ann@example.com')).toEqual(['Daily 22:00-06:00', 'Weekly Friday 18:00-23:00']);
    expect(await held('bob@example.com')).toEqual(['Daily 22:00-06:00']);
    expect(describeSteps(await plan(desired))).toEqual([]);
  });

  it('plans nothing when schedules are reordered', async () => {
    await converge(team({ ann: [friday, monthEnd], group: [night, late] }));
    expect(describeSteps(await plan(team({ ann: [monthEnd, friday], group: [late, night] })))).toEqual([]);
  });

  it('moves a group schedule by editing the copies, and previews the hour the group loses', async () => {
    await converge(team());
    const moved = team({ group: [late] });
    const second = await plan(moved);
    expect(describeSteps(second)).toEqual([
      'create dutySchedule:ann@example.com/Daily 23:00-06:00',
      'create dutySchedule:bob@example.com/Daily 23:00-06:00',
      'delete dutySchedule:ann@example.com/Daily 22:00-06:00',
      'delete dutySchedule:bob@example.com/Daily 22:00-06:00',
    ]);
    const group = second.onCall?.subjects.find((s) => s.key === 'Night shift');
    expect(group?.timeZone).toBe('Europe/Amsterdam');
    // 22:00 in Amsterdam every evening from Thursday 26 March: 21:00 UTC, then 20:00 UTC from summer time on.
    expect(group?.uncovered?.map((g) => g.from)).toEqual([
      '2026-03-26T21:00:00Z',
      '2026-03-27T21:00:00Z',
      '2026-03-28T21:00:00Z',
      '2026-03-29T20:00:00Z',
      '2026-03-30T20:00:00Z',
      '2026-03-31T20:00:00Z',
      '2026-04-01T20:00:00Z',
    ]);
    expect((await applyWith(h, second, moved)).failed).toEqual([]);
    expect(await held('bob@example.com')).toEqual(['Daily 23:00-06:00']);
    expect(describeSteps(await plan(moved))).toEqual([]);
  });

  it('keeps a member’s own schedule of the same content when the group drops it, and never removes a group’s copy from a member that declares its own', async () => {
    await converge(team({ bob: [night, friday] }));
    expect(await held('bob@example.com')).toEqual(['Daily 22:00-06:00', 'Weekly Friday 18:00-23:00']);
    // Bob declares only Friday: the group's night shift stays on him, as a copy, and nothing is planned.
    expect(describeSteps(await plan(team({ bob: [friday] })))).toEqual([]);
    // The group drops the night shift: Ann loses her copy; Bob keeps his, which he declares himself.
    const dropped = team({ bob: [night, friday], group: [] });
    const third = await converge(dropped);
    expect(describeSteps(third)).toEqual(['delete dutySchedule:ann@example.com/Daily 22:00-06:00']);
    expect(await held('bob@example.com')).toEqual(['Daily 22:00-06:00', 'Weekly Friday 18:00-23:00']);
    expect(describeSteps(await plan(dropped))).toEqual([]);
  });

  it('copies the group’s schedules onto a new member, and leaves schedules of members that are not the group’s alone', async () => {
    await converge(team({ members: ['ann@example.com'] }));
    const bob = (await h.client.operators.list().toArray()).find((o) => o.Email === 'bob@example.com');
    await h.client.operators.dutySchedules.create(String(bob?.OperatorGuid), { ScheduleMode: 'Weekly', WeekDay: 'Monday', StartTime: '08:00', EndTime: '12:00' });
    const joined = team();
    const second = await converge(joined);
    expect(describeSteps(second).filter((s) => s.includes('dutySchedule'))).toEqual(['create dutySchedule:bob@example.com/Daily 22:00-06:00']);
    expect(await held('bob@example.com')).toEqual(['Daily 22:00-06:00', 'Weekly Monday 08:00-12:00']);
    expect(describeSteps(await plan(joined))).toEqual([]);
  });
});
