/**
 * A counting semaphore whose limit adapts to rate limiting: at most `current` tasks run at once, the rest wait in
 * arrival order. One limiter per client is shared by every resource family, so the limit is the client's, not a
 * family's.
 *
 * When the service answers 429 the limit is halved (never below 1), once for every round of requests: a 429 to a
 * request that started before the last halving says nothing new, since its whole burst was already answered for.
 * It then grows back one slot at a time (additive increase, multiplicative decrease, as TCP does), so a
 * rate-limited account is not hammered at full parallelism the moment a wait ends: one slot for every window of
 * answers without a 429 (as many requests as the limit allows at once: one round trip at that limit, so recovery
 * follows the rate the service actually answers at), or one for every `recoveryMs` without a 429 when requests are
 * few, whichever comes first. Growing by time alone (one slot a second) kept a read whose service refuses one request
 * in ten near a parallelism of 1 for its whole length: 10.6x its lower bound, where growing by answers is about 2x.
 */

export interface LimiterOptions {
  /** Milliseconds without a 429 for each slot regained (default 1000). */
  recoveryMs?: number;
  /** Clock in ms; injected in tests. */
  now?: () => number;
}

/**
 * A slot as `take()` and `wait()` hand it out, given back with `release()`. Plain data rather than an object
 * with its own closures: the transport takes one for every request, and a read sends them by the thousand.
 */
export interface LimiterTicket {
  /** The round the slot was taken in: a 429 to a request of an older round is not halved for again. */
  readonly round: number;
  /** Set by `rateLimited()`: the request was answered 429. */
  refused: boolean;
}

export class Limiter {
  /** The configured parallelism: the limit when the service is not rate-limiting. */
  readonly limit: number;
  readonly #recoveryMs: number;
  readonly #now: () => number;
  #active = 0;
  readonly #waiting: Array<() => void> = [];
  /** The limit set by the last halving, and when; the limit then grows back with time. */
  #reducedTo: number;
  #reducedAt = 0;
  /** Slots regained by answers since the last halving, and the answers counted towards the next one. */
  #earned = 0;
  #answered = 0;
  /** Bumped by every halving: a 429 to a task started in an older round is not halved for again. */
  #round = 0;

  constructor(limit: number, options: LimiterOptions = {}) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`parallelism must be an integer >= 1, got ${String(limit)}`);
    this.limit = limit;
    this.#reducedTo = limit;
    this.#recoveryMs = options.recoveryMs ?? 1000;
    this.#now = options.now ?? Date.now;
  }

  /** Tasks allowed at once now: `limit`, or less while recovering from a 429. */
  get current(): number {
    if (this.#reducedTo >= this.limit) return this.limit;
    const regained = Math.max(Math.floor((this.#now() - this.#reducedAt) / this.#recoveryMs), this.#earned);
    const current = Math.min(this.limit, this.#reducedTo + Math.max(0, regained));
    if (current >= this.limit) this.#reducedTo = this.limit;
    return current;
  }

  /** True while the limit is below the configured parallelism because of a 429. */
  get throttled(): boolean {
    return this.current < this.limit;
  }

  /** Tasks currently running. */
  get active(): number {
    return this.#active;
  }

  /** Tasks waiting for a slot. */
  get pending(): number {
    return this.#waiting.length;
  }

  /** A slot now, when one is free and nobody waits for one; undefined otherwise (then `wait()`). */
  take(): LimiterTicket | undefined {
    if (this.#active >= this.current || this.#waiting.length > 0) return undefined;
    this.#active += 1;
    return { round: this.#round, refused: false };
  }

  /** A slot once one is free, after every task that waited before this one. */
  async wait(): Promise<LimiterTicket> {
    // #admit counts the slot as taken before it wakes this waiter.
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
    return { round: this.#round, refused: false };
  }

  /** The request holding `ticket` was answered 429. */
  rateLimited(ticket: LimiterTicket): void {
    ticket.refused = true;
    this.#rateLimited(ticket.round);
  }

  /** Gives the slot back (once per ticket) and starts waiters the limit now allows. */
  release(ticket: LimiterTicket): void {
    this.#active -= 1;
    if (!ticket.refused) this.#answeredWithout429();
    this.#admit();
  }

  #rateLimited(round: number): void {
    if (round !== this.#round) return;
    this.#round += 1;
    this.#reducedTo = Math.max(1, Math.floor(this.current / 2));
    this.#reducedAt = this.#now();
    this.#earned = 0;
    this.#answered = 0;
  }

  /** A request answered without a 429: a whole window of them regains a slot. */
  #answeredWithout429(): void {
    if (this.#reducedTo >= this.limit) return;
    const current = this.current;
    if (current >= this.limit) return;
    this.#answered += 1;
    if (this.#answered < current) return;
    this.#answered = 0;
    this.#earned = Math.max(this.#earned, Math.floor((this.#now() - this.#reducedAt) / this.#recoveryMs)) + 1;
  }

  /** Starts waiters, in arrival order, while the limit allows. */
  #admit(): void {
    const limit = this.current;
    while (this.#active < limit && this.#waiting.length > 0) {
      this.#active += 1;
      const next = this.#waiting.shift() as () => void;
      next();
    }
  }
}
