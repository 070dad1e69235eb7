import fc from 'fast-check';
import { expect, it } from 'vitest';
import { parse } from 'yaml';
import { toYaml } from './yaml-writer.js';

// The YAML parser monsync reads configs with, so the round trip is the real one.
const yaml = { parse: (text: string): unknown => parse(text) };

const key = fc.string().filter((text) => text !== '__proto__');
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: 'binary' }),
    fc.constantFrom('yes', 'off', '~', '08:00:00', '0x1F', '1e3', '-', '? x', '#', 'a: b', 'Shop homepage', 'Web/shop-login', '2026-11-27T00:00:00'),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
}));

it('writes YAML that the config parser reads back as exactly the same data', () => {
  fc.assert(
    fc.property(fc.dictionary(key, value), (data) => {
      expect(yaml.parse(toYaml(data))).toEqual(JSON.parse(JSON.stringify(data)));
    }),
    { numRuns: 400 },
  );
}, 60_000);
