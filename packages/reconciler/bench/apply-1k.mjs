#!/usr/bin/env node
/**
 * Benchmark apply-1k (issue 6): figures, not assertions.
 *
 * An empty account in an emulator child process (`--latency 10`), and a tree of 1,000 monitors, each referring to
 * a vault item (`{ vault: Section/Item }`, a placeholder until the item exists) and each a member of one of 20
 * groups; the section, its 10 items and the groups are created by the same plan. applyPlan runs it at
 * parallelism 8. Printed: wall time against the lower bound (the steps of each dependency level / parallelism x
 * latency, summed over levels), and requests against the minimum (one write per step, no read).
 *
 * Needs built packages: `pnpm build` (or `npx tsc -p tsconfig.build.json` in emulator, client, schema and reconciler).
 * The apply runs `--runs` times (default 3) against a reset account; the figures are those of the median run.
 * Usage: node packages/reconciler/bench/apply-1k.mjs [--latency MS] [--parallelism N] [--monitors N] [--runs N]
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { startEmulatorProcess, control, childCpuMs, machineCpu, stealShare } from './lib/emulator-process.mjs';
import { measureHttpFloor } from './lib/http-floor.mjs';
import { createClient } from '@monsync/client';
import { DEFAULT_SAFETY } from '@monsync/schema';
import { applyPlan, assemblePlan, fingerprintDesiredSecrets, liveScope, readLive } from '../dist/index.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  const value = at < 0 ? NaN : Number(args[at + 1]);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
};
const LATENCY = option('--latency', 10);
const PARALLELISM = option('--parallelism', 8);
const MONITORS = option('--monitors', 1000);
const RUNS = option('--runs', 3);
const GROUPS = 20;
const ITEMS = 10;
const KEY = 'bench-fingerprint-key';

/** Stands in for the schema's Secret: a value revealed only on request, printed as [redacted]. */
const secret = (value, name) => ({ describe: () => `env ${name}`, reveal: () => value, toString: () => '[redacted]', toJSON: () => '[redacted]' });
const at = (file, line) => ({ file, line, column: 5 });

function desiredTree() {
  const items = Array.from({ length: ITEMS }, (_, i) => ({
    value: { Name: `login-${i}`, VaultItemType: 'CredentialSet', UserName: `robot-${i}`, Password: secret(`bench-password-${i}`, `PW_${i}`) },
    source: at('vault.yaml', i + 2),
  }));
  const names = Array.from({ length: MONITORS }, (_, i) => `monitor-${String(i).padStart(4, '0')}`);
  const monitors = names.map((Name, i) => ({
    value: {
      Name,
      MonitorType: 'Https',
      Url: `https://example.com/${i}`,
      ErrorConditions: [{ ErrorConditionType: 'HttpStatus', Value: '200' }],
      PredefinedVariables: [{ Key: 'login', Value: { vault: `Bench/login-${i % ITEMS}` } }],
    },
    source: at('monitors.yaml', i + 2),
  }));
  const groups = Array.from({ length: GROUPS }, (_, g) => ({
    value: { Description: `group-${g}`, members: names.filter((_, i) => i % GROUPS === g) },
    source: at('groups.yaml', g + 2),
  }));
  return {
    root: '/bench',
    settings: {
      apiVersion: 'monsync/v1',
      manage: { monitors: { prune: false }, monitorGroups: { prune: false }, vault: { prune: false } },
      ignore: [],
      safety: DEFAULT_SAFETY,
    },
    monitors,
    monitorGroups: groups,
    vaultSections: [{ value: { Name: 'Bench', items }, source: at('vault.yaml', 1) }],
    slas: [],
    scheduledReports: [],
    alertDefinitions: [],
  };
}

/**
 * The writes of each dependency level as the machine floor sends them: for each level its count, and the body of
 * its most common kind of step (a monitor's fields, a group's, a vault item's; a membership sends none and is answered
 * 204), answered with the body sent plus a GUID, as the emulator answers a create.
 */
function floorLevels(plan, desired) {
  const guid = '0b0e0f00-0000-4000-8000-000000000001';
  const bodies = {
    monitor: { ...desired.monitors[0].value, PredefinedVariables: [{ Key: 'login', Value: 'vault-item-guid' }] },
    monitorGroup: { Description: desired.monitorGroups[0].value.Description },
    vaultSection: { Name: 'Bench' },
    vaultItem: { Name: 'login-0', VaultItemType: 'CredentialSet', UserName: 'robot-0', Password: 'CANARY-bench-floor-password' },
  };
  const depth = stepDepths(plan);
  const levelsOut = [];
  for (const step of plan.steps) {
    const d = depth.get(step.id);
    const level = (levelsOut[d] ??= { count: 0, kinds: {} });
    level.count += 1;
    level.kinds[step.kind] = (level.kinds[step.kind] ?? 0) + 1;
  }
  return levelsOut.map(({ count, kinds }) => {
    const kind = Object.entries(kinds).sort((a, b) => b[1] - a[1])[0][0];
    const request = bodies[kind];
    return request === undefined
      ? { count, method: 'POST', request: {}, status: 204, body: '' }
      : { count, method: 'POST', request, status: 201, body: JSON.stringify({ ...request, Guid: guid }) };
  });
}

/** Each step's depth in the dependency graph (0: depends on nothing). */
function stepDepths(plan) {
  const depth = new Map();
  const byId = new Map(plan.steps.map((s) => [s.id, s]));
  const visit = (id) => {
    if (depth.has(id)) return depth.get(id);
    const step = byId.get(id);
    const d = step.dependsOn.length === 0 ? 0 : 1 + Math.max(...step.dependsOn.map(visit));
    depth.set(id, d);
    return d;
  };
  for (const step of plan.steps) visit(step.id);
  return depth;
}

/** Steps per depth of the dependency graph. */
function levels(plan) {
  const counts = [];
  for (const d of stepDepths(plan).values()) counts[d] = (counts[d] ?? 0) + 1;
  return counts;
}

const emulator = await startEmulatorProcess(LATENCY);
try {
  let requests = 0;
  let inFlight = 0;
  let peak = 0;
  const client = createClient({
    baseUrl: emulator.url,
    username: 'demo',
    password: 'demo-password',
    parallelism: PARALLELISM,
    onRequest: () => {
      requests += 1;
      inFlight += 1;
      peak = Math.max(peak, inFlight);
    },
    onResponse: () => {
      inFlight -= 1;
    },
  });
  const desired = desiredTree();
  const fingerprints = fingerprintDesiredSecrets(desired, KEY);

  /** One measured apply against a reset, empty account. */
  async function once() {
    await control(emulator.control, 'POST', '/reset', { seed: 'empty' });
    const plan = assemblePlan(desired, await readLive(client, liveScope(desired)), { fingerprints });
    await control(emulator.control, 'DELETE', '/log');
    requests = 0;
    peak = 0;
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const emulatorCpuBefore = childCpuMs(emulator.child.pid);
    const machineBefore = machineCpu();
    const report = await applyPlan(plan, client, { parallelism: PARALLELISM, secrets: { desired, key: KEY } });
    const wallMs = performance.now() - started;
    const steal = stealShare(machineBefore, machineCpu());
    const cpu = process.cpuUsage(cpuBefore);
    const emulatorCpuAfter = childCpuMs(emulator.child.pid);
    const emulatorCpu = emulatorCpuBefore === undefined || emulatorCpuAfter === undefined ? undefined : emulatorCpuAfter - emulatorCpuBefore;
    const sent = requests;
    const log = await control(emulator.control, 'GET', '/log');
    const after = assemblePlan(desired, await readLive(client, liveScope(desired)), { fingerprints });
    return { plan, report, wallMs, steal, cpu, emulatorCpu, sent, seen: log.total, peak, remaining: after.steps.length };
  }

  const runs = [];
  for (let i = 0; i < RUNS; i += 1) runs.push(await once());
  await client.close();
  const byWall = [...runs].sort((a, b) => a.wallMs - b.wallMs);
  const median = byWall[Math.floor((byWall.length - 1) / 2)];
  const { plan, report, wallMs, steal, cpu, emulatorCpu, sent, seen, remaining } = median;
  const perLevel = levels(plan);
  const lowerBoundMs = perLevel.reduce((sum, n) => sum + Math.ceil(n / PARALLELISM) * LATENCY, 0);
  const minimum = plan.steps.length;
  // The same writes by bare undici to a bare node:http server: what no client could beat on this machine.
  const floor = await measureHttpFloor({ latency: LATENCY, parallelism: PARALLELISM, levels: floorLevels(plan, desired) });

  const fmt = (n) => n.toLocaleString('en-US', { maximumFractionDigits: 1 });
  console.log(`apply-1k: ${MONITORS} monitor creates with vault references and group memberships; emulator latency ${LATENCY} ms, parallelism ${PARALLELISM}`);
  console.log(`  plan              ${plan.steps.length} steps: ${Object.entries(plan.summary).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`).join(', ')}`);
  console.log(`  dependency levels ${perLevel.map((n, d) => `L${d}: ${n}`).join(', ')}`);
  console.log(`  outcome           ${report.done.length} done, ${report.failed.length} failed, ${report.skipped.length} skipped; a new plan has ${remaining} steps`);
  console.log(`  machine           ${availableParallelism()} CPUs, load average ${loadavg().map((n) => n.toFixed(1)).join(' ')} (the emulator shares them)${steal === undefined ? '' : `; host steal ${(steal * 100).toFixed(0)}% during the median run (CPU time the hypervisor gave to other guests: wall figures stretch with it)`}`);
  console.log(`  runs              ${runs.map((r) => `${fmt(r.wallMs)} ms`).join(', ')} (median reported)`);
  console.log(`  wall time         ${fmt(wallMs)} ms; lower bound ${fmt(lowerBoundMs)} ms (sum over levels of ceil(steps/${PARALLELISM}) x ${LATENCY} ms); ratio ${(wallMs / lowerBoundMs).toFixed(2)} (target <= 1.1)`);
  console.log(`  machine floor     ${fmt(floor.cold.wallMs)} ms from a fresh process, ${fmt(floor.warm.wallMs)} ms once compiled (ratio ${(floor.cold.wallMs / lowerBoundMs).toFixed(2)}, ${(floor.warm.wallMs / lowerBoundMs).toFixed(2)}): bare undici to a bare node:http server, the same levels of writes, bodies and latency; apply is ${(wallMs / floor.warm.wallMs).toFixed(2)}x the compiled floor`);
  console.log(`  where it goes     ${fmt(wallMs - lowerBoundMs)} ms over the lower bound: ${fmt(floor.warm.wallMs - lowerBoundMs)} ms of it the machine's (HTTP on both ends, timers), ${fmt(wallMs - floor.warm.wallMs)} ms monsync's and the emulator's processing between a response and the next request (${fmt((cpu.user + cpu.system) / 1000 / sent)} ms CPU a request in this process, ${emulatorCpu === undefined ? '?' : fmt(emulatorCpu / seen)} ms in the emulator, against ${fmt(floor.warm.clientCpuMs / sent)} ms and ${fmt(floor.warm.serverCpuMs / sent)} ms on the floor)`);
  console.log(`  CPU time          ${fmt((cpu.user + cpu.system) / 1000)} ms in this process (apply and client)${emulatorCpu === undefined ? '' : `; ${fmt(emulatorCpu)} ms in the emulator (${fmt(emulatorCpu / seen)} ms per request: the emulator's own ceiling is ~${fmt(1000 / (emulatorCpu / seen))} requests/s, against ${fmt((1000 / LATENCY) * PARALLELISM)} requests/s that latency and parallelism allow)`}`);
  console.log(`  requests          ${sent} sent by the client, ${seen} seen by the emulator; minimum ${minimum} (one write per step); ratio ${(seen / minimum).toFixed(3)}`);
  console.log(`  requests in flight at most ${median.peak}`);
  if (report.failed.length > 0) console.log(`  first failure: ${report.failed[0].id}: ${report.failed[0].message}`);
} finally {
  emulator.child.kill();
}
