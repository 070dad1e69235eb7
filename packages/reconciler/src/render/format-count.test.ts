import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCount } from './format.js';

describe('formatCount', () => {
  it('writes any whole number as en-US does (12,500), without loading the locale data', () => {
    fc.assert(fc.property(fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (value) => formatCount(value) === value.toLocaleString('en-US')));
    expect(formatCount(1_234_567)).toBe('1,234,567');
  });
});
