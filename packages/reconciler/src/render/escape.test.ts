import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markdownCode, markdownText, mermaidLabel, plainLines, plainText, shownValue } from './escape.js';
import { formatChange, formatValue, formatValues } from './format.js';

/**
 * Any text: every code point, lone surrogates, and C0/C1 controls often. (fast-check's own `binary` unit costs seconds
 * of start-up.)
 */
const anyChar = fc.oneof(
  fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0, max: 0xff }).map((c) => String.fromCharCode(c)),
  fc.constantFrom(':', '#', '[', '`', '<', '-', ' ', '\u00a0', '\u200b', '\u202e', '\u0301', '\u034f', '\u3164', '\ufe0f', '…'),
);
const anyText = (maxLength: number) => fc.string({ unit: anyChar, maxLength });

/** Every character a terminal or log must never receive raw from text monsync did not write. */
const RAW_INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}]/u;

describe('terminal and Actions log text (plainText)', () => {
  it('shows controls, bidi overrides and zero-width characters as escapes, on one line', () => {
    expect(plainText('a\nb\r\tc')).toBe('a\\nb\\r\\tc');
    expect(plainText('\u001b]52;c;ZXZpbA==\u0007')).toBe('\\u001b]52;c;ZXZpbA==\\u0007');
    expect(plainText('\u001b[2K\u001b[1A')).toBe('\\u001b[2K\\u001b[1A');
    expect(plainText('\u009b31m')).toBe('\\u009b31m');
    expect(plainText('abc\u202Edcba \u2066x\u2069')).toBe('abc\\u202edcba \\u2066x\\u2069');
    expect(plainText('Si\u200Bte\uFEFF\u00AD')).toBe('Si\\u200bte\\ufeff\\u00ad');
    expect(plainText('a\u2028b')).toBe('a\\u2028b');
    expect(plainText('tag\u{E0041}')).toBe('tag\\udb40\\udc41');
    expect(plainText('lone \uD800 surrogate')).toBe('lone \\ud800 surrogate');
  });

  it('never lets text start a workflow command, nor carry the older ##[ form anywhere', () => {
    expect(plainText('::warning ::x')).toBe('\\u003a:warning ::x');
    expect(plainText('  ::stop-commands::tok')).toBe('  \\u003a:stop-commands::tok');
    expect(plainText('a ::b')).toBe('a ::b');
    expect(plainText(':a')).toBe(':a');
    expect(plainText('x ##[add-mask]y')).toBe('x ##\\u005badd-mask]y');
  });

  it('keeps printable text as it is (accents, scripts, emoji), and shows look-alike spaces escaped even in free text', () => {
    expect(plainText('Café 監視 🚀 Jean Dupont')).toBe('Café 監視 🚀 Jean Dupont');
    expect(plainText('key "Site\u00A0" is declared twice')).toBe('key "Site\\u00a0" is declared twice');
  });

  it('keeps the line breaks of a message monsync composed, and escapes the rest on each line', () => {
    expect(plainLines('refused:\n  ::warning::x\u001b[2K')).toBe('refused:\n  \\u003a:warning::x\\u001b[2K');
  });

  it('holds for any text: one line, no raw invisible character, no command', () => {
    fc.assert(
      fc.property(anyText(60), (text) => {
        const shown = plainText(text);
        expect(shown).not.toMatch(RAW_INVISIBLE);
        expect(shown).not.toMatch(/^\s*::/u);
        expect(shown).not.toContain('##[');
      }),
    );
  });
});

describe('names and values (plainText, shownValue)', () => {
  it('shows look-alike keys differently: zero-width, NBSP and other spaces, combining marks not in NFC', () => {
    const shown = ['Site', 'Si\u200Bte', 'Site\u00A0', 'Site\u2009', 'Site ', 'Caf\u00E9', 'Cafe\u0301'].map(shownValue);
    expect(shown).toEqual(['"Site"', '"Si\\u200bte"', '"Site\\u00a0"', '"Site\\u2009"', '"Site "', '"Café"', '"Cafe\\u0301"']);
    expect(plainText('PredefinedVariables/Si\u200Bte/Value')).toBe('PredefinedVariables/Si\\u200bte/Value');
  });

  it('shows escaped what shows as nothing without being a format character: U+034F, variation selectors, Hangul fillers', () => {
    const shown = ['Si\u034Fte', 'Site\uFE0F', 'Site\u3164', '\u115FSite', 'Site\uFFA0', 'Si\u2060te', 'Site\u{E0100}'].map(shownValue);
    expect(shown).toEqual(['"Si\\u034fte"', '"Site\\ufe0f"', '"Site\\u3164"', '"\\u115fSite"', '"Site\\uffa0"', '"Si\\u2060te"', '"Site\\udb40\\udd00"']);
    expect(plainText('monitor "Si\u034Fte"')).toBe('monitor "Si\\u034fte"');
    expect(markdownCode('Si\u3164te')).toBe('`Si\\u3164te`');
  });

  it('is the JSON text of the same value: any string reads back as itself, so two strings never read the same', () => {
    fc.assert(
      fc.property(anyText(40), (text) => {
        const shown = shownValue(text);
        expect(JSON.parse(shown)).toBe(text);
        expect(shown).not.toMatch(RAW_INVISIBLE);
        expect(shown).not.toMatch(/\p{Zs}(?<! )/u);
        expect(shown).not.toContain('…');
      }),
    );
  });
});

describe('Markdown (markdownText, markdownCode)', () => {
  it('carries no HTML, marker, emphasis, link or heading, and never a line break', () => {
    expect(markdownText('<img src=x onerror=alert(1)>')).toBe('&lt;img src=x onerror=alert(1)&gt;');
    expect(markdownText('<!-- monsync:plan -->')).toBe('&lt;!-- monsync:plan --&gt;');
    expect(markdownText('## heading')).toBe('\\## heading');
    expect(markdownText('- item')).toBe('\\- item');
    expect(markdownText('1. item')).toBe('1\\. item');
    expect(markdownText('---')).toBe('\\---');
    expect(markdownText('> quote')).toBe('&gt; quote');
    expect(markdownText('[x](https://evil) *b* _i_ ~s~ `c` a|b \\')).toBe('\\[x\\](https://evil) \\*b\\* \\_i\\_ \\~s\\~ \\`c\\` a\\|b \\\\');
    expect(markdownText('a\n## b\u001b')).toBe('a\\\\n## b\\\\u001b');
  });

  it('makes code spans that text cannot close, in table cells too', () => {
    expect(markdownCode('a')).toBe('`a`');
    expect(markdownCode('a`b')).toBe('``a`b``');
    expect(markdownCode('```')).toBe('```` ``` ````');
    expect(markdownCode('a|b', { inTable: true })).toBe('`a\\|b`');
    expect(markdownCode('x\n```\n## y')).toBe('````x\\n```\\n## y````');
  });

  it('never mentions anyone: a name from the account that reads @user or @org/team notifies nobody, an e-mail stays as it is', () => {
    expect(markdownText('Shop @sam-ops and @acme/oncall')).toBe('Shop &#64;sam-ops and &#64;acme/oncall');
    expect(markdownText('@@here')).toBe('&#64;&#64;here');
    expect(markdownText('sam.ops@example.com')).toBe('sam.ops@example.com');
  });

  it('holds for any text: no raw line break, no HTML tag or comment start', () => {
    fc.assert(
      fc.property(anyText(60), (text) => {
        const shown = markdownText(text);
        expect(shown).not.toMatch(/[\r\n<]/);
        expect(shown).not.toMatch(/^\s*(#|-|\+|=|>|\d+[.)])/);
        expect(shown).not.toMatch(/(^|[^\p{L}\p{N}._%+-])@/u);
      }),
    );
  });
});

describe('long values in a plan (formatValue, formatValues)', () => {
  const url = (tail: string) => `https://example.com/${'a'.repeat(395)}${tail}`;

  it('shows a long changed string around its first difference, with the length left out', () => {
    const [before, after] = formatValues(url('tail-1'), url('tail-2'));
    expect(before).toBe(`"https://example.com/aaa…(+357 chars)…${'a'.repeat(35)}tail-1"`);
    expect(after).toBe(`"https://example.com/aaa…(+357 chars)…${'a'.repeat(35)}tail-2"`);
    expect(formatChange({ op: 'replace', path: '/Url', before: url('tail-1'), after: url('tail-2') })).toBe(`Url: ${before} -> ${after}`);
  });

  it('cuts a long value at its start when the difference is there, and never inside an escape', () => {
    expect(formatValue('x'.repeat(300))).toBe(`"${'x'.repeat(239)}…(+62 chars)`);
    const [before] = formatValues(`${'\u001b'.repeat(300)}a`, `${'\u001b'.repeat(300)}b`);
    expect(before).toBe(`"${'\\u001b'.repeat(23)}…(+237 chars)…${'\\u001b'.repeat(40)}a"`);
  });

  it('never shows two different strings the same, however long and wherever they differ', () => {
    const text = anyText(8);
    const long = fc.tuple(fc.string({ unit: fc.constantFrom('a', '\u001b', '…', '"', '\u200b'), minLength: 0, maxLength: 600 }), text, text).map(([common, x, y]) => [common + x, common + y] as const);
    fc.assert(
      fc.property(fc.oneof(long, fc.tuple(text, text)), ([a, b]) => {
        fc.pre(a !== b);
        const [shownA, shownB] = formatValues(a, b);
        expect(shownA).not.toBe(shownB);
      }),
      { numRuns: 500 },
    );
  });
});

describe('Mermaid labels (mermaidLabel)', () => {
  /** A quoted label holding plain characters, entity codes and monsync's own line breaks, nothing else. */
  const SAFE = /^"(?:[\p{L}\p{N} .,@_+:/()'?!=*$^~-]|#\d+;|<br\/>)*"$/u;

  it('keeps quotes, brackets, arrows, line breaks, backticks and HTML inside the label as entity codes', () => {
    expect(mermaidLabel('Night shift')).toBe('"Night shift"');
    expect(mermaidLabel('a"b')).toBe('"a#34;b"');
    expect(mermaidLabel('x] --> y[z')).toBe('"x#93; --#62; y#91;z"');
    expect(mermaidLabel('a\nb')).toBe('"a#92;nb"');
    expect(mermaidLabel('```')).toBe('"#96;#96;#96;"');
    expect(mermaidLabel('<b onclick=x>&amp;</b>')).toBe('"#60;b onclick=x#62;#38;amp#59;#60;/b#62;"');
    expect(mermaidLabel('%%{init: {"theme":"dark"}}%%')).toBe('"#37;#37;#123;init: #123;#34;theme#34;:#34;dark#34;#125;#125;#37;#37;"');
    expect(mermaidLabel('#quot; #9829;')).toBe('"#35;quot#59; #35;9829#59;"');
    expect(mermaidLabel('a|b;c')).toBe('"a#124;b#59;c"');
    expect(mermaidLabel('bidi\u202e zero\u200bwidth')).toBe('"bidi#92;u202e zero#92;u200bwidth"');
  });

  it('joins lines with <br/>, the only markup it writes', () => {
    expect(mermaidLabel(['level 1', 'after 2 errors'])).toBe('"level 1<br/>after 2 errors"');
    expect(mermaidLabel(['<br/>'])).toBe('"#60;br/#62;"');
  });

  it('makes any text a label that only ends at its closing quote', () => {
    fc.assert(
      fc.property(anyText(40), anyText(10), (text, other) => {
        const label = mermaidLabel([text, other]);
        expect(label).toMatch(SAFE);
        expect(label).not.toMatch(/[\n\r`]/);
      }),
      { numRuns: 300 },
    );
  });
});
