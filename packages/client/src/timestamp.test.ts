import { describe, expect, it } from 'vitest';
import { formatTimestamp, isTimestamp, normalizeTimestamp, parseTimestamp } from './timestamp.js';

describe('v4 timestamps', () => {
  it('drops milliseconds and zone suffixes when normalizing', () => {
    expect(normalizeTimestamp('2026-11-27T00:00:00.123')).toBe('2026-11-27T00:00:00');
    expect(normalizeTimestamp('2026-11-27T08:30:05Z')).toBe('2026-11-27T08:30:05');
    expect(normalizeTimestamp('2026-11-27T08:30:05+01:00')).toBe('2026-11-27T08:30:05');
  });

  it('rejects strings that are not timestamps', () => {
    expect(normalizeTimestamp('2026-11-27')).toBeUndefined();
    expect(isTimestamp('27/11/2026 08:00')).toBe(false);
    expect(() => parseTimestamp('yesterday')).toThrow(/YYYY-MM-DDTHH:MM:SS/);
  });

  it('formats a date without milliseconds and round-trips through parse', () => {
    const date = new Date(Date.UTC(2026, 10, 21, 23, 5, 9, 999));
    expect(formatTimestamp(date)).toBe('2026-11-21T23:05:09');
    expect(formatTimestamp(parseTimestamp('2026-11-21T23:05:09'))).toBe('2026-11-21T23:05:09');
  });
});
