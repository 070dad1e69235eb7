import type { CommandSpec } from '../command.js';
import { resolveConfigDir } from '../config-dir.js';
import { ExitCode } from '../exit-codes.js';
import { loadTree, countDeclared } from '../load.js';

export const validateCommand: CommandSpec = {
  name: 'validate',
  summary: 'check the config tree (schema, references, secrets by reference only) without calling the API',
  usage: 'validate [--config DIR]',
  description:
    'Reads monsync.yaml and every *.yaml below it and reports every problem as file:line:col with a caret\n' +
    'snippet. Makes no API request and needs no credentials. Exit 0 when the tree is valid (warnings allowed), 1 otherwise.',
  options: {},
  examples: ['monsync validate --config configs'],
  async run({ io, global }) {
    const dir = resolveConfigDir(io.cwd, global.config);
    const loaded = await loadTree(dir, io, { needSecrets: false });
    if (loaded.desired === undefined) return ExitCode.Error;
    io.stdout.write(`${loaded.label}: valid (${countDeclared(loaded.desired)})${loaded.warnings > 0 ? `, ${loaded.warnings} warning${loaded.warnings === 1 ? '' : 's'}` : ''}\n`);
    return ExitCode.Ok;
  },
};
