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
        'hint: use one of the values listed; if the service added `Chrome` after this release of monsync, let it through in monsync.yaml: allowUnknown: { values: { UserAgent: [Chrome] } }',
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

describe('one error, one message: a file that fails to parse', () => {
  const SETTINGS = { file: 'monsync.yaml', text: 'apiVersion: monsync/v1\nmanage: { monitors: {}, monitorGroups: {}, vault: {}, operators: {}, operatorGroups: {} }\npolicy:\n  requiredErrorConditions:\n    - { monitorType: Https, types: [HttpStatus] }\n' };
  const MONITORS = [
    'monitors:',
    '  - Name: Shop',
    '    MonitorType: Https',
    '    ErrorConditions:',
    '      - { ErrorConditionType: HttpStatus, Value: "200" }',
    '  - Name: Blog',
    '    MonitorType: Https',
    '    ErrorConditions:',
    '      - { ErrorConditionType: HttpStatus, Value: "200" }',
    'vault:',
    '  sections:',
    '    - Name: Web',
    '      items: [{ Name: login, VaultItemType: CredentialSet, UserName: u, Password: { fromEnv: P } }]',
    'operators:',
    '  - { Email: ann@example.com }',
    '',
  ].join('\n');
  const REFERRING = {
    file: 'groups.yaml',
    text: [
      'monitorGroups:',
      '  - { Description: Sites, members: [Shop, Blog] }',
      'operatorGroups:',
      '  - { Description: Night, members: [ann@example.com] }',
      'monitors:',
      '  - { Name: Status, MonitorType: Https, ErrorConditions: [{ ErrorConditionType: HttpStatus, Value: "200" }], PredefinedVariables: [{ Key: k, Value: { vault: Web/login } }] }',
      '',
    ].join('\n'),
  };
  const load = (monitors: string) => loadConfigTexts('/cfg', [SETTINGS, { file: 'monitors.yaml', text: monitors }, REFERRING], { env: { P: 'x' } }).diagnostics;

  it('checks every reference into the file once it parses', () => {
    expect(load(MONITORS)).toEqual([]);
    const misspelt = load(MONITORS.replace('Name: Blog', 'Name: Blgo'));
    expect(misspelt.map((d) => `${d.file}:${d.line}:${d.column} ${d.severity} ${d.code}`)).toEqual(['groups.yaml:2:43 error UNKNOWN_REFERENCE']);
  });

  it('is one YAML_SYNTAX error, saying how many of the parser\'s later complaints it stands for', () => {
    // The `[` opened on line 5 is never closed: the parser complains of most lines after it.
    const broken = MONITORS.replace('      - { ErrorConditionType: HttpStatus, Value: "200" }\n  - Name: Blog', '      - [ { ErrorConditionType: HttpStatus, Value: "200" }\n  - Name: Blog');
    const errors = load(broken).filter((d) => d.severity === 'error');
    expect(errors.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`)).toEqual(['monitors.yaml:6:3 YAML_SYNTAX']);
    expect(errors[0]?.hint).toMatch(/^nothing else in this file is checked until it parses \(the parser's \d+ later complaints follow from this one and are not shown\)$/);
  });

  it('declares nothing, so references into it are unchecked warnings, never UNKNOWN_REFERENCE, and nothing it lost is reported', () => {
    const broken = MONITORS.replace('  - Name: Shop\n', '  - Name: Shop\n    Url: "https://shop.example.com/\n');
    const found = load(broken);
    expect(found.filter((d) => d.severity === 'error').map((d) => `${d.file} ${d.code}`)).toEqual(['monitors.yaml YAML_SYNTAX']);
    const unchecked = found.filter((d) => d.code === 'UNCHECKED_REFERENCE');
    // Both monitor members, the operator member and the vault reference: each at its place, each naming the file.
    expect(unchecked.map((d) => `${d.file}:${d.line}:${d.column} ${d.severity}`)).toEqual(['groups.yaml:2:37 warning', 'groups.yaml:2:43 warning', 'groups.yaml:4:37 warning', 'groups.yaml:6:158 warning']);
    expect(unchecked[0]?.message).toBe('member `Shop` of group `Sites` was not checked: it names no declared monitor in the files that parsed, and monitors.yaml failed to parse');
    expect(unchecked[0]?.hint).toBe('fix the syntax error in monitors.yaml; validate then checks this reference');
    expect(found.map((d) => d.code)).not.toContain('UNKNOWN_REFERENCE');
  });
});
