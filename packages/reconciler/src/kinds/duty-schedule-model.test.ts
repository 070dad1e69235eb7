import { describe, expect, it } from 'vitest';
import { pulledDutySchedules } from './duty-schedule.js';
import { dutyContent, dutyLabel, heldSchedules, managedHeld, wantedSchedules, type DutyDeclarations } from './duty-schedule-model.js';

const night = { ScheduleMode: 'Daily', StartTime: '22:00', EndTime: '06:00' };
const day = { ScheduleMode: 'Daily', StartTime: '06:00', EndTime: '14:00' };
const friday = { ScheduleMode: 'Weekly', WeekDay: 'Friday', StartTime: '18:00', EndTime: '23:00' };

describe('duty schedule content', () => {
  it('keeps the fields of the mode, times as HH:mm and date-times to the second', () => {
    expect(dutyContent({ Id: 4, ScheduleMode: 'Weekly', WeekDay: 'Friday', StartTime: '18:00:00', EndTime: '23:00', MonthDay: null })).toEqual(friday);
    expect(dutyContent({ ScheduleMode: 'OneTime', StartDateTime: '2026-12-24T18:00', EndDateTime: '2026-12-27T08:00:00.000Z' })).toEqual({
      ScheduleMode: 'OneTime',
      StartDateTime: '2026-12-24T18:00:00',
      EndDateTime: '2026-12-27T08:00:00',
    });
  });

  it('labels each mode readably', () => {
    expect([night, friday, { ScheduleMode: 'Monthly', MonthDay: 31, StartTime: '09:00', EndTime: '17:00' }].map((s) => dutyLabel(dutyContent(s)))).toEqual([
      'Daily 22:00-06:00',
      'Weekly Friday 18:00-23:00',
      'Monthly day 31 09:00-17:00',
    ]);
  });

  it('reads two rows of the same content as one schedule held twice', () => {
    expect(heldSchedules([{ Id: 1, ...night }, { Id: 7, ...night }, { Id: 3, ...day }])).toEqual([
      { label: 'Daily 22:00-06:00', content: night, ids: ['1', '7'] },
      { label: 'Daily 06:00-14:00', content: day, ids: ['3'] },
    ]);
  });
});

describe('which schedules an operator should hold', () => {
  const declared: DutyDeclarations = {
    own: new Map([['ann@example.com', [night]]]),
    groups: [{ name: 'Night shift', members: ['ann@example.com', 'bob@example.com'], schedules: [night, friday] }],
  };

  it('holds its own and its groups’ schedules, one schedule where both declare the same content', () => {
    const wanted = wantedSchedules(declared);
    expect([...(wanted.get('ann@example.com')?.entries() ?? [])].map(([label, w]) => [label, w.origin])).toEqual([
      ['Daily 22:00-06:00', { own: true }],
      ['Weekly Friday 18:00-23:00', { group: 'Night shift' }],
    ]);
    expect([...(wanted.get('bob@example.com')?.keys() ?? [])]).toEqual(['Daily 22:00-06:00', 'Weekly Friday 18:00-23:00']);
  });
});

describe('which held schedules monsync reconciles', () => {
  const declared: DutyDeclarations = {
    own: new Map([['ann@example.com', [night]]]),
    groups: [
      { name: 'Night shift', members: ['bob@example.com', 'cat@example.com'], schedules: [night] },
      { name: 'Solo', members: ['dan@example.com'], schedules: [] },
    ],
  };
  const wanted = wantedSchedules(declared);
  const rows: Record<string, Record<string, unknown>[]> = {
    'ann@example.com': [{ Id: 1, ...night }, { Id: 2, ...day }],
    'bob@example.com': [{ Id: 3, ...night }, { Id: 4, ...friday }, { Id: 5, ...day }],
    'cat@example.com': [{ Id: 6, ...friday }],
    'dan@example.com': [{ Id: 7, ...friday }],
  };
  const heldBy = (email: string) => heldSchedules(rows[email] ?? []);
  const labels = (email: string) => managedHeld(email, heldBy(email), declared, wanted, heldBy).map((h) => h.label);

  it('all of them on an operator that declares its own', () => {
    expect(labels('ann@example.com')).toEqual(['Daily 22:00-06:00', 'Daily 06:00-14:00']);
  });

  it('on a group member that declares none: what it should hold, and what every listed member of its group holds (a former copy)', () => {
    // Friday is on both members: the group's former schedule. The day shift is bob's alone: not the group's to remove.
    expect(labels('bob@example.com')).toEqual(['Daily 22:00-06:00', 'Weekly Friday 18:00-23:00']);
  });

  it('never on the only member of a group: its schedules are its own', () => {
    expect(labels('dan@example.com')).toEqual([]);
  });
});

describe('pulled duty schedules', () => {
  it('writes each content once, by label, without ids', () => {
    expect(pulledDutySchedules([{ Id: 9, ...night }, { Id: 2, ...friday }, { Id: 3, ...night }])).toEqual([night, friday]);
    expect(pulledDutySchedules([])).toBeUndefined();
  });
});
