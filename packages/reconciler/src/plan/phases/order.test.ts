import { describe, expect, it } from 'vitest';
import { aGroup, aLiveItem, aLiveMonitor, aLiveSection, aMonitor, aSection, desiredState, liveSnapshot } from '../../test-utils/index.js';
import { draftDeletes } from './deletes.js';
import { draftChanges } from './drafts.js';
import { linkDependencies, orderAndName, selectTargets, targetOrphans } from './order.js';
import { matched } from '../../test-utils/index.js';

function drafted() {
  const desired = desiredState({ manage: { monitors: { prune: true }, monitorGroups: { prune: false } }, monitors: [aMonitor({ Name: 'm' })], monitorGroups: [aGroup({ Description: 'G', members: ['m'] })] });
  const { states, resolution } = matched(desired, liveSnapshot({ monitors: [aLiveMonitor({ Name: 'old' })] }));
  const drafts = [...draftChanges(states, resolution, { operators: null }).drafts, ...draftDeletes(states).drafts];
  linkDependencies(drafts, states);
  return drafts;
}

describe('ordering phase', () => {
  it('orders creates by kind, deletes last, and names each step by kind and key with its dependencies', () => {
    const steps = orderAndName(drafted());
    expect(steps.map((s) => `${s.action} ${s.id}`)).toEqual(['create monitorGroup:G', 'create monitor:m', 'create groupMembership:G/m', 'delete monitor:old']);
    expect(steps[2]?.dependsOn).toEqual(['monitor:m', 'monitorGroup:G']);
  });

  it('keeps the targeted steps and what they depend on, and warns about a target that matches nothing', () => {
    const { selected, warnings } = selectTargets(drafted(), ['groupMembership:G/*', 'sla:none']);
    expect(orderAndName(selected).map((s) => s.id)).toEqual(['monitorGroup:G', 'monitor:m', 'groupMembership:G/m']);
    expect(warnings.map((w) => w.code)).toEqual(['TARGET_NOT_FOUND']);
  });

  describe('a narrowed plan leaves no orphan', () => {
    // The live monitor uses vault item Web/old, which the tree no longer declares: the plan deletes the item and
    // updates the monitor to drop the reference (its declared variables leave it out).
    function vaultDrafts(link: boolean) {
      const item = aLiveItem('Web', { Name: 'old' });
      const monitor = aLiveMonitor({ Name: 'Shop', PredefinedVariables: [{ Key: 'k', Value: `{{vault:${String(item.VaultItemGuid)}}}` }] });
      const desired = desiredState({
        manage: { monitors: { prune: false }, vault: { prune: true } },
        monitors: [aMonitor({ Name: 'Shop', PredefinedVariables: [] })],
        vaultSections: [aSection({ Name: 'Web' })],
      });
      const { states, resolution } = matched(desired, liveSnapshot({ vaultSections: [aLiveSection({ Name: 'Web' })], vaultItems: [item], monitors: [monitor] }));
      const drafts = [...draftChanges(states, resolution, { operators: null }).drafts, ...draftDeletes(states).drafts];
      if (link) linkDependencies(drafts, states);
      return { drafts, states };
    }

    it('takes in the update that drops the reference when the delete of what it refers to is targeted', () => {
      const { drafts, states } = vaultDrafts(true);
      const { selected } = selectTargets(drafts, ['vaultItem:Web/old']);
      expect(selected.map((d) => `${d.step.action} ${d.step.kind}:${d.step.key}`).sort()).toEqual(['delete vaultItem:Web/old', 'update monitor:Shop']);
      expect(targetOrphans(selected, states)).toEqual([]);
    });

    it('refuses a selection that deletes an object a live object it leaves alone still refers to, naming the target to add', () => {
      const { drafts, states } = vaultDrafts(false);
      const { selected } = selectTargets(drafts, ['vaultItem:Web/old']);
      const problems = targetOrphans(selected, states);
      expect(problems.map((p) => p.code)).toEqual(['TARGET_ORPHANS']);
      expect(problems[0]?.message).toBe(
        'the targeted steps delete vaultItem "Web/old" but leave "monitor:Shop" referring to it, which would be orphaned: add --target "monitor:Shop", or plan without --target',
      );
    });
  });
});
