/**
 * Shell completion scripts, generated from the command table and each command's options (the same specs `--help`
 * prints), so a new command or flag completes without anyone editing a script. Pure: specs in, script text out.
 */
import { GLOBAL_OPTIONS, type OptionSpec, type OptionSpecs } from './args.js';
import type { CommandSpec } from './command.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** What an option's value or a positional completes to: a path, a folder, one of some words, or anything. */
type Values = { files: 'file' | 'dir' } | { words: readonly string[] } | { free: true };

interface Flag {
  name: string;
  short: string | undefined;
  about: string;
  /** Undefined for a flag that takes no value. */
  values: Values | undefined;
  multiple: boolean;
}

interface Completed {
  name: string;
  about: string;
  flags: Flag[];
  positional: Values | undefined;
}

/** One short line of a description: its first clause, at most 70 characters, on a word boundary. */
function about(text: string): string {
  const clause = (text.split(/ \(|; /)[0] ?? text).trim();
  if (clause.length <= 70) return clause;
  const cut = clause.slice(0, 70);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 30 ? cut.lastIndexOf(' ') : 70)}...`;
}

function valuesOf(spec: OptionSpec): Values | undefined {
  if (spec.type === 'boolean') return undefined;
  if (spec.choices !== undefined) return { words: spec.choices };
  if (spec.value === 'DIR') return { files: 'dir' };
  if (spec.value === 'FILE') return { files: 'file' };
  return { free: true };
}

function flagsOf(specs: OptionSpecs): Flag[] {
  return Object.entries(specs).map(([name, spec]) => ({ name, short: spec.short, about: about(spec.description), values: valuesOf(spec), multiple: spec.multiple === true }));
}

function completedOf(spec: CommandSpec): Completed {
  const complete = spec.positionals?.complete;
  const positional: Values | undefined = complete === undefined ? undefined : complete === 'file' ? { files: 'file' } : { words: complete };
  return { name: spec.name, about: about(spec.summary), flags: spec.passThrough === true ? [] : flagsOf(spec.options), positional };
}

export function completionScript(shell: Shell, specs: readonly CommandSpec[]): string {
  const commands = specs.map(completedOf);
  const global = flagsOf(GLOBAL_OPTIONS);
  if (shell === 'bash') return bashScript(commands, global);
  if (shell === 'zsh') return zshScript(commands, global);
  return fishScript(commands, global);
}

/** Command and option names are ours (letters, digits, dashes); the words of choices too. Checked all the same. */
function word(text: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9:_.-]*$/.test(text)) throw new Error(`completion: '${text}' is not a plain word`);
  return text;
}

function bashValues(values: Values): string {
  if ('files' in values) return `compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen ${values.files === 'dir' ? '-d' : '-f'} -- "$cur")); return`;
  if ('words' in values) return `COMPREPLY=($(compgen -W "${values.words.map(word).join(' ')}" -- "$cur")); return`;
  return 'return';
}

function bashScript(commands: readonly Completed[], global: readonly Flag[]): string {
  const flagWords = (flags: readonly Flag[]) => flags.flatMap((flag) => [`--${word(flag.name)}`, ...(flag.short === undefined ? [] : [`-${word(flag.short)}`])]).join(' ');
  const valueCases: string[] = [];
  for (const flag of global) {
    if (flag.values === undefined) continue;
    const names = [`--${flag.name}`, ...(flag.short === undefined ? [] : [`-${flag.short}`])];
    valueCases.push(`    ${names.map((name) => `*:${name}`).join('|')}) ${bashValues(flag.values)} ;;`);
  }
  for (const command of commands) {
    for (const flag of command.flags) if (flag.values !== undefined) valueCases.push(`    ${word(command.name)}:--${word(flag.name)}) ${bashValues(flag.values)} ;;`);
  }
  const commandCases = commands.map((command) => {
    const positional = command.positional === undefined ? 'return' : bashValues(command.positional);
    return `    ${word(command.name)}) if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "${flagWords([...command.flags, ...global])}" -- "$cur")); else ${positional}; fi ;;`;
  });
  return [
    '# monsync completion for bash. Load it with: eval "$(monsync completion bash)"',
    '# or save it: monsync completion bash > ~/.local/share/bash-completion/completions/monsync',
    '_monsync() {',
    '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="" command="" i=1',
    '  [ "$COMP_CWORD" -gt 0 ] && prev="${COMP_WORDS[COMP_CWORD-1]}"',
    '  while [ "$i" -lt "$COMP_CWORD" ]; do',
    '    case "${COMP_WORDS[i]}" in',
    '      --config|-c) i=$((i + 2)); continue ;;',
    '      -*) ;;',
    '      *) command="${COMP_WORDS[i]}"; break ;;',
    '    esac',
    '    i=$((i + 1))',
    '  done',
    '  case "$command:$prev" in',
    ...valueCases,
    '  esac',
    '  case "$command" in',
    `    "") COMPREPLY=($(compgen -W "${commands.map((c) => word(c.name)).join(' ')} ${flagWords(global)}" -- "$cur")) ;;`,
    ...commandCases,
    '  esac',
    '}',
    'complete -F _monsync monsync',
    '',
  ].join('\n');
}

/** Inside single quotes in zsh: a quote ends and restarts the string; `[`, `]` and `:` delimit _arguments' parts. */
function zshText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/'/g, "'\\''").replace(/\[/g, '(').replace(/\]/g, ')').replace(/:/g, ' -');
}

function zshAction(values: Values): string {
  if ('files' in values) return values.files === 'dir' ? '_files -/' : '_files';
  if ('words' in values) return `(${values.words.map(word).join(' ')})`;
  return ' ';
}

function zshFlag(flag: Flag): string {
  const value = flag.values === undefined ? '' : `:${flag.name}:${zshAction(flag.values)}`;
  const repeat = flag.multiple ? '*' : '';
  if (flag.short === undefined) return `'${repeat}--${word(flag.name)}[${zshText(flag.about)}]${value}'`;
  return `'(-${word(flag.short)} --${word(flag.name)})'{-${flag.short},--${flag.name}}'[${zshText(flag.about)}]${value}'`;
}

function zshScript(commands: readonly Completed[], global: readonly Flag[]): string {
  const cases = commands.map((command) => {
    const positional = command.positional === undefined ? [] : [`'1:argument:${zshAction(command.positional)}'`];
    const specs = [...command.flags, ...global].map(zshFlag).concat(positional);
    return `        ${word(command.name)}) _arguments -s ${specs.join(' ')} ;;`;
  });
  return [
    '#compdef monsync',
    '# monsync completion for zsh. Load it with: eval "$(monsync completion zsh)" (after compinit)',
    '# or save it as _monsync in a folder of $fpath.',
    '_monsync() {',
    '  local curcontext="$curcontext" state line',
    '  local -a commands',
    `  commands=(${commands.map((command) => `'${word(command.name)}:${zshText(command.about)}'`).join(' ')})`,
    `  _arguments -C ${global.map(zshFlag).join(' ')} '1: :->command' '*:: :->args'`,
    '  case $state in',
    "    command) _describe -t commands 'monsync command' commands ;;",
    '    args)',
    '      case $words[1] in',
    ...cases,
    '      esac ;;',
    '  esac',
    '}',
    'if [ "$funcstack[1]" = "_monsync" ]; then _monsync "$@"; else compdef _monsync monsync; fi',
    '',
  ].join('\n');
}

/** Inside single quotes in fish, only `\` and `'` need escaping. */
function fishText(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function fishFlag(condition: string, flag: Flag): string {
  const parts = ['complete -c monsync', condition, `-l ${word(flag.name)}`];
  if (flag.short !== undefined) parts.push(`-s ${word(flag.short)}`);
  if (flag.values !== undefined) {
    if ('files' in flag.values) parts.push(flag.values.files === 'dir' ? "-x -a '(__fish_complete_directories)'" : '-r -F');
    else if ('words' in flag.values) parts.push(`-x -a ${fishText(flag.values.words.map(word).join(' '))}`);
    else parts.push('-x');
  }
  parts.push(`-d ${fishText(flag.about)}`);
  return parts.filter((part) => part !== '').join(' ');
}

function fishScript(commands: readonly Completed[], global: readonly Flag[]): string {
  const names = commands.map((command) => word(command.name)).join(' ');
  const lines = [
    '# monsync completion for fish. Load it with: monsync completion fish | source',
    '# or save it: monsync completion fish > ~/.config/fish/completions/monsync.fish',
    'complete -c monsync -f',
    ...commands.map((command) => `complete -c monsync -n ${fishText(`not __fish_seen_subcommand_from ${names}`)} -a ${word(command.name)} -d ${fishText(command.about)}`),
    ...global.map((flag) => fishFlag('', flag)),
  ];
  for (const command of commands) {
    const condition = `-n ${fishText(`__fish_seen_subcommand_from ${command.name}`)}`;
    lines.push(...command.flags.map((flag) => fishFlag(condition, flag)));
    const positional = command.positional;
    if (positional !== undefined) lines.push('files' in positional ? `complete -c monsync ${condition} -F` : 'words' in positional ? `complete -c monsync ${condition} -a ${fishText(positional.words.map(word).join(' '))}` : '');
  }
  return `${lines.filter((line) => line !== '').join('\n')}\n`;
}
