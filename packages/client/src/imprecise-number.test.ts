import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstImpreciseInteger } from './imprecise-number.js';

describe('firstImpreciseInteger', () => {
  it('finds an integer a double rounds, with the key it is the value of', () => {
    expect(firstImpreciseInteger('{"Name":"x","ExternalId":9007199254740993}')).toEqual({ digits: 16, key: 'ExternalId' });
    expect(firstImpreciseInteger('[{"Port":-123456789012345678901234567890}]')).toEqual({ digits: 30, key: 'Port' });
    expect(firstImpreciseInteger('[1, 9007199254740993]')).toEqual({ digits: 16, key: undefined });
  });

  it('lets through integers that come back as written, decimals and exponents', () => {
    for (const text of ['[9007199254740991]', '[9007199254740992]', '[22539806044415150]', '[100000000000000000000]', '[1.2345678901234567891]', '[1e400]', '{"a":1,"b":2}']) {
      expect(firstImpreciseInteger(text)).toBeUndefined();
    }
  });

  it('ignores digits inside strings, escaped quotes included', () => {
    expect(firstImpreciseInteger('{"Notes":"id 9007199254740993","Url":"a\\"9007199254740993"}')).toBeUndefined();
    expect(firstImpreciseInteger('{"Notes":"\\\\","n":9007199254740993}')).toEqual({ digits: 16, key: 'n' });
  });

  it('does not name an earlier key for a value in an array', () => {
    expect(firstImpreciseInteger('{"Ids":[1,9007199254740993]}')).toEqual({ digits: 16, key: undefined });
  });

  it('finds nothing in what JSON.stringify writes, whatever the doubles, strings and nesting', () => {
    const value = fc.letrec((tie) => ({
      leaf: fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string(), fc.boolean(), fc.constant(null)),
      node: fc.oneof({ depthSize: 'small' }, tie('leaf'), fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.string(), tie('node'), { maxKeys: 4 })),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        expect(firstImpreciseInteger(JSON.stringify(v))).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });
});
