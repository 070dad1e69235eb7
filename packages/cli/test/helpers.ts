import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { profileFromEnv, startEmulator, type EmulatorOptions, type ProfileName, type RunningEmulator, type SeedName } from '@monsync/emulator';
import type { Plan } from '@monsync/reconciler';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { bufferedIo, type BufferedIo } from '../src/io.js';
import { run } from '../src/main.js';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * The rows of a listing as the emulator's profile answers it (test code reading the wire, as the web app would): a
 * bare array, or one batch of a cursor-paged listing (`{ Data, Cursors }` under the strict profile; `Items` in the
 * spec's older shape). The demo account's listings fit in one batch.
 */
export function listedRows<T = Record<string, unknown>>(body: unknown): T[] {
  if (Array.isArray(body)) return body as T[];
  const batch = body as { Data?: unknown; Items?: unknown } | null;
  const rows = batch?.Data ?? batch?.Items;
  if (!Array.isArray(rows)) throw new Error(`not a listing: ${JSON.stringify(body).slice(0, 200)}`);
  return rows as T[];
}

/** A fresh folder holding the given files (paths relative to it). */
export function tempTree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'monsync-cli-test-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** An emulator for one test file (or describe block) and the environment that points `monsync` at it. */
export interface FileEmulator {
  readonly emulator: RunningEmulator;
  readonly env: Record<string, string>;
}

/** What `useEmulator` starts, and what it puts back before each test. */
export interface EmulatorUse {
  /** The state the emulator starts from, and the one `reset` returns to (default `empty`). */
  seed?: SeedName;
  /** Default: the profile under test (`MONSYNC_EMULATOR_PROFILE`). A file that needs one reading of the service names it. */
  profile?: ProfileName;
  /** Emulator options besides port, profile and seed: `retryAfterSeconds: 0` for no Retry-After waits, latency, a clock. */
  start?: Pick<EmulatorOptions, 'retryAfterSeconds' | 'latencyMs' | 'now'>;
  /** `MONSYNC_OPERATOR`, when the file's runs act as one operator. */
  operator?: string;
  /** Variables joining the API ones, e.g. the secrets (canaries) a tree references. */
  env?: Record<string, string>;
  /**
   * Before each test, in this order: no faults (one a failed test scripted stays otherwise), the seed state again, the
   * fingerprints an apply of configs/ would leave (see `stageFingerprints`), an empty request log.
   */
  eachTest?: { faultsOff?: boolean; reset?: boolean; stageFingerprints?: boolean; clearLog?: boolean };
}

/**
 * Starts an emulator before the tests of the enclosing file or describe block and closes it after them, with the
 * environment for `monsync` (API URL, the seeded administrator's credentials, `operator`, `env`); `eachTest` resets
 * what a test may have changed, before the hooks a file declares after the call (vitest runs them in that order).
 * Read `emulator` and `env` inside hooks and tests: they exist once `beforeAll` ran.
 */
export function useEmulator(use: EmulatorUse = {}): FileEmulator {
  const seed = use.seed ?? 'empty';
  let running: FileEmulator | undefined;
  const started = (): FileEmulator => {
    if (running === undefined) throw new Error('useEmulator: the emulator starts in beforeAll; read it inside a hook or a test');
    return running;
  };
  beforeAll(async () => {
    const emulator = await startEmulator({ ...use.start, port: 0, profile: use.profile ?? profileFromEnv(), seed });
    const operator = use.operator === undefined ? {} : { MONSYNC_OPERATOR: use.operator };
    running = { emulator, env: { MONSYNC_API_URL: emulator.url, MONSYNC_API_USERNAME: 'demo', MONSYNC_API_PASSWORD: 'demo-password', ...operator, ...use.env } };
  });
  afterAll(async () => {
    await running?.emulator.close();
  });
  const eachTest = use.eachTest ?? {};
  if (Object.values(eachTest).some(Boolean)) {
    beforeEach(async () => {
      const { emulator, env } = started();
      if (eachTest.faultsOff === true) emulator.control.setFaults({ rate: 0, scripted: [] });
      if (eachTest.reset === true) await emulator.control.reset(seed);
      if (eachTest.stageFingerprints === true) await stageFingerprints(emulator, env);
      if (eachTest.clearLog === true) emulator.control.clearLog();
    });
  }
  return {
    get emulator() {
      return started().emulator;
    },
    get env() {
      return started().env;
    },
  };
}

/** A copy of the demo tree `configs/`, so tests can change it. */
export function copyOfDemoConfigs(): string {
  const root = mkdtempSync(join(tmpdir(), 'monsync-cli-demo-'));
  cpSync(join(REPO_ROOT, 'configs'), join(root, 'configs'), { recursive: true });
  return root;
}

/** A copy of configs/ applied to the emulator: git and the account agree before a test plays the web app. */
export async function appliedCopyOfDemoConfigs(env: Record<string, string | undefined>): Promise<string> {
  const root = copyOfDemoConfigs();
  const applied = await monsync(['apply', '--config', 'configs', '--auto-approve', '--allow-unsafe'], { env, cwd: root });
  if (applied.code !== 0) throw new Error(`applying configs/ failed (${applied.code}): ${applied.err}`);
  return root;
}

export interface Outcome {
  code: number;
  out: string;
  err: string;
  io: BufferedIo;
}

export async function monsync(argv: string[], options: { cwd?: string; env?: Record<string, string | undefined>; isTTY?: boolean; signal?: AbortSignal } = {}): Promise<Outcome> {
  const io = bufferedIo({ cwd: options.cwd ?? REPO_ROOT, env: options.env ?? {}, isTTY: options.isTTY ?? false, ...(options.signal !== undefined ? { signal: options.signal } : {}) });
  const code = await run(argv, io);
  return { code, out: io.out(), err: io.err(), io };
}

/**
 * Leaves the emulator's demo account as an apply of configs/ would: vault items carry the fingerprint markers of
 * the current secrets (the seed has none, and an item without one always plans an update). The markers come from
 * the plan itself, written as the administrator through the emulator's control API.
 */
export async function stageFingerprints(emulator: RunningEmulator, env: Record<string, string | undefined>): Promise<number> {
  const { code, out, err } = await monsync(['plan', '--config', 'configs', '--format', 'json'], { env });
  if (code !== 0 && code !== 3) throw new Error(`staging plan failed (${code}): ${err}`);
  const plan = JSON.parse(out) as Plan;
  let staged = 0;
  for (const step of plan.steps) {
    const notes = step.desired?.['Notes'];
    if (step.kind !== 'vaultItem' || step.action !== 'update' || typeof notes !== 'string' || step.guid === undefined) continue;
    const result = await emulator.control.actAs('admin@example.com', { method: 'PATCH', path: `/VaultItem/${step.guid}`, body: { Notes: notes } });
    if (result.status >= 300) throw new Error(`staging PATCH /VaultItem/${step.guid} answered ${result.status}`);
    staged += 1;
  }
  return staged;
}

/**
 * Asserts that a failed read of the live account ends its progress with the failure line, right before the error:
 * no progress line, plain or redrawn, comes after it. Returns the request count the line gives.
 */
export function expectReadFailureLast(err: string, command: string): number {
  // A terminal's rewritten line starts with carriage return + erase-line: read each as a line of its own.
  const lines = err.split('\r\u001b[K').join('\n');
  const match = /(?:^|\n)((?:verifying: )?reading live account failed after (\d+) requests)\n(monsync \w+: error [^\n]*)\n$/.exec(lines);
  if (match === null) throw new Error(`expected the read to end with "reading live account failed after N requests" and then the error; got:\n${JSON.stringify(err.slice(-600))}`);
  if (!(match[3] ?? '').startsWith(`monsync ${command}: error `)) throw new Error(`expected an error of monsync ${command}, got: ${match[3] ?? ''}`);
  return Number(match[2]);
}
