/**
 * Operators, operator groups (members, authorizations) and vault access against the emulator: each kind created,
 * updated and deleted, and a second plan empty. Run under every profile (`MONSYNC_EMULATOR_PROFILE`), including
 * `published`, where write-only operator settings are not returned and authorizations are listed by type name.
 */
import { SEEDED } from '@monsync/emulator';
import { describe, expect, it } from 'vitest';
import type { DesiredState } from '../../src/desired.js';
import { readLiveAgainOnUnclear } from '../../src/apply/read-live-again.js';
import { liveScope } from '../../src/plan/scope.js';
import type { Plan } from '../../src/plan/types.js';
import { aSection, anOperator, anOperatorGroup, desiredState, planFor, secret } from '../../src/test-utils/index.js';
import { applyWith, describeSteps, type Harness, useEmulatorHarness, writeRequests } from './harness.js';

let h: Harness;
useEmulatorHarness((harness) => (h = harness));

const CANARY = 'canary-operator-password-7f3a';
const ADMIN = SEEDED.admin;

async function plan(desired: DesiredState, options: { rotate?: string[] } = {}): Promise<Plan> {
  return planFor(desired, await readLiveAgainOnUnclear(h.client, liveScope(desired)), { selfOperatorGuid: ADMIN.guid, ...options });
}

async function converge(desired: DesiredState): Promise<Plan> {
  const first = await plan(desired);
  const report = await applyWith(h, first, desired);
  expect(report.failed).toEqual([]);
  return first;
}

const PEOPLE = { operators: { prune: false }, operatorGroups: { prune: false }, vault: { prune: false } };

function team(extra: { operators?: Record<string, unknown>[]; groups?: Record<string, unknown>[]; access?: Record<string, unknown>[] } = {}): DesiredState {
  return desiredState({
    manage: PEOPLE,
    safety: { maxDeletePercent: 100, maxUpdatePercent: 100 },
    operators: [
      anOperator({ Email: ADMIN.email }),
      anOperator({ Email: 'sam@example.com', FullName: 'Sam', Password: secret(CANARY, 'SAM_PASSWORD'), CultureName: 'en-GB', AllowNativeLogin: true, TimeZoneId: 3 }),
      ...(extra.operators ?? []).map((o) => anOperator(o)),
    ],
    operatorGroups: [
      anOperatorGroup({ Description: 'On call', members: ['sam@example.com'], authorizations: ['AllowInfra'] }),
      anOperatorGroup({ Description: 'Administrators', members: [ADMIN.email] }),
      ...(extra.groups ?? []).map((g) => anOperatorGroup(g)),
    ],
    vaultSections: [aSection({ Name: 'Web', ...(extra.access === undefined ? {} : { access: extra.access }) })],
  });
}

/** The operator as the emulator stores it (with what GET does not show). */
function storedOperator(email: string): Record<string, unknown> | undefined {
  return h.emulator.control.dump().operators.find((o) => o['Email'] === email);
}

async function operatorNamed(email: string): Promise<Record<string, unknown> | undefined> {
  return (await h.client.operators.list().toArray()).find((o) => o.Email === email);
}

async function groupNamed(description: string): Promise<string> {
  return String((await h.client.operatorGroups.list().toArray()).find((g) => g.Description === description)?.OperatorGroupGuid);
}

describe('people as code, against the emulator', () => {
  it('creates operators, a group with members and authorizations, and vault access in one apply; the next plan is empty', async () => {
    const desired = team({ access: [{ group: 'On call', level: 'change' }, { operator: 'sam@example.com', level: 'view' }] });
    const first = await converge(desired);
    expect(describeSteps(first)).toEqual([
      'create operator:sam@example.com',
      'create operatorGroup:On call',
      'create operatorGroupMember:On call/sam@example.com',
      'create operatorGroupAuthorization:On call/AllowInfra',
      'create vaultSection:Web',
      'create vaultAccess:Web/group:On call',
      'create vaultAccess:Web/operator:sam@example.com',
    ]);
    const sam = await operatorNamed('sam@example.com');
    expect(sam).toMatchObject({ FullName: 'Sam', TimeZoneId: 3 });
    const group = await groupNamed('On call');
    expect((await h.client.operatorGroups.members(group).toArray()).map((m) => m.OperatorGuid)).toEqual([sam?.OperatorGuid]);
    expect((await h.client.operatorGroups.authorizations.list(group).toArray()).map((a) => a.AuthorizationType)).toEqual(['AllowInfra']);
    expect(describeSteps(await plan(desired))).toEqual([]);
  });

  it('sends the ...Specified companion of every declared setting, and never the password in a plan', async () => {
    const desired = team();
    const first = await plan(desired);
    expect(JSON.stringify(first)).not.toContain(CANARY);
    expect((await applyWith(h, first, desired)).failed).toEqual([]);
    // The published service applies these settings only with their companion: stored means it was sent.
    expect(storedOperator('sam@example.com')).toMatchObject({ CultureName: 'en-GB', AllowNativeLogin: true, TimeZoneId: 3, Password: CANARY });
    expect(describeSteps(await plan(desired))).toEqual([]);
  });

  it('updates what the service returns, never plans write-only settings again, and resends them with --rotate', async () => {
    await converge(team());
    const changed = team();
    const sam = changed.operators?.[1];
    if (sam === undefined) throw new Error('no sam');
    sam.value = { ...sam.value, FullName: 'Sam Ops', CultureName: 'de-DE' };
    expect((await plan(changed)).steps.map((s) => [s.id, s.changes.map((c) => c.path)])).toEqual([['operator:sam@example.com', ['/FullName']]]);
    const rotated = await plan(changed, { rotate: ['operator:SAM@example.com'] });
    expect(rotated.steps[0]?.reason).toBe('rotation (--rotate)');
    expect(rotated.steps[0]?.changes).toContainEqual({ op: 'replace', path: '/Password', before: '(sensitive)', after: '(sensitive)', sensitive: true });
    expect(JSON.stringify(rotated)).not.toContain(CANARY);
    h.emulator.control.clearLog();
    expect((await applyWith(h, rotated, changed)).failed).toEqual([]);
    expect(writeRequests(h).map((e) => e.route)).toEqual(['PUT /Operator/{operatorGuid}']);
    expect(storedOperator('sam@example.com')).toMatchObject({ FullName: 'Sam Ops', CultureName: 'de-DE', Password: CANARY });
    expect(describeSteps(await plan(changed))).toEqual([]);
  });

  it('removes members, authorizations and access the config no longer lists, and deletes pruned operators and groups', async () => {
    await converge(team({ operators: [{ Email: 'kim@example.com' }], groups: [{ Description: 'Night', members: ['kim@example.com'] }], access: [{ group: 'On call', level: 'change' }] }));
    const smaller = desiredState({
      manage: { operators: { prune: true }, operatorGroups: { prune: true }, vault: { prune: false } },
      safety: { maxDeletePercent: 100, maxUpdatePercent: 100 },
      operators: [anOperator({ Email: ADMIN.email }), anOperator({ Email: SEEDED.viewer.email }), anOperator({ Email: 'sam@example.com', FullName: 'Sam' })],
      operatorGroups: [anOperatorGroup({ Description: 'On call', members: [], authorizations: [] }), anOperatorGroup({ Description: 'Administrators', members: [ADMIN.email] })],
      vaultSections: [aSection({ Name: 'Web', access: [{ group: 'On call', level: 'view' }] })],
    });
    const second = await converge(smaller);
    expect(describeSteps(second)).toEqual([
      'update vaultAccess:Web/group:On call',
      'delete operatorGroupAuthorization:On call/AllowInfra',
      'delete operatorGroupMember:On call/sam@example.com',
      'delete operatorGroup:Night',
      'delete operator:kim@example.com',
    ]);
    expect(await operatorNamed('kim@example.com')).toBeUndefined();
    expect((await h.client.operatorGroups.list().toArray()).map((g) => g.Description).sort()).toEqual(['Administrators', 'Everyone', 'On call']);
    expect(describeSteps(await plan(smaller))).toEqual([]);
  });

  it('takes every access away but the API account\'s own when a section declares an empty access list', async () => {
    await converge(team({ access: [{ group: 'On call', level: 'change' }, { operator: 'sam@example.com', level: 'view' }] }));
    const emptied = team({ access: [] });
    const second = await converge(emptied);
    expect(describeSteps(second)).toEqual(['delete vaultAccess:Web/group:On call', 'delete vaultAccess:Web/operator:sam@example.com']);
    const web = (await h.client.vaultSections.list().toArray()).find((s) => s.Name === 'Web');
    const left = await h.client.vaultSections.authorizations.list(String(web?.VaultSectionGuid)).toArray();
    expect(new Set(left.map((a) => String(a.OperatorGuid).toLowerCase()))).toEqual(new Set([ADMIN.guid.toLowerCase()]));
    expect(describeSteps(await plan(emptied))).toEqual([]);
  });
});

describe("an operator's own authorizations, against the emulator", () => {
  async function typesOf(email: string): Promise<string[]> {
    const operator = await operatorNamed(email);
    return (await h.client.operators.authorizations.list(String(operator?.OperatorGuid)).toArray()).map((a) => String(a.AuthorizationType)).sort();
  }

  it('creates an operator with its list in one apply, taking away the AccountAccess the service gave it when the list leaves it out', async () => {
    const desired = team({ operators: [{ Email: 'kim@example.com', authorizations: ['TechnicalContact', 'FinancialOperator'] }, { Email: 'lee@example.com', authorizations: ['AccountAccess', 'AllowInfra'] }] });
    const first = await converge(desired);
    expect(describeSteps(first).filter((s) => s.includes('operatorAuthorization'))).toEqual([
      'create operatorAuthorization:kim@example.com/FinancialOperator',
      'create operatorAuthorization:kim@example.com/TechnicalContact',
      'create operatorAuthorization:lee@example.com/AllowInfra',
      'delete operatorAuthorization:kim@example.com/AccountAccess',
    ]);
    expect(await typesOf('kim@example.com')).toEqual(['FinancialOperator', 'TechnicalContact']);
    expect(await typesOf('lee@example.com')).toEqual(['AccountAccess', 'AllowInfra']);
    expect(describeSteps(await plan(desired))).toEqual([]);
  });

  it('adds and removes types one request each, reading only the operators that declare a list, and leaves the others alone', async () => {
    await converge(team({ operators: [{ Email: 'kim@example.com', authorizations: ['AccountAccess', 'AllowInfra'] }, { Email: 'lee@example.com' }] }));
    const lee = await operatorNamed('lee@example.com');
    await h.client.operators.authorizations.add(String(lee?.OperatorGuid), 'ShareDashboards');
    const changed = team({ operators: [{ Email: 'kim@example.com', authorizations: ['AccountAccess', 'ShareDashboards'] }, { Email: 'lee@example.com' }] });
    h.emulator.control.clearLog();
    const second = await converge(changed);
    expect(describeSteps(second)).toEqual(['create operatorAuthorization:kim@example.com/ShareDashboards', 'delete operatorAuthorization:kim@example.com/AllowInfra']);
    // Those the service carried out (the rate-limited profile refuses some with 429 first).
    const served = (entries: { route: string; status: number }[]) => entries.filter((e) => e.status !== 429).map((e) => e.route);
    // One listing of the operator that declares a list; none of lee's, nor of the administrator's.
    expect(served(h.emulator.control.requestLog().entries).filter((r) => r === 'GET /Operator/{operatorGuid}/Authorization')).toHaveLength(1);
    expect(served(writeRequests(h))).toEqual([
      'POST /Operator/{operatorGuid}/Authorization/{authorizationType}',
      'DELETE /Operator/{operatorGuid}/Authorization/{authorizationType}',
    ]);
    expect(await typesOf('kim@example.com')).toEqual(['AccountAccess', 'ShareDashboards']);
    expect(await typesOf('lee@example.com')).toEqual(['AccountAccess', 'ShareDashboards']);
    expect(describeSteps(await plan(changed))).toEqual([]);
  });

  it("never takes AccountAccess from the API account's own operator, and shows its AccountAdministrator without planning it", async () => {
    const admin = team();
    const own = admin.operators?.[0];
    if (own === undefined) throw new Error('no admin');
    own.value = { ...own.value, authorizations: ['AllowInfra'] };
    const first = await converge(admin);
    expect(describeSteps(first).filter((s) => s.includes('operatorAuthorization'))).toEqual([`create operatorAuthorization:${ADMIN.email}/AllowInfra`]);
    expect(first.warnings.filter((w) => w.code === 'ACCESS_KEPT').map((w) => w.key)).toEqual([`${ADMIN.email}/AccountAccess`]);
    expect(await typesOf(ADMIN.email)).toEqual(['AccountAccess', 'AccountAdministrator', 'AllowInfra']);
    expect(describeSteps(await plan(admin))).toEqual([]);
  });
});
