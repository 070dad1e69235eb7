import { GLOBAL_OPTIONS, type OptionSpecs } from './args.js';
import type { CommandSpec } from './command.js';
import { EXIT_CODE_MEANINGS } from './exit-codes.js';

function optionLines(specs: OptionSpecs): string[] {
  const rows = Object.entries(specs).map(([name, spec]) => {
    const flag = `${spec.short !== undefined ? `-${spec.short}, ` : '    '}--${name}${spec.type === 'string' ? ` ${spec.value ?? 'VALUE'}` : ''}`;
    return [flag, `${spec.description}${spec.multiple === true ? ' (repeatable)' : ''}`] as const;
  });
  const width = Math.max(0, ...rows.map(([flag]) => flag.length));
  return rows.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`);
}

export function commandHelp(command: CommandSpec): string {
  const lines = [`monsync ${command.name}: ${command.summary}`, '', `Usage: monsync ${command.usage}`];
  if (command.description !== undefined) lines.push('', command.description);
  if (Object.keys(command.options).length > 0) lines.push('', 'Options:', ...optionLines(command.options));
  lines.push('', 'Global options:', ...optionLines(GLOBAL_OPTIONS));
  lines.push('', command.examples.length > 1 ? 'Examples:' : 'Example:', ...command.examples.map((example) => `  ${example}`));
  return `${lines.join('\n')}\n`;
}

export function globalHelp(commands: readonly { name: string; summary: string }[], version: string): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    `monsync ${version}: keep a Monitoring Service account in sync with YAML files in git.`,
    '',
    'Usage: monsync [--config DIR] [--verbose] <command> [options]',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    'Global options:',
    ...optionLines(GLOBAL_OPTIONS),
    '',
    'API credentials come from MONSYNC_API_URL, MONSYNC_API_USERNAME and MONSYNC_API_PASSWORD.',
    'Exit codes:',
    ...Object.entries(EXIT_CODE_MEANINGS).map(([code, meaning]) => `  ${code}  ${meaning}`),
    '',
    'Examples:',
    '  monsync validate',
    '  monsync plan --format markdown --out plan.json > plan.md',
    "Run 'monsync <command> --help' for a command's options and an example.",
    '',
  ].join('\n');
}
