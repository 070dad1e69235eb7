import { describe, expect, it } from 'vitest';
import { fingerprintDesiredSecrets } from '../fingerprint.js';
import { aLiveMonitor, aMonitor, anItem, aSection, aLiveItem, aLiveSection, CANARY, desiredState, FINGERPRINT_KEY, liveSnapshot, OTHER_OPERATOR, secret } from '../../test-utils/index.js';
import { draftChanges } from './drafts.js';
import { matched } from '../../test-utils/index.js';

describe('drafts phase', () => {
  it('drafts a create, an update of the declared fields only, and counts the unchanged', () => {
    const desired = desiredState({ manage: { monitors: { prune: false } }, monitors: [aMonitor({ Name: 'new' }), aMonitor({ Name: 'same' }), aMonitor({ Name: 'off', IsActive: false })] });
    const live = liveSnapshot({ monitors: [aLiveMonitor({ Name: 'same' }), aLiveMonitor({ Name: 'off', LastModifiedByOperatorId: OTHER_OPERATOR })] });
    const { states, resolution } = matched(desired, live);
    const { drafts, unchanged, problems } = draftChanges(states, resolution, { operators: live.operators });
    expect(problems).toEqual([]);
    expect(unchanged).toBe(1);
    expect(drafts.map((d) => [d.step.action, d.step.key])).toEqual([['create', 'new'], ['update', 'off']]);
    expect(drafts[1]?.step.changes).toEqual([{ op: 'replace', path: '/IsActive', before: true, after: false }]);
    expect(drafts[1]?.step.drift?.lastModifiedByOperatorId).toBe(OTHER_OPERATOR);
  });

  it('compares a secret by its fingerprint marker and never puts the value in the draft', () => {
    const desired = desiredState({ manage: { vault: { prune: false } }, vaultSections: [aSection({ Name: 'Web' }, [anItem({ Name: 'otp', VaultItemType: 'OneTimePassword', Value: secret(CANARY) })])] });
    const { states, resolution } = matched(desired, liveSnapshot({ vaultSections: [aLiveSection()], vaultItems: [aLiveItem('Web', { Name: 'otp', VaultItemType: 'OneTimePassword' })] }));
    const { drafts } = draftChanges(states, resolution, { fingerprints: fingerprintDesiredSecrets(desired, FINGERPRINT_KEY), operators: null });
    expect(drafts.map((d) => d.step.reason)).toEqual(['no fingerprint marker']);
    expect(JSON.stringify(drafts.map((d) => d.step))).not.toContain(CANARY);
  });

  it('returns a missing fingerprint as a problem, not a throw', () => {
    const desired = desiredState({ manage: { vault: { prune: false } }, vaultSections: [aSection({ Name: 'Web' }, [anItem({ Name: 'otp', VaultItemType: 'OneTimePassword', Value: secret(CANARY) })])] });
    const { states, resolution } = matched(desired, liveSnapshot({ vaultSections: [aLiveSection()] }));
    expect(draftChanges(states, resolution, { operators: null }).problems.map((p) => p.code)).toEqual(['MISSING_FINGERPRINT']);
  });
});
