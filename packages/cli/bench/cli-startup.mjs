#!/usr/bin/env node
/**
 * Benchmark cli-startup: figures, not assertions.
 *
 * The median wall time of four commands (two of them also without the code cache), each in a fresh process, against the time Node itself takes to start
 * (`node -e 0`): `monsync --version`, `monsync validate` on the demo tree (configs/), and `monsync plan` on the
 * demo tree against an emulator (a child process, `--seed demo --latency 0`). They are run in turns (one of
 * each per round), so a busy moment of a shared machine stretches all of them alike and the ratios stay fair.
 * Printed: each median, its ratio to `node -e 0`, the target ratio, and the host steal of the run. The commands run
 * with V8's code cache (src/code-cache.ts) in a fresh folder, which the warm-up round fills, as a user's second run
 * would find it; `validate` and `plan` also run without it (NODE_DISABLE_COMPILE_CACHE), as a first run or a cache-less
 * CI job. Wall time on a shared machine stretches with the other guests' load; to see where a start's CPU goes, run
 * one command under `/usr/bin/time -v` or `node --cpu-prof` (CONTRIBUTING.md, Benchmarks).
 *
 * Runs the command as users get it: `packages/cli/bin/monsync.js` (the package's bin, running the bundle `pnpm build` writes), or the file
 * given with `--bin FILE` (e.g. the bin of an installed package).
 * Usage: node packages/cli/bench/cli-startup.mjs [--rounds N] [--bin FILE]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { machineCpu, stealShare } from '../../reconciler/bench/lib/emulator-process.mjs';

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at < 0 ? undefined : args[at + 1];
};
const ROUNDS = Number(option('--rounds') ?? 15);
const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = resolve(option('--bin') ?? fileURLToPath(new URL('../bin/monsync.js', import.meta.url)));
if (!existsSync(fileURLToPath(new URL('../dist/bin.js', import.meta.url)))) {
  console.error(`no ${bin}: run \`npx pnpm@10 build\` first`);
  process.exit(1);
}

/** Wall time (ms) of one child process, which must exit with one of `codes`. */
function timed(argv, env, codes) {
  return new Promise((resolvePromise, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, argv, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (!codes.includes(code)) reject(new Error(`node ${argv.join(' ')} exited ${code}: ${err}`));
      else resolvePromise(ms);
    });
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** The emulator in a child process (its CPU is not the CLI's), with the demo account, answering at once. */
function startEmulator() {
  const emulatorBin = fileURLToPath(new URL('../../emulator/dist/bin.js', import.meta.url));
  const child = spawn(process.execPath, [emulatorBin, '--port', '0', '--seed', 'demo', '--latency', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolvePromise, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => {
      const match = /listening on (\S+)/.exec(line);
      if (match === null) reject(new Error(`unexpected first line from the emulator: ${line}`));
      else resolvePromise({ child, url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`the emulator exited with ${code}`)));
  });
}

const emulator = await startEmulator();
const cacheDir = mkdtempSync(join(tmpdir(), 'monsync-bench-code-cache-'));
try {
  const env = {
    ...process.env,
    MONSYNC_CACHE_DIR: cacheDir,
    NO_COLOR: '1',
    MONSYNC_API_URL: emulator.url,
    MONSYNC_API_USERNAME: 'demo',
    MONSYNC_API_PASSWORD: 'demo-password',
    MONSYNC_OPERATOR: 'admin@example.com',
    DEMO_SHOP_PASSWORD: 'bench-password',
    DEMO_SHOP_OTP_SECRET: 'CANARYOTPSECRETA',
    DEMO_CLIENT_CERT_PFX_BASE64: Buffer.from('bench-pfx').toString('base64'),
    DEMO_CLIENT_CERT_PASSWORD: 'bench-pfx-password',
  };
  // Exit codes: the demo plan has changes and, on a fresh account, is over the safety thresholds (3).
  const cases = [
    { name: 'node -e 0', argv: ['-e', '0'], codes: [0], target: undefined },
    { name: 'monsync --version', argv: [bin, '--version'], codes: [0], target: 1.5 },
    { name: 'monsync validate (demo tree)', argv: [bin, 'validate', '--config', 'configs'], codes: [0], target: 2.5 },
    // Without the code cache: a user's first run, or a CI job without the cache folder (issue 32's targets).
    { name: 'monsync validate, no code cache', argv: [bin, 'validate', '--config', 'configs'], codes: [0], target: 2, env: { NODE_DISABLE_COMPILE_CACHE: '1' } },
    { name: 'monsync plan (demo tree, emulator at latency 0)', argv: [bin, 'plan', '--config', 'configs'], codes: [0, 2, 3], target: 4 },
    { name: 'monsync plan, no code cache', argv: [bin, 'plan', '--config', 'configs'], codes: [0, 2, 3], target: 2.5, env: { NODE_DISABLE_COMPILE_CACHE: '1' } },
  ];
  // One warm-up round: the first start of each reads its files from disk.
  for (const c of cases) await timed(c.argv, { ...env, ...c.env }, c.codes);
  const times = cases.map(() => []);
  const cpuBefore = machineCpu();
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [i, c] of cases.entries()) times[i].push(await timed(c.argv, { ...env, ...c.env }, c.codes));
  }
  const steal = stealShare(cpuBefore, machineCpu());
  const floor = median(times[0]);
  console.log(`cli-startup: ${ROUNDS} rounds, each command once per round in turn; ${bin.startsWith(root) ? bin.slice(root.length) : bin}`);
  for (const [i, c] of cases.entries()) {
    const value = median(times[i]);
    const ratio = value / floor;
    const verdict = c.target === undefined ? '' : `  (target <= ${c.target}x: ${ratio <= c.target ? 'met' : 'MISSED'})`;
    console.log(`  ${c.name.padEnd(50)} ${value.toFixed(1).padStart(7)} ms  ${ratio.toFixed(2).padStart(5)}x${verdict}`);
  }
  console.log(`  host steal during the run: ${steal === undefined ? 'unknown' : `${(steal * 100).toFixed(1)}%`}`);
} finally {
  emulator.child.kill();
  rmSync(cacheDir, { recursive: true, force: true });
}
