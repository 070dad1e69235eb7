import { dropLeadingSeparator, GLOBAL_OPTIONS, parseCommandArgs, splitCommand, closest, booleanOption, stringOption } from './args.js';
import type { GlobalFlags } from './command.js';
import { COMMANDS, type CommandEntry } from './commands/index.js';
import { CliError, UsageError } from './errors.js';
import { ExitCode } from './exit-codes.js';
import { commandHelp, globalHelp } from './help.js';
import { processIo, type CliIo } from './io.js';
import { cliVersion } from './version.js';
import { errorText, plainLines, plainText } from '@monsync/reconciler/escape';

function findCommand(name: string): CommandEntry | undefined {
  return COMMANDS.find((command) => command.name === name);
}

/**
 * Runs one `monsync` invocation and resolves to its exit code; never calls `process.exit`, so tests and the
 * demo run commands in-process with their own `io`.
 */
export async function run(argv: readonly string[], given: CliIo = processIo()): Promise<number> {
  let io = given;
  let verbose = false;
  let commandName: string | undefined;
  try {
    const { before, command, rest } = splitCommand(dropLeadingSeparator(argv));
    commandName = command;
    const entry = command === undefined ? undefined : findCommand(command);
    if (command !== undefined && entry === undefined) {
      const suggestion = closest(command, COMMANDS.map((c) => c.name));
      throw new UsageError(`unknown command '${command}'${suggestion !== undefined ? ` (did you mean '${suggestion}'?)` : ''}. Commands: ${COMMANDS.map((c) => c.name).join(', ')}`);
    }
    const leading = parseCommandArgs(before, GLOBAL_OPTIONS, '');
    if (leading.positionals.length > 0) throw new UsageError(`unexpected argument '${leading.positionals[0] ?? ''}'`);
    verbose = booleanOption(leading.values, 'verbose');
    if (booleanOption(leading.values, 'no-color')) io = withoutColor(io);
    if (entry === undefined) {
      if (booleanOption(leading.values, 'version')) {
        io.stdout.write(`${cliVersion()}\n`);
        return ExitCode.Ok;
      }
      if (booleanOption(leading.values, 'help')) {
        io.stdout.write(globalHelp(COMMANDS, cliVersion()));
        return ExitCode.Ok;
      }
      io.stderr.write(globalHelp(COMMANDS, cliVersion()));
      io.stderr.write('\nmonsync: no command given.\n');
      return ExitCode.Error;
    }

    const spec = await entry.load();
    const wantsHelp = (tokens: readonly string[]) => tokens.some((token) => token === '--help' || token === '-h');
    let parsedRest: { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] };
    if (spec.passThrough === true) {
      // The emulator's flags are its own; only a help request is answered here.
      if (wantsHelp(rest) || booleanOption(leading.values, 'help')) {
        io.stdout.write(commandHelp(spec));
        return ExitCode.Ok;
      }
      // `pnpm monsync emulator -- --port 0` forwards the `--` too; --no-color is monsync's, on every command.
      const forwarded = dropLeadingSeparator(rest);
      if (forwarded.includes('--no-color')) io = withoutColor(io);
      parsedRest = { values: {}, positionals: forwarded.filter((token) => token !== '--no-color') };
    } else {
      const options = { ...GLOBAL_OPTIONS, ...spec.options };
      // Help wins over any other mistake on the line, so `monsync plan --bogus --help` still helps.
      if (wantsHelp(rest) || booleanOption(leading.values, 'help')) {
        io.stdout.write(commandHelp(spec));
        return ExitCode.Ok;
      }
      parsedRest = parseCommandArgs(rest, options, spec.name);
      if (booleanOption(parsedRest.values, 'no-color')) io = withoutColor(io);
      if (booleanOption(parsedRest.values, 'version')) {
        io.stdout.write(`${cliVersion()}\n`);
        return ExitCode.Ok;
      }
      const { min, max, names } = spec.positionals ?? { min: 0, max: 0, names: '' };
      if (parsedRest.positionals.length > max) {
        const extra = parsedRest.positionals[max] ?? '';
        throw new UsageError(max === 0 ? `'monsync ${spec.name}' takes no arguments, got '${extra}'` : `too many arguments for 'monsync ${spec.name}' (expected ${names}), got '${extra}'`, spec.name);
      }
      if (parsedRest.positionals.length < min) throw new UsageError(`'monsync ${spec.name}' needs ${names}`, spec.name);
    }

    const configBefore = stringOption(leading.values, 'config');
    const configAfter = stringOption(parsedRest.values, 'config');
    if (configBefore !== undefined && configAfter !== undefined) throw new UsageError('option --config given twice; give it once', spec.name);
    verbose = verbose || booleanOption(parsedRest.values, 'verbose');
    const global: GlobalFlags = { config: configAfter ?? configBefore, verbose };
    return await spec.run({ io, values: parsedRest.values, positionals: parsedRest.positionals, global });
  } catch (error) {
    return await reportError(error, io, commandName, verbose);
  }
}

/** The same io, told to write no colour; a copy, so the caller's object (a test's, the library user's) is unchanged. */
function withoutColor(io: CliIo): CliIo {
  return { ...io, noColor: true };
}

/**
 * Whether an error is a fault of monsync itself, the only kind whose stack trace helps (in a bug report). The
 * service's answers (ApiError), bad configuration and bad arguments say all there is in their message, and every
 * error monsync raises on purpose carries a SCREAMING_SNAKE code.
 */
async function isInternal(error: Error, label: string): Promise<boolean> {
  if (label !== '' || error instanceof CliError) return false;
  // Loaded only here: a command that needs no HTTP client (validate, migrate) must not load one to start.
  const { ClientConfigError, isApiError } = await import('@monsync/client');
  return !(isApiError(error) || error instanceof ClientConfigError);
}

/**
 * What to check when the service refused the credentials or could not be reached: the answer is in the user's
 * environment, which the error itself cannot name. Such an error came from the client, so it is loaded already.
 */
async function connectionHint(error: Error): Promise<string | undefined> {
  if (!isFromService(error)) return undefined;
  const { connectionProblemOf } = await import('@monsync/client');
  const problem = connectionProblemOf(error);
  if (problem === 'credentials') return 'the service refused MONSYNC_API_USERNAME and MONSYNC_API_PASSWORD: check that they are the API account\'s user name and password (not a web login), for the service MONSYNC_API_URL names';
  if (problem === 'unreachable') return 'check MONSYNC_API_URL (the API root, e.g. https://api.example.com/v4) and that the service is reachable from this machine';
  return undefined;
}

/** Whether an error came from a request (its own or a wrapped one has a status): validate and migrate never load the client. */
function isFromService(error: Error): boolean {
  for (let at: unknown = error, depth = 0; at instanceof Error && depth < 8; at = at.cause, depth += 1) {
    if (typeof (at as { status?: unknown }).status === 'number') return true;
  }
  return false;
}

async function reportError(error: unknown, io: CliIo, command: string | undefined, verbose: boolean): Promise<number> {
  if (error instanceof UsageError) {
    const helpCommand = error.command !== undefined && error.command !== '' ? `monsync ${error.command} --help` : 'monsync --help';
    io.stderr.write(`monsync: ${plainLines(error.message)}\nRun '${helpCommand}' for usage.\n`);
    return ExitCode.Error;
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const label = typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code) ? ` ${code}` : '';
    io.stderr.write(`monsync${command !== undefined ? ` ${command}` : ''}: error${label}: ${errorText(error)}\n`);
    const hint = await connectionHint(error);
    if (hint !== undefined) io.stderr.write(`hint: ${hint}\n`);
    if (verbose && (await isInternal(error, label)) && error.stack !== undefined) io.stderr.write(`${error.stack}\n`);
    return ExitCode.Error;
  }
  io.stderr.write(`monsync: error: ${plainText(String(error))}\n`);
  return ExitCode.Error;
}
