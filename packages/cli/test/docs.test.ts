/**
 * The READMEs and `--help` name only what the CLI has: every `monsync <command> --flag` they show is in the command
 * table (src/commands/index.ts) with that option; every flag a help text mentions is some command's; the exit codes
 * read as src/exit-codes.ts says; the files `pull` writes, the kinds `--target` takes and the workflows `init`
 * writes are listed and counted as the code has them. The lists come from the code, so a new command, flag, kind or
 * file fails here until the documentation names it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EMULATOR_USAGE } from '@monsync/emulator';
import { beforeAll, describe, expect, it } from 'vitest';
import { GLOBAL_OPTIONS, type OptionSpecs } from '../src/args.js';
import type { CommandSpec } from '../src/command.js';
import { COMMANDS } from '../src/commands/index.js';
import { EXIT_CODE_MEANINGS } from '../src/exit-codes.js';
import { commandHelp, globalHelp } from '../src/help.js';
import { TARGET_KINDS } from '../src/targets.js';
import { workflowTemplates } from '../src/workflow-templates.js';
import { monsync, REPO_ROOT, tempTree, useEmulator } from './helpers.js';

const READMES = ['README.md', ...readdirSync(join(REPO_ROOT, 'packages')).map((name) => join('packages', name, 'README.md'))].filter((path) => {
  try {
    readFileSync(join(REPO_ROOT, path));
    return true;
  } catch {
    return false;
  }
});
const readme = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');

/** The emulator's own flags (`monsync emulator` passes them through), from the usage it prints. */
const EMULATOR_FLAGS = new Set([...EMULATOR_USAGE.matchAll(/^ {2}(--[a-z][a-z-]*)/gm)].map((match) => match[1] ?? ''));

let specs: CommandSpec[] = [];
beforeAll(async () => {
  specs = await Promise.all(COMMANDS.map((entry) => entry.load()));
});

function flagsOf(options: OptionSpecs): string[] {
  return Object.entries(options).flatMap(([name, spec]) => [`--${name}`, ...(spec.short === undefined ? [] : [`-${spec.short}`])]);
}

/** The flags `monsync <command>` takes: its own, the global ones, and the emulator's for `emulator`. */
function flagsOfCommand(spec: CommandSpec): Set<string> {
  return new Set([...flagsOf(spec.options), ...flagsOf(GLOBAL_OPTIONS), ...(spec.passThrough === true ? EMULATOR_FLAGS : [])]);
}

/** Code a document shows to be run: inline code spans and the lines of code blocks, except ```text (output). */
function codeOf(markdown: string): string[] {
  const code: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const opening = /^\s*```(\w*)/.exec(line);
    if (opening !== null) {
      fence = fence === undefined ? (opening[1] ?? '') : undefined;
      continue;
    }
    if (fence !== undefined) {
      if (fence !== 'text') code.push(line);
      continue;
    }
    for (const span of line.matchAll(/`([^`]+)`/g)) code.push(span[1] ?? '');
  }
  return code;
}

interface Invocation {
  text: string;
  command: string | undefined;
  flags: string[];
}

/**
 * Each `monsync [global flags] <command> [args]` in a piece of code, up to the end of the shell command (a pipe,
 * a redirection, a comment, `;`, `&&`, a closing quote or bracket).
 */
function invocations(code: string): Invocation[] {
  const found: Invocation[] = [];
  for (const match of code.matchAll(/(?:^|[\s"'(=])monsync((?: +[^\s|;&>#"')`]+)+)/g)) {
    // Punctuation ends the command (`... with monsync apply --dedupe.`, `monsync apply: apply a plan ...`).
    const raw = (match[1] ?? '').trim().split(/ +/);
    const end = raw.findIndex((word) => /[.,:;]$/.test(word));
    const words = (end < 0 ? raw : raw.slice(0, end + 1)).map((word) => word.replace(/[.,:;]+$/, ''));
    const command = words.find((word) => !word.startsWith('-') && /^[a-z]/.test(word));
    found.push({ text: `monsync${match[1] ?? ''}`, command, flags: words.filter((word) => /^--?[a-z]/.test(word)).map((word) => word.replace(/=.*$/, '')) });
  }
  return found;
}

/** What is wrong with one `monsync ...` as shown: an unknown command, or a flag the command does not take. */
function problemsOf(invocation: Invocation): string[] {
  const spec = specs.find((candidate) => candidate.name === invocation.command);
  if (spec === undefined) {
    // `monsync --help`, `monsync --version`: global flags alone.
    const unknown = invocation.flags.filter((flag) => !flagsOf(GLOBAL_OPTIONS).includes(flag));
    if (invocation.command === undefined && unknown.length === 0) return [];
    return [`${invocation.text}: ${invocation.command === undefined ? `unknown flag ${unknown.join(', ')}` : `no command '${invocation.command}'`}`];
  }
  const known = flagsOfCommand(spec);
  return invocation.flags.filter((flag) => !known.has(flag)).map((flag) => `${invocation.text}: monsync ${spec.name} has no ${flag}`);
}

describe('the documentation names only what the CLI has', () => {
  it('reads every README and finds the commands they show', () => {
    expect(READMES).toEqual(expect.arrayContaining(['README.md', join('packages', 'cli', 'README.md'), join('packages', 'emulator', 'README.md')]));
    const shown = new Set(READMES.flatMap((path) => codeOf(readme(path)).flatMap(invocations)).map((invocation) => invocation.command));
    for (const entry of COMMANDS) expect(shown, `no README shows monsync ${entry.name}`).toContain(entry.name);
  });

  it.each(READMES)('%s: every monsync command shown exists, with every flag shown', (path) => {
    const problems = codeOf(readme(path)).flatMap(invocations).flatMap(problemsOf);
    expect(problems).toEqual([]);
  });

  it('finds a flag the command does not have (the check can fail)', () => {
    expect(invocations('monsync plan --fromat json > plan.md').flatMap(problemsOf)).toEqual(['monsync plan --fromat json: monsync plan has no --fromat']);
    expect(invocations('npx monsync migrate examples/legacy --check').flatMap(problemsOf)).toEqual([]);
    expect(invocations('monsync deploy --config configs').flatMap(problemsOf)).toEqual(["monsync deploy --config configs: no command 'deploy'"]);
    expect(invocations('monsync emulator --seed demo --port 0').flatMap(problemsOf)).toEqual([]);
  });

  it('--help of every command names only commands and flags that exist', () => {
    const allFlags = new Set([...specs.flatMap((spec) => [...flagsOfCommand(spec)])]);
    const helps = [['monsync --help', globalHelp(COMMANDS, '1.2.3')] as const, ...specs.map((spec) => [`monsync ${spec.name} --help`, commandHelp(spec)] as const)];
    for (const [title, help] of helps) {
      // Its usage and example lines, and `monsync <command> ...` where the prose names one.
      const shown = invocations(help).filter((invocation) => invocation.command === undefined || specs.some((spec) => spec.name === invocation.command) || /^ {2}monsync /m.test(invocation.text));
      expect(shown.flatMap(problemsOf), title).toEqual([]);
      const examples = help.split('\n').filter((line) => /^ {2}monsync /.test(line));
      expect(examples.flatMap(invocations).flatMap(problemsOf), `${title}: examples`).toEqual([]);
      // A flag named in passing ("make it with plan --out") must be some command's.
      const named = [...help.matchAll(/(?:^|[\s(`'"[,])(--?[a-z][a-z-]*)/g)].map((match) => match[1] ?? '');
      expect(named.filter((flag) => !allFlags.has(flag)), title).toEqual([]);
    }
  });

  it('the CLI README\'s command table lists every command, and only those', () => {
    const rows = [...readme('packages/cli/README.md').matchAll(/^\| `monsync ([a-z]+)[^`]*` \|/gm)].map((match) => match[1]);
    expect([...new Set(rows)].sort()).toEqual(COMMANDS.map((entry) => entry.name).sort());
  });

  it('describes the exit codes in the one wording monsync --help uses', () => {
    for (const path of ['README.md', 'packages/cli/README.md']) {
      const text = readme(path).replace(/`/g, '');
      for (const [code, meaning] of Object.entries(EXIT_CODE_MEANINGS)) {
        expect(text, `${path}, exit ${code}`).toMatch(new RegExp(`(^- ${code}: |^\\| ${code} \\| )${meaning.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\|)?$`, 'm'));
      }
      // No other description of an exit code beside the list (as "3 plan unsafe or stale" was).
      expect(text.match(/^(- \d: |\| \d \| )/gm) ?? [], path).toHaveLength(Object.keys(EXIT_CODE_MEANINGS).length);
    }
  });

  it('lists every kind --target takes, and no other', () => {
    const text = readme('packages/cli/README.md');
    const bullet = /^- `--target kind:key`[\s\S]*?(?=\n- |\n\n)/m.exec(text)?.[0] ?? '';
    expect(bullet).not.toBe('');
    const named = [...bullet.matchAll(/`([a-z][A-Za-z]*)`/g)].map((match) => match[1] ?? '');
    expect([...new Set(named)].sort()).toEqual([...TARGET_KINDS].sort());
  });

  it('counts the workflows init writes as it writes them', () => {
    const words = ['one', 'two', 'three', 'four', 'five', 'six'];
    const count = Object.keys(workflowTemplates()).length;
    for (const path of READMES) {
      for (const match of readme(path).matchAll(/\bthe (one|two|three|four|five|six) (?:GitHub |example )?workflows\b/g)) {
        expect(words.indexOf(match[1] ?? '') + 1, `${path}: "${match[0]}"`).toBe(count);
      }
    }
  });
});

describe('the files monsync pull writes, as the CLI README lists them', () => {
  const suite = useEmulator({ seed: 'demo', operator: 'admin@example.com' });

  it('names every file pull writes from an account with every kind, and counts them', async () => {
    const root = tempTree({});
    const pulled = await monsync(['pull', '--out', 'tree'], { cwd: root, env: suite.env });
    expect(pulled.code).toBe(0);
    const written = readdirSync(join(root, 'tree')).filter((name) => name.endsWith('.yaml')).sort();
    const section = /^### pull\n[\s\S]*?(?=\n#)/m.exec(readme('packages/cli/README.md'))?.[0] ?? '';
    const paragraph = section.split('\n\n').find((text) => text.startsWith('Writes the live account')) ?? '';
    const listed = [...paragraph.matchAll(/`([a-z-]+\.yaml)`/g)].map((match) => match[1] ?? '').sort();
    expect(listed).toEqual(written);
    expect(paragraph).toContain(`(${written.length} files in all)`);
  });
});
