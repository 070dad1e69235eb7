import { startEmulator, type EmulatorOptions } from './emulator.js';
import { EmulatorConfigError } from './errors.js';
import { PROFILE_NAMES, isProfileName } from './profiles.js';
import { SEEDED, type SeedName } from './seed.js';

export const EMULATOR_USAGE = `Usage: monsync-emulator [options]

Local Monitoring Service API v4 emulator (for demos, tests and CI).

Options:
  --port N           port to listen on; 0 picks a free one (default 0)
  --host HOST        address to bind (default 127.0.0.1)
  --state FILE       JSON state file: loaded at start when present, saved atomically after every write
  --seed demo|empty  initial account when no state file exists (default empty)
  --profile NAME     which reading of the service to speak: default, strict, published, lean or
                     rate-limited (default: default; README, Profiles)
  --rate-limit R     share of API requests the rate-limited profile answers 429, 0..1 (default 0.1)
  --rate N           limit API requests to N a second in any profile, as a service does: a token bucket;
                     an empty bucket answers 429 with the Retry-After it implies (default: no limit)
  --burst B          requests the --rate bucket lets through at once (default: N, one second's worth)
  --user NAME        API account user name of the administrator (default demo)
  --password PW      its password (default demo-password)
  --latency MS       delay every API response by MS milliseconds (default 0)
  --fault-rate R     share of API requests that fail with an injected fault, 0..1 (default 0)
  --fault-seed S     seed of the deterministic fault sequence (default 1)
  --page-size N      default Take of cursor-paged lists, 1..100 (default 100)
  --verbose          print the seeded accounts and one line per request
  --help             show this help

A single leading -- is ignored (pnpm emulator -- --port 0 passes it through).

The first line printed is: monsync emulator listening on http://127.0.0.1:<port>/v4
Control API (loopback only): http://127.0.0.1:<port>/__emulator
`;

export interface ParsedEmulatorArgs {
  options: EmulatorOptions;
  verbose: boolean;
  help: boolean;
}

export interface CliIo {
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  /** Aborting closes the emulator (the bin wires SIGINT and SIGTERM to it). */
  signal?: AbortSignal;
  /** Called once the emulator listens (tests use it to learn the URL). */
  onListening?: (url: string) => void;
  /** The command as the user typed it, for its errors: `monsync emulator` (default `monsync-emulator`). */
  command?: string;
}

const VALUE_FLAGS = ['--port', '--host', '--state', '--seed', '--profile', '--rate-limit', '--rate', '--burst', '--user', '--password', '--latency', '--fault-rate', '--fault-seed', '--page-size'] as const;

function fail(message: string): never {
  throw new EmulatorConfigError(message);
}

function integer(flag: string, raw: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(raw)) fail(`${flag} "${raw}" must be an integer from ${min} to ${max}.`);
  const n = Number(raw);
  if (n < min || n > max) fail(`${flag} ${n} is out of range: it must be from ${min} to ${max}.`);
  return n;
}

export function parseEmulatorArgs(input: readonly string[]): ParsedEmulatorArgs {
  // `pnpm emulator -- --port 0` passes the `--` through; one leading separator is not an argument.
  const argv = input[0] === '--' ? input.slice(1) : input;
  const options: EmulatorOptions = { port: 0 };
  let verbose = false;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    if (arg === '--verbose' || arg === '-v') {
      verbose = true;
      continue;
    }
    if (arg === '--') fail('Unexpected "--": only one, before every option, is accepted (as `pnpm emulator -- --port 0` passes it).');
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (!(VALUE_FLAGS as readonly string[]).includes(flag)) {
      fail(arg.startsWith('-') ? `Unknown option ${flag}.` : `Unexpected argument "${arg}".`);
    }
    let value: string;
    if (eq > 0) value = arg.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('--') && next.length > 2)) fail(`${flag} needs a value.`);
      value = next;
      i++;
    }
    switch (flag) {
      case '--port':
        options.port = integer(flag, value, 0, 65535);
        break;
      case '--host':
        if (value === '') fail('--host must not be empty.');
        options.host = value;
        break;
      case '--state':
        if (value === '') fail('--state needs a file path.');
        options.statePath = value;
        break;
      case '--seed':
        if (value !== 'demo' && value !== 'empty') fail(`--seed "${value}" must be demo or empty.`);
        options.seed = value as SeedName;
        break;
      case '--profile':
        if (!isProfileName(value)) fail(`--profile "${value}" must be one of: ${PROFILE_NAMES.join(', ')}.`);
        options.profile = value;
        break;
      case '--rate-limit': {
        const share = Number(value);
        if (value.trim() === '' || !Number.isFinite(share) || share < 0 || share > 1) fail(`--rate-limit "${value}" must be a number from 0 to 1.`);
        options.rateLimit = { share };
        break;
      }
      case '--rate': {
        const perSecond = Number(value);
        if (value.trim() === '' || !Number.isFinite(perSecond) || perSecond <= 0) fail(`--rate "${value}" must be a number of requests per second above 0.`);
        options.requestRate = { perSecond, burst: options.requestRate?.burst ?? Math.max(1, Math.round(perSecond)) };
        break;
      }
      case '--burst':
        options.requestRate = { perSecond: options.requestRate?.perSecond ?? 0, burst: integer(flag, value, 1, 1_000_000) };
        break;
      case '--user':
        if (value === '' || value.includes(':')) fail('--user must be non-empty and contain no colon.');
        options.user = value;
        break;
      case '--password':
        if (value === '') fail('--password must not be empty.');
        options.password = value;
        break;
      case '--latency':
        options.latencyMs = integer(flag, value, 0, 600_000);
        break;
      case '--fault-rate': {
        const n = Number(value);
        if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) fail(`--fault-rate "${value}" must be a number from 0 to 1.`);
        options.faultRate = n;
        break;
      }
      case '--fault-seed':
        options.faultSeed = integer(flag, value, -2147483648, 4294967295);
        break;
      case '--page-size':
        options.pageSize = integer(flag, value, 1, 100);
        break;
    }
  }
  if (options.requestRate && options.requestRate.perSecond === 0) fail('--burst limits the --rate bucket: give --rate N too.');
  return { options, verbose, help };
}

/**
 * Runs the emulator until `io.signal` aborts; resolves with the exit code. Bad flags print a clear
 * error and give 1. Shared by the `monsync-emulator` bin and `monsync emulator`.
 */
export async function runEmulatorCli(argv: readonly string[], io: CliIo = {}): Promise<number> {
  const out = io.stdout ?? ((t: string): void => void process.stdout.write(t));
  const err = io.stderr ?? ((t: string): void => void process.stderr.write(t));
  const command = io.command ?? 'monsync-emulator';
  let parsed: ParsedEmulatorArgs;
  try {
    parsed = parseEmulatorArgs(argv);
  } catch (e) {
    err(`${command}: ${(e as Error).message}\nRun '${command} --help' for the list of options.\n`);
    return 1;
  }
  if (parsed.help) {
    out(EMULATOR_USAGE);
    return 0;
  }
  const options: EmulatorOptions = { ...parsed.options };
  if (parsed.verbose) options.log = (line) => out(`${line}\n`);
  let running;
  try {
    running = await startEmulator(options);
  } catch (e) {
    const reason = e instanceof EmulatorConfigError ? e.message : `cannot start: ${(e as Error).message}`;
    err(`${command}: ${reason}\n`);
    return 1;
  }
  out(`monsync emulator listening on ${running.url}\n`);
  if (running.profile !== 'default') out(`  profile: ${running.profile}\n`);
  if (parsed.verbose) {
    const user = options.user ?? 'demo';
    const v = SEEDED.viewer;
    out(
      [
        `  administrator API account: ${user} (password as given by --password; default demo-password)`,
        `  non-administrator API account: ${v.apiUser} / ${v.apiPassword} (operator ${v.email}, view-data on some monitors)`,
        `  operator logins for POST /Register: ${SEEDED.admin.email} / ${SEEDED.admin.loginPassword}, ${v.email} / ${v.loginPassword}`,
        `  control API: ${running.url.replace(/\/v4$/, '/__emulator')}`,
        '',
      ].join('\n'),
    );
  }
  io.onListening?.(running.url);
  await new Promise<void>((resolve) => {
    if (!io.signal) return; // runs until the process ends
    if (io.signal.aborted) return resolve();
    io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await running.close();
  return 0;
}
