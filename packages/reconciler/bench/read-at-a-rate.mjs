#!/usr/bin/env node
/**
 * Benchmark read-at-a-rate (issue 32): figures, not assertions.
 *
 * A service that limits a rate: the emulator in a child process with `--rate 50 --burst 50` (a token bucket: 50
 * requests a second, 50 at once; an empty bucket answers 429 with the Retry-After it implies) and `--latency 10`,
 * speaking the published profile. The account: 1,500 monitors in 1,200 groups, so a read is one monitor listing, one
 * group listing and 1,200 member lists (about 24 s at 50 a second). readLive reads it with the client's defaults, as
 * `monsync plan` does. Printed: the rate the read sustained against the limit (requests the service carried out a
 * second; target at least 0.9x), and the share of its requests refused (target at most 5%), beside the same figures
 * for the service's random 429s (10% of requests whatever the rate), which pacing must not slow down.
 *
 * Needs built packages (`pnpm build`). Usage: node packages/reconciler/bench/read-at-a-rate.mjs [--rate N] [--groups N]
 */
import { performance } from 'node:perf_hooks';
import { startEmulatorProcess, control } from './lib/emulator-process.mjs';
import { createClient } from '@monsync/client';
import { liveScope, readLive } from '../dist/index.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  const value = at < 0 ? NaN : Number(args[at + 1]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const RATE = option('--rate', 50);
const GROUPS = option('--groups', 1200);
const MONITORS = Math.max(GROUPS, 1500);
const LATENCY = 10;

const guid = (tag, i) => `${tag}0000000-0000-4000-8000-${(i + 1).toString(16).padStart(12, '0')}`;

function account(state) {
  for (let i = 0; i < MONITORS; i += 1) {
    state.monitors.push({
      seq: i + 1,
      fields: { MonitorGuid: guid('1', i), Name: `monitor ${i}`, MonitorType: 'Https', IsActive: true, Url: `https://site-${i}.example.com/`, CheckInterval: 5, ErrorConditions: [] },
    });
  }
  state.counters.monitorSeq = MONITORS;
  for (let g = 0; g < GROUPS; g += 1) {
    state.monitorGroups.push({ fields: { MonitorGroupGuid: guid('2', g), Description: `group ${g}`, IsAll: false, IsQuotaUnlimited: false }, members: [guid('1', g)] });
  }
  return state;
}

const desired = {
  root: '/bench',
  settings: { apiVersion: 'monsync/v1', manage: { monitors: { prune: false }, monitorGroups: { prune: false } }, ignore: [], safety: {} },
  monitors: [],
  monitorGroups: [],
  vaultSections: [],
  slas: [],
  scheduledReports: [],
  alertDefinitions: [],
  operators: [],
  operatorGroups: [],
};

/** One read with a fresh client (its limiter and pacer start as a `monsync plan`'s do); what the service logged. */
async function read(emulator) {
  const client = createClient({ baseUrl: emulator.url, username: 'demo', password: 'demo-password' });
  await control(emulator.control, 'DELETE', '/log');
  const t0 = performance.now();
  await readLive(client, liveScope(desired));
  const wallMs = performance.now() - t0;
  await client.close();
  const log = await control(emulator.control, 'GET', '/log');
  const refused = log.entries.filter((e) => e.status === 429).length;
  return { wallMs, total: log.total, refused, carried: log.total - refused };
}

const line = (label, { wallMs, total, refused, carried }, extra) =>
  console.log(
    `${label.padEnd(24)}${carried} requests carried out in ${(wallMs / 1000).toFixed(1)} s = ${((carried * 1000) / wallMs).toFixed(1)} a second${extra(carried, wallMs)}; ` +
      `${refused} of ${total} refused (${((refused / total) * 100).toFixed(1)}%)`,
  );

const limited = await startEmulatorProcess(LATENCY, { profile: 'published', flags: ['--rate', String(RATE), '--burst', String(RATE)] });
try {
  await control(limited.control, 'PUT', '/state', account(await control(limited.control, 'GET', '/state')));
  console.log(`read-at-a-rate: ${MONITORS} monitors in ${GROUPS} groups (${GROUPS + 2} listings), published profile, latency ${LATENCY} ms`);
  line(`limit of ${RATE}/s (burst ${RATE})`, await read(limited), (carried, wallMs) => ` (${((carried * 1000) / wallMs / RATE).toFixed(2)}x the limit; target >= 0.9x)`);
} finally {
  limited.child.kill('SIGTERM');
}

const random = await startEmulatorProcess(LATENCY, { profile: 'published' });
try {
  await control(random.control, 'PUT', '/state', account(await control(random.control, 'GET', '/state')));
  await control(random.control, 'PUT', '/faults', { rate: 0.1, seed: 7, kinds: ['429'], retryAfterSeconds: 0 });
  const parallelism = 8;
  line('random 429 on 10%', await read(random), (carried, wallMs) => {
    const bound = (carried * LATENCY) / parallelism;
    return ` (lower bound ${(bound / 1000).toFixed(1)} s = ${carried} x ${LATENCY} ms / ${parallelism}, ratio ${(wallMs / bound).toFixed(2)})`;
  });
} finally {
  random.child.kill('SIGTERM');
}
console.log('');
console.log('targets: a limit of 50/s sustained at >= 0.9x with <= 5% of requests refused');
