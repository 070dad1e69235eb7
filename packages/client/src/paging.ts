/**
 * Lists. Cursor-paginated lists answer `{ Data: [...], Cursors: { Next, Self } }`; other lists answer a bare
 * array. Either form is accepted on every list (docs/architecture.md, API assumptions), so a family that starts paginating later keeps
 * working.
 */

export interface Cursors {
  next?: string;
  self?: string;
}

export interface Page<T> {
  items: T[];
  cursors: Cursors;
}

/** Returns undefined when the body is neither a bare array nor a `{ Data: [] }` envelope. */
export function readPage<T>(body: unknown): Page<T> | undefined {
  if (Array.isArray(body)) return { items: body as T[], cursors: {} };
  if (body === null || typeof body !== 'object') return undefined;
  const data = (body as { Data?: unknown }).Data;
  if (!Array.isArray(data)) return undefined;
  const cursors: Cursors = {};
  const raw = (body as { Cursors?: unknown }).Cursors;
  if (raw !== null && typeof raw === 'object') {
    const { Next, Self } = raw as { Next?: unknown; Self?: unknown };
    if (typeof Next === 'string' && Next !== '') cursors.next = Next;
    if (typeof Self === 'string' && Self !== '') cursors.self = Self;
  }
  return { items: data as T[], cursors };
}

/**
 * How a batch's fetcher may report the next cursor before the batch itself is ready (e.g. read from the end of the
 * response text, before it is parsed); returns whether the next batch was requested on it.
 */
export type NextCursorSeen = (next: string) => boolean;

export interface ToArrayOptions {
  /**
   * Called when the answer to what looks like the last batch (no cursor at the end of its text) has arrived, before
   * it is parsed; the parse then waits until requests started from this call have gone out. A reader with more
   * listings queued than it lets run starts the next one here, so its request overlaps this batch's parse rather than
   * waiting for it. May be called again if a batch turns out to name a next cursor after all.
   */
  answered?: () => void;
}

/**
 * The cursors at the very end of a list response, `..."Cursors":{"Next":"<cursor>","Self":"<cursor>"}}`, as the
 * service serialises the envelope; undefined for any other form (which is then simply parsed first). When the text
 * ends this way the parsed envelope's `Cursors.Next` is that string (the last member of the outermost object), so a
 * request started on it is the one that would follow anyway. No text (a large array, read as it arrived) names none.
 */
const CURSORS_AT_END = /,"Cursors":\{"Next":("(?:[^"\\]|\\.)+"),"Self":"(?:[^"\\]|\\.)*"\}\}\s*$/;

export function nextCursorAtEnd(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  // Only the tail is searched: the regular expression would otherwise try every comma of a 50 KB batch. A body that
  // does not end with an object in an object (a bare array: every per-parent listing) is not searched at all.
  const tail = text.length > 4096 ? text.slice(-4096) : text;
  if (!tail.trimEnd().endsWith('}}')) return undefined;
  const match = CURSORS_AT_END.exec(tail);
  if (match?.[1] === undefined) return undefined;
  let next: unknown;
  try {
    next = JSON.parse(match[1]);
  } catch {
    // Not a valid JSON string: the parse of the whole body will say what is wrong with it.
    return undefined;
  }
  return typeof next === 'string' && next !== '' ? next : undefined;
}

/**
 * An async iterable over every item of a list, fetching the next batch only when the previous one is used
 * up. Each iteration starts again from the first batch.
 */
export class Paged<T> implements AsyncIterable<T> {
  readonly #fetchPage: (cursor: string | undefined, seen?: NextCursorSeen, answered?: () => void) => Promise<Page<T>>;
  readonly #repeatedCursor: (cursor: string) => Error;

  /**
   * @param fetchPage fetches one batch; `toArray` passes it a `NextCursorSeen` it may call to have the next batch
   *   requested while this one is still being read, and its caller's `answered`
   * @param repeatedCursor builds the error raised when the service hands back a cursor twice
   */
  constructor(
    fetchPage: (cursor: string | undefined, seen?: NextCursorSeen, answered?: () => void) => Promise<Page<T>>,
    repeatedCursor: (cursor: string) => Error = (c) => new Error(`the service returned cursor ${JSON.stringify(c)} twice`),
  ) {
    this.#fetchPage = fetchPage;
    this.#repeatedCursor = repeatedCursor;
  }

  /** Every batch in order, each with its cursors. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (;;) {
      const page = await this.#fetchPage(cursor);
      yield page;
      const next = page.cursors.next;
      if (next === undefined) return;
      // A service bug handing back an old cursor would otherwise loop for ever.
      if (seen.has(next)) throw this.#repeatedCursor(next);
      seen.add(next);
      cursor = next;
    }
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for await (const page of this.pages()) yield* page.items;
  }

  /**
   * The same walk as `pages()`, without an async generator's extra turns between one batch and the next request,
   * and with the next batch requested as soon as the fetcher reports its cursor: a long cursor chain then overlaps
   * reading each batch with waiting for the next, and makes exactly the requests the plain walk makes. The batches
   * are joined once at the end, not item by item: a read lists ten thousand monitors, and most listings are one batch.
   */
  async toArray(options: ToArrayOptions = {}): Promise<T[]> {
    const { answered } = options;
    const batches: T[][] = [];
    // Created with the first cursor: most listings have none.
    let seen: Set<string> | undefined;
    // At most one batch ahead; taken before its fetch starts, so a fetcher reporting at once cannot start another.
    let ahead: { cursor: string; page?: Promise<Page<T>> } | undefined;
    const early: NextCursorSeen = (next) => {
      // A repeated cursor is never requested: the walk below stops on it.
      if (ahead !== undefined || seen?.has(next) === true) return false;
      const entry: { cursor: string; page?: Promise<Page<T>> } = { cursor: next };
      ahead = entry;
      entry.page = this.#fetchPage(next, early, answered);
      // Observed when it is used; unused only if the batch before it failed, and then its outcome does not matter.
      entry.page.catch(() => undefined);
      return true;
    };
    let pending = this.#fetchPage(undefined, early, answered);
    for (;;) {
      const page = await pending;
      batches.push(page.items);
      const next = page.cursors.next;
      // A fresh array either way: the fetcher's own may be shared (a caller's fetchPage can return the same one twice).
      if (next === undefined) return batches.length === 1 ? (batches[0] as T[]).slice() : (batches.flat() as T[]);
      seen ??= new Set();
      if (seen.has(next)) throw this.#repeatedCursor(next);
      seen.add(next);
      pending = ahead?.cursor === next && ahead.page !== undefined ? ahead.page : this.#fetchPage(next, early, answered);
      ahead = undefined;
    }
  }
}
