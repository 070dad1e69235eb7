import { describe, expect, it } from 'vitest';
import type { ApiObject, LiveSnapshot } from '../../live/types.js';
import { aGroup, aLiveAlertDefinition, aLiveGroup, aLiveMonitor, aMonitor, anAlertDefinition, anOperator, anOperatorGroup, desiredState, guidFor, liveSnapshot, matched } from '../../test-utils/index.js';
import type { KindState } from './state.js';

const manage = { monitors: { prune: false }, monitorGroups: { prune: false } };
const monitors = ['a', 'b', 'c'].map((Name) => aMonitor({ Name }));
const liveMonitors = ['a', 'b', 'c'].map((Name) => aLiveMonitor({ Name }));
const memberships = (states: readonly KindState[], kind = 'groupMembership'): KindState | undefined => states.find((s) => s.mod.kind === kind);

/** What a phase reads of a kind's state, entries as keys. */
function entriesOf(state: KindState | undefined): unknown {
  return {
    desired: state?.desired.map((e) => [e.key, e.refs]),
    live: state?.live.map((e) => [e.key, e.guid, e.refs]),
    allLive: state?.allLive.map((e) => e.key),
    pairs: state?.pairs.map((p) => [p.desired.key, p.live.guid]),
    creates: state?.creates.map((e) => e.key),
    orphans: state?.orphans.map((e) => e.key),
  };
}

describe('match phase, relations declared as lists', () => {
  it('pairs a group whose declared members are its live members as one list, with the entries matching one by one makes', () => {
    const desired = desiredState({ manage, monitors, monitorGroups: [aGroup({ Description: 'Shop', members: ['c', 'a', 'b'] }), aGroup({ Description: 'Empty', members: [] })] });
    const live = liveSnapshot({ monitors: liveMonitors, monitorGroups: [aLiveGroup({ Description: 'Shop' }), aLiveGroup({ Description: 'Empty' })], members: { Shop: ['a', 'b', 'c'].map((n) => guidFor('monitor', n)) } });
    const asSets = matched(desired, live);
    const perEntry = matched(desired, live, { perEntry: true });
    expect(memberships(asSets.states)?.sets).toEqual({ paired: 3 });
    expect(memberships(perEntry.states)?.sets).toBeUndefined();
    expect(entriesOf(memberships(asSets.states))).toEqual(entriesOf(memberships(perEntry.states)));
    expect(asSets.resolution.keyOf('groupMembership', `${guidFor('monitorGroup', 'Shop')}/${guidFor('monitor', 'a')}`)).toBe('Shop/a');
  });

  it('matches entry by entry when a list differs, so the member added is created and the one removed left over', () => {
    const desired = desiredState({ manage, monitors, monitorGroups: [aGroup({ Description: 'Shop', members: ['a', 'c'] })] });
    const live = liveSnapshot({ monitors: liveMonitors, monitorGroups: [aLiveGroup({ Description: 'Shop' })], members: { Shop: ['a', 'b'].map((n) => guidFor('monitor', n)) } });
    const state = memberships(matched(desired, live).states);
    expect(state?.sets).toBeUndefined();
    expect(state?.creates.map((e) => e.key)).toEqual(['Shop/c']);
    expect(state?.orphans.map((e) => e.key)).toEqual(['Shop/b']);
  });

  it('matches entry by entry when a member is declared twice, so the problem is reported', () => {
    const desired = desiredState({ manage, monitors, monitorGroups: [aGroup({ Description: 'Shop', members: ['a', 'a'] })] });
    const live = liveSnapshot({ monitors: liveMonitors, monitorGroups: [aLiveGroup({ Description: 'Shop' })], members: { Shop: ['a', 'b'].map((n) => guidFor('monitor', n)) } });
    const { states, problems } = matched(desired, live);
    expect(memberships(states)?.sets).toBeUndefined();
    expect(problems.map((p) => p.code)).toEqual(['DUPLICATE_DESIRED_KEY']);
    const listedTwice = liveSnapshot({ monitors: liveMonitors, monitorGroups: [aLiveGroup({ Description: 'Shop' })], members: { Shop: ['a', 'a'].map((n) => guidFor('monitor', n)) } });
    expect(memberships(matched(desired, listedTwice).states)?.sets).toBeUndefined();
  });

  it('matches entry by entry when an ignore pattern names the kind, or a group key holds a slash', () => {
    const live = liveSnapshot({ monitors: liveMonitors, monitorGroups: [aLiveGroup({ Description: 'Shop/EU' })], members: { 'Shop/EU': [guidFor('monitor', 'a')] } });
    const slash = desiredState({ manage, monitors, monitorGroups: [aGroup({ Description: 'Shop/EU', members: ['a'] })] });
    const ignoring = desiredState({ manage, ignore: ['groupMembership:Other/*'], monitors, monitorGroups: [aGroup({ Description: 'Shop/EU', members: ['a'] })] });
    expect(memberships(matched(slash, live).states)?.sets).toBeUndefined();
    expect(memberships(matched(ignoring, live).states)?.sets).toBeUndefined();
    expect(memberships(matched(slash, live).states)?.pairs.map((p) => p.desired.key)).toEqual(['Shop/EU/a']);
  });
});

describe('match phase, the members of alert definitions and of their escalation levels declared as lists', () => {
  const manageAll = { ...manage, alertDefinitions: { prune: false }, operators: { prune: false }, operatorGroups: { prune: false } };
  const people = { operators: ['ann@example.com', 'bob@example.com'].map((Email) => anOperator({ Email })), operatorGroups: [anOperatorGroup({ Description: 'Night shift' })] };
  const level = (Id: number, members: { operators?: string[]; operatorGroups?: string[] }) => ({ value: { Id, members } as never, source: { file: 'alerts.yaml', line: Id, column: 1 } });
  const definition = (AlertName: string, covers: { monitors?: string[]; monitorGroups?: string[] }, levels: ReturnType<typeof level>[]) => anAlertDefinition({ AlertName, members: covers, escalationLevels: levels });
  const operator = (email: string): ApiObject => ({ OperatorGuid: guidFor('operator', email) });
  const team = (name: string): ApiObject => ({ OperatorGroupGuid: guidFor('operatorGroup', name) });

  /** The account: each definition's levels 1-2, their members and the monitors and groups it covers, as listed. */
  function account(name: string, covered: ApiObject[], reached: Record<number, ApiObject[]>): LiveSnapshot {
    const live = liveSnapshot({ monitors: liveMonitors, monitorGroups: [aLiveGroup({ Description: 'Shop' })], alertDefinitions: [aLiveAlertDefinition({ AlertName: name })], operators: null });
    live.lists.operator = ['ann@example.com', 'bob@example.com'].map((Email) => ({ OperatorGuid: guidFor('operator', Email), Email }));
    live.lists.operatorGroup = [{ OperatorGroupGuid: guidFor('operatorGroup', 'Night shift'), Description: 'Night shift', IsEveryone: false }];
    live.perParent.operatorGroupMember = { [guidFor('operatorGroup', 'Night shift')]: [] };
    const guid = guidFor('alertDefinition', name);
    live.perParent.escalationLevel = { [guid]: [1, 2].map((Id) => ({ Id, IsActive: true })) };
    live.perParent.alertDefinitionMember = { [guid]: covered };
    live.perParent.escalationLevelMember = Object.fromEntries([1, 2].map((Id) => [`${guid}/${Id}`, reached[Id] ?? []]));
    return live;
  }
  const covered = [{ MonitorGuid: guidFor('monitor', 'a') }, { MonitorGroupGuid: guidFor('monitorGroup', 'Shop') }];
  const tree = (name: string, levelOne: string[]) =>
    desiredState({
      manage: manageAll,
      monitors,
      monitorGroups: [aGroup({ Description: 'Shop' })],
      ...people,
      alertDefinitions: [definition(name, { monitors: ['a'], monitorGroups: ['Shop'] }, [level(1, { operators: levelOne, operatorGroups: ['Night shift'] }), level(2, {})])],
    });

  it('pairs them as lists, in any order listed, with the entries matching one by one makes', () => {
    const desired = tree('Shop on-call', ['ann@example.com', 'bob@example.com']);
    // Listed in another order than declared: compared sorted.
    const live = account('Shop on-call', [...covered].reverse(), { 1: [team('Night shift'), operator('bob@example.com'), operator('ann@example.com')] });
    for (const kind of ['alertDefinitionMember', 'escalationLevelMember']) {
      const asSets = memberships(matched(desired, live).states, kind);
      const perEntry = memberships(matched(desired, live, { perEntry: true }).states, kind);
      expect(asSets?.sets).toEqual({ paired: kind === 'alertDefinitionMember' ? 2 : 3 });
      expect(perEntry?.sets).toBeUndefined();
      expect(entriesOf(asSets)).toEqual(entriesOf(perEntry));
    }
    const inOrder = account('Shop on-call', covered, { 1: [operator('ann@example.com'), operator('bob@example.com'), team('Night shift')] });
    expect(memberships(matched(desired, inOrder).states, 'escalationLevelMember')?.sets).toEqual({ paired: 3 });
  });

  it('matches entry by entry when a level reaches someone else, so the one added is created and the one removed left over', () => {
    const desired = tree('Shop on-call', ['ann@example.com']);
    const live = account('Shop on-call', covered, { 1: [operator('bob@example.com'), team('Night shift')] });
    const state = memberships(matched(desired, live).states, 'escalationLevelMember');
    expect(state?.sets).toBeUndefined();
    expect(state?.creates.map((e) => e.key)).toEqual(['Shop on-call/1/operator:ann@example.com']);
    expect(state?.orphans.map((e) => e.key)).toEqual(['Shop on-call/1/operator:bob@example.com']);
    // A group listed where a monitor of the same members count is declared differs too.
    const swapped = account('Shop on-call', [{ MonitorGuid: guidFor('monitor', 'a') }, { MonitorGuid: guidFor('monitor', 'b') }], { 1: [operator('ann@example.com'), team('Night shift')] });
    expect(memberships(matched(desired, swapped).states, 'alertDefinitionMember')?.sets).toBeUndefined();
  });

  it('matches entry by entry when a definition name holds a slash (two levels\' keys could then be one)', () => {
    const desired = tree('Shop/EU', ['ann@example.com']);
    const live = account('Shop/EU', covered, { 1: [operator('ann@example.com'), team('Night shift')] });
    const state = memberships(matched(desired, live).states, 'escalationLevelMember');
    expect(state?.sets).toBeUndefined();
    expect(state?.pairs.map((p) => p.desired.key)).toEqual(['Shop/EU/1/operator:ann@example.com', 'Shop/EU/1/operatorGroup:Night shift']);
  });
});
