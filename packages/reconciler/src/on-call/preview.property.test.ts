import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { previewOnCall, type OnCallState } from './preview.js';
import type { DutyScheduleContent } from './schedule.js';
import { ianaZone, UTC } from './zone.js';

const time = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 15, 30, 45)).map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
const schedule: fc.Arbitrary<DutyScheduleContent> = fc.oneof(
  fc.record({ ScheduleMode: fc.constant('Daily'), StartTime: time, EndTime: time }),
  fc.record({
    ScheduleMode: fc.constant('Weekly'),
    WeekDay: fc.constantFrom('Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'),
    StartTime: time,
    EndTime: time,
  }),
  fc.record({ ScheduleMode: fc.constant('Monthly'), MonthDay: fc.integer({ min: 1, max: 31 }), StartTime: time, EndTime: time }),
);
const zone = fc.constantFrom(UTC, ianaZone('Europe/Amsterdam'), ianaZone('America/New_York'), ianaZone('Asia/Kolkata'));
const now = fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2027, 0, 1) });
const operators = fc.array(fc.tuple(zone, fc.array(schedule, { maxLength: 3 }), fc.array(schedule, { maxLength: 3 })), { minLength: 1, maxLength: 4 });

function states(ops: [typeof UTC, DutyScheduleContent[], DutyScheduleContent[]][]): [OnCallState, OnCallState] {
  const members = ops.map((_, i) => `op${i}@example.com`);
  const before = { operators: ops.map(([z, s], i) => ({ key: `op${i}@example.com`, zone: z, schedules: s })), groups: [{ key: 'G', members }] };
  const after = { operators: ops.map(([z, , s], i) => ({ key: `op${i}@example.com`, zone: z, schedules: s })), groups: [{ key: 'G', members }] };
  return [before, after];
}

describe('on-call preview properties', () => {
  it('calls an hour uncovered only where the group had someone on duty before and not the whole hour after', () => {
    fc.assert(
      fc.property(now, operators, (at, ops) => {
        const [before, after] = states(ops);
        const group = previewOnCall({ now: at, before, after }).subjects.find((s) => s.kind === 'operatorGroup');
        if (group === undefined) return;
        const start = Date.parse(group.from);
        for (const gap of group.uncovered ?? []) {
          for (let t = Date.parse(gap.from); t < Date.parse(gap.to); t += 3_600_000) {
            const i = (t - start) / 3_600_000;
            expect(group.before[i]).not.toBe('.');
            expect(group.after[i]).not.toBe('#');
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it('reads the off-duty switch as the exact complement of the on-duty one', () => {
    fc.assert(
      fc.property(now, zone, fc.array(schedule, { minLength: 1, maxLength: 3 }), (at, z, schedules) => {
        const before: OnCallState = { operators: [], groups: [] };
        const after: OnCallState = { operators: [{ key: 'o', zone: z, schedules }], groups: [] };
        const on = previewOnCall({ now: at, before, after, reading: 'on-duty' }).subjects[0]?.after ?? '';
        const off = previewOnCall({ now: at, before, after, reading: 'off-duty' }).subjects[0]?.after ?? '';
        const flipped = [...on].map((c) => (c === '#' ? '.' : c === '.' ? '#' : c)).join('');
        expect(off).toBe(flipped);
      }),
      { numRuns: 60 },
    );
  });

  it('gives the same hours whatever the order of the schedules', () => {
    fc.assert(
      fc.property(now, operators, (at, ops) => {
        const [before, after] = states(ops);
        const reversed = { ...after, operators: after.operators.map((o) => ({ ...o, schedules: [...o.schedules].reverse() })) };
        expect(previewOnCall({ now: at, before, after: reversed })).toEqual(previewOnCall({ now: at, before, after }));
      }),
      { numRuns: 40 },
    );
  });

  it('covers a Daily window for its length on every whole UTC day', () => {
    fc.assert(
      fc.property(time, time, (start, end) => {
        const at = Date.UTC(2026, 5, 1);
        const after: OnCallState = { operators: [{ key: 'o', zone: UTC, schedules: [{ ScheduleMode: 'Daily', StartTime: start, EndTime: end }] }], groups: [] };
        const hours = previewOnCall({ now: at, before: { operators: [], groups: [] }, after }).subjects[0]?.after ?? '';
        const toMinutes = (t: string): number => Number(t.slice(0, 2)) * 60 + Number(t.slice(3));
        const length = toMinutes(end) > toMinutes(start) ? toMinutes(end) - toMinutes(start) : toMinutes(end) - toMinutes(start) + 1440;
        // Whole hours a window of this length covers each day, give or take the hours it only touches.
        for (let day = 1; day < 6; day += 1) {
          const row = hours.slice(day * 24, day * 24 + 24);
          const full = [...row].filter((c) => c === '#').length;
          const part = [...row].filter((c) => c === '+').length;
          expect(full * 60).toBeLessThanOrEqual(length);
          expect((full + part) * 60).toBeGreaterThanOrEqual(Math.min(length, 1440));
        }
      }),
      { numRuns: 60 },
    );
  });
});
