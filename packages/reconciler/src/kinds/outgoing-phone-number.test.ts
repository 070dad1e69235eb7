import { describe, expect, it } from 'vitest';
import type { LiveSnapshot } from '../live/types.js';
import { PlanError } from '../plan/errors.js';
import { liveScope } from '../plan/scope.js';
import { pulledTree } from '../pull/pull-tree.js';
import { anOperator, desiredState, liveSnapshot, planFor } from '../test-utils/index.js';

const NUMBERS = [
  { Id: 1, PhoneNumber: '+31201234567', Description: 'Amsterdam' },
  { Id: 2, PhoneNumber: '+12025550123', Description: 'Washington' },
  { Id: 3, PhoneNumber: '+12025550199', Description: 'Washington' },
];
const SAM_GUID = '0f6d1f0e-0000-4000-8000-00000000a001';
const PEOPLE = { operators: { prune: false } };

function live(operators: Record<string, unknown>[] = []): LiveSnapshot {
  const base = liveSnapshot();
  return { ...base, lists: { ...base.lists, operator: operators }, outgoingPhoneNumbers: NUMBERS };
}

function withPhone(name: string) {
  const sam = anOperator({ Email: 'sam@example.com', outgoingPhoneNumber: name });
  return desiredState({ manage: PEOPLE, operators: [{ ...sam, fieldSources: { outgoingPhoneNumber: { file: 'people.yaml', line: 4, column: 26 } } }] });
}

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof PlanError) return error.problems.map((p) => `${p.file}:${p.line}:${p.col} ${p.code} ${p.message}`);
    throw error;
  }
  return [];
}

describe("an operator's outgoing phone number by name", () => {
  it('sends the id of the number named, written with spaces and dashes or by its description', () => {
    for (const name of ['+31 20-123 4567', 'amsterdam ']) {
      const plan = planFor(withPhone(name), live());
      expect(plan.steps[0]?.desired).toMatchObject({ Email: 'sam@example.com', OutgoingPhoneNumberId: 1 });
      expect(plan.steps[0]?.desired).not.toHaveProperty('outgoingPhoneNumber');
    }
  });

  it('plans nothing when the live operator already sends from that number', () => {
    const plan = planFor(withPhone('+31201234567'), live([{ OperatorGuid: SAM_GUID, Email: 'sam@example.com', OutgoingPhoneNumberId: 1 }]));
    expect(plan.steps).toEqual([]);
  });

  it('refuses a name that matches no number, or several, at the field, listing the numbers', () => {
    expect(problemsOf(() => planFor(withPhone('+31 99 000'), live()))).toEqual([
      'people.yaml:4:26 UNRESOLVED_REFERENCE operator `sam@example.com`: outgoingPhoneNumber "+31 99 000" names no outgoing phone number of the account (the account\'s numbers: +31201234567 (Amsterdam) = 1, +12025550123 (Washington) = 2, +12025550199 (Washington) = 3)',
    ]);
    expect(problemsOf(() => planFor(withPhone('Washington'), live()))).toEqual([
      'people.yaml:4:26 UNRESOLVED_REFERENCE operator `sam@example.com`: outgoingPhoneNumber "Washington" names 2 outgoing phone numbers; write the PhoneNumber, or OutgoingPhoneNumberId (+12025550123 (Washington) = 2, +12025550199 (Washington) = 3)',
    ]);
  });

  it('reads the numbers only when a managed operator names one', () => {
    expect(liveScope(withPhone('Amsterdam')).outgoingPhoneNumbers).toBe(true);
    expect(liveScope(desiredState({ manage: PEOPLE, operators: [anOperator({ OutgoingPhoneNumberId: 1 })] })).outgoingPhoneNumbers).toBeUndefined();
    const { outgoingPhoneNumbers: _unread, ...unread } = live();
    expect(problemsOf(() => planFor(withPhone('Amsterdam'), unread))[0]).toContain('LIVE_NOT_READ');
  });

  it('is pulled by its number where the id names one, and as the id otherwise', () => {
    const operators = [
      { OperatorGuid: SAM_GUID, Email: 'sam@example.com', OutgoingPhoneNumberId: 1 },
      { OperatorGuid: 'f0000000-0000-4000-8000-00000000a002', Email: 'kim@example.com', OutgoingPhoneNumberId: 9 },
    ];
    const tree = pulledTree(live(operators));
    const text = tree.files.find((f) => f.path === 'operators.yaml')?.content ?? '';
    expect(text).toContain('outgoingPhoneNumber: "+31201234567"');
    expect(text).toContain('OutgoingPhoneNumberId: 9');
    expect(text).not.toContain('OutgoingPhoneNumberId: 1');
  });
});
