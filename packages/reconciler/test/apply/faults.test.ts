/**
 * Apply under the emulator's faults: a lost answer to an applied create, 5xx, resets, 429 bursts. Never a
 * duplicate, never a step run before what it depends on, and a rerun converges. The trees hold every kind, people
 * (operators, their duty schedules and authorizations, operator groups with members and authorizations, vault access)
 * and alert definitions (by name, with levels, level members, level integrations and covered monitors and groups)
 * included; after the faulty runs, a clean rerun leaves nothing to plan and the account's alerting as the tree
 * declares it.
 */
import { describe, expect, it } from 'vitest';
import { profileFromEnv, type FaultKind } from '@monsync/emulator';
import type { ApplyReport, StepEvent } from '../../src/apply/types.js';
import type { DesiredState } from '../../src/desired.js';
import type { Plan } from '../../src/plan/types.js';
import { aGroup, aMonitor, anItem, anOperator, anOperatorGroup, anSla, aPeriod, aReport, aRumWebsite, aSection, desiredState, secret } from '../../src/test-utils/index.js';
import { addChatIntegration, declaredDefinition, expectAlertingMatches } from './alert-trees.js';
import { applyWith, describeSteps, planAgainst, writeRequests, type Harness, useEmulatorHarness } from './harness.js';
import { duplicates, fleet, PRUNE_ALL, PRUNE_ALL_WITH_PEOPLE, seededOperators } from './trees.js';

let h: Harness;
useEmulatorHarness((harness) => (h = harness));

/** One object of every creatable kind, each created by its own POST route. */
/** `accessLevel` of sam on the Web section; `none-left`: the section declares an empty access list. */
const oneOfEach = (accessLevel: 'view' | 'change' | 'none-left' = 'view') =>
  desiredState({
    manage: { ...PRUNE_ALL_WITH_PEOPLE, alertDefinitions: { prune: false } },
    safety: { maxDeletePercent: 100, maxUpdatePercent: 100 },
    vaultSections: [aSection({ Name: 'Web', access: accessLevel === 'none-left' ? [] : [{ operator: 'sam@example.com', level: accessLevel }] } as never, [anItem({ Password: secret('CANARY-faults-1') })])],
    monitors: [aMonitor({ PredefinedVariables: [{ Key: 'login', Value: { vault: 'Web/shop-login' } }] })],
    monitorGroups: [aGroup({ members: ['Shop homepage'] })],
    slas: [anSla({ exclusionPeriods: [aPeriod()] })],
    scheduledReports: [aReport()],
    rumWebsites: [aRumWebsite()],
    operators: [
      ...seededOperators(),
      anOperator({
        Email: 'sam@example.com',
        Password: secret('CANARY-faults-operator', 'SAM_PASSWORD'),
        dutySchedules: [{ ScheduleMode: 'Daily', StartTime: '08:00', EndTime: '17:00' }],
        authorizations: ['AccountAccess', 'AllowInfra'],
      } as never),
    ],
    operatorGroups: [anOperatorGroup({ Description: 'On call', members: ['sam@example.com'], authorizations: ['AllowInfra'] } as never)],
    alertDefinitions: [
      declaredDefinition('Shop on-call', true, { monitors: [], monitorGroups: ['Shop'] }, [
        { Id: 1, fields: { EscalationMode: 'AlertOnErrorCount', ThresholdErrorCount: 2, IsActive: true }, members: { operators: ['sam@example.com'], operatorGroups: [] }, integrations: [{ integration: 'Email', ExtraEmailAddresses: ['oncall@example.com'] }] },
      ]),
    ],
  });

const CREATE_ROUTES: [string, string][] = [
  ['/VaultSection', 'vaultSection:Web'],
  ['/VaultItem', 'vaultItem:Web/shop-login'],
  ['/MonitorGroup', 'monitorGroup:Shop'],
  ['/Monitor', 'monitor:Shop homepage'],
  ['/MonitorGroup/{monitorGroupGuid}/Member/{monitorGuid}', 'groupMembership:Shop/Shop homepage'],
  ['/Sla', 'sla:Gold'],
  ['/Sla/{slaGuid}/ExclusionPeriod', 'slaExclusionPeriod:Gold/Black Friday freeze'],
  ['/ScheduledReport', 'scheduledReport:weekly-exec'],
  ['/Rum/Website', 'rumWebsite:Shop storefront'],
  ['/Operator', 'operator:sam@example.com'],
  ['/Operator/{operatorGuid}/DutySchedule', 'dutySchedule:sam@example.com/Daily 08:00-17:00'],
  ['/OperatorGroup', 'operatorGroup:On call'],
  ['/OperatorGroup/{operatorGroupGuid}/Member/{operatorGuid}', 'operatorGroupMember:On call/sam@example.com'],
  ['/OperatorGroup/{operatorGroupGuid}/Authorization/{authorizationType}', 'operatorGroupAuthorization:On call/AllowInfra'],
  ['/Operator/{operatorGuid}/Authorization/{authorizationType}', 'operatorAuthorization:sam@example.com/AllowInfra'],
  ['/VaultSection/{vaultSectionGuid}/Authorization', 'vaultAccess:Web/operator:sam@example.com'],
  ['/AlertDefinition', 'alertDefinition:Shop on-call'],
  ['/AlertDefinition/{alertDefinitionGuid}/Member/MonitorGroup/{memberGuid}', 'alertDefinitionMember:Shop on-call/monitorGroup:Shop'],
  ['/AlertDefinition/{alertDefinitionGuid}/EscalationLevel/{escalationLevelId}/Member/Operator/{memberGuid}', 'escalationLevelMember:Shop on-call/1/operator:sam@example.com'],
  ['/AlertDefinition/{alertDefinitionGuid}/EscalationLevel/{escalationLevelId}/Integration', 'escalationLevelIntegration:Shop on-call/1/Email'],
];

/** Every step ran only after all the steps it depends on were done (so nothing was deleted before its replacement). */
function ranInOrder(plan: Plan, report: ApplyReport, finished: readonly string[]): void {
  const done = new Set(report.done.map((d) => d.id));
  for (const step of plan.steps) {
    if (!done.has(step.id)) continue;
    for (const dep of step.dependsOn) {
      expect(done.has(dep), `${step.id} ran although ${dep} did not finish`).toBe(true);
      expect(finished.indexOf(dep)).toBeLessThan(finished.indexOf(step.id));
    }
  }
}

describe('apply when the answer to an applied create is lost', () => {
  it.each(CREATE_ROUTES)('POST %s: the object exists exactly once and the step is done', async (route, stepId) => {
    const desired = oneOfEach();
    const plan = await planAgainst(h, desired);
    h.emulator.control.setFaults({ scripted: [{ method: 'POST', route, count: 1, kind: 'applied-then-reset' }] });
    const report = await applyWith(h, plan, desired);
    expect(report.failed).toEqual([]);
    expect(report.done.find((d) => d.id === stepId)?.note).toBe('found after an unclear outcome');
    expect(h.emulator.control.faults().scripted).toEqual([]);
    expect(await duplicates(h)).toEqual([]);
    expect(describeSteps(await planAgainst(h, desired))).toEqual([]);
  });

  it.each<[FaultKind, string]>([
    ['500', 'created after an unclear outcome'],
    ['503', 'created after an unclear outcome'],
    ['reset', 'created after an unclear outcome'],
  ])('POST /Monitor failing with %s before it is applied: found absent, sent again, created once', async (kind, note) => {
    const desired = oneOfEach();
    const plan = await planAgainst(h, desired);
    h.emulator.control.setFaults({ scripted: [{ method: 'POST', route: '/Monitor', count: 1, kind }] });
    const report = await applyWith(h, plan, desired);
    expect(report.failed).toEqual([]);
    expect(report.done.find((d) => d.id === 'monitor:Shop homepage')?.note).toBe(note);
    // A create answers 200 or 201 depending on the emulator profile; what matters is one fault, then one success.
    // The rate-limited profile's refusals are left out: the service never carried those requests out.
    const posts = writeRequests(h).filter((e) => e.route === 'POST /Monitor' && e.fault !== 'rate-limit');
    expect(posts.map((e) => e.fault ?? (e.status >= 200 && e.status < 300 ? '2xx' : String(e.status)))).toEqual([kind, '2xx']);
    expect(await duplicates(h)).toEqual([]);
  });

  it('retries a create answered 429 (not applied) within the client\'s attempts, and looks nothing up', async () => {
    const desired = oneOfEach();
    const plan = await planAgainst(h, desired);
    h.emulator.control.setFaults({ scripted: [{ method: 'POST', route: '/Sla', count: 3, kind: '429' }] });
    const events: StepEvent[] = [];
    const report = await applyWith(h, plan, desired, { onStep: (e) => events.push(e) });
    expect(report.ok).toBe(true);
    expect(report.done.find((d) => d.id === 'sla:Gold')?.note).toBeUndefined();
    expect(events.filter((e) => e.type === 'retry')).toEqual([]);
    // Three refusals, then the create; a refusal of the rate-limited profile's own comes on top of those.
    expect(writeRequests(h).filter((e) => e.route === 'POST /Sla' && e.fault !== 'rate-limit')).toHaveLength(4);
    expect(await duplicates(h)).toEqual([]);
  });

  it('sends a create no more often than the client\'s configured attempts, the 429s it retried itself included', async () => {
    const desired = oneOfEach();
    const plan = await planAgainst(h, desired);
    // 3 refusals the client retries, then unclear failures: 5 POSTs in all, then the step fails.
    h.emulator.control.setFaults({
      scripted: [
        { method: 'POST', route: '/Sla', count: 3, kind: '429' },
        { method: 'POST', route: '/Sla', count: 10, kind: '500' },
      ],
    });
    const report = await applyWith(h, plan, desired);
    expect(report.failed.map((f) => `${f.id} ${String(f.status)}`)).toEqual(['sla:Gold 500']);
    expect(writeRequests(h).filter((e) => e.route === 'POST /Sla')).toHaveLength(5);
    expect(h.client.maxAttempts).toBe(5);
  });

  it('fails the step, without a duplicate, when every attempt of a create is unclear and the object is absent', async () => {
    const desired = oneOfEach();
    const plan = await planAgainst(h, desired);
    h.emulator.control.setFaults({ scripted: [{ method: 'POST', route: '/Monitor', count: 5, kind: '503' }] });
    const report = await applyWith(h, plan, desired);
    expect(report.failed.map((f) => `${f.id} ${String(f.status)}`)).toEqual(['monitor:Shop homepage 503']);
    expect(report.skipped.map((s) => s.id)).toEqual(['groupMembership:Shop/Shop homepage']);
    expect(await h.client.monitors.list().toArray()).toEqual([]);
  });
});

describe('apply when the answer to a change of vault access is lost', () => {
  it.each<FaultKind>(['applied-then-reset', '500'])('changing a section\'s access level with its POST answered %s: done in the same apply, granted once', async (kind) => {
    await applyWith(h, await planAgainst(h, oneOfEach('view')), oneOfEach('view'));
    const desired = oneOfEach('change');
    const plan = await planAgainst(h, desired);
    expect(describeSteps(plan)).toEqual(['update vaultAccess:Web/operator:sam@example.com']);
    h.emulator.control.setFaults({ scripted: [{ method: 'POST', route: '/VaultSection/{vaultSectionGuid}/Authorization', count: 1, kind }] });
    const report = await applyWith(h, plan, desired);
    expect(report.failed).toEqual([]);
    expect(h.emulator.control.faults().scripted).toEqual([]);
    expect(await duplicates(h)).toEqual([]);
    expect(describeSteps(await planAgainst(h, desired))).toEqual([]);
  });

  it('taking a section\'s access away when the answer to its first DELETE is lost: every authorization goes, in the same apply', async () => {
    await applyWith(h, await planAgainst(h, oneOfEach('change')), oneOfEach('change'));
    const desired = oneOfEach('none-left');
    const plan = await planAgainst(h, desired);
    expect(describeSteps(plan)).toEqual(['delete vaultAccess:Web/operator:sam@example.com']);
    // Applied, then a 500: the client sends the DELETE again and is told 404; the View authorization is still to go.
    h.emulator.control.setFaults({ scripted: [{ method: 'DELETE', route: '/VaultSection/{vaultSectionGuid}/Authorization/{authorizationGuid}', count: 1, kind: 'applied-then-500' }] });
    const report = await applyWith(h, plan, desired);
    expect(report.failed).toEqual([]);
    expect(h.emulator.control.faults().scripted).toEqual([]);
    expect(describeSteps(await planAgainst(h, desired))).toEqual([]);
  });
});

describe('apply when the step that replaces a reference fails', () => {
  it('does not delete a vault item while the monitor that should stop using it could not be updated', async () => {
    const tree = (item: string) =>
      desiredState({
        manage: PRUNE_ALL,
        safety: { maxDeletePercent: 100, maxUpdatePercent: 100 },
        vaultSections: [aSection({ Name: 'Web' }, [anItem({ Name: item, Password: secret(`CANARY-${item}`) })])],
        monitors: [aMonitor({ PredefinedVariables: [{ Key: 'login', Value: { vault: `Web/${item}` } }] })],
      });
    const first = tree('old-login');
    await applyWith(h, await planAgainst(h, first), first);
    const second = tree('new-login');
    const plan = await planAgainst(h, second);
    expect(plan.steps.find((s) => s.id === 'vaultItem:Web/old-login')?.dependsOn).toEqual(['monitor:Shop homepage']);
    // Every attempt of the monitor's PATCH fails: the client sends it 5 times (its retry policy), apply no more.
    h.emulator.control.setFaults({ scripted: [{ method: 'PATCH', route: '/Monitor/{monitorGuid}', count: 5, kind: '500' }] });
    h.emulator.control.clearLog();
    const report = await applyWith(h, plan, second);
    expect(report.failed.map((f) => f.id)).toEqual(['monitor:Shop homepage']);
    expect(report.skipped).toEqual([expect.objectContaining({ id: 'vaultItem:Web/old-login', action: 'delete', waitedFor: 'monitor:Shop homepage' })]);
    expect(report.done.map((d) => d.id)).toEqual(['vaultItem:Web/new-login']);
    const items = await h.client.vaultItems.list().toArray();
    expect(items.map((i) => i.Name).sort()).toEqual(['new-login', 'old-login']);
    expect(writeRequests(h).filter((e) => e.method === 'DELETE')).toEqual([]);
    // The next run finishes the replacement, then the delete.
    const rerun = await applyWith(h, await planAgainst(h, second), second);
    expect(rerun.ok).toBe(true);
    expect((await h.client.vaultItems.list().toArray()).map((i) => i.Name)).toEqual(['new-login']);
  });
});

const SEEDS = Number(process.env.MONSYNC_FAULT_SEEDS ?? 24);

describe(`apply with fault rate 0.1 and 429 bursts, over ${SEEDS} seeds`, () => {
  it('converges within 3 runs with no duplicate, nothing missing and no step run before its dependencies', async () => {
    const before = fleet(0, { alerting: true });
    const after = fleet(1, { alerting: true });
    const runsNeeded: number[] = [];
    for (let seed = 1; seed <= SEEDS; seed += 1) {
      await startFrom(before);
      h.emulator.control.setFaults({
        rate: 0.1,
        seed,
        retryAfterSeconds: 0,
        scripted: [
          { method: 'POST', route: '/Monitor', count: 3, kind: '429' },
          { method: 'GET', route: '/VaultItem', count: 2, kind: '429' },
          { method: 'PATCH', route: '/Monitor/{monitorGuid}', count: 3, kind: '429' },
        ],
      });
      let converged = 0;
      for (let run = 1; run <= 3 && converged === 0; run += 1) {
        let plan: Plan;
        try {
          plan = await planAgainst(h, after);
        } catch (e) {
          if (process.env.DEBUG_FAULTS) console.log(seed, run, 'plan failed', String(e));
          continue; // A listing that failed every retry fails the plan (never read as empty): the next run reads again.
        }
        if (describeSteps(plan).length === 0) {
          converged = run;
          break;
        }
        const finished: string[] = [];
        const report = await applyWith(h, plan, after, { onStep: (e) => void ((e.type === 'done' || e.type === 'failed') && finished.push(e.step.id)) });
        if (process.env.DEBUG_FAULTS) console.log(seed, run, JSON.stringify(report.failed.map((f) => [f.id, f.message])), report.skipped.length);
        ranInOrder(plan, report, finished);
        expect(await withoutFaults(() => duplicates(h)), `seed ${seed}, run ${run}`).toEqual([]);
        if (report.ok) converged = run;
      }
      h.emulator.control.setFaults({ rate: 0, scripted: [] });
      expect(converged, `seed ${seed} did not converge within 3 runs`).toBeGreaterThan(0);
      await expectCleanRerunConverges(after, seed);
      runsNeeded.push(converged);
    }
    expect(runsNeeded).toHaveLength(SEEDS);
  });
});

/**
 * An empty account (with the chat integration its alert definitions attach), faults off, brought to `before` (an
 * earlier version of the tree), so the faulty runs that follow create, update, rename and delete.
 */
async function startFrom(before: DesiredState): Promise<void> {
  h.emulator.control.setFaults({ rate: 0, scripted: [] });
  await h.emulator.control.reset('empty');
  await addChatIntegration(h);
  const setup = await applyWith(h, await planAgainst(h, before), before);
  expect(setup.ok).toBe(true);
}

/**
 * With faults off: one more plan and apply (what the next CI run does), after which nothing is left to plan and the
 * account's alert definitions are those of the tree, read back; never a duplicate.
 */
async function expectCleanRerunConverges(after: DesiredState, seed: number): Promise<void> {
  h.emulator.control.setFaults({ rate: 0, scripted: [] });
  const plan = await planAgainst(h, after);
  if (describeSteps(plan).length > 0) {
    expect((await applyWith(h, plan, after)).failed, `seed ${seed}`).toEqual([]);
    expect(describeSteps(await planAgainst(h, after)), `seed ${seed}`).toEqual([]);
  }
  await expectAlertingMatches(h.client, after);
  expect(await duplicates(h), `seed ${seed}`).toEqual([]);
}

/** Reads the account with faults paused, so a check itself cannot fail. */
async function withoutFaults<T>(read: () => Promise<T>): Promise<T> {
  const saved = h.emulator.control.faults();
  h.emulator.control.setFaults({ rate: 0, scripted: [] });
  try {
    return await read();
  } finally {
    // The same rate and seed would restart the sequence; a derived seed keeps the faults coming.
    h.emulator.control.setFaults({ rate: saved.rate, seed: saved.seed + 1000, scripted: saved.scripted });
  }
}

// 10 seeds in CI; MONSYNC_HEAVY_FAULT_SEEDS=100 measures the figures quoted below (the floors scale: 9 in 10).
const HEAVY_SEEDS = Number(process.env.MONSYNC_HEAVY_FAULT_SEEDS ?? 10);
const HEAVY_FLOOR = Math.ceil(HEAVY_SEEDS * 0.9);

/**
 * Each seed: the account set up as `before`, then at fault rate 0.4 (before a write: 500, 503, 429 and resets,
 * nothing applied; after a write: applied, then a reset or a 500) up to 3 runs of what CI does: plan, then apply
 * that plan (a plan that fails ends its run). Never a duplicate; a seed that converged plans nothing afterwards.
 * Returns whether each seed planned in its first run, and the runs each needed (0: not within 3).
 */
async function heavyFaultRuns(before: DesiredState, after: DesiredState): Promise<{ planFirstTry: boolean[]; runsNeeded: number[] }> {
  const planFirstTry: boolean[] = [];
  const runsNeeded: number[] = [];
  for (let seed = 1; seed <= HEAVY_SEEDS; seed += 1) {
    await startFrom(before);
    h.emulator.control.setFaults({ rate: 0.4, seed, retryAfterSeconds: 0, kinds: ['500', '503', '429', 'reset', 'applied-then-reset', 'applied-then-500'] });
    let converged = 0;
    for (let run = 1; run <= 3 && converged === 0; run += 1) {
      const plan = await planAgainst(h, after).catch(() => undefined);
      if (run === 1) planFirstTry.push(plan !== undefined);
      if (plan === undefined) continue;
      if (describeSteps(plan).length === 0 || (await applyWith(h, plan, after)).ok) converged = run;
    }
    h.emulator.control.setFaults({ rate: 0, scripted: [] });
    expect(await duplicates(h), `seed ${seed}`).toEqual([]);
    if (converged > 0) expect(describeSteps(await planAgainst(h, after)), `seed ${seed}`).toEqual([]);
    await expectCleanRerunConverges(after, seed);
    runsNeeded.push(converged);
  }
  const planned = planFirstTry.filter(Boolean).length;
  const withinTwo = runsNeeded.filter((runs) => runs >= 1 && runs <= 2).length;
  console.log(`fault rate 0.4 over ${HEAVY_SEEDS} seeds: plan in one run ${planned}/${HEAVY_SEEDS}; converged within 2 runs ${withinTwo}/${HEAVY_SEEDS}, runs per seed ${JSON.stringify(runsNeeded)} (0: not within 3)`);
  return { planFirstTry, runsNeeded };
}

describe(`plan and apply at fault rate 0.4, over ${HEAVY_SEEDS} seeds`, () => {
  // A plan sends a dozen listings (about 30 with people) and fails when one of them fails every attempt: at 5 attempts
  // (0.4^5, about 1% a listing) a plan got through in one run 87 of 100 seeds, as (1 - 0.4^5)^12 predicts. Reads now
  // get DEFAULT_READ_ATTEMPTS (8: 0.4^8, under 0.1% a listing). Measured over 100 seeds (MONSYNC_HEAVY_FAULT_SEEDS),
  // plan in one run / converged within 2 runs, without people and with: default 99/99 and 99/98, strict 99/99 and
  // 99/98, published 99/99 and 99/100, lean 98/98 and 99/98, every seed within 3 runs.
  // The figures are a claim about fault rate 0.4. The rate-limited profile refuses another 10% of requests with a 429 on
  // top (about 0.46 in all) and measures 96/96 without people, 94/88 with (a write keeps 5 attempts, and people double
  // an apply's writes), one seed not within 3 runs. Its 429s come from one sequence drawn since the emulator started, so
  // which seeds fail depends on the tests run before (this file's run: 9/10 and 9/10); at 96 in 100, ten seeds fall to 8
  // about one time in ten, so the floor is no claim there. That profile's own suite is the rest of this file and the
  // bench's rate-limited read.
  it.skipIf(profileFromEnv() === 'rate-limited')('plans in one run in at least 9 of 10 seeds and converges in at most 2 runs in at least 9 (3 in all), with 500s, 429s and resets before and after writes', async () => {
    const { planFirstTry, runsNeeded } = await heavyFaultRuns(fleet(0, { people: false }), fleet(1, { people: false }));
    // The figures the suite quotes: how often a plan got through in one run, and how many runs each apply needed.
    expect(planFirstTry.filter(Boolean).length).toBeGreaterThanOrEqual(HEAVY_FLOOR);
    expect(runsNeeded.filter((runs) => runs >= 1 && runs <= 2).length, JSON.stringify(runsNeeded)).toBeGreaterThanOrEqual(HEAVY_FLOOR);
    expect(runsNeeded.every((runs) => runs >= 1), JSON.stringify(runsNeeded)).toBe(true);
  });

  it.skipIf(profileFromEnv() === 'rate-limited')('with people too: the same figures, never a duplicate operator, group, duty schedule or access, and a seed that converged plans nothing after', async () => {
    const { planFirstTry, runsNeeded } = await heavyFaultRuns(fleet(0), fleet(1));
    expect(planFirstTry.filter(Boolean).length).toBeGreaterThanOrEqual(HEAVY_FLOOR);
    expect(runsNeeded.filter((runs) => runs >= 1 && runs <= 2).length, JSON.stringify(runsNeeded)).toBeGreaterThanOrEqual(HEAVY_FLOOR);
    expect(runsNeeded.every((runs) => runs >= 1), JSON.stringify(runsNeeded)).toBe(true);
  });

  // Alert definitions add 2 listings and 8 per definition (its levels and members, each level's members and
  // integrations): with people, about 60 listings, so a plan gets through in one run about 19 times in 20 (measured
  // 27/30 and 30/30), too few for the floors above to hold without flaking. What must hold whatever the count:
  // never a duplicate, and after the faulty runs a clean one leaves nothing to plan and the alerting as declared.
  it('with alert definitions too (created, changed and deleted, with their levels, members and integrations): never a duplicate definition, member or integration, and a clean rerun converges with the account as declared', async () => {
    const { runsNeeded } = await heavyFaultRuns(fleet(0, { alerting: true }), fleet(1, { alerting: true }));
    expect(runsNeeded).toHaveLength(HEAVY_SEEDS);
  });
});
