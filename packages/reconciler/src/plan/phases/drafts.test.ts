import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fingerprintDesiredSecrets } from '../fingerprint.js';
import { aLiveMonitor, aMonitor, anItem, aSection, aLiveItem, aLiveSection, CANARY, desiredState, FINGERPRINT_KEY, guidFor, liveSnapshot, OTHER_OPERATOR, secret, SELF_OPERATOR } from '../../test-utils/index.js';
import { draftChanges, type DraftOptions } from './drafts.js';
import type { KindState } from './state.js';
import { matched } from '../../test-utils/index.js';

describe('drafts phase', () => {
  it('drafts a create, an update of the declared fields only, and counts the unchanged', () => {
    const desired = desiredState({ manage: { monitors: { prune: false } }, monitors: [aMonitor({ Name: 'new' }), aMonitor({ Name: 'same' }), aMonitor({ Name: 'off', IsActive: false })] });
    const live = liveSnapshot({ monitors: [aLiveMonitor({ Name: 'same' }), aLiveMonitor({ Name: 'off', LastModifiedByOperatorId: OTHER_OPERATOR })] });
    const { states, resolution } = matched(desired, live);
    const { drafts, unchanged, problems } = draftChanges(states, resolution, { operators: live.operators, selfOperatorGuid: SELF_OPERATOR });
    expect(problems).toEqual([]);
    expect(unchanged).toBe(1);
    expect(drafts.map((d) => [d.step.action, d.step.key])).toEqual([['create', 'new'], ['update', 'off']]);
    expect(drafts[1]?.step.changes).toEqual([{ op: 'replace', path: '/IsActive', before: true, after: false }]);
    expect(drafts[1]?.step.drift?.lastModifiedByOperatorId).toBe(OTHER_OPERATOR);
  });

  it('labels no change as made outside git while the API account\'s operator is unknown: it could be its own', () => {
    const desired = desiredState({ manage: { monitors: { prune: false } }, monitors: [aMonitor({ Name: 'off', IsActive: false })] });
    const live = liveSnapshot({ monitors: [aLiveMonitor({ Name: 'off', LastModifiedByOperatorId: OTHER_OPERATOR })] });
    const { states, resolution } = matched(desired, live);
    const { drafts } = draftChanges(states, resolution, { operators: live.operators });
    expect(drafts.map((d) => [d.step.action, d.step.key, d.step.drift])).toEqual([['update', 'off', undefined]]);
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

  it('warns of a declared read-only field, and still compares the secret it holds by its fingerprint', () => {
    for (const variables of [[], [{ Key: 'login', Value: { vault: 'Web/shop-login' } }]]) {
      const desired = desiredState({
        manage: { monitors: { prune: false } },
        monitors: [aMonitor({ CreatedDate: secret(CANARY), PredefinedVariables: variables })],
        vaultSections: [aSection({}, [anItem()])],
      });
      const live = variables.map(() => ({ Key: 'login', Value: `{{vault:${guidFor('vaultItem', 'Web/shop-login')}}}` }));
      const { states, resolution } = matched(desired, liveSnapshot({ monitors: [aLiveMonitor({ PredefinedVariables: live })], vaultSections: [aLiveSection()], vaultItems: [aLiveItem('Web')] }));
      const { drafts, warnings } = draftChanges(states, resolution, { fingerprints: fingerprintDesiredSecrets(desired, FINGERPRINT_KEY), operators: null });
      expect(warnings.map((w) => w.code)).toEqual(['READ_ONLY_FIELD']);
      expect(drafts.map((d) => [d.step.action, d.step.reason])).toEqual([['update', 'no fingerprint marker']]);
      expect(JSON.stringify(drafts.map((d) => d.step))).not.toContain(CANARY);
    }
  });

  describe("a monitor's variables, compared without resolving its vault references first", () => {
    const itemA = guidFor('vaultItem', 'Web/a');
    const itemB = guidFor('vaultItem', 'Web/b');
    /** As `resolve` writes them: the live item's GUID, or a placeholder for Web/c, which the plan creates. */
    const resolvedText: Record<string, string> = { 'Web/a': `{{vault:${itemA}}}`, 'Web/b': `{{vault:${itemB}}}`, 'Web/c': '{{vault:Web/c}}' };

    function drafted(declared: Record<string, unknown>, live: Record<string, unknown>, withResolvedSame = true) {
      const desired = desiredState({
        manage: { monitors: { prune: false } },
        monitors: [aMonitor(declared)],
        vaultSections: [aSection({}, [anItem({ Name: 'a' }), anItem({ Name: 'b' }), anItem({ Name: 'c' })])],
      });
      const snapshot = liveSnapshot({ monitors: [aLiveMonitor(live)], vaultSections: [aLiveSection()], vaultItems: [aLiveItem('Web', { Name: 'a' }), aLiveItem('Web', { Name: 'b' })] });
      const { states, resolution } = matched(desired, snapshot);
      // The same drafting with the kind's shortcut taken away: every pair is resolved and compared in full.
      const full = (state: KindState): KindState => {
        const { resolvedSame: _taken, ...mod } = state.mod;
        return { ...state, mod };
      };
      const options: DraftOptions = { fingerprints: fingerprintDesiredSecrets(desired, FINGERPRINT_KEY), operators: null };
      return draftChanges(withResolvedSame ? states : states.map(full), resolution, options);
    }

    const changesOf = (declared: Record<string, unknown>, live: Record<string, unknown>) => {
      const result = drafted(declared, live);
      expect(result).toEqual(drafted(declared, live, false));
      return result.drafts.map((d) => [d.step.action, d.step.changes]);
    };

    it('finds the live GUID text of a declared reference unchanged, and a different item, key or value changed', () => {
      const login = (value: unknown, more: Record<string, unknown> = {}) => ({ PredefinedVariables: [{ Key: 'login', Value: value, ...more }] });
      expect(changesOf(login({ vault: 'Web/a' }), login(resolvedText['Web/a']))).toEqual([]);
      expect(changesOf(login({ vault: 'Web/a' }), login(resolvedText['Web/b']))).toEqual([
        ['update', [{ op: 'replace', path: '/PredefinedVariables/login/Value', before: resolvedText['Web/b'], after: resolvedText['Web/a'] }]],
      ]);
      expect(changesOf(login({ vault: 'Web/a' }), login(`${resolvedText['Web/a']} `))).toHaveLength(1);
      expect(changesOf(login({ vault: 'Web/a' }), login(`{{vault:${itemA.toUpperCase()}}}`))).toHaveLength(1);
      expect(changesOf(login({ vault: 'Web/a' }), { PredefinedVariables: [{ Key: 'user', Value: resolvedText['Web/a'] }] })).toHaveLength(1);
      expect(changesOf(login({ vault: 'Web/a' }, { Sensitive: true }), login(resolvedText['Web/a'], { Sensitive: false }))).toHaveLength(1);
      expect(changesOf({ ...login({ vault: 'Web/a' }), Url: 'https://b.example.com/' }, { ...login(resolvedText['Web/a']), Url: 'https://a.example.com/' })).toHaveLength(1);
    });

    it('pairs reordered or repeated variables by key, and never takes a secret value for the live one', () => {
      const both = [
        { Key: 'login', Value: { vault: 'Web/a' } },
        { Key: 'path', Value: '/shop' },
      ];
      expect(changesOf({ PredefinedVariables: both }, { PredefinedVariables: [{ Key: 'path', Value: '/shop' }, { Key: 'login', Value: resolvedText['Web/a'] }] })).toEqual([]);
      const twice = [{ Key: 'login', Value: { vault: 'Web/a' } }, { Key: 'login', Value: { vault: 'Web/a' } }];
      // A repeated key is compared as the full comparison compares it (as a list sorted by content): the same here.
      expect(changesOf({ PredefinedVariables: twice }, { PredefinedVariables: twice.map(() => ({ Key: 'login', Value: resolvedText['Web/a'] })) })).toEqual([]);
      expect(changesOf({ PredefinedVariables: twice }, { PredefinedVariables: [{ Key: 'login', Value: resolvedText['Web/a'] }, { Key: 'login', Value: resolvedText['Web/b'] }] })).toHaveLength(1);
      const result = drafted({ PredefinedVariables: [{ Key: 'apiKey', Value: secret(CANARY) }] }, { PredefinedVariables: [{ Key: 'apiKey', Value: CANARY }] });
      expect(result.drafts.map((d) => d.step.reason)).toEqual(['no fingerprint marker']);
      expect(JSON.stringify(result.drafts.map((d) => d.step))).not.toContain(CANARY);
    });

    it('drafts exactly what resolving every declaration first drafts, for any variables declared and live', () => {
      const key = fc.constantFrom('login', 'path', 'token');
      const declaredValue = fc.oneof(fc.constantFrom({ vault: 'Web/a' }, { vault: 'Web/b' }, { vault: 'Web/c' }), fc.constantFrom('/shop', resolvedText['Web/a'] as string, ''));
      const liveValue = fc.constantFrom(...Object.values(resolvedText), `{{vault:${itemA.toUpperCase()}}}`, '{{vault:Web/a}}', '/shop', '');
      const variable = (value: fc.Arbitrary<unknown>) => fc.record({ Key: key, Value: value, Sensitive: fc.boolean() }, { requiredKeys: ['Key'] });
      /** The live list: unrelated, or the declared one as the service would return it once applied, maybe reordered. */
      const scenario = fc.array(variable(declaredValue), { maxLength: 3 }).chain((declared) => {
        const applied = declared.map((v) => (typeof v.Value === 'object' ? { ...v, Value: resolvedText[(v.Value as { vault: string }).vault] } : v));
        const live = fc.oneof(fc.constant(applied), fc.shuffledSubarray(applied, { minLength: applied.length }), fc.array(variable(liveValue), { maxLength: 3 }), fc.constant(undefined));
        return fc.tuple(fc.option(fc.constant(declared), { nil: undefined }), live);
      });
      fc.assert(
        fc.property(scenario, ([declared, live]) => {
          const result = drafted(declared === undefined ? {} : { PredefinedVariables: declared }, live === undefined ? {} : { PredefinedVariables: live });
          expect(result).toEqual(drafted(declared === undefined ? {} : { PredefinedVariables: declared }, live === undefined ? {} : { PredefinedVariables: live }, false));
        }),
        { numRuns: 300 },
      );
    });
  });
});
