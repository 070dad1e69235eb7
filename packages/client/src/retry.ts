/**
 * Retry policy. Only idempotent methods are retried: GET, PUT, DELETE, and PATCH (in this API a PATCH sets
 * absolute values, so repeating it is harmless). POST is never retried here: after an unclear POST failure
 * the reconciler re-lists and decides, which a transport cannot do.
 */

export interface RetryOptions {
  /** Total attempts including the first (default 5; 1 disables retries). */
  maxAttempts?: number;
  /** First backoff ceiling in ms (default 500); doubles per attempt. */
  baseDelayMs?: number;
  /** Largest backoff ceiling in ms (default 20 000). Does not limit Retry-After, see `maxRetryAfterMs`. */
  maxDelayMs?: number;
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
  baseDelayMs: number;
  maxDelayMs: number;
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
    maxAttempts: options.maxAttempts ?? 5,
    baseDelayMs: options.baseDelayMs ?? 500,
    maxDelayMs: options.maxDelayMs ?? 20_000,
    maxRetryAfterMs: options.maxRetryAfterMs ?? 120_000,
    sleep: options.sleep ?? defaultSleep,
    random: options.random ?? Math.random,
    now: options.now ?? Date.now,
  };
  for (const key of ['maxAttempts', 'baseDelayMs', 'maxDelayMs', 'maxRetryAfterMs'] as const) {
    const v = policy[key];
    if (!Number.isFinite(v) || v < 0 || (key === 'maxAttempts' && (!Number.isInteger(v) || v < 1))) {
      throw new RangeError(`retry.${key} must be ${key === 'maxAttempts' ? 'an integer >= 1' : 'a number >= 0'}, got ${String(v)}`);
    }
  }
  return policy;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE']);
const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

export function isRetryableMethod(method: string): boolean {
  return IDEMPOTENT.has(method.toUpperCase());
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

/** Exponential backoff with full jitter: uniform in [0, min(maxDelay, base * 2^(attempt-1))). */
export function backoffDelay(policy: RetryPolicy, attempt: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(policy.random() * ceiling);
}
