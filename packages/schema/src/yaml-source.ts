import { LineCounter, isAlias, isMap, isPair, isScalar, isSeq, parseAllDocuments, type Document, type Node, type ParsedNode, type Scalar } from 'yaml';
import type { Diagnostic, DiagnosticCode } from './diagnostics.js';
import { DIAGNOSTIC_CODES } from './diagnostics.js';

/** Files above this size are not parsed at all (docs/architecture.md, The config format). */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

/**
 * Deepest nesting of mappings and lists a config file may have. Real trees need under ten levels; without a limit a
 * file of many thousand `[` exhausts the stack of the parser or of the loader, which would report the stack instead
 * of the place.
 */
export const MAX_NESTING = 64;

/** Tags whose values are plain data (strings, numbers, booleans, null, mappings, lists), written out or implied. */
const PLAIN_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => `tag:yaml.org,2002:${t}`));

/** Keys that would reach `Object.prototype` or a constructor if some consumer assigned them naively. */
export const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export type PathSegment = string | number;

/** The path a JSON pointer (ajv's `instancePath`) names, array indexes as numbers, as `YamlSource.position` takes it. */
export function pointerToPath(pointer: string): PathSegment[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^(0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : segment));
}

export interface Position {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** One parsed YAML file with everything needed to point at its nodes. */
export class YamlSource {
  readonly file: string;
  readonly text: string;
  readonly value: unknown;
  readonly diagnostics: Diagnostic[] = [];
  /** Start offsets of refused nodes (aliases): schema findings about their stand-in value are noise. */
  readonly refusedOffsets = new Set<number>();
  private aliasCount = 0;
  readonly #lineCounter = new LineCounter();
  readonly #doc: Document.Parsed | undefined;

  constructor(file: string, raw: string) {
    this.file = file;
    // CR-only and CRLF line ends read as LF: the parser knows only LF, and read a CR-only file as one broken line.
    // Lines and columns stay those an editor shows, whatever its line-ending style.
    const text = raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw;
    this.text = text;
    const tooDeep = flowTooDeep(text);
    if (tooDeep !== undefined) {
      // Not parsed, so the line counter is filled here.
      this.#lineCounter.addNewLine(0);
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.#lineCounter.addNewLine(i + 1);
      this.report('YAML_TOO_DEEP', nestedMessage(), tooDeep, tooDeep + 1, { hint: NESTED_HINT });
      this.value = undefined;
      return;
    }
    const docs = parseAllDocuments(text, {
      lineCounter: this.#lineCounter,
      uniqueKeys: true,
      merge: false,
      prettyErrors: false,
      strict: true,
      version: '1.2',
      schema: 'core',
      keepSourceTokens: false,
    });
    const list = Array.isArray(docs) ? docs : [];
    this.#doc = list[0];
    for (const extra of list.slice(1)) {
      this.report('MULTIPLE_DOCUMENTS', 'a config file holds exactly one YAML document; this is a second one', extra.range[0], extra.range[1], {
        hint: 'move the second document into its own file, or remove the `---` separator',
      });
    }
    if (this.#doc === undefined) {
      this.value = undefined;
      return;
    }
    // After a syntax error the parser reads what follows out of place and complains of most of it (an unclosed `[`
    // gives a dozen errors): the first is the cause, and the only one reported.
    const syntaxErrors = this.#doc.errors.filter((error) => error.code !== 'DUPLICATE_KEY' && !/call stack/i.test(error.message));
    const cause = syntaxErrors.reduce<(typeof syntaxErrors)[number] | undefined>((first, error) => (first === undefined || error.pos[0] < first.pos[0] ? error : first), undefined);
    for (const error of this.#doc.errors) {
      if (/call stack/i.test(error.message)) {
        this.report('YAML_TOO_DEEP', nestedMessage(), error.pos[0], error.pos[1], { hint: NESTED_HINT });
        continue;
      }
      if (error.code !== 'DUPLICATE_KEY' && error !== cause) continue;
      const code: DiagnosticCode = error.code === 'DUPLICATE_KEY' ? 'DUPLICATE_YAML_KEY' : 'YAML_SYNTAX';
      // The key as written where the parser points (its start), up to its colon, so the message names it.
      const key = /^("[^"\n]*"|'[^'\n]*'|[^:\n]*?)\s*:/.exec(this.text.slice(error.pos[0], error.pos[0] + 200))?.[1]?.trim() ?? '';
      const named = key === '' || key.length > 80 || /[\r\n]/.test(key) ? 'this key' : `the key ${JSON.stringify(key)}`;
      const message = code === 'DUPLICATE_YAML_KEY' ? `${named} appears twice in the same mapping` : firstLine(error.message);
      const later = syntaxErrors.length - 1;
      const after = later > 0 ? ` (the parser's ${later} later complaint${later === 1 ? '' : 's'} follow${later === 1 ? 's' : ''} from this one and ${later === 1 ? 'is' : 'are'} not shown)` : '';
      this.report(code, message, error.pos[0], error.pos[1], { hint: code === 'DUPLICATE_YAML_KEY' ? 'keep one of the two entries' : `nothing else in this file is checked until it parses${after}` });
    }
    // An unresolved tag is refused where the value is converted (YAML_TAG), not only warned about.
    for (const warning of this.#doc.warnings) if (warning.code !== 'TAG_RESOLVE_FAILED') this.report('YAML_WARNING', firstLine(warning.message), warning.pos[0], warning.pos[1]);
    const contents = this.#doc.contents;
    if (contents !== null && !isMap(contents) && !(isScalar(contents) && contents.value === null)) {
      this.reportNode('ROOT_NOT_MAPPING', 'a config file must be a mapping of top-level keys (monitors:, slas:, ...)', contents);
    }
    const deep = contents === null ? undefined : deepNode(contents);
    if (deep !== undefined) {
      this.reportNode('YAML_TOO_DEEP', nestedMessage(), deep, { hint: NESTED_HINT });
      this.value = undefined;
      return;
    }
    this.value = contents === null ? undefined : this.toValue(contents);
    const first = this.diagnostics.find((d) => d.code === 'YAML_ALIAS');
    if (first !== undefined && this.aliasCount > 1) first.message += ` (${this.aliasCount} aliases in this file)`;
  }

  /** Whether a diagnostic sits on a node that was refused and replaced by a stand-in. */
  isRefused(line: number, column: number): boolean {
    for (const offset of this.refusedOffsets) {
      const pos = this.linePos(offset);
      if (pos.line === line && pos.column === column) return true;
    }
    return false;
  }

  /** Converts the AST by hand so that positions stay known and hazardous constructs are refused, not resolved. */
  private toValue(node: ParsedNode | Node | null): unknown {
    if (node === null) return null;
    if (!isAlias(node) && node.tag !== undefined && !PLAIN_TAGS.has(node.tag)) {
      // `!!binary` decodes to bytes, `!!timestamp` to a Date, `!!set` to a Set, a custom tag to whatever a reader
      // makes of it: none is data the API takes as written, and each would be sent as something else.
      const shown = node.tag.startsWith('tag:yaml.org,2002:') ? `!!${node.tag.slice('tag:yaml.org,2002:'.length)}` : node.tag;
      const start = node.range?.[0] ?? 0;
      // The node's range starts after its tag (on the same line or an earlier one): point at the tag itself.
      let from = start;
      while (from > 0 && /\s/.test(this.text[from - 1] ?? '')) from -= 1;
      while (from > 0 && !/\s/.test(this.text[from - 1] ?? '')) from -= 1;
      if (this.text[from] !== '!') from = start;
      this.report('YAML_TAG', `the tag ${shown} is not allowed: a config file holds plain strings, numbers, booleans, mappings and lists`, from, node.range?.[1] ?? start, {
        hint: 'remove the tag; quote the value to keep it a string',
      });
      this.refusedOffsets.add(node.range?.[0] ?? -1);
      return null;
    }
    if (isAlias(node)) {
      // One diagnostic per file: an alias bomb has thousands of aliases and one mistake.
      this.aliasCount += 1;
      if (this.aliasCount === 1) {
        this.reportNode('YAML_ALIAS', `aliases are not allowed (here *${node.source}); write the value out`, node, {
          hint: 'aliases are refused so that a small file cannot expand into a huge one (alias bombs)',
        });
      }
      this.refusedOffsets.add(node.range?.[0] ?? -1);
      return null;
    }
    if (isScalar(node)) return this.scalarValue(node, 'string');
    if (isSeq(node)) return node.items.map((item) => this.toValue(item as Node | null));
    if (isMap(node)) {
      const out: Record<string, unknown> = {};
      for (const pair of node.items) {
        const key = pair.key as Node | null;
        if (!isScalar(key) || key.value === null || typeof key.value === 'object') {
          this.reportNode('NON_STRING_KEY', 'mapping keys must be plain names', key ?? node);
          continue;
        }
        if (this.scalarValue(key, 'key') === null) continue;
        const name = String(key.value);
        if (name === '<<') {
          this.reportNode('MERGE_KEY', 'merge keys (<<) are not allowed; write the fields out', key);
          continue;
        }
        if (FORBIDDEN_KEYS.has(name)) {
          this.reportNode('FORBIDDEN_KEY', `the key \`${name}\` is not allowed`, key, { hint: 'it could alter object prototypes in tools that read the file' });
          continue;
        }
        // Safe as a plain assignment: `__proto__`, the one key with a setter on plain objects, was refused above.
        out[name] = this.toValue(pair.value as Node | null);
      }
      return out;
    }
    return null;
  }

  /**
   * A scalar's value, or null (reported, and its node refused) where the value would not reach the API as written: a
   * number JSON cannot carry, a number a double cannot hold exactly, a string with a NUL character.
   */
  private scalarValue(node: Scalar, role: 'key' | 'string'): unknown {
    const value = node.value;
    const range = node.range ?? [0, 0, 0];
    if (typeof value === 'number') {
      const written = this.text.slice(range[0], range[1]).trim();
      if (!Number.isFinite(value)) {
        // JSON has no NaN or Infinity: JSON.stringify would send null, silently changing the value.
        this.reportNode('NON_FINITE_NUMBER', `\`${written}\` is not a finite number: YAML special floats (.nan, .inf) and numbers beyond the range of a double are not JSON numbers, so the API cannot receive them`, node, {
          hint: 'write a finite number, or quote the value if a string is meant',
        });
        this.refusedOffsets.add(range[0]);
        return null;
      }
      if (!holdsExactly(written, value)) {
        this.reportNode('IMPRECISE_NUMBER', imprecision(written, value), node, {
          hint: `quote it (\`"${written}"\`) if it is an identifier or a code; otherwise write a number of at most 15 significant digits (integers between -9007199254740991 and 9007199254740991)`,
        });
        this.refusedOffsets.add(range[0]);
        return null;
      }
      return value;
    }
    if (typeof value === 'string' && value.includes('\0')) {
      this.report('NUL_CHARACTER', `this ${role} holds a NUL character (U+0000): text fields of the service cannot hold it, and tools that read C strings would cut the text there`, this.nulOffset(range[0], range[1]), range[1], {
        hint: 'remove the NUL character (a raw 0x00 byte, or a `\\0`, `\\x00` or `\\u0000` escape)',
      });
      this.refusedOffsets.add(range[0]);
      return null;
    }
    return value;
  }

  /** Where in `[start, end)` the NUL is written: the raw byte or its escape; the scalar's start if neither is found. */
  private nulOffset(start: number, end: number): number {
    const source = this.text.slice(start, end);
    const raw = source.indexOf('\0');
    if (raw >= 0) return start + raw;
    const escaped = /\\(?:0|x00|u0000|U00000000)/.exec(source);
    return escaped === null ? start : start + escaped.index;
  }

  report(code: DiagnosticCode, message: string, start: number, end: number, extra: { hint?: string; severity?: Diagnostic['severity'] } = {}): void {
    const from = this.linePos(start);
    const to = this.linePos(Math.max(start, end));
    const diagnostic: Diagnostic = {
      severity: extra.severity ?? DIAGNOSTIC_CODES[code].severity,
      code,
      message,
      file: this.file,
      line: from.line,
      column: from.column,
      endLine: to.line,
      endColumn: to.column,
    };
    if (extra.hint !== undefined) diagnostic.hint = extra.hint;
    this.diagnostics.push(diagnostic);
  }

  private reportNode(code: DiagnosticCode, message: string, node: Node, extra: { hint?: string } = {}): void {
    const range = node.range ?? [0, 0, 0];
    this.report(code, message, range[0], range[1], extra);
  }

  linePos(offset: number): { line: number; column: number } {
    const { line, col } = this.#lineCounter.linePos(offset);
    return { line: Math.max(1, line), column: Math.max(1, col) };
  }

  private rangePosition(range: readonly [number, number, number] | null | undefined): Position {
    const [start, end] = range ?? [0, 0];
    const from = this.linePos(start);
    const to = this.linePos(Math.max(start, end));
    return { line: from.line, column: from.column, endLine: to.line, endColumn: to.column };
  }

  /**
   * Position of the value at `path`, or of its key (`at: 'key'`). When the path does not exist, the position of
   * the deepest node that does.
   */
  position(path: readonly PathSegment[], at: 'value' | 'key' = 'value'): Position {
    let node: unknown = this.#doc?.contents ?? null;
    let keyNode: Node | undefined;
    let last: Node | undefined = (node as Node | null) ?? undefined;
    for (const segment of path) {
      keyNode = undefined;
      if (isMap(node)) {
        const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(segment));
        if (pair === undefined) break;
        keyNode = pair.key as Node;
        node = pair.value;
        last = (pair.value as Node | null) ?? keyNode;
        if (pair.value === null || (isScalar(pair.value) && pair.value.range?.[0] === pair.value.range?.[1])) {
          // `key:` with nothing after it: point at the key.
          node = null;
          last = keyNode;
        }
      } else if (isSeq(node) && typeof segment === 'number') {
        const item = node.items[segment] as Node | undefined;
        if (item === undefined) break;
        node = item;
        last = item;
      } else {
        break;
      }
    }
    if (at === 'key' && keyNode !== undefined) return this.rangePosition(keyNode.range);
    return this.rangePosition(last?.range);
  }
}

const NESTED_HINT = `flatten the structure; config files nest mappings and lists at most ${MAX_NESTING} deep`;
const nestedMessage = () => `mappings and lists are nested more than ${MAX_NESTING} levels deep here`;

/**
 * Offset of the first flow bracket (`[` or `{`) opened beyond MAX_NESTING, skipping quoted strings and comments;
 * checked before parsing because the parser itself recurses on flow collections.
 */
function flowTooDeep(text: string): number | undefined {
  if (!/[[{]/.test(text)) return undefined;
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote !== undefined) {
      if (c === '\\' && quote === '"') i += 1;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '"' || c === "'") {
      // A quote opens a string only where a scalar can start (not inside `don't`).
      const before = i === 0 ? ' ' : text[i - 1];
      if (before === undefined || /[\s,[{:]/.test(before)) quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(text[i - 1] ?? ' '))) {
      const end = text.indexOf('\n', i);
      if (end < 0) break;
      i = end;
    } else if (c === '[' || c === '{') {
      depth += 1;
      if (depth > MAX_NESTING) return i;
    } else if ((c === ']' || c === '}') && depth > 0) depth -= 1;
  }
  return undefined;
}

/** The first node nested more than MAX_NESTING collections deep, found without recursion. */
function deepNode(root: Node): Node | undefined {
  const stack: { node: Node; depth: number }[] = [{ node: root, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: Node; depth: number };
    if (!isMap(node) && !isSeq(node)) continue;
    if (depth >= MAX_NESTING) return node;
    for (const item of node.items as unknown[]) {
      const child = isPair(item) ? item.value : item;
      if (child !== null && typeof child === 'object' && (isMap(child) || isSeq(child))) stack.push({ node: child as Node, depth: depth + 1 });
    }
  }
  return undefined;
}

/** `sign digits e exponent` with no leading or trailing zero digit: two decimals are the same number when these match. */
function decimalKey(text: string): string | undefined {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (match === null) return undefined;
  const fraction = match[3] ?? '';
  let digits = `${match[2] ?? ''}${fraction}`.replace(/^0+/, '');
  let exponent = Number(match[4] ?? '0') - fraction.length;
  if (digits === '') return '0';
  const trailing = /0*$/.exec(digits)?.[0].length ?? 0;
  digits = digits.slice(0, digits.length - trailing);
  exponent += trailing;
  return `${match[1] === '-' ? '-' : ''}${digits}e${exponent}`;
}

/**
 * Whether the number as written is the number a double holds, so JSON sends what the file says. Hexadecimal and
 * octal integers (`0x1F`, `0o17`) are exact while they are safe integers.
 */
function holdsExactly(written: string, value: number): boolean {
  const key = decimalKey(written);
  if (key === undefined) return Number.isSafeInteger(value);
  return key === decimalKey(String(value).replace(/e\+/, 'e'));
}

function imprecision(written: string, value: number): string {
  const sent = JSON.stringify(value);
  const why = Number.isInteger(value) && !Number.isSafeInteger(value) ? 'integers beyond 2^53, 9007199254740992, lose their last digits' : 'a double holds about 15 to 17 significant digits';
  return `\`${written}\` cannot be held exactly as a number: it would be sent as ${sent} (${why})`;
}

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '').trim();
}
