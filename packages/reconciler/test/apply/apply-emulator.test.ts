import { describe, expect, it } from 'vitest';
import { SecretChangedError, SecretSourceError } from '../../src/apply/errors.js';
import { applyPlan } from '../../src/apply/apply-plan.js';
import type { StepEvent } from '../../src/apply/types.js';
import type { Plan } from '../../src/plan/types.js';
import {
  aGroup,
  aMonitor,
  anItem,
  anSla,
  aPeriod,
  aReport,
  aSection,
  CANARY,
  desiredState,
  FINGERPRINT_KEY,
  secret,
} from '../../src/test-utils/index.js';
import { applyWith, describeSteps, planAgainst, writeRequests, type Harness, useEmulatorHarness } from './harness.js';

const OTP_CANARY = 'CANARYSEVENFTHREEAC';

const everything = { monitors: { prune: true }, monitorGroups: { prune: true }, vault: { prune: true }, slas: { prune: true }, scheduledReports: { prune: true } };

function shopTree(password = CANARY) {
  return desiredState({
    manage: everything,
    safety: { maxDeletePercent: 100, maxUpdatePercent: 100 },
    vaultSections: [
      aSection({ Name: 'Web' }, [anItem({ Password: secret(password, 'SHOP_PASSWORD') }), anItem({ Name: 'otp', VaultItemType: 'OneTimePassword', Value: secret(OTP_CANARY, 'OTP') })]),
    ],
    monitors: [
      aMonitor({ PredefinedVariables: [{ Key: 'login', Value: { vault: 'Web/shop-login' } }] }),
      aMonitor({ Name: 'Checkout', ErrorConditions: [{ ErrorConditionType: 'HttpStatus', Value: '200' }] }),
    ],
    monitorGroups: [aGroup({ members: ['Shop homepage', 'Checkout'] })],
    slas: [anSla({ exclusionPeriods: [aPeriod()] })],
    scheduledReports: [aReport()],
  });
}

let h: Harness;
useEmulatorHarness((harness) => (h = harness));

/** Freezes plain objects and arrays all the way down (a Secret keeps its own state), so any write to them throws. */
function deepFreeze<T>(value: T): T {
  if (Array.isArray(value) || (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype)) {
    for (const inner of Object.values(value as object)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe('applyPlan against the emulator', () => {
  it('creates every kind from an empty account, after which the plan is empty', async () => {
    const desired = shopTree();
    const plan = await planAgainst(h, desired);
    expect(plan.summary.create).toBe(11);
    const report = await applyWith(h, plan, desired);
    expect(report.failed).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.done.map((d) => d.id).sort()).toEqual(plan.steps.map((s) => s.id).sort());
    expect(describeSteps(await planAgainst(h, desired))).toEqual([]);
  });

  it('leaves the desired tree and the plan as they were: planning and applying read them, never write them', async () => {
    // Planning hands declared fields on without copying them, so a write anywhere downstream would change the tree.
    const desired = deepFreeze(shopTree());
    const before = JSON.stringify(desired);
    const plan = deepFreeze(await planAgainst(h, desired));
    const planBefore = JSON.stringify(plan);
    const report = await applyWith(h, plan, desired);
    expect(report.failed).toEqual([]);
    expect(JSON.stringify(desired)).toBe(before);
    expect(JSON.stringify(plan)).toBe(planBefore);
    expect(describeSteps(await planAgainst(h, desired))).toEqual([]);
  });

  it('substitutes the GUIDs of objects created earlier in the same apply', async () => {
    const desired = shopTree();
    const report = await applyWith(h, await planAgainst(h, desired), desired);
    const guid = (id: string) => report.done.find((d) => d.id === id)?.guid;
    const itemGuid = guid('vaultItem:Web/shop-login');
    const monitorGuid = guid('monitor:Shop homepage');
    expect(itemGuid).toMatch(/^[0-9a-f-]{36}$/);
    const monitor = await h.client.monitors.get(monitorGuid ?? '');
    expect(monitor.PredefinedVariables).toEqual([{ Key: 'login', Value: `{{vault:${itemGuid}}}` }]);
    const members = await h.client.monitorGroups.members(guid('monitorGroup:Shop') ?? '').toArray();
    expect(members.map((m) => m.Name).sort()).toEqual(['Checkout', 'Shop homepage']);
    const items = await h.client.vaultItems.list().toArray();
    expect(items.every((i) => i.VaultSectionGuid === guid('vaultSection:Web'))).toBe(true);
  });

  it('learns the id of an SLA and an exclusion period, which the service creates with 204 and no body', async () => {
    const desired = shopTree();
    const report = await applyWith(h, await planAgainst(h, desired), desired);
    const slaGuid = report.done.find((d) => d.id === 'sla:Gold')?.guid ?? '';
    const slas = await h.client.slas.list().toArray();
    expect(slas.map((s) => s.SlaGuid)).toEqual([slaGuid]);
    const periods = await h.client.slas.exclusionPeriods.list(slaGuid).toArray();
    expect(report.done.find((d) => d.id === 'slaExclusionPeriod:Gold/Black Friday freeze')?.guid).toBe(`${slaGuid}/${String(periods[0]?.ExclusionPeriodId)}`);
  });

  it('writes the fingerprint marker with the secret, so the next plan sees the secret as unchanged', async () => {
    const desired = shopTree();
    await applyWith(h, await planAgainst(h, desired), desired);
    const items = await h.client.vaultItems.list().toArray();
    const login = items.find((i) => i.Name === 'shop-login');
    expect(login?.Notes).toMatch(/^monsync:fp=[0-9a-f]{64}$/);
    const rotated = shopTree('CANARY-rotated-91c2');
    const replan = await planAgainst(h, rotated);
    expect(describeSteps(replan)).toEqual(['update vaultItem:Web/shop-login']);
  });

  it('keeps the report key marker on a scheduled report it creates', async () => {
    const desired = shopTree();
    await applyWith(h, await planAgainst(h, desired), desired);
    const reports = await h.client.scheduledReports.list().toArray();
    expect(reports.map((r) => r.InternalNotes)).toEqual(['monsync:key=weekly-exec']);
  });

  it('updates and deletes what differs, in an order the service accepts (a vault item is unused before it goes)', async () => {
    const first = shopTree();
    await applyWith(h, await planAgainst(h, first), first);
    const second = desiredState({
      manage: everything,
      safety: { maxDeletePercent: 100, maxUpdatePercent: 100 },
      vaultSections: [aSection({ Name: 'Web' }, [anItem({ Name: 'otp', VaultItemType: 'OneTimePassword', Value: secret(OTP_CANARY, 'OTP') })])],
      monitors: [aMonitor({ IsActive: false, PredefinedVariables: [] }), aMonitor({ Name: 'Checkout', ErrorConditions: [{ ErrorConditionType: 'HttpStatus', Value: '200' }] })],
      monitorGroups: [aGroup({ members: ['Checkout'] })],
      slas: [anSla({ UptimeErrorThreshold: 98, exclusionPeriods: [] })],
      scheduledReports: [],
    });
    const plan = await planAgainst(h, second);
    expect(describeSteps(plan).sort()).toEqual(
      [
        'delete groupMembership:Shop/Shop homepage',
        'delete scheduledReport:weekly-exec',
        'delete slaExclusionPeriod:Gold/Black Friday freeze',
        'delete vaultItem:Web/shop-login',
        'update monitor:Shop homepage',
        'update sla:Gold',
      ].sort(),
    );
    const report = await applyWith(h, plan, second);
    expect(report.failed).toEqual([]);
    expect(describeSteps(await planAgainst(h, second))).toEqual([]);
  });

  it('runs the steps it depends on first, whatever the parallelism', async () => {
    const desired = shopTree();
    const plan = await planAgainst(h, desired);
    const order: string[] = [];
    const report = await applyWith(h, plan, desired, { parallelism: 16, onStep: (e) => void (e.type === 'done' && order.push(e.step.id)) });
    expect(report.ok).toBe(true);
    for (const step of plan.steps) for (const dep of step.dependsOn) expect(order.indexOf(dep)).toBeLessThan(order.indexOf(step.id));
  });

  it('skips every step that depends on a failed one, transitively, and finishes the independent ones', async () => {
    const desired = shopTree();
    const plan = await planAgainst(h, desired);
    h.emulator.control.setFaults({ scripted: [{ method: 'POST', route: '/VaultItem', count: 1, kind: '500' }] });
    // A 500 is an unclear outcome: the engine looks for the item, does not find it, and tries again; make it fail for good.
    const report = await applyWith(h, plan, desired, { maxUnclearAttempts: 1 });
    const failed = report.failed.map((f) => f.id);
    expect(failed).toHaveLength(1);
    const failedId = failed[0] ?? '';
    expect(failedId).toMatch(/^vaultItem:Web\//);
    expect(report.failed[0]?.status).toBe(500);
    expect(report.failed[0]?.message).toContain('Internal server error (injected fault)');
    // The account's Default section is pruned: its delete waits for the vault item creates that may replace its items.
    const sectionDelete = expect.objectContaining({ id: 'vaultSection:Default', action: 'delete', waitedFor: failedId });
    if (failedId === 'vaultItem:Web/shop-login') {
      expect(report.skipped).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: 'monitor:Shop homepage', waitedFor: failedId }),
          expect.objectContaining({ id: 'groupMembership:Shop/Shop homepage', waitedFor: failedId, via: 'monitor:Shop homepage' }),
          sectionDelete,
        ]),
      );
      expect(report.skipped).toHaveLength(3);
    } else {
      expect(report.skipped).toEqual([sectionDelete]);
    }
    expect(report.done.map((d) => d.id)).toEqual(expect.arrayContaining(['monitor:Checkout', 'sla:Gold', 'scheduledReport:weekly-exec', 'groupMembership:Shop/Checkout']));
    expect(report.ok).toBe(false);
    expect(report.done.length + report.failed.length + report.skipped.length).toBe(plan.steps.length);
    // Running again converges.
    const again = await applyWith(h, await planAgainst(h, desired), desired);
    expect(again.ok).toBe(true);
    expect(describeSteps(await planAgainst(h, desired))).toEqual([]);
  });

  it('reports the service message of a refused request, with the step that waited for it', async () => {
    const desired = desiredState({
      manage: { slas: { prune: false }, monitors: { prune: false } },
      slas: [anSla({ Description: 'Broken', UptimeErrorThreshold: 99.9, UptimeWarningThreshold: 99, exclusionPeriods: [aPeriod()] })],
      monitors: [aMonitor()],
    });
    const report = await applyWith(h, await planAgainst(h, desired), desired);
    expect(report.failed).toEqual([
      expect.objectContaining({ id: 'sla:Broken', status: 403, code: 'PERMISSION_DENIED', serviceMessage: expect.stringContaining('UptimeWarningThreshold (99) must not be below UptimeErrorThreshold (99.9)') }),
    ]);
    expect(report.skipped).toEqual([expect.objectContaining({ id: 'slaExclusionPeriod:Broken/Black Friday freeze', waitedFor: 'sla:Broken' })]);
    expect(report.done.map((d) => d.id)).toEqual(['monitor:Shop homepage']);
  });
});

describe('applyPlan and secrets', () => {
  it('refuses the whole apply before any write when a secret changed since the plan was made', async () => {
    const planned = shopTree();
    const plan = await planAgainst(h, planned);
    h.emulator.control.clearLog();
    const changed = shopTree('CANARY-changed-after-review');
    const attempt = applyWith(h, plan, changed);
    await expect(attempt).rejects.toThrow(SecretChangedError);
    const error = (await attempt.catch((e: unknown) => e)) as SecretChangedError;
    expect(error.mismatches).toEqual([{ stepId: 'vaultItem:Web/shop-login', pointer: '/Password', source: 'env SHOP_PASSWORD' }]);
    expect(error.message).not.toContain('CANARY');
    expect(writeRequests(h)).toEqual([]);
  });

  it('refuses a plan that writes secrets when it is given no way to read them', async () => {
    const desired = shopTree();
    const plan = await planAgainst(h, desired);
    h.emulator.control.clearLog();
    await expect(applyPlan(plan, h.writer)).rejects.toThrow(SecretSourceError);
    expect(writeRequests(h)).toEqual([]);
  });

  it('refuses when the config no longer declares a secret the plan writes', async () => {
    const plan = await planAgainst(h, shopTree());
    const without = desiredState({ manage: everything, vaultSections: [aSection({ Name: 'Web' }, [anItem()])] });
    await expect(applyPlan(plan, h.writer, { secrets: { desired: without, key: FINGERPRINT_KEY } })).rejects.toThrow(/no longer declares/);
  });

  it('sends the secret values to the service, yet no event or report carries them', async () => {
    const desired = shopTree();
    const events: StepEvent[] = [];
    const report = await applyWith(h, await planAgainst(h, desired), desired, { onStep: (e) => events.push(e) });
    const state = JSON.stringify(h.emulator.control.dump());
    expect(state).toContain(CANARY);
    expect(state).toContain(OTP_CANARY);
    const shown = JSON.stringify({ report, events });
    expect(shown).not.toContain(CANARY);
    expect(shown).not.toContain(OTP_CANARY);
  });
});

describe('applyPlan with a plan it cannot trust', () => {
  const base = (steps: Plan['steps']): Plan => ({
    formatVersion: 1,
    configDigest: '',
    liveDigest: '',
    summary: { create: steps.length, update: 0, delete: 0, ensure: 0, unchanged: 0, unmanaged: 0 },
    safe: true,
    violations: [],
    steps,
    unmanaged: [],
    warnings: [],
  });
  const create = (id: string, dependsOn: string[] = []): Plan['steps'][number] => ({ id, action: 'create', kind: 'monitor', key: id, changes: [], dependsOn, desired: { Name: id, MonitorType: 'Https' } });

  it('refuses a dependency cycle before any write', async () => {
    await expect(applyPlan(base([create('a', ['b']), create('b', ['a'])]), h.writer)).rejects.toThrow(/cycle/);
    expect(writeRequests(h)).toEqual([]);
  });

  it('refuses a dependency on a step the plan does not hold', async () => {
    await expect(applyPlan(base([create('a', ['ghost'])]), h.writer)).rejects.toThrow(/depends on ghost/);
  });

  it('refuses another format version', async () => {
    await expect(applyPlan({ ...base([]), formatVersion: 2 } as unknown as Plan, h.writer)).rejects.toThrow(/formatVersion 2/);
  });
});
