/**
 * The apply lock: one apply writes to an account at a time, so two applies started together cannot both create the
 * objects a plan lacks.
 *
 * The account holds the lock as an SLA whose name carries the holder's record (`record.ts`). The spec makes an SLA
 * name unique (409 on a duplicate), but the published definition declares no 409, so the lock does not rest on it:
 * every apply names its object apart (a random id), announces itself by creating it, then lists. It holds the lock
 * only when its object is the only lock object listed. Two applies can never both hold it: the one that created
 * its object later lists later, and sees the other's, which stays until its holder releases. When contenders see
 * each other, the one whose object has the lowest GUID keeps it and waits; the others remove theirs and wait until
 * no lock object is left, so a collision always lets one of them through. A lease (renewed while the holder runs)
 * tells a lock left by a crashed apply, which `monsync unlock` may then break; a waiting apply never breaks one.
 */
import { randomBytes } from 'node:crypto';
import { isUnclearOutcome } from '@monsync/client';
import type { ApiObject, Listing } from '../live/types.js';
import { heldLocks, lockSlaBody, isExpired, isoSeconds, type HeldLock, type LockOwner, type LockRecord } from './record.js';
import { LockFailedError, LockHeldError, LockNotPermittedError, LockReleaseError, LockStaleError } from './errors.js';

/** The SLA routes the lock uses; `MonitoringClient` satisfies it. */
export interface LockClient {
  slas: {
    list(): Listing<ApiObject>;
    create(body: ApiObject): Promise<unknown>;
    replace(slaGuid: string, body: ApiObject): Promise<unknown>;
    delete(slaGuid: string): Promise<unknown>;
  };
}

export const DEFAULT_LOCK_TIMEOUT_MS = 5 * 60_000;
export const DEFAULT_LOCK_LEASE_MS = 10 * 60_000;
const FIRST_POLL_MS = 250;
const MAX_POLL_MS = 5_000;

export interface LockOptions {
  owner: LockOwner;
  /** How long to wait for another apply's lock before giving up (0: give up at once). */
  timeoutMs?: number;
  /** How long the lock stays valid without renewal; renewed every quarter of it while held. */
  leaseMs?: number;
  /** Called before each wait with the apply that holds the lock (or contends for it) and the time waited so far. */
  onWait?: (holder: HeldLock, waitedMs: number) => void;
  /** Called when renewing the lease failed (the apply goes on; the next renewal tries again). */
  onRenewFailed?: (error: unknown) => void;
  signal?: AbortSignal;
  /** Injected in tests. */
  now?: () => Date;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

export interface ApplyLock {
  /** The lock object's SLA GUID. */
  readonly guid: string;
  readonly record: LockRecord;
  /** Stops renewing and removes the lock object; a lock already removed (broken by `monsync unlock`) is fine. */
  release(): Promise<void>;
}

function status(error: unknown): number | undefined {
  const value = typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined;
  return typeof value === 'number' ? value : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

function compareGuids(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The lock objects in the account now. */
export async function listApplyLocks(client: Pick<LockClient, 'slas'>): Promise<HeldLock[]> {
  return heldLocks(await client.slas.list().toArray());
}

/** The one to name as the holder: the oldest record, then the lowest GUID. */
export function oldestLock(locks: readonly HeldLock[]): HeldLock | undefined {
  return [...locks].sort((a, b) => (a.since < b.since ? -1 : a.since > b.since ? 1 : compareGuids(a.guid, b.guid)))[0];
}

async function removeQuietly(client: LockClient, guid: string): Promise<void> {
  try {
    await client.slas.delete(guid);
  } catch (error) {
    if (status(error) !== 404) throw new LockReleaseError(guid, messageOf(error));
  }
}

/** Renews the lease every quarter of it until stopped; the timer never keeps the process alive. */
function heartbeat(client: LockClient, guid: string, record: LockRecord, options: { leaseMs: number; now: () => Date; onRenewFailed: ((error: unknown) => void) | undefined }) {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running !== undefined) return;
    const renewed = { ...record, expires: isoSeconds(new Date(options.now().getTime() + options.leaseMs)) };
    running = client.slas
      .replace(guid, lockSlaBody(renewed))
      .then(
        () => void (record.expires = renewed.expires),
        (error: unknown) => options.onRenewFailed?.(error),
      )
      .finally(() => (running = undefined));
  }, Math.max(1_000, Math.floor(options.leaseMs / 4)));
  timer.unref();
  return async (): Promise<void> => {
    clearInterval(timer);
    await running;
  };
}

/**
 * Takes the apply lock, waiting up to `timeoutMs` while another apply holds it. Throws `LockHeldError` on timeout,
 * `LockStaleError` when the lock another apply left is past its lease, `LockNotPermittedError` when the API
 * account may not create SLAs. On any failure its own lock object is removed again.
 */
export async function acquireApplyLock(client: LockClient, options: LockOptions): Promise<ApplyLock> {
  const now = options.now ?? (() => new Date());
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  const leaseMs = options.leaseMs ?? DEFAULT_LOCK_LEASE_MS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const started = now().getTime();
  const id = randomBytes(8).toString('hex');
  const fresh = (): LockRecord => ({ ...options.owner, id, since: isoSeconds(now()), expires: isoSeconds(new Date(now().getTime() + leaseMs)) });
  let record = fresh();
  let mine: string | undefined;
  let announced = false;
  let poll = FIRST_POLL_MS;
  try {
    for (;;) {
      if (options.signal?.aborted === true) throw new LockFailedError('the apply was stopped while it waited for the apply lock');
      const locks = await listApplyLocks(client);
      const own = locks.filter((l) => l.id === id).sort((a, b) => compareGuids(a.guid, b.guid));
      // A create whose answer was lost and was sent again can leave two: keep one.
      for (const extra of own.slice(1)) await removeQuietly(client, extra.guid);
      mine = own[0]?.guid;
      const others = locks.filter((l) => l.id !== id);
      if (others.length === 0 && mine !== undefined) {
        const stop = heartbeat(client, mine, record, { leaseMs, now, onRenewFailed: options.onRenewFailed });
        const guid = mine;
        return {
          guid,
          record,
          async release() {
            await stop();
            await removeQuietly(client, guid);
          },
        };
      }
      if (others.length === 0) {
        record = fresh();
        announced = true;
        await announce(client, record);
        continue;
      }
      const stale = others.find((l) => isExpired(l, now()));
      if (stale !== undefined) throw new LockStaleError(stale);
      const keep = mine !== undefined && others.every((l) => compareGuids(mine ?? '', l.guid) < 0);
      if (mine !== undefined && !keep) {
        await removeQuietly(client, mine);
        mine = undefined;
      }
      const holder = oldestLock(others) as HeldLock;
      const waited = now().getTime() - started;
      if (waited >= timeoutMs) throw new LockHeldError(holder, waited);
      options.onWait?.(holder, waited);
      // Jitter, so that contenders that backed off together do not come back together.
      await sleep(Math.min(poll * (0.5 + random()), Math.max(1, timeoutMs - waited)), options.signal);
      poll = Math.min(MAX_POLL_MS, poll * 1.5);
    }
  } catch (error) {
    // Stopped or failed right after announcing itself, it has not listed its object yet: find it by its id.
    const left = mine !== undefined ? [mine] : announced ? await ownLockGuids(client, id).catch(() => []) : [];
    for (const guid of left) await removeQuietly(client, guid).catch(() => undefined);
    throw error;
  }
}

async function ownLockGuids(client: LockClient, id: string): Promise<string[]> {
  return (await listApplyLocks(client)).filter((lock) => lock.id === id).map((lock) => lock.guid);
}

/** Creates this apply's lock object. An unclear outcome is left to the next listing, which finds it by its id. */
async function announce(client: LockClient, record: LockRecord): Promise<void> {
  try {
    await client.slas.create(lockSlaBody(record));
  } catch (error) {
    const code = status(error);
    if (code === 403) throw new LockNotPermittedError(messageOf(error));
    // An unclear outcome (0, 5xx, a 2xx answer that could not be read): the object may exist; 409: a name
    // collision the listing sorts out. Either way, list.
    if (isUnclearOutcome(error) || code === 0 || code === 409 || (code !== undefined && code >= 500)) return;
    throw new LockFailedError(`taking the apply lock failed: ${messageOf(error)}`);
  }
}

/** Removes a lock object (`monsync unlock`). */
export async function breakApplyLock(client: LockClient, guid: string): Promise<void> {
  await removeQuietly(client, guid);
}
