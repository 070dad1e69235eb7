/**
 * One HTTP exchange through undici's dispatch interface, the whole body collected as text. `Dispatcher.request()`
 * wraps every answer in a Readable stream (and an AsyncResource, and an abort listener on a signal) that a client
 * reading whole JSON bodies never uses: on a read of a thousand listings that wrapping cost the client more CPU
 * than everything it does itself per request. The result is the one `request()` + `body.text()` gives: the status,
 * the headers (lower-case names, repeated ones joined by `, `) and the body decoded as UTF-8 without its BOM.
 */
import type { Dispatcher } from 'undici';
import { JsonArrayReader, startsWithArray, type ArrayReading } from './json-array-reader.js';

/**
 * How an attempt ended: an answer (any status), or no answer (`code` is `TIMEOUT` when the deadline passed, else the
 * network error's code when it has one). A large 2xx body that is a JSON array, when the caller asked for that
 * (`readArrays`), comes read as it arrived (`array`), and its `text` is empty.
 */
export type Exchanged =
  | { kind: 'response'; status: number; headers: Record<string, string>; text: string; array?: ArrayReading }
  | { kind: 'failure'; timedOut: boolean; code: string | undefined; cause: unknown };

/**
 * From how many bytes a 2xx JSON array is read as it arrives rather than as one text (`json-array-reader.ts`). Below
 * it, the text and its parse are small beside everything else a read holds, and a body that is not JSON is quoted
 * whole in its error, as every other answer is.
 */
export const READ_ARRAY_FROM = 1024 * 1024;

/** Thrown as the abort reason, so the cause chain says what happened without a stack from undici internals. */
class RequestTimeout extends Error {
  constructor(ms: number) {
    super(`no complete response within ${ms} ms`);
    this.name = 'RequestTimeout';
  }
}

/** The error's `code`, or its cause's (undici wraps socket errors). */
export function errorCodeOf(error: unknown): string | undefined {
  if (error !== null && typeof error === 'object') {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const cause = (error as { cause?: unknown }).cause;
    if (cause !== undefined && cause !== error) return errorCodeOf(cause);
  }
  return undefined;
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

/** A timer callback without a closure per exchange: the collector comes as the timer's argument. */
function timeUp(collector: Collector): void {
  collector.timeUp();
}

/**
 * One exchange's handler and its deadline. The promise it settles is the one the transport awaits: nothing is
 * layered between an answer and the request that waits for it.
 */
class Collector implements Dispatcher.DispatchHandler {
  readonly done: Promise<Exchanged>;
  #resolve!: (value: Exchanged) => void;
  readonly #timeoutMs: number;
  readonly #timer: ReturnType<typeof setTimeout>;
  #timedOut = false;
  #settled = false;
  #status = 0;
  #headers = NO_HEADERS;
  #chunks: Buffer[] = [];
  #length = 0;
  #controller: Dispatcher.DispatchController | undefined;
  #abortReason: Error | undefined;
  /** Whether this answer's body may still turn out to be an array worth reading as it arrives. */
  #mayReadArray = false;
  readonly #readArrays: boolean;
  #array: JsonArrayReader | undefined;

  constructor(timeoutMs: number, readArrays: boolean) {
    this.#readArrays = readArrays;
    this.done = new Promise<Exchanged>((resolve) => {
      this.#resolve = resolve;
    });
    this.#timeoutMs = timeoutMs;
    this.#timer = setTimeout(timeUp, timeoutMs, this);
  }

  /** The deadline passed: the exchange ends with a `RequestTimeout`, at once or as soon as undici starts it. */
  timeUp(): void {
    if (this.#settled) return;
    this.#timedOut = true;
    const reason = new RequestTimeout(this.#timeoutMs);
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
    this.#mayReadArray = this.#readArrays && statusCode < 300;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#array !== undefined) {
      this.#array.push(chunk);
      return;
    }
    this.#chunks.push(chunk);
    this.#length += chunk.length;
    if (this.#mayReadArray && this.#length >= READ_ARRAY_FROM) this.#startArray();
  }

  /** A large body: from here on read as an array when it starts as one; its bytes so far handed over. */
  #startArray(): void {
    this.#mayReadArray = false;
    if (startsWithArray(this.#chunks) !== true) return;
    const reader = new JsonArrayReader();
    for (const chunk of this.#chunks) reader.push(chunk);
    this.#chunks = [];
    this.#length = 0;
    this.#array = reader;
  }

  onResponseEnd(): void {
    if (this.#settled) return;
    this.#settled = true;
    clearTimeout(this.#timer);
    const status = this.#status;
    const headers = this.#headers;
    if (this.#array === undefined) this.#resolve({ kind: 'response', status, headers, text: decode(this.#chunks, this.#length) });
    else this.#resolve({ kind: 'response', status, headers, text: '', array: this.#array.end() });
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    if (this.#settled) return;
    this.#settled = true;
    clearTimeout(this.#timer);
    const timedOut = this.#timedOut;
    this.#array = undefined;
    this.#resolve({ kind: 'failure', timedOut, code: timedOut ? 'TIMEOUT' : errorCodeOf(error), cause: error });
  }
}

/**
 * Starts one exchange on `dispatcher`, ended with a `RequestTimeout` when it is not complete within `timeoutMs`.
 * Never rejects: a failure is an outcome like an answer. undici's own argument checks fail the exchange, as
 * `request()` would. `readArrays`: a large 2xx JSON array body is read as it arrives (a caller that needs the text
 * of every answer, a create that accepts a bare id, leaves it off).
 */
export function exchange(dispatcher: Dispatcher, options: Dispatcher.DispatchOptions, timeoutMs: number, readArrays = false): Promise<Exchanged> {
  const collector = new Collector(timeoutMs, readArrays);
  try {
    dispatcher.dispatch(options, collector);
  } catch (error) {
    // undici's dispatchers hand their own failures to the handler; another dispatcher may throw instead.
    collector.onResponseError(undefined, error instanceof Error ? error : new Error(String(error)));
  }
  return collector.done;
}
