/** An emulator on a free port, a client for it, and the plan -> apply -> plan loop the apply tests share. */
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { createClient, type MonitoringClient } from '@monsync/client';
import { profileFromEnv, SEEDED, startEmulator, type RunningEmulator, type RequestLogEntry } from '@monsync/emulator';
import type { DesiredState } from '../../src/desired.js';
import { applyPlan } from '../../src/apply/apply-plan.js';
import type { ApplyOptions, ApplyReport } from '../../src/apply/types.js';
import type { WriteClient } from '../../src/live/types.js';
import { readLiveAgainOnUnclear } from '../../src/apply/read-live-again.js';
import { liveScope } from '../../src/plan/scope.js';
import type { Plan } from '../../src/plan/types.js';
import { FINGERPRINT_KEY, planFor } from '../../src/test-utils/index.js';

export interface Harness {
  emulator: RunningEmulator;
  client: MonitoringClient;
  writer: WriteClient;
  close(): Promise<void>;
}

const noWait = (): Promise<void> => Promise.resolve();

export async function startHarness(options: { latencyMs?: number; clientParallelism?: number } = {}): Promise<Harness> {
  const emulator = await startEmulator({ port: 0, profile: profileFromEnv(), seed: 'empty', retryAfterSeconds: 0, ...(options.latencyMs === undefined ? {} : { latencyMs: options.latencyMs }) });
  const client = createClient({
    baseUrl: emulator.url,
    username: 'demo',
    password: 'demo-password',
    parallelism: options.clientParallelism ?? 8,
    // Retries without waiting (the tests count requests and outcomes, never time), as many as the client's defaults.
    retry: { sleep: noWait },
  });
  return {
    emulator,
    client,
    writer: client,
    async close() {
      await client.close();
      await emulator.close();
    },
  };
}

/**
 * Reads the account as apply does (a listing failing with a 5xx is read again) and plans, knowing the API account's
 * operator (the emulator's seeded administrator) as `monsync` is told it: the lock-out guard and the creator's
 * vault access depend on it.
 */
export async function planAgainst(h: Harness, desired: DesiredState): Promise<Plan> {
  return planFor(desired, await readLiveAgainOnUnclear(h.client, liveScope(desired)), { selfOperatorGuid: SEEDED.admin.guid });
}

export function applyWith(h: Harness, plan: Plan, desired: DesiredState, options: ApplyOptions = {}): Promise<ApplyReport> {
  return applyPlan(plan, h.writer, { secrets: { desired, key: FINGERPRINT_KEY }, ...options });
}

/** Requests that change something (everything but GET), since the log was last cleared. */
export function writeRequests(h: Harness): RequestLogEntry[] {
  return h.emulator.control.requestLog().entries.filter((e) => e.method !== 'GET');
}

/**
 * The convergence property of one tree against the account as it is: one apply does everything without a failure, the
 * next plan is empty and applying it sends no write. Returns the first plan.
 */
export async function expectConvergesInOneApply(h: Harness, desired: DesiredState): Promise<Plan> {
  const plan = await planAgainst(h, desired);
  const report = await applyWith(h, plan, desired);
  expect(report.failed).toEqual([]);
  expect(report.ok).toBe(true);
  const second = await planAgainst(h, desired);
  expect(describeSteps(second)).toEqual([]);
  h.emulator.control.clearLog();
  expect((await applyWith(h, second, desired)).total).toBe(0);
  expect(writeRequests(h)).toEqual([]);
  return plan;
}

/** Steps that change objects (`ensure` steps, which change nothing, left out). */
export function changeSteps(plan: Plan): Plan['steps'] {
  return plan.steps.filter((s) => s.action !== 'ensure');
}

export function describeSteps(plan: Plan): string[] {
  return changeSteps(plan).map((s) => `${s.action} ${s.kind}:${s.key}`);
}

/**
 * One emulator for a test file, reset to an empty account with no faults and an empty request log before each
 * test. `bind` receives the harness once it has started.
 */
export function useEmulatorHarness(bind: (harness: Harness) => void): void {
  let harness: Harness | undefined;
  beforeAll(async () => {
    harness = await startHarness();
    bind(harness);
  });
  afterAll(async () => {
    await harness?.close();
  });
  beforeEach(async () => {
    if (harness === undefined) return;
    harness.emulator.control.setFaults({ rate: 0, scripted: [] });
    await harness.emulator.control.reset('empty');
    harness.emulator.control.clearLog();
  });
}
