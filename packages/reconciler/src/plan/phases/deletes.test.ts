import { describe, expect, it } from 'vitest';
import { aLiveItem, aLiveMonitor, aLiveSection, aMonitor, desiredState, guidFor, liveSnapshot, OTHER_OPERATOR, SELF_OPERATOR } from '../../test-utils/index.js';
import { deletesRefused, draftDeletes } from './deletes.js';
import { matched } from '../../test-utils/index.js';

describe('deletes phase (prune)', () => {
  it('deletes undeclared objects of a pruned kind and lists those of an unpruned one as unmanaged', () => {
    const desired = desiredState({ manage: { monitors: { prune: true }, vault: { prune: false } }, monitors: [aMonitor({ Name: 'kept' })] });
    const { states } = matched(desired, liveSnapshot({ monitors: [aLiveMonitor({ Name: 'kept' }), aLiveMonitor({ Name: 'gone' })], vaultSections: [aLiveSection()] }));
    const { drafts, unmanaged, deleted } = draftDeletes(states);
    expect(drafts.map((d) => [d.step.action, d.step.key])).toEqual([['delete', 'gone']]);
    expect(unmanaged.map((u) => `${u.kind}:${u.key}`)).toEqual(['vaultSection:Web']);
    expect(deleted?.has('monitor', guidFor('monitor', 'gone'))).toBe(true);
  });

  it('attributes a delete of an object another operator made or changed last: drift, not only changed objects', () => {
    const desired = desiredState({ manage: { monitors: { prune: true } } });
    const live = liveSnapshot({ monitors: [aLiveMonitor({ Name: 'made in the web app', LastModifiedByOperatorId: OTHER_OPERATOR }), aLiveMonitor({ Name: 'ours' })] });
    const { states } = matched(desired, live);
    const { drafts } = draftDeletes(states, { selfOperatorGuid: SELF_OPERATOR, operators: live.operators });
    const byKey = Object.fromEntries(drafts.map((d) => [d.step.key, d.step.drift]));
    expect(byKey['made in the web app']).toEqual({ lastModifiedDate: '2026-01-02T00:00:00', lastModifiedByOperatorId: OTHER_OPERATOR, operatorName: 'Jane Doe' });
    expect(byKey['ours']).toBeUndefined();
  });

  it('refuses to delete an item a monitor it does not manage still uses', () => {
    const item = aLiveItem('Web', { Name: 'old' });
    const monitor = aLiveMonitor({ PredefinedVariables: [{ Key: 'k', Value: `{{vault:${String(item.VaultItemGuid)}}}` }] });
    const desired = desiredState({ manage: { vault: { prune: true } } });
    const { states, resolution } = matched(desired, liveSnapshot({ vaultSections: [aLiveSection()], vaultItems: [item], monitors: [monitor] }));
    const { drafts } = draftDeletes(states);
    expect(deletesRefused(drafts, states, resolution).map((p) => p.code)).toContain('DELETE_IN_USE');
  });
});
