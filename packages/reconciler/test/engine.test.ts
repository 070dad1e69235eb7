import { describe, expect, it } from 'vitest';
import { assemblePlan, PlanError, renderJson, type LiveSnapshot } from '../src/index.js';
import { scenario } from './scenario.js';
import {
  aLiveItem,
  aLiveMonitor,
  aLiveSection,
  aLiveSla,
  aMonitor,
  anItem,
  anSla,
  aSection,
  desiredState,
  liveSnapshot,
  planFor,
  secret,
  type DesiredParts,
} from '../src/test-utils/index.js';

function thrown(run: () => unknown): PlanError {
  try {
    run();
  } catch (error) {
    if (error instanceof PlanError) return error;
    throw error;
  }
  throw new Error('expected a PlanError');
}

describe('assemblePlan', () => {
  it('orders creates and updates by kind (sections, items, groups, monitors, members, SLAs, periods, reports, alerts), then deletes in reverse', () => {
    const { parts, live } = scenario(true);
    const plan = planFor(desiredState(parts), liveSnapshot(live));
    expect(plan.steps.map((s) => `${s.action} ${s.id}`)).toEqual([
      'create vaultSection:New',
      'create vaultItem:Web/api-key',
      'update vaultItem:Web/shop-login',
      'create monitorGroup:Fresh',
      'create monitor:Checkout',
      'update monitor:Shop homepage',
      'create groupMembership:Fresh/Checkout',
      'create groupMembership:Shop/Checkout',
      'update sla:Gold',
      'create sla:Silver',
      'create slaExclusionPeriod:Gold/Cyber Monday',
      'create scheduledReport:daily',
      'update scheduledReport:weekly-exec',
      'update alertDefinition:Default alerting',
      'delete alertDefinition:Old paging',
      'delete scheduledReport:old',
      'delete slaExclusionPeriod:Gold/Old freeze',
      'delete sla:Bronze',
      // Removed explicitly: the monitor may be retired rather than deleted (removal: auto), and would keep it.
      'delete groupMembership:Shop/Retired',
      'delete monitor:Retired',
      'delete monitorGroup:Legacy',
      'delete vaultItem:Old/stale',
      'delete vaultSection:Old',
    ]);
    const byId = new Map(plan.steps.map((s) => [s.id, s]));
    expect(byId.get('monitor:Checkout')?.dependsOn).toEqual(['vaultItem:Web/api-key']);
    expect(byId.get('groupMembership:Fresh/Checkout')?.dependsOn).toEqual(['monitor:Checkout', 'monitorGroup:Fresh']);
    expect(byId.get('vaultItem:Old/stale')?.dependsOn).toEqual(['monitor:Retired']);
    expect(byId.get('vaultSection:Old')?.dependsOn).toEqual(['vaultItem:Old/stale']);
    // The member removal Shop/Retired is planned of its own: with removal auto the monitor may be retired, not deleted.
    expect(byId.get('groupMembership:Shop/Retired')?.action).toBe('delete');
    expect(plan.summary).toEqual({ create: 9, update: 5, delete: 9, ensure: 0, unchanged: 4, unmanaged: 0 });
  });

  it('gives byte-identical JSON for the same inputs, whatever order they are listed in', () => {
    const { parts, live } = scenario(true);
    const first = renderJson(planFor(desiredState(parts), liveSnapshot(live)));
    expect(renderJson(planFor(desiredState(parts), liveSnapshot(live)))).toBe(first);

    const reversed: DesiredParts = { ...parts };
    for (const key of ['vaultSections', 'monitorGroups', 'monitors', 'slas', 'scheduledReports'] as const) reversed[key] = [...(parts[key] ?? [])].reverse() as never;
    const liveReversed = { ...live };
    for (const key of ['vaultSections', 'vaultItems', 'monitorGroups', 'monitors', 'slas', 'scheduledReports'] as const) liveReversed[key] = [...(live?.[key] ?? [])].reverse();
    expect(renderJson(planFor(desiredState(reversed), liveSnapshot(liveReversed)))).toBe(first);
  });

  it('reads no clock or environment: a plan made later with other env gives the same JSON', () => {
    const { parts, live } = scenario(false);
    const desired = desiredState(parts);
    const snapshot = liveSnapshot(live);
    const before = renderJson(planFor(desired, snapshot));
    const saved = process.env.TZ;
    process.env.TZ = 'Pacific/Kiritimati';
    try {
      expect(renderJson(planFor(desired, snapshot))).toBe(before);
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it('refuses to plan a kind the snapshot did not read, rather than reading it as empty', () => {
    const error = thrown(() => planFor(desiredState({ manage: { monitors: { prune: true } } }), liveSnapshot({ read: ['vaultSection'] })));
    expect(error.code).toBe('LIVE_NOT_READ');
    expect(error.message).toContain('does not include monitor objects');
  });

  it('plans no deletes from an empty live listing', () => {
    const plan = planFor(desiredState({ manage: { monitors: { prune: true } }, monitors: [aMonitor()] }), liveSnapshot());
    expect(plan.steps.map((s) => s.action)).toEqual(['create']);
    expect(plan.safe).toBe(true);
  });

  it('marks the plan unsafe when an empty config would prune every one of a kind with live objects', () => {
    const plan = planFor(desiredState({ manage: { monitors: { prune: true } } }), liveSnapshot({ monitors: [aLiveMonitor({ Name: 'a' }), aLiveMonitor({ Name: 'b' })] }));
    expect(plan.summary.delete).toBe(2);
    expect(plan.safe).toBe(false);
    expect(plan.violations).toEqual([
      {
        kind: 'monitor',
        action: 'delete',
        count: 2,
        total: 2,
        percent: 100,
        limit: 30,
        rule: 'every',
        minCount: 3,
        setting: 'safety.maxDeletePercent',
        message: 'plan deletes every one of the 2 live monitors; review it, then apply with --allow-unsafe, or raise safety.maxDeletePercent in monsync.yaml',
      },
    ]);
  });

  it('lets one delete of two objects through: a share of a small account is not an accident', () => {
    const plan = planFor(desiredState({ manage: { monitors: { prune: true } }, monitors: [aMonitor({ Name: 'a' })] }), liveSnapshot({ monitors: [aLiveMonitor({ Name: 'a' }), aLiveMonitor({ Name: 'b' })] }));
    expect(plan.summary.delete).toBe(1);
    expect(plan.violations).toEqual([]);
  });

  it('stays safe at exactly the threshold and applies the update threshold per kind', () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r', 's', 't'];
    const live = liveSnapshot({ monitors: names.map((n) => aLiveMonitor({ Name: n })) });
    const atLimit = desiredState({ manage: { monitors: { prune: true } }, monitors: names.slice(6).map((n) => aMonitor({ Name: n })) });
    expect(planFor(atLimit, live).summary.delete).toBe(6);
    expect(planFor(atLimit, live).safe).toBe(true);

    const updates = desiredState({ manage: { monitors: { prune: false } }, monitors: names.map((n, i) => aMonitor({ Name: n, IsActive: i > 11 })) });
    const plan = planFor(updates, live);
    expect(plan.violations.map((v) => [v.action, v.count, v.total, v.percent, v.limit])).toEqual([['update', 12, 20, 60, 50]]);
  });

  it('refuses a declared key held by two live objects but lets undeclared duplicates be', () => {
    const twins = [aLiveMonitor({ Name: 'twin', MonitorGuid: 'g-1' }), aLiveMonitor({ Name: 'twin', MonitorGuid: 'g-2' })];
    const plan = planFor(desiredState({ manage: { monitors: { prune: false } } }), liveSnapshot({ monitors: twins }));
    expect(plan.unmanaged.map((u) => u.guid)).toEqual(['g-1', 'g-2']);
    const error = thrown(() => planFor(desiredState({ manage: { monitors: { prune: false } }, monitors: [aMonitor({ Name: 'twin' })] }), liveSnapshot({ monitors: twins })));
    expect(error.code).toBe('DUPLICATE_LIVE_KEY');
    expect(error.message).toMatch(/2 live monitors have the key "twin": g-1 \([^)]*\); g-2 \(/);
  });

  it('gives unique step ids when deleting two live objects with one key', () => {
    const twins = [aLiveMonitor({ Name: 'twin', MonitorGuid: 'g-1' }), aLiveMonitor({ Name: 'twin', MonitorGuid: 'g-2' })];
    const plan = planFor(desiredState({ manage: { monitors: { prune: true } } }), liveSnapshot({ monitors: twins }));
    expect(plan.steps.map((s) => s.id)).toEqual(['monitor:twin:delete', 'monitor:twin:delete:g-2']);
  });

  it('collects every problem in one PlanError with file positions', () => {
    const error = thrown(() =>
      planFor(
        desiredState({
          manage: { monitors: { prune: false } },
          monitors: [aMonitor({ Name: 'x' }, { file: 'a.yaml', line: 1, column: 1 }), aMonitor({ Name: 'x' }, { file: 'b.yaml', line: 4, column: 3 }), aMonitor({ Name: 'y', MonitorGuid: 'nope' }, { file: 'c.yaml', line: 2, column: 5 })],
        }),
        liveSnapshot(),
      ),
    );
    expect(error.problems.map((p) => p.code).sort()).toEqual(['DUPLICATE_DESIRED_KEY', 'PINNED_GUID_NOT_FOUND']);
    expect(error.message).toContain('c.yaml:2:5: monitor "y" pins MonitorGuid nope, which is not in the account');
  });

  it('refuses a reference to an object the plan would prune', () => {
    const desired = desiredState({ manage: { vault: { prune: true }, monitors: { prune: false } }, monitors: [aMonitor({ PredefinedVariables: [{ Key: 'k', Value: { vault: 'Web/shop-login' } }] })] });
    const error = thrown(() => planFor(desired, liveSnapshot({ vaultSections: [aLiveSection()], vaultItems: [aLiveItem('Web')], monitors: [aLiveMonitor()] })));
    expect(error.code).toBe('REFERENCE_TO_DELETED');
  });

  it('plans only the targeted steps and what they depend on', () => {
    const { parts, live } = scenario(false);
    const plan = planFor(desiredState(parts), liveSnapshot(live), { targets: ['groupMembership:Fresh/*', 'monitor:nothing'] });
    expect(plan.steps.map((s) => s.id)).toEqual(['vaultItem:Web/api-key', 'monitorGroup:Fresh', 'monitor:Checkout', 'groupMembership:Fresh/Checkout']);
    expect(plan.warnings).toContainEqual({ code: 'TARGET_NOT_FOUND', message: '--target monitor:nothing matches no step of this plan' });
  });

  it('changes liveDigest when a live object changes and configDigest when a secret changes, without holding either value', () => {
    const desired = (pw: string) => desiredState({ manage: { vault: { prune: false }, monitors: { prune: false } }, vaultSections: [aSection({}, [anItem({ Password: secret(pw) })])], monitors: [aMonitor()] });
    const live = (active: boolean) => liveSnapshot({ vaultSections: [aLiveSection()], monitors: [aLiveMonitor({ IsActive: active })] });
    const base = planFor(desired('one'), live(true));
    expect(base.configDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(planFor(desired('one'), live(false)).liveDigest).not.toBe(base.liveDigest);
    expect(planFor(desired('one'), live(false)).configDigest).toBe(base.configDigest);
    expect(planFor(desired('two'), live(true)).configDigest).not.toBe(base.configDigest);
    expect(planFor(desired('two'), live(true)).liveDigest).toBe(base.liveDigest);
  });

  it('requires fingerprints for declared secrets, so assemblePlan never reveals one itself', () => {
    const desired = desiredState({ manage: { vault: { prune: false } }, vaultSections: [aSection({}, [anItem({ Password: secret('pw') })])] });
    const error = thrown(() => assemblePlan(desired, liveSnapshot()));
    expect(error.code).toBe('MISSING_FINGERPRINT');
  });

  it('plans nothing for kinds absent from manage, even when declared', () => {
    const plan = planFor(desiredState({ manage: { slas: { prune: true } }, monitors: [aMonitor()], slas: [anSla()] }), liveSnapshot({ slas: [aLiveSla()], monitors: [aLiveMonitor({ Name: 'x' })] }));
    expect(plan.steps).toEqual([]);
    expect(plan.unmanaged).toEqual([]);
  });

  it('warns about an ignore pattern naming no kind, and about read-only fields in the config', () => {
    const plan = planFor(desiredState({ manage: { monitors: { prune: false } }, ignore: ['widget:*'], monitors: [aMonitor({ CreatedDate: '2020-01-01T00:00:00' })] }), liveSnapshot());
    expect(plan.warnings.map((w) => w.code)).toEqual(['UNKNOWN_IGNORE_KIND', 'READ_ONLY_FIELD']);
    expect(plan.steps[0]?.desired).not.toHaveProperty('CreatedDate');
  });

  it('leaves the snapshot untouched', () => {
    const { parts, live } = scenario(true);
    const snapshot: LiveSnapshot = liveSnapshot(live);
    const copy = JSON.stringify(snapshot);
    planFor(desiredState(parts), snapshot);
    expect(JSON.stringify(snapshot)).toBe(copy);
  });
});
