/**
 * One error hierarchy for every call, mapped from the HTTP status in one place (`errorForStatus`).
 * Errors hold only redacted data: the Authorization header, passwords and secret body fields are replaced
 * before the error is built, so message, stack, `util.inspect` and `JSON.stringify` are all safe to print.
 */
import { STATUS_CODES } from 'node:http';
import { truncate } from './redact.js';

/** `instanceof` must work when two copies of this package are installed, so classes are matched by brand. */
const BRAND = Symbol.for('monsync.ApiError');

export interface RedactedRequest {
  method: string;
  /** Full URL including the query string (queries never carry secrets in this API). */
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

export interface RedactedResponse {
  /** The URL that answered (the request's; this client follows no redirect). */
  url?: string;
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON (redacted) or the raw text (scrubbed, truncated); absent when the body was empty. */
  body?: unknown;
}

export interface ApiErrorOptions {
  method: string;
  /** Path below the API root, without the query string, e.g. `/Monitor/3f2a...`. */
  path: string;
  /** Path template, e.g. `/Monitor/{monitorGuid}`. */
  route?: string;
  status: number;
  serviceMessage?: string | undefined;
  /** Overrides the generated message. */
  message?: string;
  cause?: unknown;
  attempts?: number;
  request?: RedactedRequest;
  response?: RedactedResponse;
  /** The wait the service asked for (Retry-After), when it gave one. */
  retryAfterMs?: number;
}

function defaultMessage(o: ApiErrorOptions): string {
  const head = `${o.method} ${o.path}`;
  const status = o.status === 0 ? 'no response' : `${o.status} ${STATUS_CODES[o.status] ?? 'Unknown Status'}`;
  const tries = o.attempts !== undefined && o.attempts > 1 ? ` after ${o.attempts} attempts` : '';
  const detail = o.serviceMessage !== undefined && o.serviceMessage !== '' ? `: ${o.serviceMessage}` : '';
  return `${head} failed with ${status}${tries}${detail}`;
}

export class ApiError extends Error {
  /** Class identity used by the cross-install `instanceof`; each subclass overrides it. */
  static readonly kind: string = 'ApiError';

  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== 'object' || value === null) return false;
    const kinds = (value as { [BRAND]?: unknown })[BRAND];
    return Array.isArray(kinds) && kinds.includes(this.kind);
  }

  readonly code: string = 'API_ERROR';
  readonly method: string;
  readonly path: string;
  readonly route: string | undefined;
  /** HTTP status, or 0 when no response arrived (network failure, timeout, or a request refused before sending). */
  readonly status: number;
  /** The service's own message (`ErrorDescription`, joined when it is an array), or the raw body text. */
  readonly serviceMessage: string | undefined;
  readonly attempts: number;
  readonly retryAfterMs: number | undefined;
  readonly request: RedactedRequest | undefined;
  readonly response: RedactedResponse | undefined;

  constructor(options: ApiErrorOptions) {
    super(options.message ?? defaultMessage(options), options.cause === undefined ? undefined : { cause: options.cause });
    const kinds: string[] = [];
    for (let c: unknown = new.target; typeof c === 'function' && c !== Error; c = Object.getPrototypeOf(c)) {
      const kind = (c as { kind?: unknown }).kind;
      if (typeof kind === 'string') kinds.push(kind);
    }
    Object.defineProperty(this, BRAND, { value: kinds, enumerable: false });
    Object.defineProperty(this, 'name', { value: new.target.name, enumerable: false, configurable: true, writable: true });
    this.method = options.method;
    this.path = options.path;
    this.route = options.route;
    this.status = options.status;
    this.serviceMessage = options.serviceMessage;
    this.attempts = options.attempts ?? 1;
    this.retryAfterMs = options.retryAfterMs;
    this.request = options.request;
    this.response = options.response;
  }

  /** Only safe, useful fields: no request or response bodies, no headers. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      method: this.method,
      path: this.path,
      route: this.route,
      status: this.status,
      serviceMessage: this.serviceMessage,
      attempts: this.attempts,
      ...(this.retryAfterMs === undefined ? {} : { retryAfterMs: this.retryAfterMs }),
    };
  }
}

/** 400, and requests refused before sending (see `InvalidQueryError`). */
export class ValidationError extends ApiError {
  static override readonly kind: string = 'ValidationError';
  override readonly code: string = 'VALIDATION_FAILED';
}

/** A request this client refuses to send because it breaks a rule of the API (status 0, nothing sent). */
export class InvalidQueryError extends ValidationError {
  static override readonly kind: string = 'InvalidQueryError';
  override readonly code: string = 'INVALID_QUERY';
}

export class AuthenticationError extends ApiError {
  static override readonly kind: string = 'AuthenticationError';
  override readonly code: string = 'AUTHENTICATION_FAILED';
}

/** 403; for ScheduledReport and SLA the service also uses it for validation errors tied to permissions. */
export class PermissionError extends ApiError {
  static override readonly kind: string = 'PermissionError';
  override readonly code: string = 'PERMISSION_DENIED';
}

export class NotFoundError extends ApiError {
  static override readonly kind: string = 'NotFoundError';
  override readonly code: string = 'NOT_FOUND';
}

export class ConflictError extends ApiError {
  static override readonly kind: string = 'ConflictError';
  override readonly code: string = 'CONFLICT';
}

/** 429 after the retries, or a Retry-After longer than the configured cap. */
export class RateLimitError extends ApiError {
  static override readonly kind: string = 'RateLimitError';
  override readonly code: string = 'RATE_LIMITED';
}

export class ServerError extends ApiError {
  static override readonly kind: string = 'ServerError';
  override readonly code: string = 'SERVER_ERROR';
}

/** Connection refused, reset, DNS failure: no HTTP response (status 0). */
export class NetworkError extends ApiError {
  static override readonly kind: string = 'NetworkError';
  override readonly code: string = 'NETWORK_ERROR';
}

/** The per-request timeout elapsed (status 0). */
export class TimeoutError extends ApiError {
  static override readonly kind: string = 'TimeoutError';
  override readonly code: string = 'TIMEOUT';
}

/** A status this client does not map (3xx, 405, 422, ...) or a success body it cannot read. */
export class UnexpectedResponseError extends ApiError {
  static override readonly kind: string = 'UnexpectedResponseError';
  override readonly code: string = 'UNEXPECTED_RESPONSE';
}

/** A 2xx answer holding an integer beyond 2^53, which no JavaScript number holds exactly (imprecise-number.ts). */
export class ImpreciseNumberError extends UnexpectedResponseError {
  static override readonly kind: string = 'ImpreciseNumberError';
  override readonly code: string = 'IMPRECISE_NUMBER';
}

export interface MalformedListingOptions {
  method: string;
  path: string;
  route: string;
  status: number;
  /** The batch's number in its cursor chain, from 1, when known. */
  batch?: number | undefined;
  /** The entry's index in its batch, from 0. */
  index: number;
  /** What the entry is (`null`, `an object without MonitorGuid`): its type, never its content. */
  entry: string;
  /** What one entry of the listing is (`a monitor`). */
  what: string;
  /** The shape expected, in words. */
  expected: string;
}

/**
 * A listing answered 2xx with an entry that is not of the listing's shape (`listing-shapes.ts`): nothing may be built
 * from it, since an object without its GUID or key would be planned as something else (a delete).
 */
export class MalformedListingError extends UnexpectedResponseError {
  static override readonly kind: string = 'MalformedListingError';
  override readonly code: string = 'MALFORMED_LISTING';
  /** `GET /Monitor`, the listing as asked (its path). */
  readonly listing: string;
  readonly batch: number | undefined;
  readonly index: number;

  constructor(o: MalformedListingOptions) {
    const listing = `${o.method} ${o.path}`;
    const where = o.batch === undefined ? `index ${o.index}` : `batch ${o.batch}, index ${o.index}`;
    super({
      method: o.method,
      path: o.path,
      route: o.route,
      status: o.status,
      message: `${listing} answered an entry that is not ${o.what} (${where}): ${o.entry}; expected ${o.expected}`,
    });
    this.listing = listing;
    this.batch = o.batch;
    this.index = o.index;
  }
}

/** Bad client options or environment (not an API error: nothing was sent). */
export class ClientConfigError extends Error {
  readonly code = 'CLIENT_CONFIG';
  constructor(message: string) {
    super(message);
    this.name = 'ClientConfigError';
  }
}

/** The single status-to-class mapping. */
export function errorForStatus(options: ApiErrorOptions): ApiError {
  const s = options.status;
  if (s === 400) return new ValidationError(options);
  if (s === 401) return new AuthenticationError(options);
  if (s === 403) return new PermissionError(options);
  if (s === 404) return new NotFoundError(options);
  if (s === 409) return new ConflictError(options);
  if (s === 429) return new RateLimitError(options);
  if (s >= 500 && s <= 599) return new ServerError(options);
  return new UnexpectedResponseError(options);
}

/**
 * True when a write may or may not have been applied: the request may have reached the service (network
 * failure, timeout, 5xx), or the service said 2xx but what it answered cannot be read (a body that is not JSON, a
 * create whose new object neither the answer nor the listing names). Before a POST that failed this way is sent
 * again, the object is looked up by its key.
 */
export function isUnclearOutcome(error: unknown): boolean {
  if (error instanceof NetworkError || error instanceof TimeoutError || error instanceof ServerError) return true;
  return error instanceof UnexpectedResponseError && error.status >= 200 && error.status < 300;
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * Whether an error, or one along its `cause` chain (a failed plan wraps the client's error), says the service refused
 * the credentials (`'credentials'`, 401) or could not be reached (`'unreachable'`: no answer, or none in time). What
 * to check then is in the caller's configuration, which each front end names in its own words.
 */
export function connectionProblemOf(error: unknown): 'credentials' | 'unreachable' | undefined {
  for (let at: unknown = error, depth = 0; at instanceof Error && depth < 8; at = at.cause, depth += 1) {
    if (at instanceof AuthenticationError) return 'credentials';
    if (at instanceof NetworkError || at instanceof TimeoutError) return 'unreachable';
  }
  return undefined;
}

/** One entry of a message list: `{Message}` (the published MessageList item), a bare string, or anything else. */
function messageOf(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry === '' ? undefined : entry;
  if (entry !== null && typeof entry === 'object' && !Array.isArray(entry)) {
    const o = entry as Record<string, unknown>;
    for (const key of ['Message', 'message', 'ErrorDescription', 'Description']) {
      const v = o[key];
      if (typeof v === 'string' && v !== '') return v;
    }
  }
  return undefined;
}

/** A string, or every readable entry of an array joined in order; undefined when nothing readable is there. */
function messagesOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const parts = value.map((entry) => messageOf(entry) ?? JSON.stringify(entry));
  return parts.join('; ');
}

/**
 * The service's own words from an error body, for people: the published `MessageList` (`{Messages: [{Message}]}`,
 * every message in order), a bare `{Message}`, the spec's `ErrorDescription` (a string or an array), a few common
 * alternatives, or the raw text when the body is not JSON or has none of these. Undefined for an empty body.
 */
export function extractServiceMessage(text: string, parsed: unknown): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (parsed === undefined) return truncate(trimmed, 500);
  if (typeof parsed === 'string') return parsed;
  if (Array.isArray(parsed)) return messagesOf(parsed) ?? truncate(trimmed, 500);
  if (parsed !== null && typeof parsed === 'object') {
    const o = parsed as Record<string, unknown>;
    const nested = o.ResponseStatus !== null && typeof o.ResponseStatus === 'object' ? (o.ResponseStatus as Record<string, unknown>) : {};
    for (const candidate of [o.Messages, o.messages, o.ErrorDescription, o.errorDescription, o.Message, o.message, o.error, nested.Message]) {
      const found = messagesOf(candidate);
      if (found !== undefined) return found;
    }
  }
  return truncate(trimmed, 500);
}
