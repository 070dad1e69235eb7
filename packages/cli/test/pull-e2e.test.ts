import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_READ_ATTEMPTS } from '@monsync/client';
import type { Plan } from '@monsync/reconciler';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { copyOfDemoConfigs, expectReadFailureLast, monsync, stageFingerprints, tempTree, useEmulator } from './helpers.js';

const CANARIES = {
  DEMO_SHOP_PASSWORD: 'CANARY-7f3a9c-pull-shop',
  DEMO_SHOP_OTP_SECRET: 'CANARY7F3A9CPULLOTP',
  DEMO_CLIENT_CERT_PFX_BASE64: Buffer.from('CANARY-7f3a9c-pull-pfx').toString('base64'),
  DEMO_CLIENT_CERT_PASSWORD: 'CANARY-7f3a9c-pull-pfx-password',
};

const suite = useEmulator({ seed: 'demo', operator: 'admin@example.com', env: CANARIES, eachTest: { reset: true, clearLog: true } });

/** The password placeholders of the demo account's operators. */
const OPERATOR_PASSWORDS = ['MONSYNC_SECRET_ADMIN_EXAMPLE_COM_PASSWORD', 'MONSYNC_SECRET_SAM_OPS_EXAMPLE_COM_PASSWORD', 'MONSYNC_SECRET_VIEWER_EXAMPLE_COM_PASSWORD'];

/** The `{ fromEnv }` placeholders pull lists at the end of its output. */
function placeholders(out: string): string[] {
  return [...out.matchAll(/^ {2}(MONSYNC_SECRET_[A-Z0-9_]+) /gm)].map((match) => match[1] ?? '');
}

describe('monsync pull', () => {
  it('writes one file per kind that validates and plans no change apart from secrets without fingerprints', async () => {
    const root = tempTree({});
    const pulled = await monsync(['pull', '--out', 'tree'], { env: suite.env, cwd: root });
    expect(pulled.code).toBe(ExitCode.Ok);
    expect(pulled.out).toMatch(
      /^Wrote 10 files to tree: monsync\.yaml, monitors\.yaml, monitor-groups\.yaml, vault\.yaml, slas\.yaml, operators\.yaml, operator-groups\.yaml, scheduled-reports\.yaml, alert-definitions\.yaml, rum-websites\.yaml\n/,
    );
    expect(suite.emulator.control.requestLog().entries.every((entry) => entry.method === 'GET')).toBe(true);
    const secrets = placeholders(pulled.out);
    expect(secrets).toEqual([
      ...OPERATOR_PASSWORDS,
      'MONSYNC_SECRET_WEB_CLIENT_CERT_ARCHIVE',
      'MONSYNC_SECRET_WEB_CLIENT_CERT_ARCHIVE_PASSWORD',
      'MONSYNC_SECRET_WEB_SHOP_LOGIN_PASSWORD',
    ]);
    // Operators and groups by key, members by Email, passwords as placeholders (set only on create and with --rotate).
    const operators = readFileSync(join(root, 'tree', 'operators.yaml'), 'utf8');
    expect(operators).toContain('  - Email: sam.ops@example.com\n');
    expect(operators).toContain('Password: { fromEnv: MONSYNC_SECRET_SAM_OPS_EXAMPLE_COM_PASSWORD }');
    expect(readFileSync(join(root, 'tree', 'operator-groups.yaml'), 'utf8')).toContain('  - Description: Administrators\n    members: [admin@example.com, sam.ops@example.com]\n');

    const reports = readFileSync(join(root, 'tree', 'scheduled-reports.yaml'), 'utf8');
    expect(reports).toContain('  - key: weekly-exec\n');
    expect(reports).toContain('  - key: monthly-ops\n');
    expect(readFileSync(join(root, 'tree', 'monitors.yaml'), 'utf8')).toContain('Value: { vault: Web/shop-login }');

    const withSecrets = { ...suite.env, ...Object.fromEntries(secrets.map((name) => [name, `CANARY-7f3a9c-${name}`])) };
    const validate = await monsync(['validate', '--config', 'tree'], { env: withSecrets, cwd: root });
    expect(validate.err).toBe('');
    expect(validate.code).toBe(ExitCode.Ok);

    const planned = await monsync(['plan', '--config', 'tree', '--format', 'json'], { env: withSecrets, cwd: root });
    const plan = JSON.parse(planned.out) as Plan;
    expect(plan.steps.map((step) => `${step.action} ${step.id}: ${step.reason ?? ''}`)).toEqual([
      'update vaultItem:Web/client-cert: no fingerprint marker',
      'update vaultItem:Web/shop-login: no fingerprint marker',
    ]);
    expect(plan.steps.flatMap((step) => step.changes).every((change) => change.sensitive === true)).toBe(true);
    expect(plan.summary).toMatchObject({ create: 0, delete: 0, unmanaged: 0 });
  });

  it('round-trips to an empty plan once the secrets carry fingerprints (--detailed-exitcode 0)', async () => {
    await stageFingerprints(suite.emulator, suite.env);
    const root = tempTree({});
    const pulled = await monsync(['pull', '--out', 'tree'], { env: suite.env, cwd: root });
    // The same secret values under the pulled names: their fingerprints match the markers.
    const same: Record<string, string> = {
      // Operators' passwords are written once (on create): any value plans no change.
      ...Object.fromEntries(OPERATOR_PASSWORDS.map((name) => [name, `any-${name}`])),
      MONSYNC_SECRET_WEB_CLIENT_CERT_ARCHIVE: CANARIES.DEMO_CLIENT_CERT_PFX_BASE64,
      MONSYNC_SECRET_WEB_CLIENT_CERT_ARCHIVE_PASSWORD: CANARIES.DEMO_CLIENT_CERT_PASSWORD,
      MONSYNC_SECRET_WEB_SHOP_LOGIN_PASSWORD: CANARIES.DEMO_SHOP_PASSWORD,
    };
    expect(placeholders(pulled.out)).toEqual(Object.keys(same));
    expect(readFileSync(join(root, 'tree', 'vault.yaml'), 'utf8')).not.toContain('monsync:fp=');
    const planned = await monsync(['plan', '--config', 'tree', '--detailed-exitcode'], { env: { ...suite.env, ...same }, cwd: root });
    expect(planned.out).toContain('No changes.');
    expect(planned.code).toBe(ExitCode.Ok);
    for (const value of Object.values(CANARIES)) expect(pulled.out + pulled.err + planned.out + planned.err).not.toContain(value);
  });

  it('pins the GUID of a report without a key marker, names it report-<n>, and the pulled tree plans nothing for it', async () => {
    const weekly = suite.emulator.control.dump().scheduledReports.find((report) => String(report['InternalNotes']).includes('weekly-exec'));
    const guid = String(weekly?.['ScheduledReportGuid']);
    const result = await suite.emulator.control.actAs('admin@example.com', { method: 'PATCH', path: `/ScheduledReport/${guid}`, body: { InternalNotes: 'made in the web app' } });
    expect(result.status).toBeLessThan(300);
    const root = tempTree({});
    const pulled = await monsync(['pull', '--out', 'tree'], { env: suite.env, cwd: root });
    expect(pulled.code).toBe(ExitCode.Ok);
    const reports = readFileSync(join(root, 'tree', 'scheduled-reports.yaml'), 'utf8');
    expect(reports).toContain(`  - key: report-1\n    ScheduledReportGuid: ${guid}\n`);
    expect(reports).toContain('InternalNotes: made in the web app\n');
    // Planned back, the report made in the web app is matched by its pin and needs nothing.
    const planned = await monsync(['plan', '--config', 'tree', '--format', 'json'], { env: { ...suite.env, ...Object.fromEntries(placeholders(pulled.out).map((name) => [name, 'x'])) }, cwd: root });
    // Whatever else the plan holds (vault items without fingerprint markers are updated), the report needs nothing.
    expect(planned.code).not.toBe(ExitCode.Error);
    expect((JSON.parse(planned.out) as Plan).steps.filter((step) => step.kind === 'scheduledReport')).toEqual([]);
  });

  it('refuses a folder that is not empty, and needs --out', async () => {
    const root = copyOfDemoConfigs();
    const busy = await monsync(['pull', '--out', 'configs'], { env: suite.env, cwd: root });
    expect(busy.code).toBe(ExitCode.Error);
    expect(busy.err).toContain('configs is not empty; pull writes a fresh tree');
    expect(suite.emulator.control.requestLog().total).toBe(0);
    const missing = await monsync(['pull'], { env: suite.env, cwd: root });
    expect(missing.code).toBe(ExitCode.Error);
    expect(missing.err).toContain('pull needs --out DIR');
  });

  it('writes the editor modeline when the folder is inside a repository with schemas/', async () => {
    const root = tempTree({ 'schemas/config.schema.json': '{}\n' });
    mkdirSync(join(root, 'accounts'));
    writeFileSync(join(root, 'accounts', '.keep'), '');
    expect((await monsync(['pull', '--out', 'accounts/prod'], { env: suite.env, cwd: root })).code).toBe(ExitCode.Ok);
    expect(existsSync(join(root, 'accounts', 'prod', 'monsync.yaml'))).toBe(true);
    expect(readFileSync(join(root, 'accounts', 'prod', 'slas.yaml'), 'utf8').split('\n')[0]).toBe('# yaml-language-server: $schema=../../schemas/config.schema.json');
  });

  it('ends the read with "failed after N requests" when a listing fails every attempt with a 500, exit 1, writing nothing', async () => {
    suite.emulator.control.setFaults({ scripted: [{ method: 'GET', route: '/Monitor', count: DEFAULT_READ_ATTEMPTS, kind: '500' }] });
    const root = tempTree({});
    const { code, out, err } = await monsync(['pull', '--out', 'tree'], { env: suite.env, cwd: root });
    suite.emulator.control.setFaults({ scripted: [] });
    expect(code).toBe(ExitCode.Error);
    expect(out).toBe('');
    expect(expectReadFailureLast(err, 'pull')).toBe(suite.emulator.control.requestLog().total);
    expect(existsSync(join(root, 'tree'))).toBe(false);
  });
});
