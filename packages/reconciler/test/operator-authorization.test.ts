/**
 * An operator's own authorizations (`authorizations:` on an operator): a declared list is authoritative, an operator
 * without one keeps what it holds; `AccountAdministrator` is shown and never planned; a new operator's automatic
 * `AccountAccess` is neither added twice nor left in place when the list leaves it out; and the API account's own
 * operator never loses `AccountAccess` (the lock-out guard), known or not.
 */
import { describe, expect, it } from 'vitest';
import type { DesiredState } from '../src/desired.js';
import type { ApiObject, LiveSnapshot } from '../src/live/types.js';
import { assemblePlan } from '../src/plan/assemble.js';
import { fingerprintDesiredSecrets } from '../src/plan/fingerprint.js';
import { liveScope } from '../src/plan/scope.js';
import type { Plan } from '../src/plan/types.js';
import { FINGERPRINT_KEY, OTHER_OPERATOR, SELF_OPERATOR, anOperator, desiredState, liveSnapshot } from '../src/test-utils/index.js';

const SELF_EMAIL = 'api@example.com';
const OTHER_EMAIL = 'jane@example.com';
const OPERATORS: ApiObject[] = [
  { OperatorGuid: SELF_OPERATOR, Email: SELF_EMAIL, FullName: 'monsync API' },
  { OperatorGuid: OTHER_OPERATOR, Email: OTHER_EMAIL, FullName: 'Jane Doe' },
];

/** The account: both operators, with the authorization types listed per operator GUID (as the service lists them: names). */
function account(held: Record<string, string[]>): LiveSnapshot {
  const live = liveSnapshot({ operators: OPERATORS });
  live.lists.operator = OPERATORS;
  live.perParent.operatorAuthorization = Object.fromEntries(Object.entries(held).map(([guid, types]) => [guid, types.map((type) => ({ AuthorizationType: type }))]));
  return live;
}

function tree(operators: Record<string, unknown>[], extra: Partial<Parameters<typeof desiredState>[0]> = {}): DesiredState {
  return desiredState({ manage: { operators: { prune: false } }, operators: operators.map((o) => anOperator(o)), ...extra });
}

function plan(desired: DesiredState, live: LiveSnapshot, self: string[] = [SELF_OPERATOR]): Plan {
  return assemblePlan(desired, live, { fingerprints: fingerprintDesiredSecrets(desired, FINGERPRINT_KEY), selfOperatorGuids: self });
}

const steps = (p: Plan) => p.steps.map((s) => `${s.action} ${s.kind} ${s.key}`);
const kept = (p: Plan) => p.warnings.filter((w) => w.code === 'ACCESS_KEPT').map((w) => `${w.key}: ${w.message}`);

describe("an operator's declared authorizations", () => {
  it('adds what the list names and removes what it leaves out, one type per step', () => {
    const result = plan(tree([{ Email: OTHER_EMAIL, authorizations: ['AccountAccess', 'AllowInfra', 'FinancialOperator'] }]), account({ [OTHER_OPERATOR]: ['AccountAccess', 'TechnicalContact', 'FinancialOperator'] }));
    expect(steps(result)).toEqual([
      `create operatorAuthorization ${OTHER_EMAIL}/AllowInfra`,
      `delete operatorAuthorization ${OTHER_EMAIL}/TechnicalContact`,
    ]);
    expect(result.steps[0]?.desired).toEqual({ AuthorizationType: 'AllowInfra', OperatorGuid: OTHER_OPERATOR });
    expect(result.steps[1]?.guid).toBe(`${OTHER_OPERATOR}/TechnicalContact`);
  });

  it('plans nothing when the list is what the operator holds, in any order', () => {
    const result = plan(tree([{ Email: OTHER_EMAIL, authorizations: ['FinancialOperator', 'AccountAccess'] }]), account({ [OTHER_OPERATOR]: ['AccountAccess', 'FinancialOperator'] }));
    expect(steps(result)).toEqual([]);
  });

  it('leaves an operator without `authorizations:` as it is, whatever it holds', () => {
    const result = plan(tree([{ Email: OTHER_EMAIL }]), account({ [OTHER_OPERATOR]: ['TechnicalContact'] }));
    expect(steps(result)).toEqual([]);
  });

  it('shows AccountAdministrator and never plans it away: the service gives it to administrators only', () => {
    const result = plan(tree([{ Email: OTHER_EMAIL, authorizations: ['AccountAccess'] }]), account({ [OTHER_OPERATOR]: ['AccountAdministrator', 'AccountAccess', 'AllowInfra'] }));
    expect(steps(result)).toEqual([`delete operatorAuthorization ${OTHER_EMAIL}/AllowInfra`]);
    expect(result.unmanaged.filter((u) => u.kind === 'operatorAuthorization')).toEqual([]);
  });

  it('takes AccountAccess away from an operator who is not the API account\'s when the list leaves it out', () => {
    const result = plan(tree([{ Email: OTHER_EMAIL, authorizations: ['TechnicalContact'] }]), account({ [OTHER_OPERATOR]: ['AccountAccess', 'TechnicalContact'] }));
    expect(steps(result)).toEqual([`delete operatorAuthorization ${OTHER_EMAIL}/AccountAccess`]);
    expect(kept(result)).toEqual([]);
  });
});

describe("a new operator's AccountAccess, which the service gives it", () => {
  it('is not added again when the list declares it: only the other types are', () => {
    const result = plan(tree([{ Email: 'new@example.com', authorizations: ['AccountAccess', 'AllowInfra'] }]), account({}));
    expect(steps(result)).toEqual(['create operator new@example.com', 'create operatorAuthorization new@example.com/AllowInfra']);
    expect(result.steps[1]?.dependsOn).toEqual(['operator:new@example.com']);
  });

  it('is removed right after the create when the list leaves it out, waiting for the create', () => {
    const result = plan(tree([{ Email: 'new@example.com', authorizations: ['TechnicalContact'] }]), account({}));
    expect(steps(result)).toEqual([
      'create operator new@example.com',
      'create operatorAuthorization new@example.com/TechnicalContact',
      'delete operatorAuthorization new@example.com/AccountAccess',
    ]);
    const removal = result.steps[2];
    expect(removal?.guid).toBe('{{operator:new@example.com}}/AccountAccess');
    expect(removal?.dependsOn).toEqual(['operator:new@example.com']);
    expect(removal?.reason).toBe('the service gives every new operator AccountAccess, and its `authorizations:` leave it out: taken away once the operator is created');
  });

  it('is left alone when the new operator declares no list', () => {
    expect(steps(plan(tree([{ Email: 'new@example.com' }]), account({})))).toEqual(['create operator new@example.com']);
  });
});

describe("the API account's own operator's authorizations (no self lock-out)", () => {
  it('never removes its AccountAccess, and says why', () => {
    const result = plan(tree([{ Email: SELF_EMAIL, authorizations: ['AllowInfra'] }]), account({ [SELF_OPERATOR]: ['AccountAccess', 'AllowInfra', 'ShareDashboards'] }));
    expect(steps(result)).toEqual([`delete operatorAuthorization ${SELF_EMAIL}/ShareDashboards`]);
    expect(kept(result)).toEqual([
      `${SELF_EMAIL}/AccountAccess: operator authorization "${SELF_EMAIL}/AccountAccess" is kept although the config does not declare it: it is the API account's own operator, which needs \`AccountAccess\` to see the monitors, groups and settings it manages, so removing it would lock monsync out; if it is really meant, remove it in the web application signed in as another administrator`,
    ]);
  });

  it('keeps every operator\'s AccountAccess when monsync cannot tell which operator is its own, and says how to tell it', () => {
    const result = plan(
      tree([
        { Email: SELF_EMAIL, authorizations: [] },
        { Email: OTHER_EMAIL, authorizations: [] },
      ]),
      account({ [SELF_OPERATOR]: ['AccountAccess'], [OTHER_OPERATOR]: ['AccountAccess', 'AllowInfra'] }),
      [],
    );
    expect(steps(result)).toEqual([`delete operatorAuthorization ${OTHER_EMAIL}/AllowInfra`]);
    expect(kept(result)).toEqual([
      expect.stringMatching(new RegExp(`^${SELF_EMAIL}/AccountAccess: .*monsync cannot tell which operator the API account acts for, and this may be its own \`AccountAccess\`.*apiOperator:`)),
      expect.stringMatching(new RegExp(`^${OTHER_EMAIL}/AccountAccess: .*monsync cannot tell which operator`)),
    ]);
    expect(result.warnings[0]?.code).toBe('API_OPERATOR_UNKNOWN');
  });

  it('keeps its CreateAlertDefinition too when the tree manages alert definitions and the operator is no administrator', () => {
    const desired = tree([{ Email: SELF_EMAIL, authorizations: ['AccountAccess'] }], { manage: { operators: { prune: false }, alertDefinitions: { prune: false } } });
    const held = ['AccountAccess', 'CreateAlertDefinition'];
    expect(kept(plan(desired, account({ [SELF_OPERATOR]: held })))).toEqual([expect.stringContaining('needs `CreateAlertDefinition` to create the alert definitions the tree declares')]);
    // An administrator may do everything: the right is its own to give up.
    expect(steps(plan(desired, account({ [SELF_OPERATOR]: ['AccountAdministrator', ...held] })))).toEqual([`delete operatorAuthorization ${SELF_EMAIL}/CreateAlertDefinition`]);
  });

  it('removes what it does not need from its own operator, and a new operator is never taken for its own', () => {
    const result = plan(tree([{ Email: 'new@example.com', authorizations: [] }]), account({}), []);
    expect(steps(result)).toEqual(['create operator new@example.com', 'delete operatorAuthorization new@example.com/AccountAccess']);
    expect(kept(result)).toEqual([]);
  });
});

describe('reading them', () => {
  it('lists them only under the operators whose list the tree declares, by Email or pinned GUID', () => {
    const scope = liveScope(tree([{ Email: 'Sam@Example.com', authorizations: ['AllowInfra'] }, { Email: OTHER_EMAIL }, { Email: 'kim@example.com', OperatorGuid: 'ABC-1', authorizations: [] }]));
    expect(scope.kinds).toContain('operatorAuthorization');
    expect(scope.parents?.operatorAuthorization).toEqual(['sam@example.com', 'kim@example.com', 'abc-1']);
  });

  it('does not list them at all when no operator declares a list', () => {
    expect(liveScope(tree([{ Email: OTHER_EMAIL }])).kinds).not.toContain('operatorAuthorization');
  });
});
