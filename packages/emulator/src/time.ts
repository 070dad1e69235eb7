/** v4 timestamps: ISO 8601 without zone designator or milliseconds; the emulator expresses them in UTC. */
export function formatTimestamp(date: Date): string {
  return date.toISOString().slice(0, 19);
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,7})?(Z|[+-]\d{2}:?\d{2})?$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Accepts `YYYY-MM-DDTHH:MM:SS` (milliseconds and a zone suffix tolerated); a value without zone is UTC. */
export function parseTimestamp(value: string): Date | null {
  const m = TIMESTAMP.exec(value);
  if (!m) return null;
  const date = new Date(m[7] ? value : `${value.replace(/\.\d+$/, '')}Z`);
  if (Number.isNaN(date.getTime())) return null;
  // Reject roll-overs such as 2025-02-30, which Date silently normalises.
  if (!m[7] && formatTimestamp(date) !== value.slice(0, 19)) return null;
  return date;
}

export function parseDateOnly(value: string): Date | null {
  const m = DATE_ONLY.exec(value);
  if (!m) return null;
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) return null;
  return date;
}

export function normalizeTimestamp(value: string): string | null {
  const date = parseTimestamp(value);
  return date ? formatTimestamp(date) : null;
}

/** `8/14/2025 3:00:00 PM`: the shape the spec describes for statistics item ids. */
export function formatUsTimestamp(date: Date): string {
  const h = date.getUTCHours();
  const h12 = h % 12 === 0 ? 12 : h % 12;
  const mm = String(date.getUTCMinutes()).padStart(2, '0');
  const ss = String(date.getUTCSeconds()).padStart(2, '0');
  return `${date.getUTCMonth() + 1}/${date.getUTCDate()}/${date.getUTCFullYear()} ${h12}:${mm}:${ss} ${h < 12 ? 'AM' : 'PM'}`;
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
