#!/usr/bin/env node
// `npx pnpm@10 check:packages`: what a user gets from npm, checked before it is published. Packs every public
// package (`pnpm pack`, as `changeset publish` would), lints each tarball with publint and @arethetypeswrong/cli
// (profile esm-only: the packages are ESM only), and installs tarballs with plain npm into empty projects outside
// this repository (third-party dependencies come from the registry):
// - the CLI alone, as the README says to install it, with the @monsync scope's registry pointed at a closed port
//   (so a dependency on another @monsync package fails the install, as a 404 would before that package is
//   published); there it runs `npx monsync --help`, `monsync init`, checks that the editor schema named on the first
//   line of the written file is there, and runs `validate` and `plan` against `monsync emulator`;
// - the libraries together: an import of @monsync/client and @monsync/reconciler under Node, and a type check of the
//   same imports under `moduleResolution: nodenext`.
// Needs built packages (`npx pnpm@10 build`). Exit 0 when every check passes; the first failure ends the run.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PUBLIC = ['client', 'emulator', 'schema', 'reconciler', 'cli'];
const keep = process.argv.includes('--keep');
const work = mkdtempSync(join(tmpdir(), 'monsync-packages-'));
const tarballs = join(work, 'tarballs');
const project = join(work, 'cli-only');
const libraries = join(work, 'libraries');
const bin = (name) => join(root, 'node_modules', '.bin', name);

function step(title) {
  console.log(`\n== ${title}`);
}

/** Runs a command; its output is shown; a non-zero exit (or one not in `codes`) ends the run. */
function sh(command, args, options = {}) {
  const { cwd = project, env = {}, codes = [0], quiet = false } = options;
  if (!quiet) console.log(`$ ${[command, ...args].join(' ')}`);
  const run = spawnSync(command, args, { cwd, env: { ...process.env, npm_config_yes: 'true', ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  if (run.error !== undefined) throw run.error;
  const result = { code: run.status ?? 1, out: run.stdout, err: run.stderr };
  if (codes.includes(result.code)) return result;
  process.stdout.write(result.out);
  process.stderr.write(result.err);
  throw new Error(`${command} ${args.join(' ')} exited ${result.code}`);
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

  await cliAlone(files.find((file) => /monsync-cli-[^/]*\.tgz$/.test(file)));
  librariesTogether(files.filter((file) => !/monsync-cli-[^/]*\.tgz$/.test(file)));
  console.log('\nall package checks passed');
}

/** An empty npm project (a git repository, as `monsync init` expects) whose @monsync scope resolves nowhere. */
function emptyProject(dir) {
  mkdirSync(join(dir, '.git'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'monsync-user', private: true, type: 'module' }, null, 2)}\n`);
  // A closed port: any @monsync package not among the tarballs fails the install instead of coming from npm.
  writeFileSync(join(dir, '.npmrc'), '@monsync:registry=http://127.0.0.1:9/\n');
}

function npmInstall(dir, specs) {
  const installed = sh('npm', ['install', '--no-audit', '--no-fund', '--save-dev', ...specs], { cwd: dir });
  const warnings = `${installed.out}${installed.err}`;
  if (/Failed to create bin|ERR!/.test(warnings)) throw new Error(`npm install printed:\n${warnings}`);
}

/** `npm i -D @monsync/cli` and nothing else: the command, the editor schema, the emulator. */
async function cliAlone(tarball) {
  if (tarball === undefined) throw new Error('no @monsync/cli tarball');
  step('npm install @monsync/cli alone into an empty project, no other @monsync package reachable');
  emptyProject(project);
  npmInstall(project, [tarball]);
  const scope = readdirSync(join(project, 'node_modules', '@monsync'));
  if (scope.join() !== 'cli') throw new Error(`installing @monsync/cli installed node_modules/@monsync/{${scope.join()}}; expected cli alone`);

  step('the command');
  expectIn(sh('npx', ['monsync', '--help']).out, 'Usage: monsync', 'monsync --help');
  const version = sh('npx', ['monsync', '--version']).out.trim();
  const expected = JSON.parse(readFileSync(join(root, 'packages', 'cli', 'package.json'), 'utf8')).version;
  if (version !== expected) throw new Error(`monsync --version printed ${version}, the package is ${expected}`);
  const init = sh('npx', ['monsync', 'init', '--kinds', 'monitors,monitorGroups,vault']);
  expectIn(init.out, 'wrote configs/monsync.yaml', 'monsync init');
  const released = /^\d+\.\d+\.\d+$/.test(expected) && expected !== '0.0.0';
  const pinned = released ? `monsync/monsync/packages/action@v${expected}\n` : 'monsync/monsync/packages/action@v1\n';
  expectIn(readFileSync(join(project, '.github', 'workflows', 'monsync-plan.yml'), 'utf8'), pinned, 'the plan workflow');
  if (!released) expectIn(init.err, `monsync ${expected} is not a released version`, 'monsync init of an unreleased build');

  step('the editor schema named on the first line of monsync.yaml');
  const rootFile = readFileSync(join(project, 'configs', 'monsync.yaml'), 'utf8');
  const modeline = rootFile.split('\n')[0];
  const match = /^# yaml-language-server: \$schema=(\S+)$/.exec(modeline);
  if (match === null || /^[a-z]+:/.test(match[1])) throw new Error(`monsync.yaml's first line names no installed schema: ${modeline}`);
  const schemaFile = resolve(project, 'configs', match[1]);
  if (!existsSync(schemaFile)) throw new Error(`monsync.yaml's first line names ${match[1]}, which is not there (${schemaFile})`);
  const schema = JSON.parse(readFileSync(schemaFile, 'utf8'));
  if (schema.title !== 'monsync config file') throw new Error(`${schemaFile} is not the config schema (title ${JSON.stringify(schema.title)})`);
  console.log(`${modeline}\n  -> ${schemaFile}`);
  writeFileSync(join(project, 'configs', 'monitors.yaml'), `${modeline}\nmonitors:\n  - Name: Shop homepage\n    MonitorType: Https\n    Url: https://shop.example.com/\n`);
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
}

/** The libraries, installed together (they depend on each other), imported and type-checked. */
function librariesTogether(tarballsOfLibraries) {
  step('npm install the libraries into an empty project');
  emptyProject(libraries);
  npmInstall(libraries, [...tarballsOfLibraries, 'typescript@~5.9.3']);

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
  writeFileSync(join(libraries, 'use.ts'), usage);
  const tsconfig = { compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, outDir: 'out', skipLibCheck: false }, files: ['use.ts'] };
  writeFileSync(join(libraries, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  sh('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: libraries });
  expectIn(sh('node', [join('out', 'use.js')], { cwd: libraries }).out, 'function function false true', 'importing the libraries');
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
