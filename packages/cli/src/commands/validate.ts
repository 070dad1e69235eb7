import { jsonDocument } from '../io.js';
import { OUTPUT_FORMAT_VERSION, type ValidateResult } from '@monsync/schema';
import { booleanOption, jsonOption } from '../args.js';
import type { CommandSpec } from '../command.js';
import { resolveConfigDir } from '../config-dir.js';
import { ExitCode } from '../exit-codes.js';
import { loadTree, countDeclared, declaredCounts } from '../load.js';

export const validateCommand: CommandSpec = {
  name: 'validate',
  summary: 'check the config tree (schema, references, secrets by reference only) without calling the API',
  usage: 'validate [--config DIR] [--json]',
  description:
    'Reads monsync.yaml and every *.yaml below it and reports every problem as file:line:col with a caret\n' +
    'snippet. Makes no API request and needs no credentials. Exit 0 when the tree is valid (warnings allowed), 1 otherwise.\n' +
    'With --json, stdout is one JSON document (schemas/validate.schema.json): valid, the counts, what the tree\n' +
    'declares per kind, and every diagnostic with its file, line and column; nothing else is printed.',
  options: { json: jsonOption('validate') },
  examples: ['monsync validate --config configs', 'monsync validate --json > diagnostics.json'],
  async run({ io, global, values }) {
    const dir = resolveConfigDir(io.cwd, global.config);
    const json = booleanOption(values, 'json');
    const loaded = await loadTree(dir, io, { needSecrets: false, quiet: json });
    if (json) {
      const result: ValidateResult = {
        formatVersion: OUTPUT_FORMAT_VERSION,
        valid: loaded.desired !== undefined,
        config: loaded.label,
        errors: loaded.errors,
        warnings: loaded.warnings,
        ...(loaded.desired !== undefined ? { declared: declaredCounts(loaded.desired) } : {}),
        // The flag a formatter reads is not part of the output: every message already names positions, never a value.
        diagnostics: loaded.diagnostics.map(({ redactSource: _redact, ...diagnostic }) => diagnostic),
      };
      io.stdout.write(jsonDocument(result));
      return loaded.desired === undefined ? ExitCode.Error : ExitCode.Ok;
    }
    if (loaded.desired === undefined) return ExitCode.Error;
    io.stdout.write(`${loaded.label}: valid (${countDeclared(loaded.desired)})${loaded.warnings > 0 ? `, ${loaded.warnings} warning${loaded.warnings === 1 ? '' : 's'}` : ''}\n`);
    return ExitCode.Ok;
  },
};
