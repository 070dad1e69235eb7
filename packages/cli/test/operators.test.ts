import type { Plan } from '@monsync/reconciler';
import { describe, expect, it } from 'vitest';
import { copyOfDemoConfigs, monsync, useEmulator } from './helpers.js';

const SECRETS = {
  DEMO_SHOP_PASSWORD: 'CANARY-operators-shop-password',
  DEMO_SHOP_OTP_SECRET: 'CANARYOTPSECRETA',
  DEMO_CLIENT_CERT_PFX_BASE64: Buffer.from('CANARY-operators-pfx').toString('base64'),
  DEMO_CLIENT_CERT_PASSWORD: 'CANARY-operators-pfx-password',
};

const suite = useEmulator({ seed: 'demo', env: SECRETS });

async function planWith(operators: string): Promise<{ plan: Plan; err: string }> {
  const env = { ...suite.env, MONSYNC_OPERATOR: operators };
  const { out, err } = await monsync(['plan', '--config', 'configs', '--format', 'json'], { env, cwd: copyOfDemoConfigs() });
  return { plan: JSON.parse(out) as Plan, err };
}

describe('MONSYNC_OPERATOR as a list (the plan and the apply API accounts)', () => {
  it('reports no drift for a change made by any operator listed, an e-mail in any case', async () => {
    const before = await planWith('admin@example.com');
    expect(before.plan.steps.find((step) => step.id === 'monitor:Blog')?.drift).toMatchObject({ operatorName: 'Sam Ops' });
    const { plan, err } = await planWith('admin@example.com, SAM.OPS@example.com');
    expect(plan.steps.find((step) => step.id === 'monitor:Blog')?.drift).toBeUndefined();
    expect(err).not.toContain('warning: MONSYNC_OPERATOR');
  });

  it('warns about a value that matches no operator, naming it, and still attributes that drift', async () => {
    const { plan, err } = await planWith('admin@example.com,sam.ops@exmaple.com');
    expect(err).toContain('warning: MONSYNC_OPERATOR: "sam.ops@exmaple.com" matches no operator of the account');
    expect(plan.steps.find((step) => step.id === 'monitor:Blog')?.drift).toMatchObject({ operatorName: 'Sam Ops' });
  });
});
