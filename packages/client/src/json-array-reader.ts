/**
 * A JSON array read as its bytes arrive. The published definition answers a listing as one bare array: 100,000
 * monitors are about 55 MB of text. Read whole, that text is held three times (the network chunks, the joined
 * buffer, the decoded string) while `JSON.parse` builds the array beside it; read here, each run of entries is parsed
 * once its bytes are in, and no more than one run's text is ever held.
 *
 * The bytes are only split, never interpreted: a run of whole entries (cut at a comma between two entries, outside
 * every string and nesting) is handed to `JSON.parse` wrapped in `[` `]`, so every value, number and string is
 * exactly what `JSON.parse` of the whole text gives (the same doubles, the same replacement characters), and a text
 * is accepted exactly when `JSON.parse` would accept it. Cutting bytes at an ASCII comma never splits a UTF-8
 * sequence: no byte of a multi-byte sequence is below 0x80.
 */

import { firstImpreciseInteger, type ImpreciseNumber } from './imprecise-number.js';

/** How many bytes of entries are joined into one `JSON.parse` call: enough that the calls cost nothing beside it. */
const RUN_BYTES = 64 * 1024;
/**
 * What a failure keeps of the body's start, to quote at most 2,000 characters of it (6,000 bytes at most): a secret
 * the caller scrubs from the quote is then whole in it unless it is longer than 10 KB.
 */
const HEAD_BYTES = 16 * 1024;

const OPEN = Buffer.from('[');
const CLOSE = Buffer.from(']');
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** JSON's white space: `JSON.parse` allows nothing else around a value. */
function isJsonSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** The whole array, or why the bytes are not one JSON array and what of them a message may quote. */
export type ArrayReading =
  | { readonly kind: 'array'; readonly items: unknown[]; readonly imprecise?: ImpreciseNumber }
  | { readonly kind: 'malformed'; readonly problem: string; readonly head: string; readonly bytes: number };

/**
 * Whether a body's first bytes (after a whole UTF-8 byte order mark and JSON white space) are `[`: a body worth
 * reading with `JsonArrayReader`. Undefined while nothing else has arrived.
 */
export function startsWithArray(chunks: readonly Buffer[]): boolean | undefined {
  const first = Buffer.concat(chunks.slice(0, 3)).subarray(0, 3);
  let skip = first.equals(BOM) ? 3 : 0;
  for (const chunk of chunks) {
    const from = Math.min(skip, chunk.length);
    skip -= from;
    for (let i = from; i < chunk.length; i += 1) {
      const byte = chunk[i] as number;
      if (!isJsonSpace(byte)) return byte === OPEN_ARRAY;
    }
  }
  return undefined;
}

type State = 'before' | 'inside' | 'after' | 'failed';

/**
 * Feed it the body's chunks with `push`, then `end()`. It never throws: a body that is not one JSON array is an
 * outcome (`malformed`), and the bytes after the point where that became certain are only counted.
 */
export class JsonArrayReader {
  #state: State = 'before';
  #problem = '';
  /** Bytes seen so far (the body's length at the end). */
  #offset = 0;
  /** How many bytes of a byte order mark the body starts with (0 to 3). */
  #bom = 0;
  /** The body's first bytes, a copy, for a message. */
  readonly #head: Buffer[] = [];
  #headLength = 0;
  /** Nesting, the array itself counted (1 between the array's entries). */
  #depth = 0;
  #inString = false;
  /** The previous byte was a backslash inside a string: this one is escaped. */
  #escaped = false;
  /** The current run's bytes (views of the chunks) and their length. */
  #run: Buffer[] = [];
  #runLength = 0;
  /** Where the current run starts in the body, for a message. */
  #runStart = 0;
  /** Whether a run was cut off at a comma: then every run must hold at least one entry (no `[,1]`, no `[1,]`). */
  #cut = false;
  readonly #items: unknown[] = [];
  /** The first integer beyond 2^53 among the entries, if any. */
  #imprecise: ImpreciseNumber | undefined;
  readonly #runBytes: number;

  /** `runBytes`: how many bytes of entries one `JSON.parse` call is given at least (tests cut every entry apart). */
  constructor(options: { runBytes?: number } = {}) {
    this.#runBytes = options.runBytes ?? RUN_BYTES;
  }

  push(chunk: Buffer): void {
    this.#keepHead(chunk);
    let i = this.#state === 'before' ? this.#skipStart(chunk) : 0;
    if (this.#state === 'inside') i = this.#scan(chunk, i);
    if (this.#state === 'after') this.#checkTrailing(chunk, i);
    this.#offset += chunk.length;
  }

  /** The array, or why the body is not one. */
  end(): ArrayReading {
    if (this.#state === 'before') this.#fail(this.#offset === this.#bom ? 'is empty' : 'holds only white space');
    else if (this.#state === 'inside') this.#fail(`ends at byte ${this.#offset} before its array is closed`);
    if (this.#state === 'failed') return { kind: 'malformed', problem: this.#problem, head: Buffer.concat(this.#head).toString('utf8'), bytes: this.#offset };
    return this.#imprecise === undefined ? { kind: 'array', items: this.#items } : { kind: 'array', items: this.#items, imprecise: this.#imprecise };
  }

  /**
   * The entries' bytes from `start` up to the array's closing bracket or the chunk's end, cut into runs at commas
   * between entries; returns where it stopped. The scan state lives in locals: this loop sees every byte.
   */
  #scan(chunk: Buffer, start: number): number {
    let depth = this.#depth;
    let inString = this.#inString;
    let escaped = this.#escaped;
    // Bytes of the chunk from `from` belong to the current run.
    let from = start;
    let i = start;
    while (i < chunk.length) {
      const byte = chunk[i] as number;
      i += 1;
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) inString = false;
      } else if (byte === QUOTE) {
        inString = true;
      } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
        depth += 1;
      } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
        depth -= 1;
        if (depth === 0) {
          this.#addToRun(chunk.subarray(from, i - 1));
          if (byte === CLOSE_ARRAY) this.#parseRun(this.#offset + i - 1);
          else this.#fail(`closes its array with } (byte ${this.#offset + i - 1})`);
          if (this.#state === 'inside') this.#state = 'after';
          return i;
        }
      } else if (byte === COMMA && depth === 1 && this.#runLength + (i - 1 - from) >= this.#runBytes) {
        this.#addToRun(chunk.subarray(from, i - 1));
        this.#cut = true;
        this.#parseRun(this.#offset + i - 1);
        if (this.#state !== 'inside') return i;
        this.#runStart = this.#offset + i;
        from = i;
      }
    }
    this.#addToRun(chunk.subarray(from));
    this.#depth = depth;
    this.#inString = inString;
    this.#escaped = escaped;
    return i;
  }

  #keepHead(chunk: Buffer): void {
    if (this.#headLength >= HEAD_BYTES) return;
    const part = Buffer.from(chunk.subarray(0, HEAD_BYTES - this.#headLength));
    this.#head.push(part);
    this.#headLength += part.length;
  }

  /**
   * Skips a byte order mark (only a whole one, and only at the start: as the body's text is decoded) and white space
   * up to the array's `[`; returns the index after it, or the chunk's end.
   */
  #skipStart(chunk: Buffer): number {
    for (let i = 0; i < chunk.length; i += 1) {
      const at = this.#offset + i;
      const byte = chunk[i] as number;
      if (at < 3 && at === this.#bom && byte === BOM[at]) {
        this.#bom += 1;
        continue;
      }
      if (this.#bom === 1 || this.#bom === 2) {
        this.#fail('starts with part of a byte order mark');
        return chunk.length;
      }
      if (isJsonSpace(byte)) continue;
      if (byte !== OPEN_ARRAY) {
        this.#fail(`does not start with [ (byte ${at})`);
        return chunk.length;
      }
      this.#state = 'inside';
      this.#depth = 1;
      this.#runStart = at + 1;
      return i + 1;
    }
    return chunk.length;
  }

  #addToRun(part: Buffer): void {
    if (part.length === 0) return;
    this.#run.push(part);
    this.#runLength += part.length;
  }

  /** The current run's entries onto the array; `end` is the byte that ended the run (a comma or the closing `]`). */
  #parseRun(end: number): void {
    const run = this.#run;
    this.#run = [];
    this.#runLength = 0;
    let entries: unknown[];
    try {
      const text = Buffer.concat([OPEN, ...run, CLOSE]).toString('utf8');
      entries = JSON.parse(text) as unknown[];
      // Read as JSON.parse reads it; the transport refuses the answer (imprecise-number.ts).
      this.#imprecise ??= firstImpreciseInteger(text);
    } catch {
      this.#fail(`is not valid JSON between bytes ${this.#runStart} and ${end}`);
      return;
    }
    if (entries.length === 0 && this.#cut) {
      this.#fail(`has an empty entry between bytes ${this.#runStart} and ${end}`);
      return;
    }
    for (const entry of entries) this.#items.push(entry);
  }

  /** After the array only white space may follow. */
  #checkTrailing(chunk: Buffer, from: number): void {
    for (let i = from; i < chunk.length; i += 1) {
      if (!isJsonSpace(chunk[i] as number)) {
        this.#fail(`has more after its array (byte ${this.#offset + i})`);
        return;
      }
    }
  }

  #fail(problem: string): void {
    this.#state = 'failed';
    this.#problem = problem;
    this.#run = [];
    this.#runLength = 0;
    this.#items.length = 0;
  }
}
