import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, loadConfig, namesSecret, secretShape, type Secret } from '../src/index.js';

// Fields the published definition does not list, let through as a team would for what the service added since: a
// secret written literally in one is refused all the same.
const SETTINGS = 'apiVersion: monsync/v1\nmanage:\n  monitors: {}\nallowUnknown: { fields: { monitor: [Steps, RequestHeaders, Headers] } }\n';
const CANARY = 'Canary7f3a9c0d';
const JWT = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJtb25zeW5jIn0.${CANARY}`;

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'monsync-literal-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

/** Loads one monitor file and returns `line:col CODE` of each finding, checking that none quotes the canary. */
async function findings(monitor: string[], env: Record<string, string> = {}): Promise<string[]> {
  const text = ['monitors:', '  - Name: api', '    MonitorType: Https', ...monitor.map((line) => `    ${line}`), ''].join('\n');
  const dir = tree({ 'monsync.yaml': SETTINGS, 'm.yaml': text });
  const { diagnostics } = await loadConfig(dir, { env });
  for (const d of diagnostics) {
    expect(JSON.stringify(d)).not.toContain(CANARY);
    expect(formatDiagnostic(d, { source: text })).not.toContain(CANARY);
  }
  return diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`);
}

describe('literal values that look like secrets where no secret is expected', () => {
  it('refuses a variable whose Key names a password, token, secret or key, at its Value', async () => {
    const keys = ['password', 'apiKey', 'api_key', 'token', 'secret', 'clientSecret', 'key', 'db_pass', 'X-Api-Key'];
    const lines = ['PredefinedVariables:', ...keys.map((key) => `  - { Key: ${key}, Value: ${CANARY} }`)];
    expect(await findings(lines)).toEqual(keys.map((_, i) => `${i + 5}:${keys[i]!.length + 25} LITERAL_SECRET`));
  });

  it('accepts variables whose Key names something else, and a secret Key given by reference or vault', async () => {
    const lines = ['PredefinedVariables:', '  - { Key: login, Value: robot }', '  - { Key: sortKey, Value: name }', '  - { Key: password, Value: { fromEnv: API_PASSWORD } }'];
    expect(await findings(lines, { API_PASSWORD: 'x' })).toEqual([]);
    expect(namesSecret('region')).toBe(false);
  });

  it('refuses a URL with user:password@ in any field, pass-through ones at any depth included', async () => {
    const lines = [`Url: "https://robot:${CANARY}@shop.example.com/login"`, 'Steps:', `  - { Url: "ftp://u:${CANARY}@files.example.com" }`, 'Notes: "see https://robot@shop.example.com"'];
    expect(await findings(lines)).toEqual(['4:10 LITERAL_SECRET', '6:16 LITERAL_SECRET']);
  });

  it('refuses an Authorization, Cookie or API-key header written literally, as a field or as a { Name, Value } entry', async () => {
    const lines = [
      `RequestHeaders: { Authorization: "x-${CANARY}", Accept: application/json }`,
      'Headers:',
      `  - { Name: Cookie, Value: "sid=${CANARY}" }`,
      `  - { Name: X-Api-Key, Value: "${CANARY}" }`,
      '  - { Name: Accept, Value: text/html }',
    ];
    expect(await findings(lines)).toEqual(['4:38 LITERAL_SECRET', '6:32 LITERAL_SECRET', '7:35 LITERAL_SECRET']);
  });

  it('refuses a bearer token or a JWT in a variable or header value whatever its name, and leaves prose alone', async () => {
    const lines = [
      'PredefinedVariables:',
      `  - { Key: auth_header, Value: "Bearer ${CANARY}" }`,
      `  - { Key: session, Value: "${JWT}" }`,
      'Headers:',
      `  - { Name: X-Forwarded, Value: "Basic ${CANARY}==" }`,
      'Notes: "Basic authentication; Bearer tokens are rotated"',
    ];
    expect(await findings(lines)).toEqual(['5:36 LITERAL_SECRET', '6:32 LITERAL_SECRET', '8:37 LITERAL_SECRET']);
    expect(['Bearer tokens', 'Basic authentication', 'Token expired'].map(secretShape)).toEqual([undefined, undefined, undefined]);
  });

  it('keeps a value written { literal, notSecret: why } as the literal, and asks for a reason when it is blank', async () => {
    const text = [
      'monitors:',
      '  - Name: api',
      '    Url: { literal: "https://demo:demo@sandbox.example.com", notSecret: "the sandbox\'s published demo login" }',
      '    PredefinedVariables:',
      '      - { Key: apiKey, Value: { literal: pk_test_123, notSecret: "publishable key, shipped in the web page" } }',
      '      - { Key: token, Value: { literal: abc, notSecret: " " } }',
      '',
    ].join('\n');
    const dir = tree({ 'monsync.yaml': SETTINGS, 'm.yaml': text });
    const { diagnostics, desired } = await loadConfig(dir);
    expect(diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`)).toEqual([
      '6:57 INVALID_VALUE `notSecret` must say why the value is not a secret (for reviewers of the tree)',
      '6:30 LITERAL_SECRET the `Value` of `token` is a literal, and its name says it is a credential: it would be sent, stored and shown in plans and comments in clear',
    ].sort());
    const monitor = desired.monitors[0]?.value as Record<string, unknown>;
    expect(monitor['Url']).toBe('https://demo:demo@sandbox.example.com');
    expect(desired.monitors[0]?.value.PredefinedVariables?.map((v) => v.Value)).toEqual(['pk_test_123', 'abc']);
  });
});

describe('fromEnv: monsync\'s own variables', () => {
  it('refuses MONSYNC_* credentials and settings at file:line:col, never reading them, and allows MONSYNC_SECRET_*', async () => {
    const names = ['MONSYNC_API_PASSWORD', 'MONSYNC_API_USERNAME', 'MONSYNC_FINGERPRINT_KEY', 'MONSYNC_OPERATOR'];
    const lines = ['PredefinedVariables:', ...names.map((name, i) => `  - { Key: v${i}, Value: { fromEnv: ${name} } }`), '  - { Key: ok, Value: { fromEnv: MONSYNC_SECRET_API_OK } }'];
    const env = Object.fromEntries([...names, 'MONSYNC_SECRET_API_OK'].map((name) => [name, CANARY]));
    expect(await findings(lines, env)).toEqual(names.map((_, i) => `${i + 5}:38 SECRET_ENV_RESERVED`));
    const text = ['monitors:', '  - Name: api', '    Password: { fromEnv: MONSYNC_API_PASSWORD }', ''].join('\n');
    const { desired, diagnostics } = await loadConfig(tree({ 'monsync.yaml': SETTINGS, 'm.yaml': text }), { env, resolveSecrets: true });
    expect(diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual(['3:26 SECRET_ENV_RESERVED']);
    // Even a caller that ignored the error gets no value.
    expect(() => (desired.monitors[0]?.value.Password as Secret).reveal()).toThrow(/one of monsync's own/);
  });
});
