/**
 * Lists. Cursor-paginated lists answer `{ Data: [...], Cursors: { Next, Self } }`; other lists answer a bare
 * array. Either form is accepted on every list (DESIGN §4), so a family that starts paginating later keeps
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
 * An async iterable over every item of a list, fetching the next batch only when the previous one is used
 * up. Each iteration starts again from the first batch.
 */
export class Paged<T> implements AsyncIterable<T> {
  readonly #fetchPage: (cursor: string | undefined) => Promise<Page<T>>;
  readonly #repeatedCursor: (cursor: string) => Error;

  /** @param repeatedCursor builds the error raised when the service hands back a cursor twice */
  constructor(
    fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
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

  /** The same walk as `pages()`, without an async generator's extra turns between one batch and the next request. */
  async toArray(): Promise<T[]> {
    const all: T[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (;;) {
      const page = await this.#fetchPage(cursor);
      for (const item of page.items) all.push(item);
      const next = page.cursors.next;
      if (next === undefined) return all;
      if (seen.has(next)) throw this.#repeatedCursor(next);
      seen.add(next);
      cursor = next;
    }
  }
}
