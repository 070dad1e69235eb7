/**
 * An operator's password, from `{ fromEnv }` and from `{ fromFile }`, never appears in anything `monsync` prints or
 * writes: the text, markdown (pull-request comment) and JSON plans, a saved plan file, apply's output, the error of
 * a create that fails, `pull`'s output and files, and `--rotate`. The emulator's store shows the value was sent.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { monsync, type Outcome, tempTree, useEmulator } from './helpers.js';

const FROM_ENV = 'CANARY-5b1e-operator-env-password';
const FROM_FILE = 'CANARY-5b1e-operator-file-password';
const ROTATED = 'CANARY-5b1e-operator-rotated-password';
const CANARIES = [FROM_ENV, FROM_FILE, ROTATED];

const TREE = {
  'monsync.yaml': [
    'apiVersion: monsync/v1',
    'apiOperator: admin@example.com',
    'manage:',
    '  operators: { prune: false }',
    '  operatorGroups: { prune: false }',
    'safety: { maxDeletePercent: 100, maxUpdatePercent: 100 }',
    '',
  ].join('\n'),
  'people.yaml': [
    'operators:',
    '  - Email: admin@example.com',
    '  - Email: env@example.com',
    '    FullName: From Env',
    '    Password: { fromEnv: OPS_PASSWORD }',
    '  - Email: file@example.com',
    '    FullName: From File',
    '    Password: { fromFile: secrets/file-password.txt }',
    'operatorGroups:',
    '  - Description: On call',
    '    members: [env@example.com, file@example.com]',
    '',
  ].join('\n'),
  'secrets/file-password.txt': `${FROM_FILE}\n`,
};

const suite = useEmulator({ start: { retryAfterSeconds: 0 }, env: { OPS_PASSWORD: FROM_ENV }, eachTest: { faultsOff: true, reset: true } });

/** No canary, nor its base64 form, in any of the texts. */
function expectNoPassword(...texts: string[]): void {
  const all = texts.join('\n');
  for (const canary of CANARIES) {
    expect(all).not.toContain(canary);
    expect(all).not.toContain(Buffer.from(canary).toString('base64'));
  }
}

const printed = (outcome: Outcome): string => `${outcome.out}\n${outcome.err}`;

function filesUnder(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

function storedPassword(email: string): unknown {
  return suite.emulator.control.dump().operators.find((o) => o['Email'] === email)?.['Password'];
}

describe('an operator password never appears in any output', () => {
  it('is in no plan: text, markdown, JSON, or the saved plan file', async () => {
    const root = tempTree(TREE);
    const text = await monsync(['plan', '--out', 'plan.json', '--detailed-exitcode'], { env: suite.env, cwd: root });
    expect(text.code).toBe(ExitCode.Changes);
    expect(text.out).toContain('+ create operator "env@example.com"');
    const markdown = await monsync(['plan', '--format', 'markdown'], { env: suite.env, cwd: root });
    expect(markdown.out).toContain('file@example.com');
    const json = await monsync(['plan', '--format', 'json'], { env: suite.env, cwd: root });
    expect(json.out).toContain('"sensitive": true');
    expectNoPassword(printed(text), printed(markdown), printed(json), readFileSync(join(root, 'plan.json'), 'utf8'));
  });

  it('is in no output of apply (of a saved plan), pull, or --rotate, while the service receives each value', async () => {
    const root = tempTree(TREE);
    const planned = await monsync(['plan', '--out', 'plan.json'], { env: suite.env, cwd: root });
    const applied = await monsync(['apply', 'plan.json', '--auto-approve', '--verbose'], { env: suite.env, cwd: root });
    expect(applied.code).toBe(ExitCode.Ok);
    expect([storedPassword('env@example.com'), storedPassword('file@example.com')]).toEqual([FROM_ENV, FROM_FILE]);

    // Outside the tree, which would otherwise read the pulled files as part of it.
    const pulledDir = join(tempTree({}), 'pulled');
    const pulled = await monsync(['pull', '--out', pulledDir], { env: suite.env, cwd: root });
    expect(pulled.code).toBe(ExitCode.Ok);
    expect(filesUnder(pulledDir)).toMatch(/Password: \{ fromEnv: MONSYNC_SECRET_\w+ \}/);

    const rotateEnv = { ...suite.env, OPS_PASSWORD: ROTATED };
    const rotatePlan = await monsync(['plan', '--rotate', 'operator:*@example.com', '--format', 'json'], { env: rotateEnv, cwd: root });
    expect(rotatePlan.out, rotatePlan.err).toContain('rotation (--rotate)');
    const rotateText = await monsync(['plan', '--rotate', 'operator:env@example.com'], { env: rotateEnv, cwd: root });
    const rotated = await monsync(['apply', '--rotate', 'operator:env@example.com', '--auto-approve', '--verbose'], { env: rotateEnv, cwd: root });
    expect(rotated.code).toBe(ExitCode.Ok);
    expect(storedPassword('env@example.com')).toBe(ROTATED);

    expectNoPassword(printed(planned), printed(applied), printed(pulled), filesUnder(pulledDir), printed(rotatePlan), printed(rotateText), printed(rotated));
  });

  it('is in no error of a create the service refuses or fails', async () => {
    const root = tempTree(TREE);
    suite.emulator.control.setFaults({ rate: 0, scripted: [{ method: 'POST', route: '/Operator', count: 20, kind: '500' }] });
    const failed = await monsync(['apply', '--auto-approve', '--verbose'], { env: suite.env, cwd: root });
    expect(failed.code).toBe(ExitCode.Error);
    expect(failed.err).toContain('operator "env@example.com"');
    expect(failed.err).toContain('500');

    suite.emulator.control.setFaults({ rate: 0, scripted: [] });
    const refusedTree = tempTree({ ...TREE, 'people.yaml': TREE['people.yaml'].replace('    FullName: From Env\n', '    FullName: From Env\n    TimeZoneId: 999\n') });
    const refused = await monsync(['apply', '--auto-approve', '--verbose'], { env: suite.env, cwd: refusedTree });
    expect(refused.code).toBe(ExitCode.Error);
    expect(refused.err).toContain('TimeZoneId 999');
    expectNoPassword(printed(failed), printed(refused));
  });
});
