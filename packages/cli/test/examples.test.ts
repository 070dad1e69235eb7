/**
 * Every example tree of the repository validates strictly, as a team copying one would run it: `monsync validate`
 * exits 0 with no error. A tree kept in an older form on purpose (examples/legacy shows what `monsync migrate` does)
 * is validated as `migrate` leaves it, which is the state its README leads to.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { monsync, REPO_ROOT } from './helpers.js';

const EXAMPLES = join(REPO_ROOT, 'examples');
const trees = readdirSync(EXAMPLES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(EXAMPLES, entry.name, 'monsync.yaml')))
  .map((entry) => entry.name)
  .sort();

describe('the example trees', () => {
  it('are there to check', () => {
    expect(trees).toContain('legacy');
  });

  it.each(trees)('examples/%s validates strictly (exit 0), once migrated if it is kept in an older form', async (name) => {
    const root = mkdtempSync(join(tmpdir(), 'monsync-example-'));
    cpSync(join(EXAMPLES, name), join(root, name), { recursive: true });
    const check = await monsync(['migrate', '--config', name, '--check'], { cwd: root });
    if (check.code !== ExitCode.Ok) {
      const migrated = await monsync(['migrate', '--config', name], { cwd: root });
      expect(migrated.code, migrated.out + migrated.err).toBe(ExitCode.Ok);
    }
    const validate = await monsync(['validate', '--config', name], { cwd: root });
    expect(validate.err).not.toMatch(/\berror\b/);
    expect(validate.code, validate.out + validate.err).toBe(ExitCode.Ok);
  });
});
