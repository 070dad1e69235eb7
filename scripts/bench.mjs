#!/usr/bin/env node
// `pnpm bench`: runs every package benchmark (packages/<pkg>/bench/*.mjs; shared helpers live in bench/lib/) one after the other, so they never
// compete for the CPU, and prints their figures as they come. Benchmarks print figures; they do not assert.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const packages = ['emulator', 'reconciler', 'cli'];
const filter = process.argv.slice(2).filter((arg) => arg !== '--');

const scripts = packages.flatMap((name) => {
  const dir = join(root, 'packages', name, 'bench');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.mjs'))
    .sort()
    .map((file) => join(dir, file));
});
const selected = filter.length === 0 ? scripts : scripts.filter((script) => filter.some((word) => relative(root, script).includes(word)));

if (selected.length === 0) {
  console.log(filter.length === 0 ? 'No benchmarks found under packages/*/bench/*.mjs.' : `No benchmark matches ${filter.join(', ')}.`);
  process.exit(0);
}

function runScript(script) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [script], { cwd: root, stdio: 'inherit', env: process.env });
    child.on('exit', (code, signal) => resolve({ code: code ?? 1, signal, seconds: Number(process.hrtime.bigint() - started) / 1e9 }));
    child.on('error', (error) => {
      console.error(`could not start ${script}: ${error.message}`);
      resolve({ code: 1, signal: null, seconds: 0 });
    });
  });
}

const results = [];
for (const script of selected) {
  const name = relative(root, script);
  console.log(`\n=== ${name}`);
  const result = await runScript(script);
  results.push({ name, ...result });
}

console.log('\n=== summary');
for (const { name, code, signal, seconds } of results) {
  console.log(`${code === 0 ? 'ok    ' : 'FAILED'}  ${name}  (${seconds.toFixed(1)} s${signal ? `, ${signal}` : code === 0 ? '' : `, exit ${code}`})`);
}
process.exit(results.every((result) => result.code === 0) ? 0 : 1);
