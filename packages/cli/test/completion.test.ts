import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GLOBAL_OPTIONS } from '../src/args.js';
import { COMMANDS } from '../src/commands/index.js';
import { ExitCode } from '../src/exit-codes.js';
import { monsync, tempTree } from './helpers.js';

const specs = await Promise.all(COMMANDS.map((entry) => entry.load()));

async function script(shell: string): Promise<string> {
  const { code, out, err } = await monsync(['completion', shell]);
  expect(err).toBe('');
  expect(code).toBe(ExitCode.Ok);
  return out;
}

/** What bash's completion offers for a command line whose last word is being typed, run in `cwd`. */
function bashCompletes(bash: string, cwd: string, words: string[]): string[] {
  const file = join(cwd, '.monsync-completion.bash');
  writeFileSync(file, bash);
  const quoted = words.map((w) => `'${w.replace(/'/g, "'\\''")}'`).join(' ');
  const out = execFileSync('bash', ['-c', `source ${file}; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _monsync; printf '%s\\n' "\${COMPREPLY[@]}"`], { cwd, encoding: 'utf8' });
  return out.split('\n').filter((line) => line !== '');
}

describe('monsync completion', () => {
  it('completes commands, options, option values and files in bash', async () => {
    const bash = await script('bash');
    const cwd = tempTree({ 'plan.json': '{}', 'configs/monsync.yaml': '' });
    expect(bashCompletes(bash, cwd, ['monsync', 'pl'])).toEqual(['plan']);
    expect(bashCompletes(bash, cwd, ['monsync', '--config', 'configs', 'ap'])).toEqual(['apply']);
    expect(bashCompletes(bash, cwd, ['monsync', 'plan', '--f'])).toEqual(['--format']);
    expect(bashCompletes(bash, cwd, ['monsync', 'plan', '--format', ''])).toEqual(['text', 'markdown', 'json']);
    expect(bashCompletes(bash, cwd, ['monsync', 'apply', 'pl'])).toEqual(['plan.json']);
    expect(bashCompletes(bash, cwd, ['monsync', '--config', 'con'])).toEqual(['configs']);
    expect(bashCompletes(bash, cwd, ['monsync', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    expect(bashCompletes(bash, cwd, ['monsync', 'plan', '--no-c'])).toEqual(['--no-color']);
  });

  it('offers every command, and every option of each command, as --help lists them (bash)', async () => {
    const bash = await script('bash');
    const cwd = tempTree({});
    expect(bashCompletes(bash, cwd, ['monsync', '']).filter((w) => !w.startsWith('-'))).toEqual(COMMANDS.map((c) => c.name));
    for (const spec of specs) {
      if (spec.passThrough === true) continue;
      const offered = bashCompletes(bash, cwd, ['monsync', spec.name, '--']);
      expect(offered, spec.name).toEqual([...Object.keys(spec.options), ...Object.keys(GLOBAL_OPTIONS)].map((name) => `--${name}`));
    }
  });

  it('names every command and option in the zsh and fish scripts, with the values they take', async () => {
    const zsh = await script('zsh');
    const fish = await script('fish');
    expect(zsh.startsWith('#compdef monsync\n')).toBe(true);
    expect(zsh).toContain("'--format[output on stdout - text]:format:(text markdown json)'");
    expect(fish).toContain("complete -c monsync -n '__fish_seen_subcommand_from plan' -l format -x -a 'text markdown json'");
    expect(fish).toContain("complete -c monsync -n '__fish_seen_subcommand_from apply' -F");
    for (const spec of specs) {
      expect(zsh, spec.name).toContain(`'${spec.name}:`);
      expect(fish, spec.name).toMatch(new RegExp(`-a ${spec.name} -d '`));
      if (spec.passThrough === true) continue;
      for (const name of Object.keys(spec.options)) {
        expect(zsh, `${spec.name} --${name}`).toMatch(new RegExp(`\\n {8}${spec.name}\\) _arguments [^\\n]*--${name}\\[`));
        expect(fish, `${spec.name} --${name}`).toContain(`-n '__fish_seen_subcommand_from ${spec.name}' -l ${name} `);
      }
    }
    // Quotes in a description cannot end the script's quoting.
    for (const line of fish.split('\n').filter((l) => l.startsWith('complete'))) expect(line.replace(/\\'/g, '').split("'").length % 2, line).toBe(1);
  });

  it('refuses a shell it does not know, naming the ones it does', async () => {
    const { code, err } = await monsync(['completion', 'powershell']);
    expect(code).toBe(ExitCode.Error);
    expect(err).toContain("completion: 'powershell' is not one of bash, zsh, fish");
  });
});
