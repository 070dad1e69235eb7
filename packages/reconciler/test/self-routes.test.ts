/**
 * No self lock-out through groups: the API account's operator may read a managed vault section only through an
 * operator group it is in. Then neither its membership of that group nor the group's access to the section is
 * removed, and the plan says why; with a route of its own, both go as declared.
 */
import { describe, expect, it } from 'vitest';
import type { DesiredState } from '../src/desired.js';
import type { ApiObject, LiveSnapshot } from '../src/live/types.js';
import { assemblePlan } from '../src/plan/assemble.js';
import { fingerprintDesiredSecrets } from '../src/plan/fingerprint.js';
import type { Plan } from '../src/plan/types.js';
import { FINGERPRINT_KEY, OTHER_OPERATOR, SELF_OPERATOR, aSection, anOperatorGroup, desiredState, guidFor, liveSnapshot } from '../src/test-utils/index.js';

const GROUP = guidFor('operatorGroup', 'Vault readers');
const SECTION = guidFor('vaultSection', 'Web');
const SELF_EMAIL = 'api@example.com';
const OTHER_EMAIL = 'jane@example.com';

const byGroup = (type: string): ApiObject => ({ AuthorizationId: `${type}-group`, AuthorizationType: type, OperatorGroupGuid: GROUP });
const bySelf = (type: string): ApiObject => ({ AuthorizationId: `${type}-self`, AuthorizationType: type, OperatorGuid: SELF_OPERATOR });

/** The account: the group "Vault readers" (members given) has Change on section "Web"; the API operator too when `direct`. */
function account(parts: { members?: string[] | undefined; direct?: boolean }): LiveSnapshot {
  const live = liveSnapshot();
  live.lists.operator = live.operators ?? [];
  live.lists.operatorGroup = [{ OperatorGroupGuid: GROUP, Description: 'Vault readers', IsEveryone: false }];
  live.lists.vaultSection = [{ VaultSectionGuid: SECTION, Name: 'Web' }];
  live.perParent.vaultAccess = {
    [SECTION]: [byGroup('ChangeVaultSection'), byGroup('ViewVaultSection'), ...(parts.direct === true ? [bySelf('ChangeVaultSection'), bySelf('ViewVaultSection')] : [])],
  };
  if (parts.members !== undefined) live.perParent.operatorGroupMember = { [GROUP]: parts.members.map((guid) => ({ OperatorGuid: guid })) };
  return live;
}

/** The tree: the section's access names only Jane; the group's members (when declared) are `members`. */
function tree(members?: string[]): DesiredState {
  return desiredState({
    manage: { vault: { prune: false }, operatorGroups: { prune: false } },
    vaultSections: [aSection({ Name: 'Web', access: [{ operator: OTHER_EMAIL, level: 'change' }] } as never)],
    operatorGroups: members === undefined ? [] : [anOperatorGroup({ Description: 'Vault readers', members })],
  });
}

function plan(desired: DesiredState, live: LiveSnapshot, self: string[]): Plan {
  return assemblePlan(desired, live, { fingerprints: fingerprintDesiredSecrets(desired, FINGERPRINT_KEY), selfOperatorGuids: self });
}

const steps = (p: Plan) => p.steps.map((s) => `${s.action} ${s.kind} ${s.key}`);
const kept = (p: Plan) => p.warnings.filter((w) => w.code === 'ACCESS_KEPT').map((w) => `${w.kind} ${w.key}: ${w.message}`);

describe("the group access that is the API operator's way into a managed section", () => {
  it('keeps group access while the known API operator has no direct access', () => {
    const result = plan(tree(), account({ members: [SELF_OPERATOR, OTHER_OPERATOR] }), [SELF_OPERATOR]);
    expect(steps(result)).toEqual([`create vaultAccess Web/operator:${OTHER_EMAIL}`]);
    expect(kept(result)).toEqual([
      expect.stringMatching(/^vaultAccess Web\/group:Vault readers: .*the API account's operator is in this group and holds no access of its own to the section, so it reads the section through this group/),
    ]);
  });

  it('keeps it too when the group\'s members were not read (the API operator may be one of them)', () => {
    const result = plan(tree(), account({}), [SELF_OPERATOR]);
    expect(steps(result)).toEqual([`create vaultAccess Web/operator:${OTHER_EMAIL}`]);
    expect(kept(result)).toEqual([expect.stringContaining('whose members monsync did not read')]);
  });

  it('removes it when the API operator has direct access too', () => {
    const result = plan(tree(), account({ members: [SELF_OPERATOR, OTHER_OPERATOR], direct: true }), [SELF_OPERATOR]);
    expect(steps(result)).toEqual([`create vaultAccess Web/operator:${OTHER_EMAIL}`, 'delete vaultAccess Web/group:Vault readers']);
    expect(kept(result)).toEqual([]);
  });

  it('removes it when the group\'s members were read and the API operator is not among them', () => {
    const result = plan(tree(), account({ members: [OTHER_OPERATOR] }), [SELF_OPERATOR]);
    expect(steps(result)).toContain('delete vaultAccess Web/group:Vault readers');
    expect(kept(result)).toEqual([]);
  });
});

describe("the API operator's membership of a group that is its way into a managed section", () => {
  /** The group keeps its access (declared), and its members list leaves the API operator out. */
  function treeKeepingGroupAccess(members: string[]): DesiredState {
    const desired = tree(members);
    (desired.vaultSections[0]?.value as { access: unknown[] }).access.push({ group: 'Vault readers', level: 'change' });
    return desired;
  }

  it('keeps the membership while the known API operator has no access of its own, and says why', () => {
    const result = plan(treeKeepingGroupAccess([OTHER_EMAIL]), account({ members: [SELF_OPERATOR, OTHER_OPERATOR] }), [SELF_OPERATOR]);
    expect(steps(result).filter((s) => s.includes('operatorGroupMember'))).toEqual([]);
    expect(kept(result)).toEqual([
      `operatorGroupMember Vault readers/${SELF_EMAIL}: operator group membership "Vault readers/${SELF_EMAIL}" is kept although the config does not declare it: the API account's operator reads vault section "Web" only through this group (it holds no access of its own to the section), so removing it would lock monsync out of a section it manages; give it access of its own in the section's \`access:\` first, in a plan of its own`,
    ]);
  });

  it('removes the membership when the API operator has direct access too', () => {
    const result = plan(treeKeepingGroupAccess([OTHER_EMAIL]), account({ members: [SELF_OPERATOR, OTHER_OPERATOR], direct: true }), [SELF_OPERATOR]);
    expect(steps(result)).toContain(`delete operatorGroupMember Vault readers/${SELF_EMAIL}`);
    expect(kept(result)).toEqual([]);
  });

  it("removes another operator's membership: only the API operator's own route is guarded", () => {
    const result = plan(treeKeepingGroupAccess([SELF_EMAIL]), account({ members: [SELF_OPERATOR, OTHER_OPERATOR] }), [SELF_OPERATOR]);
    expect(steps(result)).toContain(`delete operatorGroupMember Vault readers/${OTHER_EMAIL}`);
    expect(kept(result)).toEqual([]);
  });

  it('keeps every such membership while the API operator is unknown, saying it cannot tell', () => {
    const result = plan(treeKeepingGroupAccess([]), account({ members: [SELF_OPERATOR, OTHER_OPERATOR] }), []);
    expect(steps(result).filter((s) => s.includes('operatorGroupMember'))).toEqual([]);
    expect(kept(result).filter((k) => k.startsWith('operatorGroupMember'))).toEqual([
      expect.stringContaining('monsync cannot tell which operator the API account acts for, and this membership may be how it reads vault section "Web"'),
      expect.stringContaining('monsync cannot tell which operator the API account acts for, and this membership may be how it reads vault section "Web"'),
    ]);
  });

  describe('when two groups lead into the section', () => {
    const NIGHT = guidFor('operatorGroup', 'Night shift');
    /** Both groups have Change on "Web", and both hold the API operator and Jane. */
    function twoGroups(): LiveSnapshot {
      const live = account({ members: [SELF_OPERATOR, OTHER_OPERATOR] });
      live.lists.operatorGroup = [...(live.lists.operatorGroup ?? []), { OperatorGroupGuid: NIGHT, Description: 'Night shift', IsEveryone: false }];
      live.perParent.vaultAccess = { [SECTION]: [...(live.perParent.vaultAccess?.[SECTION] ?? []), { AuthorizationId: 'night', AuthorizationType: 'ChangeVaultSection', OperatorGroupGuid: NIGHT }] };
      live.perParent.operatorGroupMember = { ...live.perParent.operatorGroupMember, [NIGHT]: [{ OperatorGuid: SELF_OPERATOR }, { OperatorGuid: OTHER_OPERATOR }] };
      return live;
    }
    function bothGroups(readers: string[], night: string[]): DesiredState {
      const desired = treeKeepingGroupAccess(readers);
      (desired.vaultSections[0]?.value as { access: unknown[] }).access.push({ group: 'Night shift', level: 'change' });
      return { ...desired, operatorGroups: [...(desired.operatorGroups ?? []), ...(desiredState({ operatorGroups: [anOperatorGroup({ Description: 'Night shift', members: night })] }).operatorGroups ?? [])] };
    }

    it('removes the API operator from one while the other, declared, stays its way in', () => {
      const result = plan(bothGroups([OTHER_EMAIL], [SELF_EMAIL, OTHER_EMAIL]), twoGroups(), [SELF_OPERATOR]);
      expect(steps(result).filter((s) => s.includes('operatorGroupMember'))).toEqual([`delete operatorGroupMember Vault readers/${SELF_EMAIL}`]);
      expect(kept(result)).toEqual([]);
    });

    it('keeps both memberships when one plan would remove it from both: neither counts on the other', () => {
      const result = plan(bothGroups([OTHER_EMAIL], [OTHER_EMAIL]), twoGroups(), [SELF_OPERATOR]);
      expect(steps(result).filter((s) => s.includes('operatorGroupMember'))).toEqual([]);
      expect(kept(result).map((k) => k.split(':')[0])).toEqual([`operatorGroupMember Night shift/${SELF_EMAIL}`, `operatorGroupMember Vault readers/${SELF_EMAIL}`]);
    });
  });
});
