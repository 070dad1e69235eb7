import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES, formatDiagnostic, hasErrors, loadConfigTexts, sortDiagnostics, type Diagnostic } from '../src/index.js';

describe('formatDiagnostic', () => {
  it('renders file:line:col, severity, code and message, then a caret snippet and the hint', () => {
    const source = 'monitors:\n  - Name: Shop\n    UserAgent: Chrome\n';
    const { diagnostics } = loadConfigTexts('/cfg', [
      { file: 'monsync.yaml', text: 'apiVersion: monsync/v1\nmanage: { monitors: {} }\n' },
      { file: 'monitors/shop.yaml', text: source },
    ]);
    expect(diagnostics).toHaveLength(1);
    const d = diagnostics[0] as Diagnostic;
    expect(formatDiagnostic(d, { source })).toBe(
      [
        'monitors/shop.yaml:3:16: error INVALID_ENUM: `UserAgent` must be one of ChromeLatest, EdgeLatest (got `Chrome`)',
        '3 |     UserAgent: Chrome',
        '  |                ^^^^^^',
      ].join('\n'),
    );
  });

  it('keeps the column in view on very long lines and prints the hint', () => {
    const d: Diagnostic = { severity: 'warning', code: 'LIKELY_TYPO', message: 'm', file: 'f.yaml', line: 1, column: 150, endLine: 1, endColumn: 155, hint: 'h' };
    const out = formatDiagnostic(d, { source: `${'a'.repeat(149)}Bxxxx${'c'.repeat(100)}` }).split('\n');
    expect(out[0]).toBe('f.yaml:1:150: warning LIKELY_TYPO: m');
    const caret = (out[2] ?? '').indexOf('^');
    expect((out[1] ?? '').slice(caret, caret + 5)).toBe('Bxxxx');
    expect(out[2]).toMatch(/^ *\| +\^{5}$/);
    expect(out[3]).toBe('hint: h');
  });

  it('never quotes a line that holds a literal secret, whatever the diagnostic on it', () => {
    const source = 'vault:\n  sections:\n    - Name: S\n      items:\n        - { Name: l, VaultItemType: Login, Password: CANARY-7f3a9c }\n';
    const { diagnostics } = loadConfigTexts('/cfg', [
      { file: 'monsync.yaml', text: 'apiVersion: monsync/v1\nmanage: { vault: {} }\n' },
      { file: 'vault.yaml', text: source },
    ]);
    expect(diagnostics.map((d) => d.code)).toEqual(['INVALID_ENUM', 'LITERAL_SECRET']);
    for (const d of diagnostics) {
      const text = formatDiagnostic(d, { source });
      expect(text).not.toContain('CANARY');
      expect(text).toContain('line not shown');
    }
  });

  it('without the source prints only the first line', () => {
    const d: Diagnostic = { severity: 'error', code: 'YAML_SYNTAX', message: 'bad', file: 'a.yaml', line: 2, column: 3 };
    expect(formatDiagnostic(d)).toBe('a.yaml:2:3: error YAML_SYNTAX: bad');
  });
});

describe('diagnostics', () => {
  it('are all collected across files, sorted by file, line and column', () => {
    const { diagnostics } = loadConfigTexts('/cfg', [
      { file: 'monsync.yaml', text: 'apiVersion: monsync/v1\nmanage: { monitors: {} }\n' },
      { file: 'b.yaml', text: 'monitors:\n  - Name: x\n    IsActive: "no"\n    UserAgent: Netscape\n' },
      { file: 'a.yaml', text: 'monitors:\n  - Name: y\n    GenerateAlert: 3\n' },
    ]);
    expect(diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`)).toEqual([
      'a.yaml:3:20 TYPE_MISMATCH',
      'b.yaml:3:15 TYPE_MISMATCH',
      'b.yaml:4:16 INVALID_ENUM',
    ]);
  });

  it('use only documented SCREAMING_SNAKE codes with their documented severity', () => {
    for (const [code, { severity }] of Object.entries(DIAGNOSTIC_CODES)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
      expect(['error', 'warning']).toContain(severity);
    }
  });

  it('hasErrors is false for warnings only', () => {
    const warning: Diagnostic = { severity: 'warning', code: 'LIKELY_TYPO', message: '', file: 'a', line: 1, column: 1 };
    expect(hasErrors([warning])).toBe(false);
    expect(hasErrors([warning, { ...warning, severity: 'error' }])).toBe(true);
    expect(sortDiagnostics([{ ...warning, line: 2 }, warning]).map((d) => d.line)).toEqual([1, 2]);
  });
});
