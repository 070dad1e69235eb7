#!/usr/bin/env node
// Bundles the monsync command into dist/: bin.js (the command, run by bin/monsync.js) and index.js (the library entry, `run`), plus the
// chunks they load on demand. Every dependency is inside, so an installed @monsync/cli needs nothing else at run
// time. Each command is a chunk of its own, loaded when it runs (src/commands/index.ts): `--version` and `--help`
// load only the entry, `validate` no HTTP client, and only `monsync emulator` the emulator.
//
//   node scripts/bundle.mjs [--metafile FILE]
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { analyze } from 'eslint-scope';
import { parse } from 'espree';
import { chunkScripts, scriptOf } from './chunk-scripts.mjs';

const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { version } = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8'));

// ESM output has no require(); CommonJS dependencies (ajv) call it, for their own files and Node built-ins.
/**
 * The config validator compiled now rather than at every start (about 0.5 s of `monsync validate`): the schema
 * package's compile-validator.ts is replaced by ajv's standalone code, made by the schema package's own build
 * (dist/precompile-validator.js) with the options its runtime compiler uses; ajv's compiler stays out.
 *
 * That code (about 400 KB) is a script of its own, `chunks/config-validator-<hash>.script.js`, run through the code
 * cache when `compileConfigValidator` is first called: the schema package asks ajv only about a file its schema walk
 * refuses (schema-conforms.ts), so a valid tree's `validate` or `plan` never parses it. The call is synchronous (the
 * loader is), which an import() chunk could not be.
 */
/**
 * What every file the bundle writes is built with, the CLI's chunks and the validator's script alike. Minified,
 * whitespace and local names too: Node 20 parses every byte of a chunk it loads (no compile cache before 22.1), and
 * parsing is most of a command's start. keepNames: error and class names stay as written.
 */
const OUTPUT = {
  platform: 'node',
  target: 'node20',
  format: 'esm',
  minify: true,
  keepNames: true,
  legalComments: 'eof',
  charset: 'utf8',
  logLevel: 'warning',
};

function precompiledValidator(scripts) {
  return {
    name: 'monsync-precompiled-validator',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /[\\/]schema[\\/]src[\\/]compile-validator\.ts$/ }, async (args) => {
        const built = pathToFileURL(join(dirname(args.path), '..', 'dist', 'precompile-validator.js')).href;
        const { precompiledValidatorModule } = await import(built);
        const validator = await build({
          stdin: { contents: precompiledValidatorModule(), loader: 'js', resolveDir: dirname(args.path) },
          ...OUTPUT,
          bundle: true,
          write: false,
        });
        const text = scriptOf(validator.outputFiles[0].text, REQUIRE_SHIM);
        // The name carries a hash of the content, as esbuild's chunk names do: V8 checks a cache against the source's length only.
        const name = `config-validator-${createHash('sha256').update(text).digest('hex').slice(0, 8)}`;
        scripts.set(`dist/chunks/${name}.script.js`, text);
        return {
          contents: [
            `import { runChunkScript } from ${JSON.stringify(join(PACKAGE_DIR, 'src', 'code-cache.ts'))};`,
            'let validate;',
            `export function compileConfigValidator() { validate ??= runChunkScript(new URL(${JSON.stringify(`./${name}.js`)}, import.meta.url).href, {}).compileConfigValidator(); return validate; }`,
          ].join('\n'),
          loader: 'js',
          resolveDir: dirname(args.path),
        };
      });
    },
  };
}

/**
 * The client needs only undici's Agent, but undici's index loads all of undici (fetch, WebSocket, caches, mocks):
 * about 100 ms of every start of a command that calls the API. The bundle takes the Agent's own module, and
 * the one request method of undici's index that the client calls (`request`; `close` is the Agent's own).
 *
 * And undici's HTTP/2 client is left out: it loads node:http2 (and with it node:tls) when undici loads, about 20 ms
 * of a `monsync plan` against an http:// URL, and it is used only when a server agrees to HTTP/2, which undici offers
 * only with `allowH2`, an option the client never sets (transport.ts).
 */
const undiciAgentOnly = {
  name: 'monsync-undici-agent',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^undici$/ }, (args) => ({ path: args.resolveDir, namespace: 'undici-agent' }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'undici-agent' }, (args) => ({
      // What undici's index does for every dispatcher, for the method the client uses.
      contents: [
        "import Agent from 'undici/lib/dispatcher/agent.js';",
        "import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';",
        "import request from 'undici/lib/api/api-request.js';",
        'Dispatcher.prototype.request = request;',
        'export { Agent };',
      ].join('\n'),
      loader: 'js',
      resolveDir: args.path,
    }));
    pluginBuild.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) =>
      /[\\/]undici[\\/]lib[\\/]dispatcher$/.test(args.resolveDir) ? { path: 'client-h2', namespace: 'undici-no-h2' } : undefined,
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: 'undici-no-h2' }, () => ({
      contents: "module.exports = function connectH2() { throw new Error('monsync does not speak HTTP/2 (undici allowH2 is off)'); };",
      loader: 'js',
    }));
    // Nor fetch's body machinery (WebIDL, FormData, data: URLs: about 50 KB every `plan` parsed), which undici's HTTP/1
    // client loads only to send a FormData body; the client sends strings.
    pluginBuild.onResolve({ filter: /^\.\.\/web\/fetch\/body\.js$/ }, (args) =>
      /[\\/]undici[\\/]lib[\\/]dispatcher$/.test(args.resolveDir) ? { path: 'fetch-body', namespace: 'undici-no-form-data' } : undefined,
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: 'undici-no-form-data' }, () => ({
      contents: "exports.extractBody = function extractBody() { throw new Error('monsync sends no FormData bodies (undici fetch body support is left out of the bundle)'); };",
      loader: 'js',
    }));
  },
};

/**
 * A Node built-in that bundled CommonJS code require()s (undici, yaml) is taken with `process.getBuiltinModule`
 * (Node 20.16+): through esbuild's require shim it would go through Node's CommonJS loader, whose first use costs a
 * few milliseconds and each further built-in some more (undici requires about twenty). Built-ins that ES modules import
 * stay imports.
 */
const builtinsWithoutLoader = {
  name: 'monsync-builtins-without-loader',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, (args) => (args.kind === 'require-call' && (isBuiltin(args.path) || args.path.startsWith('node:')) ? { path: args.path, namespace: 'node-builtin' } : undefined));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => ({
      contents: [
        `const builtin = process.getBuiltinModule(${JSON.stringify(args.path)});`,
        // As require() would fail (node:sqlite on Node 20, which undici requires only when asked to cache in it).
        `if (builtin === undefined) throw Object.assign(new Error(${JSON.stringify(`No such built-in module: ${args.path}`)}), { code: 'ERR_UNKNOWN_BUILTIN_MODULE' });`,
        'module.exports = builtin;',
      ].join('\n'),
      loader: 'js',
    }));
  },
};

/** The example workflows `monsync init` writes, inlined: an installed package has no .github/examples beside it. */
const workflowTemplates = {
  name: 'monsync-workflow-templates',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/]cli[\\/]src[\\/]workflow-templates\.ts$/ }, () => {
      const examples = join(PACKAGE_DIR, '..', '..', '.github', 'examples');
      const texts = Object.fromEntries(['monsync-plan.yml', 'monsync-apply.yml', 'monsync-drift.yml'].map((name) => [name, readFileSync(join(examples, name), 'utf8')]));
      return { contents: `const TEXTS = ${JSON.stringify(texts)};\nexport function workflowTemplates() { return TEXTS; }\n`, loader: 'js' };
    });
  },
};

/**
 * The JSON Schemas @monsync/schema renders (config.schema.json, which the `yaml-language-server` line of every file
 * `init` and `pull` write names, and the plan's), copied to dist/schemas/: editors find them in an installed
 * @monsync/cli, which depends on no other @monsync package.
 */
function copySchemas(outdir) {
  const from = join(PACKAGE_DIR, 'node_modules', '@monsync', 'schema', 'dist', 'schemas');
  const names = readdirSync(from).filter((name) => name.endsWith('.schema.json'));
  if (!names.includes('config.schema.json')) throw new Error(`${from} holds no config.schema.json: build @monsync/schema first`);
  rmSync(join(outdir, 'schemas'), { recursive: true, force: true });
  mkdirSync(join(outdir, 'schemas'), { recursive: true });
  for (const name of names) copyFileSync(join(from, name), join(outdir, 'schemas', name));
  return names.length;
}

/** src/code-cache.ts, which runs the large chunks as scripts through V8's code cache (scripts/chunk-scripts.mjs). */
const CODE_CACHE = 'dist/chunks/code-cache.js';

const REQUIRE_SHIM = "import { createRequire as __monsyncCreateRequire } from 'node:module';\nconst require = __monsyncCreateRequire(import.meta.url);";

/**
 * The banner goes on every file esbuild writes, but only the chunk holding esbuild's `__require` helper (and any
 * other file reading the `require` it declares) uses it; a createRequire per loaded chunk is about 1 ms of a start.
 * A file that never reads it (a string such as ajv's 'require("ajv/dist/runtime/equal")' does not count) is written
 * without it.
 */
function withoutUnusedShim(text) {
  const at = text.indexOf(REQUIRE_SHIM);
  if (at < 0) return text;
  const ast = parse(text, { ecmaVersion: 'latest', sourceType: 'module', range: true });
  const moduleScope = analyze(ast, { ecmaVersion: 2022, sourceType: 'module' }).globalScope.childScopes.find((scope) => scope.type === 'module');
  const read = moduleScope?.set.get('require')?.references.some((reference) => reference.isRead()) ?? true;
  return read ? text : text.slice(0, at) + text.slice(at + REQUIRE_SHIM.length).replace(/^\n/, '');
}

async function main() {
  const metafileAt = process.argv.indexOf('--metafile');
  const outdir = join(PACKAGE_DIR, 'dist');
  // Chunk names carry a content hash: stale chunks of an earlier build would pile up.
  rmSync(join(outdir, 'chunks'), { recursive: true, force: true });
  const validatorScripts = new Map();
  const result = await build({
    absWorkingDir: PACKAGE_DIR,
    // The code cache's runner has a name of its own: the modules chunk-scripts.mjs writes import it.
    entryPoints: { bin: 'src/bin.ts', index: 'src/index.ts', [CODE_CACHE.slice('dist/'.length, -'.js'.length)]: 'src/code-cache.ts' },
    outdir: 'dist',
    chunkNames: 'chunks/[name]-[hash]',
    ...OUTPUT,
    bundle: true,
    splitting: true,
    // Workspace packages from their TypeScript source, never from a dist/ folder that may be stale.
    conditions: ['source'],
    mainFields: ['module', 'main'],
    define: { __MONSYNC_VERSION__: JSON.stringify(version) },
    plugins: [precompiledValidator(validatorScripts), undiciAgentOnly, workflowTemplates, builtinsWithoutLoader],
    banner: { js: REQUIRE_SHIM },
    sourcemap: false,
    metafile: true,
    write: false,
  });
  for (const file of chunkScripts(result.outputFiles, result.metafile, PACKAGE_DIR, CODE_CACHE, REQUIRE_SHIM)) {
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.path.endsWith('.js') ? withoutUnusedShim(file.text) : file.contents);
  }
  for (const [path, text] of validatorScripts) writeFileSync(join(PACKAGE_DIR, path), text);
  const schemas = copySchemas(outdir);
  if (metafileAt >= 0) writeFileSync(resolve(process.argv[metafileAt + 1] ?? 'meta.json'), JSON.stringify(result.metafile, null, 2));
  const outputs = Object.entries(result.metafile.outputs);
  const bytes = outputs.reduce((sum, [, output]) => sum + output.bytes, 0);
  process.stdout.write(`@monsync/cli ${version}: wrote ${outputs.length} files to dist/ (${Object.keys(result.metafile.inputs).length} modules, ${bytes} bytes), and ${schemas} JSON Schemas to dist/schemas/\n`);
}

try {
  await main();
} catch (error) {
  process.stderr.write(`bundle: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
