import { describe, expect, it } from 'vitest';
import type { DesiredParts, LiveParts } from '../../test-utils/index.js';
import {
  aGroup,
  aLiveGroup,
  aLiveItem,
  aLiveMonitor,
  aLiveSection,
  aLiveSla,
  aMonitor,
  anItem,
  anSla,
  aSection,
  desiredState,
  guidFor,
  liveSnapshot,
  markerFor,
  planFor,
  secret,
} from '../../test-utils/index.js';
import type { Plan } from '../types.js';

/**
 * A small team's account: 3 monitors, 1 SLA, 1 vault item (in its section) and a group of the 3 monitors, every kind
 * pruned, at the default thresholds. Each test changes the tree (or the account) and asks whether the plan is safe.
 */
const NAMES = ['Shop homepage', 'Checkout API', 'Search'];
const manage = { monitors: { prune: true, removal: 'delete' as const }, monitorGroups: { prune: true }, vault: { prune: true }, slas: { prune: true } };

function tree(parts: DesiredParts = {}): DesiredParts {
  return {
    manage,
    monitors: NAMES.map((Name) => aMonitor({ Name })),
    monitorGroups: [aGroup({ members: NAMES })],
    slas: [anSla({ Description: 'Gold' })],
    vaultSections: [aSection({}, [anItem({ Password: secret('pw-1', 'SHOP_PASSWORD') })])],
    ...parts,
  };
}

function account(parts: LiveParts = {}): LiveParts {
  return {
    monitors: NAMES.map((Name) => aLiveMonitor({ Name })),
    monitorGroups: [aLiveGroup()],
    members: { Shop: NAMES.map((name) => guidFor('monitor', name)) },
    slas: [aLiveSla({ Description: 'Gold' })],
    vaultSections: [aLiveSection()],
    vaultItems: [aLiveItem('Web', { Notes: markerFor({ '/Password': 'pw-1' }) })],
    ...parts,
  };
}

function plan(desired: DesiredParts, live: LiveParts = account()): Plan {
  return planFor(desiredState(desired), liveSnapshot(live));
}

const stepsOf = (p: Plan) => p.steps.map((s) => `${s.action} ${s.kind}:${s.key}`);

describe('safety: ordinary edits of a small account are safe', () => {
  it('plans nothing for the tree as it is live', () => {
    expect(plan(tree()).steps).toEqual([]);
  });

  it('changing the only SLA is safe (1 of 1 updated)', () => {
    const p = plan(tree({ slas: [anSla({ Description: 'Gold', Target: 99.5 })] }));
    expect(stepsOf(p)).toEqual(['update sla:Gold']);
    expect(p).toMatchObject({ safe: true, violations: [] });
  });

  it('rotating the only vault secret is safe (1 of 1 updated)', () => {
    const p = plan(tree({ vaultSections: [aSection({}, [anItem({ Password: secret('pw-2', 'SHOP_PASSWORD') })])] }));
    expect(stepsOf(p)).toEqual(['update vaultItem:Web/shop-login']);
    expect(p).toMatchObject({ safe: true, violations: [] });
  });

  it('removing one membership of a group of 3 is safe', () => {
    const p = plan(tree({ monitorGroups: [aGroup({ members: NAMES.slice(0, 2) })] }));
    expect(stepsOf(p)).toEqual(['delete groupMembership:Shop/Search']);
    expect(p).toMatchObject({ safe: true, violations: [] });
  });

  it('deleting one of 3 monitors (its membership going with it) is safe', () => {
    const kept = NAMES.slice(0, 2);
    const p = plan(tree({ monitors: kept.map((Name) => aMonitor({ Name })), monitorGroups: [aGroup({ members: kept })] }));
    expect(stepsOf(p)).toEqual(['delete monitor:Search']);
    expect(p).toMatchObject({ safe: true, violations: [] });
  });

  it('deleting the only SLA is safe: a kind with one object has no "every one of several"', () => {
    const p = plan(tree({ slas: [] }));
    expect(stepsOf(p)).toEqual(['delete sla:Gold']);
    expect(p.safe).toBe(true);
  });
});

describe('safety: accidents stay unsafe', () => {
  it('deleting every monitor is unsafe (3 of 3: over the share, at the count)', () => {
    const p = plan(tree({ monitors: [], monitorGroups: [aGroup({ members: [] })] }));
    expect(p.safe).toBe(false);
    expect(p.violations).toEqual([expect.objectContaining({ kind: 'monitor', action: 'delete', rule: 'share', count: 3, total: 3, percent: 100, limit: 30, minCount: 3, setting: 'safety.maxDeletePercent' })]);
    expect(p.violations[0]?.message).toContain('--allow-unsafe');
  });

  it('deleting every monitor of a kind that had 2 is unsafe although 2 is under the count; 2 of 3 is not', () => {
    const two = NAMES.slice(0, 2);
    const p = plan(
      tree({ monitors: [aMonitor({ Name: 'Search' })], monitorGroups: [aGroup({ members: ['Search'] })] }),
      account({ monitors: NAMES.map((Name) => aLiveMonitor({ Name })) }),
    );
    expect(p.safe).toBe(true);
    const gone = plan(tree({ monitors: [], monitorGroups: [aGroup({ members: [] })] }), account({ monitors: two.map((Name) => aLiveMonitor({ Name })), members: { Shop: two.map((n) => guidFor('monitor', n)) } }));
    expect(gone.violations).toEqual([expect.objectContaining({ kind: 'monitor', action: 'delete', rule: 'every', count: 2, total: 2 })]);
    expect(gone.violations[0]?.message).toMatch(/^plan deletes every one of the 2 live monitors; review it/);
  });

  it('maxDeletePercent 100 lets every monitor go', () => {
    const p = plan(tree({ monitors: [], monitorGroups: [aGroup({ members: [] })], safety: { maxDeletePercent: 100 } }));
    expect(p.safe).toBe(true);
  });

  it('updating 40 of 50 monitors is unsafe (80%, over 50% and at least 10)', () => {
    const names = Array.from({ length: 50 }, (_, i) => `m${String(i).padStart(2, '0')}`);
    const monitors = names.map((Name, i) => aMonitor({ Name, ...(i < 40 ? { IsActive: false } : {}) }));
    const p = plan({ manage: { monitors: { prune: true } }, monitors }, { monitors: names.map((Name) => aLiveMonitor({ Name })) });
    expect(p.violations).toEqual([expect.objectContaining({ kind: 'monitor', action: 'update', rule: 'share', count: 40, total: 50, percent: 80, limit: 50, minCount: 10, setting: 'safety.maxUpdatePercent' })]);
  });

  it('updating 9 of 10 monitors is safe at the default count of 10, and unsafe at minUpdateCount 5', () => {
    const names = Array.from({ length: 10 }, (_, i) => `m${i}`);
    const monitors = names.map((Name, i) => aMonitor({ Name, ...(i < 9 ? { IsActive: false } : {}) }));
    const live = { monitors: names.map((Name) => aLiveMonitor({ Name })) };
    expect(plan({ manage: { monitors: { prune: true } }, monitors }, live).safe).toBe(true);
    const strict = plan({ manage: { monitors: { prune: true } }, monitors, safety: { minUpdateCount: 5 } }, live);
    expect(strict.violations).toEqual([expect.objectContaining({ kind: 'monitor', action: 'update', count: 9, minCount: 5 })]);
  });

  it("removing a file's worth of objects (the group, the SLA, the vault section and its item) is unsafe together", () => {
    const p = plan(tree({ monitorGroups: [], slas: [], vaultSections: [] }));
    expect(stepsOf(p).sort()).toEqual(['delete monitorGroup:Shop', 'delete sla:Gold', 'delete vaultItem:Web/shop-login', 'delete vaultSection:Web']);
    // Each kind alone has one object; 4 of the 7 objects together are over 30% and at least 3.
    expect(p.violations).toEqual([expect.objectContaining({ kind: '*', action: 'delete', rule: 'together', count: 4, total: 7, percent: 57.1, setting: 'safety.maxDeletePercent' })]);
    expect(p.violations[0]?.message).toContain('plan deletes 4 of 7 live objects of all kinds together (57.1%)');
  });

  it('relation rows are weighed apart: 10 of 12 memberships removed is unsafe under safety.relations, 3 of 12 is not', () => {
    const names = Array.from({ length: 12 }, (_, i) => `m${String(i).padStart(2, '0')}`);
    const live = account({ monitors: names.map((Name) => aLiveMonitor({ Name })), members: { Shop: names.map((n) => guidFor('monitor', n)) } });
    const parts = (members: string[]) => tree({ monitors: names.map((Name) => aMonitor({ Name })), monitorGroups: [aGroup({ members })] });
    expect(plan(parts(names.slice(0, 9)), live).safe).toBe(true);
    const p = plan(parts(names.slice(0, 2)), live);
    expect(p.violations).toEqual([
      expect.objectContaining({ kind: 'groupMembership', action: 'delete', rule: 'share', count: 10, total: 12, limit: 30, minCount: 10, setting: 'safety.relations.maxDeletePercent' }),
    ]);
  });

  it('relation deletes never add to the objects counted together', () => {
    // 3 memberships and 1 object (the SLA) of 7 objects: the together rule sees 1 delete.
    const p = plan(tree({ slas: [], monitorGroups: [aGroup({ members: [] })] }));
    expect(stepsOf(p).sort()).toEqual(['delete groupMembership:Shop/Checkout API', 'delete groupMembership:Shop/Search', 'delete groupMembership:Shop/Shop homepage', 'delete sla:Gold']);
    expect(p.safe).toBe(true);
  });
});
