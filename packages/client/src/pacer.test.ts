import { describe, expect, it } from 'vitest';
import { Pacer } from './pacer.js';

/**
 * A read simulated on a clock of its own: `workers` requests at a time (the client's parallelism), each answered
 * after `latencyMs`; a refused one waits its Retry-After, then is sent again. The service refuses by a token bucket
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
  // Events in time order: a slot takes the next request (after the pace it reserved), sends it, its answer comes
  // back; a refused request waits its Retry-After without a slot (as the transport's retries do), then queues again.
  type Event = { at: number; kind: 'ready' | 'send' | 'answer' | 'requeue'; refused?: boolean };
  const events: Event[] = Array.from({ length: workers }, () => ({ at: 0, kind: 'ready' as const }));
  let queued = requests;
  let idle = 0;
  let attempts = 0;
  let refused = 0;
  let steadyAttempts = 0;
  let steadyRefused = 0;
  let steadyDone = 0;
  let end = 0;
  for (;;) {
    let i = -1;
    for (let k = 0; k < events.length; k += 1) if (i < 0 || (events[k]?.at ?? 0) < (events[i]?.at ?? 0)) i = k;
    if (i < 0) break;
    const event = events.splice(i, 1)[0] as Event;
    now = event.at;
    if (event.kind === 'requeue') {
      queued += 1;
      if (idle > 0) {
        idle -= 1;
        events.push({ at: now, kind: 'ready' });
      }
    } else if (event.kind === 'ready') {
      if (queued === 0) {
        idle += 1;
        continue;
      }
      queued -= 1;
      const wait = paced ? pacer.reserve() : 0;
      events.push({ at: now + wait, kind: 'send' });
    } else if (event.kind === 'send') {
      const no = refuses(now);
      attempts += 1;
      if (no) refused += 1;
      if (now >= settleMs) {
        steadyAttempts += 1;
        if (no) steadyRefused += 1;
        else steadyDone += 1;
      }
      events.push({ at: now + latencyMs, kind: 'answer', refused: no });
    } else {
      pacer.answered(event.refused === true);
      end = Math.max(end, now);
      if (event.refused) events.push({ at: now + retryAfterMs, kind: 'requeue' });
      events.push({ at: now, kind: 'ready' });
    }
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
    for (const burst of [10, 50]) {
      const run = simulate({ bucket: { perSecond: 50, burst } }, 1500);
      expect(run.steadyRate).toBeGreaterThanOrEqual(45);
      expect(run.steadyRefusedShare).toBeLessThanOrEqual(0.05);
      expect(run.refused / run.attempts).toBeLessThanOrEqual(0.05);
    }
  });

  it('refuses far less often than unpaced sending, at the same throughput', () => {
    const paced = simulate({ bucket: { perSecond: 50, burst: 50 } }, 1500);
    const unpaced = simulate({ bucket: { perSecond: 50, burst: 50 } }, 1500, { paced: false });
    expect(unpaced.refused / unpaced.attempts).toBeGreaterThan(0.3);
    expect(paced.refused / paced.attempts).toBeLessThan((unpaced.refused / unpaced.attempts) / 5);
    expect(paced.wallMs).toBeLessThan(unpaced.wallMs * 1.1);
  });

  it('does not starve a read whose service refuses a share of requests whatever the rate', () => {
    const paced = simulate({ randomShare: 0.1 }, 3000, { retryAfterMs: 0 });
    const unpaced = simulate({ randomShare: 0.1 }, 3000, { retryAfterMs: 0, paced: false });
    expect(paced.wallMs).toBeLessThan(unpaced.wallMs * 1.25);
  });
});
