#!/usr/bin/env node
// Validates action.yml and the workflow files with @action-validator/cli (the JSON Schemas of GitHub's action
// metadata and workflow syntax).
//
//   node scripts/validate-workflows.mjs            action.yml, .github/examples/*.yml, .github/workflows/*.yml
//   node scripts/validate-workflows.mjs FILE...    those files (a file named action.yml/action.yaml is action metadata)
//
// action-validator 0.6.0 (the newest release) predates `runs.using: node24`: its schema's enum stops at node20. So an
// action file it rejects for exactly that, and nothing else, is validated a second time as a copy with `node24`
// replaced by `node20`: every other rule still applies in full, and any other error fails as it should. When a
// validator release learns node24, the first pass succeeds and the copy is never made.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPO_ROOT = resolve(PACKAGE_DIR, '..', '..');
const require = createRequire(join(PACKAGE_DIR, 'package.json'));
const CLI = join(dirname(require.resolve('@action-validator/cli/package.json')), 'cli.mjs');
const VALIDATOR_VERSION = require('@action-validator/cli/package.json').version;

function defaultFiles() {
  const files = [join(PACKAGE_DIR, 'action.yml')];
  for (const folder of ['.github/examples', '.github/workflows']) {
    const dir = join(REPO_ROOT, folder);
    let names = [];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names.sort()) if (/\.ya?ml$/.test(name)) files.push(join(dir, name));
  }
  return files;
}

// The validator loads a WebAssembly module per run (about a second): files are validated in parallel.
function validate(file) {
  return new Promise((resolvePromise, reject) => {
    execFile(process.execPath, [CLI, file], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(error);
      else resolvePromise({ ok: error === null, output: `${stdout}${stderr}`.trim() });
    });
  });
}

// The validator's notes on a valid file (e.g. that it does not check path globs), kept under the file's line.
const indent = (output) => (output === '' ? '' : `\n${output.replace(/^/gm, '      ')}`);

const isActionFile = (file) => /(^|[\\/])action\.ya?ml$/.test(file);

// True when the validator's report is the one error its schema's stale runs.using enum causes for a JavaScript action:
// the oneOf over runs (javascript | composite | docker) fails, and the javascript branch fails on the enum alone.
function onlyStaleNodeEnum(output) {
  let report;
  try {
    report = JSON.parse(output);
  } catch {
    return false;
  }
  const errors = report?.errors;
  if (!Array.isArray(errors) || errors.length !== 1) return false;
  const [error] = errors;
  if (error?.code !== 'one_of' || error.path !== '/runs' || !Array.isArray(error.states)) return false;
  return error.states.some(
    (state) => Array.isArray(state?.errors) && state.errors.length === 1 && state.errors[0]?.code === 'enum' && state.errors[0]?.path === '/runs/using',
  );
}

async function checkFile(file) {
  const name = relative(REPO_ROOT, file) || file;
  const first = await validate(file);
  if (first.ok) return { ok: true, line: `ok    ${name}${indent(first.output)}` };
  if (!isActionFile(file)) return { ok: false, line: `FAIL  ${name}\n${first.output}` };
  const text = readFileSync(file, 'utf8');
  const usingLines = text.split('\n').filter((line) => /^\s+using:\s*['"]?node24['"]?\s*(#.*)?$/.test(line));
  if (usingLines.length !== 1 || !onlyStaleNodeEnum(first.output)) return { ok: false, line: `FAIL  ${name}\n${first.output}` };
  const dir = mkdtempSync(join(tmpdir(), 'monsync-action-validate-'));
  try {
    const copy = join(dir, basename(file));
    writeFileSync(copy, text.replace(/^(\s+using:\s*['"]?)node24(['"]?\s*(#.*)?)$/m, '$1node20$2'));
    const second = await validate(copy);
    if (!second.ok) return { ok: false, line: `FAIL  ${name}\n${second.output}` };
    return { ok: true, line: `ok    ${name} (runs.using node24 read as node20: action-validator ${VALIDATOR_VERSION}'s schema stops at node20)` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
const files = args.length > 0 ? args.map((file) => resolve(file)) : defaultFiles();
let failed = 0;
for (const { ok, line } of await Promise.all(files.map(checkFile))) {
  (ok ? process.stdout : process.stderr).write(`${line}\n`);
  if (!ok) failed += 1;
}
if (failed > 0) {
  process.stderr.write(`action-validator ${VALIDATOR_VERSION}: ${failed} of ${files.length} files failed validation\n`);
  process.exitCode = 1;
} else {
  process.stdout.write(`action-validator ${VALIDATOR_VERSION}: ${files.length} files valid\n`);
}
