/**
 * The on-call preview: who is on duty in each hour of the next days, before and after a plan, for every operator and
 * operator group whose schedules, time zone or membership the plan changes; and every hour a group loses its last
 * operator on duty. Pure: the clock and both states are inputs.
 */
import { OPERATOR_GROUP_KIND, OPERATOR_KIND } from '@monsync/schema';
import type { PlanOnCall, PlanOnCallGap, PlanOnCallSubject } from '@monsync/schema';
import { covered, type Interval, subtract, union } from './intervals.js';
import { DUTY_SCHEDULE_READING, type DutyScheduleContent, type DutyScheduleReading, onDutyIntervals } from './schedule.js';
import { toLocal, UTC, type Zone } from './zone.js';

export interface OnCallOperator {
  /** The operator's key (its e-mail address). */
  key: string;
  zone: Zone;
  schedules: readonly DutyScheduleContent[];
}

export interface OnCallGroup {
  /** The group's key (its Description). */
  key: string;
  /** Keys of its member operators. */
  members: readonly string[];
}

/** Operators and groups as they are (live) or will be (after the plan). */
export interface OnCallState {
  operators: readonly OnCallOperator[];
  groups: readonly OnCallGroup[];
}

/** The plan's `onCall` section, as `schemas/plan.schema.json` defines it (`PlanOnCall` of `@monsync/schema`). */
export type OnCallPreview = PlanOnCall;
/** One operator or group: a cell per hour from `from`, `#` on duty the whole hour, `+` part of it, `.` not at all. */
export type OnCallSubject = PlanOnCallSubject;
/** Hours, consecutive, in which a group has nobody on duty where it had someone before. */
export type OnCallGap = PlanOnCallGap;

export interface OnCallOptions {
  now: number;
  before: OnCallState;
  after: OnCallState;
  /** Default 7. */
  days?: number;
  reading?: DutyScheduleReading;
  /** The plan's shared window (`DutyWindow`), when it has one for this preview's hours: both moments' duty comes from it. */
  window?: DutyWindow;
}

const HOUR = 3_600_000;

export function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The instant a subject's hours start: the start of the hour holding `now` on the zone's clock. */
export function hourStart(zone: Zone, now: number): number {
  const local = toLocal(zone, now);
  return now - (((local % HOUR) + HOUR) % HOUR);
}

/** What decides a schedule's hours, as one string. */
export function contentKey(schedule: DutyScheduleContent): string {
  return [schedule.ScheduleMode, schedule.WeekDay, schedule.MonthDay, schedule.StartTime, schedule.EndTime, schedule.StartDateTime, schedule.EndDateTime].join('|');
}

/** What decides an operator's hours: its zone, its schedules as a set, the groups it is in. */
function operatorSignature(operator: OnCallOperator | undefined, groups: readonly string[]): string | undefined {
  if (operator === undefined) return undefined;
  const schedules = [...new Set(operator.schedules.map(contentKey))].sort();
  return JSON.stringify([operator.zone.name, schedules, [...groups].sort()]);
}

function groupsOf(state: OnCallState): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const group of state.groups) for (const member of group.members) out.set(member, [...(out.get(member) ?? []), group.key]);
  return out;
}

/** The operators and groups the preview shows: each whose signature differs between the two states. */
function changedSubjects(before: OnCallState, after: OnCallState): { operators: string[]; groups: string[] } {
  const beforeGroups = groupsOf(before);
  const afterGroups = groupsOf(after);
  const beforeOps = new Map(before.operators.map((o) => [o.key, o]));
  const afterOps = new Map(after.operators.map((o) => [o.key, o]));
  const changedOps = new Set<string>();
  for (const key of new Set([...beforeOps.keys(), ...afterOps.keys()])) {
    const was = operatorSignature(beforeOps.get(key), beforeGroups.get(key) ?? []);
    const will = operatorSignature(afterOps.get(key), afterGroups.get(key) ?? []);
    if (was === will) continue;
    // An operator created or deleted with no schedule and in no group changes nobody's hours worth showing.
    const shown = [beforeOps.get(key), afterOps.get(key)].some((o) => o !== undefined && o.schedules.length > 0);
    if (shown || beforeGroups.has(key) || afterGroups.has(key)) changedOps.add(key);
  }
  const beforeMembers = new Map(before.groups.map((g) => [g.key, [...g.members].sort().join('\n')]));
  const groups: string[] = [];
  for (const group of uniqueGroups(before, after)) {
    const members = [...(before.groups.find((g) => g.key === group)?.members ?? []), ...(after.groups.find((g) => g.key === group)?.members ?? [])];
    const afterMembers = after.groups.find((g) => g.key === group);
    const membersChanged = beforeMembers.get(group) !== (afterMembers === undefined ? undefined : [...afterMembers.members].sort().join('\n'));
    if (membersChanged || members.some((m) => changedOps.has(m))) groups.push(group);
  }
  return { operators: [...changedOps].sort(), groups };
}

function sameMembers(a: readonly string[], b: readonly string[]): boolean {
  return [...a].sort().join('\n') === [...b].sort().join('\n');
}

function uniqueGroups(before: OnCallState, after: OnCallState): string[] {
  return [...new Set([...before.groups.map((g) => g.key), ...after.groups.map((g) => g.key)])].sort();
}

export function cells(intervals: readonly Interval[], from: number, hours: number): string {
  let out = '';
  for (let i = 0; i < hours; i += 1) {
    const on = covered(intervals, from + i * HOUR, from + (i + 1) * HOUR);
    out += on === HOUR ? '#' : on === 0 ? '.' : '+';
  }
  return out;
}

/** Consecutive hours holding some of `lost`, as gaps. */
export function gaps(lost: readonly Interval[], from: number, hours: number): OnCallGap[] {
  const out: OnCallGap[] = [];
  let open: number | undefined;
  for (let i = 0; i <= hours; i += 1) {
    const hit = i < hours && covered(lost, from + i * HOUR, from + (i + 1) * HOUR) > 0;
    if (hit && open === undefined) open = i;
    if (!hit && open !== undefined) {
      out.push({ from: iso(from + open * HOUR), to: iso(from + i * HOUR), hours: i - open });
      open = undefined;
    }
  }
  return out;
}

export function notesOf(zones: readonly Zone[]): string[] | undefined {
  const notes = [...new Set(zones.flatMap((zone) => (zone.approximate === undefined ? [] : [zone.approximate])))];
  return notes.length === 0 ? undefined : notes;
}

/** An operator's zone and the intervals it is on duty, over the preview's window (an hour either side). */
export interface OperatorDuty {
  zone: Zone;
  on: readonly Interval[];
}

/** Each operator's duty by key, worked out when first asked for (most previews show few of an account's operators). */
export interface Duty {
  get(key: string): OperatorDuty | undefined;
}

/**
 * The preview's window, shared by both moments and every preview of one plan: each operator's intervals are worked
 * out when first asked for, once per zone and list of schedules, so an operator the plan leaves alone (and operators
 * with the same schedules in the same zone) cost one computation for the on-call preview, who gets paged and the policy.
 */
export class DutyWindow {
  private readonly from: number;
  private readonly to: number;
  private readonly computed = new Map<Zone, Map<string, readonly Interval[]>>();

  constructor(
    readonly now: number,
    readonly hours: number,
    private readonly reading: DutyScheduleReading,
  ) {
    // Intervals span an hour either side of the window, so a subject whose hours start before `now` (a zone with a
    // half-hour offset) is read whole.
    this.from = now - HOUR;
    this.to = now + (hours + 1) * HOUR;
  }

  /** Whether this window serves a preview of `hours` from `now` read as `reading`. */
  fits(now: number, hours: number, reading: DutyScheduleReading): boolean {
    return now === this.now && hours === this.hours && reading === this.reading;
  }

  of(state: OnCallState): Duty {
    const operators = new Map(state.operators.map((o) => [o.key, o] as const));
    const known = new Map<string, OperatorDuty>();
    return {
      get: (key) => {
        let duty = known.get(key);
        if (duty !== undefined) return duty;
        const operator = operators.get(key);
        if (operator === undefined) return undefined;
        duty = { zone: operator.zone, on: this.intervals(operator) };
        known.set(key, duty);
        return duty;
      },
    };
  }

  private intervals(operator: OnCallOperator): readonly Interval[] {
    let byZone = this.computed.get(operator.zone);
    if (byZone === undefined) {
      byZone = new Map();
      this.computed.set(operator.zone, byZone);
    }
    const key = operator.schedules.map(contentKey).join('\n');
    let on = byZone.get(key);
    if (on === undefined) {
      on = onDutyIntervals(operator.schedules, operator.zone, this.from, this.to, this.reading);
      byZone.set(key, on);
    }
    return on;
  }
}

export function dutyOf(state: OnCallState, now: number, hours: number, reading: DutyScheduleReading): Duty {
  return new DutyWindow(now, hours, reading).of(state);
}

/** The zone several operators' hours are counted in: theirs when they share one, else UTC. */
export function sharedZone(zones: readonly Zone[]): Zone {
  return zones.length > 0 && zones.every((z) => z.name === zones[0]?.name) ? (zones[0] as Zone) : UTC;
}

/** Computes the preview (see `OnCallPreview`); subjects are listed groups first, each kind by key. */
export function previewOnCall(options: OnCallOptions): OnCallPreview {
  const hours = (options.days ?? 7) * 24;
  const reading = options.reading ?? DUTY_SCHEDULE_READING;
  const { now, before, after } = options;
  const changed = changedSubjects(before, after);
  const window = options.window?.fits(now, hours, reading) === true ? options.window : new DutyWindow(now, hours, reading);
  const dutyBefore = window.of(before);
  const dutyAfter = window.of(after);
  const subjects: OnCallSubject[] = [];
  for (const group of changed.groups) {
    const membersBefore = before.groups.find((g) => g.key === group)?.members ?? [];
    const membersAfter = after.groups.find((g) => g.key === group)?.members ?? [];
    const zones = [...membersAfter.map((m) => dutyAfter.get(m)?.zone), ...membersBefore.map((m) => dutyBefore.get(m)?.zone)].filter((z): z is Zone => z !== undefined);
    const zone = sharedZone(zones);
    const start = hourStart(zone, now);
    const onBefore = union(membersBefore.flatMap((m) => dutyBefore.get(m)?.on ?? []));
    const onAfter = union(membersAfter.flatMap((m) => dutyAfter.get(m)?.on ?? []));
    const subject: OnCallSubject = {
      kind: OPERATOR_GROUP_KIND.kind,
      key: group,
      timeZone: zone.name,
      from: iso(start),
      before: cells(onBefore, start, hours),
      after: cells(onAfter, start, hours),
      uncovered: gaps(subtract(onBefore, onAfter), start, hours),
    };
    const notes = notesOf(zones);
    if (notes !== undefined) subject.notes = notes;
    // A group shown only because a member's schedules changed, with the same hours covered, has nothing to say.
    if (subject.before !== subject.after || !sameMembers(membersBefore, membersAfter)) subjects.push(subject);
  }
  for (const key of changed.operators) {
    const was = dutyBefore.get(key);
    const will = dutyAfter.get(key);
    const zone = will?.zone ?? was?.zone ?? UTC;
    const start = hourStart(zone, now);
    const subject: OnCallSubject = {
      kind: OPERATOR_KIND.kind,
      key,
      timeZone: zone.name,
      from: iso(start),
      before: cells(was?.on ?? [], start, hours),
      after: cells(will?.on ?? [], start, hours),
    };
    const notes = notesOf([zone]);
    if (notes !== undefined) subject.notes = notes;
    subjects.push(subject);
  }
  return { now: iso(now), hours, reading, subjects };
}
