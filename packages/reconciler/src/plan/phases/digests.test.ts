import { describe, expect, it } from 'vitest';
import { aLiveMonitor, aMonitor, desiredState, liveSnapshot } from '../../test-utils/index.js';
import type { PlanStep } from '../types.js';
import { configDigest, liveDigest, planDigestOf, stepDigest } from './digests.js';
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

describe('step digest', () => {
  const step = (ref: string, guid: string): PlanStep => ({
    id: 'monitor:Shop',
    action: 'update',
    kind: 'monitor',
    key: 'Shop',
    guid,
    changes: [{ op: 'replace', path: '/PredefinedVariables', before: [], after: [{ Key: 'pw', Value: `{{vault:${ref}}}` }] }],
    dependsOn: [],
  });
  const sets = [{ path: ['PredefinedVariables'], key: 'Key' }];
  const oldItem = '11111111-2222-4333-8444-555555555555';
  const newItem = 'aaaaaaaa-2222-4333-8444-555555555555';

  it('hashes a reference by the key of the object it names, so a recreated object (new GUID, same key) keeps it', () => {
    const before = stepDigest(step(oldItem, 'g-1'), sets, new Map([[oldItem, '{{vaultItem:Web/pw}}']]));
    const after = stepDigest(step(newItem.toUpperCase(), 'g-2'), sets, new Map([[newItem, '{{vaultItem:Web/pw}}']]));
    expect(after).toBe(before);
    const elsewhere = stepDigest(step(newItem, 'g-1'), sets, new Map([[newItem, '{{vaultItem:Web/other}}']]));
    expect(elsewhere).not.toBe(before);
  });

  it('keeps a GUID it cannot name (an operator, an object outside the read)', () => {
    expect(stepDigest(step(oldItem, 'g'), sets, new Map())).not.toBe(stepDigest(step(newItem, 'g'), sets, new Map()));
  });

  it('is over the sorted step digests for the whole plan', () => {
    expect(planDigestOf(['b', 'a'])).toBe(planDigestOf(['a', 'b']));
    expect(planDigestOf(['a'])).not.toBe(planDigestOf(['a', 'a']));
  });
});
