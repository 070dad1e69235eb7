/**
 * End to end against the emulator's demo account: a demo tree whose error conditions leave `Effect` out plans
 * only the changes it shows, and applying it keeps the live `Effect` (the emulator, like the service, replaces a
 * monitor's whole ErrorConditions list on update).
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { profileFromEnv, startEmulator, type RunningEmulator } from '@monsync/emulator';
import { loadConfig } from '@monsync/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan, liveScope, openSession, readLive, renderJson, type ApiObject, type Plan, type PlanSession } from '../src/index.js';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const CANARIES = {
  DEMO_SHOP_PASSWORD: 'CANARY-7f3a9c-effect-shop-password',
  DEMO_SHOP_OTP_SECRET: 'CANARYSEVENFAEFFECTQZ',
  DEMO_CLIENT_CERT_PFX_BASE64: Buffer.from('CANARY-7f3a9c-effect-pfx-bytes').toString('base64'),
  DEMO_CLIENT_CERT_PASSWORD: 'CANARY-7f3a9c-effect-pfx-password',
};

let emulator: RunningEmulator;
let tree: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, profile: profileFromEnv(), seed: 'demo' });
  // The demo tree, with `Effect: Error` left out of the LoadTimeLimit1 entries of both shop monitors.
  const root = mkdtempSync(join(tmpdir(), 'monsync-effect-'));
  cpSync(join(REPO_ROOT, 'configs'), join(root, 'configs'), { recursive: true });
  tree = join(root, 'configs');
  const shop = join(tree, 'monitors', 'shop.yaml');
  const text = readFileSync(shop, 'utf8');
  const edited = text
    .replace('{ ErrorConditionType: LoadTimeLimit1, Value: "3000", Effect: Error }', '{ ErrorConditionType: LoadTimeLimit1, Value: "3000" }')
    .replace('{ ErrorConditionType: LoadTimeLimit1, Value: "10000", Effect: Error }', '{ ErrorConditionType: LoadTimeLimit1, Value: "10000" }');
  expect(edited.match(/LoadTimeLimit1, Value: "(3000|10000)" \}/g)).toHaveLength(2);
  writeFileSync(shop, edited);
});

afterAll(async () => {
  await emulator.close();
});

async function session(): Promise<PlanSession> {
  const { desired, diagnostics } = await loadConfig(tree, { env: CANARIES, resolveSecrets: true });
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return openSession(desired, { client: { baseUrl: emulator.url, username: 'demo', password: 'demo-password' }, operator: 'admin@example.com' });
}

async function planOnce(): Promise<{ plan: Plan; s: PlanSession }> {
  const s = await session();
  const live = await readLive(s.client, liveScope(s.desired));
  return { plan: s.plan(live), s };
}

function conditionsOf(name: string): ApiObject[] {
  const monitor = emulator.control.dump().monitors.find((m) => m.fields.Name === name);
  if (monitor === undefined) throw new Error(`no live monitor ${name}`);
  return monitor.fields.ErrorConditions as ApiObject[];
}

describe('apply against the emulator keeps what an error condition leaves out', () => {
  it('plans only the Value change and the added variable, applies them, keeps Effect: Error, and plans nothing more', async () => {
    expect(conditionsOf('Shop homepage')).toContainEqual({ ErrorConditionType: 'LoadTimeLimit1', Value: '4000', Effect: 'Error' });
    const { plan, s } = await planOnce();
    try {
      const homepage = plan.steps.find((step) => step.id === 'monitor:Shop homepage');
      expect(homepage?.changes).toEqual([{ op: 'replace', path: '/ErrorConditions/LoadTimeLimit1/Value', before: '4000', after: '3000' }]);
      const checkout = plan.steps.find((step) => step.id === 'monitor:Shop checkout');
      expect(checkout?.changes.map((c) => `${c.op} ${c.path}`)).toEqual(['add /PredefinedVariables/otp']);
      expect(renderJson(plan)).not.toMatch(new RegExp(Object.values(CANARIES).join('|')));

      const report = await applyPlan(plan, s.client, { secrets: { desired: s.desired, key: s.key } });
      expect(report.failed).toEqual([]);
      expect(report.ok).toBe(true);
    } finally {
      await s.close();
    }

    expect(conditionsOf('Shop homepage')).toEqual([
      { ErrorConditionType: 'LoadTimeLimit1', Value: '3000', Effect: 'Error' },
      { ErrorConditionType: 'HttpStatus', Value: '200' },
    ]);
    expect(conditionsOf('Shop checkout')).toEqual([{ ErrorConditionType: 'LoadTimeLimit1', Value: '10000', Effect: 'Error' }]);

    const again = await planOnce();
    try {
      expect(again.plan.steps.filter((step) => step.action !== 'ensure').map((step) => step.id)).toEqual([]);
    } finally {
      await again.s.close();
    }
  });
});
