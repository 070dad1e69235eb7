/**
 * Who gets paged, as a property: the preview lists exactly the definitions whose path (levels, the people each
 * reaches, their hours, the monitors covered) differs between the account as read and the account once the plan's
 * steps have run, each with those two paths. The preview leaves out the definitions it can tell are unchanged
 * without building their paths; this checks that it never leaves out one that changed, against the paths built
 * whole for both moments (`pathsAfterPlan` of no steps, and of the plan's).
 */
import { dutyLabel } from '@monsync/schema';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiObject, LiveSnapshot } from '../src/live/types.js';
import { pagingOfPlan, pathsAfterPlan } from '../src/paging/of-plan.js';
import type { PlanStep } from '../src/plan/types.js';
import { aLiveAlertDefinition, guidFor, liveSnapshot } from '../src/test-utils/index.js';

const NOW = Date.UTC(2026, 2, 2, 7, 0);
const EMAILS = ['ann@example.com', 'bob@example.com', 'cat@example.com', 'dan@example.com'];
const GROUPS = ['Night shift', 'Day shift', 'Everyone'];
const DEFINITIONS = ['Shop on-call', 'Payments', 'Search', 'Status page'];
const SCHEDULES = [
  { ScheduleMode: 'Daily', StartTime: '00:00', EndTime: '12:00' },
  { ScheduleMode: 'Daily', StartTime: '12:00', EndTime: '20:00' },
  { ScheduleMode: 'Weekly', WeekDay: 'Tuesday', StartTime: '08:00', EndTime: '17:00' },
];

/** Whom a level reaches: an operator's e-mail or `group:<Description>`. */
const reach = fc.constantFrom(...EMAILS, ...GROUPS.map((g) => `group:${g}`));
const account = fc.record({
  schedules: fc.array(fc.subarray([0, 1, 2]), { minLength: EMAILS.length, maxLength: EMAILS.length }),
  groups: fc.array(fc.subarray(EMAILS), { minLength: 2, maxLength: 2 }),
  levels: fc.array(fc.array(fc.uniqueArray(reach, { maxLength: 3 }), { minLength: 3, maxLength: 3 }), { minLength: DEFINITIONS.length, maxLength: DEFINITIONS.length }),
});
type Account = typeof account extends fc.Arbitrary<infer T> ? T : never;

const member = (who: string): ApiObject => (who.startsWith('group:') ? { OperatorGroupGuid: guidFor('operatorGroup', who.slice(6)) } : { OperatorGuid: guidFor('operator', who) });

function live(a: Account): LiveSnapshot {
  const operators = EMAILS.map((email) => ({ OperatorGuid: guidFor('operator', email), Email: email, FullName: email }));
  const snapshot = liveSnapshot({ alertDefinitions: DEFINITIONS.map((name) => aLiveAlertDefinition({ AlertName: name })), operators });
  snapshot.lists.operator = operators;
  snapshot.lists.operatorGroup = GROUPS.map((g) => ({ OperatorGroupGuid: guidFor('operatorGroup', g), Description: g, IsEveryone: g === 'Everyone' }));
  snapshot.perParent.operatorGroupMember = Object.fromEntries(a.groups.map((emails, g) => [guidFor('operatorGroup', GROUPS[g] ?? ''), emails.map(member)]));
  snapshot.perParent.dutySchedule = Object.fromEntries(EMAILS.map((email, i) => [guidFor('operator', email), (a.schedules[i] ?? []).map((s, id) => ({ Id: id + 1, ...SCHEDULES[s] }))]));
  snapshot.perParent.escalationLevel = {};
  snapshot.perParent.escalationLevelMember = {};
  snapshot.perParent.alertDefinitionMember = {};
  DEFINITIONS.forEach((name, d) => {
    const guid = guidFor('alertDefinition', name);
    snapshot.perParent.escalationLevel![guid] = [1, 2, 3].map((id) => ({ Id: id, EscalationMode: 'AlertOnErrorDuration', ThresholdMinutes: 15 * id, IsActive: true }));
    for (const id of [1, 2, 3]) snapshot.perParent.escalationLevelMember![`${guid}/${id}`] = (a.levels[d]?.[id - 1] ?? []).map(member);
    snapshot.perParent.alertDefinitionMember![guid] = [];
  });
  return snapshot;
}

const step = (kind: string, action: PlanStep['action'], key: string, desired?: Record<string, unknown>): PlanStep => ({
  id: `${kind}:${key}:${action}`,
  kind: kind as PlanStep['kind'],
  action,
  key,
  changes: [],
  dependsOn: [],
  ...(desired === undefined ? {} : { desired }),
});

/** One change a plan can make to who gets paged: people, their hours, their groups, a level's members or fields. */
const change: fc.Arbitrary<PlanStep> = fc.oneof(
  fc.tuple(fc.constantFrom(...EMAILS), fc.constantFrom(...SCHEDULES), fc.constantFrom<PlanStep['action']>('create', 'delete')).map(([email, s, action]) => step('dutySchedule', action, `${email}/${dutyLabel(s)}`, action === 'create' ? s : undefined)),
  fc.tuple(fc.constantFrom(...GROUPS.slice(0, 2)), fc.constantFrom(...EMAILS), fc.constantFrom<PlanStep['action']>('create', 'delete')).map(([group, email, action]) => step('operatorGroupMember', action, `${group}/${email}`)),
  fc.constantFrom(...EMAILS).map((email) => step('operator', 'delete', email)),
  fc.constant(step('operator', 'create', 'eve@example.com', { Email: 'eve@example.com' })),
  fc.tuple(fc.constantFrom(...DEFINITIONS), fc.integer({ min: 1, max: 3 }), reach, fc.constantFrom<PlanStep['action']>('create', 'delete')).map(([name, id, who, action]) =>
    step('escalationLevelMember', action, `${name}/${id}/${who.startsWith('group:') ? `operatorGroup:${who.slice(6)}` : `operator:${who}`}`),
  ),
  fc.tuple(fc.constantFrom(...DEFINITIONS), fc.integer({ min: 1, max: 3 }), fc.constantFrom({ ThresholdMinutes: 15 }, { ThresholdMinutes: 90 }, { IsActive: false })).map(([name, id, fields]) => step('escalationLevel', 'update', `${name}/${id}`, fields)),
  fc.constantFrom(...DEFINITIONS).map((name) => step('alertDefinition', 'update', name, { IsActive: false })),
);

describe('who gets paged, as a property', () => {
  it('lists exactly the definitions whose path the plan changes, with both paths as built whole', () => {
    fc.assert(
      fc.property(account, fc.array(change, { maxLength: 4 }), (a, steps) => {
        const snapshot = live(a);
        const before = pathsAfterPlan(snapshot, [], NOW, DEFINITIONS);
        const after = pathsAfterPlan(snapshot, steps, NOW, DEFINITIONS);
        const changed = DEFINITIONS.filter((name) => JSON.stringify(before.get(name)) !== JSON.stringify(after.get(name))).sort();
        const paging = pagingOfPlan(snapshot, steps, NOW);
        expect(paging?.definitions.map((d) => d.key) ?? []).toEqual(changed);
        for (const shown of paging?.definitions ?? []) {
          expect(shown.before).toEqual(before.get(shown.key));
          expect(shown.after).toEqual(after.get(shown.key));
        }
      }),
      { numRuns: 200 },
    );
  });
});
