/**
 * Edits of a YAML file's text in place, for `pull --into`: each edit replaces, removes or inserts the text of one
 * node, found through the `yaml` package's parsed documents (their node ranges are offsets into the text), and
 * every other byte of the file stays as it was: comments, blank lines, key order, quoting, anchors, flow or block
 * style, line endings (CRLF files get CRLF lines) and every document of a multi-document file.
 */
import { isCollection, isMap, isScalar, isSeq, parseAllDocuments, type Document, type Node, type Pair, type Scalar, type YAMLMap, type YAMLSeq } from 'yaml';
import { blockLines, flowText, scalar } from './yaml-writer.js';

interface Splice {
  start: number;
  end: number;
  text: string;
  /** Insertions at one offset stay in the order they were made. */
  order: number;
}

export type EditableMap = YAMLMap<unknown, unknown>;
export type EditableSeq = YAMLSeq<unknown>;

function rangeOf(node: unknown): [number, number, number] {
  const range = (node as { range?: [number, number, number] | null }).range;
  if (range === undefined || range === null) throw new TypeError('a node of a parsed document has no range');
  return range;
}

/** One file of the tree, its documents parsed, and the edits made to it so far. */
export class EditableFile {
  readonly documents: Document.Parsed[];
  readonly newline: string;
  readonly #splices: Splice[] = [];

  constructor(
    readonly path: string,
    readonly text: string,
  ) {
    this.documents = parseAllDocuments(text, { version: '1.2', schema: 'core', uniqueKeys: false }) as Document.Parsed[];
    this.newline = text.includes('\r\n') ? '\r\n' : '\n';
  }

  get changed(): boolean {
    return this.#splices.length > 0;
  }

  /** The text with every edit made. */
  result(): string {
    const splices = [...this.#splices].sort((a, b) => b.start - a.start || b.order - a.order);
    let out = this.text;
    let floor = Number.POSITIVE_INFINITY;
    for (const splice of splices) {
      // Two edits of one stretch of text would garble it: the planner never makes them, so this is a bug.
      if (splice.end > floor) throw new Error(`overlapping edits in ${this.path} at offset ${splice.start}`);
      out = out.slice(0, splice.start) + splice.text + out.slice(splice.end);
      floor = splice.start;
    }
    return out;
  }

  #splice(start: number, end: number, text: string): void {
    this.#splices.push({ start, end, text: text.replace(/\r?\n/g, this.newline), order: this.#splices.length });
  }

  #lineStart(offset: number): number {
    return this.text.lastIndexOf('\n', offset - 1) + 1;
  }

  /** The offset after the end of the line `offset` is on (after its newline). */
  #lineEnd(offset: number): number {
    if (offset > 0 && this.text[offset - 1] === '\n') return offset;
    const newline = this.text.indexOf('\n', offset);
    return newline < 0 ? this.text.length : newline + 1;
  }

  #column(offset: number): number {
    return offset - this.#lineStart(offset);
  }

  /** The start of the comment lines right above the line of `offset`, written at its indentation: they go with it. */
  #withLeadingComments(offset: number): number {
    const column = this.#column(offset);
    let start = this.#lineStart(offset);
    while (start > 0) {
      const previous = this.#lineStart(start - 1);
      const line = this.text.slice(previous, start).replace(/\r?\n$/, '');
      const indent = line.length - line.trimStart().length;
      if (!line.trimStart().startsWith('#') || indent !== column) break;
      start = previous;
    }
    return start;
  }

  /** Whether the node is written inside a flow collection (or is one), where only flow text fits. */
  #inFlow(node: Node, parents: readonly Node[]): boolean {
    return (isCollection(node) && node.flow === true) || parents.some((parent) => isCollection(parent) && parent.flow === true);
  }

  /**
   * Replaces a node's value. A scalar keeps its quoting style where the new value allows it; a block collection is
   * written again in block style at its indentation; anything else in flow style.
   */
  replace(node: Node, value: unknown, parents: readonly Node[]): void {
    const [start, end] = rangeOf(node);
    if (isScalar(node) && isScalarValue(value)) {
      this.#replaceKeepingComment(start, end, scalarLike(node, value));
      return;
    }
    if (isCollection(node) && !this.#inFlow(node, parents) && !isScalarValue(value)) {
      const indent = ' '.repeat(this.#column(start));
      const lines = Array.isArray(value) ? value.flatMap((item) => blockLines(item, indent, 'item')) : blockLines(value, indent, 'pairs');
      this.#splice(start, this.#lineEnd(end), `${lines.join('\n').slice(indent.length)}\n`);
      return;
    }
    this.#splice(start, end, flowText(value));
  }

  /** Replaces a field of a block mapping, key and scalar value, by another (a comment after it on its line stays). */
  replacePair(pair: Pair, key: string, value: string | number | boolean | null): void {
    const start = rangeOf(pair.key)[0];
    const end = rangeOf(pair.value ?? pair.key)[1];
    this.#replaceKeepingComment(start, end, `${scalar(key)}: ${scalar(value)}`);
  }

  /**
   * Writes an entry of a block sequence again, in block style at its indentation (a flow mapping that outgrew one
   * line); the comment lines above it and a comment after it on its line stay. Inside a flow sequence, in flow style.
   */
  replaceItem(seq: EditableSeq, item: Node, value: unknown, parents: readonly Node[]): void {
    if (seq.flow === true || this.#inFlow(seq, parents)) {
      this.#splice(rangeOf(item)[0], rangeOf(item)[1], flowText(value));
      return;
    }
    const [start, end] = rangeOf(item);
    const dash = this.#dashOffset(start);
    const lineEnd = this.#lineEnd(end);
    const trailing = /^([ \t]+#[^\r\n]*)/.exec(this.text.slice(end, lineEnd))?.[1] ?? '';
    const lines = blockLines(value, ' '.repeat(this.#column(dash)), 'item');
    lines[0] = `${lines[0] ?? ''}${trailing}`;
    this.#splice(dash, lineEnd, `${lines.join('\n').slice(this.#column(dash))}\n`);
  }

  /** Replaces text on one line; a comment after it on that line stays at its column where the padding allows. */
  #replaceKeepingComment(start: number, end: number, text: string): void {
    const padding = /^( +)#/.exec(this.text.slice(end, this.#lineEnd(end)));
    const grow = text.length - (end - start);
    if (padding?.[1] === undefined || grow === 0 || /[\r\n]/.test(this.text.slice(start, end))) {
      this.#splice(start, end, text);
      return;
    }
    const spaces = Math.max(1, padding[1].length - grow);
    this.#splice(start, end + padding[1].length, text + ' '.repeat(spaces));
  }

  /**
   * A removed block of lines between two blank lines takes one of them along, so that entries stay one blank line
   * apart as they were.
   */
  #removeLines(start: number, end: number): void {
    const blank = (from: number) => /^[ \t]*\r?\n/.exec(this.text.slice(from, this.text.indexOf('\n', from) + 1));
    const after = end < this.text.length ? blank(end) : null;
    const before = start > 0 ? blank(this.#lineStart(start - 1)) : null;
    this.#splice(start, after !== null && before !== null ? end + after[0].length : end, '');
  }

  /** Removes an entry of a sequence with the comment lines above it; an emptied block sequence becomes `[]`. */
  removeItem(seq: EditableSeq, item: unknown, owner: Pair | undefined, emptied: boolean): void {
    const index = seq.items.indexOf(item);
    if (index < 0) return;
    if (seq.flow === true) {
      this.#removeFlowEntry(seq.items.map((entry) => rangeOf(entry)), index);
      return;
    }
    const [start, end] = rangeOf(item);
    this.#removeLines(this.#withLeadingComments(this.#dashOffset(start)), this.#lineEnd(end));
    if (emptied && owner !== undefined) this.#afterColon(owner, ' []');
  }

  /** Removes a field of a mapping (key, value and the comment lines above it). */
  removePair(map: EditableMap, pair: Pair): void {
    const index = map.items.indexOf(pair as Pair<unknown, unknown>);
    if (index < 0) return;
    const ranges = map.items.map((entry) => [rangeOf(entry.key)[0], rangeOf(entry.value ?? entry.key)[1]] as [number, number]);
    if (map.flow === true) {
      this.#removeFlowEntry(ranges, index);
      return;
    }
    const [start, end] = ranges[index] as [number, number];
    this.#removeLines(this.#withLeadingComments(start), this.#lineEnd(end));
  }

  /** Adds an entry at the end of a sequence, in the style of its last entry (flow `{ ... }` or block). */
  appendItem(seq: EditableSeq, value: unknown, parents: readonly Node[]): void {
    const last = seq.items[seq.items.length - 1] as Node | undefined;
    if (seq.flow === true || this.#inFlow(seq, parents)) {
      if (last === undefined) this.#splice(rangeOf(seq)[0] + 1, rangeOf(seq)[0] + 1, flowText(value));
      else this.#splice(rangeOf(last)[1], rangeOf(last)[1], `, ${flowText(value)}`);
      return;
    }
    if (last === undefined) return;
    const dash = this.#dashOffset(rangeOf(last)[0]);
    const indent = ' '.repeat(this.#column(dash));
    const flowSibling = isCollection(last) && last.flow === true && !isScalarValue(value);
    const lines = flowSibling ? [`${indent}- ${flowText(value)}`] : blockLines(value, indent, 'item');
    this.#insertLines(this.#lineEnd(rangeOf(last)[1]), lines);
  }

  /** Adds a field at the end of a mapping; in a block mapping, below the `comment` lines given. */
  appendPair(map: EditableMap, key: string, value: unknown, parents: readonly Node[], comment: readonly string[] = []): void {
    const last = map.items[map.items.length - 1];
    if (map.flow === true || this.#inFlow(map, parents)) {
      const text = `${scalar(key)}: ${flowText(value)}`;
      if (last === undefined) this.#splice(rangeOf(map)[0] + 1, rangeOf(map)[0] + 1, ` ${text} `);
      else this.#splice(rangeOf(last.value ?? last.key)[1], rangeOf(last.value ?? last.key)[1], `, ${text}`);
      return;
    }
    if (last === undefined) return;
    const indent = ' '.repeat(this.#column(rangeOf(last.key)[0]));
    this.#insertLines(this.#lineEnd(rangeOf(last.value ?? last.key)[1]), [...comment.map((line) => `${indent}# ${line}`), ...blockLines({ [key]: value }, indent, 'pairs')]);
  }

  /** Appends text at the end of the file (a new top-level field), on a line of its own. */
  appendText(lines: readonly string[]): void {
    const end = this.text.length;
    const lead = end === 0 || this.text.endsWith('\n') ? '' : '\n';
    this.#splice(end, end, `${lead}${lines.join('\n')}\n`);
  }

  #insertLines(offset: number, lines: readonly string[]): void {
    const lead = offset > 0 && this.text[offset - 1] !== '\n' ? '\n' : '';
    this.#splice(offset, offset, `${lead}${lines.join('\n')}\n`);
  }

  /** The `-` of a block sequence entry whose node starts at `start`. */
  #dashOffset(start: number): number {
    const lineStart = this.#lineStart(start);
    const dash = this.text.lastIndexOf('-', start);
    return dash >= lineStart ? dash : start;
  }

  #afterColon(pair: Pair, text: string): void {
    const colon = this.text.indexOf(':', rangeOf(pair.key)[1]);
    if (colon >= 0) this.#splice(colon + 1, colon + 1, text);
  }

  /** Removes one entry of a flow collection with the comma that separated it from a neighbour. */
  #removeFlowEntry(ranges: readonly (readonly [number, number, ...number[]])[], index: number): void {
    const own = ranges[index] as readonly [number, number];
    const next = ranges[index + 1];
    const previous = ranges[index - 1];
    if (next !== undefined) this.#splice(own[0], next[0], '');
    else if (previous !== undefined) this.#splice(previous[1], own[1], '');
    else this.#splice(own[0], own[1], '');
  }
}

type ScalarValue = string | number | boolean | null;

export function isScalarValue(value: unknown): value is ScalarValue {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** The new value written as the old one was: a double- or single-quoted string stays quoted so. */
function scalarLike(node: Scalar, value: ScalarValue): string {
  if (typeof value === 'string' && node.type === 'QUOTE_DOUBLE') return JSON.stringify(value);
  if (typeof value === 'string' && node.type === 'QUOTE_SINGLE' && !/[\n\r]/.test(value)) return `'${value.replaceAll("'", "''")}'`;
  return scalar(value);
}

export { isMap, isScalar, isSeq };
