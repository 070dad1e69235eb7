import { runEmulatorCli } from '@monsync/emulator';
import type { CommandSpec } from '../command.js';

export const emulatorCommand: CommandSpec = {
  name: 'emulator',
  summary: 'run the local Monitoring Service API emulator (for trying configs and for CI)',
  usage: 'emulator [--port N] [--host H] [--state FILE] [--seed demo|empty] [--profile NAME] [--latency MS] [--fault-rate R] [--fault-seed S]',
  description:
    'Starts the @monsync/emulator server and prints `monsync emulator listening on http://127.0.0.1:<port>/v4`\n' +
    'as its first line. Default API account: demo / demo-password. Stop it with Ctrl-C.\n' +
    '--profile picks the reading of the service it speaks: default, strict, published, lean or rate-limited\n' +
    '(--rate-limit R sets the share of 429 answers of rate-limited).\n' +
    'Further flags: --user NAME, --password PW, --page-size N, --verbose (prints the seeded accounts and one\n' +
    'line per request); they are passed to the emulator as given (the @monsync/emulator README lists them).',
  options: {},
  passThrough: true,
  examples: ['monsync emulator --port 8080 --seed demo'],
  async run({ io, positionals }) {
    return runEmulatorCli(positionals, {
      command: 'monsync emulator',
      stdout: (text) => void io.stdout.write(text),
      stderr: (text) => void io.stderr.write(text),
      ...(io.signal !== undefined ? { signal: io.signal } : {}),
    });
  },
};
