/**
 * An operator's outgoing phone number named in the config (`outgoingPhoneNumber:`), through `monsync` against the
 * emulator's `GET /OutgoingPhoneNumber`: the plan sends the id, an unknown name is an error at its position, and
 * `pull` writes the number back, so the pulled tree plans nothing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { monsync, tempTree, useEmulator } from './helpers.js';

const SETTINGS = 'apiVersion: monsync/v1\napiOperator: admin@example.com\nmanage:\n  operators: { prune: false }\n';
const people = (phone: string) => `operators:\n  - Email: admin@example.com\n  - Email: sam@example.com\n    FullName: Sam\n    outgoingPhoneNumber: "${phone}"\n`;

const suite = useEmulator({ start: { retryAfterSeconds: 0 } });

describe('outgoingPhoneNumber: an operator names the number alerts are sent from', () => {
  it('refuses a name the account does not have, at its position, before any write', async () => {
    suite.emulator.control.clearLog();
    const root = tempTree({ 'monsync.yaml': SETTINGS, 'people.yaml': people('+31 20 999 9999') });
    const { code, err } = await monsync(['apply', '--auto-approve'], { env: suite.env, cwd: root });
    expect(code).toBe(ExitCode.Error);
    expect(err).toContain('people.yaml:5:26: operator `sam@example.com`: outgoingPhoneNumber "+31 20 999 9999" names no outgoing phone number of the account');
    expect(err).toContain('+31201234567 (Amsterdam) = 1');
    expect(suite.emulator.control.requestLog().entries.filter((e) => e.method !== 'GET')).toEqual([]);
  });

  it('sends the id of the number named; pull writes the number, and the pulled tree plans nothing', async () => {
    const root = tempTree({ 'monsync.yaml': SETTINGS, 'people.yaml': people('+31 20 123 4567') });
    const applied = await monsync(['apply', '--auto-approve'], { env: suite.env, cwd: root });
    expect(applied.code).toBe(ExitCode.Ok);
    expect(suite.emulator.control.dump().operators.find((o) => o['Email'] === 'sam@example.com')).toMatchObject({ OutgoingPhoneNumberId: 1 });
    expect((await monsync(['plan', '--detailed-exitcode'], { env: suite.env, cwd: root })).code).toBe(ExitCode.Ok);

    const out = join(tempTree({}), 'pulled');
    expect((await monsync(['pull', '--out', out], { env: suite.env, cwd: root })).code).toBe(ExitCode.Ok);
    const operators = readFileSync(join(out, 'operators.yaml'), 'utf8');
    expect(operators).toContain('outgoingPhoneNumber: "+31201234567"');
    expect(operators).not.toContain('OutgoingPhoneNumberId');
    const passwords = Object.fromEntries([...operators.matchAll(/fromEnv: (MONSYNC_SECRET_\w+)/g)].map((m) => [m[1] ?? '', 'any']));
    const again = await monsync(['plan', '--config', out, '--detailed-exitcode'], { env: { ...suite.env, ...passwords }, cwd: root });
    expect(again.out).toContain('No changes.');
    expect(again.code).toBe(ExitCode.Ok);
  });
});
