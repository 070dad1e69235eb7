import { isAbsolute, resolve } from 'node:path';
import { formatMigrationReport, importLegacyJson, migrateConfig, migrationExitCode, type MigrationResult } from '@monsync/schema';
import { booleanOption, stringOption } from '../args.js';
import type { CommandSpec } from '../command.js';
import { resolveConfigDir } from '../config-dir.js';
import { UsageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { writeSecretPlaceholders } from '../secret-placeholders.js';
import { plainText } from '@monsync/reconciler/escape';
import { displayPath } from '../load.js';

/** Positions are reported with absolute paths; shown relative to the working directory like every diagnostic. */
function relativeTo(cwd: string, result: MigrationResult): MigrationResult {
  const show = (file: string) => (isAbsolute(file) ? displayPath(cwd, file) : file);
  return {
    changes: result.changes.map((change) => ({ ...change, file: show(change.file) })),
    renames: result.renames.map((rename) => ({ ...rename, file: show(rename.file) })),
    problems: result.problems.map((problem) => ({ ...problem, file: show(problem.file) })),
    filesChanged: result.filesChanged.map(show),
  };
}

export const migrateCommand: CommandSpec = {
  name: 'migrate',
  summary: 'rewrite removed monitor fields into ErrorConditions, and spec spellings into the service\'s',
  usage: 'migrate [--check] | migrate --from-json FILE|DIR --out FILE',
  description:
    'Rewrites, in place, every monitor of the tree that still uses a removed field (LoadTimeLimit1,\n' +
    'AlertOnLoadTimeLimit1, ExpectedHttpStatusCode, ...) into the ErrorConditions entry that replaces it, keeping\n' +
    'comments and formatting, and every field or value spelled as the spec or the v3 API spells it into the\n' +
    'service\'s spelling (CheckFrequency -> CheckInterval, minutes as before; OperatorResponseTimeThreshold ->\n' +
    'OperatorReponseTimeThreshold; FileType PDFDownloadLink -> PDFLink; Previous Week -> PreviousWeek; ...).\n' +
    'A second run changes nothing. --check only reports, and exits 1 when anything would\n' +
    'change (for CI). --from-json converts monitors exported as JSON from the API (a file or a folder of them)\n' +
    'into a new YAML file of the config format.',
  options: {
    check: { type: 'boolean', description: 'report what would change without writing; exit 1 when something would' },
    'from-json': { type: 'string', value: 'PATH', description: 'a .json file, or a folder of them, exported from the API' },
    out: { type: 'string', value: 'FILE', description: 'with --from-json: the new .yaml file to write' },
  },
  examples: ['monsync migrate --check', 'monsync migrate --from-json exports/ --out configs/monitors/imported.yaml'],
  async run({ io, values, global }) {
    const fromJson = stringOption(values, 'from-json');
    const out = stringOption(values, 'out');
    const check = booleanOption(values, 'check');
    if (fromJson !== undefined) {
      if (out === undefined) throw new UsageError('--from-json needs --out FILE: the new .yaml file to write', 'migrate');
      if (check) throw new UsageError('--check applies to a config tree, not to --from-json', 'migrate');
      const target = resolve(io.cwd, out);
      const imported = await importLegacyJson(resolve(io.cwd, fromJson), { out: target });
      const shown = relativeTo(io.cwd, { changes: imported.changes, renames: [], problems: imported.problems, filesChanged: [] });
      for (const problem of shown.problems) io.stderr.write(`${plainText(problem.file)}:${problem.line}:${problem.column}: ${problem.severity} ${problem.code}: ${plainText(problem.message)}\n`);
      if (imported.written === undefined) return ExitCode.Error;
      io.stdout.write(`Wrote ${imported.monitors} monitor${imported.monitors === 1 ? '' : 's'} to ${displayPath(io.cwd, target)} (${imported.changes.length} migrated off removed fields).\n`);
      writeSecretPlaceholders(io, imported.secrets);
      return shown.problems.some((problem) => problem.severity === 'error') ? ExitCode.Error : ExitCode.Ok;
    }
    if (out !== undefined) throw new UsageError('--out goes with --from-json', 'migrate');
    const dir = resolveConfigDir(io.cwd, global.config);
    const result = relativeTo(io.cwd, await migrateConfig(dir, { check }));
    io.stdout.write(formatMigrationReport(result, { check }));
    return migrationExitCode(result, { check });
  },
};
