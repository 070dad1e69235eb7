/**
 * Paces request starts when the service limits a rate. The limiter (`limiter.ts`) bounds how many requests run at
 * once; a service that allows N requests a second refuses a client that sends faster, however few run at once (at
 * 10 ms a request, one connection sends 100 a second). Measured against a token bucket of 50 a second, the limiter
 * alone kept the rate but had 43% of its requests refused, each waiting out a Retry-After.
 *
 * So the pacer watches answers in windows (at least `windowAnswers` answers over at least `windowMs`). A window
 * with more than `maxRefusedShare` of 429s lowers the pace; a window without them raises it by `probeStep` to find
 * out whether the limit moved. Only a window sent at the pace measures the limit (what the service carried out while
 * offered more): in one where requests sat out Retry-Afters instead, the client sent less than it could, and
 * pacing at what it carried out there would starve the read (readLive's listings hold their slot through those
 * waits). That measure is kept as the limit found, and the pace comes back to near it at once and then probes
 * above it in small steps. A service that limits a rate stops refusing once it is paced; one that refuses a share of
 * requests whatever the rate (an overloaded node, a test profile) does not, and slowing down further would only
 * starve the read: when the window after a slow-down is refused about as often as the one before it, the pacer stops
 * pacing for `unpacedMs`, and 429s are left to the retries and the limiter.
 */

export interface PacerOptions {
  /** Clock in ms; injected in tests. */
  now?: () => number;
  /** Share of 429 answers in a window above which the pace is lowered (default 0.03). */
  maxRefusedShare?: number;
  /**
   * Share of 429 answers in a window, unpaced, above which pacing starts (default 0.2), or `costlyStartShare` (default
   * 0.05) when a refusal of the window asked to wait a `costlyRetryAfterMs` (default 500) or more.
   */
  startShare?: number;
  costlyStartShare?: number;
  costlyRetryAfterMs?: number;
  windowAnswers?: number;
  /** Default 20 answers over 1 s. */
  windowMs?: number;
  /** Growth of the pace after a window without a 429 once a limit was found (default 0.03: 3%, one more step for each such window in a row, up to 25%; a third of a step near the limit found). Before: 25% a window. */
  probeStep?: number;
  /** How long to leave refusals that pacing did not reduce to the retries (default 10 s, doubled each time). */
  unpacedMs?: number;
}

interface Window {
  startedAt: number;
  answers: number;
  refused: number;
  /** A refusal in the window asked to wait long (a Retry-After of a second, say). */
  costly: boolean;
}

export class Pacer {
  readonly #now: () => number;
  readonly #maxRefusedShare: number;
  readonly #startShare: number;
  readonly #costlyStartShare: number;
  readonly #costlyRetryAfterMs: number;
  readonly #windowAnswers: number;
  readonly #windowMs: number;
  readonly #probeStep: number;
  readonly #unpacedMs: number;
  /** Requests a second; undefined while not pacing. */
  #rate: number | undefined;
  /** When the next request may start (ms on the clock). */
  #nextStart = 0;
  #window: Window;
  #started = false;
  /**
   * A series of refused windows: the refused share of its first, the rate the service accepted in its last, and
   * how many windows in a row slowing down did not help.
   */
  #series: { share: number; accepted: number; unhelped: number } | undefined;
  #unpacedUntil = 0;
  /** Series of slow-downs that did not help so far: each leaves refusals to the retries twice as long. */
  #unhelpedSeries = 0;
  /** Windows in a row without a refusal. */
  #clean = 0;
  /**
   * About the service's limit: what it carried out in the last whole window that was refused while the pace held
   * every request back (so the client offered more than it carried out). Windows in which requests waited out
   * Retry-Afters instead carry out less than the limit, and say nothing about it.
   */
  #ceiling: number | undefined;

  constructor(options: PacerOptions = {}) {
    this.#now = options.now ?? ((): number => performance.now());
    this.#maxRefusedShare = options.maxRefusedShare ?? 0.03;
    this.#startShare = options.startShare ?? 0.2;
    this.#costlyStartShare = options.costlyStartShare ?? 0.05;
    this.#costlyRetryAfterMs = options.costlyRetryAfterMs ?? 500;
    this.#windowAnswers = options.windowAnswers ?? 20;
    this.#windowMs = options.windowMs ?? 1000;
    this.#probeStep = options.probeStep ?? 0.03;
    this.#unpacedMs = options.unpacedMs ?? 10_000;
    this.#window = { startedAt: this.#now(), answers: 0, refused: 0, costly: false };
  }

  /** Requests a second the pacer lets start, or undefined when it is not pacing. */
  get rate(): number | undefined {
    return this.#rate;
  }

  /**
   * Milliseconds the next request must wait before it starts (0: at once), its start reserved. Not a promise: a
   * client that is not paced, which is every client of a service that never refuses, pays nothing for it.
   */
  reserve(): number {
    // The first window starts with the first request, not with the client.
    if (!this.#started) {
      this.#started = true;
      this.#window.startedAt = this.#now();
    }
    if (this.#rate === undefined) return 0;
    const now = this.#now();
    const start = Math.max(now, this.#nextStart);
    this.#nextStart = start + 1000 / this.#rate;
    return start - now;
  }

  /** An answer came back: `refused` when it was a 429, with the Retry-After it asked for (ms) if any. */
  answered(refused: boolean, retryAfterMs?: number): void {
    const window = this.#window;
    window.answers += 1;
    if (refused) window.refused += 1;
    if (refused && (retryAfterMs ?? 0) >= this.#costlyRetryAfterMs) window.costly = true;
    const now = this.#now();
    const elapsed = now - window.startedAt;
    // A service that limits a rate refuses more with every request sent too fast: the first refusals end the window.
    const early = window.refused >= 3 && window.refused > this.#refusedShareToAct(window) * window.answers && now >= this.#unpacedUntil;
    if (window.answers < this.#windowAnswers || (elapsed < this.#windowMs && !early)) return;
    this.#window = { startedAt: now, answers: 0, refused: 0, costly: false };
    this.#judge(window, elapsed, now);
  }

  /**
   * Unpaced, a window must be refused often to start pacing, where a service that refuses a share of requests
   * whatever the rate refuses about that share. Unless its refusals ask for long waits: a request that waits out a
   * second's Retry-After holds its caller's slot that long, so a read with a few such refusals stalls, and a
   * limit refuses only that few (each refused caller sits out its wait, and the rest send at about the limit).
   * Paced, a few refusals mean the pace is past the limit.
   */
  #refusedShareToAct(window: Window): number {
    if (this.#rate !== undefined) return this.#maxRefusedShare;
    return window.costly ? this.#costlyStartShare : this.#startShare;
  }

  #judge(window: Window, elapsed: number, now: number): void {
    const share = window.refused / window.answers;
    const answeredRate = (window.answers * 1000) / elapsed;
    const paced = this.#rate;
    // A refusal or two is a retried request's bad luck as often as a limit: it takes three to slow down; and only a
    // window without any raises the pace (so it does not creep back up past the limit) or ends a series.
    if (share <= this.#refusedShareToAct(window) || window.refused < 3) {
      if (paced === undefined) return;
      // Paced faster than the requests come: the pace no longer limits anything.
      if (paced > 2 * answeredRate) this.#rate = undefined;
      else if (window.refused === 0) {
        this.#series = undefined;
        // Each clean window in a row raises the pace by one more step: a pace measured low (in the first second,
        // say) comes back within seconds, and one near the limit overshoots it by a step or two.
        this.#clean += 1;
        this.#rate = this.#fasterPace(paced);
      } else this.#clean = 0;
      return;
    }
    this.#clean = 0;
    if (now < this.#unpacedUntil) return;
    const acceptedRate = ((window.answers - window.refused) * 1000) / elapsed;
    const series = this.#series;
    // Sent at the pace (binding), below what the service accepted in the window before, and refused about as often
    // as when the series began: slowing down did not help.
    const unhelped =
      series !== undefined &&
      paced !== undefined &&
      paced <= 0.98 * series.accepted &&
      answeredRate >= 0.85 * paced &&
      share >= Math.min(0.6 * series.share, 2 * this.#maxRefusedShare);
    const count = unhelped ? series.unhelped + 1 : 0;
    if (count >= 3) {
      // Three windows in a row: the service's refusals do not depend on our rate. (A limit stops refusing once its
      // bucket refills, which the first windows at a lower pace may not show yet: the burst it let through at first
      // made the rate it accepted look higher, and a drained bucket refills only as fast as the pace falls below it.)
      this.#rate = undefined;
      this.#series = undefined;
      this.#unpacedUntil = now + this.#unpacedMs * 2 ** Math.min(6, this.#unhelpedSeries);
      this.#unhelpedSeries += 1;
      return;
    }
    this.#series = { share: series?.share ?? share, accepted: acceptedRate, unhelped: count };
    this.#rate = Math.max(1, this.#slowerPace(paced, acceptedRate, answeredRate));
  }

  /**
   * The pace after a window without a refusal. Well below the limit found, back to near it at once (a pace measured
   * low, or cut while Retry-After waits held requests back); near it, one small step a window, since a step past it
   * is refused until the pace comes back down. With no limit found yet, a quarter more each window: such a pace was
   * set from a window that Retry-After waits slowed (a fifth of the limit, say), and the bench's read of 24 s at 50
   * a second spent 8 of them climbing back at 3%, 6%, 9%... a window.
   */
  #fasterPace(paced: number): number {
    const ceiling = this.#ceiling;
    if (ceiling !== undefined && paced < 0.9 * ceiling) return Math.min(0.9 * ceiling, 2 * paced);
    if (ceiling === undefined) return paced * 1.25;
    const near = paced <= 1.1 * ceiling;
    return paced * (1 + (near ? this.#probeStep / 3 : Math.min(0.25, this.#probeStep * this.#clean)));
  }

  /**
   * The pace after a refused window. Sent at the pace (the client offered more than the service carried out), the
   * window measured the limit: just below what was carried out. Otherwise requests were held back by Retry-Afters
   * rather than the pace, and the client sent less than it could: the limit is below the rate it was answered at
   * (refusals included), by how much it cannot tell.
   */
  #slowerPace(paced: number | undefined, acceptedRate: number, answeredRate: number): number {
    const below = 1 - this.#maxRefusedShare;
    if (paced !== undefined && answeredRate >= 0.9 * paced) {
      this.#ceiling = acceptedRate;
      return Math.min(paced, acceptedRate) * below;
    }
    // Sent at about the pace: slow down a step, not to the rate the Retry-After waits left.
    if (paced !== undefined && paced <= 2 * answeredRate) return Math.min(paced, this.#ceiling ?? Infinity) * below;
    // The pace was far above what was sent (or there was none): what was sent, or not far below the limit found.
    return Math.min(paced ?? Infinity, Math.max(answeredRate, 0.8 * (this.#ceiling ?? 0))) * below;
  }
}
