import { describe, expect, it } from 'vitest';
import { aLiveItem, aLiveSection, aMonitor, desiredState, liveSnapshot } from '../../test-utils/index.js';
import { draftDeletes } from './deletes.js';
import { referencesToDeleted, unresolvedReferences } from './references.js';
import { matched } from '../../test-utils/index.js';

const usesLogin = aMonitor({ PredefinedVariables: [{ Key: 'login', Value: { vault: 'Web/login' } }] });

describe('references phase', () => {
  it('finds a reference to an object neither declared nor live', () => {
    const desired = desiredState({ manage: { monitors: { prune: false }, vault: { prune: false } }, monitors: [usesLogin] });
    const { states, resolution } = matched(desired, liveSnapshot({ vaultSections: [aLiveSection()] }));
    expect(unresolvedReferences(states, resolution).map((p) => p.code)).toEqual(['UNRESOLVED_REFERENCE']);
  });

  it('accepts a reference to a live object, and finds one to an object the plan deletes', () => {
    const desired = desiredState({ manage: { monitors: { prune: false }, vault: { prune: true } }, monitors: [usesLogin] });
    const { states, resolution } = matched(desired, liveSnapshot({ vaultSections: [aLiveSection()], vaultItems: [aLiveItem('Web', { Name: 'login' })] }));
    expect(unresolvedReferences(states, resolution)).toEqual([]);
    const { deleted } = draftDeletes(states);
    expect(referencesToDeleted(states, resolution, deleted).map((p) => p.code)).toContain('REFERENCE_TO_DELETED');
  });
});
