/**
 * The one retry policy of a request, composed around its dispatch (as undici's retry interceptor wraps a dispatch):
 * `retrying()` sends, asks `retryDecision()` whether the outcome is worth another attempt, waits, and sends again,
 * never more than `maxAttempts` times in all. What is retried:
 * - 429, for every method: the service refused the request without processing it;
 * - 500, 502, 503, 504, resets and timeouts, for idempotent methods only (GET, PUT, DELETE, and PATCH, which in this
 *   API sets absolute values): the request may have been processed, and repeating it is harmless;
 * - a refused connection, for every method: nothing reached the service.
 * A POST is otherwise never repeated here: after an unclear outcome the caller looks the object up by its key.
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
/** Statuses an idempotent request is sent again on; 429 is retried for every method. */
const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);

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
  if (outcome.kind === 'failure') {
    const refused = outcome.code === 'ECONNREFUSED';
    const worth = refused || (idempotent && (outcome.timedOut || isRetryableNetworkCode(outcome.code)));
    if (!worth || attempt >= policy.maxAttempts) return { retry: false };
    return { retry: true, delayMs: backoffDelay(policy, attempt), reason: outcome.timedOut ? 'TIMEOUT' : (outcome.code ?? 'NETWORK'), retryAfter: false };
  }
  const { status } = outcome;
  const retryAfterMs = parseRetryAfter(outcome.headers['retry-after'], policy.now());
  const after = retryAfterMs === undefined ? {} : { retryAfterMs };
  const worth = status === 429 || (idempotent && isRetryableStatus(status));
  if (!worth || attempt >= policy.maxAttempts) return { retry: false, ...after };
  if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs) return { retry: false, ...after };
  return { retry: true, delayMs: retryAfterMs ?? backoffDelay(policy, attempt), reason: String(status), retryAfter: retryAfterMs !== undefined, ...after };
}

/**
 * Sends with `dispatch` until an outcome is final or the attempts are used up; `onRetry` hears of each wait before it
 * starts. Resolves to the last outcome and the number of attempts made.
 */
export async function retrying<O extends AttemptResult>(
  policy: RetryPolicy,
  method: string,
  dispatch: (attempt: number) => Promise<O>,
  onRetry: (outcome: O, decision: Extract<RetryDecision, { retry: true }>, attempt: number) => void,
): Promise<{ outcome: O; attempts: number; decision: RetryDecision }> {
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await dispatch(attempt);
    const decision = retryDecision(policy, method, outcome, attempt);
    if (!decision.retry) return { outcome, attempts: attempt, decision };
    onRetry(outcome, decision, attempt);
    await policy.sleep(decision.delayMs);
  }
}
