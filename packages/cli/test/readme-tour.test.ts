import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PromptingIo } from '../src/commands/apply.js';
import { bufferedIo } from '../src/io.js';
import { run } from '../src/main.js';
import { monsync, REPO_ROOT, tempTree, useEmulator } from './helpers.js';

/** The shell block of the root README's "Your own emulator" step, one command a line (continuations joined). */
function tourLines(): string[] {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const block = /\*\*Your own emulator\.\*\*[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  if (block === undefined) throw new Error('README.md: the "Your own emulator" step has no ```sh block');
  return block
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

const suite = useEmulator({ seed: 'demo' });

describe('the README tour, run as written against a fresh demo emulator', () => {
  it('validates, plans, applies the saved plan, re-plans to exit 0 and pulls, each with the exit code it says', async () => {
    const lines = tourLines();
    const scratch = mkdtempSync(join(tmpdir(), 'monsync-tour-'));
    const port = new URL(suite.emulator.url).port;
    // The export lines run in a real shell, so `$(printf pfx | base64)` means what it means to a reader.
    const exports = lines.filter((line) => line.startsWith('export ')).map((line) => line.replaceAll('<port>', port));
    expect(exports.length).toBeGreaterThan(0);
    const shell = execFileSync('bash', ['--norc', '--noprofile', '-c', `${exports.join('\n')}\nenv -0`], { env: { PATH: process.env['PATH'] ?? '' }, encoding: 'utf8' });
    const env = Object.fromEntries(
      shell
        .split('\0')
        .filter((entry) => entry.includes('='))
        .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
    );

    const commands = lines.filter((line) => !line.startsWith('export '));
    expect(commands.every((line) => line.startsWith('npx pnpm@10 -s monsync '))).toBe(true);
    const ran: string[] = [];
    for (const line of commands) {
      const [command = '', comment = ''] = line.split(/\s+#\s*/, 2);
      const expected = Number(/\bexit (\d)\b/.exec(comment)?.[1] ?? '0');
      const redirect = /\s>\s*(\S+)$/.exec(command);
      const words = (redirect === null ? command : command.slice(0, redirect.index)).replace(/^npx pnpm@10 -s monsync\s+/, '').split(/\s+/);
      const argv = words.map((word) => word.replace(/^\/tmp\//, `${scratch}/`));
      // pnpm runs the script in the repository root; a reader at a terminal answers apply's question with yes.
      const io: PromptingIo & ReturnType<typeof bufferedIo> = Object.assign(bufferedIo({ env, cwd: REPO_ROOT, isTTY: true }), { prompt: async () => 'yes' });
      const code = await run(argv, io);
      expect({ line, code, err: code === expected ? '' : io.err() }).toEqual({ line, code: expected, err: '' });
      if (redirect?.[1] !== undefined) writeFileSync(redirect[1].replace(/^\/tmp\//, `${scratch}/`), io.out());
      ran.push(argv[0] ?? '');
    }
    expect(ran).toEqual(['validate', 'plan', 'apply', 'plan', 'pull']);
    expect(readFileSync(join(scratch, 'plan.md'), 'utf8')).toMatch(/^<!-- monsync:plan -->\n/);
    expect(existsSync(join(scratch, 'live-tree', 'monsync.yaml'))).toBe(true);
  });
});

/** The ```yaml blocks of the root README's guardrails section, by the file their first line names (blocks of one file joined). */
function guardrailFiles(): Record<string, string> {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = /\n## Guardrails[^\n]*\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
  const files: Record<string, string> = {};
  for (const match of section.matchAll(/```yaml\n# ([\w/.-]+\.yaml)[^\n]*\n([\s\S]*?)```/g)) files[match[1] ?? ''] = `${files[match[1] ?? ''] ?? ''}${match[2] ?? ''}`;
  return files;
}

describe("the README's guardrails example", () => {
  it('validates as written (the safety defaults, its waiver used), and without the waiver the rule it excuses is a warning at its position', async () => {
    const files = guardrailFiles();
    expect(Object.keys(files).sort()).toEqual(['monitors/blog.yaml', 'monsync.yaml']);
    const settings = `apiVersion: monsync/v1\nmanage:\n  monitors: { prune: false }\n${files['monsync.yaml'] ?? ''}`;
    const tree = tempTree({ 'monsync.yaml': settings, 'monitors/blog.yaml': files['monitors/blog.yaml'] ?? '' });
    const valid = await monsync(['validate', '--config', tree]);
    expect({ code: valid.code, err: valid.err.split('\n').filter((line) => /\b(error|warning) [A-Z_]+:/.test(line)) }).toEqual({ code: 0, err: [] });

    const blog = (files['monitors/blog.yaml'] ?? '').replace(/ {4}policyWaivers:[^\n]*\n[^\n]*\n/, '');
    const unwaived = tempTree({ 'monsync.yaml': settings, 'monitors/blog.yaml': blog });
    const warned = await monsync(['validate', '--config', unwaived]);
    expect(warned.code).toBe(0);
    expect(warned.err).toMatch(/monitors\/blog\.yaml:\d+:\d+: warning POLICY_WARNING: checkInterval: monitor `Blog` checks every 30 minutes/);
  });
});
