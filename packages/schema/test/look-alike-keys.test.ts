/**
 * Keys that read the same but are different strings (zero-width characters, spaces other than U+0020, NFD against
 * NFC, surrounding whitespace): two such declarations are an error naming both places, the keys shown escaped.
 */
import { describe, expect, it } from 'vitest';
import { loadConfigTexts, lookAlikeDifference, lookAlikeForm, type Diagnostic } from '../src/index.js';

const SETTINGS = 'apiVersion: monsync/v1\nmanage:\n  monitors: {}\n  monitorGroups: {}\n  vault: {}\n  slas: {}\n  operators: {}\n  operatorGroups: {}\n  alertDefinitions: {}\n';

function load(files: Record<string, string>): Diagnostic[] {
  return loadConfigTexts('/cfg', [{ file: 'monsync.yaml', text: SETTINGS }, ...Object.entries(files).map(([file, text]) => ({ file, text }))]).diagnostics.filter(
    (d) => d.severity === 'error',
  );
}

const at = (d: Diagnostic) => `${d.file}:${d.line}:${d.column} ${d.code}`;
const monitors = (...names: string[]) => `monitors:\n${names.map((n) => `  - { Name: ${JSON.stringify(n)}, MonitorType: Https, Url: "https://example.com" }\n`).join('')}`;

describe('look-alike declared keys', () => {
  it.each([
    ['a zero-width space', 'Si\u200Bte', 'an invisible character (U+200B)'],
    ['a zero-width non-joiner', 'Si\u200Cte', 'an invisible character (U+200C)'],
    ['a zero-width joiner', 'Si\u200Dte', 'an invisible character (U+200D)'],
    ['a word joiner', 'Si\u2060te', 'an invisible character (U+2060)'],
    ['a byte-order mark', '\uFEFFSite', 'an invisible character (U+FEFF)'],
    ['a no-break space', 'Site\u00A0A', 'a space that is not U+0020 (U+00A0)'],
    ['a narrow no-break space', 'Site\u202FA', 'a space that is not U+0020 (U+202F)'],
    ['a figure space', 'Site\u2007A', 'a space that is not U+0020 (U+2007)'],
    ['a trailing space', 'Site ', 'whitespace at the end'],
    ['a leading space', ' Site', 'whitespace at the start'],
  ])('refuses "Site" beside the same name with %s, naming both places and the character', (_, other, why) => {
    const plain = other.includes('A') ? 'Site A' : 'Site';
    const diagnostics = load({ 'a.yaml': monitors(plain), 'b.yaml': monitors(other) });
    expect(diagnostics.map(at)).toEqual(['b.yaml:2:13 LOOKALIKE_KEY']);
    const [d] = diagnostics;
    expect(d?.message).toBe(
      `monitor ${JSON.stringify(other)} reads the same as ${JSON.stringify(plain)} at a.yaml:2:13, but the service keeps them apart (${JSON.stringify(other)} has ${why}): a plan would show two of them that nobody can tell apart`,
    );
    expect(d?.hint).toContain('rename or remove one');
  });

  it('refuses the decomposed (NFD) spelling of a declared name', () => {
    const diagnostics = load({ 'm.yaml': monitors('Caf\u00E9', 'Cafe\u0301') });
    expect(diagnostics.map(at)).toEqual(['m.yaml:3:13 LOOKALIKE_KEY']);
    expect(diagnostics[0]?.message).toContain('"Cafe\u0301" has a decomposed spelling (combining marks, Unicode NFD rather than NFC)');
  });

  it('shows both keys escaped when both hold invisible characters', () => {
    const diagnostics = load({ 'm.yaml': monitors('Si\u200Bte', 'Site\u00A0') });
    expect(diagnostics[0]?.message).toContain('("Site\u00A0" has a space that is not U+0020 (U+00A0); "Si\u200Bte" has an invisible character (U+200B))');
  });

  it('holds for every kind keyed by a name: groups, vault sections and items, SLAs, operator groups, alert definitions', () => {
    const diagnostics = load({
      'g.yaml': 'monitorGroups:\n  - Description: Shop\n  - Description: "Shop\\u200b"\n',
      'v.yaml': 'vault:\n  sections:\n    - Name: Web\n      items:\n        - { Name: login, VaultItemType: CredentialSet, UserName: x }\n        - { Name: "login\\u00a0", VaultItemType: CredentialSet, UserName: y }\n    - Name: " Web"\n',
      's.yaml': 'slas:\n  - { Description: Gold, UptimeErrorThreshold: 99, UptimeWarningThreshold: 99.5 }\n  - { Description: "GOLD\\u2060", UptimeErrorThreshold: 99, UptimeWarningThreshold: 99.5 }\n',
      'p.yaml': 'operatorGroups:\n  - Description: Night shift\n  - Description: "Night\\u202fshift"\n',
      'x.yaml': 'alertDefinitions:\n  - AlertName: On call\n  - AlertName: "On\\u2007call"\n',
    });
    expect(diagnostics.map(at)).toEqual(['g.yaml:3:18 LOOKALIKE_KEY', 'p.yaml:3:18 LOOKALIKE_KEY', 's.yaml:3:20 LOOKALIKE_KEY', 'v.yaml:6:19 LOOKALIKE_KEY', 'v.yaml:7:13 LOOKALIKE_KEY', 'x.yaml:3:16 LOOKALIKE_KEY']);
  });

  it('keeps distinct names, the same name once, and one item name in two sections apart', () => {
    expect(load({ 'm.yaml': monitors('Site', 'Site A', 'Caf\u00E9', 'Site\u00A0B') })).toEqual([]);
    expect(load({ 'v.yaml': 'vault:\n  sections:\n    - Name: Web\n      items: [{ Name: login, VaultItemType: CredentialSet, UserName: x }]\n    - Name: Api\n      items: [{ Name: "login\\u200b", VaultItemType: CredentialSet, UserName: y }]\n' })).toEqual([]);
  });

  it('reports the same key twice as a duplicate, not as a look-alike', () => {
    expect(load({ 'm.yaml': monitors('Si\u200Bte', 'Si\u200Bte') }).map(at)).toEqual(['m.yaml:3:13 DUPLICATE_KEY']);
  });
});

describe('lookAlikeForm', () => {
  it('is the key itself for printable ASCII without surrounding spaces', () => {
    expect(lookAlikeForm('Shop homepage (EU) #2')).toBe('Shop homepage (EU) #2');
  });

  it('removes invisible characters, makes spaces U+0020, composes (NFC) and trims', () => {
    expect(lookAlikeForm('\uFEFF Si\u200B\u200C\u200D\u2060te\u00A0A\u202FB\u2007C\u034F ')).toBe('Site A B C');
    expect(lookAlikeForm('Cafe\u0301')).toBe('Caf\u00E9');
    // Compatibility forms look different and stay different (NFC, not NFKC).
    expect(lookAlikeForm('x\u00B2')).not.toBe(lookAlikeForm('x2'));
  });

  it('names nothing for two keys that are already plain', () => {
    expect(lookAlikeDifference('Site', 'Site')).toBe('');
  });
});
