import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-write.js';
import { MigrationError } from './errors.js';
import { renameWireSpellings } from './rename-wire.js';
import { rewriteYamlSource } from './rewrite-yaml.js';
import type { MigrateOptions, MigrationResult } from './types.js';
import { listFiles } from './walk.js';

/** The loader's limit: a bigger file is refused there, so it is not rewritten here either. */
export const MAX_CONFIG_FILE_BYTES = 5 * 1024 * 1024;

async function requireDirectory(dir: string): Promise<void> {
  const stats = await stat(dir).catch(() => undefined);
  if (!stats) {
    throw new MigrationError('MIGRATE_INPUT_NOT_FOUND', `${dir}: no such folder; give the folder that holds monsync.yaml`);
  }
  if (!stats.isDirectory()) {
    throw new MigrationError('MIGRATE_INPUT_NOT_A_DIRECTORY', `${dir}: not a folder; give the folder that holds monsync.yaml`);
  }
}

/**
 * Both rewrites of one file's text: the spec spellings first (token for token, so every line stays where it was and
 * the positions of both reports refer to the original file), then the removed monitor fields.
 */
function migrateText(source: string, file: string, shown: string): { text: string; outcome: Pick<MigrationResult, 'changes' | 'renames' | 'problems'> } {
  const renamed = renameWireSpellings(source, file, shown);
  const afterRenames = renamed.text ?? source;
  const rewritten = rewriteYamlSource(afterRenames, file, shown);
  return {
    text: rewritten.text ?? afterRenames,
    outcome: { renames: renamed.renames, changes: rewritten.changes, problems: [...renamed.problems, ...rewritten.problems] },
  };
}

/**
 * Rewrites every monitor of the config tree at `dir` that still uses the monitor fields removed on 2025-08-27
 * into `ErrorConditions` entries, and every field or value spelled as the spec or the v3 API spells it into the
 * service's published spelling, in place, touching nothing else in the files. Monitors with anything doubtful
 * are left unchanged and reported as problems. With `check` (or `write: false`) nothing is written.
 */
export async function migrateConfig(dir: string, options: MigrateOptions = {}): Promise<MigrationResult> {
  await requireDirectory(dir);
  const write = options.check === true ? false : (options.write ?? true);
  const result: MigrationResult = { changes: [], renames: [], problems: [], filesChanged: [] };
  const links: string[] = [];
  const files = await listFiles(dir, '.yaml', 'monsync.yaml', links);
  if (!files.includes('monsync.yaml')) {
    result.problems.push({
      severity: 'warning',
      code: 'MIGRATE_NO_ROOT_FILE',
      message: 'the folder has no monsync.yaml; its *.yaml files were migrated anyway, but check that this is the config tree',
      file: join(dir, 'monsync.yaml'),
      line: 1,
      column: 1,
    });
  }
  for (const relative of files) {
    const file = join(dir, relative);
    const size = (await stat(file)).size;
    if (size > MAX_CONFIG_FILE_BYTES) {
      result.problems.push({
        severity: 'error',
        code: 'MIGRATE_FILE_TOO_LARGE',
        message: `the file has ${size} bytes, over the ${MAX_CONFIG_FILE_BYTES}-byte limit of config files; split it, then migrate`,
        file,
        line: 1,
        column: 1,
      });
      continue;
    }
    const source = await readFile(file, 'utf8');
    const { text, outcome } = migrateText(source, file, relative);
    result.renames.push(...outcome.renames);
    result.changes.push(...outcome.changes);
    result.problems.push(...outcome.problems);
    if (text === source) continue;
    result.filesChanged.push(file);
    if (write) await writeFileAtomic(file, text);
  }
  // The loader reads symlinked files, so validate asks for a migration of them; a rewrite would replace the link
  // with a file (or write outside the tree), so each one that needs it is an error at its first removed field.
  for (const relative of links) {
    const file = join(dir, relative);
    const source = await readFile(file, 'utf8').catch(() => undefined);
    if (source === undefined || Buffer.byteLength(source, 'utf8') > MAX_CONFIG_FILE_BYTES) continue;
    const { outcome } = migrateText(source, file, relative);
    const first = outcome.renames[0] ?? outcome.changes[0] ?? outcome.problems.find((problem) => problem.severity === 'error');
    if (first === undefined) continue;
    result.problems.push({
      severity: 'error',
      code: 'MIGRATE_SYMLINKED_FILE',
      message: 'the file is a symbolic link, and migrate does not write through links: replace the link with a copy of the file, or move the file into the tree, then run `monsync migrate` again',
      file,
      line: first.line,
      column: first.column,
    });
  }
  return result;
}
