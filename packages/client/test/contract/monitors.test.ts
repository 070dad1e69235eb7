import { describe, expect, it } from 'vitest';
import { AuthenticationError, InvalidQueryError, NotFoundError, ValidationError } from '@monsync/client';
import { SEEDED } from '@monsync/emulator';
import { useEmulator } from './harness.js';

const api = useEmulator('empty');

const https = (name: string) => ({ Name: name, MonitorType: 'Https', ErrorConditions: [{ ErrorConditionType: 'HttpStatus', Value: '200' }] });

describe('monitors against the emulator', () => {
  it('creates, reads, replaces, patches and deletes a monitor', async () => {
    const created = await api.client.monitors.create(https('Shop homepage'));
    expect(created.MonitorGuid).toMatch(/^[0-9a-f-]{36}$/i);
    expect(created).toMatchObject({ Name: 'Shop homepage', MonitorType: 'Https', IsActive: true, GenerateAlert: true });
    expect(created.CreatedDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);

    const read = await api.client.monitors.get(created.MonitorGuid);
    expect(read.Name).toBe('Shop homepage');

    const replaced = await api.client.monitors.replace(created.MonitorGuid, { ...https('Shop homepage'), UserAgent: 'EdgeLatest', IsActive: false });
    expect(replaced?.UserAgent ?? (await api.client.monitors.get(created.MonitorGuid)).UserAgent).toBe('EdgeLatest');

    await api.client.monitors.patch(created.MonitorGuid, { IsActive: true });
    const patched = await api.client.monitors.get(created.MonitorGuid);
    expect(patched).toMatchObject({ IsActive: true, UserAgent: 'EdgeLatest' });

    await api.client.monitors.delete(created.MonitorGuid);
    await expect(api.client.monitors.get(created.MonitorGuid)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('creates a monitor in a group and lists the group through /Monitor/MonitorGroup/{guid}', async () => {
    const group = await api.client.monitorGroups.create({ Description: 'Shop' });
    const inGroup = await api.client.monitors.createInGroup(group.MonitorGroupGuid, https('Checkout'));
    await api.client.monitors.create(https('Elsewhere'));
    const listed = await api.client.monitors.listInGroup(group.MonitorGroupGuid).toArray();
    expect(listed.map((m) => m.MonitorGuid)).toEqual([inGroup.MonitorGuid]);
  });

  it('gets a NotFoundError for an unknown monitor', async () => {
    await expect(api.client.monitors.get('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('gets an AuthenticationError with wrong credentials', async () => {
    const wrong = api.clientWith({ password: 'wrong-password' });
    await expect(wrong.monitors.listPage()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('reads the All Monitors group GUID as a group whose member list holds every monitor', async () => {
    const m = await api.client.monitors.create(https('Any'));
    const members = await api.client.monitorGroups.members(SEEDED.allMonitorsGroup).toArray();
    expect(members.map((x) => x.MonitorGuid)).toContain(m.MonitorGuid);
  });
});

// The spec's Cursor paging of GET /Monitor, and the rules it does not state, live in the strict profile.
describe('monitors against the strict emulator', () => {
  const strict = useEmulator('empty', { profile: 'strict' });

  it('follows cursors across three or more pages of GET /Monitor', async () => {
    for (let i = 1; i <= 7; i += 1) await strict.client.monitors.create(https(`m${i}`));
    const first = await strict.client.monitors.listPage({ Take: 3 });
    expect(first.items).toHaveLength(3);
    expect(first.cursors.next).toBeTypeOf('string');
    const names = (await strict.client.monitors.list({ Take: 3 }).toArray()).map((m) => m.Name);
    expect(names.sort()).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7']);
    const listCalls = strict.responses.filter((r) => r.route === '/Monitor' && r.method === 'GET');
    // One listPage call, then three pages for the full list.
    expect(listCalls).toHaveLength(4);
  });

  it('gets a ValidationError naming the ErrorConditions type when sending a removed field', async () => {
    const error = await strict.client.monitors.create({ ...https('Legacy'), LoadTimeLimit1: 4000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).serviceMessage).toMatch(/LoadTimeLimit1/);
    expect((error as ValidationError).status).toBe(400);
  });

  it('agrees with the emulator that Take is 1..100 (the client refuses before sending)', async () => {
    await expect(strict.client.monitors.listPage({ Take: 101 })).rejects.toBeInstanceOf(InvalidQueryError);
    const raw = await strict.client.request('GET', '/Monitor', { query: { Take: 101 } }).catch((e: unknown) => e);
    expect(raw).toBeInstanceOf(ValidationError);
  });
});
