import { describe, expect, it } from 'vitest';
import { aGroup, aLiveMonitor, aMonitor, desiredState, liveSnapshot } from '../../test-utils/index.js';
import { draftDeletes } from './deletes.js';
import { draftChanges } from './drafts.js';
import { linkDependencies, orderAndName, selectTargets } from './order.js';
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
});
