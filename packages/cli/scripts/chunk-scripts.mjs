// Turns the bundle's large chunks into scripts that src/code-cache.ts runs through V8's code cache (Node 20 has no
// compile cache for modules). Each chunk `chunks/X.js` becomes two files:
//   chunks/X.script.js  the chunk as one function (exports, require, module, chunk URL), compiled by vm.Script
//   chunks/X.js         a module in its place: imports what the chunk imported, runs the script, exports its exports
// so everything that imports the chunk (statically or with import()) is unchanged.
import { dirname, relative } from 'node:path';
import { transformSync } from 'esbuild';
import { analyze } from 'eslint-scope';
import { parse } from 'espree';

/** Below this a chunk compiles in about the time its script and cache take to read. */
export const SCRIPT_MIN_BYTES = 64 * 1024;

const CHUNK_URL = '__monsyncChunkUrl';
const IMPORT = '__monsyncImport';

/**
 * The exports of a chunk, as [local name, exported name]. The module left in the chunk's place exports the values the
 * script's exports held once it ran, not live bindings: so a chunk whose exported binding is assigned inside a
 * function (where it could change after the chunk ran) is refused, rather than bundled into a command that would
 * read a stale value.
 */
function exportsOf(ast, chunk) {
  const moduleScope = analyze(ast, { ecmaVersion: 2022, sourceType: 'module' }).globalScope.childScopes.find((scope) => scope.type === 'module');
  const exported = [];
  for (const node of ast.body) {
    // `export default <expression>` exports a value, not a binding (a CommonJS package's chunk ends with one).
    if (node.type === 'ExportDefaultDeclaration' && !/Declaration$/.test(node.declaration.type)) {
      exported.push(['default', 'default']);
      continue;
    }
    if (node.type === 'ExportDefaultDeclaration' || node.type === 'ExportAllDeclaration' || (node.type === 'ExportNamedDeclaration' && (node.declaration !== null || node.source !== null))) {
      throw new Error(`${chunk}: an export form esbuild does not write (${node.type}); scripts/chunk-scripts.mjs handles export { local as name } and export default <expression>`);
    }
    if (node.type !== 'ExportNamedDeclaration') continue;
    for (const specifier of node.specifiers) {
      const local = specifier.local.name;
      const variable = moduleScope.set.get(local);
      const laterWrite = variable?.references.find((reference) => reference.isWrite() && !reference.init && reference.from.variableScope !== moduleScope);
      if (variable === undefined || variable.defs.some((def) => def.type === 'ImportBinding') || laterWrite !== undefined) {
        throw new Error(`${chunk}: export ${specifier.exported.name} (${local}) is not a binding of the chunk's own that keeps the value it has once the chunk ran; it cannot be exported from a script (scripts/chunk-scripts.mjs)`);
      }
      exported.push([local, specifier.exported.name]);
    }
  }
  return exported;
}

/**
 * The chunk's code with each import() made a call of the script's `IMPORT` (code-cache.ts imports for it): V8 drops
 * the import() callback of a script compiled from its code cache (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING on Node 20).
 */
function withoutImportExpressions(ast, text) {
  const starts = [];
  const walk = (node) => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(walk);
    if (node.type === 'ImportExpression') starts.push(node.range[0]);
    for (const [key, value] of Object.entries(node)) if (key !== 'range' && typeof value === 'object') walk(value);
  };
  walk(ast);
  let out = text;
  for (const at of starts.sort((a, b) => b - a)) {
    if (out.slice(at, at + 'import'.length) !== 'import') throw new Error(`no import() at offset ${at}`);
    out = out.slice(0, at) + IMPORT + out.slice(at + 'import'.length);
  }
  return out;
}

/**
 * The chunk as a function of (exports, require, module, its URL, import), on one line with the code's first line.
 * Without the bundle's `requireShim` (a require function of the chunk's own): the script's `require` serves as well.
 */
export function scriptOf(text, requireShim) {
  const { code } = transformSync(text.startsWith(requireShim) ? text.slice(requireShim.length) : text, {
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // Names stay as written (the bundle's keepNames calls are in the code already); whitespace goes, as in the bundle.
    minifyWhitespace: true,
    minifySyntax: true,
    define: { 'import.meta.url': CHUNK_URL },
    legalComments: 'eof',
    // Characters beyond ASCII escaped: code-cache.ts reads the script as latin1, into a one-byte string.
    charset: 'ascii',
  });
  // esbuild escapes them in code but not in comments (licence notices): there they are written as \u escapes too.
  const ascii = code.replace(/[\u0080-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
  // A module's code is strict; a script's only when it says so.
  return `(function(exports,require,module,${CHUNK_URL},${IMPORT}){"use strict";${ascii}\n})\n`;
}

/** The module in the chunk's place. `imports` are the specifiers of the chunks it imports, in the chunk's order. */
function moduleOf(imports, exported) {
  const names = exported.map(([, name]) => JSON.stringify(name));
  return [
    ...imports.map((specifier, i) => `import * as i${i} from ${JSON.stringify(specifier)};`),
    "import { runChunkScript } from './code-cache.js';",
    `const { ${names.map((name, i) => `${name}: e${i}`).join(', ')} } = runChunkScript(import.meta.url, { ${imports.map((specifier, i) => `${JSON.stringify(specifier)}: i${i}`).join(', ')} });`,
    `export { ${names.map((name, i) => `e${i} as ${name}`).join(', ')} };`,
    '',
  ].join('\n');
}

/**
 * esbuild's `outputFiles` (path, text, contents), with each chunk of at least SCRIPT_MIN_BYTES replaced by its module and its script (path, text).
 * `codeCache` is the output path of src/code-cache.ts's own chunk (never converted: it runs the others);
 * `requireShim`, the banner esbuild writes at the top of every chunk.
 */
export function chunkScripts(outputFiles, metafile, packageDir, codeCache, requireShim) {
  const files = [];
  for (const file of outputFiles) {
    const path = relative(packageDir, file.path).split('\\').join('/');
    const output = metafile.outputs[path];
    if (!path.startsWith('dist/chunks/') || !path.endsWith('.js') || path === codeCache || output === undefined || output.bytes < SCRIPT_MIN_BYTES) {
      files.push(file);
      continue;
    }
    const imports = [...new Set(output.imports
      .filter((entry) => entry.kind === 'import-statement' && !entry.external)
      .map((entry) => `./${relative(dirname(path), entry.path).split('\\').join('/')}`))];
    const ast = parse(file.text, { ecmaVersion: 'latest', sourceType: 'module', range: true });
    files.push({ path: file.path, text: moduleOf(imports, exportsOf(ast, path)) });
    files.push({ path: file.path.replace(/\.js$/, '.script.js'), text: scriptOf(withoutImportExpressions(ast, file.text), requireShim) });
  }
  return files;
}
