import { describe, expect, it } from 'vitest';
import { fingerprintValue, renderJson, renderMarkdown, renderText, type Plan } from '../src/index.js';
import {
  aLiveItem,
  aLiveMonitor,
  aLiveSection,
  aMonitor,
  anItem,
  aSection,
  CANARY,
  desiredState,
  FINGERPRINT_KEY,
  guidFor,
  liveSnapshot,
  markerFor,
  planFor,
  secret,
} from '../src/test-utils/index.js';

const vaultOnly = (prune: boolean) => ({ vault: { prune } });

function allOutputs(plan: Plan): string {
  return [renderJson(plan), renderText(plan), renderText(plan, { color: true }), renderMarkdown(plan)].join('\n');
}

describe('vaultSection kind', () => {
  it('creates a declared section before its items', () => {
    const plan = planFor(desiredState({ manage: vaultOnly(false), vaultSections: [aSection({ Name: 'Ops' }, [anItem({ Name: 'token', VaultItemType: 'File' })])] }), liveSnapshot());
    expect(plan.steps.map((s) => s.id)).toEqual(['vaultSection:Ops', 'vaultItem:Ops/token']);
    expect(plan.steps[1]).toMatchObject({ dependsOn: ['vaultSection:Ops'], desired: { VaultSectionGuid: '{{vaultSection:Ops}}', Name: 'token' } });
  });

  it('renames a section pinned by GUID, and its items keep their identity', () => {
    const guid = guidFor('vaultSection', 'Web');
    const desired = desiredState({ manage: vaultOnly(true), vaultSections: [aSection({ Name: 'Websites', VaultSectionGuid: guid }, [anItem()])] });
    const live = liveSnapshot({ vaultSections: [aLiveSection()], vaultItems: [aLiveItem('Web')] });
    const plan = planFor(desired, live);
    expect(plan.steps.map((s) => [s.action, s.id, s.reason])).toEqual([['update', 'vaultSection:Websites', 'pinned GUID rename']]);
    expect(plan.steps[0]?.changes).toEqual([{ op: 'replace', path: '/Name', before: 'Web', after: 'Websites' }]);
  });

  it('deletes an undeclared section after its items, with prune', () => {
    const live = liveSnapshot({
      vaultSections: [aLiveSection(), aLiveSection({ Name: 'Old' }), aLiveSection({ Name: 'A' }), aLiveSection({ Name: 'B' })],
      vaultItems: [aLiveItem('Old', { Name: 'x' })],
    });
    const desired = desiredState({ manage: vaultOnly(true), safety: { maxDeletePercent: 100 }, vaultSections: [aSection(), aSection({ Name: 'A' }), aSection({ Name: 'B' })] });
    const plan = planFor(desired, live);
    expect(plan.steps.map((s) => [s.action, s.id, s.dependsOn])).toEqual([
      ['delete', 'vaultItem:Old/x', []],
      ['delete', 'vaultSection:Old', ['vaultItem:Old/x']],
    ]);
  });

  it('lists an undeclared section and its items as unmanaged without prune', () => {
    const live = liveSnapshot({ vaultSections: [aLiveSection(), aLiveSection({ Name: 'Old' })], vaultItems: [aLiveItem('Old', { Name: 'x' })] });
    const plan = planFor(desiredState({ manage: vaultOnly(false), vaultSections: [aSection()] }), live);
    expect(plan.steps).toEqual([]);
    expect(plan.unmanaged.map((u) => `${u.kind}:${u.key}`)).toEqual(['vaultSection:Old', 'vaultItem:Old/x']);
  });

  it('plans zero changes for a matching section', () => {
    const plan = planFor(desiredState({ manage: vaultOnly(true), vaultSections: [aSection()] }), liveSnapshot({ vaultSections: [aLiveSection({ SomethingNew: 1 })] }));
    expect(plan.steps).toEqual([]);
    expect(plan.summary.unchanged).toBe(1);
  });
});

describe('vaultItem kind', () => {
  const withPassword = (value: string, fields: Record<string, unknown> = {}) => anItem({ Password: secret(value, 'SHOP_PASSWORD'), ...fields });

  it('creates an item with its secret as a fingerprint placeholder and the marker in Notes', () => {
    const plan = planFor(desiredState({ manage: vaultOnly(false), vaultSections: [aSection({}, [withPassword(CANARY, { Notes: 'Robot login' })])] }), liveSnapshot({ vaultSections: [aLiveSection()] }));
    const [step] = plan.steps;
    const fp = fingerprintValue(CANARY, FINGERPRINT_KEY);
    expect(step?.desired).toEqual({
      Name: 'shop-login',
      VaultItemType: 'CredentialSet',
      UserName: 'robot',
      Password: { sensitive: true, fingerprint: fp },
      Notes: `Robot login\n${markerFor({ '/Password': CANARY })}`,
      VaultSectionGuid: guidFor('vaultSection', 'Web'),
    });
    expect(step?.changes).toContainEqual({ op: 'add', path: '/Password', after: '(sensitive)', sensitive: true });
    expect(step?.changes).toContainEqual({ op: 'add', path: '/Notes', after: 'Robot login' });
  });

  it('plans nothing when the fingerprint marker matches the secret', () => {
    const live = liveSnapshot({ vaultSections: [aLiveSection()], vaultItems: [aLiveItem('Web', { Notes: `Robot login\n${markerFor({ '/Password': 'pw-1' })}` })] });
    const plan = planFor(desiredState({ manage: vaultOnly(false), vaultSections: [aSection({}, [withPassword('pw-1', { Notes: 'Robot login' })])] }), live);
    expect(plan.steps).toEqual([]);
  });

  it('plans zero changes when live differs only by read-only fields, emptied secrets and server-filled values', () => {
    const item = aLiveItem('Web', {
      Notes: markerFor({ '/Password': 'pw-1' }),
      IsSensitive: true,
      VaultItemUsedBy: '3 monitors',
      Password: '',
      Value: null,
      SomeNewField: 'x',
    });
    const plan = planFor(desiredState({ manage: vaultOnly(true), vaultSections: [aSection({}, [withPassword('pw-1')])] }), liveSnapshot({ vaultSections: [aLiveSection()], vaultItems: [item] }));
    expect(plan.steps).toEqual([]);
    expect(plan.summary.unchanged).toBe(2);
  });

  it('plans one sensitive update when the secret changed in its source', () => {
    const live = liveSnapshot({ vaultSections: [aLiveSection()], vaultItems: [aLiveItem('Web', { Notes: markerFor({ '/Password': 'old' }) })] });
    const plan = planFor(desiredState({ manage: vaultOnly(false), vaultSections: [aSection({}, [withPassword(CANARY)])] }), live);
    expect(plan.steps).toHaveLength(1);
    expect(plan.steps[0]).toMatchObject({
      action: 'update',
      reason: 'secret changed',
      changes: [{ op: 'replace', path: '/Password', before: '(sensitive)', after: '(sensitive)', sensitive: true }],
      desired: { Password: { sensitive: true, fingerprint: fingerprintValue(CANARY, FINGERPRINT_KEY) }, Notes: markerFor({ '/Password': CANARY }) },
    });
  });

  it('plans an update with a reason when the live item has no fingerprint marker', () => {
    const live = liveSnapshot({ vaultSections: [aLiveSection()], vaultItems: [aLiveItem('Web', { Notes: 'hand-made' })] });
    const plan = planFor(desiredState({ manage: vaultOnly(false), vaultSections: [aSection({}, [withPassword('pw')])] }), live);
    expect(plan.steps[0]).toMatchObject({ action: 'update', reason: 'no fingerprint marker' });
    // Notes is not declared: the user's text is kept and the marker appended.
    expect(plan.steps[0]?.desired?.Notes).toBe(`hand-made\n${markerFor({ '/Password': 'pw' })}`);
  });

  it('updates an ordinary field without resending an unchanged secret, keeping the marker', () => {
    const marker = markerFor({ '/Password': 'pw' });
    const live = liveSnapshot({ vaultSections: [aLiveSection()], vaultItems: [aLiveItem('Web', { Notes: `Old note\n${marker}` })] });
    const plan = planFor(desiredState({ manage: vaultOnly(false), vaultSections: [aSection({}, [withPassword('pw', { UserName: 'robot2', Notes: 'New note' })])] }), live);
    const step = plan.steps[0];
    expect(step?.changes).toEqual([
      { op: 'replace', path: '/Notes', before: 'Old note', after: 'New note' },
      { op: 'replace', path: '/UserName', before: 'robot', after: 'robot2' },
    ]);
    expect(step?.desired).not.toHaveProperty('Password');
    expect(step?.desired?.Notes).toBe(`New note\n${marker}`);
  });

  it('fingerprints several secrets of one item together, in a fixed order', () => {
    const item = anItem({
      Name: 'client-cert',
      VaultItemType: 'CertificateArchive',
      UserName: undefined,
      CertificateArchive: { Password: secret('cert-pw', 'CERT_PW'), ArchiveData: secret('QUJD', 'CERT_FILE') },
    });
    const plan = planFor(desiredState({ manage: vaultOnly(false), vaultSections: [aSection({}, [item])] }), liveSnapshot({ vaultSections: [aLiveSection()] }));
    const step = plan.steps[0];
    expect(step?.desired?.Notes).toBe(markerFor({ '/CertificateArchive/ArchiveData': 'QUJD', '/CertificateArchive/Password': 'cert-pw' }));
    expect(step?.changes.filter((c) => c.sensitive === true).map((c) => c.path)).toEqual(['/CertificateArchive/ArchiveData', '/CertificateArchive/Password']);

    const live = liveSnapshot({
      vaultSections: [aLiveSection()],
      vaultItems: [
        aLiveItem('Web', {
          Name: 'client-cert',
          VaultItemType: 'CertificateArchive',
          CertificateArchive: { Issuer: 'CN=x', NotBefore: '2026-01-01T00:00:00', NotAfter: '2027-01-01T00:00:00', Password: '', ArchiveData: '' },
          Notes: String(step?.desired?.Notes),
        }),
      ],
    });
    expect(planFor(desiredState({ manage: vaultOnly(false), vaultSections: [aSection({}, [item])] }), live).steps).toEqual([]);
  });

  it('warns instead of updating when the item type differs, since it cannot change', () => {
    const live = liveSnapshot({ vaultSections: [aLiveSection()], vaultItems: [aLiveItem('Web', { VaultItemType: 'File' })] });
    const plan = planFor(desiredState({ manage: vaultOnly(false), vaultSections: [aSection({}, [anItem()])] }), live);
    expect(plan.steps).toEqual([]);
    expect(plan.warnings).toEqual([expect.objectContaining({ code: 'IMMUTABLE_FIELD', kind: 'vaultItem', key: 'Web/shop-login' })]);
  });

  it('deletes an undeclared item with prune only after the monitor that used it stops using it', () => {
    const item = guidFor('vaultItem', 'Web/old');
    const desired = desiredState({
      manage: { vault: { prune: true }, monitors: { prune: false } },
      safety: { maxDeletePercent: 100 },
      vaultSections: [aSection({}, [anItem()])],
      monitors: [aMonitor({ PredefinedVariables: [{ Key: 'login', Value: { vault: 'Web/shop-login' } }] })],
    });
    const live = liveSnapshot({
      vaultSections: [aLiveSection()],
      vaultItems: [aLiveItem('Web'), aLiveItem('Web', { Name: 'old' })],
      monitors: [aLiveMonitor({ PredefinedVariables: [{ Key: 'login', Value: `{{vault:${item}}}` }] })],
    });
    const plan = planFor(desired, live);
    expect(plan.steps.map((s) => [s.action, s.id, s.dependsOn])).toEqual([
      ['update', 'monitor:Shop homepage', []],
      ['delete', 'vaultItem:Web/old', ['monitor:Shop homepage']],
    ]);
  });

  it('lists an undeclared item as unmanaged without prune', () => {
    const live = liveSnapshot({ vaultSections: [aLiveSection()], vaultItems: [aLiveItem('Web'), aLiveItem('Web', { Name: 'old' })] });
    const plan = planFor(desiredState({ manage: vaultOnly(false), vaultSections: [aSection({}, [anItem()])] }), live);
    expect(plan.steps).toEqual([]);
    expect(plan.unmanaged).toEqual([{ kind: 'vaultItem', key: 'Web/old', guid: guidFor('vaultItem', 'Web/old') }]);
  });

  it('never puts a secret value in the plan or any rendering, on create, update and unchanged paths', () => {
    const desired = desiredState({
      manage: vaultOnly(true),
      vaultSections: [
        aSection({}, [
          withPassword(CANARY, { Name: 'a' }),
          anItem({ Name: 'b', VaultItemType: 'OneTimePassword', Value: secret(`${CANARY}-otp`, 'OTP') }),
          anItem({ Name: 'c', VaultItemType: 'CertificateArchive', CertificateArchive: { Password: secret(`${CANARY}-pw`), ArchiveData: secret(`${CANARY}-data`) } }),
        ]),
      ],
    });
    const live = liveSnapshot({ vaultSections: [aLiveSection()], vaultItems: [aLiveItem('Web', { Name: 'a', Notes: 'monsync:fp=00' })] });
    const plan = planFor(desired, live);
    expect(plan.steps.map((s) => s.action)).toEqual(['update', 'create', 'create']);
    expect(allOutputs(plan)).not.toContain(CANARY);
    expect(allOutputs(plan)).toContain('(sensitive)');
  });
});
