/**
 * A tree written the way the demo wrote it before monsync spoke the service's published names
 * (test/fixtures/demo-2026-spec-spelling: `CheckFrequency`, `OperatorResponseTimeThreshold`) against an emulator
 * as strict as the published definition: migrated, it converges and round-trips through pull; not migrated, it
 * never does.
 */
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Plan } from '@monsync/reconciler';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { monsync, REPO_ROOT, useEmulator } from './helpers.js';

const SECRETS = {
  DEMO_SHOP_PASSWORD: 'CANARY-7f3a9c-published-shop',
  DEMO_SHOP_OTP_SECRET: 'CANARYOTPSECRETA',
  DEMO_CLIENT_CERT_PFX_BASE64: Buffer.from('CANARY-7f3a9c-published-pfx').toString('base64'),
  DEMO_CLIENT_CERT_PASSWORD: 'CANARY-7f3a9c-published-pfx-password',
};

const suite = useEmulator({ seed: 'demo', profile: 'published', operator: 'admin@example.com', env: SECRETS, eachTest: { reset: true } });

/** A copy of the fixture tree, as `<root>/tree`. */
function fixtureCopy(): string {
  const root = mkdtempSync(join(tmpdir(), 'monsync-published-'));
  cpSync(join(REPO_ROOT, 'packages', 'cli', 'test', 'fixtures', 'demo-2026-spec-spelling'), join(root, 'tree'), { recursive: true });
  return root;
}

async function planOf(root: string, config: string, extraEnv: Record<string, string> = {}): Promise<Plan> {
  const planned = await monsync(['plan', '--config', config, '--format', 'json'], { env: { ...suite.env, ...extraEnv }, cwd: root });
  expect(planned.err).not.toMatch(/error/);
  return JSON.parse(planned.out) as Plan;
}

/** Steps that change something (`ensure` steps, which change nothing, left out). */
const changing = (plan: Plan) => plan.steps.filter((step) => step.action !== 'ensure');

describe('the demo tree of before the published names, against the published profile', () => {
  it('migrates, validates, applies, then plans empty, and pull gives a tree that plans empty too', async () => {
    const root = fixtureCopy();
    const before = await monsync(['validate', '--config', 'tree'], { env: suite.env, cwd: root });
    expect(before.err).toContain('RENAMED_FIELD');

    const migrated = await monsync(['migrate', '--config', 'tree'], { env: suite.env, cwd: root });
    expect(migrated.code).toBe(ExitCode.Ok);
    expect(migrated.out).toContain('renamed CheckFrequency -> CheckInterval');
    expect(migrated.out).toContain('renamed OperatorResponseTimeThreshold -> OperatorReponseTimeThreshold');
    expect(readFileSync(join(root, 'tree', 'slas.yaml'), 'utf8')).toContain('OperatorReponseTimeThreshold: 15');

    const validated = await monsync(['validate', '--config', 'tree'], { env: suite.env, cwd: root });
    expect(validated.code).toBe(ExitCode.Ok);
    expect(validated.err).not.toContain('RENAMED_');

    const applied = await monsync(['apply', '--config', 'tree', '--auto-approve', '--allow-unsafe'], { env: suite.env, cwd: root });
    expect(applied.err).not.toMatch(/failed/);
    expect(applied.code).toBe(ExitCode.Ok);

    // The service added LoadTimeLimit1/2 to every monitor; the tree declares them on some, not on others.
    const again = await planOf(root, 'tree');
    expect(changing(again)).toEqual([]);
    const live = suite.emulator.control.dump();
    const homepage = live.monitors.find((m) => m.fields['Name'] === 'Shop homepage')?.fields;
    expect(homepage?.['ErrorConditions']).toEqual(expect.arrayContaining([expect.objectContaining({ ErrorConditionType: 'LoadTimeLimit1', Value: '3000' })]));
    expect(homepage?.['ErrorConditions']).toEqual(expect.arrayContaining([expect.objectContaining({ ErrorConditionType: 'LoadTimeLimit2' })]));
    const gold = live.slas.find((s) => s.fields['Description'] === 'Gold')?.fields;
    expect(gold?.['OperatorReponseTimeThreshold']).toBe(15);

    const pulled = await monsync(['pull', '--out', 'pulled'], { env: suite.env, cwd: root });
    expect(pulled.code).toBe(ExitCode.Ok);
    const pulledSecrets = Object.fromEntries(
      [...pulled.out.matchAll(/^ {2}(MONSYNC_SECRET_[A-Z0-9_]+) /gm)].map((m) => m[1] ?? '').map((name) => [name, secretFor(name)]),
    );
    const monitors = readFileSync(join(root, 'pulled', 'monitors.yaml'), 'utf8');
    expect(monitors).toContain('CheckInterval:');
    expect(monitors).not.toContain('CheckFrequency');
    const pulledValidate = await monsync(['validate', '--config', 'pulled'], { env: { ...suite.env, ...pulledSecrets }, cwd: root });
    expect(pulledValidate.code, pulledValidate.err).toBe(ExitCode.Ok);
    expect(changing(await planOf(root, 'pulled', pulledSecrets))).toEqual([]);
  });

  it('not migrated, never converges: the service drops CheckFrequency and the misspelled SLA field', async () => {
    const root = fixtureCopy();
    await monsync(['apply', '--config', 'tree', '--auto-approve', '--allow-unsafe'], { env: suite.env, cwd: root });
    const second = changing(await planOf(root, 'tree'));
    const paths = second.flatMap((step) => step.changes.map((change) => `${step.id} ${change.op} ${change.path}`));
    expect(paths).toContain('monitor:Shop homepage add /CheckFrequency');
    expect(paths).toContain('sla:Gold add /OperatorResponseTimeThreshold');
  });
});

/** The secret values of the demo tree under the names pull gives them, so their fingerprints match. */
function secretFor(name: string): string {
  if (name.endsWith('CLIENT_CERT_ARCHIVE_PASSWORD')) return SECRETS.DEMO_CLIENT_CERT_PASSWORD;
  if (name.endsWith('CLIENT_CERT_ARCHIVE')) return SECRETS.DEMO_CLIENT_CERT_PFX_BASE64;
  if (name.endsWith('SHOP_LOGIN_PASSWORD')) return SECRETS.DEMO_SHOP_PASSWORD;
  if (name.endsWith('SHOP_OTP_VALUE')) return SECRETS.DEMO_SHOP_OTP_SECRET;
  return `value-of-${name}`;
}
