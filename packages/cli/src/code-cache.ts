import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { cliVersion } from './version.js';

/**
 * V8's code cache for the bundle's large chunks, on Node 20 (whose module loader has no compile cache; Node 22's
 * `module.enableCompileCache` keeps only what it compiled before running a module). Parsing and lazily compiling the
 * YAML parser, the precompiled validator, undici and the reconciler is about a third of a `monsync validate` or
 * `plan`; V8 reads the same code back from its cache in a fraction of that.
 *
 * The bundler (scripts/chunk-scripts.mjs) turns each large chunk into a script (`<chunk>.script.js`, one function
 * taking `exports`, `require`, `module`, the chunk's URL and its import()) and leaves in the chunk's place a module that imports what the
 * chunk imported, runs the script here, and exports what it exported. The cache of a script is written when the
 * process exits, so it holds every function the command compiled, and only when there was none or V8 refused the one
 * there (another V8, other flags, another source): a run never waits on a cache it could not use, and a missing,
 * stale, corrupt or unwritable cache only means compiling as without one.
 */

/** The V8 flags a command set before loading chunks (they are part of V8's check of a cache): one cache per set. */
let flagsVariant = '';
const unwritten: { script: Script; path: string }[] = [];

/** Called after `v8.setFlagsFromString`: V8 refuses a cache made under other flags, so each set keeps its own. */
export function noteV8FlagsChanged(flags: string): void {
  flagsVariant += `-${flags.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '')}`;
}

/**
 * Where caches go: `MONSYNC_CACHE_DIR`, else the user's cache directory (never the install, which may be read-only
 * and is shared between users), one folder per monsync version, V8 version and flags. `NODE_DISABLE_COMPILE_CACHE`
 * (Node's own switch for its compile cache) turns it off.
 */
function cacheDirectory(): string | undefined {
  const env = process.env;
  if (env['NODE_DISABLE_COMPILE_CACHE'] !== undefined && env['NODE_DISABLE_COMPILE_CACHE'] !== '') return undefined;
  const base = nonEmpty(env['MONSYNC_CACHE_DIR']) ?? userCacheDirectory();
  if (base === undefined) return undefined;
  return join(base, 'code-cache', `${cliVersion()}-v8-${process.versions.v8}-${process.arch}${flagsVariant}`);
}

function userCacheDirectory(): string | undefined {
  const env = process.env;
  const xdg = nonEmpty(env['XDG_CACHE_HOME']);
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'monsync');
  try {
    const home = homedir();
    if (process.platform === 'win32') return join(nonEmpty(env['LOCALAPPDATA']) ?? join(home, 'AppData', 'Local'), 'monsync', 'Cache');
    if (process.platform === 'darwin') return join(home, 'Library', 'Caches', 'monsync');
    return join(home, '.cache', 'monsync');
  } catch {
    // No home directory (a locked-down service account): no cache.
    return undefined;
  }
}

const nonEmpty = (value: string | undefined): string | undefined => (value === undefined || value === '' ? undefined : value);

function readCache(path: string | undefined): Buffer | undefined {
  if (path === undefined) return undefined;
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** Written whole under another name and renamed, so a reader (another monsync running now) never sees half a cache. */
function writeCaches(): void {
  for (const { script, path } of unwritten.splice(0)) {
    const partial = `${path}.${process.pid}.partial`;
    try {
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(partial, script.createCachedData());
      renameSync(partial, path);
    } catch {
      // A read-only or full disk, a file where a folder should be: the next run compiles, as this one did.
      try {
        rmSync(partial, { force: true });
      } catch {
        // Nothing was written.
      }
    }
  }
}

/**
 * Runs the script the bundler made of the chunk at `chunkUrl` and returns its exports. `imports` holds the modules of
 * the other chunks it imports, by the specifier it names them with; Node's built-ins come from `require`.
 */
export function runChunkScript(chunkUrl: string, imports: Readonly<Record<string, object>>): Record<string, unknown> {
  const file = fileURLToPath(chunkUrl).replace(/\.js$/, '.script.js');
  // ASCII only (the bundler escapes the rest): read as latin1, V8 keeps it as a one-byte string, quicker to make and read.
  const source = readFileSync(file, 'latin1');
  const directory = cacheDirectory();
  // The chunk's name carries a hash of its content; the length is V8's own check, kept in the name for clarity.
  const cachePath = directory === undefined ? undefined : join(directory, `${basename(file, '.script.js')}-${source.length}.v8`);
  const cachedData = readCache(cachePath);
  const script = new Script(source, { filename: file, ...(cachedData === undefined ? {} : { cachedData }) });
  if (cachePath !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) {
    if (unwritten.length === 0) process.once('exit', writeCaches);
    unwritten.push({ script, path: cachePath });
  }
  const module = { exports: {} as Record<string, unknown> };
  // Built-ins without a require function of the chunk's own: making one costs about a millisecond.
  let nodeRequire: NodeJS.Require | undefined;
  const requireFromChunk = (specifier: string): unknown =>
    imports[specifier] ?? process.getBuiltinModule(specifier) ?? (nodeRequire ??= createRequire(chunkUrl))(specifier);
  // The chunk's import() (the bundler made it a call of this): a script compiled from V8's code cache has none.
  const importFromChunk = (specifier: string): Promise<unknown> => import(specifier.startsWith('.') ? new URL(specifier, chunkUrl).href : specifier);
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, requireFromChunk, module, chunkUrl, importFromChunk);
  return module.exports;
}
