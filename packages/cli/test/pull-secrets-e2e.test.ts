import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { listedRows, monsync, tempTree, useEmulator } from './helpers.js';

const CANARIES = {
  CHECKOUT_API_KEY: 'CANARY-4e1d-variable',
  CHECKOUT_BEARER: 'CANARY-4e1d-bearer',
  CHECKOUT_CLIENT_SECRET: 'CANARY-4e1d-client-secret',
};
const HAND_MADE = { variable: 'CANARY-4e1d-hand-token', auth: 'CANARY-4e1d-hand-auth', header: 'CANARY-4e1d-hand-header' };

const TREE = {
  // One monitor: its update is 100% of the kind, which the default safety would call unsafe.
  'monsync.yaml': 'apiVersion: monsync/v1\nmanage:\n  monitors: {}\nsafety: { maxUpdatePercent: 100 }\nallowUnknown: { fields: { monitor: [BearerToken, Auth] } }\n',
  'monitors/api.yaml': [
    'monitors:',
    '  - Name: Checkout API',
    '    MonitorType: MultiStepApi',
    '    Notes: the checkout journey',
    '    BearerToken: { fromEnv: CHECKOUT_BEARER }',
    '    Auth:',
    '      Type: OAuth2',
    '      ClientId: checkout',
    '      ClientSecret: { fromEnv: CHECKOUT_CLIENT_SECRET }',
    '    PredefinedVariables:',
    '      - Key: baseUrl',
    '        Value: https://api.example.com',
    '      - Key: partnerCode',
    '        Value: { fromEnv: CHECKOUT_API_KEY }',
    '',
  ].join('\n'),
};

// The default profile keeps fields outside the published model (BearerToken, Auth), as a service adding them would.
const suite = useEmulator({ profile: 'default', operator: 'admin@example.com', env: CANARIES, eachTest: { reset: true } });

function everything(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

describe('monsync pull and secrets', () => {
  it('writes the references a monitor was applied from, never a value, and the pulled tree plans nothing', async () => {
    const root = tempTree(TREE);
    const applied = await monsync(['apply', '--auto-approve'], { env: suite.env, cwd: root });
    expect(applied.err).not.toContain('failed');
    expect(applied.code).toBe(ExitCode.Ok);
    // The service returns the variable's value in clear: pull must not write what it reads.
    expect(JSON.stringify(suite.emulator.control.dump().monitors)).toContain(CANARIES.CHECKOUT_API_KEY);

    const pulled = await monsync(['pull', '--out', 'pulled'], { env: suite.env, cwd: root });
    expect(pulled.code).toBe(ExitCode.Ok);
    const files = everything(join(root, 'pulled'));
    for (const value of Object.values(CANARIES)) expect(files + pulled.out + pulled.err).not.toContain(value);
    expect(files).toContain('Value: { fromEnv: CHECKOUT_API_KEY }');
    expect(files).toContain('BearerToken: { fromEnv: CHECKOUT_BEARER }');
    expect(files).toContain('ClientSecret: { fromEnv: CHECKOUT_CLIENT_SECRET }');
    expect(files).not.toContain('monsync:fp=');

    // Operators' passwords are placeholders too; written once (on create), any value plans no change.
    const passwords = [...pulled.out.matchAll(/^ {2}(MONSYNC_SECRET_[A-Z0-9_]+) +operators\.yaml/gm)].map((m) => [m[1] ?? '', 'any']);
    const planned = await monsync(['plan', '--config', 'pulled', '--detailed-exitcode'], { env: { ...suite.env, ...Object.fromEntries(passwords) }, cwd: root });
    expect(planned.out).toContain('No changes.');
    expect(planned.code).toBe(ExitCode.Ok);
  });

  it('plans an update when a secret rotates after apply', async () => {
    const root = tempTree(TREE);
    expect((await monsync(['apply', '--auto-approve'], { env: suite.env, cwd: root })).code).toBe(ExitCode.Ok);
    const same = await monsync(['plan', '--detailed-exitcode'], { env: suite.env, cwd: root });
    expect(same.code).toBe(ExitCode.Ok);
    for (const name of Object.keys(CANARIES)) {
      const rotated = await monsync(['plan', '--detailed-exitcode'], { env: { ...suite.env, [name]: 'CANARY-4e1d-rotated' }, cwd: root });
      expect(rotated.out).toContain('~ update monitor "Checkout API"');
      expect(rotated.out).toContain('secret changed');
      expect(rotated.code).toBe(ExitCode.Changes);
      expect(rotated.out + rotated.err).not.toContain('CANARY');
    }
  });

  it('writes placeholders for secrets of a monitor made in the web app: variables named like secrets, tokens, nested auth', async () => {
    const created = await suite.emulator.control.actAs('admin@example.com', {
      method: 'POST',
      path: '/Monitor',
      body: {
        Name: 'Hand made',
        MonitorType: 'PostmanApi',
        Authentication: { Type: 'Bearer', Value: HAND_MADE.auth },
        Headers: [{ Name: 'X-Api-Token', Value: 'public' }, { Name: 'X-Trace', Value: 'on', ApiKey: HAND_MADE.header }],
        PredefinedVariables: [
          { Key: 'access_token', Value: HAND_MADE.variable },
          { Key: 'region', Value: 'eu' },
        ],
      },
    });
    expect(created.status).toBeLessThan(300);
    const root = tempTree({});
    const pulled = await monsync(['pull', '--out', 'pulled'], { env: suite.env, cwd: root });
    expect(pulled.code).toBe(ExitCode.Ok);
    const files = everything(join(root, 'pulled'));
    for (const value of Object.values(HAND_MADE)) expect(files + pulled.out + pulled.err).not.toContain(value);
    expect(files).toContain('Value: eu');
    expect(files).toMatch(/Key: access_token\n\s+Value: \{ fromEnv: MONSYNC_SECRET_HAND_MADE_VARIABLE_ACCESS_TOKEN \}/);
    const validated = await monsync(['validate', '--config', 'pulled'], { env: suite.env, cwd: root });
    expect(validated.err).not.toContain('LITERAL_SECRET');
  });

  it('pull --into keeps every secret a reference, also when the web app changed a secret with the field beside it', async () => {
    const root = tempTree(TREE);
    expect((await monsync(['apply', '--auto-approve'], { env: suite.env, cwd: root })).code).toBe(ExitCode.Ok);
    const listed = await suite.emulator.control.actAs('admin@example.com', { method: 'GET', path: '/Monitor' });
    const guid = listedRows<{ MonitorGuid: string; Name: string }>(listed.body).find((monitor) => monitor.Name === 'Checkout API')?.MonitorGuid;
    if (guid === undefined) throw new Error('no live monitor Checkout API');
    const typedInWebApp = 'CANARY-4e1d-typed-in-web-app';
    const edited = await suite.emulator.control.actAs('admin@example.com', {
      method: 'PATCH',
      path: `/Monitor/${guid}`,
      body: { Notes: 'the checkout journey, v2', BearerToken: typedInWebApp, PredefinedVariables: [{ Key: 'baseUrl', Value: 'https://api.example.com' }, { Key: 'partnerCode', Value: typedInWebApp }] },
    });
    expect(edited.status).toBeLessThan(300);

    const pulled = await monsync(['pull', '--into', '.'], { env: suite.env, cwd: root });
    expect(pulled.code, pulled.err).toBe(ExitCode.Ok);
    const files = everything(root);
    for (const value of [...Object.values(CANARIES), typedInWebApp]) expect(files + pulled.out + pulled.err).not.toContain(value);
    expect(files).toContain('Notes: "the checkout journey, v2"');
    // The changed secret is not written: pull says so, and the plan still sends the tree's value.
    expect(pulled.out).toContain('note: monitor "Checkout API" /BearerToken: a secret');
    expect(pulled.out).toContain('The tree still differs from the live account in what pull cannot write:\n  update monitor "Checkout API"');
    expect(files).toContain('Value: { fromEnv: CHECKOUT_API_KEY }');
    expect(files).toContain('BearerToken: { fromEnv: CHECKOUT_BEARER }');
    expect(files).toContain('ClientSecret: { fromEnv: CHECKOUT_CLIENT_SECRET }');
  });
});
