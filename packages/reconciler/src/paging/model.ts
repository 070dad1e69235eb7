/**
 * The account's alert definitions as the "who gets paged" preview reads them: for each definition, the monitors and
 * groups it covers and, per escalation level, its fields and the operators and operator groups it names; as read
 * (before), and once the plan's steps have run (after: the steps applied to the same state, so `--target` is
 * honoured). Names, not GUIDs: the preview shows people and monitors. What was not read is `undefined`, never empty.
 */
import {
  ALERT_DEFINITION_KIND,
  ALERT_DEFINITION_MEMBER_KIND,
  ESCALATION_LEVEL_KIND,
  ESCALATION_LEVEL_MEMBER_KIND,
  MONITOR_GROUP_KIND,
  MONITOR_KIND,
  OPERATOR_GROUP_KIND,
  OPERATOR_KIND,
} from '@monsync/schema';
import { listed } from '../live/snapshot.js';
import type { ApiObject, LiveSnapshot } from '../live/types.js';
import type { PlanStep } from '../plan/types.js';

export interface LevelState {
  id: number;
  fields: ApiObject;
  /** Operators (Email) and groups (Description) it names; undefined when the level's members were not read. */
  operators: Set<string> | undefined;
  groups: Set<string> | undefined;
}

export interface DefinitionState {
  name: string;
  guid: string | undefined;
  active: boolean;
  /** Monitors (Name) and monitor groups (Description) it covers; undefined when not read. */
  monitors: Set<string> | undefined;
  monitorGroups: Set<string> | undefined;
  levels: Map<number, LevelState>;
}

/** Definitions by AlertName. */
export type Alerting = Map<string, DefinitionState>;

const text = (object: ApiObject, field: string): string => {
  const value = object[field];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
};

/** GUID (lower case) -> name, for the rows of one listing whose GUID is wanted (of 10,000 monitors, the few covered). */
function namesBy(rows: readonly ApiObject[], guidField: string, nameField: string, wanted: ReadonlySet<string>): Map<string, string> {
  const out = new Map<string, string>();
  if (wanted.size === 0) return out;
  for (const row of rows) {
    const guid = text(row, guidField).toLowerCase();
    if (wanted.has(guid)) out.set(guid, text(row, nameField));
  }
  return out;
}

interface Names {
  operator: Map<string, string>;
  operatorGroup: Map<string, string>;
  monitor: Map<string, string>;
  monitorGroup: Map<string, string>;
}

/** The GUIDs (lower case) the listed members carry in `field`. */
function guidsIn(lists: Record<string, ApiObject[]> | undefined, field: string): Set<string> {
  const out = new Set<string>();
  for (const rows of Object.values(lists ?? {})) {
    for (const row of rows) {
      const guid = text(row, field);
      if (guid !== '') out.add(guid.toLowerCase());
    }
  }
  return out;
}

/** The names of the operators, groups and monitors the definitions' members name, and only of those. */
function liveNames(live: LiveSnapshot): Names {
  const covered = live.perParent[ALERT_DEFINITION_MEMBER_KIND.kind];
  const reached = live.perParent[ESCALATION_LEVEL_MEMBER_KIND.kind];
  return {
    operator: namesBy(live.lists[OPERATOR_KIND.kind] ?? live.operators ?? [], 'OperatorGuid', 'Email', guidsIn(reached, 'OperatorGuid')),
    operatorGroup: namesBy(listed(live, OPERATOR_GROUP_KIND.kind), 'OperatorGroupGuid', 'Description', guidsIn(reached, 'OperatorGroupGuid')),
    monitor: namesBy(listed(live, MONITOR_KIND.kind), 'MonitorGuid', 'Name', guidsIn(covered, 'MonitorGuid')),
    monitorGroup: namesBy(listed(live, MONITOR_GROUP_KIND.kind), 'MonitorGroupGuid', 'Description', guidsIn(covered, 'MonitorGroupGuid')),
  };
}

/** The members of one listing that carry `field`, by name (the GUID itself when the name is unknown). */
function membersNamed(rows: readonly ApiObject[] | undefined, field: string, names: Map<string, string>): Set<string> | undefined {
  if (rows === undefined) return undefined;
  const out = new Set<string>();
  for (const row of rows) {
    const guid = text(row, field);
    if (guid !== '') out.add(names.get(guid.toLowerCase()) ?? guid);
  }
  return out;
}

/** The alert definitions as read. */
export function liveAlerting(live: LiveSnapshot): Alerting {
  const names = liveNames(live);
  const covered = live.perParent[ALERT_DEFINITION_MEMBER_KIND.kind];
  const levels = live.perParent[ESCALATION_LEVEL_KIND.kind];
  const reached = live.perParent[ESCALATION_LEVEL_MEMBER_KIND.kind];
  const out: Alerting = new Map();
  for (const definition of listed(live, ALERT_DEFINITION_KIND.kind)) {
    const guid = text(definition, 'AlertDefinitionGuid');
    const members = covered?.[guid];
    const state: DefinitionState = {
      name: text(definition, 'AlertName'),
      guid,
      active: definition.IsActive !== false,
      monitors: membersNamed(members, 'MonitorGuid', names.monitor),
      monitorGroups: membersNamed(members, 'MonitorGroupGuid', names.monitorGroup),
      levels: new Map(),
    };
    for (const level of levels?.[guid] ?? []) {
      const id = Number(level.Id);
      if (!Number.isInteger(id)) continue;
      const rows = reached?.[`${guid}/${id}`];
      state.levels.set(id, { id, fields: level, operators: membersNamed(rows, 'OperatorGuid', names.operator), groups: membersNamed(rows, 'OperatorGroupGuid', names.operatorGroup) });
    }
    out.set(state.name, state);
  }
  return out;
}

export function cloneAlerting(alerting: Alerting): Alerting {
  const copy = (set: Set<string> | undefined): Set<string> | undefined => (set === undefined ? undefined : new Set(set));
  return new Map(
    [...alerting].map(([name, d]) => [
      name,
      { ...d, monitors: copy(d.monitors), monitorGroups: copy(d.monitorGroups), levels: new Map([...d.levels].map(([id, l]) => [id, { ...l, operators: copy(l.operators), groups: copy(l.groups) }])) },
    ]),
  );
}

/**
 * A child's key split at its definition: `<AlertName>/<rest>`, where `rest` matches `pattern`. An AlertName may
 * hold `/` and the pattern's own text, so the first split whose prefix names a known definition wins.
 */
function splitChild(alerting: Alerting, key: string, pattern: RegExp): { definition: DefinitionState; match: RegExpExecArray } | undefined {
  for (let at = key.indexOf('/'); at >= 0; at = key.indexOf('/', at + 1)) {
    const definition = named(alerting, key.slice(0, at));
    const match = pattern.exec(key.slice(at + 1));
    if (definition !== undefined && match !== null) return { definition, match };
  }
  return undefined;
}

/** A definition by name, as the service compares names (ignoring case), the exact spelling first. */
export function named(alerting: Alerting, name: string): DefinitionState | undefined {
  const exact = alerting.get(name);
  if (exact !== undefined) return exact;
  const lower = name.toLowerCase();
  return [...alerting.values()].find((d) => d.name.toLowerCase() === lower);
}

const LEVEL_KEY = /^(\d+)$/;
const LEVEL_MEMBER_KEY = new RegExp(`^(\\d+)/(${OPERATOR_KIND.kind}|${OPERATOR_GROUP_KIND.kind}):([\\s\\S]*)$`);
const COVERED_KEY = new RegExp(`^(${MONITOR_KIND.kind}|${MONITOR_GROUP_KIND.kind}):([\\s\\S]*)$`);

function levelOf(definition: DefinitionState, id: number): LevelState {
  let level = definition.levels.get(id);
  if (level === undefined) {
    // A level written for the first time (a new definition's) has no members until the plan adds them.
    level = { id, fields: {}, operators: new Set(), groups: new Set() };
    definition.levels.set(id, level);
  }
  return level;
}

function applyDefinitionStep(alerting: Alerting, step: PlanStep): void {
  const body = step.desired ?? {};
  const current = [...alerting.values()].find((d) => step.guid !== undefined && d.guid?.toLowerCase() === step.guid.toLowerCase()) ?? named(alerting, step.key);
  if (step.action === 'delete') {
    if (current !== undefined) alerting.delete(current.name);
    return;
  }
  if (step.action === 'create') {
    // The levels a new definition comes with are the service's until the plan's steps write them: shown only then.
    const created: DefinitionState = { name: step.key, guid: undefined, active: body.IsActive !== false, monitors: new Set(), monitorGroups: new Set(), levels: new Map() };
    alerting.set(step.key, created);
    return;
  }
  if (current === undefined) return;
  if (typeof body.IsActive === 'boolean') current.active = body.IsActive;
  if (typeof body.AlertName === 'string' && body.AlertName !== current.name) {
    alerting.delete(current.name);
    current.name = body.AlertName;
    alerting.set(current.name, current);
  }
}

function applyChildStep(alerting: Alerting, step: PlanStep): void {
  const body = step.desired ?? {};
  const add = step.action === 'create';
  if (step.kind === ESCALATION_LEVEL_KIND.kind) {
    const split = splitChild(alerting, step.key, LEVEL_KEY);
    if (split === undefined || step.action === 'delete') return;
    const level = levelOf(split.definition, Number(split.match[1]));
    level.fields = { ...level.fields, ...body };
  } else if (step.kind === ESCALATION_LEVEL_MEMBER_KIND.kind) {
    const split = splitChild(alerting, step.key, LEVEL_MEMBER_KEY);
    if (split === undefined) return;
    const [, id, kind, member = ''] = split.match;
    const level = levelOf(split.definition, Number(id));
    const field = kind === OPERATOR_KIND.kind ? 'operators' : 'groups';
    const set = level[field] ?? new Set<string>();
    level[field] = set;
    if (add) set.add(member);
    else if (step.action === 'delete') set.delete(member);
  } else if (step.kind === ALERT_DEFINITION_MEMBER_KIND.kind) {
    const split = splitChild(alerting, step.key, COVERED_KEY);
    if (split === undefined) return;
    const [, kind, member = ''] = split.match;
    const field = kind === MONITOR_KIND.kind ? 'monitors' : 'monitorGroups';
    const set = split.definition[field] ?? new Set<string>();
    split.definition[field] = set;
    if (add) set.add(member);
    else if (step.action === 'delete') set.delete(member);
  }
}

const REMOVED_KINDS: ReadonlySet<string> = new Set([MONITOR_KIND.kind, MONITOR_GROUP_KIND.kind, OPERATOR_KIND.kind, OPERATOR_GROUP_KIND.kind]);

/** A deleted monitor, group, operator or operator group leaves every definition and level that named it. */
function applyRemoval(alerting: Alerting, step: PlanStep): void {
  if (step.action !== 'delete' || !REMOVED_KINDS.has(step.kind)) return;
  const lower = step.key.toLowerCase();
  for (const definition of alerting.values()) {
    if (step.kind === MONITOR_KIND.kind) definition.monitors?.delete(step.key);
    if (step.kind === MONITOR_GROUP_KIND.kind) definition.monitorGroups?.delete(step.key);
    for (const level of definition.levels.values()) {
      if (step.kind === OPERATOR_KIND.kind) for (const email of [...(level.operators ?? [])]) if (email.toLowerCase() === lower) level.operators?.delete(email);
      if (step.kind === OPERATOR_GROUP_KIND.kind) level.groups?.delete(step.key);
    }
  }
}

/** The kinds whose steps can change who a definition pages. */
export const PAGING_KINDS: ReadonlySet<string> = new Set([ALERT_DEFINITION_KIND.kind, ESCALATION_LEVEL_KIND.kind, ESCALATION_LEVEL_MEMBER_KIND.kind, ALERT_DEFINITION_MEMBER_KIND.kind]);

/** The alert definitions once `steps` have run, from `before` (left as it is). */
export function alertingAfter(before: Alerting, steps: readonly PlanStep[]): Alerting {
  const after = cloneAlerting(before);
  for (const step of steps) {
    if (step.kind === ALERT_DEFINITION_KIND.kind) applyDefinitionStep(after, step);
    else if (PAGING_KINDS.has(step.kind)) applyChildStep(after, step);
    else applyRemoval(after, step);
  }
  return after;
}
