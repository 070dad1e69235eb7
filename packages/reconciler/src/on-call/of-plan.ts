/**
 * The on-call preview of a plan: the account's operators, groups and duty schedules as read (before), and as they
 * are once the plan's steps have run (after: the steps applied to the same state, so `--target` is honoured).
 */
import { DUTY_SCHEDULE_KIND, dutyContent, dutyLabel, OPERATOR_GROUP_KIND, OPERATOR_GROUP_MEMBER_KIND, OPERATOR_KIND, type DutyScheduleContent } from '@monsync/schema';
import type { DesiredState } from '../desired.js';
import { listed, listedPerParent } from '../live/snapshot.js';
import type { ApiObject, LiveSnapshot } from '../live/types.js';
import type { PlanStep } from '../plan/types.js';
import { DutyWindow, previewOnCall, type Duty, type OnCallPreview, type OnCallState } from './preview.js';
import { DUTY_SCHEDULE_READING } from './schedule.js';
import { UTC, zoneOfRecord, type TimezoneRecord, type Zone } from './zone.js';

export interface OperatorState {
  email: string;
  zone: Zone;
  schedules: Map<string, DutyScheduleContent>;
}

/** Mutable before/after state, keyed by lower-case e-mail and by group Description. */
export interface World {
  operators: Map<string, OperatorState>;
  groups: Map<string, Set<string>>;
}

function text(object: ApiObject | undefined, field: string): string {
  const value = object?.[field];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** The zone a `TimeZoneId` names (UTC when unset or unknown), resolved once per id. */
function zones(live: LiveSnapshot, year: number): (id: unknown) => Zone {
  const cache = new Map<string, Zone>();
  const records = new Map((live.timezones ?? []).map((record) => [text(record, 'TimezoneId') || text(record, 'TimeZoneId'), record]));
  return (id) => {
    if (typeof id !== 'number' && typeof id !== 'string') return UTC;
    const record = records.get(String(id));
    if (record === undefined) return UTC;
    let zone = cache.get(String(id));
    if (zone === undefined) {
      zone = zoneOfRecord({ ...record, TimezoneId: Number(id) } as TimezoneRecord, year);
      cache.set(String(id), zone);
    }
    return zone;
  };
}

function liveWorld(live: LiveSnapshot, zoneOf: (id: unknown) => Zone): World {
  const rows = listedPerParent(live, DUTY_SCHEDULE_KIND.kind);
  const emails = new Map<string, string>();
  const operators = new Map<string, OperatorState>();
  // Operators read for drift attribution stand in when the kind itself was not listed (operators not managed).
  for (const operator of live.lists[OPERATOR_KIND.kind] ?? live.operators ?? []) {
    const guid = text(operator, 'OperatorGuid');
    const email = text(operator, 'Email');
    emails.set(guid.toLowerCase(), email.toLowerCase());
    const schedules = new Map((rows[guid] ?? []).map((row) => [dutyLabel(dutyContent(row)), dutyContent(row)] as const));
    operators.set(email.toLowerCase(), { email, zone: zoneOf(operator.TimeZoneId), schedules });
  }
  const members = listedPerParent(live, OPERATOR_GROUP_MEMBER_KIND.kind);
  const groups = new Map<string, Set<string>>();
  for (const group of listed(live, OPERATOR_GROUP_KIND.kind)) {
    const listedMembers = members[text(group, 'OperatorGroupGuid')];
    // Everyone, and groups whose members were not read, have no membership to show.
    if (group.IsEveryone === true || listedMembers === undefined) continue;
    groups.set(text(group, 'Description'), new Set(listedMembers.map((m) => emails.get(text(m, 'OperatorGuid').toLowerCase()) ?? text(m, 'OperatorGuid').toLowerCase())));
  }
  return { operators, groups };
}

/** `<parent>/<child>` keys: an e-mail holds no `/`, a group Description may. */
function splitAt(key: string, last: boolean): [string, string] {
  const at = last ? key.lastIndexOf('/') : key.indexOf('/');
  return [key.slice(0, at), key.slice(at + 1)];
}

function applyStep(world: World, step: PlanStep, zoneOf: (id: unknown) => Zone): void {
  const body = step.desired ?? {};
  if (step.kind === OPERATOR_KIND.kind) {
    const lower = step.key.toLowerCase();
    const current = world.operators.get(lower);
    if (step.action === 'delete') world.operators.delete(lower);
    else if (step.action === 'create') world.operators.set(lower, { email: step.key, zone: zoneOf(body.TimeZoneId), schedules: new Map() });
    else if (current !== undefined && body.TimeZoneId !== undefined) current.zone = zoneOf(body.TimeZoneId);
    for (const members of step.action === 'delete' ? world.groups.values() : []) members.delete(lower);
  } else if (step.kind === OPERATOR_GROUP_KIND.kind) {
    if (step.action === 'create') world.groups.set(step.key, new Set());
    if (step.action === 'delete') world.groups.delete(step.key);
  } else if (step.kind === OPERATOR_GROUP_MEMBER_KIND.kind) {
    const [group, email] = splitAt(step.key, true);
    const members = world.groups.get(group) ?? new Set<string>();
    world.groups.set(group, members);
    if (step.action === 'create') members.add(email.toLowerCase());
    if (step.action === 'delete') members.delete(email.toLowerCase());
  } else if (step.kind === DUTY_SCHEDULE_KIND.kind) {
    const [email, label] = splitAt(step.key, false);
    const operator = world.operators.get(email.toLowerCase());
    if (step.action === 'create') operator?.schedules.set(label, dutyContent(body));
    if (step.action === 'delete') operator?.schedules.delete(label);
  }
}

function clone(world: World): World {
  return {
    operators: new Map([...world.operators].map(([k, o]) => [k, { ...o, schedules: new Map(o.schedules) }])),
    groups: new Map([...world.groups].map(([k, m]) => [k, new Set(m)])),
  };
}

export function onCallState(world: World): OnCallState {
  const display = (lower: string): string => world.operators.get(lower)?.email ?? lower;
  return {
    operators: [...world.operators.values()].map((o) => ({ key: o.email, zone: o.zone, schedules: [...o.schedules.values()] })),
    groups: [...world.groups].map(([key, members]) => ({ key, members: [...members].map(display) })),
  };
}

/** The account's operators, groups and duty schedules as read (before) and once the plan's steps have run (after). */
export function peopleOfPlan(live: LiveSnapshot, steps: readonly PlanStep[], now: number): { before: World; after: World } {
  const zoneOf = zones(live, new Date(now).getUTCFullYear());
  const before = liveWorld(live, zoneOf);
  const after = clone(before);
  for (const step of steps) applyStep(after, step, zoneOf);
  return { before, after };
}

/** The hours a plan's previews show: the 7 days from its clock. */
export const PREVIEW_HOURS = 7 * 24;

type Moment = 'before' | 'after';

/**
 * The people of one plan's two moments, built once for the on-call preview, who gets paged and the policy rule that
 * reads paths (each used to build them, and every operator's hours, for itself): the worlds when first asked for,
 * and each operator's hours only when a preview asks for that operator (`DutyWindow`).
 */
export class PlanPeople {
  private worlds: { before: World; after: World } | undefined;
  private readonly states = new Map<Moment, OnCallState>();
  private readonly duties = new Map<Moment, Duty>();
  /** Undefined without a clock: no hours. */
  readonly window: DutyWindow | undefined;

  constructor(
    private readonly live: LiveSnapshot,
    readonly steps: readonly PlanStep[],
    readonly now: number | undefined,
  ) {
    this.window = now === undefined ? undefined : new DutyWindow(now, PREVIEW_HOURS, DUTY_SCHEDULE_READING);
  }

  world(moment: Moment): World {
    this.worlds ??= peopleOfPlan(this.live, this.steps, this.now ?? 0);
    return this.worlds[moment];
  }

  state(moment: Moment): OnCallState {
    let state = this.states.get(moment);
    if (state === undefined) {
      state = onCallState(this.world(moment));
      this.states.set(moment, state);
    }
    return state;
  }

  /** Each operator's hours in the moment; undefined without a clock. */
  duty(moment: Moment): Duty | undefined {
    if (this.window === undefined) return undefined;
    let duty = this.duties.get(moment);
    if (duty === undefined) {
      duty = this.window.of(this.state(moment));
      this.duties.set(moment, duty);
    }
    return duty;
  }
}

/**
 * The preview, or undefined when duty schedules were not read (no operator or group declares them or members) or
 * the plan changes nobody's hours.
 */
export function onCallOfPlan(desired: DesiredState, live: LiveSnapshot, steps: readonly PlanStep[], now: number, people = new PlanPeople(live, steps, now)): OnCallPreview | undefined {
  if (live.perParent[DUTY_SCHEDULE_KIND.kind] === undefined || desired.settings.manage[OPERATOR_KIND.section] === undefined) return undefined;
  const window = people.window;
  const preview = previewOnCall({ now, before: people.state('before'), after: people.state('after'), ...(window === undefined ? {} : { window }) });
  return preview.subjects.length === 0 ? undefined : preview;
}
