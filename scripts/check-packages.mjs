#!/usr/bin/env node
// `npx pnpm@10 check:packages`: what a user gets from npm, checked before it is published. Packs every public
// package (`pnpm pack`, as `changeset publish` would), lints each tarball with publint and @arethetypeswrong/cli
// (profile esm-only: the packages are ESM only), installs the tarballs with plain npm into an empty project outside
// this repository (third-party dependencies come from the registry), and there runs: `npx monsync --help`,
// `monsync init`, `validate` and `plan` against `monsync emulator`, an import of @monsync/client and
// @monsync/reconciler under Node, and a type check of the same imports under `moduleResolution: nodenext`.
// Needs built packages (`npx pnpm@10 build`). Exit 0 when every check passes; the first failure ends the run.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PUBLIC = ['client', 'emulator', 'schema', 'reconciler', 'cli'];
const keep = process.argv.includes('--keep');
const work = mkdtempSync(join(tmpdir(), 'monsync-packages-'));
const tarballs = join(work, 'tarballs');
const project = join(work, 'project');
const bin = (name) => join(root, 'node_modules', '.bin', name);

function step(title) {
  console.log(`\n== ${title}`);
}

/** Runs a command; its output is shown; a non-zero exit (or one not in `codes`) ends the run. */
function sh(command, args, options = {}) {
  const { cwd = project, env = {}, codes = [0], quiet = false } = options;
  if (!quiet) console.log(`$ ${[command, ...args].join(' ')}`);
  try {
    const out = execFileSync(command, args, { cwd, env: { ...process.env, npm_config_yes: 'true', ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return { code: 0, out, err: '' };
  } catch (error) {
    const result = { code: error.status ?? 1, out: String(error.stdout ?? ''), err: String(error.stderr ?? '') };
    if (codes.includes(result.code)) return result;
    process.stdout.write(result.out);
    process.stderr.write(result.err);
    throw new Error(`${command} ${args.join(' ')} exited ${result.code}`);
  }
}

function expectIn(text, wanted, what) {
  if (!text.includes(wanted)) throw new Error(`${what}: expected ${JSON.stringify(wanted)} in:\n${text}`);
}

/** `monsync emulator` of the installed package; resolves once it prints its URL. */
function startEmulator() {
  const child = spawn(join(project, 'node_modules', '.bin', 'monsync'), ['emulator', '--port', '0', '--seed', 'empty'], { cwd: project, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => {
      const match = /listening on (\S+)/.exec(line);
      if (match === null) reject(new Error(`unexpected first line from monsync emulator: ${line}`));
      else resolve({ child, url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`monsync emulator exited with ${code}`)));
  });
}

async function main() {
  step('pack');
  mkdirSync(tarballs, { recursive: true });
  for (const name of PUBLIC) sh('npx', ['pnpm@10', 'pack', '--pack-destination', tarballs], { cwd: join(root, 'packages', name), quiet: true });
  const files = readdirSync(tarballs).filter((file) => file.endsWith('.tgz')).map((file) => join(tarballs, file));
  console.log(files.map((file) => `  ${file}`).join('\n'));
  if (files.length !== PUBLIC.length) throw new Error(`expected ${PUBLIC.length} tarballs, got ${files.length}`);

  step('publint and @arethetypeswrong/cli (profile esm-only)');
  for (const file of files) {
    const unpacked = join(work, 'unpacked', file.split('/').pop().replace(/\.tgz$/, ''));
    mkdirSync(unpacked, { recursive: true });
    sh('tar', ['xzf', file, '-C', unpacked], { cwd: root, quiet: true });
    const listed = sh('tar', ['tzf', file], { cwd: root, quiet: true }).out.split('\n');
    const stray = listed.filter((path) => /\.map$|^package\/src\/|^package\/test\//.test(path));
    if (stray.length > 0) throw new Error(`${file} ships ${stray.join(', ')}`);
    const manifest = JSON.parse(readFileSync(join(unpacked, 'package', 'package.json'), 'utf8'));
    if (JSON.stringify(manifest.exports).includes('"source"')) throw new Error(`${manifest.name}: the packed exports still name the source condition`);
    for (const field of ['license', 'repository']) if (manifest[field] === undefined) throw new Error(`${manifest.name}: no ${field}`);
    if (!listed.includes('package/LICENSE')) throw new Error(`${manifest.name}: no LICENSE file`);
    console.log(sh(bin('publint'), ['run', join(unpacked, 'package'), '--strict', '--pack', 'false'], { cwd: root, quiet: true }).out.trim());
    console.log(sh(bin('attw'), [file, '--profile', 'esm-only', '--format', 'ascii'], { cwd: root, quiet: true }).out.trim());
  }

  step('npm install into an empty project');
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'monsync-user', private: true, type: 'module' }, null, 2)}\n`);
  mkdirSync(join(project, '.git'));
  const installed = sh('npm', ['install', '--no-audit', '--no-fund', '--save-dev', ...files, 'typescript@~5.9.3']);
  const warnings = `${installed.out}${installed.err}`;
  if (/Failed to create bin|ERR!/.test(warnings)) throw new Error(`npm install printed:\n${warnings}`);

  step('the command');
  expectIn(sh('npx', ['monsync', '--help']).out, 'Usage: monsync', 'monsync --help');
  const version = sh('npx', ['monsync', '--version']).out.trim();
  const expected = JSON.parse(readFileSync(join(root, 'packages', 'cli', 'package.json'), 'utf8')).version;
  if (version !== expected) throw new Error(`monsync --version printed ${version}, the package is ${expected}`);
  expectIn(sh('npx', ['monsync', 'init', '--kinds', 'monitors,monitorGroups,vault']).out, 'wrote configs/monsync.yaml', 'monsync init');
  const rootFile = readFileSync(join(project, 'configs', 'monsync.yaml'), 'utf8');
  expectIn(rootFile.split('\n')[0], '$schema=../node_modules/@monsync/schema/dist/schemas/config.schema.json', 'the modeline of monsync.yaml');
  JSON.parse(readFileSync(join(project, 'node_modules', '@monsync', 'schema', 'dist', 'schemas', 'config.schema.json'), 'utf8'));
  expectIn(readFileSync(join(project, '.github', 'workflows', 'monsync-plan.yml'), 'utf8'), `monsync/monsync/packages/action@v${expected}`, 'the plan workflow');
  writeFileSync(join(project, 'configs', 'monitors.yaml'), `${rootFile.split('\n')[0]}\nmonitors:\n  - Name: Shop homepage\n    MonitorType: Https\n    Url: https://shop.example.com/\n`);
  expectIn(sh('npx', ['monsync', 'validate', '--config', 'configs']).out, 'configs: valid (1 monitor', 'monsync validate');

  step('plan against monsync emulator');
  const emulator = await startEmulator();
  try {
    const env = { MONSYNC_API_URL: emulator.url, MONSYNC_API_USERNAME: 'demo', MONSYNC_API_PASSWORD: 'demo-password' };
    const plan = sh('npx', ['monsync', 'plan', '--config', 'configs', '--detailed-exitcode'], { env, codes: [2] });
    expectIn(plan.out, '+ create monitor "Shop homepage"', 'monsync plan');
    console.log(plan.out.trim());
  } finally {
    emulator.child.kill();
  }

  step('the libraries, at run time and under moduleResolution nodenext');
  const usage = [
    "import { createClient, isApiError, type MonitoringClient } from '@monsync/client';",
    "import { assemblePlan, renderText, type Plan } from '@monsync/reconciler';",
    "const client: MonitoringClient = createClient({ baseUrl: 'http://127.0.0.1:9/v4', username: 'u', password: 'p' });",
    'const plan: Plan | undefined = undefined;',
    "console.log(typeof assemblePlan, typeof renderText, isApiError(new Error('x')), plan === undefined);",
    'await client.close();',
    '',
  ].join('\n');
  writeFileSync(join(project, 'use.ts'), usage);
  const tsconfig = { compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, outDir: 'out', skipLibCheck: false }, files: ['use.ts'] };
  writeFileSync(join(project, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  sh('npx', ['tsc', '-p', 'tsconfig.json']);
  expectIn(sh('node', [join('out', 'use.js')]).out, 'function function false true', 'importing the libraries');
  console.log('\nall package checks passed');
}

try {
  await main();
} catch (error) {
  console.error(`\ncheck-packages: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  if (keep) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
