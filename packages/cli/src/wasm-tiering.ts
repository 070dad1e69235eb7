/**
 * undici parses HTTP responses with llhttp, a WebAssembly module. V8 recompiles a wasm function with its optimizing
 * compiler once it has run about 1.8 MB worth of code (the default `--wasm-tiering-budget`), which llhttp reaches
 * within the first twenty responses of a `monsync plan`: compiling llhttp's large parser functions then costs
 * 100-200 ms of CPU (measured on Node 20) that a command making a few dozen requests never earns back, and on a busy
 * machine it competes with the command itself. With a budget 100 times larger, a run of thousands of requests (a large
 * apply) still gets the optimized parser. Only the wasm tier-up changes; JavaScript is compiled as before.
 */
export async function deferWasmTierUp(): Promise<void> {
  // Imported here, not at the top of bin.ts: `node:v8` costs a few ms that commands without HTTP need not pay.
  const { setFlagsFromString } = await import('node:v8');
  const flags = '--wasm-tiering-budget=180000000';
  setFlagsFromString(flags);
  // V8 refuses a code cache made under other flags: these commands keep theirs apart from validate's.
  (await import('./code-cache.js')).noteV8FlagsChanged(flags);
}
