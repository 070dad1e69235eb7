import { describe, expect, it } from 'vitest';
import { AuthenticationError, NetworkError, RateLimitError, ServerError, isUnclearOutcome } from '@monsync/client';
import { SEEDED } from '@monsync/emulator';
import { useEmulator } from './harness.js';

const api = useEmulator('empty');

describe('register against the emulator', () => {
  it('creates an API account with the operator login, and the new credentials work', async () => {
    const account = await api.client.register({ Description: 'CI pipeline' }, { username: SEEDED.admin.email, password: SEEDED.admin.loginPassword });
    expect(account).toMatchObject({ status: 'OK', OperatorName: SEEDED.admin.fullName });
    const fresh = api.clientWith({ username: account.UserName, password: account.Password });
    await expect(fresh.timezones.list().toArray()).resolves.not.toHaveLength(0);
  });

  it('refuses a wrong login with AuthenticationError', async () => {
    await expect(api.client.register({}, { username: SEEDED.admin.email, password: 'wrong' })).rejects.toBeInstanceOf(AuthenticationError);
  });
});

describe('retries against the emulator', () => {
  it('retries a GET through injected 503s and 429s, honouring Retry-After', async () => {
    api.emulator.control.setFaults({ retryAfterSeconds: 3, scripted: [{ method: 'GET', route: '/Sla', count: 1, kind: '503' }, { method: 'GET', route: '/Sla', count: 1, kind: '429' }] });
    await expect(api.client.slas.list().toArray()).resolves.toEqual([]);
    expect(api.retries.map((r) => r.reason)).toEqual(['503', '429']);
    expect(api.sleeps).toContain(3000);
  });

  it('retries a GET after a connection reset', async () => {
    api.emulator.control.setFaults({ scripted: [{ method: 'GET', route: '/VaultSection', count: 2, kind: 'reset' }] });
    const sections = await api.client.vaultSections.list().toArray();
    expect(sections.length).toBeGreaterThan(0);
    expect(api.retries).toHaveLength(2);
    expect(api.retries.every((r) => r.reason !== '503' && r.reason !== '429')).toBe(true);
  });

  it('does not retry a POST whose connection was reset after the write, and calls the outcome unclear', async () => {
    api.emulator.control.setFaults({ scripted: [{ method: 'POST', route: '/MonitorGroup', count: 1, kind: 'applied-then-reset' }] });
    const error = await api.client.monitorGroups.create({ Description: 'Maybe created' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(isUnclearOutcome(error)).toBe(true);
    expect(api.retries).toEqual([]);
    const groups = await api.client.monitorGroups.list().toArray();
    expect(groups.filter((g) => g.Description === 'Maybe created')).toHaveLength(1);
  });

  it('gives up after the configured attempts', async () => {
    api.emulator.control.setFaults({ scripted: [{ method: 'GET', route: '/Operator', count: 10, kind: '500' }, { method: 'GET', route: '/Timezone', count: 10, kind: '429' }] });
    await expect(api.client.operators.listPage()).rejects.toBeInstanceOf(ServerError);
    const limited = api.clientWith({ retry: { maxAttempts: 3 } });
    const error = await limited.timezones.list().toArray().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ attempts: 3 });
  });
});
