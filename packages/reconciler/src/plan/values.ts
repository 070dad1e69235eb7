/** Small, allocation-light helpers over JSON-like values. */
import { createHash } from 'node:crypto';

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** `null`, missing, `''`, `[]` and `{}` all mean "nothing here" to the service. */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (isPlainObject(value)) {
    // Without building the key list: this runs on every object of every compared pair.
    for (const key in value) if (Object.prototype.hasOwnProperty.call(value, key)) return false;
    return true;
  }
  return false;
}

/** JSON with object keys sorted at every level: the same value always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i += 1) out += `${i === 0 ? '' : ','}${canonicalJson(value[i] === undefined ? null : value[i])}`;
    return `${out}]`;
  }
  if (isPlainObject(value)) {
    let out = '{';
    let first = true;
    for (const key of Object.keys(value).sort(compareStrings)) {
      const child = value[key];
      if (child === undefined || typeof child === 'function') continue;
      out += `${first ? '' : ','}${JSON.stringify(key)}:${canonicalJson(child)}`;
      first = false;
    }
    return `${out}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort(compareStrings)) {
      const child = value[key];
      if (child !== undefined) out[key] = sortKeysDeep(child);
    }
    return out;
  }
  return value;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * SHA-256 over text added piece by piece, hashed in runs of about 64 KiB: the digest of the whole text joined, without
 * holding it (digests over 10,000 objects otherwise keep megabytes of lines alive until the end, which the garbage
 * collector copies again and again). Pieces are whole strings, so no surrogate pair is ever split between runs.
 */
export class HashFeed {
  readonly #hash = createHash('sha256');
  #run = '';

  add(piece: string): void {
    this.#run += piece;
    if (this.#run.length >= 65_536) {
      this.#hash.update(this.#run);
      this.#run = '';
    }
  }

  hex(): string {
    if (this.#run !== '') this.#hash.update(this.#run);
    this.#run = '';
    return this.#hash.digest('hex');
  }
}

/** Code-unit order, independent of locale (`localeCompare` varies between machines). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function escapePointer(segment: string): string {
  if (!segment.includes('~') && !segment.includes('/')) return segment;
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function unescapePointer(segment: string): string {
  if (!segment.includes('~')) return segment;
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

export function pointerOf(segments: readonly string[]): string {
  return segments.map((s) => `/${escapePointer(s)}`).join('');
}

export function segmentsOf(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map(unescapePointer);
}

export function getAt(document: unknown, segments: readonly string[]): unknown {
  let current: unknown = document;
  for (const segment of segments) {
    if (Array.isArray(current)) current = current[Number(segment)];
    else if (isPlainObject(current)) current = Object.prototype.hasOwnProperty.call(current, segment) ? current[segment] : undefined;
    else return undefined;
  }
  return current;
}

/** Deep copy of plain JSON-like data (objects, arrays, scalars); other objects are kept by reference. */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = cloneJson(v);
    return out as T;
  }
  return value;
}
