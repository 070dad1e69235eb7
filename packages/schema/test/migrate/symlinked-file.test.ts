import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateConfig, migrationExitCode } from '@monsync/schema';

const temps: string[] = [];
afterEach(async () => {
  for (const dir of temps.splice(0)) await rm(dir, { recursive: true, force: true });
});

const LEGACY = 'monitors:\n  - Name: Shop\n    LoadTimeLimit1: 4000\n    AlertOnLoadTimeLimit1: true\n';

describe('migrateConfig on a symlinked config file (the loader reads it, so validate asks for a migration)', () => {
  it('reports the link as an error at the removed field, so --check fails, and writes neither the link nor its target', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'monsync-migrate-link-'));
    temps.push(dir);
    await writeFile(join(dir, 'monsync.yaml'), 'apiVersion: monsync/v1\n');
    await mkdir(join(dir, '.shared'));
    await writeFile(join(dir, '.shared', 'web.yaml'), LEGACY);
    await symlink(join('.shared', 'web.yaml'), join(dir, 'web.yaml'));
    for (const check of [true, false]) {
      const result = await migrateConfig(dir, { check });
      expect(result.changes).toEqual([]);
      expect(result.problems).toEqual([
        expect.objectContaining({ severity: 'error', code: 'MIGRATE_SYMLINKED_FILE', file: join(dir, 'web.yaml'), line: 3, column: 5 }),
      ]);
      expect(result.problems[0]?.message).toBe('the file is a symbolic link, and migrate does not write through links: replace the link with a copy of the file, or move the file into the tree, then run `monsync migrate` again');
      expect(migrationExitCode(result, { check })).toBe(1);
    }
    expect(await readFile(join(dir, '.shared', 'web.yaml'), 'utf8')).toBe(LEGACY);
  });
});
