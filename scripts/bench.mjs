#!/usr/bin/env node
// `pnpm bench`: runs every package benchmark (packages/<pkg>/bench/*.mjs; shared helpers live in bench/lib/) one after the other, so they never
// compete for the CPU, and prints their figures as they come. Benchmarks print figures; they do not assert.
//
//   pnpm bench                     every benchmark
//   pnpm bench plan-10k cli        those whose path contains a word
//   pnpm bench --scale 100000      (opt-in, not in CI) plan-10k at 10,000 monitors and again at 100,000 (groups of
//                                  20 each time), then the growth of each figure between the two
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const packages = ['emulator', 'reconciler', 'cli'];
const argv = process.argv.slice(2).filter((arg) => arg !== '--');
const scaleAt = argv.indexOf('--scale');
const scale = scaleAt < 0 ? undefined : argv[scaleAt + 1];
if (scaleAt >= 0 && !/^\d+$/.test(scale ?? '')) {
  console.error('bench: --scale takes a number of monitors, for example --scale 100000');
  process.exit(2);
}
/** The benchmarks that take --scale: the others measure fixed workloads. */
const SCALABLE = ['plan-10k.mjs'];
/**
 * Benchmarks run once per list shape: GET /Monitor paged by cursor (the spec) and as one bare array (the service's
 * published definition, what users' accounts send). Each measures against a floor built for its shape.
 */
const SHAPED = { 'plan-10k.mjs': ['paged', 'published'] };
const filter = scaleAt < 0 ? argv : [...argv.slice(0, scaleAt), ...argv.slice(scaleAt + 2)];

const scripts = packages.flatMap((name) => {
  const dir = join(root, 'packages', name, 'bench');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.mjs'))
    .sort()
    .map((file) => join(dir, file));
});
const matching = filter.length === 0 ? scripts : scripts.filter((script) => filter.some((word) => relative(root, script).includes(word)));
const selected = scale === undefined ? matching : matching.filter((script) => SCALABLE.some((name) => script.endsWith(name)));

if (selected.length === 0) {
  console.log(filter.length === 0 ? 'No benchmarks found under packages/*/bench/*.mjs.' : `No benchmark matches ${filter.join(', ')}.`);
  process.exit(0);
}

/** Runs one benchmark, its output passed through; the `figures {...}` line it may print is kept for the growth table. */
function runScript(script, args = []) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [script, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
    let figures;
    let pending = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.startsWith('figures ')) figures = JSON.parse(line.slice('figures '.length));
    });
    child.on('close', (code, signal) => resolve({ code: code ?? 1, signal, figures, seconds: Number(process.hrtime.bigint() - started) / 1e9 }));
    child.on('error', (error) => {
      console.error(`could not start ${script}: ${error.message}`);
      resolve({ code: 1, signal: null, seconds: 0 });
    });
  });
}

const results = [];
for (const script of selected) {
  const shapes = Object.entries(SHAPED).find(([file]) => script.endsWith(file))?.[1] ?? [undefined];
  for (const shape of shapes) {
    const shapeArgs = shape === undefined ? [] : ['--shape', shape];
    const name = [relative(root, script), ...shapeArgs].join(' ');
    console.log(`\n=== ${name}`);
    const result = await runScript(script, shapeArgs);
    results.push({ name, ...result });
    if (scale === undefined) continue;
    console.log(`\n=== ${name} --scale ${scale}`);
    const scaled = await runScript(script, [...shapeArgs, '--scale', scale]);
    results.push({ name: `${name} --scale ${scale}`, ...scaled });
    printGrowth(result.figures, scaled.figures);
  }
}

/** Each figure at both sizes and its growth, beside the growth of the account (a linear cost grows as much). */
function printGrowth(small, large) {
  if (small === undefined || large === undefined) {
    console.log('\n(no growth table: a run printed no figures line)');
    return;
  }
  const size = large.monitors / small.monitors;
  const rows = [
    ['requests', 'requests', ''],
    ['readLiveMs', 'readLive wall (median)', ' ms'],
    ['floorMs', 'machine floor (median)', ' ms'],
    ['planFirstMs', 'assemblePlan first, CPU', ' ms'],
    ['planFirstWallMs', 'assemblePlan first, wall', ' ms'],
    ['planMedianMs', 'assemblePlan median of 5', ' ms'],
    ['rssMb', 'peak RSS, fresh plan', ' MB'],
  ];
  console.log(`\n=== growth from ${small.monitors.toLocaleString('en-US')} to ${large.monitors.toLocaleString('en-US')} monitors (x${size.toFixed(1)})${large.shape ? `, GET /Monitor ${large.shape}` : ''}`);
  for (const [field, label, unit] of rows) {
    const [a, b] = [small[field], large[field]];
    console.log(`${label.padEnd(26)} ${`${a.toFixed(0)}${unit}`.padStart(10)} -> ${`${b.toFixed(0)}${unit}`.padStart(10)}  x${(b / a).toFixed(2)}`);
  }
  console.log(`${'readLive / floor'.padEnd(26)} ${(small.readLiveMs / small.floorMs).toFixed(2).padStart(10)} -> ${(large.readLiveMs / large.floorMs).toFixed(2).padStart(10)}`);
  console.log(`${'requests / minimum'.padEnd(26)} ${(small.requests / small.minimum).toFixed(2).padStart(10)} -> ${(large.requests / large.minimum).toFixed(2).padStart(10)}`);
}

console.log('\n=== summary');
for (const { name, code, signal, seconds } of results) {
  console.log(`${code === 0 ? 'ok    ' : 'FAILED'}  ${name}  (${seconds.toFixed(1)} s${signal ? `, ${signal}` : code === 0 ? '' : `, exit ${code}`})`);
}
process.exit(results.every((result) => result.code === 0) ? 0 : 1);
