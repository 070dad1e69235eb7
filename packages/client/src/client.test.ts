import { describe, expect, it } from 'vitest';
import { mockApi } from './test-utils/mock-api.js';

describe('register', () => {
  it('creates an API account with POST /Register, authenticating with the given login', async () => {
    const api = mockApi();
    const account = { UserName: 'api-123', Password: 'new-api-password', AccountId: 'acc', OperatorName: 'Sam Ops', status: 'OK' };
    api.reply('POST', '/Register', 200, account);
    await expect(api.client.register({ Description: 'CI' }, { username: 'sam@example.com', password: 'login-pw' })).resolves.toEqual(account);
    const call = api.last();
    expect(call).toMatchObject({ method: 'POST', url: '/v4/Register', body: { Description: 'CI' } });
    expect(call.headers.authorization).toBe(`Basic ${Buffer.from('sam@example.com:login-pw').toString('base64')}`);
  });

  it('uses the client credentials when no login is given, with an empty body', async () => {
    const api = mockApi();
    api.reply('POST', '/Register', 200, { UserName: 'u', Password: 'p' });
    await api.client.register();
    expect(api.last().body).toEqual({});
    expect(api.last().headers.authorization).toMatch(/^Basic /);
  });
});

describe('client surface', () => {
  it('exposes every resource family as a plural camelCase property', () => {
    const { client } = mockApi();
    for (const family of [
      'monitors', 'monitorChecks', 'monitorGroups', 'alerts', 'statistics', 'alertDefinitions', 'checkpoints',
      'operators', 'operatorGroups', 'timezones', 'vaultItems', 'vaultSections', 'scheduledReports', 'slas',
    ] as const) {
      expect(typeof client[family]).toBe('object');
    }
    expect(client.baseUrl).toBe('http://api.test/v4');
    expect(client.parallelism).toBe(8);
  });
});
