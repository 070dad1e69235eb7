import { parseArgs } from 'node:util';
import { UsageError } from './errors.js';

export interface OptionSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
  /** Placeholder shown in help, e.g. `DIR`. */
  value?: string;
  /** Allowed values of a string option. */
  choices?: readonly string[];
  description: string;
}

export type OptionSpecs = Record<string, OptionSpec>;
export type OptionValue = string | boolean | string[];
export type ParsedValues = Record<string, OptionValue | undefined>;

export interface ParsedArgs {
  values: ParsedValues;
  positionals: string[];
}

/** Options every command accepts, before or after the command name. */
export const GLOBAL_OPTIONS = {
  config: { type: 'string', short: 'c', value: 'DIR', description: 'config folder (default: the nearest folder upwards holding monsync.yaml, or ./configs)' },
  verbose: { type: 'boolean', description: 'log every API request and response (method, path, status, time; no bodies, no credentials) to stderr' },
  help: { type: 'boolean', short: 'h', description: 'show help for the command' },
  'no-color': { type: 'boolean', description: 'no colour in the output, even on a terminal (as NO_COLOR=1 does)' },
  version: { type: 'boolean', description: 'print the monsync version' },
} as const satisfies OptionSpecs;

/** `--json`, on every command that prints a result; `schema` names its JSON Schema in `@monsync/schema`. */
export function jsonOption(schema: string): OptionSpec {
  return { type: 'boolean', description: `print the result as one JSON document on stdout (schemas/${schema}.schema.json in @monsync/schema)` };
}

/** pnpm forwards a literal `--` in front of the script's arguments (`pnpm monsync -- plan`); it carries no meaning. */
export function dropLeadingSeparator(argv: readonly string[]): string[] {
  return argv[0] === '--' ? argv.slice(1) : [...argv];
}

/**
 * Splits `[global options] <command> [rest]`. Only `--config`/`-c` takes a value among the global options,
 * so the command is the first token that is neither an option nor that option's value.
 */
export function splitCommand(argv: readonly string[]): { before: string[]; command: string | undefined; rest: string[] } {
  let i = 0;
  while (i < argv.length) {
    const token = argv[i] as string;
    if (token === '--config' || token === '-c') {
      i += 2;
      continue;
    }
    if (token.startsWith('-') && token !== '-') {
      i += 1;
      continue;
    }
    return { before: argv.slice(0, i), command: token, rest: argv.slice(i + 1) };
  }
  return { before: [...argv], command: undefined, rest: [] };
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(above + 1, (row[j - 1] as number) + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return row[b.length] as number;
}

/** The closest known name within two edits, for "did you mean" hints. */
export function closest(name: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * A long option written with one dash, as Terraform spells its flags (`-target=x`, `-out`): parseArgs would read
 * it as a group of short options (`-t -a -r ...`) and the hint would name whichever long option is closest to `t`.
 * Said here in the user's own terms, with the two-dash form to write instead. A short option with its value
 * attached (`-cconfigs`) is left alone, unless the word is a long option's name (`-config=x`).
 */
function singleDashLong(args: readonly string[], specs: OptionSpecs, where: string, command: string): void {
  const shortsWithValue = new Set(Object.values(specs).flatMap((spec) => (spec.type === 'string' && spec.short !== undefined ? [spec.short] : [])));
  for (const arg of args) {
    if (arg === '--') return;
    if (!/^-[A-Za-z][A-Za-z0-9-]/.test(arg)) continue;
    const equals = arg.indexOf('=');
    const name = equals < 0 ? arg.slice(1) : arg.slice(1, equals);
    const value = equals < 0 ? '' : arg.slice(equals);
    const known = specs[name] !== undefined ? name : undefined;
    if (known === undefined && shortsWithValue.has(name[0] ?? '')) continue;
    const suggestion = known ?? closest(name, Object.keys(specs));
    const hint = suggestion !== undefined ? ` (long options take two dashes: did you mean --${suggestion}${value}?)` : ' (long options take two dashes)';
    throw new UsageError(`unknown option ${arg} for '${where}'${hint}`, command);
  }
}

/**
 * Strict parsing with messages that say what to do. `parseArgs` runs non-strict so that every problem is
 * reported here in one voice (unknown option with a suggestion, missing value, value not among the choices).
 */
export function parseCommandArgs(args: readonly string[], specs: OptionSpecs, command: string): ParsedArgs {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {};
  for (const [name, spec] of Object.entries(specs)) {
    options[name] = { type: spec.type, ...(spec.multiple === true ? { multiple: true } : {}), ...(spec.short !== undefined ? { short: spec.short } : {}) };
  }
  const where = command === '' ? 'monsync' : `monsync ${command}`;
  singleDashLong(args, specs, where, command);
  const { tokens } = parseArgs({ args: [...args], options, allowPositionals: true, strict: false, tokens: true });
  const values: ParsedValues = {};
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') {
      positionals.push(token.value);
      continue;
    }
    if (token.kind === 'option-terminator') continue;
    const spec = specs[token.name];
    if (spec === undefined) {
      const suggestion = closest(token.name, Object.keys(specs));
      throw new UsageError(`unknown option ${token.rawName} for '${where}'${suggestion !== undefined ? ` (did you mean --${suggestion}?)` : ''}`, command);
    }
    if (spec.type === 'boolean') {
      if (token.inlineValue === true) throw new UsageError(`option --${token.name} takes no value (write --${token.name} alone)`, command);
      values[token.name] = true;
      continue;
    }
    const value = token.value;
    const placeholder = spec.value ?? 'VALUE';
    if (value === undefined || (token.inlineValue !== true && value.startsWith('-') && value.length > 1)) {
      throw new UsageError(`option --${token.name} needs a value: --${token.name} ${placeholder}`, command);
    }
    if (spec.choices !== undefined && !spec.choices.includes(value)) {
      throw new UsageError(`option --${token.name}: '${value}' is not one of ${spec.choices.join(', ')}`, command);
    }
    if (spec.multiple === true) {
      const previous = values[token.name];
      values[token.name] = Array.isArray(previous) ? [...previous, value] : [value];
    } else {
      if (values[token.name] !== undefined) throw new UsageError(`option --${token.name} given twice; give it once`, command);
      values[token.name] = value;
    }
  }
  return { values, positionals };
}

export function stringOption(values: ParsedValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

export function booleanOption(values: ParsedValues, name: string): boolean {
  return values[name] === true;
}

export function listOption(values: ParsedValues, name: string): string[] {
  const value = values[name];
  return Array.isArray(value) ? value : [];
}
