/**
 * What every resource family builds on: one call shape, with helpers for the response forms the API uses
 * (an object, maybe nothing, nothing, a list page, a cursor-followed list).
 */
import { UnexpectedResponseError } from './errors.js';
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

  /** The response body when there is one (writes whose response the spec does not show). */
  async maybe<T>(call: Call): Promise<T | undefined> {
    const res = await this.transport.send(call);
    return res.body === undefined || res.body === null ? undefined : (res.body as T);
  }

  /** Any body is ignored (204 answers, actions). */
  async none(call: Call): Promise<void> {
    await this.transport.send(call);
  }

  async page<T>(call: Call, options: ListOptions<T> = {}): Promise<Page<T>> {
    const res = await this.transport.send(call);
    let page = readPage<unknown>(res.body);
    if (!page && options.acceptSingleObject) page = singleObjectPage(res.body);
    // No body at all (204, or a 200 with nothing in it): a list with no items, whatever the status says.
    if (!page && res.body === undefined) page = { items: [], cursors: {} };
    if (!page) throw this.#unexpected(call, res.status, `${describeShape(res.body)}; expected a JSON array or a {Data, Cursors} envelope`);
    const map = options.map;
    return { items: map ? page.items.map(map) : (page.items as T[]), cursors: page.cursors };
  }

  /**
   * Follows `Cursors.Next` by repeating the call with `Cursor=<next>` until no cursor comes back. When the response
   * text ends with its cursors, the next batch is requested before this one is parsed, and the parse waits two event
   * loop turns: undici writes a request on a reused keep-alive connection only after a setImmediate of its own, so
   * the request goes out first and the parse overlaps the wait for its response.
   */
  paged<T>(call: Call, options: ListOptions<T> = {}): Paged<T> {
    const baseQuery: Query = call.query ?? {};
    return new Paged<T>(
      (cursor, seen) => {
        const query = cursor === undefined ? baseQuery : { ...baseQuery, Cursor: cursor };
        if (seen === undefined) return this.page<T>({ ...call, query }, options);
        const peek = (text: string): Promise<void> | undefined => {
          const next = nextCursorAtEnd(text);
          if (next === undefined || !seen(next)) return undefined;
          return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
        };
        return this.page<T>({ ...call, query, peek }, options);
      },
      (cursor) => this.#unexpected(call, 200, `cursor ${JSON.stringify(cursor)} a second time; stopped following cursors to avoid an endless loop`),
    );
  }
}
