/**
 * Who gets paged, end to end against the emulator's demo account (every profile: `MONSYNC_EMULATOR_PROFILE`): the plan
 * of configs/ shows the escalation path of each alert definition it changes in the plan JSON, the text plan and the
 * pull-request Markdown (a Mermaid diagram), and the `alertsReachSomeone` policy rule of the demo finds the level
 * with hours nobody is on duty, its waiver silencing the other definition. After apply, a change of one level's
 * members shows that definition alone, before and after.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plan } from '@monsync/reconciler';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { copyOfDemoConfigs, monsync, useEmulator } from './helpers.js';

const SECRETS = {
  DEMO_SHOP_PASSWORD: 'CANARY-7f3a9c-paging-shop',
  DEMO_SHOP_OTP_SECRET: 'CANARYOTPSECRETA',
  DEMO_CLIENT_CERT_PFX_BASE64: Buffer.from('CANARY-7f3a9c-paging-pfx').toString('base64'),
  DEMO_CLIENT_CERT_PASSWORD: 'CANARY-7f3a9c-paging-pfx-password',
};

const suite = useEmulator({ seed: 'demo', operator: 'admin@example.com', env: SECRETS, eachTest: { reset: true } });

async function planJson(root: string): Promise<Plan> {
  const planned = await monsync(['plan', '--config', 'configs', '--format', 'json'], { env: suite.env, cwd: root });
  expect(planned.code, planned.err).toBe(ExitCode.Ok);
  return JSON.parse(planned.out) as Plan;
}

describe('who gets paged, on the demo account', () => {
  it('shows each changed definition before and after, with groups expanded and hours, in JSON, text and Markdown; the policy finds the uncovered hours', async () => {
    const root = copyOfDemoConfigs();
    const plan = await planJson(root);
    const paging = plan.paging;
    expect(paging?.definitions.map((d) => [d.key, d.before === undefined, d.after === undefined])).toEqual([
      ['Escalate to on-call', false, false],
      ['Shop on-call', true, false],
    ]);
    const shop = paging?.definitions[1]?.after;
    expect(shop?.monitorGroups).toEqual(['Shop']);
    expect(shop?.monitors).toEqual(['Status page']);
    const [first, second] = shop?.levels ?? [];
    // Level 1 names Sam and the Night shift group, which the plan creates with Sam and the viewer in it.
    expect(first).toMatchObject({ id: 1, active: true, escalationMode: 'AlertOnErrorCount', thresholdErrorCount: 2, operators: ['sam.ops@example.com'] });
    expect(first?.operatorGroups).toEqual([{ key: 'Night shift', members: ['sam.ops@example.com', 'viewer@example.com'] }]);
    expect(first?.reaches).toEqual(['sam.ops@example.com', 'viewer@example.com']);
    expect(first?.onDuty).toMatch(/^[#+.]{168}$/);
    expect(first?.onDuty).toContain('#');
    expect(first?.nobodyOnDuty?.length).toBeGreaterThan(0);
    expect(second).toMatchObject({ id: 2, thresholdMinutes: 30, reaches: ['nina@example.com'] });

    // The demo's rule is a warning: Shop on-call's first level has hours with nobody on duty; the other is waived.
    expect(plan.policy?.filter((f) => f.rule === 'alertsReachSomeone').map((f) => [f.severity, f.key, f.file, f.line])).toEqual([['warning', 'Shop on-call', 'alert-definitions.yaml', 27]]);
    expect(plan.warnings.filter((w) => w.code === 'UNUSED_WAIVER')).toEqual([]);

    const text = await monsync(['plan', '--config', 'configs'], { env: suite.env, cwd: root });
    expect(text.out).toContain('\nWho gets paged: the escalation path of each alert definition this plan changes');
    expect(text.out).toContain('  alert definition "Shop on-call" (created, active)\n    covers monitor groups "Shop"; monitors "Status page"\n    level 1 (after 2 errors)\n');
    expect(text.out).toContain('      reaches "sam.ops@example.com", "viewer@example.com" (operators "sam.ops@example.com"; group "Night shift": "sam.ops@example.com", "viewer@example.com")\n');
    expect(text.out).toMatch(/! alertsReachSomeone: alert definition `Shop on-call` escalation level 1 \(its first active one\) has none of its 2 operators on duty in \d+ hours/);

    const markdown = await monsync(['plan', '--config', 'configs', '--format', 'markdown'], { env: suite.env, cwd: root });
    expect(markdown.out).toContain('### Who gets paged');
    expect(markdown.out).toContain('#### Alert definition `Shop on-call`: created\n\n```mermaid\nflowchart LR\n');
    expect(markdown.out).toContain('    will_l1_1 --> will_l1_1_1["viewer@example.com"]');
    for (const value of Object.values(SECRETS)) expect(`${text.out}${markdown.out}${JSON.stringify(plan)}`).not.toContain(value);
  });

  it('after apply, a level that drops a group shows that definition alone, and a plan without changes shows none', async () => {
    const root = copyOfDemoConfigs();
    const applied = await monsync(['apply', '--config', 'configs', '--auto-approve', '--allow-unsafe'], { env: suite.env, cwd: root });
    expect(applied.code, applied.err).toBe(ExitCode.Ok);
    expect((await planJson(root)).paging).toBeUndefined();

    const file = join(root, 'configs', 'alert-definitions.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('members: { operators: [sam.ops@example.com], operatorGroups: [Night shift] }', 'members: { operators: [sam.ops@example.com] }'));
    const plan = await planJson(root);
    expect(plan.steps.map((s) => `${s.action} ${s.kind}:${s.key}`)).toEqual(['delete escalationLevelMember:Shop on-call/1/operatorGroup:Night shift']);
    const [shop, ...others] = plan.paging?.definitions ?? [];
    expect(others).toEqual([]);
    expect(shop?.key).toBe('Shop on-call');
    expect(shop?.before?.levels[0]?.reaches).toEqual(['sam.ops@example.com', 'viewer@example.com']);
    expect(shop?.after?.levels[0]).toMatchObject({ operators: ['sam.ops@example.com'], operatorGroups: [], reaches: ['sam.ops@example.com'] });
    expect(shop?.after?.levels.slice(1)).toEqual(shop?.before?.levels.slice(1));
  });
});
