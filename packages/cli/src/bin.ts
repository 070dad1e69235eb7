#!/usr/bin/env node
import { dropLeadingSeparator, splitCommand } from './args.js';
import { COMMANDS } from './commands/index.js';
import { interrupts } from './interrupt.js';
import { processIo } from './io.js';
import { run } from './main.js';
import { deferTierUp } from './tiering.js';

const argv = process.argv.slice(2);
const io = processIo();
const { command } = splitCommand(dropLeadingSeparator(argv));
// In the command's process only: `run` is also called in-process (tests, the library entry), where V8 and the
// process's TZ are not ours to tune.
const entry = COMMANDS.find((known) => known.name === command);
if (entry !== undefined) await deferTierUp(entry.callsApi === true);
if (entry?.callsApi === true) {
  // The on-call preview reads time zones by switching TZ for a moment (no other thread here reads local time),
  // sparing the 17-26 ms of Intl's first date format; the commands that call the API load this package anyway.
  (await import('@monsync/reconciler')).readZonesBySwitchingTz(true);
}
// The long-running emulator takes over Ctrl-C (to close cleanly), and apply while it holds the apply lock (to stop
// between steps and release it); any other command, and apply before and after, keeps Node's default.
if (command === 'apply') {
  io.interrupts = interrupts({
    on: (signal, listener) => process.on(signal, listener),
    off: (signal, listener) => process.off(signal, listener),
    exit: (code) => process.exit(code),
    stderr: process.stderr,
  });
}
if (command === 'emulator') {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  io.signal = controller.signal;
}
process.exitCode = await run(argv, io);
