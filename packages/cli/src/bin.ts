#!/usr/bin/env node
import { dropLeadingSeparator, splitCommand } from './args.js';
import { processIo } from './io.js';
import { run } from './main.js';

const argv = process.argv.slice(2);
const io = processIo();
// Only the long-running emulator takes over Ctrl-C (to close cleanly); any other command keeps Node's default.
if (splitCommand(dropLeadingSeparator(argv)).command === 'emulator') {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  io.signal = controller.signal;
}
process.exitCode = await run(argv, io);
