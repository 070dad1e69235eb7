import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { monsync, REPO_ROOT } from './helpers.js';

/** The installed command: the bundle `pnpm build` writes (scripts/bundle.mjs), run through the package's bin. */
const BIN = join(REPO_ROOT, 'packages', 'cli', 'bin', 'monsync.js');

function bundled(args: string[]) {
  expect(existsSync(join(REPO_ROOT, 'packages', 'cli', 'dist', 'bin.js')), 'packages/cli/dist/bin.js is missing: run `npx pnpm@10 build`').toBe(true);
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1' } });
  return { code: result.status, out: result.stdout, err: result.stderr };
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

  it('ships the repository license in every package', () => {
    const license = readFileSync(join(REPO_ROOT, 'LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License\n/);
    for (const name of ['client', 'emulator', 'schema', 'reconciler', 'cli', 'action']) {
      expect(readFileSync(join(REPO_ROOT, 'packages', name, 'LICENSE'), 'utf8'), name).toBe(license);
    }
  });
});
