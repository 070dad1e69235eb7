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
 * - WebAssembly, for the commands that call the API: undici parses HTTP responses with llhttp, whose main function
 *   (33 KB of WebAssembly, one loop over the bytes read) V8 recompiles with its optimizing compiler once it has run
 *   its budget (`--wasm-tiering-budget`, counted in code bytes, so a pass of that loop spends the function's size):
 *   a budget of 100 times the default ran out within the 48 responses of a demo `monsync plan`, and the compile, on a
 *   background thread, took 200-400 ms of CPU, which the command then waited for before it could exit (Node drains
 *   V8's background tasks at exit). Liftoff's code parses a response of 1.5 KB in about 2 µs (10,000 of them in
 *   18 ms, against 270 ms for the optimizing compile alone), so no run of this command makes enough requests to earn
 *   the compile back: the optimizing tier is off for WebAssembly (`--no-wasm-dynamic-tiering --no-wasm-tier-up`:
 *   every function stays as Liftoff compiled it).
 */
export async function deferTierUp(callsApi: boolean): Promise<void> {
  // Imported here, not at the top of bin.ts: `node:v8` costs a few ms that `--version` and `--help` need not pay.
  const { setFlagsFromString } = await import('node:v8');
  const flags = callsApi ? '--interrupt-budget=270336 --no-wasm-dynamic-tiering --no-wasm-tier-up' : '--interrupt-budget=270336';
  setFlagsFromString(flags);
  // V8 refuses a code cache made under other flags: each set of flags keeps its own.
  (await import('./code-cache.js')).noteV8FlagsChanged(flags);
}
