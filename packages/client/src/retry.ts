/**
 * The one retry policy of a request, composed around its dispatch (as undici's retry interceptor wraps a dispatch):
 * the transport's `send()` sends, asks `retryDecision()` whether the outcome is worth another attempt, waits, and
 * sends again, never more than its attempts in all (`maxAttempts`, a read's `maxReadAttempts`). What is retried:
 * - 429, for every method, as often as a read: the service refused the request without processing it;
 * - 500, 502, 503, 504, resets and timeouts, for idempotent methods only (GET, PUT, DELETE, and PATCH, which in this
 *   API sets absolute values): the request may have been processed, and repeating it is harmless;
 * - a refused connection, for every method: nothing reached the service.
 * A POST is otherwise never repeated here: after an unclear outcome the caller looks the object up by its key.
 *
 * A read (GET, HEAD) gets more attempts than a write, with shorter waits between them: a plan sends dozens of listings
 * and fails on the first that runs out of attempts (at a 40% fault rate one listing in a hundred fails 5 attempts in a
 * row, one in 1,500 fails 8), while a dead service should still be given up on about as soon as with 5 attempts.
 */

/** Attempts of a write (POST, PUT, PATCH, DELETE) in all, the first included, by default (`retry.maxAttempts`). */
export const DEFAULT_WRITE_ATTEMPTS = 5;
/** Attempts of a read (GET, HEAD) in all, the first included, by default (`retry.maxReadAttempts`). */
export const DEFAULT_READ_ATTEMPTS = 8;

export interface RetryOptions {
  /** Total attempts of a write including the first (default 5; 1 disables retries); of a read too when `maxReadAttempts` is not given. */
  maxAttempts?: number;
  /**
   * Total attempts of a read (GET, HEAD) including the first. Default: `maxAttempts` when that is given, else 8. A read
   * whose last attempt timed out is not sent more than `maxAttempts` times: each such attempt already waited `timeoutMs`.
   */
  maxReadAttempts?: number;
  /** First backoff ceiling in ms (default 500); doubles per attempt. */
  baseDelayMs?: number;
  /** Largest backoff ceiling in ms (default 20 000). Does not limit Retry-After, see `maxRetryAfterMs`. */
  maxDelayMs?: number;
  /**
   * Largest backoff ceiling of a read in ms (default 1 000), so that its extra attempts do not make it wait longer
   * than a write before giving up: at most 6.5 s over 8 attempts (a write: 7.5 s over 5). Does not limit Retry-After.
   */
  maxReadDelayMs?: number;
  /** Longest Retry-After honoured, in ms (default 120 000); a longer one fails at once with a clear error. */
  maxRetryAfterMs?: number;
  /** Injected for tests and for callers with their own scheduler. */
  sleep?: (ms: number) => Promise<void>;
  /** Uniform in [0, 1); injected for deterministic tests. */
  random?: () => number;
  /** Clock in ms since the epoch, used to read a Retry-After date. */
  now?: () => number;
}

export interface RetryPolicy {
  maxAttempts: number;
  maxReadAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  maxReadDelayMs: number;
  maxRetryAfterMs: number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  now: () => number;
}

const defaultSleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

export function resolveRetryPolicy(options: RetryOptions = {}): RetryPolicy {
  const policy: RetryPolicy = {
    maxAttempts: options.maxAttempts ?? DEFAULT_WRITE_ATTEMPTS,
    maxReadAttempts: options.maxReadAttempts ?? options.maxAttempts ?? DEFAULT_READ_ATTEMPTS,
    baseDelayMs: options.baseDelayMs ?? 500,
    maxDelayMs: options.maxDelayMs ?? 20_000,
    maxReadDelayMs: options.maxReadDelayMs ?? 1_000,
    maxRetryAfterMs: options.maxRetryAfterMs ?? 120_000,
    sleep: options.sleep ?? defaultSleep,
    random: options.random ?? Math.random,
    now: options.now ?? Date.now,
  };
  for (const key of ['maxAttempts', 'maxReadAttempts', 'baseDelayMs', 'maxDelayMs', 'maxReadDelayMs', 'maxRetryAfterMs'] as const) {
    const v = policy[key];
    const count = key === 'maxAttempts' || key === 'maxReadAttempts';
    if (!Number.isFinite(v) || v < 0 || (count && (!Number.isInteger(v) || v < 1))) {
      throw new RangeError(`retry.${key} must be ${count ? 'an integer >= 1' : 'a number >= 0'}, got ${String(v)}`);
    }
  }
  return policy;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE']);
/** Statuses an idempotent request is sent again on; 429 is retried for every method. */
const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);

export function isRetryableMethod(method: string): boolean {
  return IDEMPOTENT.has(method.toUpperCase());
}

/** A read: given `maxReadAttempts` and the shorter `maxReadDelayMs` waits. */
export function isReadMethod(method: string): boolean {
  const upper = method.toUpperCase();
  return upper === 'GET' || upper === 'HEAD';
}

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUS.has(status);
}

/** Socket-level failures worth another attempt; DNS "not found" and TLS errors are not. */
const RETRYABLE_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

export function isRetryableNetworkCode(code: string | undefined): boolean {
  return code !== undefined && RETRYABLE_CODES.has(code);
}

/**
 * Retry-After as milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). Undefined when absent or
 * unreadable; a date in the past is 0.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Exponential backoff with full jitter: uniform in [0, min(maxDelay, base * 2^(attempt-1))), where a read's maxDelay
 * is the smaller of `maxDelayMs` and `maxReadDelayMs`.
 */
export function backoffDelay(policy: RetryPolicy, attempt: number, method?: string): number {
  const maxDelay = method !== undefined && isReadMethod(method) ? Math.min(policy.maxDelayMs, policy.maxReadDelayMs) : policy.maxDelayMs;
  const ceiling = Math.min(maxDelay, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(policy.random() * ceiling);
}

/** Failures that took their time: a timeout, whether the client's own or undici's. */
const SLOW_CODES = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * The attempts a request may make in all, knowing its last outcome: a read's `maxReadAttempts`, except after a
 * timeout, where a read is held to a write's count, so a service that never answers is given up on as soon as before.
 * A write refused with 429 gets a read's count too: the service processed none of those attempts, so another is as
 * harmless as a read's, and an apply of a thousand writes against a service that refuses one request in ten would
 * otherwise fail about one time in ten on a write refused five times in a row.
 */
function attemptLimit(policy: RetryPolicy, method: string, outcome: AttemptResult): number {
  if (outcome.kind === 'response' && outcome.status === 429) return Math.max(policy.maxAttempts, policy.maxReadAttempts);
  if (!isReadMethod(method)) return policy.maxAttempts;
  const slow = outcome.kind === 'failure' && (outcome.timedOut || (outcome.code !== undefined && SLOW_CODES.has(outcome.code)));
  return slow ? Math.min(policy.maxAttempts, policy.maxReadAttempts) : policy.maxReadAttempts;
}

/** What one attempt came to, as far as retrying is concerned. */
export type AttemptResult =
  | { kind: 'response'; status: number; headers: Record<string, string> }
  | { kind: 'failure'; timedOut: boolean; code: string | undefined };

export type RetryDecision =
  | { retry: false; retryAfterMs?: number }
  | { retry: true; delayMs: number; reason: string; retryAfter: boolean; retryAfterMs?: number };

const FINAL: RetryDecision = Object.freeze({ retry: false });

/**
 * Whether the outcome of attempt `attempt` of a `method` request is worth another attempt, and after which wait: the
 * service's Retry-After when it gave one (not when it is above `maxRetryAfterMs`: that fails at once), else
 * exponential backoff with full jitter.
 */
export function retryDecision(policy: RetryPolicy, method: string, outcome: AttemptResult, attempt: number): RetryDecision {
  // The answer to nearly every request, decided before anything else is looked at.
  if (outcome.kind === 'response' && outcome.status < 300) return FINAL;
  const idempotent = isRetryableMethod(method);
  const limit = attemptLimit(policy, method, outcome);
  if (outcome.kind === 'failure') {
    const refused = outcome.code === 'ECONNREFUSED';
    const worth = refused || (idempotent && (outcome.timedOut || isRetryableNetworkCode(outcome.code)));
    if (!worth || attempt >= limit) return { retry: false };
    return { retry: true, delayMs: backoffDelay(policy, attempt, method), reason: outcome.timedOut ? 'TIMEOUT' : (outcome.code ?? 'NETWORK'), retryAfter: false };
  }
  const { status } = outcome;
  const retryAfterMs = parseRetryAfter(outcome.headers['retry-after'], policy.now());
  const after = retryAfterMs === undefined ? {} : { retryAfterMs };
  const worth = status === 429 || (idempotent && isRetryableStatus(status));
  if (!worth || attempt >= limit) return { retry: false, ...after };
  if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs) return { retry: false, ...after };
  return { retry: true, delayMs: retryAfterMs ?? backoffDelay(policy, attempt, method), reason: String(status), retryAfter: retryAfterMs !== undefined, ...after };
}
