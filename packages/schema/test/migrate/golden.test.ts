import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateConfig, migrationExitCode, type MigrationResult } from '@monsync/schema';
import { copyToTemp, FIXTURES, readJson, readTree, relativeTo, UPDATE_GOLDEN, writeJson, writeTree } from './helpers.js';

/**
 * Each fixture case is a config tree before and after `monsync migrate`, with the expected result
 * (changes and problems, paths relative to the tree) in expected.json.
 */
const cases = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'import')
  .map((entry) => entry.name)
  .sort();

const temps: string[] = [];
afterEach(async () => {
  for (const dir of temps.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tree(name: string): Promise<string> {
  const dir = await copyToTemp(join(FIXTURES, name, 'before'));
  temps.push(dir);
  return dir;
}

describe.each(cases)('migration golden case %s', (name) => {
  const caseDir = join(FIXTURES, name);

  it('rewrites the tree into the after/ files and reports the expected changes and problems', async () => {
    const dir = await tree(name);
    const result = relativeTo(dir, await migrateConfig(dir));
    if (UPDATE_GOLDEN) {
      await writeTree(join(caseDir, 'after'), await readTree(dir));
      await writeJson(join(caseDir, 'expected.json'), result);
    }
    expect(await readTree(dir)).toEqual(await readTree(join(caseDir, 'after')));
    expect(result).toEqual(await readJson<MigrationResult>(join(caseDir, 'expected.json')));
  });

  it('in check mode writes nothing, reports the same, and exits 1 when anything would change', async () => {
    const dir = await tree(name);
    const before = await readTree(dir);
    const result = await migrateConfig(dir, { check: true });
    expect(await readTree(dir)).toEqual(before);
    const expected = await readJson<MigrationResult>(join(caseDir, 'expected.json'));
    expect(relativeTo(dir, result)).toEqual(expected);
    const blocked = expected.problems.some((problem) => problem.severity === 'error');
    expect(migrationExitCode(result, { check: true })).toBe(expected.changes.length > 0 || expected.renames.length > 0 || blocked ? 1 : 0);
  });

  it('changes nothing on a second run', async () => {
    const dir = await tree(name);
    const first = await migrateConfig(dir);
    const afterFirst = await readTree(dir);
    const second = await migrateConfig(dir);
    expect(second.changes).toEqual([]);
    expect(second.renames).toEqual([]);
    expect(second.filesChanged).toEqual([]);
    expect(await readTree(dir)).toEqual(afterFirst);
    // Monitors that were blocked stay blocked, with the same findings; notes about done rewrites do not repeat.
    expect(second.problems).toEqual(first.problems.filter((problem) => problem.severity !== 'info'));
    expect(migrationExitCode(second, { check: true })).toBe(second.problems.length > 0 ? 1 : 0);
  });
});

it('has golden cases to run', () => {
  expect(cases.length).toBeGreaterThanOrEqual(6);
});
