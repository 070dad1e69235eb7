/**
 * The week grid people read: one row per day on the subject's clock, one cell per hour (00 to 23). An hour a
 * daylight-saving change skips is blank; an hour it repeats shows both of its hours, `+` when they differ.
 */
import type { OnCallSubject } from './preview.js';
import { ianaZone, toLocal, UTC, type Zone, fixedZone } from './zone.js';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A cell of the `after` grid in an hour the group loses its last operator on duty. */
export const UNCOVERED_CELL = '!';
export const GRID_LEGEND = '# on duty, + part of the hour, . off duty, ! newly uncovered (nobody in the group on duty)';

/** What a grid is drawn from: an on-call subject, or any hours counted the same way (an escalation level's). */
export type GridSubject = Pick<OnCallSubject, 'timeZone' | 'from' | 'before' | 'after' | 'uncovered'>;

export interface GridRow {
  /** `Thu 26 Mar` */
  day: string;
  /** 24 cells, hour 00 first; ` ` outside the preview or an hour the clock skips. */
  before: string;
  after: string;
}

/** The zone a subject's `timeZone` names (IANA, `UTC` or `UTC+hh:mm`). */
export function zoneNamed(name: string): Zone {
  const fixed = /^UTC([+-])(\d{2}):(\d{2})$/.exec(name);
  if (fixed !== null) return fixedZone((fixed[1] === '-' ? -1 : 1) * (Number(fixed[2]) * 60 + Number(fixed[3])));
  return name === 'UTC' ? UTC : ianaZone(name);
}

export function dayLabel(localMidnight: number): string {
  const date = new Date(localMidnight);
  return `${DAY_NAMES[date.getUTCDay()]} ${String(date.getUTCDate()).padStart(2, '0')} ${MONTH_NAMES[date.getUTCMonth()]}`;
}

/** `Fri 27 Mar 06:00` on a zone's clock. */
export function localLabel(zone: Zone, utcMs: number): string {
  const local = toLocal(zone, utcMs);
  const minutes = Math.floor((local % DAY) / 60_000);
  return `${dayLabel(Math.floor(local / DAY) * DAY)} ${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

function place(rows: Map<number, string[]>, day: number, hour: number, cell: string): void {
  let row = rows.get(day);
  if (row === undefined) {
    row = Array.from({ length: 24 }, () => ' ');
    rows.set(day, row);
  }
  const current = row[hour] ?? ' ';
  if (current === ' ' || current === cell || cell === UNCOVERED_CELL) row[hour] = cell;
  else if (current !== UNCOVERED_CELL) row[hour] = '+';
}

/** The subject's hours as rows of days, `!` marking in `after` each hour of an uncovered gap. */
export function weekGrid(subject: GridSubject): GridRow[] {
  const zone = zoneNamed(subject.timeZone);
  const start = Date.parse(subject.from);
  const lost = new Set<number>();
  for (const gap of subject.uncovered ?? []) for (let at = Date.parse(gap.from); at < Date.parse(gap.to); at += HOUR) lost.add(Math.round((at - start) / HOUR));
  const before = new Map<number, string[]>();
  const after = new Map<number, string[]>();
  for (let i = 0; i < subject.before.length; i += 1) {
    const local = toLocal(zone, start + i * HOUR);
    const day = Math.floor(local / DAY) * DAY;
    const hour = Math.floor((local - day) / HOUR);
    place(before, day, hour, subject.before[i] ?? ' ');
    place(after, day, hour, lost.has(i) ? UNCOVERED_CELL : (subject.after[i] ?? ' '));
  }
  return [...before.keys()]
    .sort((a, b) => a - b)
    .map((day) => ({ day: dayLabel(day), before: (before.get(day) ?? []).join(''), after: (after.get(day) ?? []).join('') }));
}

/** The gaps of a group as people read them: `Fri 27 Mar 06:00-07:00 (1 hour)` on the subject's clock. */
export function gapLabels(subject: GridSubject): string[] {
  const zone = zoneNamed(subject.timeZone);
  return (subject.uncovered ?? []).map((gap) => {
    const end = localLabel(zone, Date.parse(gap.to));
    const start = localLabel(zone, Date.parse(gap.from));
    const sameDay = end.slice(0, 10) === start.slice(0, 10);
    return `${start}-${sameDay ? end.slice(11) : end} (${gap.hours} ${gap.hours === 1 ? 'hour' : 'hours'})`;
  });
}
