/**
 * A crash after step k of n, for every k: the next run plans exactly the steps not done, and applies them with
 * one write each. No state file is involved: the account itself says what is done.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesiredState } from '../../src/desired.js';
import type { Plan } from '../../src/plan/types.js';
import { aGroup, aMonitor, anItem, anSla, aPeriod, aReport, aSection, desiredState, secret } from '../../src/test-utils/index.js';
import { applyWith, describeSteps, planAgainst, startHarness, writeRequests, type Harness } from './harness.js';
import { PRUNE_ALL } from './trees.js';

const LIMITS = { maxDeletePercent: 100, maxUpdatePercent: 100 };

function earlier(): DesiredState {
  return desiredState({
    manage: PRUNE_ALL,
    safety: LIMITS,
    vaultSections: [aSection({ Name: 'Web' }, [anItem({ Password: secret('CANARY-crash-old') }), anItem({ Name: 'legacy', UserName: 'old' })])],
    monitors: [aMonitor({ Name: 'Old', PredefinedVariables: [{ Key: 'login', Value: { vault: 'Web/legacy' } }] }), aMonitor({ Name: 'Kept' })],
    monitorGroups: [aGroup({ members: ['Old', 'Kept'] })],
    slas: [anSla()],
  });
}

function later(): DesiredState {
  return desiredState({
    manage: PRUNE_ALL,
    safety: LIMITS,
    vaultSections: [aSection({ Name: 'Web' }, [anItem({ Password: secret('CANARY-crash-new') })]), aSection({ Name: 'Api' }, [anItem({ Name: 'token', Password: secret('CANARY-crash-token') })])],
    monitors: [
      aMonitor({ Name: 'Kept', IsActive: false }),
      aMonitor({ Name: 'New', PredefinedVariables: [{ Key: 'token', Value: { vault: 'Api/token' } }] }),
    ],
    monitorGroups: [aGroup({ members: ['Kept', 'New'] })],
    slas: [anSla({ UptimeErrorThreshold: 97, exclusionPeriods: [aPeriod()] })],
    scheduledReports: [aReport()],
  });
}

let h: Harness;
let plan: Plan;
beforeAll(async () => {
  h = await startHarness();
  plan = await setUp();
});
afterAll(async () => {
  await h.close();
});

/** The account as an earlier apply left it; returns the plan to the later tree. */
async function setUp(): Promise<Plan> {
  await h.emulator.control.reset('empty');
  const first = earlier();
  const setup = await applyWith(h, await planAgainst(h, first), first);
  if (!setup.ok) throw new Error(`setup apply failed: ${JSON.stringify(setup.failed)}`);
  return planAgainst(h, later());
}

describe('a crash part-way through an apply', () => {
  it('the plan to crash in has creates, updates and deletes of several kinds', () => {
    expect(new Set(plan.steps.map((s) => s.action))).toEqual(new Set(['create', 'update', 'delete']));
    expect(plan.steps.length).toBeGreaterThanOrEqual(10);
  });

  it('after a crash at step k of n, for every k, a rerun does exactly the rest', async () => {
    const n = plan.steps.length;
    const all = describeSteps(plan);
    for (let k = 0; k < n; k += 1) {
      const fresh = await setUp();
      expect(describeSteps(fresh)).toEqual(all);
      const crash = new AbortController();
      if (k === 0) crash.abort();
      const first = await applyWith(h, fresh, later(), {
        parallelism: 1,
        signal: crash.signal,
        onStep: (e) => {
          if (e.type === 'done' && e.progress.done === k) crash.abort();
        },
      });
      expect(first.done, `k=${k}`).toHaveLength(k);
      expect(first.notRun).toHaveLength(n - k);
      const doneSteps = new Set(first.done.map((d) => `${d.action} ${d.kind}:${d.key}`));
      const rest = await planAgainst(h, later());
      expect(describeSteps(rest).sort(), `k=${k}`).toEqual(all.filter((s) => !doneSteps.has(s)).sort());
      h.emulator.control.clearLog();
      const rerun = await applyWith(h, rest, later());
      expect(rerun.ok, `k=${k}`).toBe(true);
      expect(writeRequests(h), `k=${k}`).toHaveLength(n - k);
      expect(describeSteps(await planAgainst(h, later())), `k=${k}`).toEqual([]);
    }
  });
});
