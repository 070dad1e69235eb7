import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { monsync, tempTree, useEmulator } from './helpers.js';

/**
 * A secret is needed only where it is sent: a pulled tree plans with none of its placeholder variables set (operator
 * passwords are sent only on create and with --rotate; a vault secret that cannot be read is not compared, and the
 * account keeps it), while a plan that would send an unreadable value is refused at the reference, writing nothing.
 */
const suite = useEmulator({ seed: 'demo', operator: 'admin@example.com', eachTest: { reset: true } });

async function pulledTree(): Promise<string> {
  const root = tempTree({});
  const pulled = await monsync(['pull', '--out', 'tree'], { cwd: root, env: suite.env });
  expect(pulled.code).toBe(ExitCode.Ok);
  expect(pulled.out).toMatch(/MONSYNC_SECRET_\w+_PASSWORD +operators\.yaml/);
  return root;
}

const writes = () => suite.emulator.control.requestLog().entries.filter((entry) => entry.method !== 'GET');

describe('a secret is needed only where it is sent', () => {
  it('plans a pulled tree with operators with none of the placeholder variables set: no error, no change', async () => {
    const root = await pulledTree();
    const { code, out, err } = await monsync(['plan', '--config', 'tree', '--detailed-exitcode'], { cwd: root, env: suite.env });
    expect(err).not.toMatch(/error/i);
    expect(code).toBe(ExitCode.Ok);
    expect(out).toContain('No changes.');
    // The vault's secrets cannot be compared without their values: said once per item, never as a change.
    expect(out).toMatch(/SECRET_NOT_SET: vault\.yaml:\d+:\d+: vaultItem "Web\/shop-login": \/Password not compared: env MONSYNC_SECRET_WEB_SHOP_LOGIN_PASSWORD cannot be read/);
    expect(out).not.toContain('operators.yaml');
  });

  it('refuses a plan that creates an operator whose password cannot be read, at the reference, with no write', async () => {
    const root = await pulledTree();
    appendFileSync(join(root, 'tree', 'operators.yaml'), ['  - Email: new.person@example.com', '    FullName: New Person', '    Password: { fromEnv: CANARY_UNSET_NEW_PASSWORD }', ''].join('\n'));
    const line = readFileSync(join(root, 'tree', 'operators.yaml'), 'utf8').split('\n').findIndex((text) => text.includes('CANARY_UNSET_NEW_PASSWORD')) + 1;
    suite.emulator.control.clearLog();
    for (const argv of [['plan', '--config', 'tree'], ['apply', '--config', 'tree', '--auto-approve']]) {
      const { code, err } = await monsync(argv, { cwd: root, env: suite.env });
      expect(code, argv[0]).toBe(ExitCode.Error);
      expect(err, argv[0]).toContain(`operators.yaml:${line}:15: env CANARY_UNSET_NEW_PASSWORD cannot be read, and this plan sends its value (creating operator "new.person@example.com" /Password)`);
      expect(err, argv[0]).toContain('SECRET_UNAVAILABLE');
    }
    expect(writes()).toEqual([]);
  });

  it('refuses to rotate an operator whose password cannot be read', async () => {
    const root = await pulledTree();
    const { code, err } = await monsync(['plan', '--config', 'tree', '--rotate', 'operator:sam.ops@example.com'], { cwd: root, env: suite.env });
    expect(code).toBe(ExitCode.Error);
    expect(err).toContain('env MONSYNC_SECRET_SAM_OPS_EXAMPLE_COM_PASSWORD cannot be read, and this plan sends its value (rotating operator "sam.ops@example.com" /Password)');
  });
});
