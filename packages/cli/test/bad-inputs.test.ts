/**
 * The bad-input corpus: every folder under test/bad-inputs/ is a config tree (`tree/`) that monsync must refuse,
 * and an `expected.yaml` written by hand saying with which code and at which `file:line:col`. Each tree is run
 * through `validate`, `plan` and `apply` in-process against one emulator: every run must exit 1 naming the code
 * and the position, none may crash, and the emulator's request log must hold no write. A new case is one folder.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ExitCode } from '../src/exit-codes.js';
import { monsync, useEmulator } from './helpers.js';

const CORPUS = join(import.meta.dirname, 'bad-inputs');
/** The C0 controls but line feed and tab, and DEL, in a text: what a terminal would act on. */
function controlsIn(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0)).filter((code) => (code < 0x20 && code !== 0x0a && code !== 0x09) || code === 0x7f);
}
const COMMANDS = ['validate', 'plan', 'apply'] as const;
type Command = (typeof COMMANDS)[number];

interface Expected {
  /** What is wrong, for people reading the corpus. */
  defect: string;
  code: string;
  /** `file:line:col`, the file relative to the tree. */
  at: string;
  /** The commands that must refuse it (default: all three); a command left out must not crash either. */
  refusedBy?: Command[];
  /** Environment the case runs with, besides the API credentials. */
  env?: Record<string, string>;
  /** Files that git cannot hold, made before the run: named pipes. */
  fifos?: string[];
  /** How many errors the loader reports, when one cause must give exactly that many. */
  errors?: number;
  /** Codes that must not be reported (what would follow from the one cause). */
  notReported?: string[];
  /**
   * Symbolic links made before the run (name -> target), for links no tool of the repository should meet: to a device,
   * out of the tree, or in a loop.
   */
  links?: Record<string, string>;
}

function readCase(name: string): Expected {
  const expected = parse(readFileSync(join(CORPUS, name, 'expected.yaml'), 'utf8')) as Expected;
  if (typeof expected.code !== 'string' || !/^[^:]+:\d+:\d+$/.test(String(expected.at)) || typeof expected.defect !== 'string') {
    throw new Error(`${name}/expected.yaml needs defect, code and at: file:line:col`);
  }
  return expected;
}

/** A copy of the case's tree (so pipes can be made and nothing is written in the repository). */
function treeOf(name: string, expected: Expected): string {
  const root = mkdtempSync(join(tmpdir(), `monsync-bad-${name}-`));
  cpSync(join(CORPUS, name, 'tree'), join(root, 'tree'), { recursive: true, verbatimSymlinks: true });
  for (const fifo of expected.fifos ?? []) execFileSync('mkfifo', [join(root, 'tree', fifo)]);
  for (const [link, target] of Object.entries(expected.links ?? {})) symlinkSync(target, join(root, 'tree', link));
  return root;
}

const cases = readdirSync(CORPUS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

const suite = useEmulator({ seed: 'demo', operator: 'admin@example.com' });

describe('the bad-input corpus', () => {
  it('holds at least 80 cases, each with a tree and a hand-written expected.yaml, no two trees alike', () => {
    expect(cases.length).toBeGreaterThanOrEqual(80);
    const trees = new Map<string, string>();
    for (const name of cases) {
      expect(existsSync(join(CORPUS, name, 'tree')), `${name}/tree`).toBe(true);
      const expected = readCase(name);
      const made = [...(expected.fifos ?? []).map((fifo) => `${fifo} (pipe)`), ...Object.entries(expected.links ?? {}).map(([link, target]) => `${link} -> ${target}`)];
      const entries = readdirSync(join(CORPUS, name, 'tree'), { recursive: true, withFileTypes: true });
      // A symbolic link is part of a tree as its target (`zero.yaml -> /dev/zero`), never followed here.
      const content = entries
        .flatMap((entry) => {
          const path = join(entry.parentPath, entry.name);
          if (entry.isSymbolicLink()) return [`${entry.name} -> ${readlinkSync(path)}`];
          return entry.isFile() ? [`${entry.name}\n${readFileSync(path, 'latin1')}`] : [];
        })
        .concat(made)
        .sort()
        .join('\n\0\n');
      const same = trees.get(content);
      expect(same, `${name} is a copy of ${same ?? ''}`).toBeUndefined();
      trees.set(content, name);
    }
  });

  describe.each(cases)('%s', (name) => {
    it('is refused with its code at its position by validate, plan and apply, with no write to the API', async () => {
      const expected = readCase(name);
      const root = treeOf(name, expected);
      const env = { ...suite.env, ...expected.env };
      for (const command of COMMANDS) {
        suite.emulator.control.clearLog();
        const argv = command === 'apply' ? ['apply', '--config', 'tree', '--auto-approve'] : [command, '--config', 'tree'];
        const { code, err, out } = await monsync(argv, { env, cwd: root });
        const said = `${out}\n${err}`;
        // A crash is an exit with a stack or an internal error, whatever the code.
        expect(said, `${command} crashed`).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n|internal error|Maximum call stack|\b(Type|Range|Reference|Syntax)Error\b/i);
        // A secret-looking value in the corpus is a canary: no message may quote it.
        expect(said, `${command} quoted a canary`).not.toContain('CANARY');
        // A control character of the tree (a NUL, an escape) is shown escaped, never written to the terminal.
        expect(controlsIn(said), `${command} wrote a control character`).toEqual([]);
        const writes = suite.emulator.control.requestLog().entries.filter((entry) => entry.method !== 'GET');
        expect(writes.map((entry) => `${entry.method} ${entry.path}`), `${command} wrote to the API`).toEqual([]);
        if (expected.refusedBy !== undefined && !expected.refusedBy.includes(command)) {
          expect([ExitCode.Ok, ExitCode.Error, ExitCode.UnsafeOrStale], `${command} exit`).toContain(code);
          continue;
        }
        expect(code, `${command} accepted it:\n${said}`).toBe(ExitCode.Error);
        // Loader diagnostics name the file as given (tree/...), plan problems relative to the tree.
        expect(err, `${command} named no ${expected.code} at ${expected.at}`).toMatch(new RegExp(`(^|\\s|tree/)${expected.at.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `, 'm'));
        expect(err, `${command} named no ${expected.code}`).toContain(expected.code);
        for (const other of expected.notReported ?? []) expect(err, `${command} reported ${other}`).not.toMatch(new RegExp(`: (error|warning) ${other}:`));
        if (expected.errors !== undefined) expect(err.match(/^\S+:\d+:\d+: error [A-Z_]+:/gm) ?? [], `${command} errors`).toHaveLength(expected.errors);
      }
    });
  });
});
