import { describe, expect, it } from 'vitest';
import { aGroup, aLiveGroup, aLiveMonitor, aMonitor, desiredState, guidFor, liveSnapshot, matched } from '../../test-utils/index.js';
import type { KindState } from './state.js';

const manage = { monitors: { prune: false }, monitorGroups: { prune: false } };
const monitors = ['a', 'b', 'c'].map((Name) => aMonitor({ Name }));
const liveMonitors = ['a', 'b', 'c'].map((Name) => aLiveMonitor({ Name }));
const memberships = (states: readonly KindState[]): KindState | undefined => states.find((s) => s.mod.kind === 'groupMembership');

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
