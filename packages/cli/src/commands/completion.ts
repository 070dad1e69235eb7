import type { CommandSpec } from '../command.js';
import { completionScript, SHELLS, type Shell } from '../completion-scripts.js';
import { UsageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { COMMANDS } from './index.js';

export const completionCommand: CommandSpec = {
  name: 'completion',
  summary: 'print the shell completion script for bash, zsh or fish (commands, options and their values)',
  usage: 'completion bash|zsh|fish',
  description:
    'Prints a script that completes monsync\'s commands, their options and the values those take (choices, files,\n' +
    'folders) in the given shell. Load it in the current shell, or save it where the shell looks for completions:\n' +
    '  bash: eval "$(monsync completion bash)", or monsync completion bash > ~/.local/share/bash-completion/completions/monsync\n' +
    '  zsh:  eval "$(monsync completion zsh)" after compinit, or save it as _monsync in a folder of $fpath\n' +
    '  fish: monsync completion fish | source, or monsync completion fish > ~/.config/fish/completions/monsync.fish\n' +
    'Generate it again after upgrading monsync: new commands and options come with the new version.',
  options: {},
  positionals: { min: 1, max: 1, names: 'SHELL (bash, zsh or fish)', complete: SHELLS },
  examples: ['monsync completion bash > ~/.local/share/bash-completion/completions/monsync', 'monsync completion fish | source'],
  async run({ io, positionals }) {
    const shell = positionals[0] ?? '';
    if (!(SHELLS as readonly string[]).includes(shell)) throw new UsageError(`completion: '${shell}' is not one of ${SHELLS.join(', ')}`, 'completion');
    // Every command's spec, so every option completes: loading them all costs nothing here (the script is made once).
    const specs = await Promise.all(COMMANDS.map((entry) => entry.load()));
    io.stdout.write(completionScript(shell as Shell, specs));
    return ExitCode.Ok;
  },
};
