import { describe, expect, it } from 'vitest';
import { loadConfigTexts } from '../src/index.js';

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
