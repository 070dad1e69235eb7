import { UnexpectedResponseError } from '@monsync/client';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acquireApplyLock, LockFailedError, LockHeldError, LockNotPermittedError, LockStaleError, type LockClient } from '../src/lock/index.js';
import type { ApiObject } from '../src/live/types.js';

/** The thresholds of an SLA in the published definition (its SLA fact table; the response time as it is spelt there). */
const SLA_THRESHOLDS = ['UptimeErrorThreshold', 'UptimeWarningThreshold', 'LoadTimeErrorThreshold', 'OperatorReponseTimeThreshold'];

/**
 * An SLA collection as the published definition describes it: duplicate names accepted (no 409), every request
 * taking a random while, so that the requests of several applies interleave in every order.
 */
function fakeAccount(options: { random: () => number; refuseCreate?: number; unreadableCreateAnswer?: boolean; maxDelayMs?: number; beforeCreate?: (body: ApiObject) => Promise<string | undefined> }) {
  const slas = new Map<string, ApiObject>();
  let next = 0;
  const pause = () => new Promise<void>((resolve) => setTimeout(resolve, Math.floor(options.random() * (options.maxDelayMs ?? 3))));
  const client: LockClient = {
    slas: {
      list: () => ({
        toArray: async () => {
          await pause();
          const copy = [...slas.values()].map((s) => ({ ...s }));
          await pause();
          return copy;
        },
      }),
      create: async (body) => {
        await pause();
        if (options.refuseCreate !== undefined) throw Object.assign(new Error(`POST /Sla failed with ${options.refuseCreate}`), { status: options.refuseCreate });
        const chosen = await options.beforeCreate?.(body);
        // GUIDs in random order, so the lowest is not always the first created.
        const guid = chosen ?? `${Math.floor(options.random() * 1e8).toString(16).padStart(8, '0')}-${String(next++).padStart(4, '0')}`;
        slas.set(guid, { ...body, SlaGuid: guid });
        await pause();
        if (options.unreadableCreateAnswer === true) throw unreadableAnswer();
      },
      replace: async (guid, body) => {
        await pause();
        const existing = slas.get(guid);
        if (existing !== undefined) slas.set(guid, { ...body, SlaGuid: guid });
      },
      delete: async (guid) => {
        await pause();
        if (!slas.delete(guid)) throw Object.assign(new Error('404'), { status: 404 });
      },
    },
  };
  return { client, slas };
}

/** A create the service carried out, answered with a 2xx body the client could not read. */
function unreadableAnswer(): UnexpectedResponseError {
  return new UnexpectedResponseError({ method: 'POST', path: '/Sla', status: 201, message: 'POST /Sla answered 201 with a body that is not JSON' });
}

/** A small seeded generator (mulberry32): evenly spread delays, the same for a seed that fast-check shrinks to. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const owner = { host: 'test', user: 'tester' };
const quickSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.min(ms, 5)));

describe('the apply lock', () => {
  it('is held by one apply at a time, in any interleaving of any number of applies, and each gets it in turn', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 5 }), fc.integer(), async (applies, seed) => {
        const next = seeded(seed);
        const { client, slas } = fakeAccount({ random: next });
        let holding = 0;
        let most = 0;
        let served = 0;
        await Promise.all(
          Array.from({ length: applies }, async () => {
            // Started a little apart, so one may list before, between or after the others' writes.
            await new Promise((resolve) => setTimeout(resolve, Math.floor(next() * 8)));
            const lock = await acquireApplyLock(client, { owner, timeoutMs: 60_000, sleep: quickSleep, random: next });
            holding += 1;
            most = Math.max(most, holding);
            await new Promise((resolve) => setTimeout(resolve, Math.floor(next() * 8)));
            holding -= 1;
            served += 1;
            await lock.release();
          }),
        );
        expect(most).toBe(1);
        expect(served).toBe(applies);
        expect(slas.size).toBe(0);
      }),
      { numRuns: 30 },
    );
  });

  it('is not taken by an apply that announced itself after the holder looked, even with the lowest GUID', async () => {
    // B lists (nothing there), then is slow to create its object; meanwhile A lists, creates and holds. B's object,
    // created last, gets the lowest GUID: a rule "lowest GUID holds" would let B in beside A.
    let releaseB: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (releaseB = resolve));
    const { client, slas } = fakeAccount({
      random: () => 0,
      maxDelayMs: 0,
      beforeCreate: async (body) => {
        if (!String(body['Description']).includes('host=b')) return 'ffff-a';
        await gate;
        return '0000-b';
      },
    });
    let bHolds = false;
    const b = acquireApplyLock(client, { owner: { host: 'b' }, sleep: quickSleep }).then((lock) => {
      bHolds = true;
      return lock;
    });
    await quickSleep(5);
    const a = await acquireApplyLock(client, { owner: { host: 'a' }, sleep: quickSleep });
    releaseB();
    for (let i = 0; i < 20; i += 1) await quickSleep(5);
    expect(bHolds).toBe(false);
    // B keeps its object (lowest GUID) and waits its turn.
    expect([...slas.keys()].sort()).toEqual(['0000-b', 'ffff-a']);
    await a.release();
    const lockB = await b;
    expect(lockB.guid).toBe('0000-b');
    await lockB.release();
  });

  it('names the holder while waiting and gives up after the timeout, leaving nothing of its own', async () => {
    const { client, slas } = fakeAccount({ random: () => 0.5, maxDelayMs: 0 });
    const held = await acquireApplyLock(client, { owner: { host: 'ci-7', user: 'runner', run: 'https://ci.example/run/9' }, sleep: quickSleep });
    let now = Date.now();
    const waits: string[] = [];
    const attempt = acquireApplyLock(client, {
      owner,
      timeoutMs: 1_000,
      now: () => new Date(now),
      sleep: async (ms) => {
        now += ms;
        await quickSleep(1);
      },
      onWait: (holder) => waits.push(`${holder.user ?? ''}@${holder.host ?? ''} ${holder.run ?? ''}`),
    });
    await expect(attempt).rejects.toBeInstanceOf(LockHeldError);
    await expect(attempt).rejects.toThrow(/another apply holds the apply lock: runner@ci-7 \(run https:\/\/ci\.example\/run\/9\) since .*; gave up after 1s/);
    expect(waits[0]).toBe('runner@ci-7 https://ci.example/run/9');
    expect([...slas.keys()]).toEqual([held.guid]);
    await held.release();
    expect(slas.size).toBe(0);
  });

  it('does not wait for a lock past its lease, even one named as an older monsync named it: it names it and how to break it', async () => {
    const { client } = fakeAccount({ random: () => 0.5, maxDelayMs: 0 });
    await client.slas.create({ Description: 'monsync:lock id=old since=2020-01-01T00:00:00Z expires=2020-01-01T00:10:00Z host=gone' });
    const attempt = acquireApplyLock(client, { owner, sleep: quickSleep });
    await expect(attempt).rejects.toBeInstanceOf(LockStaleError);
    await expect(attempt).rejects.toThrow(/held by gone since 2020-01-01T00:00:00Z \(lease until 2020-01-01T00:10:00Z\), and its lease has run out.*monsync unlock \S+-0000/);
  });

  it('stopped while announcing itself, removes the lock object it created before listing it', async () => {
    const controller = new AbortController();
    const { client, slas } = fakeAccount({
      random: () => 0.5,
      maxDelayMs: 0,
      beforeCreate: async () => {
        controller.abort();
        return undefined;
      },
    });
    const attempt = acquireApplyLock(client, { owner, sleep: quickSleep, signal: controller.signal });
    await expect(attempt).rejects.toBeInstanceOf(LockFailedError);
    expect(slas.size).toBe(0);
  });

  it('finds its own lock object by listing when the create answer could not be read, and holds it', async () => {
    const { client, slas } = fakeAccount({ random: seeded(7), unreadableCreateAnswer: true });
    const lock = await acquireApplyLock(client, { owner, timeoutMs: 1_000, sleep: quickSleep, random: seeded(8) });
    expect(slas.size).toBe(1);
    await lock.release();
    expect(slas.size).toBe(0);
  });

  it('says when the API account may not create the lock, and names --no-lock', async () => {
    const { client } = fakeAccount({ random: () => 0.5, maxDelayMs: 0, refuseCreate: 403 });
    const attempt = acquireApplyLock(client, { owner, sleep: quickSleep });
    await expect(attempt).rejects.toBeInstanceOf(LockNotPermittedError);
    await expect(attempt).rejects.toThrow(/may not create the apply lock .*POST \/Sla failed with 403.*--no-lock/);
  });

  it('renews its lease while held, sending the whole SLA each time', async () => {
    const { client, slas } = fakeAccount({ random: () => 0.5, maxDelayMs: 0 });
    let now = Date.parse('2026-01-01T00:00:00Z');
    const lock = await acquireApplyLock(client, { owner, leaseMs: 4_000, now: () => new Date(now), sleep: quickSleep });
    expect(String(slas.get(lock.guid)?.['Description'])).toContain('expires=2026-01-01T00:00:04Z');
    now += 3_000;
    // The renewal timer runs every quarter of the lease (at least every second): wait for it, at most ten seconds.
    for (let i = 0; i < 100 && !String(slas.get(lock.guid)?.['Description']).includes('expires=2026-01-01T00:00:07Z'); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(String(slas.get(lock.guid)?.['Description'])).toContain('expires=2026-01-01T00:00:07Z');
    expect(Object.keys(slas.get(lock.guid) ?? {}).sort()).toEqual(['Description', ...SLA_THRESHOLDS, 'SlaGuid'].sort());
    await lock.release();
  });

  it('is an SLA named for what it is, with every threshold an SLA has, none of which any measurement reaches', async () => {
    const { client, slas } = fakeAccount({ random: () => 0.5, maxDelayMs: 0 });
    const lock = await acquireApplyLock(client, { owner: { host: 'ci-7', user: 'runner' }, sleep: quickSleep });
    const sla = slas.get(lock.guid) ?? {};
    expect(String(sla['Description'])).toMatch(/^monsync apply lock \(do not edit\) id=[0-9a-f]{16} since=\S+ expires=\S+ host=ci-7 user=runner$/);
    // The published definition's SLA thresholds, each a number: uptime thresholds no uptime is below, and limits
    // (load time, operator response) above anything measured, so a report on the lock never shows a breach.
    expect(SLA_THRESHOLDS.map((field) => typeof sla[field])).toEqual(['number', 'number', 'number', 'number']);
    expect(sla['UptimeErrorThreshold']).toBe(0);
    expect(sla['UptimeWarningThreshold']).toBe(0);
    expect(sla['LoadTimeErrorThreshold']).toBeGreaterThanOrEqual(3_600_000);
    expect(sla['OperatorReponseTimeThreshold']).toBeGreaterThanOrEqual(24 * 60);
    await lock.release();
  });
});
