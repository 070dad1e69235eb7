#!/usr/bin/env node
// Runs the suites that talk to the emulator end to end (the convergence property test, the fault suite and the CLI
// end-to-end tests) once per emulator profile, with MONSYNC_EMULATOR_PROFILE set, and prints how long each run took
// and its slowest files.
//
// Profiles whose time goes to waiting (rate-limited: a tenth of the requests answered 429 with Retry-After 1 s) run
// beside the others, with more workers than cores, since they mostly sleep; the CPU-bound profiles run one after
// another. Each run's output is printed whole when it ends, so the runs never interleave on screen.
//
//   node scripts/test-profiles.mjs                       every profile
//   node scripts/test-profiles.mjs --profile lean,strict  some of them
//
// Exits 1 when a run fails; every profile runs either way, so one report shows them all.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ALL = ['default', 'strict', 'published', 'lean', 'rate-limited'];

/** Test files, as vitest filters: each names one file of the reconciler or cli project. */
const SUITES = [
  'packages/reconciler/test/apply/convergence.property.test.ts',
  'packages/reconciler/test/apply/faults.test.ts',
  'packages/cli/test/plan-e2e.test.ts',
  'packages/cli/test/pull-e2e.test.ts',
  'packages/cli/test/pull-into-e2e.test.ts',
  'packages/cli/test/pull-alert-definitions-e2e.test.ts',
  'packages/cli/test/expect-digest.test.ts',
  'packages/cli/test/protect-policy-e2e.test.ts',
  'packages/cli/test/safety-e2e.test.ts',
  'packages/cli/test/lock-out-e2e.test.ts',
  'packages/cli/test/operator-authorizations-e2e.test.ts',
  'packages/cli/test/rum-websites-e2e.test.ts',
  'packages/reconciler/test/apply/rum-websites-emulator.test.ts',
  'packages/cli/test/operator-password-e2e.test.ts',
  'packages/cli/test/outgoing-phone-number-e2e.test.ts',
  'packages/cli/test/apply.test.ts',
  'packages/cli/test/apply-planfile.test.ts',
  'packages/cli/test/apply-target-e2e.test.ts',
  'packages/cli/test/show-e2e.test.ts',
  'packages/cli/test/json-output-e2e.test.ts',
  'packages/cli/test/import-e2e.test.ts',
  'packages/cli/test/apply-lock.test.ts',
  'packages/cli/test/apply-interrupt.test.ts',
  'packages/cli/test/api-operator-e2e.test.ts',
  'packages/cli/test/removal.test.ts',
  'packages/cli/test/dedupe.test.ts',
  'packages/cli/test/readme-tour.test.ts',
  'packages/cli/test/pull-awkward-accounts.test.ts',
  'packages/cli/test/operators.test.ts',
  'packages/cli/test/init.test.ts',
  'packages/cli/test/acceptance/emulator.test.ts',
  'packages/cli/test/hostile-text.test.ts',
  'packages/cli/test/malformed-listing-e2e.test.ts',
  'packages/cli/test/plan-target-e2e.test.ts',
  'packages/cli/test/paging-e2e.test.ts',
];

function parseProfiles(argv) {
  const at = argv.findIndex((a) => a === '--profile' || a.startsWith('--profile='));
  if (at < 0) return ALL;
  const raw = argv[at].includes('=') ? argv[at].slice('--profile='.length) : argv[at + 1];
  const names = (raw ?? '').split(',').filter(Boolean);
  const unknown = names.filter((n) => !ALL.includes(n));
  if (names.length === 0 || unknown.length > 0) {
    process.stderr.write(`test-profiles: --profile takes a comma-separated list of: ${ALL.join(', ')}${unknown.length ? ` (not: ${unknown.join(', ')})` : ''}\n`);
    process.exit(2);
  }
  return names;
}

/** Profiles that spend their time waiting out Retry-After pauses, not computing. */
const WAITING = new Set(['rate-limited']);

function run(profile, outputFile) {
  // A tenth of the requests wait a second: a test of a few hundred requests needs more than the usual budget.
  // (As many workers at least as at most: see vitest.config.ts.)
  const workers = WAITING.has(profile) ? ['--maxWorkers=6', '--minWorkers=6', '--testTimeout=180000', '--hookTimeout=180000'] : [];
  const args = ['vitest', 'run', '--project', 'reconciler', '--project', 'cli', '--reporter=dot', '--reporter=json', `--outputFile.json=${outputFile}`, ...workers, ...SUITES];
  return new Promise((resolve) => {
    const chunks = [];
    const child = spawn('npx', args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, MONSYNC_EMULATOR_PROFILE: profile } });
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('close', (code) => {
      process.stdout.write(`\n== profile ${profile}\n${Buffer.concat(chunks).toString('utf8')}`);
      resolve(code ?? 1);
    });
  });
}

async function timed(profile) {
  const outputFile = join(dir, `${profile}.json`);
  const started = Date.now();
  const code = await run(profile, outputFile);
  return { profile, code, seconds: (Date.now() - started) / 1000, ...failures(outputFile), slowest: slowest(outputFile) };
}

/** The three files that took longest, as `name (N s)`. */
function slowest(outputFile) {
  try {
    const report = JSON.parse(readFileSync(outputFile, 'utf8'));
    return (report.testResults ?? [])
      .map((f) => ({ name: relative(ROOT, f.name), s: ((f.endTime ?? 0) - (f.startTime ?? 0)) / 1000 }))
      .sort((a, b) => b.s - a.s)
      .slice(0, 3)
      .map((f) => `${f.name.replace(/^packages\//, '')} (${f.s.toFixed(0)} s)`);
  } catch {
    return [];
  }
}

function failures(outputFile) {
  try {
    const report = JSON.parse(readFileSync(outputFile, 'utf8'));
    const failed = [];
    for (const file of report.testResults ?? []) {
      for (const t of file.assertionResults ?? []) {
        if (t.status === 'failed') failed.push(`${relative(ROOT, file.name)}: ${t.fullName ?? t.title}`);
      }
    }
    return { passed: report.numPassedTests ?? 0, failed: report.numFailedTests ?? 0, names: failed };
  } catch {
    return { passed: 0, failed: 0, names: ['(no report: the run stopped before vitest wrote one)'] };
  }
}

const profiles = parseProfiles(process.argv.slice(2));
const dir = mkdtempSync(join(tmpdir(), 'monsync-profiles-'));
let results = [];
const started = Date.now();
try {
  const beside = Promise.all(profiles.filter((p) => WAITING.has(p)).map(timed));
  const inTurn = [];
  for (const profile of profiles.filter((p) => !WAITING.has(p))) inTurn.push(await timed(profile));
  results = [...inTurn, ...(await beside)];
} finally {
  rmSync(dir, { recursive: true, force: true });
}

process.stdout.write('\nprofile        result  passed  failed  wall\n');
for (const r of results) {
  process.stdout.write(`${r.profile.padEnd(14)} ${(r.code === 0 ? 'ok' : 'FAIL').padEnd(7)} ${String(r.passed).padStart(6)}  ${String(r.failed).padStart(6)}  ${r.seconds.toFixed(0)} s  slowest: ${r.slowest.join(', ')}\n`);
}
process.stdout.write(`all profiles: ${((Date.now() - started) / 1000).toFixed(0)} s wall${profiles.some((p) => WAITING.has(p)) ? ` (${[...WAITING].join(', ')} beside the rest)` : ''}\n`);
for (const r of results.filter((x) => x.names.length > 0)) {
  process.stdout.write(`\n${r.profile}: failing\n${r.names.map((n) => `  ${n}`).join('\n')}\n`);
}
process.exit(results.every((r) => r.code === 0) ? 0 : 1);
