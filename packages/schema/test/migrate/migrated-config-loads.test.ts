import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { LEGACY_ERROR_CONDITION_FIELDS, loadConfig, type MigrationResult } from '@monsync/schema';
import { FIXTURES, readJson, readTree } from './helpers.js';

const cases = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'import')
  .map((entry) => entry.name)
  .sort();

const removedFields = new Set(LEGACY_ERROR_CONDITION_FIELDS.flatMap((mapping) => [mapping.flag, mapping.value]));

/** Removed fields still present in the tree's monitors (the ones the migration had to leave for a person). */
async function leftovers(dir: string): Promise<number> {
  let count = 0;
  for (const [path, text] of Object.entries(await readTree(dir))) {
    if (!path.endsWith('.yaml') || path.startsWith('.') || path.startsWith('node_modules/')) continue;
    const monitors = (parse(text) as { monitors?: unknown } | null)?.monitors;
    if (!Array.isArray(monitors)) continue;
    for (const monitor of monitors) count += Object.keys(monitor as object).filter((key) => removedFields.has(key)).length;
  }
  return count;
}

describe.each(cases)('the migrated tree of golden case %s', (name) => {
  it('validates strictly, apart from the removed fields of the monitors that were left for a person', async () => {
    const after = join(FIXTURES, name, 'after');
    const expected = await readJson<MigrationResult>(join(FIXTURES, name, 'expected.json'));
    const { diagnostics } = await loadConfig(after);
    // Strict: a v3 field the published v4 definition has no place for (`Tags`) is gone too, not left for validate.
    const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
    const blocked = expected.problems.filter((problem) => problem.severity === 'error');
    if (blocked.length === 0) {
      expect(errors).toEqual([]);
    } else {
      // The loader and the migration agree on what is removed: every leftover is flagged, nothing else is.
      expect(errors.filter((error) => error.code === 'REMOVED_FIELD')).toHaveLength(await leftovers(after));
    }
  });
});
