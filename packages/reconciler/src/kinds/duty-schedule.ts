import { DUTY_SCHEDULE_KIND, OPERATOR_GROUP_KIND, OPERATOR_GROUP_MEMBER_KIND, OPERATOR_KIND } from '@monsync/schema';
import type { DesiredState } from '../desired.js';
import { listedPerParent } from '../live/snapshot.js';
import type { ApiObject } from '../live/types.js';
import { desiredEntry, liveEntry, placeholder, type DesiredEntry, type KindModule, type LiveEntry } from './contract.js';
import { dutyContent, dutyLabel, heldSchedules, managedHeld, wantedSchedules, type DutyDeclarations, type HeldSchedule } from './duty-schedule-model.js';
import { bodyString, idOf, splitCompound, withoutFields } from './shared.js';

const KIND = DUTY_SCHEDULE_KIND.kind;
const OPERATOR = OPERATOR_KIND.kind;
const GROUP = OPERATOR_GROUP_KIND.kind;
const MEMBER = OPERATOR_GROUP_MEMBER_KIND.kind;

/** Ids of the rows behind one held schedule, in its step GUID `<operatorGuid>/<id>[+<id>...]`. */
const ID_SEPARATOR = '+';

/** The `dutySchedules` declared under operators and groups, as the model reads them. */
export function dutyDeclarations(state: DesiredState): DutyDeclarations {
  const own = new Map<string, readonly object[]>();
  for (const { value } of state.operators ?? []) if (Array.isArray(value.dutySchedules)) own.set(value.Email.toLowerCase(), value.dutySchedules);
  const groups = (state.operatorGroups ?? [])
    .filter(({ value }) => Array.isArray(value.dutySchedules) && Array.isArray(value.members))
    .map(({ value }) => ({ name: value.Description, members: (value.members ?? []).map((m) => m.toLowerCase()), schedules: (value.dutySchedules ?? []).map(dutyContent) }));
  return { own: new Map([...own].map(([email, schedules]) => [email, schedules.map(dutyContent)])), groups };
}

/** The declarations and what they ask each operator to hold: `desired` and `live` both read them. */
interface DutyWanted {
  declared: DutyDeclarations;
  wanted: ReturnType<typeof wantedSchedules>;
}

/**
 * Built once per desired state, not once by `desired` and again by `live` (a plan's first call runs them in code not
 * yet optimised). A desired state is not modified once loaded; its lists are compared as well, so one given the
 * state with other operators or groups is built anew.
 */
const wantedByState = new WeakMap<DesiredState, DutyWanted & { operators: unknown; groups: unknown }>();

function dutyWanted(state: DesiredState): DutyWanted {
  const known = wantedByState.get(state);
  if (known !== undefined && known.operators === state.operators && known.groups === state.operatorGroups) return known;
  const declared = dutyDeclarations(state);
  const built = { declared, wanted: wantedSchedules(declared), operators: state.operators, groups: state.operatorGroups };
  wantedByState.set(state, built);
  return built;
}

/** Whether any operator or group declares duty schedules or members: only then are schedules read. */
export function declaresDuty(state: DesiredState): boolean {
  return (state.operators ?? []).some(({ value }) => Array.isArray(value.dutySchedules)) || (state.operatorGroups ?? []).some(({ value }) => Array.isArray(value.dutySchedules) || Array.isArray(value.members));
}

/** Each declared operator's Email as written, by lower case; and where it is declared. */
function declaredOperators(state: DesiredState): Map<string, { email: string; source: DesiredEntry['source'] }> {
  return new Map((state.operators ?? []).map(({ value, source }) => [value.Email.toLowerCase(), { email: value.Email, source }]));
}

/**
 * Duty schedules on operators, keyed `<Email>/<label>`; see `duty-schedule-model.ts` for which an operator should
 * hold and which of those it holds monsync reconciles. A schedule is its content, so there is nothing to update: a
 * changed time is a new schedule and the old one's delete (which waits for the new one, so no hour goes uncovered
 * in between). A group's schedule is copied onto each member by one `POST /Operator/{guid}/DutySchedule` per member,
 * not by `AddDutyScheduleForAllMembers`: that route copies onto every member, also those that hold it already (a
 * duplicate), answers nothing to find the copies by, and cannot be sent again safely after an unclear outcome.
 */
export const dutyScheduleKind: KindModule = {
  ...DUTY_SCHEDULE_KIND,
  serverDefaults: {},
  relation: true,
  parents: [OPERATOR],
  ownedBy: [OPERATOR],
  builtFrom: [OPERATOR, KIND, GROUP, MEMBER],
  readWhen: declaresDuty,
  read: {
    perParent: {
      parent: OPERATOR,
      list: (client, operatorGuid) => client.operators.dutySchedules.list(operatorGuid),
      what: (operator) => `duty schedules of operator "${idOf(operator, 'Email')}" (${idOf(operator, 'OperatorGuid')})`,
      keep: (row) => ({ Id: row.Id, ...dutyContent(row) }),
    },
    timezones: true,
  },
  diff: () => [],

  desired(state) {
    const operators = declaredOperators(state);
    const groupSources = new Map((state.operatorGroups ?? []).map(({ value, source }) => [value.Description, source]));
    const entries: DesiredEntry[] = [];
    for (const [lower, schedules] of dutyWanted(state).wanted) {
      const operator = operators.get(lower);
      // A member naming no declared operator is the loader's error; nothing to plan for it.
      if (operator === undefined) continue;
      for (const [label, { content, origin }] of schedules) {
        const source = 'group' in origin ? (groupSources.get(origin.group) ?? operator.source) : operator.source;
        entries.push(desiredEntry(KIND, `${operator.email}/${label}`, { ...content }, source, [{ kind: OPERATOR, key: operator.email }]));
      }
    }
    return entries;
  },

  live(snapshot, resolver, state) {
    const { declared, wanted } = dutyWanted(state);
    const rows = listedPerParent(snapshot, KIND);
    const held = new Map<string, { guid: string; key: string; held: HeldSchedule[] }>();
    for (const operatorGuid of Object.keys(rows)) {
      const key = resolver.keyOf(OPERATOR, operatorGuid);
      if (key !== undefined) held.set(key.toLowerCase(), { guid: operatorGuid, key, held: heldSchedules(rows[operatorGuid] ?? []) });
    }
    const heldBy = (email: string): HeldSchedule[] => held.get(email)?.held ?? [];
    const entries: LiveEntry[] = [];
    for (const [lower, operator] of held) {
      if (!declared.own.has(lower) && !wanted.has(lower)) continue;
      for (const schedule of managedHeld(lower, operator.held, declared, wanted, heldBy)) {
        const guid = `${operator.guid}/${schedule.ids.join(ID_SEPARATOR)}`;
        entries.push(liveEntry(KIND, `${operator.key}/${schedule.label}`, guid, { ...schedule.content }, [{ kind: OPERATOR, guid: operator.guid }]));
      }
    }
    return entries;
  },

  createExtras(entry, resolver) {
    const operator = entry.refs[0]?.key ?? '';
    return { OperatorGuid: resolver.guidOf(OPERATOR, operator) ?? placeholder(OPERATOR, operator) };
  },

  requests: {
    /** The published service answers 201 with no body: the client finds the new row by re-listing, never by a second POST. */
    async create(client, _step, body) {
      const operator = bodyString(body, 'OperatorGuid');
      const created = await client.operators.dutySchedules.create(operator, withoutFields(body, ['OperatorGuid']));
      return `${operator}/${idOf(created, 'Id')}`;
    },
    update() {
      return Promise.reject(new Error('a duty schedule is its content: a change is a new schedule and a delete'));
    },
    /** Every row of the content (a copy and an own one are two rows of one schedule). */
    async delete(client, step) {
      const [operator, ids] = splitCompound(step.guid);
      for (const id of ids.split(ID_SEPARATOR)) await client.operators.dutySchedules.delete(operator, id);
    },
    async find(client, _step, body) {
      const operator = bodyString(body, 'OperatorGuid');
      const label = dutyLabel(dutyContent(body));
      const rows: ApiObject[] = await client.operators.dutySchedules.list(operator).toArray();
      const found = rows.filter((row) => dutyLabel(dutyContent(row)) === label).map((row) => idOf(row, 'Id'));
      return found.length === 0 ? undefined : `${operator}/${found[found.length - 1] ?? ''}`;
    },
  },
};

/**
 * An operator's schedules as `pull` writes them: every schedule it holds, as its own (a group's copy cannot be told
 * from one), once per content, by label; undefined when it holds none. A pulled tree declares no group schedules,
 * so each operator's own list is all it holds, and the next plan is empty.
 */
export function pulledDutySchedules(rows: readonly ApiObject[] | undefined): ApiObject[] | undefined {
  const held = heldSchedules(rows ?? []).sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  return held.length === 0 ? undefined : held.map((schedule) => ({ ...schedule.content }));
}
