/**
 * What every resource family builds on: one call shape, with helpers for the response forms the API uses
 * (an object, maybe nothing, nothing, a list page, a cursor-followed list).
 */
import { lastOf, readCreated, type CreatedLookup } from './created.js';
import { UnexpectedResponseError } from './errors.js';
import { checkedEntries } from './listing-shapes.js';
import { nextCursorAtEnd, Paged, readPage, type Page } from './paging.js';
import type { QueryContext } from './query.js';
import type { HttpMethod, Query, SendOptions, Transport } from './transport.js';

export type Call = SendOptions;

export interface ListOptions<T> {
  /** Turns each raw item into the public shape (e.g. moves alert fields into `Attributes`). */
  map?: (item: unknown) => T;
  /** Accept a single object as a one-item list (the spec shows an alert response in that form). */
  acceptSingleObject?: boolean;
}

function describeShape(body: unknown): string {
  if (body === undefined) return 'an empty body';
  if (body === null) return 'null';
  if (Array.isArray(body)) return 'an array';
  if (typeof body === 'object') return `an object with keys ${Object.keys(body).slice(0, 8).join(', ') || '(none)'}`;
  return `a ${typeof body}`;
}

/** A single object answered where a list was asked for, bare or as the envelope's `Data` (an alert, a health entry). */
function singleObjectPage(body: unknown): Page<unknown> | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const data = (body as { Data?: unknown }).Data;
  if (data !== null && typeof data === 'object' && !Array.isArray(data)) return { items: [data], cursors: {} };
  return { items: [body], cursors: {} };
}

export class Core {
  readonly transport: Transport;
  /** Listings waiting to be sent for creates whose answers did not name the new object, by listing. */
  readonly #lookups = new Map<string, Promise<unknown[]>>();

  constructor(transport: Transport) {
    this.transport = transport;
  }

  /** Context for client-side validation errors; also validates the path parameters. */
  context(method: HttpMethod, route: string, params?: Readonly<Record<string, string | number>>): QueryContext {
    return { method, route, path: this.transport.expandRoute(method, route, params) };
  }

  #unexpected(call: Call, status: number, problem: string): UnexpectedResponseError {
    const path = call.path ?? this.transport.expandRoute(call.method, call.route, call.params);
    return new UnexpectedResponseError({
      method: call.method,
      path,
      route: call.route,
      status,
      message: `${call.method} ${path} answered ${status} with ${problem}`,
    });
  }

  /** A JSON object or array is required in the response. */
  async json<T>(call: Call): Promise<T> {
    const res = await this.transport.send(call);
    if (res.body === undefined || res.body === null || typeof res.body !== 'object') {
      throw this.#unexpected(call, res.status, `${describeShape(res.body)}; expected a JSON object`);
    }
    return res.body as T;
  }

  /**
   * A create: any 2xx is a success. The new object comes from the answer when it names it (the object under its
   * identifier or another plausible name, or the bare identifier, in which case the object is what was sent plus its
   * identifier); otherwise from listing and matching on the object's key. When neither finds it, the outcome is unclear
   * (`isUnclearOutcome`): the write may have happened, so whoever retries looks the object up before sending it again.
   */
  async created<T>(call: Call, lookup: CreatedLookup<T>): Promise<T> {
    const res = await this.transport.send({ ...call, acceptText: true });
    const { object, id } = readCreated(res.body, res.text, lookup.idField);
    if (object !== undefined) return object as T;
    if (id !== undefined) {
      const sent = call.body !== null && typeof call.body === 'object' ? (call.body as Record<string, unknown>) : {};
      return { ...sent, [lookup.idField]: id } as T;
    }
    if (res.body === undefined && res.text !== undefined) {
      throw this.#unexpected(call, res.status, `a body that is neither JSON nor an identifier; the write may have happened`);
    }
    const matches = (await this.#listForLookup(lookup)).filter(lookup.matches);
    if (matches.length > 0) return (lookup.pick ?? lastOf)(matches);
    throw this.#unexpected(
      call,
      res.status,
      `${describeShape(res.body)} that does not name the new object's ${lookup.idField}, and the listing does not hold it; the write may have happened`,
    );
  }

  /**
   * The listing a create without an identifier in its answer is found in. Creates answered in the same turn of the
   * event loop share one listing: it is sent only after every one of their answers arrived, so it holds all of them,
   * and a burst of creates on a large account costs one listing rather than one each.
   */
  #listForLookup<T>(lookup: CreatedLookup<T>): Promise<T[]> {
    const waiting = this.#lookups.get(lookup.listKey);
    if (waiting !== undefined) return waiting as Promise<T[]>;
    const listing = new Promise<T[]>((resolve, reject) => {
      setImmediate(() => {
        // From now on a newcomer's answer may arrive after this listing was sent: it gets a listing of its own.
        this.#lookups.delete(lookup.listKey);
        lookup.list().then(resolve, reject);
      });
    });
    this.#lookups.set(lookup.listKey, listing);
    return listing;
  }

  /** The response body when there is one (writes whose response the spec does not show). */
  async maybe<T>(call: Call): Promise<T | undefined> {
    // A write answered 2xx happened, whatever text came with it; only a read needs the body to be JSON.
    const res = await this.transport.send(call.method === 'GET' ? call : { ...call, acceptText: true });
    return res.body === undefined || res.body === null ? undefined : (res.body as T);
  }

  /** Any body is ignored, JSON or not (204 answers, actions, member adds answered 201 with whatever text). */
  async none(call: Call): Promise<void> {
    await this.transport.send({ ...call, acceptText: true });
  }

  /**
   * One batch, each entry checked against its listing's shape (`listing-shapes.ts`). `batch` is its number in a
   * cursor chain, for the message naming a malformed entry.
   */
  async page<T>(call: Call, options: ListOptions<T> = {}, batch: number | undefined = call.query?.Cursor === undefined ? 1 : undefined): Promise<Page<T>> {
    const res = await this.transport.send(call);
    let page = readPage<unknown>(res.body);
    if (!page && options.acceptSingleObject) page = singleObjectPage(res.body);
    // No body at all (204, or a 200 with nothing in it): a list with no items, whatever the status says.
    if (!page && res.body === undefined) page = { items: [], cursors: {} };
    if (!page) throw this.#unexpected(call, res.status, `${describeShape(res.body)}; expected a JSON array or a {Data, Cursors} envelope`);
    const path = call.path ?? this.transport.expandRoute(call.method, call.route, call.params);
    const items = checkedEntries<T>(page.items, { method: call.method, path, route: call.route, status: res.status, batch }, options.map);
    return { items, cursors: page.cursors };
  }

  /**
   * Follows `Cursors.Next` by repeating the call with `Cursor=<next>` until no cursor comes back. When the response
   * text ends with its cursors, the next batch is requested before this one is parsed, and the parse waits two event
   * loop turns: undici writes a request on a reused keep-alive connection only after a setImmediate of its own, so
   * the request goes out first and the parse overlaps the wait for its response. The answer to a last batch does
   * the same for whatever its caller starts in `answered` (`toArray`'s option).
   */
  paged<T>(call: Call, options: ListOptions<T> = {}): Paged<T> {
    const baseQuery: Query = call.query ?? {};
    // Each batch's number in the chain, by the cursor that asks for it: a malformed entry is named by batch and index.
    const batchOf = new Map<string, number>();
    const numbered = async (batch: number | undefined, fetched: Promise<Page<T>>): Promise<Page<T>> => {
      const page = await fetched;
      const next = page.cursors.next;
      if (batch !== undefined && next !== undefined && !batchOf.has(next)) batchOf.set(next, batch + 1);
      return page;
    };
    return new Paged<T>(
      (cursor, seen, answered) => {
        const query = cursor === undefined ? baseQuery : { ...baseQuery, Cursor: cursor };
        const batch = cursor === undefined ? 1 : batchOf.get(cursor);
        if (seen === undefined) return numbered(batch, this.page<T>({ ...call, query }, options, batch));
        const peek = (text: string | undefined): Promise<void> | undefined => {
          const next = nextCursorAtEnd(text);
          if (next === undefined) {
            if (answered === undefined) return undefined;
            answered();
          } else {
            if (batch !== undefined && !batchOf.has(next)) batchOf.set(next, batch + 1);
            if (!seen(next)) return undefined;
          }
          return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
        };
        return numbered(batch, this.page<T>({ ...call, query, peek }, options, batch));
      },
      (cursor) => this.#unexpected(call, 200, `cursor ${JSON.stringify(cursor)} a second time; stopped following cursors to avoid an endless loop`),
    );
  }
}
