import { describe, expect, it } from 'vitest';
import { gapLabels, weekGrid } from './grid.js';
import { previewOnCall, type OnCallState } from './preview.js';
import type { DutyScheduleContent } from './schedule.js';
import { ianaZone, UTC, type Zone } from './zone.js';

const AMSTERDAM = ianaZone('Europe/Amsterdam');
const daily = (StartTime: string, EndTime: string): DutyScheduleContent => ({ ScheduleMode: 'Daily', StartTime, EndTime });

function state(operators: [string, Zone, DutyScheduleContent[]][], groups: [string, string[]][]): OnCallState {
  return {
    operators: operators.map(([key, zone, schedules]) => ({ key, zone, schedules })),
    groups: groups.map(([key, members]) => ({ key, members })),
  };
}

function subject(preview: ReturnType<typeof previewOnCall>, key: string) {
  const found = preview.subjects.find((s) => s.key === key);
  if (found === undefined) throw new Error(`no subject ${key} in ${preview.subjects.map((s) => s.key).join(', ')}`);
  return found;
}

function rows(preview: ReturnType<typeof previewOnCall>, key: string): Record<string, [string, string]> {
  return Object.fromEntries(weekGrid(subject(preview, key)).map((row) => [row.day, [row.before, row.after]]));
}

describe('on-call preview across the March daylight-saving change in Amsterdam', () => {
  // Thursday 26 March 2026, 13:00 in Amsterdam (CET); summer time starts Sunday 29 March at 02:00.
  const now = Date.parse('2026-03-26T12:00:00Z');
  const before = state(
    [
      ['ann@example.com', AMSTERDAM, [daily('22:00', '06:00')]],
      ['bob@example.com', AMSTERDAM, [daily('06:00', '14:00')]],
    ],
    [['Night shift', ['ann@example.com', 'bob@example.com']]],
  );
  const after = state(
    [
      ['ann@example.com', AMSTERDAM, [daily('22:00', '06:00')]],
      ['bob@example.com', AMSTERDAM, [daily('07:00', '14:00')]],
    ],
    [['Night shift', ['ann@example.com', 'bob@example.com']]],
  );
  const preview = previewOnCall({ now, before, after });

  it('shows the group on its members’ clock, the skipped hour blank, and 06:00 newly uncovered every morning', () => {
    expect(subject(preview, 'Night shift').timeZone).toBe('Europe/Amsterdam');
    expect(rows(preview, 'Night shift')).toEqual({
      'Thu 26 Mar': ['             #........##', '             #........##'],
      'Fri 27 Mar': ['##############........##', '######!#######........##'],
      'Sat 28 Mar': ['##############........##', '######!#######........##'],
      'Sun 29 Mar': ['## ###########........##', '## ###!#######........##'],
      'Mon 30 Mar': ['##############........##', '######!#######........##'],
      'Tue 31 Mar': ['##############........##', '######!#######........##'],
      'Wed 01 Apr': ['##############........##', '######!#######........##'],
      'Thu 02 Apr': ['##############          ', '######!#######          '],
    });
  });

  it('lists each uncovered hour at its UTC instant, an hour earlier once summer time starts', () => {
    const gaps = subject(preview, 'Night shift').uncovered ?? [];
    expect(gaps.map((g) => g.from)).toEqual([
      '2026-03-27T05:00:00Z',
      '2026-03-28T05:00:00Z',
      '2026-03-29T04:00:00Z',
      '2026-03-30T04:00:00Z',
      '2026-03-31T04:00:00Z',
      '2026-04-01T04:00:00Z',
      '2026-04-02T04:00:00Z',
    ]);
    expect(gapLabels(subject(preview, 'Night shift'))[2]).toBe('Sun 29 Mar 06:00-07:00 (1 hour)');
  });

  it('shows the changed operator and, in its groups, the unchanged one not at all', () => {
    expect(preview.subjects.map((s) => `${s.kind}:${s.key}`)).toEqual(['operatorGroup:Night shift', 'operator:bob@example.com']);
  });

  it('counts a group of members in several zones in UTC, where the night shift moves an hour earlier', () => {
    const mixedBefore = state(
      [
        ['ann@example.com', AMSTERDAM, [daily('22:00', '06:00')]],
        ['carl@example.com', UTC, [daily('06:00', '14:00')]],
      ],
      [['Night shift', ['ann@example.com', 'carl@example.com']]],
    );
    const mixedAfter = state(
      [
        ['ann@example.com', AMSTERDAM, [daily('22:00', '06:00')]],
        ['carl@example.com', UTC, [daily('05:00', '14:00')]],
      ],
      [['Night shift', ['ann@example.com', 'carl@example.com']]],
    );
    const mixed = previewOnCall({ now, before: mixedBefore, after: mixedAfter });
    const grid = rows(mixed, 'Night shift');
    expect(subject(mixed, 'Night shift').timeZone).toBe('UTC');
    expect(grid['Sat 28 Mar']).toEqual(['#####.########.......###', '##############.......###']);
    expect(grid['Mon 30 Mar']).toEqual(['####..########......####', '####.#########......####']);
    expect(subject(mixed, 'Night shift').uncovered).toEqual([]);
  });
});

describe('on-call preview across the October daylight-saving change in Amsterdam', () => {
  it('counts the repeated hour twice in the hours and once in the grid', () => {
    // Sunday 25 October 2026, 00:00 in Amsterdam (CEST); at 03:00 the clock goes back to 02:00.
    const now = Date.parse('2026-10-24T22:00:00Z');
    const before = state([['eve@example.com', AMSTERDAM, [daily('01:00', '04:00')]]], []);
    const after = state([['eve@example.com', AMSTERDAM, [daily('01:00', '05:00')]]], []);
    const preview = previewOnCall({ now, before, after });
    const eve = subject(preview, 'eve@example.com');
    // 00:00 CEST, 01:00 CEST, 02:00 CEST, 02:00 CET, 03:00 CET, 04:00 CET, 05:00 CET.
    expect(eve.before.slice(0, 7)).toBe('.####..');
    expect(eve.after.slice(0, 7)).toBe('.#####.');
    expect(rows(preview, 'eve@example.com')['Sun 25 Oct']).toEqual(['.###....................', '.####...................']);
  });
});

describe('on-call preview of a Monthly schedule on the 31st', () => {
  const monthly31: DutyScheduleContent = { ScheduleMode: 'Monthly', MonthDay: 31, StartTime: '09:00', EndTime: '17:00' };
  const before = state([['dana@example.com', UTC, [daily('09:00', '17:00')]]], [['Month end', ['dana@example.com']]]);
  const after = state([['dana@example.com', UTC, [monthly31]]], [['Month end', ['dana@example.com']]]);
  const office = '.........########.......';
  const none = '........................';
  const lost = '.........!!!!!!!!.......';

  it('has no window in a month of 30 days: the schedule is skipped, never moved to the 30th', () => {
    const preview = previewOnCall({ now: Date.parse('2026-04-27T00:00:00Z'), before, after });
    expect(rows(preview, 'Month end')).toEqual({
      'Mon 27 Apr': [office, lost],
      'Tue 28 Apr': [office, lost],
      'Wed 29 Apr': [office, lost],
      'Thu 30 Apr': [office, lost],
      'Fri 01 May': [office, lost],
      'Sat 02 May': [office, lost],
      'Sun 03 May': [office, lost],
    });
    expect(rows(preview, 'dana@example.com')['Thu 30 Apr']).toEqual([office, none]);
    expect(subject(preview, 'Month end').uncovered).toHaveLength(7);
  });

  it('covers the 31st of a month that has one', () => {
    const preview = previewOnCall({ now: Date.parse('2026-03-27T00:00:00Z'), before, after });
    expect(rows(preview, 'Month end')).toEqual({
      'Fri 27 Mar': [office, lost],
      'Sat 28 Mar': [office, lost],
      'Sun 29 Mar': [office, lost],
      'Mon 30 Mar': [office, lost],
      'Tue 31 Mar': [office, office],
      'Wed 01 Apr': [office, lost],
      'Thu 02 Apr': [office, lost],
    });
  });
});

describe('on-call preview of schedules by mode', () => {
  const now = Date.parse('2026-06-01T00:00:00Z'); // a Monday

  it('reads a Weekly overnight window into the next day, and a OneTime window on the operator’s clock', () => {
    const weekly: DutyScheduleContent = { ScheduleMode: 'Weekly', WeekDay: 'Friday', StartTime: '20:00', EndTime: '02:00' };
    const oneTime: DutyScheduleContent = { ScheduleMode: 'OneTime', StartDateTime: '2026-06-02T10:00:00', EndDateTime: '2026-06-02T12:30:00' };
    const preview = previewOnCall({
      now,
      before: state([['fay@example.com', AMSTERDAM, []]], []),
      after: state([['fay@example.com', AMSTERDAM, [weekly, oneTime]]], []),
    });
    const grid = rows(preview, 'fay@example.com');
    expect(grid['Tue 02 Jun']?.[1]).toBe('..........##+...........');
    expect(grid['Fri 05 Jun']?.[1]).toBe('....................####');
    expect(grid['Sat 06 Jun']?.[1]).toBe('##......................');
    // Before: no schedule, on duty around the clock.
    expect(grid['Wed 03 Jun']?.[0]).toBe('########################');
  });

  it('shows a group that loses its last member as uncovered all week', () => {
    const preview = previewOnCall({
      now,
      before: state([['gil@example.com', UTC, []]], [['Ops', ['gil@example.com']]]),
      after: state([['gil@example.com', UTC, []]], [['Ops', []]]),
    });
    expect(subject(preview, 'Ops').uncovered).toEqual([{ from: '2026-06-01T00:00:00Z', to: '2026-06-08T00:00:00Z', hours: 168 }]);
  });

  it('shows nothing when schedules are only reordered', () => {
    const a = daily('08:00', '12:00');
    const b = daily('13:00', '17:00');
    const preview = previewOnCall({
      now,
      before: state([['hal@example.com', UTC, [a, b]]], [['Ops', ['hal@example.com']]]),
      after: state([['hal@example.com', UTC, [b, a]]], [['Ops', ['hal@example.com']]]),
    });
    expect(preview.subjects).toEqual([]);
  });
});
