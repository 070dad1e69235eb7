/**
 * Who gets paged: the escalation path of each alert definition a plan changes, before and after (thresholds, the
 * operators each level reaches with groups expanded, the hours somebody of them is on duty, the monitors covered),
 * and the `alertsReachSomeone` policy rule with its waivers. In-memory builders, no HTTP.
 */
import type { PolicyRuleEntry } from '@monsync/schema';
import { describe, expect, it } from 'vitest';
import type { Declared, AlertDefinitionConfig } from '../src/desired.js';
import type { ApiObject, LiveSnapshot } from '../src/live/types.js';
import { MAX_PAGING_DEFINITIONS } from '../src/paging/of-plan.js';
import type { Plan } from '../src/plan/types.js';
import { aLiveAlertDefinition, aLiveMonitor, anAlertDefinition, anOperator, anOperatorGroup, at, aMonitor, desiredState, guidFor, liveSnapshot, planFor, type DesiredParts } from '../src/test-utils/index.js';

/** Monday 2 March 2026, 00:00 UTC: every operator here keeps UTC, so hours read as written. */
const NOW = Date.UTC(2026, 2, 2, 0, 0);
const MANAGE = { monitors: { prune: false }, alertDefinitions: { prune: false }, operators: { prune: false }, operatorGroups: { prune: false } };
const DAILY = (from: string, to: string) => ({ ScheduleMode: 'Daily', StartTime: from, EndTime: to });

interface Person {
  email: string;
  schedules?: Record<string, unknown>[];
}

interface Account {
  people: Person[];
  groups: Record<string, string[]>;
  /** Definitions by AlertName: members by level Id (`group:<Description>` or an e-mail), covered monitors, IsActive. */
  definitions: { name: string; active?: boolean; monitors?: string[]; levels: Record<number, string[]>; inactive?: number[] }[];
  monitors?: string[];
}

const LEVELS: Record<number, ApiObject> = {
  1: { EscalationMode: 'AlertOnErrorCount', ThresholdErrorCount: 2 },
  2: { EscalationMode: 'AlertOnErrorDuration', ThresholdMinutes: 30 },
  3: { EscalationMode: 'AlertOnErrorDuration', ThresholdMinutes: 60 },
};

/** The account as the service lists it: operators, groups with members, schedules, definitions with levels and members. */
function account(a: Account): LiveSnapshot {
  const operators = a.people.map((p) => ({ OperatorGuid: guidFor('operator', p.email), Email: p.email, FullName: p.email }));
  const groups = Object.keys(a.groups).map((g) => ({ OperatorGroupGuid: guidFor('operatorGroup', g), Description: g, IsEveryone: false }));
  const monitors = (a.monitors ?? []).map((name) => aLiveMonitor({ Name: name }));
  const definitions = a.definitions.map((d) => aLiveAlertDefinition({ AlertName: d.name, IsActive: d.active !== false }));
  const live = liveSnapshot({ alertDefinitions: definitions, monitors, operators });
  live.lists.operator = operators;
  live.lists.operatorGroup = groups;
  const member = (who: string): ApiObject => (who.startsWith('group:') ? { OperatorGroupGuid: guidFor('operatorGroup', who.slice(6)) } : { OperatorGuid: guidFor('operator', who) });
  live.perParent.operatorGroupMember = Object.fromEntries(Object.entries(a.groups).map(([g, emails]) => [guidFor('operatorGroup', g), emails.map(member)]));
  live.perParent.dutySchedule = Object.fromEntries(a.people.map((p) => [guidFor('operator', p.email), (p.schedules ?? []).map((s, i) => ({ Id: i + 1, ...s }))]));
  live.perParent.escalationLevel = {};
  live.perParent.escalationLevelMember = {};
  live.perParent.alertDefinitionMember = {};
  for (const d of a.definitions) {
    const guid = guidFor('alertDefinition', d.name);
    live.perParent.escalationLevel[guid] = [1, 2, 3].map((id) => ({ Id: id, ...LEVELS[id], IsActive: !(d.inactive ?? [3]).includes(id) }));
    for (const id of [1, 2, 3]) live.perParent.escalationLevelMember[`${guid}/${id}`] = (d.levels[id] ?? []).map(member);
    live.perParent.alertDefinitionMember[guid] = (d.monitors ?? []).map((m) => ({ MonitorGuid: guidFor('monitor', m) }));
  }
  return live;
}

/** A declared level: its Id, the live fields, and whom it reaches (`group:<Description>` or an e-mail). */
function level(id: number, reaches: string[], fields: Record<string, unknown> = {}): Declared<never> {
  const operators = reaches.filter((r) => !r.startsWith('group:'));
  const operatorGroups = reaches.filter((r) => r.startsWith('group:')).map((r) => r.slice(6));
  return { value: { Id: id, ...LEVELS[id], IsActive: id !== 3, ...fields, members: { operators, operatorGroups } } as never, source: at('alerts.yaml', '', 10 + id) };
}

function definition(name: string, levels: Declared<never>[], monitors: string[] = ['Shop homepage']): Declared<AlertDefinitionConfig> {
  return anAlertDefinition({ AlertName: name, IsActive: true, members: { monitors }, escalationLevels: levels }, at('alerts.yaml', '', 3));
}

const PEOPLE: Person[] = [
  { email: 'ann@example.com', schedules: [DAILY('00:00', '12:00')] },
  { email: 'bob@example.com', schedules: [DAILY('12:00', '20:00')] },
  { email: 'cat@example.com' },
];
const BASE: Account = {
  people: PEOPLE,
  groups: { 'Night shift': ['ann@example.com', 'bob@example.com'] },
  monitors: ['Shop homepage'],
  definitions: [{ name: 'Shop on-call', monitors: ['Shop homepage'], levels: { 1: ['ann@example.com'] } }],
};

function tree(parts: DesiredParts & { policy?: PolicyRuleEntry[]; planWaivers?: NonNullable<ReturnType<typeof desiredState>['planWaivers']> }) {
  const desired = desiredState({ manage: MANAGE, monitors: [aMonitor({ Name: 'Shop homepage' })], ...parts });
  if (parts.policy !== undefined) desired.settings.policy = parts.policy;
  if (parts.planWaivers !== undefined) desired.planWaivers = parts.planWaivers;
  return desired;
}

const REACH_RULE: PolicyRuleEntry = { rule: 'alertsReachSomeone', severity: 'error', params: {}, source: { file: 'monsync.yaml', line: 9, column: 3 } };

function plan(desired: ReturnType<typeof tree>, live: LiveSnapshot): Plan {
  return planFor(desired, live, { now: NOW });
}

describe('who gets paged: the escalation path of each changed alert definition, before and after', () => {
  it('shows each level before and after: threshold, operators reached with groups expanded, their hours, the monitors covered', () => {
    const desired = tree({ alertDefinitions: [definition('Shop on-call', [level(1, ['group:Night shift']), level(2, ['cat@example.com'])])] });
    const paging = plan(desired, account(BASE)).paging;
    expect(paging?.definitions.map((d) => d.key)).toEqual(['Shop on-call']);
    const [shop] = paging?.definitions ?? [];
    expect(shop?.before?.monitors).toEqual(['Shop homepage']);
    expect(shop?.after?.monitors).toEqual(['Shop homepage']);
    const before = shop?.before?.levels ?? [];
    const after = shop?.after?.levels ?? [];
    expect(before.map((l) => [l.id, l.active, l.escalationMode, l.thresholdErrorCount ?? l.thresholdMinutes, l.reaches])).toEqual([
      [1, true, 'AlertOnErrorCount', 2, ['ann@example.com']],
      [2, true, 'AlertOnErrorDuration', 30, []],
      [3, false, 'AlertOnErrorDuration', 60, []],
    ]);
    expect(after.map((l) => [l.id, l.operators, l.operatorGroups, l.reaches])).toEqual([
      [1, [], [{ key: 'Night shift', members: ['ann@example.com', 'bob@example.com'] }], ['ann@example.com', 'bob@example.com']],
      [2, ['cat@example.com'], [], ['cat@example.com']],
      [3, [], [], []],
    ]);
    // Ann 00-12 before; Ann and Bob 00-20 after: each day's last 4 hours have nobody on duty at level 1.
    const day = (cells: string | undefined) => cells?.slice(0, 24);
    expect(day(before[0]?.onDuty)).toBe(`${'#'.repeat(12)}${'.'.repeat(12)}`);
    expect(day(after[0]?.onDuty)).toBe(`${'#'.repeat(20)}${'.'.repeat(4)}`);
    expect(after[0]?.nobodyOnDuty?.slice(0, 2)).toEqual([
      { from: '2026-03-02T20:00:00Z', to: '2026-03-03T00:00:00Z', hours: 4 },
      { from: '2026-03-03T20:00:00Z', to: '2026-03-04T00:00:00Z', hours: 4 },
    ]);
    expect(after[1]?.onDuty).toBe('#'.repeat(168)); // Cat has no schedule: on duty around the clock
    expect(after[1]?.nobodyOnDuty).toEqual([]);
  });

  it('shows a definition whose levels the plan leaves alone when a group it reaches changes members or a member changes schedules', () => {
    const live = account({ ...BASE, definitions: [{ name: 'Shop on-call', monitors: ['Shop homepage'], levels: { 1: ['group:Night shift'] } }, { name: 'Quiet', levels: { 1: ['cat@example.com'] } }] });
    const defs = [definition('Shop on-call', [level(1, ['group:Night shift'])]), definition('Quiet', [level(1, ['cat@example.com'])], [])];
    // Bob leaves the night shift: level 1 loses his hours.
    const members = tree({ alertDefinitions: defs, operatorGroups: [anOperatorGroup({ Description: 'Night shift', members: ['ann@example.com'] })] });
    const left = plan(members, live);
    expect(left.steps.map((s) => `${s.action} ${s.kind}:${s.key}`)).toEqual(['delete operatorGroupMember:Night shift/bob@example.com']);
    expect(left.paging?.definitions.map((d) => [d.key, d.before?.levels[0]?.reaches, d.after?.levels[0]?.reaches])).toEqual([['Shop on-call', ['ann@example.com', 'bob@example.com'], ['ann@example.com']]]);
    // Bob's own schedule moves: the definition reaching him through the group is shown with the new hours.
    const moved = tree({ alertDefinitions: defs, operators: [anOperator({ Email: 'bob@example.com', dutySchedules: [DAILY('12:00', '23:00')] })] });
    const shifted = plan(moved, live).paging?.definitions ?? [];
    expect(shifted.map((d) => d.key)).toEqual(['Shop on-call']);
    expect(shifted[0]?.after?.levels[0]?.onDuty?.slice(0, 24)).toBe(`${'#'.repeat(23)}.`);
  });

  it('shows a created definition with no before and a deleted one with no after; a plan that changes no path has no preview', () => {
    const live = account({ ...BASE, definitions: [...BASE.definitions, { name: 'Old paging', levels: { 1: ['cat@example.com'] } }] });
    const desired = tree({
      manage: { ...MANAGE, alertDefinitions: { prune: true } },
      alertDefinitions: [definition('Shop on-call', [level(1, ['ann@example.com'])]), definition('New paging', [level(1, ['cat@example.com'])])],
    });
    const paging = plan(desired, live).paging;
    expect(paging?.definitions.map((d) => [d.key, d.before === undefined, d.after === undefined])).toEqual([
      ['New paging', true, false],
      ['Old paging', false, true],
    ]);
    // A new definition shows the levels the tree writes; the others are the service's own until then.
    expect(paging?.definitions[0]?.after?.levels.map((l) => [l.id, l.reaches])).toEqual([[1, ['cat@example.com']]]);
    const unchanged = tree({ alertDefinitions: [definition('Shop on-call', [level(1, ['ann@example.com'])])] });
    expect(plan(unchanged, account(BASE)).paging).toBeUndefined();
    // Without a clock there are no hours, so the plan stays a pure function of its inputs: no preview at all.
    expect(planFor(tree({ alertDefinitions: [definition('Shop on-call', [level(1, ['cat@example.com'])])] }), account(BASE)).paging).toBeUndefined();
  });

  it(`lists at most ${MAX_PAGING_DEFINITIONS} definitions and counts the rest`, () => {
    const names = Array.from({ length: MAX_PAGING_DEFINITIONS + 5 }, (_, i) => `Team ${String(i).padStart(2, '0')}`);
    const live = account({ ...BASE, definitions: names.map((name) => ({ name, levels: { 1: ['ann@example.com'] } })) });
    const desired = tree({ alertDefinitions: names.map((name) => definition(name, [level(1, ['cat@example.com'])], [])) });
    const paging = plan(desired, live).paging;
    expect(paging?.definitions.map((d) => d.key)).toEqual(names.slice(0, MAX_PAGING_DEFINITIONS));
    expect(paging?.omitted).toBe(5);
  });
});

describe('the alertsReachSomeone policy rule', () => {
  it('finds hours with nobody on duty at the first active level, at that level in the tree', () => {
    const desired = tree({ policy: [REACH_RULE], alertDefinitions: [definition('Shop on-call', [level(1, ['group:Night shift']), level(2, ['cat@example.com'])])] });
    const result = plan(desired, account(BASE));
    expect(result.policy).toEqual([
      {
        rule: 'alertsReachSomeone',
        severity: 'error',
        message: 'alert definition `Shop on-call` escalation level 1 (its first active one) has none of its 2 operators on duty in 28 hours of the next 7 days, the first from 2026-03-02 20:00 UTC',
        fix: expect.stringContaining('duty schedules that cover the hours'),
        kind: 'alertDefinition',
        key: 'Shop on-call',
        file: 'alerts.yaml',
        line: 11,
        column: 5,
      },
    ]);
  });

  it('finds a definition that covers monitors but reaches nobody at any active level; none for one covering nothing or inactive', () => {
    const desired = tree({
      policy: [REACH_RULE],
      alertDefinitions: [
        definition('Nobody', [level(1, []), level(2, ['cat@example.com'], { IsActive: false })]),
        definition('Covers nothing', [level(1, [])], []),
        anAlertDefinition({ AlertName: 'Switched off', IsActive: false, members: { monitors: ['Shop homepage'] }, escalationLevels: [level(1, [])] }),
      ],
    });
    const live = account({ ...BASE, definitions: [] });
    expect(plan(desired, live).policy?.map((f) => [f.key, f.message, f.line])).toEqual([
      ['Nobody', 'alert definition `Nobody` reaches no operator at any active escalation level, so the 1 monitor or group it covers page nobody', 3],
    ]);
  });

  it('is silenced by a waiver of the definition, and a waiver that silences nothing is a warning', () => {
    const waiver = (key: string) => ({ rule: 'alertsReachSomeone', kind: 'alertDefinition', key, file: 'alerts.yaml', line: 7, column: 9 });
    const desired = tree({
      policy: [REACH_RULE],
      planWaivers: [waiver('Shop on-call'), waiver('Always covered')],
      alertDefinitions: [definition('Shop on-call', [level(1, ['group:Night shift'])]), definition('Always covered', [level(1, ['cat@example.com'])])],
    });
    const result = plan(desired, account(BASE));
    expect(result.policy ?? []).toEqual([]);
    expect(result.warnings.filter((w) => w.code === 'UNUSED_WAIVER').map((w) => [w.key, w.message])).toEqual([
      ['Always covered', 'alerts.yaml:7:9: the waiver of `alertsReachSomeone` silences nothing: alert definition `Always covered` keeps the rule after this plan; remove the waiver'],
    ]);
    // The preview says where the waiver is, so the comment can leave the definition out of its warnings.
    expect(result.paging?.definitions.map((d) => [d.key, d.waived])).toEqual([
      ['Always covered', undefined],
      ['Shop on-call', { file: 'alerts.yaml', line: 7, column: 9 }],
    ]);
  });

  it('says nothing of what it cannot see: a level whose group members were not read', () => {
    const live = account(BASE);
    delete live.perParent.operatorGroupMember;
    const desired = tree({ policy: [REACH_RULE], alertDefinitions: [definition('Shop on-call', [level(1, ['group:Night shift'])])] });
    const result = plan(desired, live);
    expect(result.policy ?? []).toEqual([]);
    expect(result.paging?.definitions[0]?.after?.levels[0]).toMatchObject({ operatorGroups: [{ key: 'Night shift' }] });
    expect(result.paging?.definitions[0]?.after?.levels[0]?.reaches).toBeUndefined();
  });
});
