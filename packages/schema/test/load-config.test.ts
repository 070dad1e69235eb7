import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SAFETY, MAX_VAULT_FILE_BYTES, Secret, diagnosticLine, hasErrors, loadConfig, loadConfigSync } from '../src/index.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}/`, import.meta.url));

describe('safety settings', () => {
  it('fill what monsync.yaml leaves out from the defaults, relations apart from objects', async () => {
    const root = mkdtempSync(join(tmpdir(), 'monsync-safety-'));
    writeFileSync(join(root, 'monsync.yaml'), 'apiVersion: monsync/v1\nsafety:\n  minDeleteCount: 5\n  relations: { maxDeletePercent: 60 }\n');
    const { desired, diagnostics } = await loadConfig(root);
    expect(diagnostics).toEqual([]);
    expect(desired.settings.safety).toEqual({
      maxDeletePercent: 30,
      maxUpdatePercent: 50,
      minDeleteCount: 5,
      minUpdateCount: 10,
      relations: { maxDeletePercent: 60, maxUpdatePercent: 50, minDeleteCount: 10, minUpdateCount: 10 },
    });
  });

  it('refuse a count that is not a whole number of at least 1, and an unknown field of relations', async () => {
    const root = mkdtempSync(join(tmpdir(), 'monsync-safety-'));
    writeFileSync(join(root, 'monsync.yaml'), 'apiVersion: monsync/v1\nsafety:\n  minDeleteCount: 0\n  relations: { minUpdateCount: 2.5, maxDeletePercnt: 10 }\n');
    const { diagnostics } = await loadConfig(root);
    expect(diagnostics.map(diagnosticLine)).toEqual([
      'monsync.yaml:3:19 error OUT_OF_RANGE `minDeleteCount` must be at least 1 (got 0)',
      'monsync.yaml:4:32 error TYPE_MISMATCH `minUpdateCount` must be an integer, not a number',
      'monsync.yaml:4:37 error UNKNOWN_FIELD unknown field `maxDeletePercnt` in relations; did you mean `maxDeletePercent`?',
    ]);
  });
});

describe('loadConfig', () => {
  it('accepts the example tree verbatim and returns the desired state', async () => {
    const { desired, diagnostics } = await loadConfig(fixture('design-example'), { env: { SHOP_PASSWORD: 'x', CERT_PW: 'y' } });
    expect(hasErrors(diagnostics)).toBe(false);
    expect(desired.settings).toEqual({
      apiVersion: 'monsync/v1',
      manage: {
        monitors: { prune: true, removal: 'auto' },
        monitorGroups: { prune: true },
        vault: { prune: false },
        slas: { prune: true },
        scheduledReports: { prune: false },
      },
      ignore: ['monitor:legacy-*'],
      safety: DEFAULT_SAFETY,
    });
    expect(desired.monitors.map((m) => m.value.Name)).toEqual(['Shop homepage']);
    expect(desired.monitors[0]?.source).toEqual({ file: 'monitors/shop.yaml', line: 3, column: 5 });
    expect(desired.monitors[0]?.value.PredefinedVariables?.[0]?.Value).toEqual({ vault: 'Web/shop-login' });
    expect(desired.monitorGroups[0]?.value.members).toEqual(['Shop homepage']);
    const item = desired.vaultSections[0]?.value.items?.[0];
    expect(item?.value.Password).toBeInstanceOf(Secret);
    expect(item?.value.Password?.describe()).toBe('env SHOP_PASSWORD');
    expect(desired.slas[0]?.value.exclusionPeriods?.[0]?.value.From).toBe('2026-11-27T00:00:00');
    expect(desired.scheduledReports[0]?.value.key).toBe('weekly-exec');
    expect(desired.alertDefinitions[0]?.value).toEqual({ AlertDefinitionGuid: '0b1e4c2a-8d7f-4e3b-a5c6-9f2d1e0b7a33', IsActive: true });
  });
});


const CANARY = 'CANARY-7f3a9c';
const SETTINGS = 'apiVersion: monsync/v1\nmanage:\n  monitors: {}\n  vault: {}\n';

function tree(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'monsync-load-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

/** 1-based column of `needle` on 1-based `line` of `text`. */
const columnOf = (text: string, line: number, needle: string) => (text.split('\n')[line - 1] ?? '').indexOf(needle) + 1;

const VAULT = [
  'vault:',
  '  sections:',
  '    - Name: Web',
  '      items:',
  '        - { Name: login, VaultItemType: CredentialSet, UserName: robot, Password: { fromEnv: SHOP_PASSWORD } }',
  '        - { Name: otp, VaultItemType: OneTimePassword, Value: { fromFile: secrets/otp.txt } }',
].join('\n');

describe('loadConfig: files', () => {
  it('reads monsync.yaml first, then every *.yaml below in code-point order, skipping hidden folders and node_modules', async () => {
    const dir = tree({
      'monsync.yaml': SETTINGS,
      'z.yaml': 'monitors: [{ Name: z }]\n',
      'B/b.yaml': 'monitors: [{ Name: B }]\n',
      'a/a.yaml': 'monitors: [{ Name: a }]\n',
      '.hidden/h.yaml': 'monitors: [{ Name: hidden }]\n',
      'node_modules/pkg/n.yaml': 'monitors: [{ Name: module }]\n',
      'readme.md': '# not config',
    });
    const { files, desired, diagnostics } = await loadConfig(dir);
    expect(diagnostics).toEqual([]);
    expect(files).toEqual(['monsync.yaml', 'B/b.yaml', 'a/a.yaml', 'z.yaml']);
    expect(desired.monitors.map((m) => m.value.Name)).toEqual(['B', 'a', 'z']);
    expect(desired.root).toBe(dir);
  });

  it('reports a missing config folder as a diagnostic instead of throwing', async () => {
    const dir = tree({ 'file.yaml': 'monitors: []\n' });
    for (const target of [join(dir, 'nope'), join(dir, 'file.yaml')]) {
      const { diagnostics, desired, files } = await loadConfig(target);
      expect(diagnostics.map((d) => `${d.file} ${d.code}`)).toEqual(['. CONFIG_DIR_UNREADABLE']);
      expect(files).toEqual([]);
      expect(desired.monitors).toEqual([]);
    }
  });

  it('reads symlinked files inside the tree and reports a dangling one', async () => {
    const dir = tree({ 'monsync.yaml': SETTINGS, '.shared/m.yaml': 'monitors: [{ Name: shared }]\n' });
    symlinkSync(join(dir, '.shared', 'm.yaml'), join(dir, 'link.yaml'));
    symlinkSync(join(dir, 'missing.yaml'), join(dir, 'dangling.yaml'));
    const { diagnostics, desired } = await loadConfig(dir);
    expect(diagnostics.map(diagnosticLine)).toEqual(['dangling.yaml:1:1 error FILE_UNREADABLE the file cannot be read (ENOENT)']);
    expect(desired.monitors.map((m) => `${m.source.file} ${m.value.Name}`)).toEqual(['link.yaml shared']);
  });

  it('does not read (nor quote) a symlinked config file that leads outside the tree, such as /proc/self/environ', async () => {
    const outside = tree({ 'env.yaml': `CI_TOKEN=${CANARY}-link\n`, 'ok.yaml': 'monitors: [{ Name: elsewhere }]\n' });
    const dir = tree({ 'monsync.yaml': SETTINGS });
    symlinkSync(join(outside, 'env.yaml'), join(dir, 'env.yaml'));
    symlinkSync(join(outside, 'ok.yaml'), join(dir, 'ok.yaml'));
    for (const load of [loadConfig, async (d: string) => loadConfigSync(d)]) {
      const { diagnostics, desired } = await load(dir);
      expect(diagnostics.map(diagnosticLine)).toEqual([
        'env.yaml:1:1 error CONFIG_FILE_OUTSIDE_TREE the file is a symbolic link that leads outside the config tree, so it is not read',
        'ok.yaml:1:1 error CONFIG_FILE_OUTSIDE_TREE the file is a symbolic link that leads outside the config tree, so it is not read',
      ]);
      expect(JSON.stringify(diagnostics)).not.toContain(CANARY);
      expect(diagnostics.map((d) => d.redactSource)).toEqual([true, true]);
      expect(desired.monitors).toEqual([]);
    }
  });

  it('returns the same result synchronously', async () => {
    const dir = tree({ 'monsync.yaml': SETTINGS, 'm.yaml': 'monitors: [{ Name: a, UserAgent: Bad }]\n' });
    const a = await loadConfig(dir);
    const b = loadConfigSync(dir);
    expect(b.diagnostics).toEqual(a.diagnostics);
    expect(JSON.stringify(b.desired)).toBe(JSON.stringify(a.desired));
  });

  it('still returns a best-effort desired state when there are errors', async () => {
    const dir = tree({ 'monsync.yaml': SETTINGS, 'm.yaml': 'monitors:\n  - Name: a\n    IsActive: maybe\n  - Name: b\n' });
    const { desired, diagnostics } = await loadConfig(dir);
    expect(hasErrors(diagnostics)).toBe(true);
    expect(desired.monitors.map((m) => m.value.Name)).toEqual(['a', 'b']);
  });

  it('applies settings defaults: safety 30/50, prune false, no ignore patterns', async () => {
    const dir = tree({ 'monsync.yaml': 'apiVersion: monsync/v1\nmanage:\n  monitors:\n  slas: {}\n' });
    const { desired, diagnostics } = await loadConfig(dir);
    expect(diagnostics).toEqual([]);
    expect(desired.settings).toEqual({
      apiVersion: 'monsync/v1',
      manage: { monitors: { prune: false, removal: 'auto' }, slas: { prune: false } },
      ignore: [],
      safety: DEFAULT_SAFETY,
    });
    expect(desired.settingsSource).toEqual({ file: 'monsync.yaml', line: 1, column: 1 });
  });

  it('warns that declared resources of a kind missing from manage will not be planned', async () => {
    const dir = tree({ 'monsync.yaml': SETTINGS, 's.yaml': 'slas:\n  - Description: Gold\n' });
    const { diagnostics } = await loadConfig(dir);
    expect(diagnostics.map(diagnosticLine)).toEqual([
      's.yaml:2:5 warning KIND_NOT_MANAGED 1 SLAs declared, but `slas` is not under manage in monsync.yaml: they will not be planned',
    ]);
  });
});

describe('loadConfig: empty files', () => {
  it.each([
    ['zero bytes', ''],
    ['only whitespace', '  \n\n'],
    ['only comments', '# monitors moved to shop.yaml\n# (nothing here)\n'],
    ['a null document', 'null\n'],
    ['a ~ document', '~\n'],
    ['an empty mapping', '{}\n'],
  ])('warns that a resource file holding %s declares nothing and would turn into deletes', async (_what, text) => {
    const dir = tree({ 'monsync.yaml': SETTINGS, 'monitors/shop.yaml': text });
    const { diagnostics } = await loadConfig(dir);
    expect(diagnostics.map(diagnosticLine)).toEqual([
      'monitors/shop.yaml:1:1 warning EMPTY_FILE the file declares nothing: objects it used to declare will be planned as deletes in kinds with `prune: true`',
    ]);
    expect(diagnostics[0]?.hint).toContain('delete the file');
    expect(hasErrors(diagnostics)).toBe(false);
  });

  it('does not warn about a file that declares an explicitly empty list', async () => {
    const dir = tree({ 'monsync.yaml': SETTINGS, 'm.yaml': 'monitors: []\n' });
    expect((await loadConfig(dir)).diagnostics).toEqual([]);
  });

  it('keeps an empty or null monsync.yaml an error', async () => {
    for (const text of ['', '# settings\n', 'null\n']) {
      const { diagnostics } = await loadConfig(tree({ 'monsync.yaml': text }));
      expect(diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual(['error MISSING_API_VERSION']);
    }
  });
});

describe('loadConfig: secrets', () => {
  it('warns about an unset variable or a missing file at validate time, naming it and never a value', async () => {
    const dir = tree({ 'monsync.yaml': SETTINGS, 'vault.yaml': VAULT });
    const { diagnostics } = await loadConfig(dir, { env: {} });
    expect(diagnostics.map(diagnosticLine)).toEqual([
      `vault.yaml:5:${columnOf(VAULT, 5, '{ fromEnv')} warning ENV_VAR_UNSET environment variable SHOP_PASSWORD is not set; plan and apply will need it`,
      `vault.yaml:6:${columnOf(VAULT, 6, '{ fromFile')} warning SECRET_FILE_MISSING secret file secrets/otp.txt does not exist; plan and apply will need it`,
    ]);
  });

  it('leaves an unset value to the plan when values are needed (resolveSecrets): it refuses only a step that sends it', async () => {
    const dir = tree({ 'monsync.yaml': SETTINGS, 'vault.yaml': VAULT });
    const { diagnostics } = await loadConfig(dir, { env: {}, resolveSecrets: true });
    expect(diagnostics).toEqual([]);
  });

  it('resolves references lazily into Secrets that never print their value', async () => {
    const dir = tree({ 'monsync.yaml': SETTINGS, 'vault.yaml': VAULT, 'secrets/otp.txt': `${CANARY}-file\n` });
    const env = { SHOP_PASSWORD: CANARY };
    const { desired, diagnostics } = await loadConfig(dir, { env, resolveSecrets: true });
    expect(diagnostics).toEqual([]);
    const items = desired.vaultSections[0]?.value.items ?? [];
    const password = items[0]?.value.Password;
    const otp = items[1]?.value.Value;
    expect(password?.reveal()).toBe(CANARY);
    expect(otp?.reveal()).toBe(`${CANARY}-file`);
    expect(otp?.source).toEqual({ file: 'vault.yaml', line: 6, column: columnOf(VAULT, 6, '{ fromFile') });
    expect(JSON.stringify(desired)).not.toContain(CANARY);
  });

  it('reads binary vault types from files as base64', async () => {
    const pfx = Buffer.from([0x30, 0x82, 0x00, 0xff, 0x10]);
    const dir = tree({
      'monsync.yaml': SETTINGS,
      'v/vault.yaml': 'vault:\n  sections:\n    - Name: S\n      items:\n        - Name: c\n          VaultItemType: CertificateArchive\n          CertificateArchive: { ArchiveData: { fromFile: c.pfx }, Password: { fromEnv: PW } }\n',
      'v/c.pfx': pfx,
    });
    const { desired, diagnostics } = await loadConfig(dir, { env: { PW: 'x' } });
    expect(diagnostics).toEqual([]);
    const archive = desired.vaultSections[0]?.value.items?.[0]?.value.CertificateArchive;
    expect(archive?.ArchiveData?.reveal()).toBe(pfx.toString('base64'));
  });

  // Published definition, vault row "Certificate Value": the service's provider sends base-64 of the PEM file, not
  // the public-key text the spec describes.
  it('sends a Certificate as base-64 of its PEM, from a file or a variable, and a variable already in base-64 as it is', async () => {
    const pem = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n';
    const encoded = Buffer.from(pem, 'utf8').toString('base64');
    const item = (name: string, ref: string): string => `        - { Name: ${name}, VaultItemType: Certificate, Value: ${ref} }\n`;
    const dir = tree({
      'monsync.yaml': SETTINGS,
      'vault.yaml': `vault:\n  sections:\n    - Name: S\n      items:\n${item('file', '{ fromFile: sso.pem }')}${item('pem', '{ fromEnv: PEM }')}${item('b64', '{ fromEnv: B64 }')}`,
      'sso.pem': pem,
    });
    const { desired, diagnostics } = await loadConfig(dir, { env: { PEM: pem, B64: `${encoded.slice(0, 20)}\n${encoded.slice(20)}` } });
    expect(diagnostics).toEqual([]);
    const values = (desired.vaultSections[0]?.value.items ?? []).map((i) => i.value.Value?.reveal());
    expect(values).toEqual([encoded, encoded, encoded]);
  });

  it('refuses File vault items over 2 MB', async () => {
    const dir = tree({
      'monsync.yaml': SETTINGS,
      'vault.yaml': 'vault:\n  sections:\n    - Name: S\n      items:\n        - { Name: big, VaultItemType: File, Value: { fromFile: big.bin } }\n        - { Name: ok, VaultItemType: File, Value: { fromFile: ok.bin } }\n',
      'big.bin': Buffer.alloc(MAX_VAULT_FILE_BYTES + 1),
      'ok.bin': Buffer.alloc(MAX_VAULT_FILE_BYTES),
    });
    const { diagnostics } = await loadConfig(dir);
    expect(diagnostics.map(diagnosticLine)).toEqual([`vault.yaml:5:52 error VAULT_FILE_TOO_LARGE file big.bin is 2.0 MB; File vault items hold at most 2 MB`]);
  });

  it('accepts a variable value by secret reference, and reports one error per malformed value form', async () => {
    const source = [
      'monitors:',
      '  - Name: api',
      '    PredefinedVariables:',
      '      - { Key: token, Value: { fromEnv: API_TOKEN } }',
      '      - { Key: bad, Value: { fromEnv: 1bad } }',
      '      - { Key: odd, Value: { bogus: x } }',
      '',
    ].join('\n');
    const dir = tree({ 'monsync.yaml': SETTINGS, 'm.yaml': source });
    const { diagnostics, desired } = await loadConfig(dir, { env: { API_TOKEN: CANARY } });
    expect(diagnostics.map((d) => `${d.line} ${d.code}`)).toEqual(['5 INVALID_REFERENCE', '6 INVALID_VALUE']);
    const token = desired.monitors[0]?.value.PredefinedVariables?.[0]?.Value;
    expect(token).toBeInstanceOf(Secret);
    expect(JSON.stringify(desired)).not.toContain(CANARY);
  });

  it('resolves a vault reference whose item name holds a line or paragraph separator, as the item name itself may', async () => {
    const name = 'odd\u2029name\u2028here';
    const source = [
      'vault:',
      '  sections:',
      '    - Name: S',
      '      items:',
      `        - { Name: ${JSON.stringify(name)}, VaultItemType: CredentialSet, Password: { fromEnv: SHOP_PASSWORD } }`,
      'monitors:',
      `  - { Name: m, PredefinedVariables: [{ Key: login, Value: { vault: ${JSON.stringify(`S/${name}`)} } }] }`,
      '',
    ].join('\n');
    const dir = tree({ 'monsync.yaml': SETTINGS, 'm.yaml': source });
    const { diagnostics, desired } = await loadConfig(dir, { env: { SHOP_PASSWORD: 'x' } });
    expect(diagnostics.map(diagnosticLine)).toEqual([]);
    expect(desired.monitors[0]?.value.PredefinedVariables?.[0]?.Value).toEqual({ vault: `S/${name}` });
  });

  it('refuses fromFile paths that are absolute or lead outside the config tree, without reading them', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'monsync-outside-'));
    writeFileSync(join(outside, 'ci-secret.txt'), CANARY);
    const dir = tree({ 'monsync.yaml': SETTINGS, 'secrets/ok.txt': 'fine\n' });
    symlinkSync(join(outside, 'ci-secret.txt'), join(dir, 'secrets/link.txt'));
    symlinkSync(outside, join(dir, 'secrets/linked-dir'));
    const escape = relative(join(dir, 'vault'), join(outside, 'ci-secret.txt'));
    const item = (name: string, path: string) => `        - { Name: ${name}, VaultItemType: OneTimePassword, Value: { fromFile: ${JSON.stringify(path)} } }`;
    const source = [
      'vault:',
      '  sections:',
      '    - Name: S',
      '      items:',
      item('absolute', join(outside, 'ci-secret.txt')),
      item('dotdot', escape),
      item('link', '../secrets/link.txt'),
      item('dir', '../secrets/linked-dir/ci-secret.txt'),
      item('ok', '../secrets/ok.txt'),
      '',
    ].join('\n');
    mkdirSync(join(dir, 'vault'));
    writeFileSync(join(dir, 'vault', 'v.yaml'), source);
    for (const resolveSecrets of [false, true]) {
      const { diagnostics, desired } = await loadConfig(dir, { resolveSecrets });
      // The linked folder is refused as a folder of the tree too: its files would be config if it held *.yaml.
      expect(diagnostics.map((d) => `${d.file}:${d.line} ${d.code}`)).toEqual([
        'secrets/linked-dir:1 CONFIG_FILE_OUTSIDE_TREE',
        ...[5, 6, 7, 8].map((line) => `vault/v.yaml:${line} SECRET_FILE_OUTSIDE_TREE`),
      ]);
      expect(JSON.stringify(diagnostics)).not.toContain(CANARY);
      const items = desired.vaultSections[0]?.value.items ?? [];
      const values = items.map((i) => i.value.Value).filter((v): v is Secret => v instanceof Secret);
      expect(values).toHaveLength(5);
      // Even a caller that ignored the errors cannot read them.
      for (const secret of values.slice(0, 4)) expect(() => secret.reveal()).toThrow(/outside the config tree/);
      expect(values[4]?.reveal()).toBe('fine');
    }
  });

  it('never prints a literal secret it refuses', async () => {
    const source = `vault:\n  sections:\n    - Name: S\n      items:\n        - { Name: l, VaultItemType: CredentialSet, Password: ${CANARY} }\n`;
    const dir = tree({ 'monsync.yaml': SETTINGS, 'vault.yaml': source });
    const { diagnostics } = await loadConfig(dir);
    expect(diagnostics.map((d) => d.code)).toEqual(['LITERAL_SECRET']);
    for (const d of diagnostics) {
      expect(diagnosticLine(d)).not.toContain(CANARY);
      expect(JSON.stringify(d)).not.toContain(CANARY);
    }
  });
});
