/**
 * Duty schedules as the on-call preview reads them: each schedule is a set of wall-clock windows in its operator's
 * time zone, turned into UTC intervals over the preview's window.
 */
import type { DUTY_SCHEDULE_READINGS, DutyScheduleContent } from '@monsync/schema';
import { type Interval, union } from './intervals.js';
import { fromLocal, toLocal, type Zone } from './zone.js';

/**
 * What a duty schedule's windows mean. The service's reference calls them "duty (off-duty) schedules"; its field and
 * route names (`DutySchedule`, `StartTime`/`EndTime`, `AllOperatorsOnDuty`) name duty, so monsync reads a schedule as
 * the hours its operator is ON duty. This is the one switch the preview follows: `'off-duty'` reads the same windows
 * as the hours the operator is off duty. Either way, an operator with no schedule is on duty around the clock.
 */
export const DUTY_SCHEDULE_READING: DutyScheduleReading = 'on-duty';
export type DutyScheduleReading = (typeof DUTY_SCHEDULE_READINGS)[number];

export const SCHEDULE_MODES = ['OneTime', 'Daily', 'Weekly', 'Monthly'] as const;
export type DutyScheduleMode = (typeof SCHEDULE_MODES)[number];
/** The service's `DayOfWeek` names, indexed like `Date.getUTCDay()`. */
export const WEEK_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

export type { DutyScheduleContent };

const MINUTE = 60_000;
const DAY = 86_400_000;
const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/;

/** Minutes after midnight of a 24-hour `HH:mm`, or undefined. */
export function minutesOf(time: string | undefined): number | undefined {
  const match = time === undefined ? null : HH_MM.exec(time);
  return match === null ? undefined : Number(match[1]) * 60 + Number(match[2]);
}

/** `YYYY-MM-DDTHH:mm[:ss]` as the local number `Date.UTC` gives for those fields (no offset: the operator's zone). */
function localDateTime(text: string | undefined): number | undefined {
  const match = text === undefined ? null : DATE_TIME.exec(text);
  if (match === null) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  return Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, Number.isNaN(s) ? 0 : (s ?? 0));
}

/** Whether a recurring schedule applies on a local date (`Date.UTC` of its midnight). */
function appliesOn(schedule: DutyScheduleContent, localMidnight: number): boolean {
  const date = new Date(localMidnight);
  switch (schedule.ScheduleMode) {
    case 'Daily':
      return true;
    case 'Weekly':
      return WEEK_DAYS[date.getUTCDay()] === schedule.WeekDay;
    case 'Monthly':
      // A month without the day (the 31st in April) has no window that month, as RFC 5545 skips a day of the month
      // that does not exist: the schedule never moves to another day.
      return date.getUTCDate() === schedule.MonthDay;
    default:
      return false;
  }
}

/**
 * The UTC intervals a schedule covers within [from, to). Recurring windows start on each local date the mode picks at
 * `StartTime` and end at `EndTime`, on the next day when `EndTime` is not after `StartTime` (an overnight window;
 * equal times are a whole day). Wall-clock times a daylight-saving change skips or repeats resolve as `fromLocal` says,
 * so a window across the change is an hour shorter or longer.
 */
export function scheduleIntervals(schedule: DutyScheduleContent, zone: Zone, from: number, to: number): Interval[] {
  if (schedule.ScheduleMode === 'OneTime') {
    const start = localDateTime(schedule.StartDateTime);
    const end = localDateTime(schedule.EndDateTime);
    if (start === undefined || end === undefined) return [];
    return clip([[fromLocal(zone, start), fromLocal(zone, end)]], from, to);
  }
  const start = minutesOf(schedule.StartTime);
  const end = minutesOf(schedule.EndTime);
  if (start === undefined || end === undefined) return [];
  const length = (end > start ? end - start : end - start + 24 * 60) * MINUTE;
  const out: Interval[] = [];
  // From the local day before the window (an overnight window of that day reaches into it) to the last local day.
  const firstDay = Math.floor(toLocal(zone, from) / DAY) * DAY - DAY;
  const lastDay = Math.floor(toLocal(zone, to) / DAY) * DAY;
  for (let day = firstDay; day <= lastDay; day += DAY) {
    if (!appliesOn(schedule, day)) continue;
    const localStart = day + start * MINUTE;
    out.push([fromLocal(zone, localStart), fromLocal(zone, localStart + length)]);
  }
  return clip(out, from, to);
}

function clip(intervals: Interval[], from: number, to: number): Interval[] {
  const out: Interval[] = [];
  for (const [start, end] of intervals) {
    const s = Math.max(start, from);
    const e = Math.min(end, to);
    if (e > s) out.push([s, e]);
  }
  return out;
}

/**
 * When an operator is on duty within [from, to): the union of its schedules' windows under the `on-duty` reading,
 * the rest of the time under `off-duty`; around the clock when it has no schedule.
 */
export function onDutyIntervals(
  schedules: readonly DutyScheduleContent[],
  zone: Zone,
  from: number,
  to: number,
  reading: DutyScheduleReading = DUTY_SCHEDULE_READING,
): Interval[] {
  if (schedules.length === 0) return [[from, to]];
  const windows = union(schedules.flatMap((schedule) => scheduleIntervals(schedule, zone, from, to)));
  if (reading === 'on-duty') return windows;
  const out: Interval[] = [];
  let at = from;
  for (const [start, end] of windows) {
    if (start > at) out.push([at, start]);
    at = Math.max(at, end);
  }
  if (at < to) out.push([at, to]);
  return out;
}
