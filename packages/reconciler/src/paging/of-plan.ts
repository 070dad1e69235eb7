/**
 * Who gets paged: for every alert definition whose escalation path the plan changes (the definition, its levels, the
 * members of a level or the monitors it covers, or the operators, groups and duty schedules a level reaches), the
 * path before and after: each level's threshold, the operators it reaches (groups expanded), the hours of the next
 * days someone of them is on duty, and the monitors it covers. Pure: the clock and the snapshot are inputs.
 */
import {
  ALERT_DEFINITION_KIND,
  DUTY_SCHEDULE_KIND,
  MONITOR_GROUP_KIND,
  MONITOR_KIND,
  OPERATOR_GROUP_KIND,
  OPERATOR_GROUP_MEMBER_KIND,
  OPERATOR_KIND,
  type AlertPath,
  type PlanPaging,
  type PlanPagingDefinition,
  type PlanPagingLevel,
  type PlanPagingPath,
} from '@monsync/schema';
import { listed } from '../live/snapshot.js';
import type { LiveSnapshot } from '../live/types.js';
import { subtract, union } from '../on-call/intervals.js';
import { PlanPeople, PREVIEW_HOURS, type OperatorState, type World } from '../on-call/of-plan.js';
import { cells, contentKey, gaps, hourStart, iso, sharedZone, type Duty } from '../on-call/preview.js';
import { DUTY_SCHEDULE_READING } from '../on-call/schedule.js';
import type { Zone } from '../on-call/zone.js';
import type { PlanStep } from '../plan/types.js';
import { alertingAfter, liveAlerting, named, PAGING_KINDS, type Alerting, type DefinitionState, type LevelState } from './model.js';

/** The most definitions a plan shows; the rest are counted (`omitted`). */
export const MAX_PAGING_DEFINITIONS = 25;
const HOURS = PREVIEW_HOURS;
const HOUR = 3_600_000;

/** One moment (before or after the plan): the people, and their hours when schedules and a clock are known. */
interface Moment {
  people: World;
  /** Operator groups that mean every operator (`IsEveryone`). */
  everyone: ReadonlySet<string>;
  duty: Duty | undefined;
  now: number | undefined;
}

const sorted = (set: Iterable<string>): string[] => [...set].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

function integer(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
}

/** The operators of a group (display Emails), every operator for Everyone; undefined when its members were not read. */
function groupMembers(group: string, moment: Moment): string[] | undefined {
  if (moment.everyone.has(group)) return [...moment.people.operators.values()].map((o) => o.email);
  const members = moment.people.groups.get(group);
  return members === undefined ? undefined : members.size === 0 ? [] : [...members].map((m) => moment.people.operators.get(m)?.email ?? m);
}

/** The hours someone of `reaches` is on duty, on their shared clock. */
function hoursOf(reaches: readonly string[], moment: Moment, level: PlanPagingLevel): void {
  if (moment.duty === undefined || moment.now === undefined) return;
  const duty = moment.duty;
  const zones = reaches.map((key) => duty.get(key)?.zone).filter((zone): zone is Zone => zone !== undefined);
  const zone = sharedZone(zones);
  const start = hourStart(zone, moment.now);
  const on = union(reaches.flatMap((key) => duty.get(key)?.on ?? []));
  level.timeZone = zone.name;
  level.from = iso(start);
  level.onDuty = cells(on, start, HOURS);
  level.nobodyOnDuty = gaps(subtract([[start, start + HOURS * HOUR]], on), start, HOURS);
}

/** What a level's path shows of its own fields. */
function levelHead(level: LevelState): PlanPagingLevel {
  const { fields } = level;
  const out: PlanPagingLevel = { id: level.id, active: fields.IsActive !== false };
  if (typeof fields.EscalationMode === 'string') out.escalationMode = fields.EscalationMode;
  const count = integer(fields.ThresholdErrorCount);
  const minutes = integer(fields.ThresholdMinutes);
  if (count !== undefined) out.thresholdErrorCount = count;
  if (minutes !== undefined) out.thresholdMinutes = minutes;
  return out;
}

function levelPath(level: LevelState, moment: Moment): PlanPagingLevel {
  const out = levelHead(level);
  if (level.operators === undefined || level.groups === undefined) return out;
  // An operator the plan deletes, or one the account does not list, reaches nobody.
  const known = (email: string): string | undefined => moment.people.operators.get(email.toLowerCase())?.email;
  const listsOperators = moment.people.operators.size > 0;
  out.operators = sorted(level.operators);
  out.operatorGroups = sorted(level.groups).map((key) => {
    const members = groupMembers(key, moment);
    return members === undefined ? { key } : { key, members: sorted(members) };
  });
  if (out.operatorGroups.some((group) => group.members === undefined)) return out;
  const reached = new Set<string>();
  for (const email of [...out.operators, ...out.operatorGroups.flatMap((group) => group.members ?? [])]) {
    const shown = listsOperators ? known(email) : email;
    if (shown !== undefined) reached.add(shown);
  }
  out.reaches = sorted(reached);
  hoursOf(out.reaches, moment, out);
  return out;
}

function pathOf(definition: DefinitionState, moment: Moment): PlanPagingPath {
  const path: PlanPagingPath = { active: definition.active, levels: [] };
  if (definition.monitors !== undefined) path.monitors = sorted(definition.monitors);
  if (definition.monitorGroups !== undefined) path.monitorGroups = sorted(definition.monitorGroups);
  path.levels = [...definition.levels.values()].sort((a, b) => a.id - b.id).map((level) => levelPath(level, moment));
  return path;
}

/** The definitions of both moments, paired: by GUID (a rename keeps it), else by name. */
function pairs(before: Alerting, after: Alerting): [DefinitionState | undefined, DefinitionState | undefined][] {
  const out: [DefinitionState | undefined, DefinitionState | undefined][] = [];
  const seen = new Set<DefinitionState>();
  const byGuid = new Map<string, DefinitionState>();
  for (const will of after.values()) if (will.guid !== undefined && !byGuid.has(will.guid)) byGuid.set(will.guid, will);
  for (const was of before.values()) {
    const will = (was.guid === undefined ? undefined : byGuid.get(was.guid)) ?? (after.get(was.name)?.guid === undefined ? after.get(was.name) : undefined);
    if (will !== undefined) seen.add(will);
    out.push([was, will]);
  }
  for (const will of after.values()) if (!seen.has(will)) out.push([undefined, will]);
  return out;
}

/** What reads the preview and the policy share: the definitions of both moments, their people and hours. */
interface Worlds {
  before: Alerting;
  after: Alerting;
  moments: { before: Moment; after: Moment };
}

/** By plan (its people): the preview and the policy rule read the same definitions, built once. */
const built = new WeakMap<PlanPeople, Worlds>();

function worlds(live: LiveSnapshot, people: PlanPeople): Worlds {
  const known = built.get(people);
  if (known !== undefined) return known;
  const everyone = new Set(listed(live, OPERATOR_GROUP_KIND.kind).filter((g) => g.IsEveryone === true).map((g) => String(g.Description)));
  const schedules = live.perParent[DUTY_SCHEDULE_KIND.kind] !== undefined;
  const moment = (which: 'before' | 'after'): Moment => ({ people: people.world(which), everyone, now: people.now, duty: schedules ? people.duty(which) : undefined });
  const before = liveAlerting(live);
  const out: Worlds = { before, after: alertingAfter(before, people.steps), moments: { before: moment('before'), after: moment('after') } };
  built.set(people, out);
  return out;
}

/** Operators (lower-case e-mail) and groups (Description) that differ between the two moments, in what a path shows of them. */
interface PeopleChanges {
  operators: Set<string>;
  groups: Set<string>;
  /** Whether one moment lists operators and the other none (a path then shows the e-mails it names differently). */
  listing: boolean;
}

function sameSet(a: ReadonlySet<string> | undefined, b: ReadonlySet<string> | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.size !== b.size) return false;
  for (const item of a) if (!b.has(item)) return false;
  return true;
}

const schedulesOf = (operator: OperatorState): string => [...operator.schedules.values()].map(contentKey).sort().join('\n');

/** The same operator, as its hours and its name in a path read them: e-mail, zone and schedules. */
function sameOperator(a: OperatorState, b: OperatorState): boolean {
  return a.email === b.email && a.zone === b.zone && schedulesOf(a) === schedulesOf(b);
}

function peopleChanges(before: World, after: World): PeopleChanges {
  const operators = new Set<string>();
  for (const [key, was] of before.operators) {
    const will = after.operators.get(key);
    if (will === undefined || !sameOperator(was, will)) operators.add(key);
  }
  for (const key of after.operators.keys()) if (!before.operators.has(key)) operators.add(key);
  const groups = new Set<string>();
  for (const [key, members] of before.groups) if (!sameSet(members, after.groups.get(key))) groups.add(key);
  for (const key of after.groups.keys()) if (!before.groups.has(key)) groups.add(key);
  return { operators, groups, listing: before.operators.size > 0 !== after.operators.size > 0 };
}

/** Whether someone a level reaches (named, or through a group) differs between the moments. */
function reachChanged(level: LevelState, changes: PeopleChanges, before: Moment): boolean {
  if (level.operators === undefined || level.groups === undefined) return false;
  for (const email of level.operators) if (changes.operators.has(email.toLowerCase())) return true;
  for (const group of level.groups) {
    if (before.everyone.has(group)) {
      if (changes.operators.size > 0) return true;
      continue;
    }
    if (changes.groups.has(group)) return true;
    for (const member of before.people.groups.get(group) ?? []) if (changes.operators.has(member)) return true;
  }
  return false;
}

/**
 * Whether a definition's path is the same in both moments without building it: the same name, state, coverage and
 * levels (fields and members), reaching nobody whose hours, name or group changed. Most definitions of a plan are
 * so; only the others have both paths built and compared, which is what the preview shows.
 */
function samePathInBoth(was: DefinitionState, will: DefinitionState, changes: PeopleChanges, before: Moment): boolean {
  if (changes.listing || was.name !== will.name || was.active !== will.active) return false;
  if (!sameSet(was.monitors, will.monitors) || !sameSet(was.monitorGroups, will.monitorGroups) || was.levels.size !== will.levels.size) return false;
  for (const [id, level] of was.levels) {
    const other = will.levels.get(id);
    if (other === undefined || !sameSet(level.operators, other.operators) || !sameSet(level.groups, other.groups)) return false;
    if (JSON.stringify(levelHead(level)) !== JSON.stringify(levelHead(other)) || reachChanged(level, changes, before)) return false;
  }
  return true;
}

/** The kinds besides the alerting ones whose changes can change a path: people and their hours, and covered monitors' deletes. */
const REACHING_KINDS: ReadonlySet<string> = new Set([OPERATOR_KIND.kind, OPERATOR_GROUP_KIND.kind, OPERATOR_GROUP_MEMBER_KIND.kind, DUTY_SCHEDULE_KIND.kind]);
const COVERED_KINDS: ReadonlySet<string> = new Set([MONITOR_KIND.kind, MONITOR_GROUP_KIND.kind]);

function concernsPaging(step: PlanStep): boolean {
  return PAGING_KINDS.has(step.kind) || REACHING_KINDS.has(step.kind) || (step.action === 'delete' && COVERED_KINDS.has(step.kind));
}

/**
 * The preview, or undefined when alert definitions were not read, no step can change a path, or none changes. Without
 * a clock (`now`), paths have no hours.
 */
export function pagingOfPlan(live: LiveSnapshot, steps: readonly PlanStep[], now: number | undefined, people = new PlanPeople(live, steps, now)): PlanPaging | undefined {
  if (!live.read.includes(ALERT_DEFINITION_KIND.kind) || !steps.some(concernsPaging)) return undefined;
  const w = worlds(live, people);
  const changes = peopleChanges(w.moments.before.people, w.moments.after.people);
  const changed: PlanPagingDefinition[] = [];
  for (const [was, will] of pairs(w.before, w.after)) {
    if (was !== undefined && will !== undefined && samePathInBoth(was, will, changes, w.moments.before)) continue;
    const entry: PlanPagingDefinition = { key: will?.name ?? was?.name ?? '' };
    if (was !== undefined) entry.before = pathOf(was, w.moments.before);
    if (will !== undefined) entry.after = pathOf(will, w.moments.after);
    if (JSON.stringify(entry.before) !== JSON.stringify(entry.after) || was?.name !== will?.name) changed.push(entry);
  }
  if (changed.length === 0) return undefined;
  changed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const paging: PlanPaging = { hours: HOURS, reading: DUTY_SCHEDULE_READING, definitions: changed.slice(0, MAX_PAGING_DEFINITIONS) };
  if (now !== undefined) paging.now = iso(now);
  if (changed.length > MAX_PAGING_DEFINITIONS) paging.omitted = changed.length - MAX_PAGING_DEFINITIONS;
  return paging;
}

/** A path as the policy rule reads it (`AlertPath` of `@monsync/schema`). */
export function alertPathOf(path: PlanPagingPath): AlertPath {
  const covers = path.monitors === undefined || path.monitorGroups === undefined ? undefined : path.monitors.length + path.monitorGroups.length;
  return {
    active: path.active,
    covers,
    levels: path.levels.map((level) => ({ id: level.id, active: level.active, operators: level.reaches?.length, nobodyOnDuty: level.nobodyOnDuty })),
  };
}

/** The paths of the named definitions as the account would hold them after the plan (those it holds), by name. */
export function pathsAfterPlan(live: LiveSnapshot, steps: readonly PlanStep[], now: number | undefined, names: readonly string[], people = new PlanPeople(live, steps, now)): Map<string, PlanPagingPath> {
  const out = new Map<string, PlanPagingPath>();
  if (!live.read.includes(ALERT_DEFINITION_KIND.kind)) return out;
  const w = worlds(live, people);
  for (const name of names) {
    const definition = named(w.after, name);
    if (definition !== undefined) out.set(name, pathOf(definition, w.moments.after));
  }
  return out;
}
