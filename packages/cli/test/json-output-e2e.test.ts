import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyJsonSchema, planJsonSchema, pullJsonSchema, validateJsonSchema, type JsonSchemaDocument } from '@monsync/schema';
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
    expect(err).toContain('Wrote 9 files to');
    const result = conforms(pullJsonSchema(), out) as { command: string; files: { path: string; created: boolean }[]; secrets: { env: string }[] };
    expect(result.command).toBe('pull');
    expect(result.files).toHaveLength(9);
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
});
