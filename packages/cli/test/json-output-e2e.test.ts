import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientFromEnv } from '@monsync/client';
import { LOCK_SLA_THRESHOLDS } from '@monsync/reconciler';
import { applyJsonSchema, commandJsonSchemas, planJsonSchema, pullJsonSchema, validateJsonSchema, type JsonSchemaDocument } from '@monsync/schema';
import { ExitCode } from '../src/exit-codes.js';
import { copyOfDemoConfigs, monsync, REPO_ROOT, tempTree, useEmulator } from './helpers.js';

// ajv is the schema package's dependency: the test checks the output against the schemas shipped there.
const { Ajv2020 } = createRequire(join(REPO_ROOT, 'packages', 'schema', 'package.json'))('ajv/dist/2020.js') as {
  Ajv2020: new (options: object) => { addFormat(name: string, format: RegExp): unknown; compile(schema: object): ((value: unknown) => boolean) & { errors?: unknown } };
};

function conforms(schema: JsonSchemaDocument, text: string): unknown {
  const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
  ajv.addFormat('email', /@/);
  const check = ajv.compile(schema);
  const value: unknown = JSON.parse(text);
  expect(check(value), JSON.stringify(check.errors)).toBe(true);
  return value;
}

const CANARIES = {
  DEMO_SHOP_PASSWORD: 'CANARY-json-shop-password',
  DEMO_SHOP_OTP_SECRET: 'CANARYJSONOTPSECRETAA',
  DEMO_CLIENT_CERT_PFX_BASE64: Buffer.from('CANARY-json-pfx').toString('base64'),
  DEMO_CLIENT_CERT_PASSWORD: 'CANARY-json-pfx-password',
};

const suite = useEmulator({
  seed: 'demo',
  start: { retryAfterSeconds: 0 },
  operator: 'admin@example.com',
  env: CANARIES,
  eachTest: { faultsOff: true, reset: true, stageFingerprints: true, clearLog: true },
});

function expectNoSecrets(text: string): void {
  for (const value of [...Object.values(CANARIES), 'demo-password']) expect(text).not.toContain(value);
}

describe('--json', () => {
  it('validate --json prints what the tree declares, as validate.schema.json says, and nothing else', async () => {
    const { code, out, err } = await monsync(['validate', '--config', 'configs', '--json']);
    expect(code).toBe(ExitCode.Ok);
    expect(err).toBe('');
    const result = conforms(validateJsonSchema(), out) as { valid: boolean; config: string; declared: Record<string, number>; errors: number };
    expect(result).toMatchObject({ formatVersion: 1, valid: true, config: 'configs', errors: 0 });
    expect(result.declared.monitor).toBeGreaterThan(3);
    expect(result.declared.vaultItem).toBeGreaterThan(0);
  });

  it('validate --json reports every diagnostic with its file, line and column, exit 1, and nothing on stderr', async () => {
    const tree = tempTree({
      'monsync.yaml': 'apiVersion: monsync/v1\nmanage:\n  monitors: { prune: false }\n  monitorGroups: { prune: false }\n',
      'groups.yaml': 'monitorGroups:\n  - Description: Shop\n    members: [Nope]\n',
    });
    const { code, out, err } = await monsync(['validate', '--json'], { cwd: tree });
    expect(code).toBe(ExitCode.Error);
    expect(err).toBe('');
    const result = conforms(validateJsonSchema(), out) as { valid: boolean; declared?: unknown; diagnostics: { code: string; file: string; line: number; column: number }[] };
    expect(result.valid).toBe(false);
    expect(result.declared).toBeUndefined();
    expect(result.diagnostics).toContainEqual(expect.objectContaining({ code: 'UNKNOWN_REFERENCE', file: 'groups.yaml', line: 3, column: 15 }));
  });

  it('plan --json and show --json are --format json, and refuse another --format beside them', async () => {
    const tree = copyOfDemoConfigs();
    const json = await monsync(['plan', '--config', 'configs', '--json', '--out', 'plan.json'], { env: suite.env, cwd: tree });
    const format = await monsync(['plan', '--config', 'configs', '--format', 'json'], { env: suite.env, cwd: tree });
    conforms(planJsonSchema(), json.out);
    // Two plans of the same tree and account: the same change (the on-call preview starts from each one's own clock).
    const change = (text: string) => {
      const plan = JSON.parse(text) as { planDigest: string; steps: unknown[]; summary: unknown };
      return [plan.planDigest, plan.steps, plan.summary];
    };
    expect(change(json.out)).toEqual(change(format.out));
    expect((await monsync(['show', 'plan.json', '--json'], { cwd: tree })).out).toBe(json.out);
    const both = await monsync(['plan', '--config', 'configs', '--json', '--format', 'markdown'], { env: suite.env, cwd: tree });
    expect(both.code).toBe(ExitCode.Error);
    expect(both.err).toContain('--json is --format json; it cannot go with --format markdown');
  });

  it('apply --json reports the outcome and every step as apply.schema.json says, with the plan and progress on stderr', async () => {
    const { code, out, err } = await monsync(['apply', '--config', 'configs', '--auto-approve', '--verify', '--json'], { env: suite.env });
    expect(code, err).toBe(ExitCode.Ok);
    const result = conforms(applyJsonSchema(), out) as { outcome: string; exitCode: number; planDigest: string; remaining: number; report: { ok: boolean; total: number; done: { id: string }[] } };
    expect(result).toMatchObject({ outcome: 'applied', exitCode: 0, remaining: 0 });
    expect(result.report.ok).toBe(true);
    expect(result.report.done).toHaveLength(result.report.total);
    expect(result.report.done.map((step) => step.id)).toContain('monitor:Status page');
    expect(err).toContain('+ create monitor "Status page"');
    expect(err).toContain('Apply complete');
    expectNoSecrets(out + err);

    const again = await monsync(['apply', '--config', 'configs', '--auto-approve', '--json', '--target', 'monitor:*'], { env: suite.env });
    expect(again.code).toBe(ExitCode.Ok);
    expect(conforms(applyJsonSchema(), again.out)).toMatchObject({ outcome: 'no-changes', exitCode: 0 });
  });

  it('apply --json says a plan was refused, exit 3, when it is over the safety thresholds', async () => {
    const tree = copyOfDemoConfigs();
    const settings = join(tree, 'configs', 'monsync.yaml');
    writeFileSync(settings, readFileSync(settings, 'utf8').replace(/maxDeletePercent: *\d+/, 'maxDeletePercent: 0').replace(/minDeleteCount: *\d+/, 'minDeleteCount: 1'));
    const { code, out } = await monsync(['apply', '--config', 'configs', '--auto-approve', '--json'], { env: suite.env, cwd: tree });
    expect(code).toBe(ExitCode.UnsafeOrStale);
    const result = conforms(applyJsonSchema(), out) as { outcome: string; report?: unknown; summary: { delete: number } };
    expect(result.outcome).toBe('refused');
    expect(result.report).toBeUndefined();
    expect(result.summary.delete).toBeGreaterThan(0);
    expect(suite.emulator.control.requestLog().entries.filter((e) => e.method !== 'GET')).toEqual([]);
  });

  it('pull --json lists the files written and the secret placeholders, as pull.schema.json says, the text for people on stderr', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'monsync-json-pull-')), 'tree');
    const { code, out, err } = await monsync(['pull', '--out', dir, '--json'], { env: suite.env });
    expect(code).toBe(ExitCode.Ok);
    expect(err).toContain('Wrote 10 files to');
    const result = conforms(pullJsonSchema(), out) as { command: string; files: { path: string; created: boolean }[]; secrets: { env: string }[] };
    expect(result.command).toBe('pull');
    expect(result.files).toHaveLength(10);
    for (const file of result.files) expect(existsSync(join(dir, file.path)), file.path).toBe(true);
    expect(result.secrets.map((secret) => secret.env)).toContain('MONSYNC_SECRET_WEB_SHOP_LOGIN_PASSWORD');
    expectNoSecrets(out + err);
  });

  it('import --json names the edits and the file written, as pull.schema.json says', async () => {
    const root = tempTree({ 'monsync.yaml': 'apiVersion: monsync/v1\nmanage:\n  monitors: { prune: false }\n' });
    const { code, out } = await monsync(['import', 'monitor', 'Blog', '--json'], { env: suite.env, cwd: root });
    expect(code).toBe(ExitCode.Ok);
    const result = conforms(pullJsonSchema(), out);
    expect(result).toMatchObject({ command: 'import', config: '.', files: [{ path: 'new-objects.yaml', created: true }], edits: ['+ monitor "Blog" (new-objects.yaml)'], remaining: [] });
  });

  it('migrate --json says what --check would change and what a rewrite changed, as migrate.schema.json says', async () => {
    const root = mkdtempSync(join(tmpdir(), 'monsync-migrate-json-'));
    cpSync(join(REPO_ROOT, 'examples', 'legacy'), root, { recursive: true });
    const checked = await monsync(['migrate', '--check', '--json', '--config', '.'], { cwd: root });
    expect(checked.code).toBe(ExitCode.Error);
    const would = conforms(commandJsonSchemas().migrate, checked.out) as { mode: string; ok: boolean; filesChanged: string[]; changes: { removed: string[] }[] };
    expect(would).toMatchObject({ formatVersion: 1, mode: 'check', ok: false });
    expect(would.filesChanged.length).toBeGreaterThan(0);
    expect(would.changes.flatMap((c) => c.removed)).toContain('LoadTimeLimit1');
    const rewritten = await monsync(['migrate', '--json', '--config', '.'], { cwd: root });
    expect(rewritten.code).toBe(ExitCode.Ok);
    expect(conforms(commandJsonSchemas().migrate, rewritten.out)).toMatchObject({ mode: 'rewrite', ok: true, filesChanged: would.filesChanged });
    const again = await monsync(['migrate', '--check', '--json', '--config', '.'], { cwd: root });
    expect(again.code).toBe(ExitCode.Ok);
    expect(conforms(commandJsonSchemas().migrate, again.out)).toMatchObject({ mode: 'check', ok: true, filesChanged: [], changes: [], renames: [] });
  });

  it('unlock --json says whether a lock was held and which one it broke, as unlock.schema.json says, the words on stderr', async () => {
    const none = await monsync(['unlock', '--json'], { env: suite.env });
    expect(none.code).toBe(ExitCode.Ok);
    expect(conforms(commandJsonSchemas().unlock, none.out)).toEqual({ formatVersion: 1, outcome: 'none-held' });
    expect(none.err).toContain('No apply lock is held');
    const client = clientFromEnv(suite.env);
    try {
      const expires = new Date(Date.now() + 10 * 60_000).toISOString().slice(0, 19);
      await client.slas.create({ Description: `monsync apply lock (do not edit) id=other since=2026-01-01T00:00:00Z expires=${expires}Z host=laptop user=sam`, ...LOCK_SLA_THRESHOLDS });
    } finally {
      await client.close();
    }
    const refused = await monsync(['unlock', '--json'], { env: suite.env });
    expect(refused.code).toBe(ExitCode.Error);
    expect(conforms(commandJsonSchemas().unlock, refused.out)).toMatchObject({ outcome: 'refused', lock: { holder: expect.stringMatching(/^sam@laptop since 2026-01-01T00:00:00Z \(lease until /), leaseRunning: true } });
    const broken = await monsync(['unlock', '--force', '--json'], { env: suite.env });
    expect(broken.code).toBe(ExitCode.Ok);
    expect(conforms(commandJsonSchemas().unlock, broken.out)).toMatchObject({ outcome: 'broken', lock: { holder: expect.stringMatching(/^sam@laptop since 2026-01-01T00:00:00Z \(lease until /), leaseRunning: true } });
  });

  it('init --json lists the files it wrote and the kinds managed, as init.schema.json says, the next steps on stderr', async () => {
    const root = tempTree({});
    const { code, out, err } = await monsync(['init', '--kinds', 'monitors,vault', '--json'], { cwd: root });
    expect(code, err).toBe(ExitCode.Ok);
    const result = conforms(commandJsonSchemas().init, out) as { files: string[] };
    expect(result).toMatchObject({ formatVersion: 1, config: 'configs', fromLive: false, kinds: ['monitors', 'vault'] });
    expect(result.files).toContain('configs/monsync.yaml');
    expect(err).toContain('Next:');
  });
});
