import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { monsync, REPO_ROOT, useEmulator } from './helpers.js';

const suite = useEmulator({
  seed: 'demo',
  start: { retryAfterSeconds: 0 },
  operator: 'admin@example.com',
  env: {
    DEMO_SHOP_PASSWORD: 'CANARY-target-shop-password',
    DEMO_SHOP_OTP_SECRET: 'CANARYTARGETOTPSECRET',
    DEMO_CLIENT_CERT_PFX_BASE64: Buffer.from('CANARY-target-pfx').toString('base64'),
    DEMO_CLIENT_CERT_PASSWORD: 'CANARY-target-pfx-password',
  },
  eachTest: { faultsOff: true, reset: true, stageFingerprints: true, clearLog: true },
});

/** The writes the service carried out, as `METHOD path` (a 429 the rate-limited profile answered was not carried out). */
const writes = () =>
  suite.emulator.control
    .requestLog()
    .entries.filter((e) => e.method !== 'GET' && e.status !== 429)
    .map((e) => `${e.method} ${e.path}`);

/** The plan's steps as `action id`, read from its JSON. */
async function stepsOf(argv: string[]): Promise<string[]> {
  const { out } = await monsync(['plan', '--config', 'configs', '--format', 'json', ...argv], { env: suite.env, cwd: REPO_ROOT });
  return (JSON.parse(out) as { steps: { action: string; id: string }[] }).steps.map((s) => `${s.action} ${s.id}`);
}

describe('monsync apply --target', () => {
  it('applies only the matching steps and what they depend on, as plan --target shows them, and leaves the rest planned', async () => {
    const planned = await stepsOf(['--target', 'groupMembership:*/Status page']);
    expect(planned).toEqual(['create monitor:Status page', 'create groupMembership:Marketing/Status page']);
    const all = await stepsOf([]);
    expect(all.length).toBeGreaterThan(planned.length);

    const { code, out, err } = await monsync(['apply', '--config', 'configs', '--auto-approve', '--verify', '--target', 'groupMembership:*/Status page'], { env: suite.env });
    expect(err).not.toContain('error');
    expect(code).toBe(ExitCode.Ok);
    expect(out).toMatch(/Apply complete: 2 of 2 steps done \(2 created\)/);
    expect(out).toContain('Verified: a new plan shows no changes.');
    // The monitor, its membership, and the apply lock: nothing the targets do not reach.
    const written = writes().filter((w) => !w.includes('/Sla'));
    expect(written.filter((w) => w === 'POST /v4/Monitor')).toHaveLength(1);
    expect(written).toHaveLength(2);
    expect(await stepsOf([])).toEqual(all.filter((step) => !planned.includes(step)));
  });

  it('refuses --target with a saved plan, and a target of an unknown kind, before any request', async () => {
    const saved = await monsync(['apply', 'plan.json', '--auto-approve', '--target', 'monitor:Blog'], { env: suite.env });
    expect(saved.code).toBe(ExitCode.Error);
    expect(saved.err).toContain('--target narrows a plan made now; a saved plan is applied as it was made (make it with monsync plan --target ... --out FILE)');
    expect(saved.err).toContain("Run 'monsync apply --help' for usage.");
    const kind = await monsync(['apply', '--config', 'configs', '--auto-approve', '--target', 'monitr:Blog'], { env: suite.env });
    expect(kind.code).toBe(ExitCode.Error);
    expect(kind.err).toContain('--target monitr:Blog: expected kind:key with kind one of monitor,');
    expect(kind.err).toContain("Run 'monsync apply --help' for usage.");
    expect(suite.emulator.control.requestLog().entries).toEqual([]);
  });

  it('applies nothing when the target matches no step, and says so', async () => {
    const { code, out, err } = await monsync(['apply', '--config', 'configs', '--auto-approve', '--target', 'monitor:No such monitor'], { env: suite.env });
    expect(code).toBe(ExitCode.Ok);
    expect(out).toContain('Nothing to apply');
    expect(`${out}${err}`).toContain('--target monitor:No such monitor matches no step of this plan');
    expect(writes()).toEqual([]);
  });
});
