import { describe, expect, it } from 'vitest';
import { Limiter, type LimiterTicket } from './limiter.js';
import { mockApi } from './test-utils/mock-api.js';

/** What a task running in a slot may tell the limiter about its request. */
interface LimiterSlot {
  rateLimited(): void;
}

/** A task in a slot, as the transport runs each attempt: take (or wait for) a ticket, run, release. */
async function run<T>(limiter: Limiter, task: (slot: LimiterSlot) => Promise<T>): Promise<T> {
  const ticket = limiter.take() ?? (await limiter.wait());
  try {
    return await task({ rateLimited: () => limiter.rateLimited(ticket) });
  } finally {
    limiter.release(ticket);
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('Limiter', () => {
  it('runs at most `limit` tasks at once and starts waiters in arrival order', async () => {
    const limiter = new Limiter(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = gates.map((gate, i) =>
      run(limiter, async () => {
        started.push(i);
        await gate.promise;
        return i;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(limiter.active).toBe(2);
    expect(limiter.pending).toBe(2);
    gates[1]?.resolve();
    await runs[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    gates[0]?.resolve();
    gates[2]?.resolve();
    gates[3]?.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(limiter.active).toBe(0);
  });

  it('frees the slot when a task fails', async () => {
    const limiter = new Limiter(1);
    await expect(run(limiter, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(run(limiter, async () => 'next')).resolves.toBe('next');
  });

  it('hands a free slot out at once, and a released one to the first waiter, never past one', async () => {
    const limiter = new Limiter(1);
    const first = limiter.take();
    expect(first).toBeDefined();
    expect(limiter.take()).toBeUndefined();
    const order: string[] = [];
    const waiters = ['a', 'b'].map((name) => limiter.wait().then((ticket) => (order.push(name), ticket)));
    await Promise.resolve();
    expect(order).toEqual([]);
    limiter.release(first as LimiterTicket);
    // Freed for a waiter: a newcomer does not jump the queue.
    expect(limiter.take()).toBeUndefined();
    const a = await waiters[0];
    expect(order).toEqual(['a']);
    limiter.release(a as LimiterTicket);
    limiter.release((await waiters[1]) as LimiterTicket);
    expect(order).toEqual(['a', 'b']);
    expect(limiter.active).toBe(0);
  });

  it('rejects a limit below 1', () => {
    expect(() => new Limiter(0)).toThrow(/integer >= 1/);
  });
});

describe('client concurrency', () => {
  it('shares one limit across all resource families', async () => {
    let inFlight = 0;
    let peak = 0;
    const api = mockApi({
      parallelism: 3,
      onRequest: () => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
      },
      onResponse: () => {
        inFlight -= 1;
      },
    });
    api.reply('GET', '/Sla', 200, []).delay(5).persist();
    api.reply('GET', '/VaultItem', 200, []).delay(5).persist();
    api.reply('GET', '/Operator', 200, []).delay(5).persist();
    const calls = [];
    for (let i = 0; i < 4; i += 1) {
      calls.push(api.client.slas.list().toArray(), api.client.vaultItems.list().toArray(), api.client.operators.list().toArray());
    }
    await Promise.all(calls);
    expect(api.calls()).toHaveLength(12);
    expect(peak).toBe(3);
  });
});

describe('Limiter under rate limiting (injected clock)', () => {
  const clock = () => {
    let t = 1_000_000;
    return { now: () => t, advance: (ms: number) => void (t += ms) };
  };
  /** Runs a task that reports a 429 and ends at once. */
  const limited = (limiter: Limiter) => run(limiter, async (slot) => slot.rateLimited());

  it('halves its limit on a 429, down to 1 and never below', async () => {
    const c = clock();
    const limiter = new Limiter(8, { now: c.now });
    expect(limiter.current).toBe(8);
    const seen: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      await limited(limiter);
      seen.push(limiter.current);
    }
    expect(seen).toEqual([4, 2, 1, 1, 1]);
    expect(limiter.throttled).toBe(true);
  });

  it('halves once for a burst: 429s to requests started before the last halving change nothing more', async () => {
    const c = clock();
    const limiter = new Limiter(8, { now: c.now });
    const slots: LimiterSlot[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const running = Array.from({ length: 8 }, () =>
      run(limiter, async (slot) => {
        slots.push(slot);
        await gate;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    for (const slot of slots) slot.rateLimited();
    expect(limiter.current).toBe(4);
    release();
    await Promise.all(running);
    await limited(limiter);
    expect(limiter.current).toBe(2);
  });

  it('regains one slot per recoveryMs without a 429, up to the configured limit', async () => {
    const c = clock();
    const limiter = new Limiter(8, { now: c.now, recoveryMs: 1000 });
    await limited(limiter);
    await limited(limiter);
    expect(limiter.current).toBe(2);
    c.advance(999);
    expect(limiter.current).toBe(2);
    c.advance(1);
    expect(limiter.current).toBe(3);
    c.advance(2500);
    expect(limiter.current).toBe(5);
    c.advance(60_000);
    expect(limiter.current).toBe(8);
    expect(limiter.throttled).toBe(false);
  });

  it('regains one slot for every window of answers without a 429 (as many as its limit), long before the clock would', async () => {
    const c = clock();
    const limiter = new Limiter(8, { now: c.now, recoveryMs: 1000 });
    const answered = () => run(limiter, async () => undefined);
    await limited(limiter);
    await limited(limiter);
    expect(limiter.current).toBe(2);
    await answered();
    expect(limiter.current).toBe(2);
    await answered();
    expect(limiter.current).toBe(3);
    for (let i = 0; i < 3; i += 1) await answered();
    expect(limiter.current).toBe(4);
    // A refusal halves the limit and starts the count again.
    await limited(limiter);
    expect(limiter.current).toBe(2);
    await answered();
    expect(limiter.current).toBe(2);
    for (let i = 0; i < 2 + 3 + 4 + 5 + 6 + 7; i += 1) await answered();
    expect(limiter.current).toBe(8);
    expect(limiter.throttled).toBe(false);
  });

  it('adds the slots the clock gives to those answers earned, never counting one twice', async () => {
    const c = clock();
    const limiter = new Limiter(8, { now: c.now, recoveryMs: 1000 });
    await limited(limiter);
    await limited(limiter);
    c.advance(2000);
    expect(limiter.current).toBe(4);
    for (let i = 0; i < 4; i += 1) await run(limiter, async () => undefined);
    expect(limiter.current).toBe(5);
  });

  it('runs no more tasks at once than its lowered limit, and admits more as it recovers', async () => {
    const c = clock();
    const limiter = new Limiter(4, { now: c.now, recoveryMs: 100 });
    await limited(limiter);
    expect(limiter.current).toBe(2);
    const releases: (() => void)[] = [];
    const tasks = Array.from({ length: 4 }, () => run(limiter, () => new Promise<void>((resolve) => releases.push(resolve))));
    await new Promise((resolve) => setImmediate(resolve));
    expect([limiter.active, limiter.pending]).toEqual([2, 2]);
    c.advance(200);
    releases.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
    // Back to 4 allowed: the finished task's place and the regained ones start both waiters.
    expect([limiter.active, limiter.pending]).toEqual([3, 0]);
    for (const release of releases) release();
    await Promise.all(tasks);
  });
});
