import type { Plan } from '@monsync/reconciler';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { listedRows, monsync, useEmulator } from './helpers.js';

const SECRETS = {
  DEMO_SHOP_PASSWORD: 'CANARY-digest-shop-password',
  DEMO_SHOP_OTP_SECRET: 'CANARYDIGESTOTPSECRET',
  DEMO_CLIENT_CERT_PFX_BASE64: Buffer.from('CANARY-digest-pfx-bytes').toString('base64'),
  DEMO_CLIENT_CERT_PASSWORD: 'CANARY-digest-pfx-password',
};

const suite = useEmulator({
  seed: 'demo',
  start: { retryAfterSeconds: 0 },
  operator: 'admin@example.com',
  env: SECRETS,
  eachTest: { reset: true, stageFingerprints: true, clearLog: true },
});

const writes = () => suite.emulator.control.requestLog().entries.filter((e) => e.method !== 'GET');

async function planJson(): Promise<Plan> {
  const { code, out } = await monsync(['plan', '--config', 'configs', '--format', 'json'], { env: suite.env });
  expect(code).toBe(ExitCode.Ok);
  return JSON.parse(out) as Plan;
}

describe('monsync apply --expect-digest', () => {
  it('plan --format json carries a digest per step and one for the whole plan', async () => {
    const plan = await planJson();
    expect(plan.planDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(plan.steps.length).toBeGreaterThan(0);
    for (const step of plan.steps) expect(step.digest).toMatch(/^[0-9a-f]{64}$/);
    // Planned twice, the same account gives the same digests.
    expect((await planJson()).planDigest).toBe(plan.planDigest);
  });

  it('prints the digest on the last line of the text plan, in the form --expect-digest takes', async () => {
    const { planDigest } = await planJson();
    const text = await monsync(['plan', '--config', 'configs'], { env: suite.env });
    expect(text.code).toBe(ExitCode.Ok);
    const last = text.out.trimEnd().split('\n').at(-1) ?? '';
    expect(last).toBe(`Plan digest: ${planDigest ?? ''} (pass it to monsync apply --expect-digest to apply this plan and no other)`);
    const printed = /^Plan digest: ([0-9a-f]{64}) /.exec(last)?.[1] ?? '';
    const applied = await monsync(['apply', '--config', 'configs', '--auto-approve', '--expect-digest', printed], { env: suite.env });
    expect(applied.err).not.toContain('apply refused');
    expect(applied.code).toBe(ExitCode.Ok);
  });

  it('applies when the plan made now has the reviewed digest', async () => {
    const { planDigest } = await planJson();
    const applied = await monsync(['apply', '--config', 'configs', '--auto-approve', '--expect-digest', planDigest ?? ''], { env: suite.env });
    expect(applied.err).not.toContain('apply refused');
    expect(applied.code).toBe(ExitCode.Ok);
    expect(writes().length).toBeGreaterThan(0);
  });

  it('refuses with exit 3 and writes nothing when the account changed since the review', async () => {
    const { planDigest } = await planJson();
    // Someone edits a managed monitor in the web app after the plan was reviewed.
    const monitors = await suite.emulator.control.actAs('admin@example.com', { method: 'GET', path: '/Monitor' });
    const shop = listedRows<{ MonitorGuid: string; Name: string }>(monitors.body).find((m) => m.Name === 'Shop homepage');
    expect(shop).toBeDefined();
    const edited = await suite.emulator.control.actAs('admin@example.com', { method: 'PATCH', path: `/Monitor/${shop?.MonitorGuid ?? ''}`, body: { CheckInterval: 15 } });
    expect(edited.status).toBeLessThan(300);
    suite.emulator.control.clearLog();
    const refused = await monsync(['apply', '--config', 'configs', '--auto-approve', '--expect-digest', planDigest ?? ''], { env: suite.env });
    expect(refused.code).toBe(ExitCode.UnsafeOrStale);
    expect(refused.err).toContain(`is not the reviewed one (--expect-digest ${planDigest ?? ''}); nothing was changed.`);
    expect(writes()).toEqual([]);
  });

  it('says how to pass a digest when the value is not one', async () => {
    const bad = await monsync(['apply', '--config', 'configs', '--auto-approve', '--expect-digest', 'abc'], { env: suite.env });
    expect(bad.code).toBe(ExitCode.Error);
    expect(bad.err).toContain('--expect-digest "abc" is not a plan digest: pass the 64 hex digits of planDigest from monsync plan (its last line, or --format json)');
    expect(writes()).toEqual([]);
  });
});
