export { run } from './main.js';
export { bufferedIo, processIo, type BufferedIo, type CliIo } from './io.js';
export { ExitCode } from './exit-codes.js';
export { cliVersion } from './version.js';
