import { describe, expect, it } from 'vitest';
import { formatDiagnostic, loadConfigTexts } from '../src/index.js';

const SETTINGS = 'apiVersion: monsync/v1\nmanage:\n  monitors: {}\n  vault: {}\n';

function vaultTree(sectionName: string, itemName: string, ref: string) {
  return loadConfigTexts('/cfg', [
    { file: 'monsync.yaml', text: SETTINGS },
    {
      file: 'x.yaml',
      text:
        'vault:\n  sections:\n' +
        `    - Name: ${JSON.stringify(sectionName)}\n      items:\n` +
        `        - { Name: ${JSON.stringify(itemName)}, VaultItemType: CredentialSet, UserName: u, Password: { fromEnv: PW } }\n` +
        'monitors:\n  - Name: m\n    MonitorType: Https\n    Url: https://x.example.com/\n' +
        `    PredefinedVariables:\n      - { Key: a, Value: { vault: ${JSON.stringify(ref)} } }\n`,
    },
  ], { env: { PW: 'x' } });
}

describe('vault references to names holding a slash', () => {
  it('accepts a reference to an item in a section whose name holds a slash (as monsync pull writes it)', () => {
    const { diagnostics } = vaultTree('Team/Prod', 'db', 'Team/Prod/db');
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('accepts a reference to an item whose own name holds a slash', () => {
    const { diagnostics } = vaultTree('Web', 'api/token', 'Web/api/token');
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('still reports a reference to a missing item of a section whose name holds a slash, naming that section', () => {
    const { diagnostics } = vaultTree('Team/Prod', 'db', 'Team/Prod/dbx');
    expect(diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}: ${d.message}`)).toEqual([
      'x.yaml:11:35 UNKNOWN_REFERENCE: vault reference `Team/Prod/dbx` names no item `dbx` in section `Team/Prod`; did you mean `Team/Prod/db`?',
    ]);
  });
});

describe('formatDiagnostic on awkward lines', () => {
  it('puts the caret under the range on a line that holds a tab before it (the padding keeps the tab)', () => {
    const d = { severity: 'error', code: 'INVALID_ENUM', message: 'bad', file: 'm.yaml', line: 1, column: 14, endLine: 1, endColumn: 23 } as const;
    expect(formatDiagnostic(d, { source: '- { Name: a,\tUserAgent: Netscape }\n' }).split('\n').slice(1)).toEqual([
      '1 | - { Name: a,\tUserAgent: Netscape }',
      '  |             \t^^^^^^^^^',
    ]);
  });

  it('says nothing about a literal secret for a symlinked file it did not read: it shows no line at all', () => {
    const d = { severity: 'error', code: 'CONFIG_FILE_OUTSIDE_TREE', message: 'the file is a symbolic link that leads outside the config tree, so it is not read', file: 'env.yaml', line: 1, column: 1, redactSource: true } as const;
    expect(formatDiagnostic(d, { source: 'CI_TOKEN=CANARY-7f3a9c\n' })).toBe('env.yaml:1:1: error CONFIG_FILE_OUTSIDE_TREE: the file is a symbolic link that leads outside the config tree, so it is not read');
  });
});
