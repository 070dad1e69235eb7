import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { monsync, REPO_ROOT, useEmulator } from './helpers.js';

/** The installed command: the bundle `pnpm build` writes (scripts/bundle.mjs), run through the package's bin. */
const BIN = join(REPO_ROOT, 'packages', 'cli', 'bin', 'monsync.js');

/** Where the bundle keeps V8's code cache in these tests (not the user's cache directory). */
const newCacheDir = () => mkdtempSync(join(tmpdir(), 'monsync-code-cache-'));
const DEFAULT_CACHE_DIR = newCacheDir();

function bundledEnv(env: Record<string, string>): Record<string, string> {
  expect(existsSync(join(REPO_ROOT, 'packages', 'cli', 'dist', 'bin.js')), 'packages/cli/dist/bin.js is missing: run `npx pnpm@10 build`').toBe(true);
  return { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', MONSYNC_CACHE_DIR: DEFAULT_CACHE_DIR, ...env };
}

function bundled(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, encoding: 'utf8', env: bundledEnv(env) });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

/** As `bundled`, without blocking this process (which may be serving the command's API calls). */
function bundledAsync(args: string[], env: Record<string, string> = {}, nodeFlags: string[] = []): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [...nodeFlags, BIN, ...args], { cwd: REPO_ROOT, env: bundledEnv(env) });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, out, err }));
  });
}

/** The code cache files under a cache directory, by path relative to it. */
function cacheFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('.v8')).sort();
}

describe('the bundled monsync', () => {
  it('prints the version of its package, set when it was bundled', () => {
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'packages', 'cli', 'package.json'), 'utf8')) as { version: string };
    expect(bundled(['--version'])).toEqual({ code: 0, out: `${version}\n`, err: '' });
  });

  it('reports exactly what the source reports on an invalid tree, with the validator compiled at build time', async () => {
    const fromSource = await monsync(['validate', '--config', 'examples/legacy'], { env: { NO_COLOR: '1' } });
    const fromBundle = bundled(['validate', '--config', 'examples/legacy']);
    expect(fromSource.err).toContain('error REMOVED_FIELD');
    expect(fromBundle).toEqual({ code: fromSource.code, out: fromSource.out, err: fromSource.err });
  });

  it('ships the editor schema the files init and pull write name, as the repository commits it', () => {
    const shipped = join(REPO_ROOT, 'packages', 'cli', 'dist', 'schemas');
    expect(readFileSync(join(shipped, 'config.schema.json'), 'utf8')).toBe(readFileSync(join(REPO_ROOT, 'schemas', 'config.schema.json'), 'utf8'));
    expect(readFileSync(join(shipped, 'plan.schema.json'), 'utf8')).toBe(readFileSync(join(REPO_ROOT, 'schemas', 'plan.schema.json'), 'utf8'));
    // An installed CLI needs no other @monsync package (scripts/check-packages.mjs installs it alone).
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'packages', 'cli', 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    expect(Object.keys(manifest.dependencies ?? {})).toEqual([]);
  });

  it('ships the repository license in every package', () => {
    const license = readFileSync(join(REPO_ROOT, 'LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License\n/);
    for (const name of ['client', 'emulator', 'schema', 'reconciler', 'cli', 'action']) {
      expect(readFileSync(join(REPO_ROOT, 'packages', name, 'LICENSE'), 'utf8'), name).toBe(license);
    }
  });

  it('runs from V8\'s code cache as without one, and writes the cache once, on its first run', () => {
    const cacheDir = newCacheDir();
    const withoutCache = bundled(['validate', '--config', 'examples/legacy'], { NODE_DISABLE_COMPILE_CACHE: '1', MONSYNC_CACHE_DIR: cacheDir });
    expect(cacheFiles(cacheDir)).toEqual([]);
    const first = bundled(['validate', '--config', 'examples/legacy'], { MONSYNC_CACHE_DIR: cacheDir });
    const written = cacheFiles(cacheDir);
    expect(written.length).toBeGreaterThan(0);
    const bytes = written.map((path) => readFileSync(join(cacheDir, path)));
    const second = bundled(['validate', '--config', 'examples/legacy'], { MONSYNC_CACHE_DIR: cacheDir });
    expect(withoutCache.err).toContain('error REMOVED_FIELD');
    expect(first).toEqual(withoutCache);
    expect(second).toEqual(withoutCache);
    expect(written.map((path) => readFileSync(join(cacheDir, path)))).toEqual(bytes);
  });

  it('loads the config validator (ajv\'s code, a script of its own) only for a tree with something to report', () => {
    const cacheDir = newCacheDir();
    const validator = (files: string[]) => files.filter((path) => /config-validator-[0-9a-f]+-\d+\.v8$/.test(path));
    expect(bundled(['validate', '--config', 'configs'], { MONSYNC_CACHE_DIR: cacheDir }).code).toBe(0);
    expect(cacheFiles(cacheDir).length).toBeGreaterThan(0);
    expect(validator(cacheFiles(cacheDir))).toEqual([]);
    expect(bundled(['validate', '--config', 'examples/legacy'], { MONSYNC_CACHE_DIR: cacheDir }).err).toContain('error REMOVED_FIELD');
    expect(validator(cacheFiles(cacheDir))).toHaveLength(1);
  });

  it('replaces a corrupt code cache, and runs as before where none can be written', () => {
    const cacheDir = newCacheDir();
    const expected = bundled(['validate', '--config', 'configs'], { MONSYNC_CACHE_DIR: cacheDir });
    expect(expected.code).toBe(0);
    for (const path of cacheFiles(cacheDir)) writeFileSync(join(cacheDir, path), Buffer.alloc(readFileSync(join(cacheDir, path)).length, 7));
    expect(bundled(['validate', '--config', 'configs'], { MONSYNC_CACHE_DIR: cacheDir })).toEqual(expected);
    for (const path of cacheFiles(cacheDir)) expect(readFileSync(join(cacheDir, path)).every((byte) => byte === 7), path).toBe(false);
    // A file where the cache directory should be: nothing can be read or written there.
    const notADirectory = join(newCacheDir(), 'file');
    writeFileSync(notADirectory, 'not a directory');
    expect(bundled(['validate', '--config', 'configs'], { MONSYNC_CACHE_DIR: notADirectory })).toEqual(expected);
  });
});

describe('the bundled monsync, a chunk importing another from its code cache', () => {
  it('checks a saved plan the same on every run (its validator is imported when first needed)', () => {
    const cacheDir = newCacheDir();
    const planFile = join(cacheDir, 'not-a-plan.json');
    writeFileSync(planFile, '{ "formatVersion": 1 }\n');
    const env = { MONSYNC_CACHE_DIR: cacheDir, MONSYNC_API_URL: 'http://127.0.0.1:9/v4', MONSYNC_API_USERNAME: 'canary-user', MONSYNC_API_PASSWORD: 'canary-password' };
    const runs = [1, 2, 3].map(() => bundled(['apply', planFile, '--auto-approve'], env));
    expect(runs[0]?.err).toContain('error PLAN_FILE_INVALID');
    expect(runs[0]?.code).toBe(1);
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).toEqual(runs[0]);
  });
});

describe('the bundled monsync against the API', () => {
  const suite = useEmulator({
    seed: 'demo',
    start: { retryAfterSeconds: 0 },
    env: { DEMO_SHOP_PASSWORD: 'canary-shop-password', DEMO_SHOP_OTP_SECRET: 'CANARYOTPSECRETA', DEMO_CLIENT_CERT_PFX_BASE64: Buffer.from('canary-pfx').toString('base64'), DEMO_CLIENT_CERT_PASSWORD: 'canary-pfx-password' },
  });

  it('plans the same from its code cache as without one', async () => {
    const cacheDir = newCacheDir();
    // What a run prints that does not depend on the clock (the on-call and paging previews start from now; reads are timed).
    const planned = async (env: Record<string, string>) => {
      const { code, out, err } = await bundledAsync(['plan', '--config', 'configs', '--format', 'json'], { ...suite.env, MONSYNC_CACHE_DIR: cacheDir, ...env });
      const { onCall: _onCall, paging: _paging, ...plan } = JSON.parse(out) as Record<string, unknown>;
      return { code, plan, err: err.replace(/ in [0-9.]+ ?m?s\b/g, ' in (time)') };
    };
    const withoutCache = await planned({ NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(withoutCache.code).toBe(0);
    expect(cacheFiles(cacheDir)).toEqual([]);
    expect(await planned({})).toEqual(withoutCache);
    expect(cacheFiles(cacheDir).length).toBeGreaterThan(0);
    expect(await planned({})).toEqual(withoutCache);
  });

  it('keeps undici\'s HTTP parser as WebAssembly\'s baseline compiler made it, never waiting on an optimizing compile', async () => {
    // V8 prints each WebAssembly function it compiles, and with which compiler, to stdout, after the plan.
    const { code, out } = await bundledAsync(['plan', '--config', 'configs', '--format', 'json'], { ...suite.env, NODE_DISABLE_COMPILE_CACHE: '1' }, ['--trace-wasm-compilation-times']);
    expect(code).toBe(0);
    const compiled = out.split('\n').filter((line) => line.startsWith('Compiled function'));
    expect(compiled.filter((line) => line.includes('using Liftoff')).length).toBeGreaterThan(0);
    expect(compiled.filter((line) => !line.includes('using Liftoff'))).toEqual([]);
  });
});
