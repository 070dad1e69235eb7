#!/usr/bin/env node
// Runs the suites that talk to the emulator end to end (the convergence property test, the fault suite and the CLI
// end-to-end tests) once per emulator profile, with MONSYNC_EMULATOR_PROFILE set, and prints how long each run took.
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
  'packages/cli/test/expect-digest.test.ts',
  'packages/cli/test/protect-policy-e2e.test.ts',
  'packages/cli/test/safety-e2e.test.ts',
  'packages/cli/test/lock-out-e2e.test.ts',
  'packages/cli/test/operator-password-e2e.test.ts',
  'packages/cli/test/outgoing-phone-number-e2e.test.ts',
  'packages/cli/test/apply.test.ts',
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

function run(profile, outputFile) {
  const args = ['vitest', 'run', '--project', 'reconciler', '--project', 'cli', '--reporter=dot', '--reporter=json', `--outputFile.json=${outputFile}`, ...SUITES];
  return new Promise((resolve) => {
    const child = spawn('npx', args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, MONSYNC_EMULATOR_PROFILE: profile } });
    child.on('exit', (code) => resolve(code ?? 1));
  });
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
const results = [];
try {
  for (const profile of profiles) {
    process.stdout.write(`\n== profile ${profile}\n`);
    const outputFile = join(dir, `${profile}.json`);
    const started = Date.now();
    const code = await run(profile, outputFile);
    results.push({ profile, code, seconds: (Date.now() - started) / 1000, ...failures(outputFile) });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

process.stdout.write('\nprofile        result  passed  failed  wall\n');
for (const r of results) {
  process.stdout.write(`${r.profile.padEnd(14)} ${(r.code === 0 ? 'ok' : 'FAIL').padEnd(7)} ${String(r.passed).padStart(6)}  ${String(r.failed).padStart(6)}  ${r.seconds.toFixed(0)} s\n`);
}
for (const r of results.filter((x) => x.names.length > 0)) {
  process.stdout.write(`\n${r.profile}: failing\n${r.names.map((n) => `  ${n}`).join('\n')}\n`);
}
process.exit(results.every((r) => r.code === 0) ? 0 : 1);
