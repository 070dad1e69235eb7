import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { copyOfDemoConfigs, monsync, useEmulator } from './helpers.js';

const CANARIES = {
  DEMO_SHOP_PASSWORD: 'CANARY-show-shop-password',
  DEMO_SHOP_OTP_SECRET: 'CANARYSHOWOTPSECRET',
  DEMO_CLIENT_CERT_PFX_BASE64: Buffer.from('CANARY-show-pfx').toString('base64'),
  DEMO_CLIENT_CERT_PASSWORD: 'CANARY-show-pfx-password',
};

const suite = useEmulator({ seed: 'demo', start: { retryAfterSeconds: 0 }, operator: 'admin@example.com', env: CANARIES });

describe('monsync show PLANFILE', () => {
  it('prints a saved plan exactly as plan printed it, in every format, with no credentials and no API request', async () => {
    const tree = copyOfDemoConfigs();
    for (const format of ['text', 'markdown', 'json'] as const) {
      const planned = await monsync(['plan', '--config', 'configs', '--format', format, '--out', 'plan.json'], { env: suite.env, cwd: tree });
      // The demo plan is unsafe (exit 3) until its vault items carry fingerprints; show prints it all the same.
      expect([ExitCode.Ok, ExitCode.UnsafeOrStale], planned.err).toContain(planned.code);
      suite.emulator.control.clearLog();
      const shown = await monsync(['show', 'plan.json', '--format', format], { env: {}, cwd: tree });
      expect(shown.err).toBe('');
      expect(shown.code).toBe(ExitCode.Ok);
      expect(shown.out, format).toBe(planned.out);
      expect(suite.emulator.control.requestLog().entries).toEqual([]);
      for (const value of Object.values(CANARIES)) expect(shown.out).not.toContain(value);
    }
    expect((await monsync(['show', 'plan.json'], { cwd: tree })).out).toContain('Plan digest: ');
    expect((await monsync(['show', 'plan.json', '--format', 'json'], { cwd: tree })).out).toBe(readFileSync(join(tree, 'plan.json'), 'utf8'));
  });

  it('colours the text on a terminal unless told not to', async () => {
    const tree = copyOfDemoConfigs();
    await monsync(['plan', '--config', 'configs', '--out', 'plan.json'], { env: suite.env, cwd: tree });
    expect((await monsync(['show', 'plan.json'], { cwd: tree, isTTY: true })).out).toContain('\u001b[');
    expect((await monsync(['show', 'plan.json', '--no-color'], { cwd: tree, isTTY: true })).out).not.toContain('\u001b[');
  });

  it('refuses a missing file, and a file that is not a monsync plan with its line and column, exit 1', async () => {
    const tree = copyOfDemoConfigs();
    const missing = await monsync(['show', 'nope.json'], { cwd: tree });
    expect(missing.code).toBe(ExitCode.Error);
    expect(missing.err).toContain('error PLAN_FILE_UNREADABLE: nope.json: cannot read the plan file (ENOENT)');
    await monsync(['plan', '--config', 'configs', '--out', 'plan.json'], { env: suite.env, cwd: tree });
    const text = readFileSync(join(tree, 'plan.json'), 'utf8');
    writeFileSync(join(tree, 'cut.json'), text.slice(0, Math.floor(text.length / 2)));
    const cut = await monsync(['show', 'cut.json'], { cwd: tree });
    expect(cut.code).toBe(ExitCode.Error);
    expect(cut.out).toBe('');
    expect(cut.err).toMatch(/error PLAN_FILE_INVALID: cut\.json:\d+:\d+: /);
    const none = await monsync(['show'], { cwd: tree });
    expect(none.err).toContain("'monsync show' needs PLANFILE");
  });
});
