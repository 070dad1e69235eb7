/**
 * The one way a request leaves the client: `Transport.send()` builds the URL and headers, takes a slot from
 * the shared limiter, applies the per-request timeout, retries what is safe to retry, and turns every failure
 * into an `ApiError` holding only redacted data.
 */
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { Agent, type Dispatcher } from 'undici';
import { errorCodeOf, exchange, type Exchanged } from './exchange.js';
import { firstImpreciseInteger, type ImpreciseNumber } from './imprecise-number.js';
import type { ArrayReading } from './json-array-reader.js';
import {
  ClientConfigError,
  ImpreciseNumberError,
  InvalidQueryError,
  NetworkError,
  TimeoutError,
  UnexpectedResponseError,
  errorForStatus,
  extractServiceMessage,
  type ApiError,
  type ApiErrorOptions,
  type RedactedRequest,
  type RedactedResponse,
} from './errors.js';
import { redactHeaders, redactJson, scrubJson, scrubText, truncate } from './redact.js';
import { isRetryableStatus, resolveRetryPolicy, retryDecision, type RetryOptions, type RetryPolicy } from './retry.js';
import { Limiter, type LimiterTicket } from './limiter.js';
import { Pacer } from './pacer.js';
import type { Credentials } from './types.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type QueryValue = string | number | boolean | Date | readonly (string | number)[] | null | undefined;
export type Query = Readonly<Record<string, QueryValue>>;

export interface RequestEvent {
  method: HttpMethod;
  /** Path template, e.g. `/Monitor/{monitorGuid}`: stable across objects, for counting requests per route. */
  route: string;
  /** Path below the API root, without the query string. */
  path: string;
  /** 1 for the first try. */
  attempt: number;
}

export interface ResponseEvent extends RequestEvent {
  /** 0 when no response arrived. */
  status: number;
  durationMs: number;
  /** Set when no response arrived: `TIMEOUT` or the network error code. */
  errorCode?: string;
}

export interface RetryEvent extends RequestEvent {
  /** Wait before the next attempt. */
  delayMs: number;
  /** `429`, `503`, `ECONNRESET`, `TIMEOUT`, ... */
  reason: string;
  /** True when the wait is the service's Retry-After rather than backoff. */
  retryAfter: boolean;
  /** Requests the client lets run at once now: below the configured parallelism while the service rate-limits it. */
  parallelism: number;
}

export interface TransportOptions {
  /** API root as printed by the emulator, e.g. `http://127.0.0.1:8080/v4`. */
  baseUrl: string;
  username: string;
  password: string;
  /** An undici dispatcher (MockAgent in tests, a proxy agent, ...). Default: a keep-alive Agent owned by the client. */
  dispatcher?: Dispatcher;
  /** Requests in flight at once, across every resource family (default 8). */
  parallelism?: number;
  /** Per attempt, from sending to the end of the body (default 30 000 ms). */
  timeoutMs?: number;
  retry?: RetryOptions;
  /** Replaces the default `monsync/<version>`. */
  userAgent?: string;
  onRequest?: (event: RequestEvent) => void;
  onResponse?: (event: ResponseEvent) => void;
  onRetry?: (event: RetryEvent) => void;
}

export interface SendOptions {
  method: HttpMethod;
  /** Path template below the API root, e.g. `/Monitor/{monitorGuid}`. */
  route: string;
  params?: Readonly<Record<string, string | number>>;
  /** A literal path used instead of expanding `route` (raw requests); `route` is then only reported. */
  path?: string;
  query?: Query;
  body?: unknown;
  /** Credentials for this call only. */
  auth?: Credentials;
  /**
   * Sees the text of a 2xx body before it is parsed; what comes after waits for the promise it returns. Undefined for
   * a large JSON array, parsed as it arrived (`exchange.ts`, READ_ARRAY_FROM): there is no text, and no cursor in it.
   */
  peek?: (text: string | undefined) => Promise<void> | undefined;
  /** A 2xx body that is not JSON is handed back as `text` instead of failing (a create answered with a bare GUID). */
  acceptText?: boolean;
}

export interface SendResult {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON, or undefined for an empty body (or a body that is not JSON, with `acceptText`). */
  body: unknown;
  /** With `acceptText`: the body's text when it is not JSON. */
  text?: string;
}

/** Set by the bundlers (packages/cli/scripts/bundle.mjs, packages/action/scripts/bundle.mjs) and the test runner. */
declare const __MONSYNC_VERSION__: string | undefined;

// A bundle carries its version as a constant: beside it there is no ../package.json to read.
const VERSION: string = typeof __MONSYNC_VERSION__ === 'string' ? __MONSYNC_VERSION__ : (() => {
  const pkg: unknown = createRequire(import.meta.url)('../package.json');
  return typeof pkg === 'object' && pkg !== null && typeof (pkg as { version?: unknown }).version === 'string'
    ? (pkg as { version: string }).version
    : '0.0.0';
})();

export const DEFAULT_USER_AGENT = `monsync/${VERSION}`;

function basicAuth(c: Credentials): string {
  return `Basic ${Buffer.from(`${c.username}:${c.password}`, 'utf8').toString('base64')}`;
}

interface ParsedBase {
  origin: string;
  basePath: string;
}

function parseBaseUrl(baseUrl: string): ParsedBase {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    // Never echo the raw text: a query (`?token=`) or userinfo in an unparsable URL may hold a credential.
    throw new ClientConfigError('baseUrl is not a valid URL (value not shown: it may hold credentials); expected the API root, e.g. http://127.0.0.1:8080/v4');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ClientConfigError(`baseUrl must use http or https, got ${url.protocol}; expected e.g. https://api.example.com/v4`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ClientConfigError('baseUrl must not contain credentials; pass username and password as options instead');
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ClientConfigError(`baseUrl must not have a query or fragment (not shown: it may hold a credential): ${url.origin}${url.pathname}`);
  }
  // Concatenated, never resolved: `new URL('/Monitor', 'http://h/v4')` would drop the `/v4`.
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, '') };
}

function encodeQueryValue(value: Exclude<QueryValue, null | undefined>): string {
  if (Array.isArray(value)) return value.map(String).join(',');
  if (value instanceof Date) return value.toISOString().slice(0, 19);
  return String(value);
}

/** Percent-encoding that keeps `:` and `,` (legal in a query) so timestamps and field lists stay readable. */
function encodeQueryPart(text: string): string {
  return encodeURIComponent(text).replace(/%3A/gi, ':').replace(/%2C/gi, ',');
}

/** `key=value&...` in insertion order; `%20` for spaces (`Previous Day`), never `+`. */
export function encodeQuery(query: Query | undefined): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const key in query) {
    if (!Object.hasOwn(query, key)) continue;
    const value = query[key];
    if (value === undefined || value === null) continue;
    parts.push(`${encodeQueryPart(key)}=${encodeQueryPart(encodeQueryValue(value))}`);
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

/** `54,321,987 bytes`: digits grouped by hand (an Intl number format costs a start-up its locale data). */
function formatBytes(bytes: number): string {
  return `${String(bytes).replace(/\B(?=(\d{3})+$)/g, ',')} bytes`;
}

function tryParseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** What one attempt came to. */
type AttemptOutcome = Exchanged;

interface Evidence {
  request: RedactedRequest;
  secrets: Set<string>;
}

/** A request as built once and sent by every attempt. */
interface PreparedRequest {
  base: { method: HttpMethod; path: string; route: string };
  fullPath: string;
  headers: Readonly<Record<string, string>>;
  /** What undici is handed, the same object for every attempt. */
  dispatch: Dispatcher.DispatchOptions;
  options: SendOptions;
  authorization: string;
  /** What an error keeps of the request: made by `#evidence` when first needed. */
  evidence: Evidence | undefined;
  /** A large JSON array answered is read as it arrives: a read whose caller needs only the parsed body. */
  readArrays: boolean;
}

/** What a request path must not be: relative, with `.`/`..` segments, a query, a fragment or white space. */
function isUnsafePath(path: string): boolean {
  return !path.startsWith('/') || /(^|\/)\.\.?(\/|$)/.test(path) || /[?#\s]/.test(path);
}

interface RouteTemplate {
  /** Literal text and `{name}` placeholders (odd indexes). */
  pieces: readonly string[];
  /**
   * The template's own text passes the path check whatever its values are: each value is percent-encoded (no `/`,
   * `?`, `#` or white space survives), so an expanded path can only fail through a value of `.` or `..`.
   */
  safe: boolean;
}

/** Route templates split once: every request expands one. */
const ROUTE_TEMPLATES = new Map<string, RouteTemplate>();

function routeTemplate(route: string): RouteTemplate {
  let template = ROUTE_TEMPLATES.get(route);
  if (template === undefined) {
    // Bounded: raw requests may name any number of distinct routes.
    if (ROUTE_TEMPLATES.size >= 512) ROUTE_TEMPLATES.clear();
    const pieces = route.split(/\{(\w+)\}/);
    const literal = pieces.filter((_, i) => i % 2 === 0);
    template = { pieces, safe: (pieces[0] ?? '').startsWith('/') && !isUnsafePath(literal.join('x')) && !literal.join('').includes('/.') };
    ROUTE_TEMPLATES.set(route, template);
  }
  return template;
}

export class Transport {
  readonly #origin: string;
  readonly #basePath: string;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #limiter: Limiter;
  readonly #pacer: Pacer;
  readonly #timeoutMs: number;
  readonly #retry: RetryPolicy;
  readonly #authorization: string;
  /** Strings that must never appear in an error: the password and the encoded header. */
  readonly #ownSecrets: string[];
  readonly #userAgent: string;
  /** The headers of a request without a body, sent with the client's own credentials. */
  readonly #plainHeaders: Readonly<Record<string, string>>;
  readonly #onRequest: ((e: RequestEvent) => void) | undefined;
  readonly #onResponse: ((e: ResponseEvent) => void) | undefined;
  readonly #onRetry: ((e: RetryEvent) => void) | undefined;

  constructor(options: TransportOptions) {
    const { origin, basePath } = parseBaseUrl(options.baseUrl);
    if (typeof options.username !== 'string' || options.username === '') throw new ClientConfigError('username is required (the API account user name)');
    if (typeof options.password !== 'string' || options.password === '') throw new ClientConfigError('password is required (the API account password)');
    const timeoutMs = options.timeoutMs ?? 30_000;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new ClientConfigError(`timeoutMs must be a positive number of milliseconds, got ${String(timeoutMs)}`);
    const parallelism = options.parallelism ?? 8;
    if (!Number.isInteger(parallelism) || parallelism < 1) throw new ClientConfigError(`parallelism must be an integer >= 1, got ${String(parallelism)}`);
    try {
      this.#retry = resolveRetryPolicy(options.retry);
    } catch (error) {
      throw new ClientConfigError((error as Error).message);
    }
    this.#origin = origin;
    this.#basePath = basePath;
    this.#limiter = new Limiter(parallelism, { now: this.#retry.now });
    this.#pacer = new Pacer({ now: this.#retry.now });
    this.#timeoutMs = timeoutMs;
    this.#authorization = basicAuth(options);
    this.#ownSecrets = [options.password, this.#authorization, this.#authorization.slice('Basic '.length)];
    this.#userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
    this.#plainHeaders = Object.freeze(this.#headersFor(this.#authorization));
    this.#onRequest = options.onRequest;
    this.#onResponse = options.onResponse;
    this.#onRetry = options.onRetry;
    if (options.dispatcher) {
      this.#dispatcher = options.dispatcher;
      this.#ownsDispatcher = false;
    } else {
      this.#dispatcher = new Agent({ connections: parallelism, keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000 });
      this.#ownsDispatcher = true;
    }
  }

  get baseUrl(): string {
    return `${this.#origin}${this.#basePath}`;
  }

  get parallelism(): number {
    return this.#limiter.limit;
  }

  get maxAttempts(): number {
    return this.#retry.maxAttempts;
  }

  get maxReadAttempts(): number {
    return this.#retry.maxReadAttempts;
  }

  /** The headers of a request without a body. */
  #headersFor(authorization: string): Record<string, string> {
    return { authorization, accept: 'application/json', 'user-agent': this.#userAgent };
  }

  /** Closes the connection pool when the client created it; an injected dispatcher is left to its owner. */
  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  /** Expands `{name}` placeholders, percent-encoding each value; a missing or empty value is refused. */
  expandRoute(method: HttpMethod, route: string, params: Readonly<Record<string, string | number>> = {}): string {
    return this.#expand(method, route, routeTemplate(route), params);
  }

  #expand(method: HttpMethod, route: string, { pieces }: RouteTemplate, params: Readonly<Record<string, string | number>> = {}): string {
    let path = pieces[0] ?? '';
    for (let i = 1; i < pieces.length; i += 2) {
      const name = pieces[i] ?? '';
      const value = params[name];
      if (value === undefined || value === '' || (typeof value === 'number' && !Number.isFinite(value))) {
        throw new InvalidQueryError({
          method,
          path: route,
          route,
          status: 0,
          message: `${method} ${route}: ${name} is required (got ${value === '' ? 'an empty string' : String(value)})`,
        });
      }
      path += `${encodeURIComponent(String(value))}${pieces[i + 1] ?? ''}`;
    }
    return path;
  }

  /**
   * build -> dispatch (with the one retry policy composed around it) -> classify. Nothing but `#build` throws before
   * the first attempt, and only `#classify` turns an outcome into an error. One loop in one async function: a read
   * sends a thousand requests, and each layer of promises around an attempt cost every one of them CPU.
   */
  async send(options: SendOptions): Promise<SendResult> {
    const request = this.#build(options);
    const { method } = request.base;
    for (let attempt = 1; ; attempt += 1) {
      const ticket = this.#limiter.take() ?? (await this.#limiter.wait());
      const paced = this.#pacer.reserve();
      if (paced > 0) await this.#retry.sleep(paced);
      if (this.#onRequest) this.#emit(this.#onRequest, { ...request.base, attempt });
      const started = this.#onResponse === undefined ? 0 : performance.now();
      const outcome = await exchange(this.#dispatcher, request.dispatch, this.#timeoutMs, request.readArrays);
      const decision = retryDecision(this.#retry, method, outcome, attempt);
      this.#answered(request, attempt, ticket, outcome, started, decision.retryAfterMs);
      if (!decision.retry) return this.#classify(request, outcome, attempt, decision.retryAfterMs);
      this.#emit(this.#onRetry, {
        ...request.base,
        attempt,
        delayMs: decision.delayMs,
        reason: decision.reason,
        retryAfter: decision.retryAfter,
        parallelism: this.#limiter.current,
      });
      await this.#retry.sleep(decision.delayMs);
    }
  }

  /** The URL, headers and body of a request, checked; the redacted evidence an error needs is made on demand. */
  #build(options: SendOptions): PreparedRequest {
    const { method, route } = options;
    const template = options.path === undefined ? routeTemplate(route) : undefined;
    const path = template === undefined ? (options.path as string) : this.#expand(method, route, template, options.params);
    // A path expanded from a safe template needs the full check only when a value made a segment of dots.
    const checked = template !== undefined && template.safe && !path.includes('/.');
    if (!checked && isUnsafePath(path)) {
      throw new InvalidQueryError({
        method,
        path,
        route,
        status: 0,
        message: `${method} ${path}: the path must start with /, have no . or .. segments and no spaces, and carry no query (use the query option)`,
      });
    }
    const fullPath = `${this.#basePath}${path}${encodeQuery(options.query)}`;
    const authorization = options.auth ? basicAuth(options.auth) : this.#authorization;
    // A read sends hundreds of requests with the same headers: they share one (frozen) object.
    const plain = options.auth ? this.#headersFor(authorization) : this.#plainHeaders;
    const bodyText = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers: Readonly<Record<string, string>> = bodyText === undefined ? plain : { ...plain, 'content-type': 'application/json' };
    const dispatch: Dispatcher.DispatchOptions = { origin: this.#origin, path: fullPath, method, headers, body: bodyText ?? null };
    const readArrays = method === 'GET' && options.acceptText !== true;
    const request: PreparedRequest = { base: { method, path, route }, fullPath, headers, dispatch, options, authorization, evidence: undefined, readArrays };
    // The secrets in a body are known before anything else happens; for the hundreds of requests without one that
    // succeed, what an error would keep of them is never made.
    if (options.body !== undefined) this.#evidence(request);
    return request;
  }

  /** What an error keeps of the request, and the secrets to scrub from any message the service echoes. */
  #evidence(request: PreparedRequest): Evidence {
    if (request.evidence !== undefined) return request.evidence;
    const { options, authorization } = request;
    const secrets = new Set(this.#ownSecrets);
    if (options.auth) {
      secrets.add(options.auth.password);
      secrets.add(authorization);
      secrets.add(authorization.slice('Basic '.length));
    }
    const redactedBody = options.body === undefined ? undefined : redactJson(options.body, secrets);
    const redacted: RedactedRequest = {
      method: options.method,
      url: `${this.#origin}${request.fullPath}`,
      headers: redactHeaders(request.headers),
      ...(redactedBody === undefined ? {} : { body: redactedBody }),
    };
    return (request.evidence = { request: redacted, secrets });
  }

  /** After an attempt: its slot back to the limiter (a 429 slows the limiter down), and the response event. */
  #answered(request: PreparedRequest, attempt: number, ticket: LimiterTicket, outcome: AttemptOutcome, started: number, retryAfterMs: number | undefined): void {
    const refused = outcome.kind === 'response' && outcome.status === 429;
    if (refused) this.#limiter.rateLimited(ticket);
    this.#pacer.answered(refused, retryAfterMs);
    if (this.#onResponse !== undefined) {
      const durationMs = performance.now() - started;
      if (outcome.kind === 'response') this.#emit(this.#onResponse, { ...request.base, attempt, status: outcome.status, durationMs });
      else this.#emit(this.#onResponse, { ...request.base, attempt, status: 0, durationMs, ...(outcome.code === undefined ? {} : { errorCode: outcome.code }) });
    }
    this.#limiter.release(ticket);
  }

  /**
   * The final outcome as a result (2xx) or as the one error class its status or failure maps to. Not async: a 2xx
   * nobody peeks at is parsed and handed back without another promise.
   */
  #classify(request: PreparedRequest, outcome: AttemptOutcome, attempts: number, retryAfterMs: number | undefined): SendResult | Promise<SendResult> {
    const { base } = request;
    if (outcome.kind === 'failure') {
      const { request: redactedRequest, secrets } = this.#evidence(request);
      throw this.#failureError(base, outcome, attempts, redactedRequest, secrets);
    }
    if (outcome.status >= 200 && outcome.status < 300) {
      const peeking = request.options.peek?.(outcome.array === undefined ? outcome.text : undefined);
      return peeking === undefined ? this.#success(request, outcome, attempts) : peeking.then(() => this.#success(request, outcome, attempts));
    }
    const { status } = outcome;
    const { request: redactedRequest, secrets } = this.#evidence(request);
    const errorOptions = this.#errorOptions(base, outcome, attempts, redactedRequest, secrets, retryAfterMs);
    if (retryAfterMs !== undefined && retryAfterMs > this.#retry.maxRetryAfterMs && (status === 429 || isRetryableStatus(status))) {
      const wait = Math.ceil(retryAfterMs / 1000);
      const cap = Math.ceil(this.#retry.maxRetryAfterMs / 1000);
      throw errorForStatus({
        ...errorOptions,
        message:
          `${base.method} ${base.path} failed with ${status}: the service asked to retry after ${wait} s, longer than the ` +
          `cap of ${cap} s (retry.maxRetryAfterMs); try again later or raise the cap` +
          (errorOptions.serviceMessage ? `: ${errorOptions.serviceMessage}` : ''),
      });
    }
    throw errorForStatus(errorOptions);
  }

  /** A 2xx answer: its body parsed, or its text when the caller accepts text; any other body is an error. */
  #success(request: PreparedRequest, outcome: Extract<Exchanged, { kind: 'response' }>, attempts: number): SendResult {
    if (outcome.array !== undefined) return this.#arrayRead(request, outcome, outcome.array, attempts);
    const { status, text } = outcome;
    const parsed = tryParseJson(text);
    if (parsed !== undefined) this.#refuseImprecise(request, status, attempts, firstImpreciseInteger(text));
    if (parsed !== undefined || text.trim() === '') return { status, headers: outcome.headers, body: parsed };
    if (request.options.acceptText === true) return { status, headers: outcome.headers, body: undefined, text };
    const { base } = request;
    const { request: redactedRequest, secrets } = this.#evidence(request);
    throw new UnexpectedResponseError({
      ...base,
      status,
      attempts,
      request: redactedRequest,
      message: `${base.method} ${base.path} answered ${status} with a body that is not JSON: ${truncate(scrubText(text.trim(), secrets), 200)}`,
      response: { url: redactedRequest.url, status, headers: redactHeaders(outcome.headers), body: truncate(scrubText(text, secrets), 2000) },
    });
  }

  /**
   * An answer holding an integer no JavaScript number holds exactly is refused whole: read, it would be planned from,
   * compared and sent back as a value the service never had. The message names the field and the digits' count, never
   * the value (it is the service's, and may be anything).
   */
  #refuseImprecise(request: PreparedRequest, status: number, attempts: number, imprecise: ImpreciseNumber | undefined): void {
    if (imprecise === undefined) return;
    const { base } = request;
    // Only a key that reads as a field name is named: any other text of the service stays out of the message.
    const where = imprecise.key !== undefined && /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(imprecise.key) ? ` in \`${imprecise.key}\`` : '';
    throw new ImpreciseNumberError({
      ...base,
      status,
      attempts,
      request: this.#evidence(request).request,
      message: `${base.method} ${base.path} answered an integer of ${imprecise.digits} digits${where}, beyond 2^53: a JavaScript number cannot hold it exactly, so monsync would compare and send back a rounded value; nothing is planned from this answer. Report it to the service; such fields cannot be managed by monsync`,
    });
  }

  /**
   * A large body read as a JSON array as it arrived. One that turned out not to be JSON is the error any other such
   * body is, naming where it went wrong and quoting its start (the rest was never kept).
   */
  #arrayRead(request: PreparedRequest, outcome: Extract<Exchanged, { kind: 'response' }>, reading: ArrayReading, attempts: number): SendResult {
    const { status, headers } = outcome;
    if (reading.kind === 'array') {
      this.#refuseImprecise(request, status, attempts, reading.imprecise);
      return { status, headers, body: reading.items };
    }
    const { base } = request;
    const { request: redactedRequest, secrets } = this.#evidence(request);
    const head = scrubText(reading.head.trim(), secrets);
    const quoted = (max: number): string => `${head.slice(0, max)}... (${formatBytes(reading.bytes)} in all)`;
    throw new UnexpectedResponseError({
      ...base,
      status,
      attempts,
      request: redactedRequest,
      message: `${base.method} ${base.path} answered ${status} with a body that is not JSON: a JSON array that ${reading.problem}: ${quoted(200)}`,
      response: { url: redactedRequest.url, status, headers: redactHeaders(headers), body: quoted(2000) },
    });
  }

  #errorOptions(
    base: { method: HttpMethod; path: string; route: string },
    outcome: { status: number; headers: Record<string, string>; text: string },
    attempt: number,
    request: RedactedRequest,
    secrets: Set<string>,
    retryAfterMs: number | undefined,
  ): ApiErrorOptions {
    const parsed = tryParseJson(outcome.text);
    const message = extractServiceMessage(outcome.text, parsed);
    const response: RedactedResponse = { url: request.url, status: outcome.status, headers: redactHeaders(outcome.headers) };
    if (parsed !== undefined) response.body = scrubJson(redactJson(parsed), secrets);
    else if (outcome.text.trim() !== '') response.body = truncate(scrubText(outcome.text, secrets), 2000);
    return {
      ...base,
      status: outcome.status,
      serviceMessage: message === undefined ? undefined : scrubText(message, secrets),
      attempts: attempt,
      request,
      response,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
  }

  #failureError(
    base: { method: HttpMethod; path: string; route: string },
    outcome: { timedOut: boolean; code: string | undefined; cause: unknown },
    attempt: number,
    request: RedactedRequest,
    secrets: Set<string>,
  ): ApiError {
    const tries = attempt > 1 ? ` after ${attempt} attempts` : '';
    const cause = sanitiseCause(outcome.cause, secrets);
    if (outcome.timedOut) {
      return new TimeoutError({
        ...base,
        status: 0,
        attempts: attempt,
        request,
        cause,
        message: `${base.method} ${base.path} timed out${tries}: no complete response within ${this.#timeoutMs} ms (timeoutMs)`,
      });
    }
    const detail = outcome.code ?? (cause instanceof Error ? cause.message : 'unknown error');
    return new NetworkError({
      ...base,
      status: 0,
      attempts: attempt,
      request,
      cause,
      message: `${base.method} ${base.path} failed${tries}: network error (${detail}) talking to ${this.#origin}`,
    });
  }

  #emit<E>(listener: ((event: E) => void) | undefined, event: E): void {
    if (!listener) return;
    try {
      listener(event);
    } catch {
      // A progress or logging hook must not change the outcome of a request.
    }
  }
}

/**
 * A dispatcher error is kept as `cause` for debugging. Its message is scrubbed in case a custom dispatcher
 * put request data in it; the original object is replaced only when it held a secret.
 */
function sanitiseCause(cause: unknown, secrets: Set<string>): unknown {
  if (!(cause instanceof Error)) return cause;
  const text = `${cause.message}\n${cause.stack ?? ''}`;
  if (![...secrets].some((s) => s.length >= 4 && text.includes(s))) return cause;
  const clean = new Error(scrubText(cause.message, secrets));
  clean.name = cause.name;
  clean.stack = scrubText(cause.stack ?? '', secrets);
  const code = errorCodeOf(cause);
  if (code !== undefined) Object.assign(clean, { code });
  return clean;
}

