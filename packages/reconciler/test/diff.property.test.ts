import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comparable, diffFields, sameAsDeclared } from '../src/plan/diff.js';
import type { PlanChange } from '../src/plan/types.js';
import { canonicalJson, segmentsOf } from '../src/plan/values.js';

const sets = [
  { path: ['ErrorConditions'], key: 'ErrorConditionType' },
  { path: ['Recipients', 'Emails'] },
];

// Values in the shapes the service and YAML produce, with the ambiguities normalization has to absorb.
const scalar = fc.oneof(
  fc.constantFrom('', '4', '200', 'true', 'Error', '2026-01-01T00:00:00', '2026-01-01T00:00:00.000Z'),
  fc.constantFrom(4, 200, 0),
  fc.boolean(),
  fc.constant(null),
);
const condition = fc.record(
  { ErrorConditionType: fc.constantFrom('HttpStatus', 'LoadTimeLimit1', 'TotalMaxBytes'), Value: scalar, Effect: fc.constantFrom('Error', 'Indicate') },
  { requiredKeys: ['ErrorConditionType'] },
);
const objectWith = (conditions: fc.Arbitrary<unknown[]>) =>
  fc.record(
  {
    Name: fc.constantFrom('a', 'b'),
    IsActive: scalar,
    Threshold: scalar,
    ErrorConditions: conditions,
    Tags: fc.array(fc.constantFrom('x', 'y'), { maxLength: 2 }),
    Recipients: fc.record({ Emails: fc.array(fc.constantFrom('a@x', 'b@x'), { maxLength: 2 }), Other: scalar }, { requiredKeys: [] }),
  },
  { requiredKeys: [] },
);
const object = objectWith(fc.array(condition, { maxLength: 3 }));
/** As the schema guarantees: at most one error condition per type. */
const validObject = objectWith(fc.uniqueArray(condition, { maxLength: 3, selector: (c) => c.ErrorConditionType }));

/** The comparable live form with the changes made to it: each sets or removes the value at its path. */
function applied(live: Record<string, unknown>, changes: readonly PlanChange[]): unknown {
  const out = structuredClone(live);
  for (const change of changes) {
    const segments = segmentsOf(change.path);
    let parent: Record<string, unknown> = out;
    for (const segment of segments.slice(0, -1)) parent = (parent[segment] ??= {}) as Record<string, unknown>;
    const last = segments.at(-1) as string;
    if (change.op === 'remove') delete parent[last];
    else parent[last] = change.after;
  }
  return out;
}

describe('field comparison', () => {
  it('lists changes that turn the live value into the declared one, each path once, in path order', () => {
    fc.assert(
      fc.property(object, object, (desired, live) => {
        const changes = diffFields(desired, live, sets);
        const { desired: d, live: l } = comparable(desired, live, sets);
        expect(canonicalJson(applied(l, changes))).toBe(canonicalJson(d));
        const paths = changes.map((c) => c.path);
        expect(paths).toEqual([...new Set(paths)].sort());
      }),
      { numRuns: 500 },
    );
  });

  it('proves equality quickly only when the full comparison finds no change', () => {
    fc.assert(
      fc.property(object, object, (desired, live) => {
        const full = diffFields(desired, live, sets);
        const { desired: d, live: l } = comparable(desired, live, sets);
        // The full comparison lists no change exactly when the comparable forms are equal...
        expect(full.length === 0).toBe(canonicalJson(d) === canonicalJson(l));
        // ...and the fast path never claims equality the full comparison would deny.
        if (sameAsDeclared(desired, live, sets)) expect(full).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('finds a valid object equal to itself on the fast path, and any object equal to itself in full', () => {
    fc.assert(
      fc.property(object, (value) => {
        expect(diffFields(value, structuredClone(value), sets)).toEqual([]);
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(validObject, (value) => {
        expect(sameAsDeclared(value, structuredClone(value), sets)).toBe(true);
        expect(diffFields(value, structuredClone(value), sets)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
