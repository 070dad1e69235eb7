import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const REPO_ROOT = resolve(PACKAGE_DIR, '..', '..');
const LOCAL_ACTION_BIN = join(PACKAGE_DIR, 'node_modules', '@github', 'local-action', 'bin', 'local-action.js');
// local-action's launcher runs `npm exec tsx ...` from the action's folder: tsx must be installed there.
const TSX_BIN = join(PACKAGE_DIR, 'node_modules', '.bin', 'tsx');
const ENTRYPOINT = 'test/e2e-fixtures/run-bundle.mjs';

export interface ActionRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** What the action wrote with core.setOutput (the GITHUB_OUTPUT file). */
  outputs: Record<string, string>;
  /** The job summary (the GITHUB_STEP_SUMMARY file). */
  summary: string;
  /** The environment file local-action was given. */
  envFile: string;
}

/** Reads a GITHUB_OUTPUT file: `name=value` lines and `name<<DELIMITER ... DELIMITER` blocks. */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    const block = /^([^=<]+)<<(.+)$/.exec(line);
    if (block !== null) {
      const [, name = '', delimiter = ''] = block;
      const value: string[] = [];
      for (i += 1; i < lines.length && lines[i] !== delimiter; i += 1) value.push(lines[i] ?? '');
      outputs[name] = value.join('\n');
    } else if (line.includes('=')) {
      outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
  }
  return outputs;
}

/**
 * The INPUT_* variables a runner sets for a step: the step's `with:` values, and each other input's default from
 * action.yml (`${{ github.token }}` becomes the given token). Names keep their dashes: INPUT_API-URL.
 */
export function runnerInputs(withInputs: Record<string, string>, githubToken: string): Record<string, string> {
  const action = parse(readFileSync(join(PACKAGE_DIR, 'action.yml'), 'utf8')) as { inputs: Record<string, { default?: string }> };
  const env: Record<string, string> = {};
  for (const [name, input] of Object.entries(action.inputs)) {
    const value = withInputs[name] ?? (input.default === '${{ github.token }}' ? githubToken : input.default);
    if (value !== undefined) env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
  }
  for (const name of Object.keys(withInputs)) if (!(name in action.inputs)) throw new Error(`input ${name} is not declared in action.yml`);
  return env;
}

function envFileText(env: Record<string, string>): string {
  return Object.entries(env)
    .map(([key, value]) => {
      if (/["\n\r\\$`]/.test(value)) throw new Error(`env file value of ${key} needs quoting this harness does not do`);
      return `${key}="${value}"\n`;
    })
    .join('');
}

/**
 * Runs the committed bundle the way `local-action run <action dir> <entrypoint> <env file>` does, as a child
 * process: the env file carries the inputs, the runner variables and the step's env, as a runner would set them.
 * The child's own environment is kept minimal, so nothing of this machine's GITHUB_* or MONSYNC_* leaks in, and npm
 * runs offline (local-action starts through `npm exec tsx`, which must find the installed tsx, never download one).
 */
export async function runBundledAction(stepEnv: Record<string, string>, options: { runnerTemp?: string } = {}): Promise<ActionRun> {
  if (!existsSync(LOCAL_ACTION_BIN)) throw new Error(`@github/local-action is not installed (${LOCAL_ACTION_BIN}); run npx pnpm@10 install`);
  if (!existsSync(TSX_BIN)) throw new Error(`tsx is not installed in packages/action (${TSX_BIN}); local-action would try to download it. Run npx pnpm@10 install`);
  const runnerTemp = options.runnerTemp ?? mkdtempSync(join(tmpdir(), 'monsync-action-e2e-runner-'));
  const runDir = mkdtempSync(join(runnerTemp, 'step-'));
  mkdirSync(runDir, { recursive: true });
  const outputFile = join(runDir, 'output.txt');
  const summaryFile = join(runDir, 'summary.md');
  for (const file of [outputFile, summaryFile, join(runDir, 'env.txt'), join(runDir, 'state.txt')]) writeFileSync(file, '');
  const envFile = join(runDir, 'step.env');
  writeFileSync(
    envFile,
    envFileText({
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_ENV: join(runDir, 'env.txt'),
      GITHUB_STATE: join(runDir, 'state.txt'),
      RUNNER_TEMP: runnerTemp,
      ...stepEnv,
    }),
  );
  const childEnv: Record<string, string> = {
    PATH: process.env['PATH'] ?? '',
    HOME: process.env['HOME'] ?? runnerTemp,
    TMPDIR: process.env['TMPDIR'] ?? tmpdir(),
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
  };
  return new Promise<ActionRun>((resolvePromise, reject) => {
    const child = spawn(process.execPath, [LOCAL_ACTION_BIN, 'run', PACKAGE_DIR, ENTRYPOINT, envFile], { cwd: PACKAGE_DIR, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      resolvePromise({
        code,
        stdout,
        stderr,
        outputs: parseOutputFile(readFileSync(outputFile, 'utf8')),
        summary: readFileSync(summaryFile, 'utf8'),
        envFile,
      });
    });
  });
}
