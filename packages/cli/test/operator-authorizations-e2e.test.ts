/**
 * An operator's own authorizations through the `monsync` command against the emulator (every profile): plan and
 * apply add and remove types one by one and converge; the API account's own `AccountAccess` is never removed, with
 * the reason in the plan, whether monsync knows its own operator or not; `pull` writes the lists and plans empty.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plan } from '@monsync/reconciler';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { monsync, tempTree, useEmulator } from './helpers.js';

const suite = useEmulator({ seed: 'demo', start: { retryAfterSeconds: 0 }, env: { SAM_PASSWORD: 'CANARY-7f3a9c-op-auth' }, eachTest: { reset: true, clearLog: true } });

const settings = (apiOperator: boolean) =>
  ['apiVersion: monsync/v1', ...(apiOperator ? ['apiOperator: admin@example.com'] : []), 'manage:', '  operators: { prune: false }', ''].join('\n');

const PEOPLE = [
  'operators:',
  '  - Email: admin@example.com',
  '    authorizations: [AllowInfra]          # AccountAccess left out: monsync keeps its own',
  '  - Email: viewer@example.com',
  '    authorizations: [FinancialOperator]   # AccountAccess left out: taken away',
  '  - Email: sam.ops@example.com            # no list: left as it is',
  '',
].join('\n');

/** A GET as the web app would make it, asked again while the rate-limited profile refuses it. */
async function get(path: string): Promise<unknown> {
  for (;;) {
    const credentials = `${suite.env['MONSYNC_API_USERNAME'] ?? ''}:${suite.env['MONSYNC_API_PASSWORD'] ?? ''}`;
    const res = await fetch(`${suite.emulator.url}${path}`, { headers: { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` } });
    if (res.status !== 429) return (await res.json()) as unknown;
  }
}

/** The types the operator holds, as the service lists them. */
async function typesOf(email: string): Promise<string[]> {
  const body = await get('/Operator');
  const operators = (Array.isArray(body) ? body : (body as { Data: unknown[] }).Data) as { OperatorGuid: string; Email: string }[];
  const guid = operators.find((o) => o.Email === email)?.OperatorGuid ?? '';
  return ((await get(`/Operator/${guid}/Authorization`)) as string[]).sort();
}

async function planJson(root: string, env: Record<string, string> = suite.env): Promise<Plan> {
  const { out, code } = await monsync(['plan', '--format', 'json'], { env, cwd: root });
  expect([0, 2]).toContain(code);
  return JSON.parse(out) as Plan;
}

const steps = (plan: Plan) => plan.steps.map((step) => `${step.action} ${step.id}`);
const kept = (plan: Plan) => plan.warnings.filter((w) => w.code === 'ACCESS_KEPT').map((w) => w.key);

describe("monsync and an operator's own authorizations", () => {
  it("applies a declared list one type at a time, keeps the API account's own AccountAccess saying why, and converges", async () => {
    const root = tempTree({ 'monsync.yaml': settings(true), 'people.yaml': PEOPLE });
    const plan = await planJson(root);
    expect(steps(plan)).toEqual([
      'create operatorAuthorization:admin@example.com/AllowInfra',
      'create operatorAuthorization:viewer@example.com/FinancialOperator',
      'delete operatorAuthorization:viewer@example.com/AccountAccess',
    ]);
    expect(kept(plan)).toEqual(['admin@example.com/AccountAccess']);

    const applied = await monsync(['apply', '--auto-approve'], { env: suite.env, cwd: root });
    expect(applied.code).toBe(ExitCode.Ok);
    expect(applied.out + applied.err).toContain("it is the API account's own operator, which needs `AccountAccess`");
    expect(await typesOf('admin@example.com')).toEqual(['AccountAccess', 'AccountAdministrator', 'AllowInfra']);
    expect(await typesOf('viewer@example.com')).toEqual(['FinancialOperator']);
    expect(await typesOf('sam.ops@example.com')).toEqual(['AccountAccess', 'AccountAdministrator']);

    const again = await planJson(root);
    expect(steps(again)).toEqual([]);
    expect(kept(again)).toEqual(['admin@example.com/AccountAccess']);
  });

  it("keeps every operator's AccountAccess while it cannot tell which operator is its own, and only its own once the first apply recorded it", async () => {
    const root = tempTree({ 'monsync.yaml': settings(false), 'people.yaml': 'operators:\n  - Email: admin@example.com\n    authorizations: []\n  - Email: viewer@example.com\n    authorizations: []\n' });
    const env = { ...suite.env };
    delete env['MONSYNC_OPERATOR'];
    const plan = await planJson(root, env);
    expect(steps(plan)).toEqual([]);
    expect(kept(plan)).toEqual(['admin@example.com/AccountAccess', 'viewer@example.com/AccountAccess']);
    expect(plan.warnings.find((w) => w.code === 'ACCESS_KEPT')?.message).toContain('monsync cannot tell which operator the API account acts for');
    const first = await monsync(['apply', '--auto-approve'], { env, cwd: root });
    expect(first.code).toBe(ExitCode.Ok);
    expect(await typesOf('admin@example.com')).toEqual(['AccountAccess', 'AccountAdministrator']);
    expect(await typesOf('viewer@example.com')).toEqual(['AccountAccess']);
    // The apply recorded the API account's operator (live/self.ts): from now on only its own AccountAccess stays.
    const known = await planJson(root, env);
    expect(steps(known)).toEqual(['delete operatorAuthorization:viewer@example.com/AccountAccess']);
    expect(kept(known)).toEqual(['admin@example.com/AccountAccess']);
    expect((await monsync(['apply', '--auto-approve'], { env, cwd: root })).code).toBe(ExitCode.Ok);
    expect(await typesOf('admin@example.com')).toEqual(['AccountAccess', 'AccountAdministrator']);
    expect(await typesOf('viewer@example.com')).toEqual([]);
    expect(steps(await planJson(root, env))).toEqual([]);
  });

  it('creates an operator with its list in one apply, and pull writes the lists back so that the pulled tree plans empty', async () => {
    const people = `${PEOPLE}  - Email: nina@example.com\n    Password: { fromEnv: SAM_PASSWORD }\n    authorizations: [TechnicalContact]\n`;
    const root = tempTree({ 'monsync.yaml': settings(true), 'people.yaml': people });
    const applied = await monsync(['apply', '--auto-approve'], { env: suite.env, cwd: root });
    expect(applied.code).toBe(ExitCode.Ok);
    expect(await typesOf('nina@example.com')).toEqual(['TechnicalContact']);
    expect(steps(await planJson(root))).toEqual([]);

    const pulled = await monsync(['pull', '--out', 'tree'], { env: suite.env, cwd: root });
    expect(pulled.code).toBe(ExitCode.Ok);
    const operators = readFileSync(join(root, 'tree', 'operators.yaml'), 'utf8');
    expect(operators).toContain('  - Email: admin@example.com\n');
    expect(operators).toMatch(/- Email: admin@example\.com\n(?: {4}.*\n)*? {4}authorizations: \[AccountAccess, AllowInfra\]\n/);
    expect(operators).toMatch(/- Email: nina@example\.com\n(?: {4}.*\n)*? {4}authorizations: \[TechnicalContact\]\n/);
    expect(operators).toMatch(/- Email: viewer@example\.com\n(?: {4}.*\n)*? {4}authorizations: \[FinancialOperator\]\n/);
    // sam holds just the default: no list, so the pulled tree leaves sam's authorizations alone.
    expect(operators).not.toMatch(/- Email: sam\.ops@example\.com\n(?: {4}.*\n)*? {4}authorizations:/);
    expect(operators).not.toContain('AccountAdministrator');
  });
});
