import { describe, expect, it } from 'vitest';
import { Limiter, type LimiterTicket } from './limiter.js';
import { Pacer } from './pacer.js';

/**
 * A read simulated on a clock of its own: its caller (readLive) keeps `workers` requests going at a time, each through
 * the client's own limiter and this pacer, answered after `latencyMs`; a refused one waits its Retry-After (keeping its
 * caller's slot, as readLive's listings do), then is sent again. The service refuses by a token bucket
 * (`bucket`) or a seeded share of requests whatever the rate (`randomShare`). Pure: no timers, the same run every time.
 */
interface Service {
  bucket?: { perSecond: number; burst: number };
  randomShare?: number;
}

interface Run {
  attempts: number;
  refused: number;
  /** Requests answered without a 429, a second, once the first `settleMs` are over. */
  steadyRate: number;
  /** Attempts refused once the first `settleMs` are over, as a share of those attempts. */
  steadyRefusedShare: number;
  wallMs: number;
}

function simulate(service: Service, requests: number, { workers = 8, latencyMs = 10, retryAfterMs = 1000, settleMs = 5000, paced = true } = {}): Run {
  let now = 0;
  const pacer = new Pacer({ now: () => now });
  // The transport's own limiter: it halves the parallelism on a 429 and earns it back, as in a real read.
  const limiter = new Limiter(workers, { now: () => now });
  let tokens = service.bucket?.burst ?? 0;
  let filledAt = 0;
  let seed = 7;
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const refuses = (at: number): boolean => {
    if (service.randomShare !== undefined) return random() < service.randomShare;
    const bucket = service.bucket;
    if (bucket === undefined) return false;
    tokens = Math.min(bucket.burst, tokens + ((at - filledAt) / 1000) * bucket.perSecond);
    filledAt = at;
    if (tokens < 1) return true;
    tokens -= 1;
    return false;
  };
  // Events in time order, as the transport's send loop: a request takes a limiter slot, waits the pace it reserved,
  // is sent, and its answer gives the slot back; a refused one waits its Retry-After without a limiter slot (but in
  // its caller's), then queues again. A tick every 100 ms lets slots the limiter regains with time take queued requests.
  type Event = { at: number; kind: 'send' | 'answer' | 'requeue' | 'tick'; ticket?: LimiterTicket; refused?: boolean };
  const events: Event[] = [{ at: 0, kind: 'tick' }];
  // Requests the caller has not started yet (readLive holds its own `workers` of them at once, each until it is
  // answered without a 429, its Retry-After waits included), and started ones waiting for a limiter slot.
  let unstarted = requests;
  let started = 0;
  let queued = 0;
  let attempts = 0;
  let refused = 0;
  let steadyAttempts = 0;
  let steadyRefused = 0;
  let steadyDone = 0;
  let done = 0;
  let end = 0;
  const fill = (): void => {
    for (; unstarted > 0 && started < workers; unstarted -= 1, started += 1) queued += 1;
    for (let ticket = queued > 0 ? limiter.take() : undefined; ticket !== undefined; ticket = queued > 0 ? limiter.take() : undefined) {
      queued -= 1;
      events.push({ at: now + (paced ? pacer.reserve() : 0), kind: 'send', ticket });
    }
  };
  while (done < requests) {
    let i = -1;
    for (let k = 0; k < events.length; k += 1) if (i < 0 || (events[k]?.at ?? 0) < (events[i]?.at ?? 0)) i = k;
    if (i < 0) break;
    const event = events.splice(i, 1)[0] as Event;
    now = event.at;
    if (event.kind === 'send') {
      const no = refuses(now);
      attempts += 1;
      if (no) refused += 1;
      if (now >= settleMs) {
        steadyAttempts += 1;
        if (no) steadyRefused += 1;
        else steadyDone += 1;
      }
      events.push({ at: now + latencyMs, kind: 'answer', refused: no, ...(event.ticket === undefined ? {} : { ticket: event.ticket }) });
      continue;
    }
    if (event.kind === 'answer') {
      const ticket = event.ticket as LimiterTicket;
      if (event.refused === true) limiter.rateLimited(ticket);
      pacer.answered(event.refused === true, retryAfterMs);
      limiter.release(ticket);
      end = Math.max(end, now);
      if (event.refused === true) events.push({ at: now + retryAfterMs, kind: 'requeue' });
      else {
        done += 1;
        started -= 1;
      }
    } else if (event.kind === 'requeue') queued += 1;
    else events.push({ at: now + 100, kind: 'tick' });
    fill();
  }
  const steadyMs = Math.max(1, end - settleMs);
  return { attempts, refused, steadyRate: (steadyDone * 1000) / steadyMs, steadyRefusedShare: steadyRefused / Math.max(1, steadyAttempts), wallMs: end };
}

describe('Pacer', () => {
  it('does nothing for a service that never refuses: no waits, no pace', () => {
    const pacer = new Pacer({ now: () => 0 });
    for (let i = 0; i < 100; i += 1) {
      expect(pacer.reserve()).toBe(0);
      pacer.answered(false);
    }
    expect(pacer.rate).toBeUndefined();
  });

  it('spaces starts by the pace once refusals set one', () => {
    let now = 0;
    const pacer = new Pacer({ now: () => now, windowAnswers: 20, windowMs: 1000 });
    // A window of 40 answers over a second, 20 of them refused: the service took 20 a second.
    for (let i = 0; i < 40; i += 1) {
      now = i * 25;
      pacer.reserve();
      pacer.answered(i % 2 === 0);
    }
    now = 1000;
    pacer.answered(false);
    const rate = pacer.rate ?? 0;
    expect(rate).toBeGreaterThan(15);
    expect(rate).toBeLessThan(21);
    const waits = [pacer.reserve(), pacer.reserve(), pacer.reserve()];
    expect(waits[1]! - waits[0]!).toBeCloseTo(1000 / rate, 5);
    expect(waits[2]! - waits[1]!).toBeCloseTo(1000 / rate, 5);
  });

  it('against a token bucket of 50 a second, sustains at least 0.9x the rate with at most 5% of requests refused', () => {
    for (const burst of [10, 50, 100]) {
      const run = simulate({ bucket: { perSecond: 50, burst } }, 1500);
      expect(run.steadyRate).toBeGreaterThanOrEqual(45);
      expect(run.steadyRefusedShare).toBeLessThanOrEqual(0.05);
      expect(run.refused / run.attempts).toBeLessThanOrEqual(0.05);
    }
  });

  it('sustains 0.9x a limit over the whole read, its first seconds included, where the bucket holds a second of requests', () => {
    // The bench's case (read-at-a-rate.mjs): about 24 s of requests at the limit. Pacing starts from a window that
    // Retry-After waits slowed, so its first pace is far below the limit; it must climb back within a few seconds.
    for (const perSecond of [20, 50, 200]) {
      for (const burst of [perSecond, 2 * perSecond]) {
        const requests = perSecond * 24;
        const run = simulate({ bucket: { perSecond, burst } }, requests);
        expect((requests * 1000) / run.wallMs).toBeGreaterThanOrEqual(0.9 * perSecond);
        // About 5%: at 20 a second, each refusal is a larger share.
        expect(run.refused / run.attempts).toBeLessThanOrEqual(0.065);
      }
    }
  });

  it('keeps up with faster and slower limits too, refusing at most about 5%', () => {
    for (const perSecond of [20, 200]) {
      const run = simulate({ bucket: { perSecond, burst: perSecond } }, perSecond * 30);
      expect(run.steadyRate).toBeGreaterThanOrEqual(0.9 * perSecond);
      expect(run.refused / run.attempts).toBeLessThanOrEqual(0.06);
    }
  });

  it('refuses far less often than unpaced sending, whose refused callers sit out their Retry-After, and is no slower', () => {
    const paced = simulate({ bucket: { perSecond: 50, burst: 50 } }, 1500);
    const unpaced = simulate({ bucket: { perSecond: 50, burst: 50 } }, 1500, { paced: false });
    // Unpaced, each refused caller waits a second and the rest send at about the limit: about one request in eight
    // is refused, a share a service refusing at random could have too; the second's wait is what tells them apart.
    expect(unpaced.refused / unpaced.attempts).toBeGreaterThan(0.1);
    expect(paced.refused / paced.attempts).toBeLessThan(unpaced.refused / unpaced.attempts / 3);
    expect(paced.wallMs).toBeLessThan(unpaced.wallMs * 1.3);
  });

  it('starts pacing at one refusal in eight only when the refusals ask callers to wait a second', () => {
    const paceAfter = (retryAfterMs: number): number | undefined => {
      let now = 0;
      const pacer = new Pacer({ now: () => now });
      // One request in eight refused, at 200 answers a second: a window's worth.
      for (let i = 0; i < 40; i += 1) {
        now = i * 5;
        pacer.reserve();
        pacer.answered(i % 8 === 0, i % 8 === 0 ? retryAfterMs : undefined);
      }
      return pacer.rate;
    };
    expect(paceAfter(0)).toBeUndefined();
    expect(paceAfter(1000)).toBeGreaterThan(0);
  });

  it('does not starve a read whose service refuses a share of requests whatever the rate', () => {
    const paced = simulate({ randomShare: 0.1 }, 3000, { retryAfterMs: 0 });
    const unpaced = simulate({ randomShare: 0.1 }, 3000, { retryAfterMs: 0, paced: false });
    expect(paced.wallMs).toBeLessThan(unpaced.wallMs * 1.25);
  });
});
