import { HOUR_MS } from './time.js';

/**
 * A deterministic simulated history: whether a monitor has an incident in a given hour, and its shape,
 * is a pure function of the monitor GUID and the hour. History does not depend on when the monitor was
 * created or on its current settings, so any period can be queried and always gives the same answer.
 */

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A hash of (seed, hour, salt) to [0, 1). */
function noise(seed: number, hour: number, salt: number): number {
  let h = (seed ^ Math.imul(hour | 0, 0x9e3779b1) ^ Math.imul(salt + 1, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

/** Incidents per hour by health class: some monitors are flaky, most are calm. */
const RATES = [1 / 6, 1 / 24, 1 / 96, 1 / 400];

const ERRORS = [
  'Timeout: no response within 30 seconds',
  'HTTP status 503 (Service Unavailable) differs from the expected status',
  'Load time exceeds LoadTimeLimit1',
  'Connection refused',
  'DNS name could not be resolved',
  'Expected content not found on the page',
];

export interface Incident {
  /** Epoch ms of the first error. */
  start: number;
  durationMinutes: number;
  hour: number;
  description: string;
}

export interface SimMonitor {
  guid: string;
  seq: number;
}

export function monitorSeed(guid: string): number {
  return fnv1a(guid.toLowerCase());
}

export function incidentAt(seed: number, hour: number): Incident | null {
  const rate = RATES[seed % RATES.length] ?? RATES[0] ?? 0;
  if (noise(seed, hour, 0) >= rate) return null;
  const startMinute = Math.floor(noise(seed, hour, 1) * 50);
  return {
    start: hour * HOUR_MS + startMinute * 60_000,
    durationMinutes: 5 + Math.floor(noise(seed, hour, 2) * 115),
    hour,
    description: ERRORS[Math.floor(noise(seed, hour, 3) * ERRORS.length)] ?? 'Error',
  };
}

/** Incidents whose activity can overlap [from, to). Durations stay under three hours. */
export function incidentsBetween(seed: number, from: number, to: number): Incident[] {
  const out: Incident[] = [];
  const first = Math.floor(from / HOUR_MS) - 3;
  const last = Math.floor((to - 1) / HOUR_MS);
  for (let h = first; h <= last; h++) {
    const inc = incidentAt(seed, h);
    if (inc && inc.start < to && inc.start + inc.durationMinutes * 60_000 > from) out.push(inc);
  }
  return out;
}

/** Check ids encode the monitor and the minute, so check details can be derived from an id alone. */
export function checkId(seq: number, epochMs: number): number {
  return Math.floor(epochMs / 60_000) * 1_000_000 + (seq % 1_000_000);
}

export function decodeCheckId(id: number): { seq: number; time: number } {
  return { seq: id % 1_000_000, time: Math.floor(id / 1_000_000) * 60_000 };
}

export interface SimAlert {
  time: number;
  type: 'Error' | 'Reminder';
  monitorGuid: string;
  checkId: number;
  firstErrorTime: number;
  firstErrorCheckId: number;
  description: string;
  incidentKey: string;
}

/** Alerts of one monitor with a timestamp in [from, to): an Error once the error is confirmed, then reminders every 30 minutes. */
export function alertsBetween(m: SimMonitor, from: number, to: number): SimAlert[] {
  const seed = monitorSeed(m.guid);
  const out: SimAlert[] = [];
  for (const inc of incidentsBetween(seed, from, to)) {
    const firstErrorCheckId = checkId(m.seq, inc.start);
    const incidentKey = `${seed.toString(16).padStart(8, '0')}-${inc.hour.toString(36)}`;
    const reminders = Math.floor((inc.durationMinutes - 5) / 30);
    for (let i = 0; i <= reminders; i++) {
      const time = inc.start + 5 * 60_000 + i * 30 * 60_000;
      if (time < from || time >= to) continue;
      out.push({
        time,
        type: i === 0 ? 'Error' : 'Reminder',
        monitorGuid: m.guid,
        checkId: checkId(m.seq, time),
        firstErrorTime: inc.start,
        firstErrorCheckId,
        description: inc.description,
        incidentKey,
      });
    }
  }
  return out;
}

export interface HourStats {
  checks: number;
  confirmedErrors: number;
  unconfirmedErrors: number;
  alerts: number;
  downtimeMinutes: number;
  minutes: number;
  totalTime: number;
  resolveTime: number;
  connectionTime: number;
  downloadTime: number;
  totalBytes: number;
  operatorResponseTime: number;
}

/** Statistics of one monitor over [from, to), at most one hour long. Checks run every 5 minutes. */
export function hourStats(seed: number, from: number, to: number): HourStats {
  const minutes = Math.max(0, (to - from) / 60_000);
  const hour = Math.floor(from / HOUR_MS);
  let down = 0;
  let alerts = 0;
  for (const inc of incidentsBetween(seed, from, to)) {
    const end = inc.start + inc.durationMinutes * 60_000;
    down += (Math.min(end, to) - Math.max(inc.start, from)) / 60_000;
    const alertTime = inc.start + 5 * 60_000;
    if (alertTime >= from && alertTime < to) alerts += 1;
  }
  down = Math.min(minutes, Math.max(0, down));
  const checks = Math.floor(minutes / 5);
  const resolve = 0.01 + noise(seed, hour, 11) * 0.04;
  const connect = 0.02 + noise(seed, hour, 12) * 0.06;
  const download = 0.1 + noise(seed, hour, 13) * 0.6 + (down > 0 ? 1.5 : 0);
  return {
    checks,
    confirmedErrors: Math.min(checks, Math.ceil(down / 5)),
    unconfirmedErrors: checks > 0 && noise(seed, hour, 14) < 0.08 ? 1 : 0,
    alerts,
    downtimeMinutes: down,
    minutes,
    totalTime: resolve + connect + download,
    resolveTime: resolve,
    connectionTime: connect,
    downloadTime: download,
    totalBytes: checks * Math.round(18_000 + noise(seed, hour, 15) * 6_000),
    operatorResponseTime: alerts > 0 ? 2 + noise(seed, hour, 16) * 20 : 0,
  };
}
