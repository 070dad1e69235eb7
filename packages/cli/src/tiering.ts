/**
 * V8 tiers code up on its own schedule, made for long-running pages; a monsync command is a short process, and a
 * start spends much of its CPU compiling code it runs once. Two budgets are raised here, in the command's own process
 * only (before any chunk loads):
 *
 * - JavaScript: V8 sends a function to its optimizing compiler once the function has run about 132 KB worth of
 *   bytecode (`--interrupt-budget`). A `monsync validate` of the demo tree reaches that in the YAML parser and the
 *   config validator, and the optimizing compiles (on V8's background threads, which on a 2-core CI runner compete
 *   with the command) are about a fifth of its CPU (measured on Node 20: 550 ms -> 430 ms, `node -e 0` being 140 ms).
 *   With twice the budget a short command no longer pays them, and a long one (a plan of 100,000 monitors) optimizes
 *   its hot loops a few milliseconds later.
 * - WebAssembly, for the commands that call the API: undici parses HTTP responses with llhttp, which V8 recompiles
 *   with its optimizing compiler once it has run about 1.8 MB worth of code (`--wasm-tiering-budget`), within the
 *   first twenty responses of a `monsync plan`: compiling llhttp's large parser functions then costs 100-200 ms of
 *   CPU that a command making a few dozen requests never earns back. With a budget 100 times larger, a run of
 *   thousands of requests (a large apply) still gets the optimized parser.
 */
export async function deferTierUp(callsApi: boolean): Promise<void> {
  // Imported here, not at the top of bin.ts: `node:v8` costs a few ms that `--version` and `--help` need not pay.
  const { setFlagsFromString } = await import('node:v8');
  const flags = callsApi ? '--interrupt-budget=270336 --wasm-tiering-budget=180000000' : '--interrupt-budget=270336';
  setFlagsFromString(flags);
  // V8 refuses a code cache made under other flags: each set of flags keeps its own.
  (await import('./code-cache.js')).noteV8FlagsChanged(flags);
}
