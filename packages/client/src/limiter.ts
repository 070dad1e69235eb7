/**
 * A counting semaphore: at most `limit` tasks run at once, the rest wait in arrival order. One limiter per
 * client is shared by every resource family, so the limit is the client's, not a family's.
 */
export class Limiter {
  readonly limit: number;
  #active = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`parallelism must be an integer >= 1, got ${String(limit)}`);
    this.limit = limit;
  }

  /** Tasks currently running. */
  get active(): number {
    return this.#active;
  }

  /** Tasks waiting for a slot. */
  get pending(): number {
    return this.#waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active >= this.limit) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#active += 1;
    }
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      // The slot passes straight to the next waiter, so a newcomer cannot overtake it.
      if (next) next();
      else this.#active -= 1;
    }
  }
}
