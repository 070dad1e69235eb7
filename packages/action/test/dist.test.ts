import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPO_ROOT = resolve(PACKAGE_DIR, '..', '..');
const BUNDLE_SCRIPT = join(PACKAGE_DIR, 'scripts', 'bundle.mjs');
const BUNDLE_COMMAND = 'npx pnpm@10 --filter @monsync/action bundle';

function bundleScript(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [BUNDLE_SCRIPT, ...args], { cwd: PACKAGE_DIR, encoding: 'utf8' });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface Metafile {
  inputs: Record<string, unknown>;
  outputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[] }>;
}

function buildInto(dir: string, extra: string[] = []): string {
  const result = bundleScript(['--outdir', dir, ...extra]);
  if (result.status !== 0) throw new Error(`bundle.mjs failed (${String(result.status)}):\n${result.stderr}`);
  return readFileSync(join(dir, 'index.js'), 'utf8');
}

describe('the committed bundle (dist/)', () => {
  const temps: string[] = [];
  const temp = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'monsync-action-dist-'));
    temps.push(dir);
    return dir;
  };
  let freshDir = '';
  let fresh = '';
  let metafile: Metafile = { inputs: {}, outputs: {} };

  beforeAll(() => {
    freshDir = temp();
    const metafilePath = join(temp(), 'meta.json');
    fresh = buildInto(freshDir, ['--metafile', metafilePath]);
    metafile = JSON.parse(readFileSync(metafilePath, 'utf8')) as Metafile;
  });
  afterAll(() => {
    for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  });

  it('is byte for byte what a fresh build of src/ gives (else: run the bundle command and commit dist/)', () => {
    for (const name of ['index.js', 'package.json']) {
      const committed = readFileSync(join(PACKAGE_DIR, 'dist', name), 'utf8');
      const built = readFileSync(join(freshDir, name), 'utf8');
      if (committed !== built) {
        expect.fail(`packages/action/dist/${name} is out of date with src/ (or a workspace package it bundles). Run \`${BUNDLE_COMMAND}\` and commit packages/action/dist.`);
      }
    }
  });

  it('builds byte-identical output twice in a row', () => {
    expect(buildInto(temp()) === fresh).toBe(true);
  });

  it('carries no absolute path of the machine that built it', () => {
    // A home of "/" (some containers) would match everything: only real folders count.
    for (const local of [PACKAGE_DIR, REPO_ROOT, homedir(), tmpdir()].filter((path) => path.length > 1)) {
      expect(fresh.includes(local), `the bundle contains ${local}`).toBe(false);
    }
    expect(fresh).not.toMatch(/sourceMappingURL/);
  });

  it('is one ESM file that imports nothing but Node built-ins', () => {
    const outputs = Object.entries(metafile.outputs);
    expect(outputs.map(([path]) => path)).toEqual(['dist/index.js']);
    const imports = outputs.flatMap(([, output]) => output.imports);
    expect(imports.length).toBeGreaterThan(0);
    // `node:` names only built-ins; some are newer than Node 20 (undici's optional cache store requires node:sqlite
    // lazily), so isBuiltin() alone would miss them.
    const builtin = (path: string): boolean => isBuiltin(path) || path.startsWith('node:');
    const foreign = imports.filter((entry) => entry.external !== true || !builtin(entry.path)).map((entry) => `${entry.kind} ${entry.path}`);
    expect(foreign).toEqual([]);
    expect(fresh).toMatch(/^import \{ createRequire as \w+ \} from 'node:module';$/m);
    expect(JSON.parse(readFileSync(join(freshDir, 'package.json'), 'utf8'))).toEqual({ type: 'module' });
  });

  it('bundles the workspace packages from their TypeScript source, not from a dist/ folder', () => {
    const inputs = Object.keys(metafile.inputs);
    expect(inputs).toContain('src/index.ts');
    expect(inputs).toContain('src/main.ts');
    const workspace = inputs.filter((path) => /^\.\.\/(client|reconciler|schema|emulator)\//.test(path));
    expect(workspace).toEqual(expect.arrayContaining(['../client/src/index.ts', '../reconciler/src/index.ts', '../schema/src/index.ts']));
    expect(workspace.filter((path) => !/^\.\.\/(client|reconciler|schema)\/src\/.+\.ts$/.test(path))).toEqual([]);
  });

  it('--check passes on a fresh build and fails naming the bundle command when index.js differs', () => {
    expect(bundleScript(['--check', '--dist', freshDir]).status).toBe(0);
    const stale = temp();
    cpSync(freshDir, stale, { recursive: true });
    appendFileSync(join(stale, 'index.js'), '\n// edited by hand\n');
    const result = bundleScript(['--check', '--dist', stale]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('index.js');
    expect(result.stderr).toContain(BUNDLE_COMMAND);
  });
});
