import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ACTION_USER_AGENT } from '../src/version.js';

const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('the action bundle, copied away from its package', () => {
  it('runs without a package.json beside or above it, and names its version in its user agent', () => {
    const out = mkdtempSync(join(tmpdir(), 'monsync-action-copy-'));
    const built = spawnSync(process.execPath, [join(PACKAGE_DIR, 'scripts', 'bundle.mjs'), '--outdir', out], { encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    const { version } = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string };
    // No inputs at all: the action must get as far as reading them (and fail on the missing command), not stop at a
    // module it cannot find.
    const ran = spawnSync(process.execPath, [join(out, 'index.js')], { cwd: out, encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '' } });
    expect(`${ran.stdout}${ran.stderr}`).not.toContain('Cannot find module');
    expect(ran.stdout).toContain('input command is required');
    expect(ACTION_USER_AGENT).toBe(`monsync-action/${version}`);
  });
});
