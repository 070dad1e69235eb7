/**
 * One HTTP exchange through undici's dispatch interface, the whole body collected as text. `Dispatcher.request()`
 * wraps every answer in a Readable stream (and an AsyncResource, and an abort listener on a signal) that a client
 * reading whole JSON bodies never uses: on a read of a thousand listings that wrapping cost the client more CPU
 * than everything it does itself per request. The result is the one `request()` + `body.text()` gives: the status,
 * the headers (lower-case names, repeated ones joined by `, `) and the body decoded as UTF-8 without its BOM.
 */
import type { Dispatcher } from 'undici';

export interface Exchanged {
  status: number;
  headers: Record<string, string>;
  text: string;
}

export interface Exchange {
  /** Settles when the body is complete, or with the error that ended the exchange (the abort reason included). */
  readonly done: Promise<Exchanged>;
  /** Ends the exchange with `reason`: at once when it is under way, as soon as undici starts it otherwise. */
  abort(reason: Error): void;
}

export function normaliseHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k in headers) {
    const v = headers[k];
    if (v !== undefined) out[k.toLowerCase()] = typeof v === 'string' ? v : v.join(', ');
  }
  return out;
}

const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** UTF-8, a leading byte order mark skipped (as undici's `body.text()` does). */
function decode(chunks: readonly Buffer[], length: number): string {
  if (length === 0) return '';
  const buffer = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length);
  const start = buffer.length > 2 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
  return buffer.toString('utf8', start);
}

class Collector implements Dispatcher.DispatchHandler, Exchange {
  readonly done: Promise<Exchanged>;
  #resolve!: (value: Exchanged) => void;
  #reject!: (error: Error) => void;
  #status = 0;
  #headers = NO_HEADERS;
  #chunks: Buffer[] = [];
  #length = 0;
  #controller: Dispatcher.DispatchController | undefined;
  #abortReason: Error | undefined;

  constructor() {
    this.done = new Promise<Exchanged>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  abort(reason: Error): void {
    if (this.#controller === undefined) this.#abortReason = reason;
    else this.#controller.abort(reason);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#abortReason !== undefined) controller.abort(this.#abortReason);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    // A 1xx is informational: the answer follows it.
    if (statusCode < 200) return;
    this.#status = statusCode;
    this.#headers = normaliseHeaders(headers);
    this.#chunks = [];
    this.#length = 0;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#length += chunk.length;
  }

  onResponseEnd(): void {
    this.#resolve({ status: this.#status, headers: this.#headers, text: decode(this.#chunks, this.#length) });
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    this.#reject(error);
  }
}

/** Starts one exchange on `dispatcher`; undici's own argument checks fail the exchange, as `request()` would. */
export function exchange(dispatcher: Dispatcher, options: Dispatcher.DispatchOptions): Exchange {
  const collector = new Collector();
  try {
    dispatcher.dispatch(options, collector);
  } catch (error) {
    // undici's dispatchers hand their own failures to the handler; another dispatcher may throw instead.
    collector.onResponseError(undefined, error instanceof Error ? error : new Error(String(error)));
  }
  return collector;
}
