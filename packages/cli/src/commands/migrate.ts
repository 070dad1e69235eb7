import { jsonDocument } from '../io.js';
import { isAbsolute, resolve } from 'node:path';
import { formatMigrationReport, importLegacyJson, migrateConfig, migrationExitCode, OUTPUT_FORMAT_VERSION, type MigrateResult, type MigrationResult } from '@monsync/schema';
import { booleanOption, jsonOption, stringOption } from '../args.js';
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

/** What `--json` prints: the result as schemas/migrate.schema.json says. */
function jsonResult(mode: MigrateResult['mode'], result: MigrationResult, ok: boolean, secrets: readonly { env: string; where: string }[] = []): string {
  const document: MigrateResult = {
    formatVersion: OUTPUT_FORMAT_VERSION,
    mode,
    ok,
    filesChanged: result.filesChanged,
    changes: result.changes.map(({ file, line, column, monitor, removed, added }) => ({ file, line, column, monitor, removed, added: added.map((c) => ({ ...c })) })),
    renames: result.renames.map(({ file, line, column, kind, object, what, field, from, to, converted }) => ({ file, line, column, kind, object, what, field, from, to, ...(converted === undefined ? {} : { converted }) })),
    problems: result.problems.map(({ file, line, column, severity, code, message }) => ({ file, line, column, severity, code, message })),
    secrets: secrets.map(({ env, where }) => ({ env, where })),
  };
  return jsonDocument(document);
}

export const migrateCommand: CommandSpec = {
  name: 'migrate',
  summary: 'rewrite removed monitor fields into ErrorConditions, and spec spellings into the service\'s',
  usage: 'migrate [--check] [--json] | migrate --from-json FILE|DIR --out FILE [--json]',
  description:
    'Rewrites, in place, every monitor of the tree that still uses a removed field (LoadTimeLimit1,\n' +
    'AlertOnLoadTimeLimit1, ExpectedHttpStatusCode, ...) into the ErrorConditions entry that replaces it, keeping\n' +
    'comments and formatting, and every field or value spelled as the spec or the v3 API spells it into the\n' +
    'service\'s spelling (CheckFrequency -> CheckInterval, minutes as before; OperatorResponseTimeThreshold ->\n' +
    'OperatorReponseTimeThreshold; FileType PDFDownloadLink -> PDFLink; Previous Week -> PreviousWeek; ...).\n' +
    'A second run changes nothing. --check only reports, and exits 1 when anything would\n' +
    'change (for CI). --from-json converts monitors exported as JSON from the API (a file or a folder of them)\n' +
    'into a new YAML file of the config format. With --json, stdout is one JSON document\n' +
    '(schemas/migrate.schema.json), and the problems are in it rather than on stderr.',
  options: {
    check: { type: 'boolean', description: 'report what would change without writing; exit 1 when something would' },
    'from-json': { type: 'string', value: 'PATH', description: 'a .json file, or a folder of them, exported from the API' },
    out: { type: 'string', value: 'FILE', description: 'with --from-json: the new .yaml file to write' },
    json: jsonOption('migrate'),
  },
  examples: ['monsync migrate --check', 'monsync migrate --from-json exports/ --out configs/monitors/imported.yaml'],
  async run({ io, values, global }) {
    const fromJson = stringOption(values, 'from-json');
    const out = stringOption(values, 'out');
    const check = booleanOption(values, 'check');
    const json = booleanOption(values, 'json');
    if (fromJson !== undefined) {
      if (out === undefined) throw new UsageError('--from-json needs --out FILE: the new .yaml file to write', 'migrate');
      if (check) throw new UsageError('--check applies to a config tree, not to --from-json', 'migrate');
      const target = resolve(io.cwd, out);
      const imported = await importLegacyJson(resolve(io.cwd, fromJson), { out: target });
      const written = imported.written === undefined ? [] : [displayPath(io.cwd, target)];
      const shown = relativeTo(io.cwd, { changes: imported.changes, renames: [], problems: imported.problems, filesChanged: written });
      const ok = imported.written !== undefined && !shown.problems.some((problem) => problem.severity === 'error');
      if (json) {
        io.stdout.write(jsonResult('from-json', shown, ok, imported.secrets));
        return ok ? ExitCode.Ok : ExitCode.Error;
      }
      for (const problem of shown.problems) io.stderr.write(`${plainText(problem.file)}:${problem.line}:${problem.column}: ${problem.severity} ${problem.code}: ${plainText(problem.message)}\n`);
      if (imported.written === undefined) return ExitCode.Error;
      io.stdout.write(`Wrote ${imported.monitors} monitor${imported.monitors === 1 ? '' : 's'} to ${displayPath(io.cwd, target)} (${imported.changes.length} migrated off removed fields).\n`);
      writeSecretPlaceholders(io, imported.secrets);
      return ok ? ExitCode.Ok : ExitCode.Error;
    }
    if (out !== undefined) throw new UsageError('--out goes with --from-json', 'migrate');
    const dir = resolveConfigDir(io.cwd, global.config);
    const result = relativeTo(io.cwd, await migrateConfig(dir, { check }));
    const code = migrationExitCode(result, { check });
    io.stdout.write(json ? jsonResult(check ? 'check' : 'rewrite', result, code === 0) : formatMigrationReport(result, { check }));
    return code;
  },
};
