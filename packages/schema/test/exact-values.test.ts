/**
 * Values the loader must refuse rather than send changed: numbers a double cannot hold as written, and NUL characters.
 * Each is an error at the value's `file:line:col`, with the fix.
 */
import { describe, expect, it } from 'vitest';
import { hasErrors, loadConfigTexts, type Diagnostic } from '../src/index.js';

const SETTINGS = 'apiVersion: monsync/v1\nmanage:\n  monitors: {}\n';

function load(monitors: string): { diagnostics: Diagnostic[]; monitors: Record<string, unknown>[] } {
  const { diagnostics, desired } = loadConfigTexts('/cfg', [
    { file: 'monsync.yaml', text: SETTINGS },
    { file: 'm.yaml', text: monitors },
  ]);
  return { diagnostics, monitors: desired.monitors.map((m) => m.value as Record<string, unknown>) };
}

const at = (d: Diagnostic) => `${d.file}:${d.line}:${d.column} ${d.code}`;

describe('numbers a double cannot hold as written', () => {
  it('refuses an integer beyond 2^53, naming the number it would become and how to keep it (quote it)', () => {
    const { diagnostics } = load('monitors:\n  - Name: Site\n    MonitorType: Https\n    ExternalId: 9007199254740993\n');
    expect(diagnostics.map(at)).toEqual(['m.yaml:4:17 IMPRECISE_NUMBER']);
    const [d] = diagnostics;
    expect(d?.severity).toBe('error');
    expect(d?.message).toBe('`9007199254740993` cannot be held exactly as a number: it would be sent as 9007199254740992 (integers beyond 2^53, 9007199254740992, lose their last digits)');
    expect(d?.hint).toContain('quote it (`"9007199254740993"`) if it is an identifier');
  });

  it('refuses a 30-digit integer, a fraction with more digits than a double holds, and a negative one', () => {
    const { diagnostics } = load(
      'monitors:\n  - Name: Site\n    MonitorType: Port\n    Port: 123456789012345678901234567890\n    Timeout: 0.10000000000000000001\n    Offset: -9007199254740995\n',
    );
    expect(diagnostics.map(at)).toEqual(['m.yaml:4:11 IMPRECISE_NUMBER', 'm.yaml:5:14 IMPRECISE_NUMBER', 'm.yaml:6:13 IMPRECISE_NUMBER']);
    expect(diagnostics[0]?.message).toContain('it would be sent as 1.2345678901234568e+29');
    expect(diagnostics[1]?.message).toContain('it would be sent as 0.1 (a double holds about 15 to 17 significant digits)');
  });

  it('still refuses 1e400 as not finite (it is not a JSON number at all)', () => {
    const { diagnostics } = load('monitors:\n  - Name: Site\n    MonitorType: Https\n    Timeout: 1e400\n');
    expect(diagnostics.map(at)).toEqual(['m.yaml:4:14 NON_FINITE_NUMBER']);
  });

  it('keeps every number a double holds exactly, however it is written', () => {
    const { diagnostics, monitors } = load(
      [
        'monitors:',
        '  - Name: Site',
        '    MonitorType: Https',
        '    A: 9007199254740991',
        '    B: -9007199254740991',
        '    C: 9007199254740992',
        '    D: 1.50',
        '    E: 0.1',
        '    F: 1e21',
        '    G: 2.5e-7',
        '    H: 0x1F',
        '    I: 0o17',
        '    J: -0.0',
        '    K: 007',
        '    L: 1E+3',
        '    M: .5',
        '',
      ].join('\n'),
    );
    expect(diagnostics).toEqual([]);
    expect(monitors[0]).toMatchObject({ A: 9007199254740991, B: -9007199254740991, C: 9007199254740992, D: 1.5, E: 0.1, F: 1e21, G: 2.5e-7, H: 31, I: 15, K: 7, L: 1000, M: 0.5 });
  });

  it('keeps a quoted long identifier as the string it is', () => {
    const { diagnostics, monitors } = load('monitors:\n  - Name: Site\n    MonitorType: Https\n    ExternalId: "9007199254740993"\n');
    expect(diagnostics).toEqual([]);
    expect(monitors[0]?.ExternalId).toBe('9007199254740993');
  });

  it('refuses a key written as such a number (the key would be another number)', () => {
    const { diagnostics } = load('monitors:\n  - Name: Site\n    MonitorType: Https\n    Labels:\n      9007199254740993: x\n');
    expect(diagnostics.map(at)).toEqual(['m.yaml:5:7 IMPRECISE_NUMBER']);
  });
});

describe('NUL characters', () => {
  it('refuses a raw NUL byte in a string at the byte itself', () => {
    const { diagnostics } = load('monitors:\n  - Name: "Si\u0000te"\n    MonitorType: Https\n');
    expect(diagnostics.map(at)).toEqual(['m.yaml:2:14 NUL_CHARACTER']);
    expect(diagnostics[0]?.message).toMatch(/^this string holds a NUL character \(U\+0000\)/);
    expect(diagnostics[0]?.hint).toContain('remove the NUL character');
  });

  it.each([
    ['\\0', 'm.yaml:4:20'],
    ['\\x00', 'm.yaml:4:20'],
    ['\\u0000', 'm.yaml:4:20'],
  ])('refuses the escape %s in a double-quoted string, at the escape', (escape, where) => {
    const { diagnostics } = load(`monitors:\n  - Name: Site\n    MonitorType: Https\n    Url: "https://a${escape}b"\n`);
    expect(diagnostics.map(at)).toEqual([`${where} NUL_CHARACTER`]);
  });

  it('refuses a NUL in a key, and a NUL inside a nested list value', () => {
    const { diagnostics } = load('monitors:\n  - Name: Site\n    MonitorType: Https\n    "Ke\\0y": 1\n    Tags: [a, "b\\0"]\n');
    expect(diagnostics.map(at)).toEqual(['m.yaml:4:8 NUL_CHARACTER', 'm.yaml:5:17 NUL_CHARACTER']);
    expect(diagnostics[0]?.message).toMatch(/^this key holds/);
  });

  it('lets other control-free text through unchanged', () => {
    const { diagnostics, monitors } = load('monitors:\n  - Name: "Site \\u00e9"\n    MonitorType: Https\n');
    expect(hasErrors(diagnostics)).toBe(false);
    expect(monitors[0]?.Name).toBe('Site é');
  });
});
