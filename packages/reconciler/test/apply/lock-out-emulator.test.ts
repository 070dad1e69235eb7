/**
 * The lock-out guard against the emulator: every plan that would lock the account (or monsync) out is refused
 * while planning, so nothing is written (the request log holds only GETs), whatever the safety settings say.
 */
import { SEEDED } from '@monsync/emulator';
import { describe, expect, it } from 'vitest';
import type { DesiredState } from '../../src/desired.js';
import { applyPlan } from '../../src/apply/apply-plan.js';
import { readLiveAgainOnUnclear } from '../../src/apply/read-live-again.js';
import { PlanError } from '../../src/plan/errors.js';
import { liveScope } from '../../src/plan/scope.js';
import type { Plan } from '../../src/plan/types.js';
import { assemblePlan } from '../../src/plan/assemble.js';
import { fingerprintDesiredSecrets } from '../../src/plan/fingerprint.js';
import { aSection, anOperator, anOperatorGroup, desiredState, FINGERPRINT_KEY } from '../../src/test-utils/index.js';
import { type Harness, useEmulatorHarness, writeRequests } from './harness.js';

let h: Harness;
useEmulatorHarness((harness) => (h = harness));

const ADMIN = SEEDED.admin;
const VIEWER = SEEDED.viewer;

/** Plans as `monsync plan` does, the API account's operator given (`self`) or not. */
async function plan(desired: DesiredState, self: string[]): Promise<Plan> {
  const live = await readLiveAgainOnUnclear(h.client, liveScope(desired));
  return assemblePlan(desired, live, { fingerprints: fingerprintDesiredSecrets(desired, FINGERPRINT_KEY), selfOperatorGuids: self });
}

/** Refused with LOCK_OUT problems (their messages returned), and not one request that writes. */
async function refused(desired: DesiredState, self: string[]): Promise<string[]> {
  h.emulator.control.clearLog();
  const error: unknown = await plan(desired, self).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PlanError);
  const problems = (error as PlanError).problems;
  expect(problems.map((p) => p.code)).toContain('LOCK_OUT');
  expect(writeRequests(h)).toEqual([]);
  return problems.filter((p) => p.code === 'LOCK_OUT').map((p) => p.message);
}

const lenient = { maxDeletePercent: 100, maxUpdatePercent: 100 };

function people(parts: { operators?: string[]; administrators?: string[]; prune?: boolean }): DesiredState {
  return desiredState({
    manage: { operators: { prune: parts.prune ?? true }, operatorGroups: { prune: false } },
    safety: lenient,
    operators: (parts.operators ?? [ADMIN.email, VIEWER.email]).map((email) => anOperator({ Email: email })),
    operatorGroups: parts.administrators === undefined ? [] : [anOperatorGroup({ Description: 'Administrators', members: parts.administrators })],
  });
}

describe('the lock-out guard, against the emulator', () => {
  it("refuses to delete the API account's own operator, naming the step and how to do it by hand", async () => {
    const messages = await refused(people({ operators: [VIEWER.email] }), [ADMIN.guid]);
    expect(messages).toContainEqual(
      "delete operator:admin@example.com would delete the operator of the API account in use (the service refuses it with 403); monsync never does that, with or without --allow-unsafe. If it is really meant, delete it in the web application signed in as another administrator, or run monsync with an API account of another administrator",
    );
  });

  it('refuses every operator delete when the API account\'s operator is unknown', async () => {
    const messages = await refused(people({ operators: [ADMIN.email] }), []);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('delete operator:viewer@example.com would delete an operator that may be the API account\'s own');
    expect(messages[0]).toContain('MONSYNC_OPERATOR');
  });

  it('refuses to take the API account\'s operator out of Administrators', async () => {
    const messages = await refused(people({ administrators: [ADMIN.email, VIEWER.email].slice(1) }), [ADMIN.guid]);
    expect(messages.some((m) => m.startsWith('delete operatorGroupMember:Administrators/admin@example.com would remove the API account\'s own operator from the Administrators group'))).toBe(true);
  });

  it('refuses to leave Administrators with no member', async () => {
    const messages = await refused(people({ administrators: [] }), [VIEWER.guid]);
    expect(messages).toEqual([expect.stringContaining('would leave the Administrators group with no member')]);
  });

  it('refuses any change to Administrators while the API account\'s operator is unknown, even an addition', async () => {
    const messages = await refused(people({ administrators: [ADMIN.email, VIEWER.email] }), []);
    expect(messages).toEqual([expect.stringContaining('create operatorGroupMember:Administrators/viewer@example.com would change the members of the Administrators group')]);
  });

  it('refuses to remove the last change access to a managed vault section, though the API operator has no way into it', async () => {
    // The viewer, named as the API account's operator, is in no group with access to Default (the groups' members
    // are read: operator groups are managed): the last `change` goes from everyone but the API operator.
    const desired = desiredState({
      manage: { vault: { prune: false }, operatorGroups: { prune: false } },
      safety: lenient,
      vaultSections: [aSection({ Name: 'Default', access: [{ group: 'Administrators', level: 'view' }] })],
    });
    const messages = await refused(desired, [VIEWER.guid]);
    expect(messages).toEqual([expect.stringContaining('update vaultAccess:Default/group:Administrators would remove the last `change` access to the vault section')]);
  });

  it('plans the same changes once another administrator keeps the group and the section whole', async () => {
    const desired = desiredState({
      manage: { operators: { prune: false }, operatorGroups: { prune: false }, vault: { prune: false } },
      safety: lenient,
      operators: [anOperator({ Email: ADMIN.email }), anOperator({ Email: VIEWER.email })],
      operatorGroups: [anOperatorGroup({ Description: 'Administrators', members: [ADMIN.email, VIEWER.email] })],
      vaultSections: [aSection({ Name: 'Default', access: [{ group: 'Administrators', level: 'change' }, { operator: VIEWER.email, level: 'view' }] })],
    });
    const planned = await plan(desired, [ADMIN.guid]);
    expect(planned.steps.map((s) => `${s.action} ${s.id}`)).toEqual(['create operatorGroupMember:Administrators/viewer@example.com', 'create vaultAccess:Default/operator:viewer@example.com']);
  });

  describe("the group that is the API operator's only way into a managed section", () => {
    /** Section Team, reached by the API operator only through the group Vault keepers (its own access removed). */
    async function teamThroughGroupOnly(): Promise<void> {
      const group = (await h.client.operatorGroups.create({ Description: 'Vault keepers' })).OperatorGroupGuid as string;
      await h.client.operatorGroups.addMember(group, ADMIN.guid);
      const section = (await h.client.vaultSections.create({ Name: 'Team' })).VaultSectionGuid as string;
      await h.client.vaultSections.authorizations.create(section, { AuthorizationType: 'ChangeVaultSection', OperatorGroupGuid: group });
      for (const own of await h.client.vaultSections.authorizations.list(section).toArray()) {
        if (own.OperatorGuid === ADMIN.guid) await h.client.vaultSections.authorizations.delete(section, String(own.AuthorizationId));
      }
      h.emulator.control.clearLog();
    }

    const keptBecause = (planned: Plan): string[] => planned.warnings.filter((w) => w.code === 'ACCESS_KEPT').map((w) => w.message);

    it.each([
      ['known', [ADMIN.guid], "the API account's operator holds `change` on vault section \"Team\" only through this group"],
      ['unknown', [], 'monsync cannot tell which operator the API account acts for, and this group may be how it holds `change` on vault section "Team"'],
    ])('keeps it when the tree prunes groups (API operator %s), says why, and apply writes nothing', async (_, self, why) => {
      await teamThroughGroupOnly();
      const desired = desiredState({ manage: { operatorGroups: { prune: true }, vault: { prune: false } }, safety: lenient, vaultSections: [aSection({ Name: 'Team' })] });
      const planned = await plan(desired, self);
      expect(planned.steps.map((s) => `${s.action} ${s.id}`)).toEqual([]);
      expect(keptBecause(planned)).toEqual([`operator group "Vault keepers" is kept although the config does not declare it: ${why}${why.startsWith('monsync') ? ' (name it with `apiOperator:` in monsync.yaml)' : ", and monsync needs that to change the section and its items; give it `change` access of its own in the section's `access:` first, in a plan of its own"}`]);
      const report = await applyPlan(planned, h.writer, { secrets: { desired, key: FINGERPRINT_KEY } });
      expect(report.ok).toBe(true);
      expect(writeRequests(h)).toEqual([]);
      expect((await h.client.operatorGroups.list().toArray()).map((g) => g.Description)).toContain('Vault keepers');
    });

    it('leaves its access at change when the tree lowers it to view, and says why', async () => {
      await teamThroughGroupOnly();
      const desired = desiredState({
        manage: { vault: { prune: false }, operatorGroups: { prune: false } },
        safety: lenient,
        vaultSections: [aSection({ Name: 'Team', access: [{ group: 'Vault keepers', level: 'view' }, { operator: VIEWER.email, level: 'change' }] })],
      });
      const planned = await plan(desired, [ADMIN.guid]);
      expect(planned.steps.map((s) => `${s.action} ${s.id}`)).toEqual(['create vaultAccess:Team/operator:viewer@example.com']);
      expect(keptBecause(planned)).toEqual([
        "vault access \"Team/group:Vault keepers\" is left as it is although the config changes it (level change -> view): the API account's operator holds `change` on vault section \"Team\" only through this group, and monsync needs that to change the section and its items; give it `change` access of its own in the section's `access:` first, in a plan of its own",
      ]);
      expect((await applyPlan(planned, h.writer, { secrets: { desired, key: FINGERPRINT_KEY } })).ok).toBe(true);
      // Still the API operator's way in: the next plan sees the section, and plans nothing new.
      const again = await plan(desired, [ADMIN.guid]);
      expect(again.steps).toEqual([]);
      expect(keptBecause(again)).toHaveLength(1);
    });

    it('deletes it once the API operator has access of its own, in a plan of its own', async () => {
      await teamThroughGroupOnly();
      const section = (await h.client.vaultSections.list().toArray()).find((s) => s.Name === 'Team')?.VaultSectionGuid as string;
      await h.client.vaultSections.authorizations.create(section, { AuthorizationType: 'ChangeVaultSection', OperatorGuid: ADMIN.guid });
      const desired = desiredState({ manage: { operatorGroups: { prune: true }, vault: { prune: false } }, safety: lenient, vaultSections: [aSection({ Name: 'Team' })] });
      const planned = await plan(desired, [ADMIN.guid]);
      expect(planned.steps.map((s) => `${s.action} ${s.id}`)).toEqual(['delete operatorGroup:Vault keepers']);
    });
  });
});
