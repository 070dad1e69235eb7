import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES, hasErrors, loadConfig, loadConfigSync, loadConfigTexts } from '../src/index.js';

const SETTINGS = 'apiVersion: monsync/v1\nmanage:\n  monitors: {}\n  monitorGroups: {}\n';

function tree(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'monsync-hazard-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

describe('YAML hazards', () => {
  it('refuses a 6 MB file without parsing it, and still reads the other files', async () => {
    const padding = `# ${'x'.repeat(1022)}\n`.repeat(6 * 1024);
    expect(padding.length).toBeGreaterThan(MAX_FILE_BYTES);
    const dir = tree({ 'monsync.yaml': SETTINGS, 'big.yaml': `monitors:\n  - Name: hidden\n${padding}`, 'small.yaml': 'monitors:\n  - Name: visible\n' });
    const { desired, diagnostics } = await loadConfig(dir);
    expect(diagnostics).toEqual([expect.objectContaining({ file: 'big.yaml', line: 1, column: 1, code: 'FILE_TOO_LARGE', severity: 'error' })]);
    expect(desired.monitors.map((m) => m.value.Name)).toEqual(['visible']);
    const sync = loadConfigSync(dir);
    expect(sync.diagnostics.map((d) => d.code)).toEqual(['FILE_TOO_LARGE']);
  });

  it('applies the size limit to trees given as text too', () => {
    const { diagnostics } = loadConfigTexts('/cfg', [
      { file: 'monsync.yaml', text: SETTINGS },
      { file: 'big.yaml', text: `# ${'y'.repeat(MAX_FILE_BYTES)}` },
    ]);
    expect(diagnostics.map((d) => `${d.file} ${d.code}`)).toEqual(['big.yaml FILE_TOO_LARGE']);
  });

  it('does not expand an alias bomb (a billion laughs) and reports it once', () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(',')}]`);
    }
    const { diagnostics, desired } = loadConfigTexts('/cfg', [
      { file: 'monsync.yaml', text: SETTINGS },
      { file: 'bomb.yaml', text: `${levels.join('\n')}\nmonitors: [*j]\n` },
    ]);
    const aliases = diagnostics.filter((d) => d.code === 'YAML_ALIAS');
    expect(aliases).toHaveLength(1);
    expect(aliases[0]?.message).toContain('91 aliases in this file');
    expect(desired.monitors).toEqual([]);
  });

  it('cannot pollute Object.prototype through __proto__, constructor or prototype keys', () => {
    const text = [
      'monitors:',
      '  - Name: polluter',
      '    __proto__: { polluted: yes }',
      '    constructor: { prototype: { polluted: yes } }',
      '    Nested: { __proto__: { polluted: yes } }',
      '"__proto__": { polluted: yes }',
    ].join('\n');
    const { diagnostics, desired } = loadConfigTexts('/cfg', [
      { file: 'monsync.yaml', text: SETTINGS },
      { file: 'proto.yaml', text },
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
    expect(diagnostics.filter((d) => d.code === 'FORBIDDEN_KEY').map((d) => d.line)).toEqual([3, 4, 5, 6]);
    const monitor = desired.monitors[0]?.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(monitor)).toBe(Object.prototype);
    expect(Object.keys(monitor)).toEqual(['Name', 'Nested']);
    expect(Object.keys(monitor.Nested as object)).toEqual([]);
  });

  it('rejects duplicate keys, merge keys and second documents with positions', () => {
    const { diagnostics } = loadConfigTexts('/cfg', [
      { file: 'monsync.yaml', text: SETTINGS },
      { file: 'x.yaml', text: 'monitors:\n  - Name: a\n    Name: b\n    <<: { IsActive: true }\n---\nmonitors: []\n' },
    ]);
    expect(diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual(['3:5 DUPLICATE_YAML_KEY', '4:5 MERGE_KEY', '5:1 MULTIPLE_DOCUMENTS']);
    expect(hasErrors(diagnostics)).toBe(true);
    expect(diagnostics.find((d) => d.code === 'DUPLICATE_YAML_KEY')?.message).toBe('the key "Name" appears twice in the same mapping');
  });
});
