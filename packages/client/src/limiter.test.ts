import { describe, expect, it } from 'vitest';
import { Limiter } from './limiter.js';
import { mockApi } from './test-utils/mock-api.js';

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
      limiter.run(async () => {
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
    await expect(limiter.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limiter.run(async () => 'next')).resolves.toBe('next');
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
