export { acquireApplyLock, breakApplyLock, DEFAULT_LOCK_LEASE_MS, DEFAULT_LOCK_TIMEOUT_MS, listApplyLocks, oldestLock, type ApplyLock, type LockClient, type LockOptions } from './apply-lock.js';
export { LockFailedError, LockHeldError, LockNotPermittedError, LockReleaseError, LockStaleError } from './errors.js';
export { describeHolder, isExpired, isLockObject, LOCK_PREFIX, LOCK_SLA_THRESHOLDS, lockOwner, type HeldLock, type LockOwner, type LockRecord } from './record.js';
