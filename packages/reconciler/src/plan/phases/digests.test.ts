import { describe, expect, it } from 'vitest';
import { aLiveMonitor, aMonitor, desiredState, liveSnapshot } from '../../test-utils/index.js';
import { configDigest, liveDigest } from './digests.js';
import { matched } from '../../test-utils/index.js';

const desired = (name: string) => desiredState({ manage: { monitors: { prune: false } }, monitors: [aMonitor({ Name: name })] });

describe('digests phase', () => {
  it('changes the config digest with a declaration and the live digest with a live object, not the other', () => {
    const live = liveSnapshot({ monitors: [aLiveMonitor()] });
    const edited = liveSnapshot({ monitors: [aLiveMonitor({ LastModifiedDate: '2026-03-01T00:00:00' })] });
    const a = matched(desired('a'), live);
    const b = matched(desired('b'), live);
    const c = matched(desired('a'), edited);
    expect(configDigest(desired('a'), a.states, undefined)).not.toBe(configDigest(desired('b'), b.states, undefined));
    expect(liveDigest(a.states)).toBe(liveDigest(b.states));
    expect(liveDigest(a.states)).not.toBe(liveDigest(c.states));
    expect(configDigest(desired('a'), a.states, undefined)).toBe(configDigest(desired('a'), c.states, undefined));
  });
});
