import { describe, expect, it } from 'vitest';
import { aLiveMonitor, aLiveSla, aMonitor, anSla, desiredState, guidFor, liveSnapshot } from '../../test-utils/index.js';
import { matched } from '../../test-utils/index.js';

const manage = { monitors: { prune: true }, slas: { prune: false } };

describe('match phase (identity)', () => {
  it('pairs by key, creates what is only declared and leaves what is only live as an orphan', () => {
    const desired = desiredState({ manage, monitors: [aMonitor({ Name: 'a' }), aMonitor({ Name: 'b' })] });
    const { states, problems } = matched(desired, liveSnapshot({ monitors: [aLiveMonitor({ Name: 'a' }), aLiveMonitor({ Name: 'old' })] }));
    const monitors = states.find((s) => s.mod.kind === 'monitor');
    expect(problems).toEqual([]);
    expect(monitors?.pairs.map((p) => p.desired.key)).toEqual(['a']);
    expect(monitors?.creates.map((c) => c.key)).toEqual(['b']);
    expect(monitors?.orphans.map((o) => o.key)).toEqual(['old']);
  });

  it('pairs, creates and leaves orphans alike whether the keys come in order or not', () => {
    const names = ['a', 'c', 'd', 'f', 'h'];
    const liveNames = ['b', 'c', 'e', 'f', 'g', 'i'];
    const inOrder = matched(desiredState({ manage, monitors: names.map((Name) => aMonitor({ Name })) }), liveSnapshot({ monitors: liveNames.map((Name) => aLiveMonitor({ Name })) }));
    const shuffled = matched(
      desiredState({ manage, monitors: [...names].reverse().map((Name) => aMonitor({ Name })) }),
      liveSnapshot({ monitors: [...liveNames].reverse().map((Name) => aLiveMonitor({ Name })) }),
    );
    for (const { states } of [inOrder, shuffled]) {
      const monitors = states.find((s) => s.mod.kind === 'monitor');
      expect(monitors?.pairs.map((p) => [p.desired.key, p.live.key])).toEqual([
        ['c', 'c'],
        ['f', 'f'],
      ]);
      expect(monitors?.pairs.every((p) => p.live.guid === guidFor('monitor', p.desired.key))).toBe(true);
      expect(monitors?.creates.map((c) => c.key)).toEqual(['a', 'd', 'h']);
      expect(monitors?.orphans.map((o) => o.key)).toEqual(['b', 'e', 'g', 'i']);
    }
  });

  it('finds a key declared twice or live twice, and live keys out of order, after other keys in order were paired', () => {
    const names = (list: string[]) => list.map((Name) => aMonitor({ Name }));
    const [a, b, c] = [aLiveMonitor({ Name: 'a' }), aLiveMonitor({ Name: 'b' }), aLiveMonitor({ Name: 'c' })];
    const live = [a, b, c];
    const declaredTwice = matched(desiredState({ manage, monitors: names(['a', 'b', 'c', 'c']) }), liveSnapshot({ monitors: live }));
    expect(declaredTwice.problems.map((p) => p.code)).toEqual(['DUPLICATE_DESIRED_KEY']);

    const copy = { ...aLiveMonitor({ Name: 'b' }), MonitorGuid: guidFor('monitor', 'b copy') };
    const liveTwice = matched(desiredState({ manage, monitors: names(['a', 'b', 'c']) }), liveSnapshot({ monitors: [a, b, copy, c] }));
    expect(liveTwice.problems.map((p) => p.code)).toEqual(['DUPLICATE_LIVE_KEY']);
    expect(liveTwice.states.find((s) => s.mod.kind === 'monitor')?.pairs.map((p) => p.desired.key)).toEqual(['a', 'c']);

    const lastOutOfOrder = matched(desiredState({ manage, monitors: names(['a']) }), liveSnapshot({ monitors: ['a', 'z', 'y'].map((Name) => aLiveMonitor({ Name })) }));
    const state = lastOutOfOrder.states.find((s) => s.mod.kind === 'monitor');
    expect(state?.orphans.map((o) => o.key)).toEqual(['y', 'z']);
    expect(state?.live.map((o) => o.key)).toEqual(['a', 'y', 'z']);
  });

  it('pairs a pinned GUID first, so a rename is the same object', () => {
    const desired = desiredState({ manage, monitors: [aMonitor({ Name: 'new name', MonitorGuid: guidFor('monitor', 'old') })] });
    const { states } = matched(desired, liveSnapshot({ monitors: [aLiveMonitor({ Name: 'old' })] }));
    expect(states.find((s) => s.mod.kind === 'monitor')?.pairs.map((p) => [p.desired.key, p.live.key])).toEqual([['new name', 'old']]);
  });

  it('compares SLA names as the service does, ignoring case and surrounding spaces', () => {
    const desired = desiredState({ manage, slas: [anSla({ Description: 'GOLD ' })] });
    const { states } = matched(desired, liveSnapshot({ slas: [aLiveSla({ Description: 'Gold' })] }));
    expect(states.find((s) => s.mod.kind === 'sla')?.pairs).toHaveLength(1);
  });

  it('returns problems as data with the position of the declaration', () => {
    const desired = desiredState({ manage, monitors: [aMonitor({ Name: 'x', MonitorGuid: '00000000-0000-4000-8000-000000000000' })] });
    const { problems } = matched(desired, liveSnapshot());
    expect(problems).toEqual([expect.objectContaining({ code: 'PINNED_GUID_NOT_FOUND', file: 'monitors.yaml', col: 5 })]);
    expect(problems[0]?.message.startsWith('monitor "x" pins')).toBe(true);
  });

  it('reports keys declared twice before keys live twice, and leaves the unpaired copies as orphans', () => {
    const desired = desiredState({ manage, monitors: [aMonitor({ Name: 'b' }), aMonitor({ Name: 'a' }), aMonitor({ Name: 'b' }), aMonitor({ Name: 'c' })] });
    const copies = [aLiveMonitor({ Name: 'a' }), { ...aLiveMonitor({ Name: 'a' }), MonitorGuid: guidFor('monitor', 'a copy') }, aLiveMonitor({ Name: 'z' })];
    const { states, problems } = matched(desired, liveSnapshot({ monitors: copies }));
    const monitors = states.find((s) => s.mod.kind === 'monitor');
    expect(problems.map((p) => p.code)).toEqual(['DUPLICATE_DESIRED_KEY', 'DUPLICATE_LIVE_KEY']);
    expect(monitors?.pairs).toEqual([]);
    expect(monitors?.creates.map((c) => c.key)).toEqual(['b', 'c']);
    expect(monitors?.orphans.map((o) => o.key)).toEqual(['a', 'a', 'z']);
  });
});
