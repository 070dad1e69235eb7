/**
 * No self lock-out through groups: the API account's operator may read a managed vault section only through an
 * operator group it is in. Then neither its membership of that group, nor the group (pruned), nor the group's access
 * to the section is removed or lowered below `change`, and the plan says why; with a way in of its own, each goes as
 * declared.
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
      'vaultAccess Web/group:Vault readers: vault access "Web/group:Vault readers" is kept although the config does not declare it: the API account\'s operator holds `change` on vault section "Web" only through this group, and monsync needs that to change the section and its items; give it `change` access of its own in the section\'s `access:` first, in a plan of its own',
    ]);
  });

  it('keeps it too when the group\'s members were not read (the API operator may be one of them)', () => {
    const result = plan(tree(), account({}), [SELF_OPERATOR]);
    expect(steps(result)).toEqual([`create vaultAccess Web/operator:${OTHER_EMAIL}`]);
    expect(kept(result)).toEqual([expect.stringContaining("the API account's operator may hold `change` on vault section \"Web\" only through this group, whose members monsync did not read")]);
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
      `operatorGroupMember Vault readers/${SELF_EMAIL}: operator group membership "Vault readers/${SELF_EMAIL}" is kept although the config does not declare it: the API account's operator holds \`change\` on vault section "Web" only through this group, and monsync needs that to change the section and its items; give it \`change\` access of its own in the section's \`access:\` first, in a plan of its own`,
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
      expect.stringContaining('monsync cannot tell which operator the API account acts for, and this membership may be how it holds `change` on vault section "Web"'),
      expect.stringContaining('monsync cannot tell which operator the API account acts for, and this membership may be how it holds `change` on vault section "Web"'),
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

const held = (p: Plan) => p.warnings.filter((w) => w.code === 'ACCESS_KEPT' && w.message.includes('is left as it is')).map((w) => w.message);

describe('an operator group the tree prunes that is the API operator\'s way into a managed section', () => {
  /** Groups pruned, none declared; the section's access declared (Jane and the group) or not managed at all. */
  function pruning(access?: unknown[]): DesiredState {
    return desiredState({
      manage: { vault: { prune: false }, operatorGroups: { prune: true } },
      vaultSections: [aSection({ Name: 'Web', ...(access === undefined ? {} : { access }) } as never)],
      operatorGroups: [],
    });
  }
  const groupKept = (p: Plan) => kept(p).filter((k) => k.startsWith('operatorGroup '));

  it('keeps the group, and says why, while the known API operator has no access of its own', () => {
    const result = plan(pruning([{ operator: OTHER_EMAIL, level: 'change' }, { group: 'Vault readers', level: 'change' }]), account({ members: [SELF_OPERATOR, OTHER_OPERATOR] }), [SELF_OPERATOR]);
    expect(steps(result)).toEqual([`create vaultAccess Web/operator:${OTHER_EMAIL}`]);
    expect(groupKept(result)).toEqual([
      'operatorGroup Vault readers: operator group "Vault readers" is kept although the config does not declare it: the API account\'s operator holds `change` on vault section "Web" only through this group, and monsync needs that to change the section and its items; give it `change` access of its own in the section\'s `access:` first, in a plan of its own',
    ]);
  });

  it("keeps it too when the section's access is not managed (the access is read to tell)", () => {
    const result = plan(pruning(), account({ members: [SELF_OPERATOR] }), [SELF_OPERATOR]);
    expect(steps(result)).toEqual([]);
    expect(groupKept(result)).toEqual([expect.stringContaining('only through this group')]);
  });

  it('deletes it when the API operator has access of its own', () => {
    const result = plan(pruning(), account({ members: [SELF_OPERATOR], direct: true }), [SELF_OPERATOR]);
    expect(steps(result)).toEqual(['delete operatorGroup Vault readers']);
    expect(kept(result)).toEqual([]);
  });

  it('deletes it when the API operator is not among its members', () => {
    const result = plan(pruning(), account({ members: [OTHER_OPERATOR] }), [SELF_OPERATOR]);
    expect(steps(result)).toEqual(['delete operatorGroup Vault readers']);
  });

  it('keeps it while the API operator is unknown, saying it cannot tell', () => {
    const result = plan(pruning(), account({ members: [OTHER_OPERATOR] }), []);
    expect(steps(result)).toEqual([]);
    expect(groupKept(result)).toEqual([
      'operatorGroup Vault readers: operator group "Vault readers" is kept although the config does not declare it: monsync cannot tell which operator the API account acts for, and this group may be how it holds `change` on vault section "Web" (name it with `apiOperator:` in monsync.yaml)',
    ]);
    expect(result.warnings[0]?.code).toBe('API_OPERATOR_UNKNOWN');
  });

  it('deletes a group with no access to a managed section', () => {
    const live = account({ members: [SELF_OPERATOR] });
    live.perParent.vaultAccess = { [SECTION]: [bySelf('ChangeVaultSection')] };
    expect(steps(plan(pruning(), live, []))).toEqual(['delete operatorGroup Vault readers']);
  });
});

describe("a group's access the tree lowers from change to view", () => {
  /** The section's access: Jane's change, and the group at `level`. */
  function lowering(level: string, extra: unknown[] = []): DesiredState {
    return desiredState({
      manage: { vault: { prune: false }, operatorGroups: { prune: false } },
      vaultSections: [aSection({ Name: 'Web', access: [{ operator: OTHER_EMAIL, level: 'change' }, { group: 'Vault readers', level }, ...extra] } as never)],
    });
  }

  it("leaves it at change, and says why, while it is the known API operator's only change", () => {
    const result = plan(lowering('view'), account({ members: [SELF_OPERATOR, OTHER_OPERATOR] }), [SELF_OPERATOR]);
    expect(steps(result)).toEqual([`create vaultAccess Web/operator:${OTHER_EMAIL}`]);
    expect(held(result)).toEqual([
      'vault access "Web/group:Vault readers" is left as it is although the config changes it (level change -> view): the API account\'s operator holds `change` on vault section "Web" only through this group, and monsync needs that to change the section and its items; give it `change` access of its own in the section\'s `access:` first, in a plan of its own',
    ]);
  });

  it('lowers it when the API operator holds change of its own', () => {
    const result = plan(lowering('view', [{ operator: SELF_EMAIL, level: 'change' }]), account({ members: [SELF_OPERATOR], direct: true }), [SELF_OPERATOR]);
    expect(steps(result)).toEqual(['update vaultAccess Web/group:Vault readers', `create vaultAccess Web/operator:${OTHER_EMAIL}`]);
    expect(held(result)).toEqual([]);
  });

  it('does not count on change the same plan gives the API operator: that is a plan of its own', () => {
    const result = plan(lowering('view', [{ operator: SELF_EMAIL, level: 'change' }]), account({ members: [SELF_OPERATOR] }), [SELF_OPERATOR]);
    expect(steps(result)).toEqual([`create vaultAccess Web/operator:${SELF_EMAIL}`, `create vaultAccess Web/operator:${OTHER_EMAIL}`]);
    expect(held(result)).toHaveLength(1);
  });

  it('lowers it when the API operator is not in the group', () => {
    const result = plan(lowering('view'), account({ members: [OTHER_OPERATOR] }), [SELF_OPERATOR]);
    expect(steps(result)).toContain('update vaultAccess Web/group:Vault readers');
  });

  it('leaves it while the API operator is unknown and a member may be it', () => {
    const result = plan(lowering('view'), account({ members: [OTHER_OPERATOR] }), []);
    expect(steps(result)).not.toContain('update vaultAccess Web/group:Vault readers');
    expect(held(result)).toEqual([expect.stringContaining('monsync cannot tell which operator the API account acts for, and this group may be how it holds `change` on vault section "Web"')]);
  });

  it("leaves the known API operator's own access at change when the tree lowers it and nothing else gives change", () => {
    const live = account({ members: [OTHER_OPERATOR], direct: true });
    const result = plan(lowering('change', [{ operator: SELF_EMAIL, level: 'view' }]), live, [SELF_OPERATOR]);
    expect(steps(result).filter((s) => s.startsWith('update'))).toEqual([]);
    expect(held(result)).toEqual([expect.stringContaining('vault access "Web/operator:api@example.com" is left as it is although the config changes it (level change -> view): the API account\'s operator holds `change` on vault section "Web" only through this access of its own')]);
  });
});
