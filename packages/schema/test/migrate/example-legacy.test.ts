import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMigrationReport, loadConfig, migrateConfig, migrationExitCode } from '@monsync/schema';
import { copyToTemp, readTree } from './helpers.js';

/** examples/legacy is what `monsync migrate` shows in the demo: it must stay legacy in git and migrate cleanly. */
const EXAMPLE = join(import.meta.dirname, '..', '..', '..', '..', 'examples', 'legacy');

describe('examples/legacy', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await copyToTemp(EXAMPLE);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('still uses the removed fields, so check mode fails and names every legacy monitor', async () => {
    const result = await migrateConfig(EXAMPLE, { check: true });
    expect(migrationExitCode(result, { check: true })).toBe(1);
    expect(result.changes.map((change) => change.monitor)).toEqual(['Shop homepage', 'Shop product images', 'Checkout API']);
    expect(result.problems.filter((problem) => problem.severity !== 'info')).toEqual([]);
    expect(formatMigrationReport(result, { check: true })).toContain('3 monitors in 1 file would be migrated');
  });

  it('migrates into a tree the loader accepts without errors, keeping every comment', async () => {
    const before = await readFile(join(dir, 'monitors', 'web.yaml'), 'utf8');
    const result = await migrateConfig(dir);
    expect(migrationExitCode(result)).toBe(0);
    const after = await readFile(join(dir, 'monitors', 'web.yaml'), 'utf8');
    const comments = (text: string): string[] => [...text.matchAll(/#\s*(.*)$/gm)].map((match) => match[1] ?? '');
    const lost = comments(before).filter((comment) => !comments(after).includes(comment));
    expect(lost).toEqual([]);
    expect(after).toContain('      - { ErrorConditionType: LoadTimeLimit1, Value: "2500", Effect: Indicate }  # indicate only');
    // The status-code fields of Checkout API go without a replacement: their comment moves above the list it explains.
    expect(after).toContain('    # Any status is fine for this one (the old status-code switch was off).\n    ErrorConditions:\n      - { ErrorConditionType: TotalMinBytes');
    const { diagnostics } = await loadConfig(dir);
    expect(diagnostics.filter((diagnostic) => diagnostic.severity === 'error')).toEqual([]);
  });

  it('changes nothing when migrated a second time', async () => {
    const tree = await readTree(dir);
    const again = await migrateConfig(dir, { check: true });
    expect(again.changes).toEqual([]);
    expect(migrationExitCode(again, { check: true })).toBe(0);
    expect(await readTree(dir)).toEqual(tree);
  });
});
