/** Why apply could not take (or give back) the apply lock. Each names what to do next. */
import { describeHolder, type HeldLock } from './record.js';

/** Another apply holds the lock and did not release it within the lock timeout. */
export class LockHeldError extends Error {
  readonly code = 'LOCK_HELD';
  readonly holder: HeldLock;
  constructor(holder: HeldLock, waitedMs: number) {
    super(
      `another apply holds the apply lock: ${describeHolder(holder)}; gave up after ${Math.round(waitedMs / 1000)}s. ` +
        `Run apply again once it is done, or wait longer with --lock-timeout (e.g. --lock-timeout 15m)`,
    );
    this.name = 'LockHeldError';
    this.holder = holder;
  }
}

/** The lock another apply left is past its lease: that apply stopped without releasing it (a crash, a killed job). */
export class LockStaleError extends Error {
  readonly code = 'LOCK_STALE';
  readonly holder: HeldLock;
  constructor(holder: HeldLock) {
    super(
      `the apply lock is held by ${describeHolder(holder)}, and its lease has run out: that apply stopped without releasing it. ` +
        `If it is no longer running, break the lock with: monsync unlock ${holder.guid}`,
    );
    this.name = 'LockStaleError';
    this.holder = holder;
  }
}

/** The API account may not create SLAs, which hold the lock. */
export class LockNotPermittedError extends Error {
  readonly code = 'LOCK_NOT_PERMITTED';
  constructor(detail: string) {
    super(
      `the API account may not create the apply lock (an SLA named "monsync apply lock (do not edit) ..."): ${detail}. Give the API account the right to ` +
        'create and delete SLAs, or run apply with --no-lock (then nothing stops two applies from writing at once and duplicating objects)',
    );
    this.name = 'LockNotPermittedError';
  }
}

/** The lock object could not be removed: the next apply will wait for it until its lease runs out. */
export class LockReleaseError extends Error {
  readonly code = 'LOCK_RELEASE_FAILED';
  readonly guid: string;
  constructor(guid: string, detail: string) {
    super(`the apply lock ${guid} could not be removed (${detail}); remove it with: monsync unlock ${guid}`);
    this.name = 'LockReleaseError';
    this.guid = guid;
  }
}

/** Any other failure while taking the lock (the service refused the request, the apply was stopped). */
export class LockFailedError extends Error {
  readonly code = 'LOCK_FAILED';
  constructor(message: string) {
    super(message);
    this.name = 'LockFailedError';
  }
}
