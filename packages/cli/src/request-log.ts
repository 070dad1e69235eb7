import { isInteractive, style, useColor, type CliIo } from './io.js';
import { plainText } from '@monsync/reconciler/escape';

import type { RequestEvent, ResponseEvent, RetryEvent } from '@monsync/client';

export type { RequestEvent, ResponseEvent, RetryEvent };

export interface RequestHooks {
  onRequest(event: RequestEvent): void;
  onResponse(event: ResponseEvent): void;
  onRetry?(event: RetryEvent): void;
}

/** Query values that could carry something private are masked; paths hold only GUIDs and names of routes. */
function redactPath(path: string): string {
  const queryStart = path.indexOf('?');
  if (queryStart < 0) return path;
  const params = new URLSearchParams(path.slice(queryStart + 1));
  const shown = [...params.entries()].map(([key, value]) => `${key}=${/^(cursor|token|password|apikey|key)$/i.test(key) ? '***' : value}`);
  return `${path.slice(0, queryStart)}?${shown.join('&')}`;
}

/**
 * `--verbose`: one stderr line per request and per response. Bodies and headers are never logged, so neither
 * credentials nor secret values can reach the log.
 */
export function verboseHooks(io: CliIo): RequestHooks {
  const s = style(useColor(io));
  return {
    onRequest(event) {
      io.stderr.write(s.dim(`-> ${event.method} ${plainText(redactPath(event.path))}${event.attempt > 1 ? ` (attempt ${event.attempt})` : ''}`) + '\n');
    },
    onResponse(event) {
      const status = event.status === 0 ? 'failed' : String(event.status);
      io.stderr.write(s.dim(`<- ${status} ${event.method} ${plainText(redactPath(event.path))} ${Math.round(event.durationMs)}ms`) + '\n');
    },
    onRetry(event) {
      io.stderr.write(s.yellow(`   retrying ${event.method} ${plainText(redactPath(event.path))} in ${(event.delayMs / 1000).toFixed(1)}s (${event.reason})`) + '\n');
    },
  };
}

export interface Progress extends RequestHooks {
  /** A 429 wait shows on the progress line. */
  onRetry(event: RetryEvent): void;
  /** Ends the live line (if any) and prints the closing summary; nothing is printed after it. */
  done(summary?: string): void;
  /**
   * The read has failed and the client is closing: requests still in flight are counted when they end, but one
   * started now is refused by the closed client without reaching the service, and is neither shown nor counted.
   */
  stopping(): void;
  /** Requests that ended (answered, or failed on the way), while the read went on. */
  readonly requests: number;
}

/**
 * Progress while reading the live account. On an interactive terminal one rewritten line counts requests per
 * route; in CI or when piped, one plain line the first time each route is read, so logs stay short at any
 * account size.
 */
export function readProgress(io: CliIo, label: string): Progress {
  const live = isInteractive(io);
  const started = Date.now();
  const routes = new Map<string, number>();
  let requests = 0;
  let inFlight = 0;
  let lastDraw = 0;
  let drawn = false;
  let stopping = false;
  let finished = false;
  /** Until when the service asked us to wait (429), and the parallelism the client lowered itself to. */
  let rateLimited: { until: number; parallelism: number } | undefined;
  const waiting = (now: number): string => {
    if (rateLimited === undefined || now >= rateLimited.until) return '';
    return `, waiting for the rate limit (${((rateLimited.until - now) / 1000).toFixed(0)}s, parallelism ${rateLimited.parallelism})`;
  };
  const draw = (force: boolean) => {
    const now = Date.now();
    if (!force && now - lastDraw < 80) return;
    lastDraw = now;
    drawn = true;
    io.stderr.write(`\r\u001b[K${label}: ${requests} requests, ${inFlight} in flight, ${((now - started) / 1000).toFixed(1)}s${waiting(now)}`);
  };
  if (!live) io.stderr.write(`${label}...\n`);
  return {
    get requests() {
      return requests;
    },
    onRequest(event) {
      if (stopping || finished) return;
      inFlight += 1;
      if (live) draw(false);
      else if (!routes.has(event.route)) io.stderr.write(`  reading ${event.route}\n`);
      routes.set(event.route, (routes.get(event.route) ?? 0) + 1);
    },
    onResponse(event) {
      if (finished || (stopping && event.status === 0)) return;
      inFlight = Math.max(0, inFlight - 1);
      requests += 1;
      if (live) draw(false);
    },
    onRetry(event) {
      if (stopping || finished || event.reason !== '429') return;
      const now = Date.now();
      const fresh = rateLimited === undefined || now >= rateLimited.until;
      rateLimited = { until: Math.max(rateLimited?.until ?? 0, now + event.delayMs), parallelism: event.parallelism };
      if (live) draw(true);
      else if (fresh) io.stderr.write(`  waiting for the rate limit: ${(event.delayMs / 1000).toFixed(1)}s, parallelism lowered to ${event.parallelism}\n`);
    },
    stopping() {
      stopping = true;
    },
    done(summary) {
      if (finished) return;
      finished = true;
      const text = summary ?? `${label}: ${requests} requests in ${((Date.now() - started) / 1000).toFixed(1)}s`;
      if (live && drawn) io.stderr.write(`\r\u001b[K`);
      io.stderr.write(`${text}\n`);
    },
  };
}

/** Calls every hook in turn, so progress and `--verbose` can both listen. */
export function combineHooks(...hooks: readonly (RequestHooks | undefined)[]): Required<RequestHooks> {
  const present = hooks.filter((hook): hook is RequestHooks => hook !== undefined);
  return {
    onRequest: (event) => present.forEach((hook) => hook.onRequest(event)),
    onResponse: (event) => present.forEach((hook) => hook.onResponse(event)),
    onRetry: (event) => present.forEach((hook) => hook.onRetry?.(event)),
  };
}

/**
 * Hooks handed to a client before their listeners exist: the client is made (and its variables checked) first,
 * and the read is announced only once that succeeded.
 */
export function hookRelay(): { client: Required<RequestHooks>; listen(hooks: RequestHooks | undefined): void } {
  let current: RequestHooks | undefined;
  return {
    client: {
      onRequest: (event) => current?.onRequest(event),
      onResponse: (event) => current?.onResponse(event),
      onRetry: (event) => current?.onRetry?.(event),
    },
    listen(hooks) {
      current = hooks;
    },
  };
}

/**
 * Reads the live account under `progress`. When one listing fails the others may still be in flight, and their
 * lines would come after the failure line: the client is closed first (requests in flight end, queued ones are
 * dropped), so the failure line is the read's last line and counts every request, whether the listing failed at
 * once (a 500) or after the client's retries (a 503).
 */
export async function readUnder<T>(progress: Progress, label: string, read: () => Promise<T>, close: () => Promise<void>): Promise<T> {
  let result: T;
  try {
    result = await read();
  } catch (error) {
    progress.stopping();
    await close().catch(() => undefined);
    progress.done(`${label} failed after ${progress.requests} requests`);
    throw error;
  }
  progress.done();
  return result;
}
