import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBounded } from '../src/bounded-read.js';
import { diagnosticLine, formatDiagnostic, loadConfig, readConfigTree, type Secret } from '../src/index.js';

const SETTINGS = 'apiVersion: monsync/v1\nmanage:\n  monitors: {}\n  vault: {}\n';
const CANARY = 'CANARY-41d8e2';

function tree(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'monsync-tree-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

const lines = async (dir: string) => (await loadConfig(dir)).diagnostics.map(diagnosticLine);

describe('the config tree on disk: symbolic links', () => {
  it('follows a folder that is a link inside the tree, so its monitors stay declared (and are named by the link path)', async () => {
    const dir = tree({ 'monsync.yaml': SETTINGS, '.shared/teams/web.yaml': 'monitors: [{ Name: web }]\n' });
    symlinkSync(join(dir, '.shared', 'teams'), join(dir, 'teams'));
    const { desired, diagnostics, files } = await loadConfig(dir);
    expect(diagnostics.map(diagnosticLine)).toEqual([]);
    expect(files).toEqual(['monsync.yaml', 'teams/web.yaml']);
    expect(desired.monitors.map((m) => `${m.source.file} ${m.value.Name}`)).toEqual(['teams/web.yaml web']);
  });

  it('refuses a folder that is a link out of the tree, naming the link, and reads none of its files', async () => {
    const outside = tree({ 'web.yaml': `monitors: [{ Name: ${CANARY} }]\n` });
    const dir = tree({ 'monsync.yaml': SETTINGS });
    symlinkSync(outside, join(dir, 'teams'));
    const { desired, diagnostics } = await loadConfig(dir);
    expect(diagnostics.map(diagnosticLine)).toEqual(['teams:1:1 error CONFIG_FILE_OUTSIDE_TREE the folder is a symbolic link that leads outside the config tree, so none of its files is read']);
    expect(desired.monitors).toEqual([]);
    expect(JSON.stringify(diagnostics)).not.toContain(CANARY);
  });

  it('reports a folder link to a folder that holds it as a loop instead of walking forever', async () => {
    const dir = tree({ 'monsync.yaml': SETTINGS, 'a/m.yaml': 'monitors: [{ Name: m }]\n' });
    symlinkSync(dir, join(dir, 'a', 'up'));
    symlinkSync('.', join(dir, 'self'));
    const { desired, diagnostics } = await loadConfig(dir);
    expect(diagnostics.map((d) => `${d.file} ${d.code}`)).toEqual(['a/up CONFIG_LINK_LOOP', 'self CONFIG_LINK_LOOP']);
    expect(desired.monitors.map((m) => m.value.Name)).toEqual(['m']);
  });

  it('reports links that lead to each other as a loop, and a link that leads nowhere, never skipping either', async () => {
    const dir = tree({ 'monsync.yaml': SETTINGS });
    symlinkSync('b.yaml', join(dir, 'a.yaml'));
    symlinkSync('a.yaml', join(dir, 'b.yaml'));
    symlinkSync('missing-folder', join(dir, 'teams'));
    expect(await lines(dir)).toEqual([
      'a.yaml:1:1 error CONFIG_LINK_LOOP the symbolic link is part of a loop of links, so it leads nowhere and is not read',
      'b.yaml:1:1 error CONFIG_LINK_LOOP the symbolic link is part of a loop of links, so it leads nowhere and is not read',
      'teams:1:1 error CONFIG_LINK_DANGLING the symbolic link leads nowhere (ENOENT): if it was meant to name a folder of config files, none of them is read',
    ]);
  });

  it('reads a file reached by two paths once, and says which path it skipped', async () => {
    const dir = tree({ 'monsync.yaml': SETTINGS, 'web/m.yaml': 'monitors: [{ Name: m }]\n' });
    symlinkSync(join(dir, 'web'), join(dir, 'zz-web'));
    const { desired, diagnostics } = await loadConfig(dir);
    expect(diagnostics.map(diagnosticLine)).toEqual([
      'zz-web/m.yaml:1:1 error CONFIG_FILE_READ_TWICE the file is the same file as web/m.yaml (through a symbolic link), so it is not read twice: everything in it would be declared twice',
    ]);
    expect(desired.monitors.map((m) => m.source.file)).toEqual(['web/m.yaml']);
  });
});

describe('the config tree on disk: what is never read', () => {
  it('refuses links to /dev/zero and /dev/urandom without reading a byte (no crash, no hang)', async () => {
    const dir = tree({ 'monsync.yaml': SETTINGS });
    symlinkSync('/dev/zero', join(dir, 'zero.yaml'));
    symlinkSync('/dev/urandom', join(dir, 'random.yaml'));
    const { diagnostics, sources } = await loadConfig(dir);
    expect(diagnostics.map((d) => `${d.file} ${d.code} ${String(d.redactSource)}`)).toEqual(['random.yaml CONFIG_FILE_OUTSIDE_TREE true', 'zero.yaml CONFIG_FILE_OUTSIDE_TREE true']);
    // The diagnostics' snippets come from `sources`: a refused file has no text there, so nothing re-reads it.
    expect([...sources.keys()]).toEqual(['monsync.yaml']);
  });

  it('refuses a named pipe named *.yaml, and one reached through a link inside the tree, without blocking on it', async () => {
    const dir = tree({ 'monsync.yaml': SETTINGS });
    execFileSync('mkfifo', [join(dir, 'pipe.yaml'), join(dir, 'pipe')]);
    symlinkSync('pipe', join(dir, 'linked.yaml'));
    expect(await lines(dir)).toEqual([
      'linked.yaml:1:1 error CONFIG_FILE_NOT_REGULAR the path is a named pipe (FIFO), not a file, so it is not read',
      'pipe.yaml:1:1 error CONFIG_FILE_NOT_REGULAR the path is a named pipe (FIFO), not a file, so it is not read',
    ]);
  });

  it('shows no line of a file it refused, whatever source a caller passes', () => {
    for (const code of ['CONFIG_FILE_NOT_REGULAR', 'CONFIG_LINK_LOOP', 'CONFIG_FILE_READ_TWICE']) {
      const shown = formatDiagnostic({ severity: 'error', code, message: 'refused', file: 'x.yaml', line: 1, column: 1, redactSource: true }, { source: `${CANARY}\n` });
      expect(shown).toBe(`x.yaml:1:1: error ${code}: refused`);
    }
  });

  it('warns about *.yml and *.YAML files, which it does not read, and names the file to rename them to', async () => {
    const dir = tree({ 'monsync.yaml': SETTINGS, 'web.yml': 'monitors: [{ Name: yml }]\n', 'api/API.YAML': 'monitors: [{ Name: upper }]\n', 'notes.txt': 'x' });
    const { desired, diagnostics } = await loadConfig(dir);
    expect(diagnostics.map((d) => `${diagnosticLine(d)} | ${d.hint ?? ''}`)).toEqual([
      'api/API.YAML:1:1 warning YAML_EXTENSION the file is not read: config files end in `.yaml` (lowercase) | rename it to "api/API.yaml" to load it, or to another extension if it is not monsync config',
      'web.yml:1:1 warning YAML_EXTENSION the file is not read: config files end in `.yaml` (lowercase) | rename it to "web.yaml" to load it, or to another extension if it is not monsync config',
    ]);
    expect(desired.monitors).toEqual([]);
  });

  it('gives pull and the drift job the same files and texts as the loader (readConfigTree)', () => {
    const dir = tree({ 'monsync.yaml': SETTINGS, '.shared/m.yaml': 'monitors: [{ Name: m }]\n' });
    symlinkSync(join(dir, '.shared', 'm.yaml'), join(dir, 'm.yaml'));
    symlinkSync('/dev/zero', join(dir, 'zero.yaml'));
    const read = readConfigTree(dir);
    expect(read.texts).toEqual([
      { file: 'monsync.yaml', text: SETTINGS },
      { file: 'm.yaml', text: 'monitors: [{ Name: m }]\n' },
    ]);
    expect(read.diagnostics.map((d) => d.code)).toEqual(['CONFIG_FILE_OUTSIDE_TREE']);
  });
});

describe('readBounded', () => {
  it('reads a regular file up to its cap, and refuses a larger one, a device or a pipe before reading', () => {
    const dir = tree({ 'small.txt': 'abc', 'big.txt': Buffer.alloc(11) });
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    expect(readBounded(join(dir, 'small.txt'), 10)).toEqual({ bytes: Buffer.from('abc') });
    expect(readBounded(join(dir, 'big.txt'), 10)).toEqual({ refused: 'too-large', size: 11 });
    expect(readBounded('/dev/zero', 10)).toEqual({ refused: 'not-regular', what: 'a device' });
    expect(readBounded(join(dir, 'pipe'), 10)).toEqual({ refused: 'not-regular', what: 'a named pipe (FIFO)' });
    expect(readBounded(dir, 10)).toEqual({ refused: 'not-regular', what: 'a folder' });
    expect(readBounded(join(dir, 'none'), 10)).toEqual({ refused: 'unreadable', code: 'ENOENT' });
  });

  it('stops at the cap in a file whose size the system does not state (/proc)', () => {
    // /proc/self/maps is reported as 0 bytes long and holds more than 16.
    expect(readBounded('/proc/self/maps', 16)).toEqual({ refused: 'too-large', size: 17 });
  });
});

describe('fromFile: hidden paths and size', () => {
  const item = (name: string, path: string) => `        - { Name: ${name}, VaultItemType: OneTimePassword, Value: { fromFile: ${JSON.stringify(path)} } }`;
  const vault = (...items: string[]) => ['vault:', '  sections:', '    - Name: S', '      items:', ...items, ''].join('\n');

  it('refuses a path through a hidden folder or to a hidden file at file:line:col, without reading it, even through a link', async () => {
    const dir = tree({ 'monsync.yaml': SETTINGS, '.git/config': `token=${CANARY}`, '.github/token': CANARY, 'certs/.env': CANARY, 'ok.txt': 'fine' });
    symlinkSync(join(dir, '.git', 'config'), join(dir, 'token.txt'));
    writeFileSync(join(dir, 'v.yaml'), vault(item('git', '.git/config'), item('github', './.github/token'), item('env', 'certs/.env'), item('link', 'token.txt'), item('ok', 'ok.txt')));
    for (const resolveSecrets of [false, true]) {
      const { diagnostics, desired } = await loadConfig(dir, { resolveSecrets });
      expect(diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`)).toEqual([
        'v.yaml:5:75 SECRET_FILE_HIDDEN',
        'v.yaml:6:78 SECRET_FILE_HIDDEN',
        'v.yaml:7:75 SECRET_FILE_HIDDEN',
        'v.yaml:8:76 SECRET_FILE_HIDDEN',
      ]);
      expect(diagnostics[0]?.message).toContain('hidden paths (.git, .github, .env) hold tools\' state and credentials');
      expect(JSON.stringify(diagnostics)).not.toContain(CANARY);
      const secrets = (desired.vaultSections[0]?.value.items ?? []).map((i) => i.value.Value as Secret);
      // Even a caller that ignored the errors cannot read them.
      for (const secret of secrets.slice(0, 4)) expect(() => secret.reveal()).toThrow(/hidden folder or a hidden file and is not read/);
      expect(secrets[4]?.reveal()).toBe('fine');
    }
  });

  it('refuses a secret file over 1 MiB, saying the limit, and reveal() does not read it either', async () => {
    const dir = tree({ 'monsync.yaml': SETTINGS, 'big.pem': Buffer.alloc(1024 * 1024 + 1, 65), 'ok.pem': Buffer.alloc(1024 * 1024, 66) });
    writeFileSync(join(dir, 'v.yaml'), vault(item('big', 'big.pem'), item('ok', 'ok.pem')));
    const { diagnostics, desired } = await loadConfig(dir, { resolveSecrets: true });
    expect(diagnostics.map(diagnosticLine)).toEqual([
      'v.yaml:5:75 error SECRET_FILE_TOO_LARGE `fromFile` path `big.pem` is 1048577 bytes; a secret file holds at most 1 MiB (a File vault item 2 MiB), so it is not read',
    ]);
    const [big, ok] = (desired.vaultSections[0]?.value.items ?? []).map((i) => i.value.Value as Secret);
    expect(() => big?.reveal()).toThrow(/is not read: it is larger than 1 MiB/);
    expect(ok?.reveal()).toHaveLength(1024 * 1024);
  });

  it('refuses a fromFile that is a device reached through a link inside the tree', async () => {
    const dir = tree({ 'monsync.yaml': SETTINGS });
    mkdirSync(join(dir, 'dev'));
    execFileSync('mkfifo', [join(dir, 'dev', 'pipe')]);
    symlinkSync('dev/pipe', join(dir, 'secret.txt'));
    writeFileSync(join(dir, 'v.yaml'), vault(item('pipe', 'secret.txt')));
    const { diagnostics, desired } = await loadConfig(dir, { resolveSecrets: true });
    expect(diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`)).toEqual(['5:76 SECRET_FILE_NOT_REGULAR `fromFile` path `secret.txt` is a named pipe (FIFO), not a file']);
    const secret = desired.vaultSections[0]?.value.items?.[0]?.value.Value as Secret;
    expect(() => secret.reveal()).toThrow(/it is a named pipe \(FIFO\), not a file/);
  });
});
