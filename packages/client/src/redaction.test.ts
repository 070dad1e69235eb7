import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { redactJson, scrubText } from './redact.js';
import { CANARY_PASSWORD, mockApi } from './test-utils/mock-api.js';

const SECRET = 'CANARY-7f3a9c-secret-value';
const GUID = '99999999-0000-0000-0000-000000000000';

/** Every way an error gets printed. */
function renderings(error: unknown): Record<string, string> {
  const e = error as Error;
  return {
    message: e.message,
    stack: e.stack ?? '',
    inspect: inspect(error, { depth: 10, showHidden: true }),
    json: JSON.stringify(error),
    string: String(error),
  };
}

function expectClean(error: unknown, canaries: string[]): void {
  expect(error).toBeInstanceOf(Error);
  for (const [where, text] of Object.entries(renderings(error))) {
    for (const canary of canaries) {
      expect(text.includes(canary), `${canary} found in ${where}:\n${text}`).toBe(false);
    }
  }
}

const encodedAuth = Buffer.from(`demo:${CANARY_PASSWORD}`).toString('base64');

describe('secrets never appear in errors', () => {
  it('keeps the password and the Authorization header out of a 401', async () => {
    const api = mockApi();
    api.reply('GET', '/Monitor', 401, { ErrorDescription: 'bad credentials' });
    const error = await api.client.monitors.listPage().catch((e: unknown) => e);
    expectClean(error, [CANARY_PASSWORD, encodedAuth]);
    // The redacted request is still there for debugging.
    expect(inspect(error, { depth: 10 })).toContain("authorization: '[redacted]'");
  });

  it('redacts a vault item Value and Password, and scrubs them from a service message that echoes them', async () => {
    const api = mockApi();
    api.reply('POST', '/VaultItem', 400, { ErrorDescription: `Value '${SECRET}' is too long; password ${SECRET}-pw rejected` });
    const error = await api.client.vaultItems
      .create({ Name: 'otp', VaultSectionGuid: GUID, VaultItemType: 'CredentialSet', UserName: 'robot', Password: `${SECRET}-pw`, Value: SECRET })
      .catch((e: unknown) => e);
    expectClean(error, [SECRET, CANARY_PASSWORD]);
    expect((error as Error).message).toContain('[redacted]');
    expect(inspect(error, { depth: 10 })).toContain("UserName: 'robot'");
  });

  it('redacts certificate archive data and its password', async () => {
    const api = mockApi();
    api.reply('PUT', `/VaultItem/${GUID}`, 503).persist();
    const error = await api.client.vaultItems
      .replace(GUID, {
        Name: 'cert',
        VaultSectionGuid: GUID,
        VaultItemType: 'CertificateArchive',
        CertificateArchive: { ArchiveData: `${SECRET}-data`, Password: `${SECRET}-archive-pw` },
      })
      .catch((e: unknown) => e);
    expectClean(error, [SECRET]);
  });

  it('redacts an operator password and bearer tokens in monitor bodies', async () => {
    const api = mockApi();
    api.reply('POST', '/Operator', 409, { ErrorDescription: 'exists' });
    api.reply('POST', '/Monitor', 400, `raw text mentioning ${SECRET}-token`);
    const opError = await api.client.operators.create({ Email: 'a@example.com', Password: SECRET }).catch((e: unknown) => e);
    const monError = await api.client.monitors
      .create({ Name: 'api', BearerToken: `${SECRET}-token`, Authentication: { Bearer: { Token: `${SECRET}-token` } } })
      .catch((e: unknown) => e);
    expectClean(opError, [SECRET]);
    expectClean(monError, [SECRET]);
  });

  it('keeps per-call credentials (register) out of errors', async () => {
    const api = mockApi();
    api.reply('POST', '/Register', 401, { ErrorDescription: 'no' });
    const error = await api.client.register({ Description: 'ci' }, { username: 'me@example.com', password: `${SECRET}-login` }).catch((e: unknown) => e);
    expectClean(error, [`${SECRET}-login`, Buffer.from(`me@example.com:${SECRET}-login`).toString('base64'), CANARY_PASSWORD]);
  });

  it('keeps secrets out of network and timeout errors', async () => {
    const api = mockApi({ timeoutMs: 20, retry: { maxAttempts: 1 } });
    api.fail('PATCH', `/VaultItem/${GUID}`, 'ECONNRESET');
    api.reply('PUT', `/VaultItem/${GUID}`, 200, {}).delay(5_000);
    const network = await api.client.vaultItems.patch(GUID, { Value: SECRET }).catch((e: unknown) => e);
    const timeout = await api.client.vaultItems.replace(GUID, { Name: 'n', VaultSectionGuid: GUID, VaultItemType: 'File', Value: SECRET }).catch((e: unknown) => e);
    expectClean(network, [SECRET, CANARY_PASSWORD, encodedAuth]);
    expectClean(timeout, [SECRET, CANARY_PASSWORD, encodedAuth]);
  });

  it('does not show the password when the client itself is inspected', () => {
    const api = mockApi();
    const text = inspect(api.client, { depth: 10, showHidden: true });
    expect(text).not.toContain(CANARY_PASSWORD);
    expect(text).not.toContain(encodedAuth);
  });
});

describe('redactJson', () => {
  it('replaces secret fields at any depth and collects their values', () => {
    const secrets = new Set<string>();
    const out = redactJson(
      {
        Name: 'x',
        Password: 'p4ssword',
        CertificateArchive: { Issuer: 'CN=x', ArchiveData: 'QUJDRA==' },
        PredefinedVariables: [{ Key: 'k', Value: 'literal-secret' }],
        ErrorConditions: [{ ErrorConditionType: 'LoadTimeLimit1', Value: '4000' }],
        VariableValues: { apiKey: 'k-123456' },
      },
      secrets,
    );
    expect(out).toEqual({
      Name: 'x',
      Password: '[redacted]',
      CertificateArchive: { Issuer: 'CN=x', ArchiveData: '[redacted]' },
      PredefinedVariables: [{ Key: 'k', Value: '[redacted]' }],
      ErrorConditions: [{ ErrorConditionType: 'LoadTimeLimit1', Value: '4000' }],
      VariableValues: '[redacted]',
    });
    expect([...secrets].sort()).toEqual(['QUJDRA==', 'k-123456', 'literal-secret', 'p4ssword']);
  });

  it('scrubs longer secrets first and leaves very short ones (which would destroy the text)', () => {
    expect(scrubText('token abcdef and abcdefgh and 1', ['abcdef', 'abcdefgh', '1'])).toBe('token [redacted] and [redacted] and 1');
  });
});
