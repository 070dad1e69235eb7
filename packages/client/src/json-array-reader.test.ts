import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstImpreciseInteger } from './imprecise-number.js';
import { JsonArrayReader, startsWithArray, type ArrayReading } from './json-array-reader.js';

/** What the client did before: the whole body decoded (a leading byte order mark dropped) and given to JSON.parse. */
function parsedWhole(bytes: Buffer): { ok: true; value: unknown } | { ok: false } {
  const start = bytes.length > 2 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  try {
    return { ok: true, value: JSON.parse(bytes.toString('utf8', start)) as unknown };
  } catch {
    return { ok: false };
  }
}

/** The bytes cut at `cuts` (any positions, repeated or out of order), each piece pushed as a chunk. */
function read(bytes: Buffer, cuts: readonly number[], runBytes?: number): ArrayReading {
  const reader = new JsonArrayReader(runBytes === undefined ? {} : { runBytes });
  let from = 0;
  for (const cut of [...cuts.map((c) => c % (bytes.length + 1))].sort((a, b) => a - b)) {
    reader.push(bytes.subarray(from, cut));
    from = cut;
  }
  reader.push(bytes.subarray(from));
  return reader.end();
}

/** The reader agrees with JSON.parse: the same array (values, doubles, strings), or both refuse the bytes. */
function expectAsWhole(bytes: Buffer, cuts: readonly number[], runBytes: number): void {
  const reading = read(bytes, cuts, runBytes);
  const whole = parsedWhole(bytes);
  if (whole.ok && Array.isArray(whole.value)) {
    // The entries JSON.parse gives, and the first integer it rounds flagged, for the transport to refuse.
    const imprecise = firstImpreciseInteger(bytes.toString('utf8'));
    expect(reading).toEqual(imprecise === undefined ? { kind: 'array', items: whole.value } : { kind: 'array', items: whole.value, imprecise });
  } else {
    expect(reading.kind).toBe('malformed');
  }
}

/** Text that stresses the splitter: brackets, quotes, escapes and multi-byte characters inside strings. */
const trickyChar = fc.oneof(
  fc.constantFrom('[', ']', '{', '}', ',', '"', '\\', ':', ' ', '\n', '\u2028', 'é', '€', '😀', '\u0000', '\ufeff'),
  fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
);
const trickyString = fc.string({ unit: trickyChar, maxLength: 12 });
const entry = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(null, true, false, 0, -0, 1e21, 2 ** 53 + 2, 0.1, -1.5e-7),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    trickyString,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(trickyString, tie('value'), { maxKeys: 4 }),
  ),
})).value;
/** JSON white space between tokens, as a service may format its answer. */
const spacing = fc.constantFrom('', ' ', '\n', '\r\n', '\t', '  \n  ');

/** An array written by JSON.stringify, its white space varied, sometimes after a byte order mark. */
const arrayText = fc
  .tuple(fc.array(entry, { maxLength: 12 }), spacing, spacing, fc.constantFrom(undefined, 2, '\t'), fc.boolean())
  .map(([items, before, after, indent, bom]) => `${bom ? '\ufeff' : ''}${before}${JSON.stringify(items, null, indent)}${after}`);
const cuts = fc.array(fc.nat(), { maxLength: 8 });
/** Every entry parsed apart, a few at a time, or all at once. */
const runBytes = fc.constantFrom(1, 7, 64, 1 << 20);

describe('JsonArrayReader: a JSON array read as its bytes arrive', () => {
  it('gives what JSON.parse gives for any array, however its bytes are cut into chunks', () => {
    fc.assert(
      fc.property(arrayText, cuts, runBytes, (text, at, run) => {
        expectAsWhole(Buffer.from(text), at, run);
      }),
      { numRuns: 400 },
    );
  });

  it('refuses exactly the texts JSON.parse refuses when an array is damaged anywhere', () => {
    // Short arrays too: there a damage lands next to a bracket or a comma often.
    const short = fc.array(fc.oneof(fc.integer({ min: -9, max: 99 }), fc.constant([])), { maxLength: 4 }).map((items) => JSON.stringify(items));
    const damaged = fc
      .tuple(fc.oneof(arrayText, short), fc.nat(), fc.constantFrom('', '[', ']', '{', '}', ',', '"', '\\', ' ', ':', 'x', '1', '\ufeff', ']]', ',]', '[,'), fc.constantFrom(0, 0, 1, 2))
      .map(([text, at, insert, remove]) => {
        const position = at % (text.length + 1);
        return `${text.slice(0, position)}${insert}${text.slice(position + remove)}`;
      });
    fc.assert(
      fc.property(damaged, cuts, runBytes, (text, at, run) => {
        expectAsWhole(Buffer.from(text), at, run);
      }),
      { numRuns: 1500 },
    );
  });

  it('agrees with JSON.parse on bytes that are not UTF-8 (replacement characters, in strings and out)', () => {
    const bytes = fc.tuple(arrayText, fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 3 })).map(([text, at, raw]) => {
      const buffer = Buffer.from(text);
      const position = at % (buffer.length + 1);
      return Buffer.concat([buffer.subarray(0, position), Buffer.from(raw), buffer.subarray(position)]);
    });
    fc.assert(
      fc.property(bytes, cuts, runBytes, (buffer, at, run) => {
        expectAsWhole(buffer, at, run);
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['an empty array', '[]'],
    ['white space around and inside', ' \r\n\t[ 1 ,\n 2 ] \n'],
    ['strings holding every character the splitter looks at', '["],[{}", "\\"", "\\\\", "\\\\\\"]", "a,b"]'],
    ['escapes that end in a backslash pair before the quote', '["\\\\\\\\", {"k\\"]": ["\\u005d"]}]'],
    ['numbers no double holds, rounded as JSON.parse rounds them', '[9007199254740993, 123456789012345678901234567890, 1e400, -0]'],
    ['a byte order mark before the array', '\ufeff[1]'],
  ])('reads %s as JSON.parse does, one entry per run', (_, text) => {
    const bytes = Buffer.from(text);
    for (let size = 1; size <= bytes.length; size += 1) {
      const at = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => i * size);
      expectAsWhole(bytes, at, 1);
    }
    expect(read(bytes, [], 1).kind).toBe('array');
  });

  it.each([
    ['a trailing comma', '[1,2,]', 'has an empty entry'],
    ['a leading comma', '[ ,1]', 'has an empty entry between bytes 1 and 2'],
    ['two commas in a row', '[1,,2]', 'is not valid JSON between bytes 3 and 5'],
    ['an array closed with }', '[1,2}', 'closes its array with }'],
    ['text after the array', '[1] x', 'has more after its array (byte 4)'],
    ['a body cut off inside a string', '[{"Name":"sh', 'ends at byte 12 before its array is closed'],
    ['an object', '{"Data":[]}', 'does not start with [ (byte 0)'],
    ['white space only', ' \n', 'holds only white space'],
    ['nothing', '', 'is empty'],
    ['part of a byte order mark', '\u00ef[1]', 'starts with part of a byte order mark'],
    ['an entry that is not JSON', '[1,tru,3]', 'is not valid JSON between bytes 3 and 6'],
  ])('says what is wrong with %s', (_, text, problem) => {
    const reading = read(Buffer.from(text, text.startsWith('\u00ef') ? 'latin1' : 'utf8'), [], 1);
    expect(reading.kind).toBe('malformed');
    expect(reading.kind === 'malformed' ? reading.problem : '').toContain(problem);
  });

  it('quotes the start of a malformed body and counts all of it, however long', () => {
    const reader = new JsonArrayReader();
    const entry = Buffer.from(`${JSON.stringify({ Name: 'x'.repeat(1000) })},`);
    reader.push(Buffer.from('['));
    for (let i = 0; i < 100; i += 1) reader.push(entry);
    reader.push(Buffer.from('oops]'));
    const reading = reader.end();
    expect(reading.kind).toBe('malformed');
    if (reading.kind !== 'malformed') return;
    expect(reading.bytes).toBe(1 + 100 * entry.length + 5);
    expect(reading.head.startsWith('[{"Name":"xxx')).toBe(true);
    expect(reading.head.length).toBe(16 * 1024);
  });
});

describe('startsWithArray: whether a body is worth reading as an array', () => {
  it.each<[string, Buffer[], boolean | undefined]>([
    ['an array', [Buffer.from('[1]')], true],
    ['an array after white space and a byte order mark, across chunks', [Buffer.from([0xef, 0xbb]), Buffer.from([0xbf, 0x20]), Buffer.from('\n[')], true],
    ['an envelope', [Buffer.from(' {"Data":[]}')], false],
    ['only white space so far', [Buffer.from(' \n'), Buffer.from('\t')], undefined],
    ['a byte order mark alone', [Buffer.from([0xef, 0xbb, 0xbf])], undefined],
  ])('%s', (_, chunks, expected) => {
    expect(startsWithArray(chunks)).toBe(expected);
  });
});
