import { describe, expect, it } from 'vitest';
import { mockApi } from '../test-utils/mock-api.js';

describe('checkpoints', () => {
  it('reads a checkpoint server with GET /Checkpoint/Server/{id}', async () => {
    const api = mockApi();
    api.reply('GET', '/Checkpoint/Server/42', 200, { Ipv4Addresses: ['192.0.2.1'], IpV6Addresses: ['2001:db8::1'], Name: 'Amsterdam' });
    await expect(api.client.checkpoints.server(42)).resolves.toEqual({ Ipv4Addresses: ['192.0.2.1'], IpV6Addresses: ['2001:db8::1'], Name: 'Amsterdam' });
    expect(api.last()).toMatchObject({ method: 'GET', url: '/v4/Checkpoint/Server/42' });
  });

  it('turns IPv6 addresses in the old {IpAddress} form into strings', async () => {
    const api = mockApi();
    api.reply('GET', '/Checkpoint/Server/7', 200, { IpV6Addresses: [{ IpAddress: '2001:db8::7' }, '2001:db8::8'] });
    const server = await api.client.checkpoints.server(7);
    expect(server.IpV6Addresses).toEqual(['2001:db8::7', '2001:db8::8']);
  });

  it('reads private checkpoint health with GET /PrivateCheckpointHealth, as a list or a single object', async () => {
    const api = mockApi();
    api.reply('GET', '/PrivateCheckpointHealth', 200, [{ Name: 'dc1', Warnings: ['disk'] }]);
    api.reply('GET', '/PrivateCheckpointHealth', 200, { Name: 'dc2', Warnings: [] });
    await expect(api.client.checkpoints.privateHealth()).resolves.toEqual([{ Name: 'dc1', Warnings: ['disk'] }]);
    await expect(api.client.checkpoints.privateHealth()).resolves.toEqual([{ Name: 'dc2', Warnings: [] }]);
    expect(api.last().url).toBe('/v4/PrivateCheckpointHealth');
  });
});
