/**
 * Which duty schedules each operator should hold, and which of the ones it holds monsync may remove. Pure, on plain
 * inputs, so the rules are testable apart from the engine (the `dutySchedule` kind module feeds it).
 *
 * The service keeps schedules only on operators: a group's schedule is a copy on each member
 * (`AddDutyScheduleForAllMembers`), with nothing on the copy naming the group. So:
 * - a schedule is identified by its content (mode and times); an operator holds a set of them;
 * - what an operator should hold is its own `dutySchedules` and those of every group that lists it in `members`;
 *   a member's own schedule with the same content as its group's is one schedule, kept while either declares it;
 * - an operator that declares `dutySchedules` is authoritative for all it holds; one that does not, but is listed by
 *   a group that declares them, has removed only what is recognisably that group's: a schedule every member the
 *   group lists holds (a copy the group gave and no longer declares; see `managedHeld`). Anything else it holds is
 *   left alone, so copies of groups monsync does not manage are never fought over.
 */
import { dutyContent, dutyLabel } from '@monsync/schema';
import type { DutyScheduleContent } from '../on-call/schedule.js';

export { dutyContent, dutyLabel };

/** Where a schedule an operator should hold is declared: its own list, or a group's (the first, by name). */
export type DutyOrigin = { own: true } | { group: string };

export interface DutyDeclarations {
  /** Operators declaring `dutySchedules`, by e-mail in lower case. */
  own: ReadonlyMap<string, readonly DutyScheduleContent[]>;
  /** Groups declaring `dutySchedules`, with their declared members (e-mails in lower case). */
  groups: ReadonlyArray<{ name: string; members: readonly string[]; schedules: readonly DutyScheduleContent[] }>;
}

/** What each operator in scope should hold, by e-mail (lower case), then by label. */
export function wantedSchedules(declared: DutyDeclarations): Map<string, Map<string, { content: DutyScheduleContent; origin: DutyOrigin }>> {
  const out = new Map<string, Map<string, { content: DutyScheduleContent; origin: DutyOrigin }>>();
  const of = (email: string): Map<string, { content: DutyScheduleContent; origin: DutyOrigin }> => {
    let map = out.get(email);
    if (map === undefined) {
      map = new Map();
      out.set(email, map);
    }
    return map;
  };
  for (const [email, schedules] of declared.own) {
    const map = of(email);
    for (const schedule of schedules) {
      const content = dutyContent(schedule);
      map.set(dutyLabel(content), { content, origin: { own: true } });
    }
  }
  for (const group of [...declared.groups].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    for (const member of group.members) {
      const map = of(member);
      for (const schedule of group.schedules) {
        const content = dutyContent(schedule);
        const label = dutyLabel(content);
        if (!map.has(label)) map.set(label, { content, origin: { group: group.name } });
      }
    }
  }
  return out;
}

/** A schedule an operator holds: one or more rows of the same content (a copy and an own one are two rows). */
export interface HeldSchedule {
  label: string;
  content: DutyScheduleContent;
  ids: string[];
}

/** An operator's rows, one entry per content. */
export function heldSchedules(rows: readonly Readonly<Record<string, unknown>>[]): HeldSchedule[] {
  const byLabel = new Map<string, HeldSchedule>();
  for (const row of rows) {
    const content = dutyContent(row);
    const label = dutyLabel(content);
    const id = typeof row.Id === 'number' || typeof row.Id === 'string' ? String(row.Id) : '';
    const held = byLabel.get(label);
    if (held === undefined) byLabel.set(label, { label, content, ids: [id] });
    else held.ids.push(id);
  }
  return [...byLabel.values()];
}

/** Fewest members for a schedule they all hold to be taken for their group's copy: one member's are its own. */
export const COPY_MIN_MEMBERS = 2;

/**
 * The schedules monsync reconciles on one operator: every one it holds when it declares its own; otherwise those it
 * should hold, and the recognised former copies of a declaring group listing it: a schedule every member the group
 * lists holds or should hold, when it lists at least `COPY_MIN_MEMBERS`. The rule reads the declared members, not the
 * live ones, and counts what the apply adds, so nothing it does not recognise now can it recognise after the apply
 * (one apply converges).
 */
export function managedHeld(email: string, held: readonly HeldSchedule[], declared: DutyDeclarations, wanted: ReadonlyMap<string, ReadonlyMap<string, unknown>>, heldBy: (email: string) => readonly HeldSchedule[]): HeldSchedule[] {
  if (declared.own.has(email)) return [...held];
  const should = wanted.get(email);
  const copies = new Set<string>();
  for (const group of declared.groups) {
    if (!group.members.includes(email) || group.members.length < COPY_MIN_MEMBERS) continue;
    // A member that should hold the schedule counts as holding it: the apply gives it one (so what is recognised
    // after the apply was recognised before it).
    const holds = (member: string, label: string): boolean => wanted.get(member)?.has(label) === true || heldBy(member).some((h) => h.label === label);
    for (const { label } of held) if (group.members.every((m) => holds(m, label))) copies.add(label);
  }
  return held.filter((h) => should?.has(h.label) === true || copies.has(h.label));
}
