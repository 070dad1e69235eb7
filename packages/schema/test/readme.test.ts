import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES, diagnosticLine, loadConfig } from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** ```yaml blocks whose first line names their file (`# monitors/shop.yaml`). */
function exampleFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const match of readme.matchAll(/```yaml\n([\s\S]*?)```/g)) {
    const body = match[1] ?? '';
    const name = /^# ([\w/.-]+\.yaml)\n/.exec(body)?.[1];
    if (name !== undefined) files[name] = body;
  }
  return files;
}

describe('README', () => {
  it('has one complete example per kind, and together they load without any diagnostic', async () => {
    const files = exampleFiles();
    const text = Object.values(files).join('\n');
    for (const key of ['apiVersion:', 'monitors:', 'monitorGroups:', 'vault:', 'slas:', 'scheduledReports:', 'alertDefinitions:']) {
      expect(text).toContain(`\n${key}`);
    }
    const dir = mkdtempSync(join(tmpdir(), 'monsync-readme-'));
    for (const [name, body] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), body);
    }
    mkdirSync(join(dir, 'certs'));
    writeFileSync(join(dir, 'certs/client.pfx'), Buffer.from([1, 2, 3]));
    const env = { SHOP_MONITOR_PASSWORD: 't', SHOP_PASSWORD: 'p', CERT_PW: 'c', SHOP_TOTP_SECRET: 's', SAM_PASSWORD: 'o' };
    const { diagnostics, desired } = await loadConfig(dir, { env, resolveSecrets: true });
    expect(diagnostics.map(diagnosticLine)).toEqual([]);
    // One complete monitor, and the one that shows `{ literal, notSecret }` (sent as the literal).
    expect(desired.monitors).toHaveLength(2);
    expect(desired.monitors.map((m) => (m.value as Record<string, unknown>)['Url'])).toContain('https://demo:demo@sandbox.example.com');
    expect(desired.alertDefinitions).toHaveLength(1);
  });

  it('documents every diagnostic code with its severity', () => {
    for (const [code, { severity, summary }] of Object.entries(DIAGNOSTIC_CODES)) {
      expect(readme).toContain(`| \`${code}\` | ${severity} | ${summary} |`);
    }
  });

  it('says what a field omitted from a set entry means, and how to really change it', () => {
    const section = /### Set entries[^\n]*\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
    expect(section).toMatch(/an entry that lacks a field the live entry has.*\| \*\*nothing\*\*/);
    expect(section).toContain('deleting `Effect: Error` from an entry plans no change');
    expect(section).toContain('`Effect: Indicate` (or `Effect: Error`) is compared and planned');
    // The demo tree teaches the same where it shows a set.
    const shop = readFileSync(new URL('../../../configs/monitors/shop.yaml', import.meta.url), 'utf8');
    expect(shop).toContain('deleting `Effect: Error` plans nothing');
  });

  it('shows the editor modeline', () => {
    expect(readme).toContain('# yaml-language-server: $schema=../schemas/config.schema.json');
  });
});
