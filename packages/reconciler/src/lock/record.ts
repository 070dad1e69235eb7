/**
 * The apply lock's record: who holds it and until when, kept in the name (`Description`) of an SLA, the one text an
 * SLA has. `monsync apply lock (do not edit) id=... since=... expires=... host=... user=... operator=... run=...`,
 * values URI-encoded so a host or a run address cannot break the line, each cut to a bounded length.
 */
import type { ApiObject } from '../live/types.js';
import { plainText } from '../render/escape.js';

/**
 * Names starting with this are apply locks: hidden from plans, pulls and safety counts. It says what the object is
 * to whoever meets it in the web app's SLA overview.
 */
export const LOCK_PREFIX = 'monsync apply lock (do not edit) ';
/** The name locks had before 0.x: a lock an older monsync left still blocks, and is still shown and broken. */
const FORMER_LOCK_PREFIX = 'monsync:lock ';
const PREFIXES = [LOCK_PREFIX, FORMER_LOCK_PREFIX];

/**
 * The SLA fields besides the name, with every threshold the published definition lists (a service that requires
 * them would refuse a lock without), set so that no report built on the lock could read as a breach or a target:
 * no uptime is below 0%, so none is an error or a warning; the load-time limit (86,400,000: a day in milliseconds,
 * 1,000 days in seconds, whichever unit the service means) and the operator response limit (a year in minutes) are
 * beyond anything measured. The lock measures nothing: no monitor refers to it.
 */
export const LOCK_SLA_THRESHOLDS = {
  UptimeErrorThreshold: 0,
  UptimeWarningThreshold: 0,
  LoadTimeErrorThreshold: 86_400_000,
  OperatorReponseTimeThreshold: 525_600,
} as const;

/** The whole SLA body of a lock object: its record as the name, and the thresholds. */
export function lockSlaBody(record: LockRecord): ApiObject {
  return { Description: encodeLock(record), ...LOCK_SLA_THRESHOLDS };
}

function lockPrefixOf(description: unknown): string | undefined {
  return typeof description === 'string' ? PREFIXES.find((prefix) => description.startsWith(prefix)) : undefined;
}

/** Who takes the lock: shown to the applies that wait for it and by `monsync unlock`. */
export interface LockOwner {
  host?: string | undefined;
  user?: string | undefined;
  /** The operator the API account acts for (`MONSYNC_OPERATOR`). */
  operator?: string | undefined;
  /** The CI run's address, when the apply runs in CI. */
  run?: string | undefined;
}

export interface LockRecord extends LockOwner {
  /** Random, per apply: tells an apply's own lock object from the others (they may share a name elsewhere). */
  id: string;
  /** ISO 8601 UTC, seconds. */
  since: string;
  /** The end of the lease: renewed while the holder runs; past it, `monsync unlock` may break the lock. */
  expires: string;
}

/** A lock object as read from the account. */
export interface HeldLock extends LockRecord {
  /** The SLA's GUID. */
  guid: string;
}

const OWNER_FIELDS = ['host', 'user', 'operator', 'run'] as const;
const MAX_VALUE = 120;

export function isoSeconds(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

export function encodeLock(record: LockRecord): string {
  const parts = [`id=${record.id}`, `since=${record.since}`, `expires=${record.expires}`];
  for (const field of OWNER_FIELDS) {
    const value = record[field];
    if (value !== undefined && value !== '') parts.push(`${field}=${encodeURIComponent(value.slice(0, MAX_VALUE))}`);
  }
  return `${LOCK_PREFIX}${parts.join(' ')}`;
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * The record of a lock object's name; `undefined` for any other name. A lock named by hand or cut short still counts
 * as a lock (id and times empty): it blocks applies until it is removed, as a stranger's lock should.
 */
export function parseLock(description: unknown): LockRecord | undefined {
  const prefix = lockPrefixOf(description);
  if (prefix === undefined) return undefined;
  const fields = new Map<string, string>();
  for (const part of String(description).slice(prefix.length).split(' ')) {
    const eq = part.indexOf('=');
    if (eq > 0) fields.set(part.slice(0, eq), decode(part.slice(eq + 1)));
  }
  const record: LockRecord = { id: fields.get('id') ?? '', since: fields.get('since') ?? '', expires: fields.get('expires') ?? '' };
  for (const field of OWNER_FIELDS) {
    const value = fields.get(field);
    if (value !== undefined) record[field] = value;
  }
  return record;
}

export function isLockObject(sla: ApiObject): boolean {
  return lockPrefixOf(sla['Description']) !== undefined;
}

export function heldLocks(slas: readonly ApiObject[]): HeldLock[] {
  const locks: HeldLock[] = [];
  for (const sla of slas) {
    const record = parseLock(sla['Description']);
    const guid = sla['SlaGuid'];
    if (record !== undefined && typeof guid === 'string') locks.push({ ...record, guid });
  }
  return locks;
}

/** A lease whose end cannot be read has no end the holder promised: it counts as expired, so it can be broken. */
export function isExpired(lock: Pick<LockRecord, 'expires'>, now: Date): boolean {
  const end = Date.parse(lock.expires);
  return Number.isNaN(end) || end <= now.getTime();
}

/** One line for people: `user@host (operator ..., run ...) since ... (lease until ...)`. */
/** Who holds a lock, for people: its fields are the service's text (an SLA's name), so shown as `plainText`. */
export function describeHolder(lock: LockRecord): string {
  const who = lock.user !== undefined && lock.host !== undefined ? `${lock.user}@${lock.host}` : (lock.host ?? lock.user ?? 'an unknown apply');
  const extra = [lock.operator === undefined ? '' : `operator ${lock.operator}`, lock.run === undefined ? '' : `run ${lock.run}`].filter((x) => x !== '');
  const since = lock.since === '' ? '' : ` since ${lock.since}`;
  const until = lock.expires === '' ? '' : ` (lease until ${lock.expires})`;
  return plainText(`${who}${extra.length > 0 ? ` (${extra.join(', ')})` : ''}${since}${until}`);
}

/** Who runs this process, from the machine and the CI's variables; nothing secret (no API user name). */
export function lockOwner(env: Readonly<Record<string, string | undefined>>, machine: { host?: string; user?: string } = {}): LockOwner {
  const owner: LockOwner = {};
  if (machine.host !== undefined && machine.host !== '') owner.host = machine.host;
  if (machine.user !== undefined && machine.user !== '') owner.user = machine.user;
  const operator = env['MONSYNC_OPERATOR']?.trim();
  if (operator !== undefined && operator !== '') owner.operator = operator;
  const github = env['GITHUB_RUN_ID'] !== undefined && env['GITHUB_REPOSITORY'] !== undefined;
  const run = github ? `${env['GITHUB_SERVER_URL'] ?? 'https://github.com'}/${env['GITHUB_REPOSITORY']}/actions/runs/${env['GITHUB_RUN_ID']}` : (env['CI_JOB_URL'] ?? env['BUILD_URL']);
  if (run !== undefined && run !== '') owner.run = run;
  return owner;
}
