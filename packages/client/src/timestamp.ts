/**
 * v4 timestamps are `YYYY-MM-DDTHH:MM:SS`: no zone designator, no milliseconds. Older responses carried
 * three millisecond digits and some proxies add a zone, so input is tolerant while output is exact.
 */
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?$/;

export function isTimestamp(value: string): boolean {
  return TIMESTAMP.test(value);
}

/** Canonical `YYYY-MM-DDTHH:MM:SS` form of a timestamp string, or `undefined` when it is not one. */
export function normalizeTimestamp(value: string): string | undefined {
  const m = TIMESTAMP.exec(value);
  if (!m) return undefined;
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}`;
}

/** Formats a Date (read in UTC) as a v4 timestamp. */
export function formatTimestamp(date: Date): string {
  return date.toISOString().slice(0, 19);
}

/** Parses a v4 timestamp as UTC; the service does not say which zone it uses, and monsync only compares them. */
export function parseTimestamp(value: string): Date {
  const canonical = normalizeTimestamp(value);
  if (canonical === undefined) {
    throw new TypeError(`not a v4 timestamp (expected YYYY-MM-DDTHH:MM:SS): ${JSON.stringify(value)}`);
  }
  return new Date(`${canonical}Z`);
}
