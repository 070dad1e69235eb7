import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { MIGRATION_PROBLEM_CODES } from '@monsync/schema';

const SOURCES = join(import.meta.dirname, '..', '..', 'src', 'migrate');
const TESTS = import.meta.dirname;

function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|json)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

const codesIn = (files: string[]): Set<string> =>
  new Set(files.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/'(MIGRATE_[A-Z_]+)'|"(MIGRATE_[A-Z_]+)"/g)].map((m) => m[1] ?? m[2] ?? '')));

it('documents every problem code the migration emits, in SCREAMING_SNAKE', () => {
  // Codes of the thrown MigrationError (bad input as a whole) are not problem codes.
  const thrown = codesIn([join(SOURCES, 'errors.ts')]);
  const emitted = [...codesIn(filesBelow(SOURCES).filter((file) => !file.endsWith('codes.ts')))].filter((code) => !thrown.has(code));
  const documented = Object.keys(MIGRATION_PROBLEM_CODES);
  expect(emitted.sort()).toEqual([...documented].sort());
  for (const code of documented) expect(code).toMatch(/^MIGRATE_[A-Z]+(_[A-Z]+)*$/);
});

it('has a test or golden file that expects each problem code', () => {
  const tested = codesIn(filesBelow(TESTS).filter((file) => !file.endsWith('problem-codes.test.ts')));
  const untested = Object.keys(MIGRATION_PROBLEM_CODES).filter((code) => !tested.has(code));
  expect(untested).toEqual([]);
});
