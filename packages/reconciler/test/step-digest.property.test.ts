import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Plan } from '../src/plan/types.js';
import { guidFor, aLiveMonitor, aMonitor, anItem, aLiveItem, aLiveSection, aSection, CANARY, desiredState, liveSnapshot, planFor, secret, OTHER_OPERATOR } from '../src/test-utils/index.js';

const CONDITION_TYPES = ['HttpStatus', 'LoadTimeLimit1', 'TotalMaxBytes'] as const;

interface MonitorSpec {
  name: string;
  url: string;
  timeout: number;
  conditions: { type: string; value: number }[];
}

const monitorSpec = fc.record({
  name: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
  url: fc.constantFrom('https://x.test/', 'https://y.test/'),
  timeout: fc.constantFrom(10, 30, 60),
  conditions: fc.uniqueArray(fc.record({ type: fc.constantFrom(...CONDITION_TYPES), value: fc.constantFrom(1, 200, 500) }), { selector: (c) => c.type, maxLength: 3 }),
});
const specs = fc.uniqueArray(monitorSpec, { selector: (m) => m.name, maxLength: 5 });

function declared(spec: MonitorSpec) {
  return aMonitor({ Name: spec.name, Url: spec.url, Timeout: spec.timeout, ErrorConditions: spec.conditions.map((c) => ({ ErrorConditionType: c.type, Value: c.value })) });
}

function live(spec: MonitorSpec, guid: string, modified: string) {
  return aLiveMonitor({
    Name: spec.name,
    MonitorGuid: guid,
    Url: spec.url,
    Timeout: spec.timeout,
    LastModifiedDate: modified,
    LastModifiedByOperatorId: OTHER_OPERATOR,
    ErrorConditions: spec.conditions.map((c) => ({ ErrorConditionType: c.type, Value: c.value, Effect: 'Error' })),
  });
}

/** Same content, other order: the declarations, the live list, and each set field's elements. */
function shuffled<T>(values: readonly T[], seed: number): T[] {
  const out = [...values];
  let s = seed;
  for (let i = out.length - 1; i > 0; i -= 1) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

function plan(desiredSpecs: readonly MonitorSpec[], liveSpecs: readonly MonitorSpec[], options: { seed?: number; guidSalt?: string; modified?: string } = {}): Plan {
  const seed = options.seed ?? 0;
  const reorder = (spec: MonitorSpec): MonitorSpec => ({ ...spec, conditions: seed === 0 ? spec.conditions : shuffled(spec.conditions, seed + spec.name.charCodeAt(0)) });
  const monitors = (seed === 0 ? desiredSpecs : shuffled(desiredSpecs, seed)).map(reorder).map(declared);
  const lives = (seed === 0 ? liveSpecs : shuffled(liveSpecs, seed * 7)).map(reorder).map((spec) => live(spec, guidFor('monitor', `${options.guidSalt ?? ''}${spec.name}`), options.modified ?? '2026-01-02T00:00:00'));
  return planFor(desiredState({ manage: { monitors: { prune: true } }, monitors }), liveSnapshot({ monitors: lives }));
}

const digests = (p: Plan): Record<string, string> => Object.fromEntries(p.steps.map((s) => [`${s.kind}:${s.key}:${s.action}`, s.digest ?? '']));

describe('step digests: the normalized change a step makes', () => {
  it('do not depend on the order of declarations, of live objects or of set elements', () => {
    fc.assert(
      fc.property(specs, specs, fc.integer({ min: 1, max: 1_000_000 }), (desired, account, seed) => {
        const a = plan(desired, account);
        const b = plan(desired, account, { seed });
        expect(digests(b)).toEqual(digests(a));
        expect(b.planDigest).toBe(a.planDigest);
      }),
      { numRuns: 200 },
    );
  });

  it('do not depend on the GUIDs of the live objects or on when they were last changed', () => {
    fc.assert(
      fc.property(specs, specs, fc.string({ minLength: 1, maxLength: 4 }), (desired, account, salt) => {
        const a = plan(desired, account);
        const b = plan(desired, account, { guidSalt: salt, modified: '2026-06-30T12:34:56' });
        expect(digests(b)).toEqual(digests(a));
        expect(b.planDigest).toBe(a.planDigest);
        // The plans do name other GUIDs: the digests leave them out, not the plans.
        if (b.steps.some((s) => s.guid !== undefined)) expect(JSON.stringify(b.steps.map((s) => s.guid))).not.toBe(JSON.stringify(a.steps.map((s) => s.guid)));
      }),
      { numRuns: 200 },
    );
  });

  it('change for exactly the step whose desired value changes, and the plan digest with it', () => {
    fc.assert(
      fc.property(specs.filter((s) => s.length > 0), specs, fc.nat(), (desired, account, pick) => {
        const index = pick % desired.length;
        const target = desired[index] as MonitorSpec;
        const edited = desired.map((spec, i) => (i === index ? { ...spec, timeout: spec.timeout + 1 } : spec));
        const a = digests(plan(desired, account));
        const b = digests(plan(edited, account));
        for (const [slot, digest] of Object.entries(b)) {
          if (slot.startsWith(`monitor:${target.name}:`)) expect(a[slot]).not.toBe(digest);
          else expect(a[slot]).toBe(digest);
        }
        expect(plan(edited, account).planDigest).not.toBe(plan(desired, account).planDigest);
      }),
      { numRuns: 200 },
    );
  });

  it('do not change with the value a field had live, only with the value written', () => {
    const desired = [{ name: 'a', url: 'https://x.test/', timeout: 60, conditions: [] }];
    const from30 = plan(desired, [{ ...desired[0]!, timeout: 30 }]);
    const from45 = plan(desired, [{ ...desired[0]!, timeout: 45 }]);
    expect(from30.steps[0]?.changes[0]?.before).toBe(30);
    expect(from45.steps[0]?.digest).toBe(from30.steps[0]?.digest);
    // Another field drifting too adds a change: that is another write, and another digest.
    const urlDrift = plan(desired, [{ ...desired[0]!, timeout: 30, url: 'https://y.test/' }]);
    expect(urlDrift.steps[0]?.digest).not.toBe(from30.steps[0]?.digest);
  });

  it('is the same empty-plan digest for every account that matches', () => {
    const spec = { name: 'a', url: 'https://x.test/', timeout: 60, conditions: [] };
    expect(plan([spec], [spec]).planDigest).toBe(plan([], []).planDigest);
  });

  it('carry a secret by its fingerprint: another value is another digest, and the value is in no digest input', () => {
    const vault = (value: string) =>
      planFor(
        desiredState({ manage: { vault: { prune: false } }, vaultSections: [aSection({}, [anItem({ Password: secret(value, 'SHOP_PASSWORD') })])] }),
        liveSnapshot({ vaultSections: [aLiveSection()], vaultItems: [aLiveItem('Web', { Notes: 'no marker' })] }),
      );
    const one = vault(`${CANARY}-one`);
    const two = vault(`${CANARY}-two`);
    expect(one.steps[0]?.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(one.steps[0]?.digest).not.toBe(two.steps[0]?.digest);
    expect(vault(`${CANARY}-one`).steps[0]?.digest).toBe(one.steps[0]?.digest);
    expect(JSON.stringify(one)).not.toContain(CANARY);
  });
});
