// Benchmark: list 10,000 monitors at page size 100 through the emulator, then 1,000 sequential creates
// (in memory and with a --state file). Prints figures; asserts nothing about time.
// Run after `npx tsc -p tsconfig.build.json`:  node packages/emulator/bench/list-monitors.mjs [monitors]
/* global fetch, performance */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '../dist/index.js';

const MONITORS = Number(process.argv[2] ?? 10_000);
const PAGE_SIZE = 100;
const CREATES = 1_000;
const auth = { authorization: `Basic ${Buffer.from('demo:demo-password').toString('base64')}` };

function monitorState(state, count) {
  const stamp = '2026-01-01T00:00:00';
  const admin = state.apiAccounts[0].OperatorGuid;
  for (let i = 1; i <= count; i++) {
    const hex = i.toString(16).padStart(12, '0');
    state.monitors.push({
      seq: i,
      fields: {
        MonitorGuid: `00000000-0000-4000-8000-${hex}`,
        Name: `bench-${i}`,
        MonitorType: i % 10 === 0 ? 'FullPageCheck' : 'Https',
        MonitorMode: 'Production',
        IsActive: true,
        GenerateAlert: true,
        UserAgent: 'ChromeLatest',
        ErrorConditions: [{ ErrorConditionType: 'HttpStatus', Value: '200' }],
        PredefinedVariables: [],
        Url: `https://site-${i}.example.com/`,
        CheckInterval: 5,
        CreatedDate: stamp,
        LastModifiedDate: stamp,
        LastModifiedByOperatorId: admin,
      },
    });
  }
  state.counters.monitorSeq = count;
  return state;
}

async function listAll(url) {
  let requests = 0;
  let items = 0;
  let next;
  do {
    const target = next ? `${url}/Monitor?Take=${PAGE_SIZE}&Cursor=${encodeURIComponent(next)}` : `${url}/Monitor?Take=${PAGE_SIZE}`;
    const res = await fetch(target, { headers: auth });
    if (res.status !== 200) throw new Error(`GET /Monitor: ${res.status} ${await res.text()}`);
    const body = await res.json();
    requests++;
    items += body.Data.length;
    next = body.Cursors?.Next;
  } while (next);
  return { requests, items };
}

async function creates(url, count) {
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${url}/Monitor`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ Name: `created-${i}`, MonitorType: 'Https', ErrorConditions: [{ ErrorConditionType: 'HttpStatus', Value: '200' }] }),
    });
    if (!res.ok) throw new Error(`POST /Monitor: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  }
  return performance.now() - started;
}

const mb = (kb) => (kb / 1024).toFixed(1);

// The strict profile pages GET /Monitor with Cursor, as the spec says (the default answers one bare array).
const emu = await startEmulator({ port: 0, profile: 'strict' });
try {
  const loadStarted = performance.now();
  await emu.control.load(monitorState(emu.control.dump(), MONITORS));
  const loadMs = performance.now() - loadStarted;
  await listAll(emu.url); // warm-up (JIT, connection pool)
  const started = performance.now();
  const { requests, items } = await listAll(emu.url);
  const wallMs = performance.now() - started;
  if (items !== MONITORS) throw new Error(`listed ${items} monitors, expected ${MONITORS}`);
  console.log(`list-monitors: ${items} monitors at page size ${PAGE_SIZE}`);
  console.log(`  requests:    ${requests}`);
  console.log(`  wall time:   ${wallMs.toFixed(0)} ms (${(wallMs / requests).toFixed(2)} ms per request)`);
  console.log(`  state load:  ${loadMs.toFixed(0)} ms`);

  await emu.control.reset('empty');
  const memMs = await creates(emu.url, CREATES);
  console.log(`creates: ${CREATES} sequential POST /Monitor`);
  console.log(`  in memory:   ${memMs.toFixed(0)} ms (${((CREATES / memMs) * 1000).toFixed(0)} per second)`);
} finally {
  await emu.close();
}

const dir = mkdtempSync(join(tmpdir(), 'monsync-emulator-bench-'));
const persisted = await startEmulator({ port: 0, profile: 'strict', statePath: join(dir, 'state.json') });
try {
  const ms = await creates(persisted.url, CREATES);
  console.log(`  with --state: ${ms.toFixed(0)} ms (${((CREATES / ms) * 1000).toFixed(0)} per second; atomic save after every write)`);
} finally {
  await persisted.close();
  rmSync(dir, { recursive: true, force: true });
}
console.log(`peak RSS: ${mb(process.resourceUsage().maxRSS)} MB (benchmark and emulator in one process)`);
