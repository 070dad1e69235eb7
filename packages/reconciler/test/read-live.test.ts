import { describe, expect, it } from 'vitest';
import { LiveReadError, liveScope, readLive, type ApiObject, type LiveClient, type Listing, listedPerParent, type LiveSnapshot } from '../src/index.js';
import { ALL_MONITORS_GROUP, aGroup, aLiveGroup, aLiveMonitor, aLivePeriod, aLiveSla, aMonitor, desiredState, guidFor } from '../src/test-utils/index.js';

/** Monitor GUIDs per group GUID, as read. */
function memberGuids(snapshot: LiveSnapshot): Record<string, string[]> {
  return Object.fromEntries(Object.entries(listedPerParent(snapshot, 'groupMembership')).map(([group, members]) => [group, members.map((m) => String(m.MonitorGuid))]));
}

class FakeError extends Error {
  constructor(readonly status: number) {
    super(`failed with ${status}`);
  }
}

/** An in-memory client that counts listings by route and can fail any of them. */
function fakeClient(data: { monitors?: ApiObject[]; groups?: ApiObject[]; members?: Record<string, ApiObject[]>; slas?: ApiObject[]; periods?: Record<string, ApiObject[]> }, fail: Record<string, number> = {}) {
  const calls: string[] = [];
  const listing = (route: string, items: ApiObject[]): Listing<ApiObject> => ({
    toArray() {
      calls.push(route);
      const status = fail[route];
      return status === undefined ? Promise.resolve(items) : Promise.reject(new FakeError(status));
    },
  });
  const client: LiveClient = {
    monitors: { list: () => listing('/Monitor', data.monitors ?? []) },
    monitorGroups: {
      list: () => listing('/MonitorGroup', data.groups ?? []),
      members: (guid) => listing(`/MonitorGroup/${guid}/Member`, data.members?.[guid] ?? []),
    },
    vaultSections: { list: () => listing('/VaultSection', []), authorizations: { list: (guid) => listing(`/VaultSection/${guid}/Authorization`, []) } },
    vaultItems: { list: () => listing('/VaultItem', []) },
    slas: { list: () => listing('/Sla', data.slas ?? []), exclusionPeriods: { list: (guid) => listing(`/Sla/${guid}/ExclusionPeriod`, data.periods?.[guid] ?? []) } },
    scheduledReports: { list: () => listing('/ScheduledReport', []) },
    rumWebsites: { list: () => listing('/Rum/Website', []) },
    operators: {
      list: () => listing('/Operator', [{ OperatorGuid: 'op-1', FullName: 'Jane' }]),
      dutySchedules: { list: (guid) => listing(`/Operator/${guid}/DutySchedule`, []) },
      authorizations: { list: (guid) => listing(`/Operator/${guid}/Authorization`, []) },
    },
    timezones: { list: () => listing('/Timezone', []) },
    operatorGroups: {
      list: () => listing('/OperatorGroup', []),
      members: (guid) => listing(`/OperatorGroup/${guid}/Member`, []),
      authorizations: { list: (guid) => listing(`/OperatorGroup/${guid}/Authorization`, []) },
    },
  };
  return { client, calls };
}

const shop = aLiveGroup();
const checkout = aLiveGroup({ Description: 'Checkout' });
const gold = aLiveSla();

describe('readLive', () => {
  it('reads one listing per managed kind and one per parent, skipping the All Monitors group', async () => {
    const monitor = aLiveMonitor();
    const { client, calls } = fakeClient({
      monitors: [monitor],
      groups: [ALL_MONITORS_GROUP, shop, checkout],
      members: { [String(shop.MonitorGroupGuid)]: [monitor] },
      slas: [gold],
      periods: { [String(gold.SlaGuid)]: [aLivePeriod(1)] },
    });
    const desired = desiredState({ manage: { monitors: { prune: false }, monitorGroups: { prune: false }, slas: { prune: false } }, monitors: [aMonitor()], monitorGroups: [aGroup({ members: ['Shop homepage'] })] });
    const snapshot = await readLive(client, liveScope(desired));
    expect([...calls].sort()).toEqual(
      [
        '/Monitor',
        '/MonitorGroup',
        `/MonitorGroup/${String(shop.MonitorGroupGuid)}/Member`,
        `/MonitorGroup/${String(checkout.MonitorGroupGuid)}/Member`,
        '/Operator',
        '/Sla',
        `/Sla/${String(gold.SlaGuid)}/ExclusionPeriod`,
      ].sort(),
    );
    expect(snapshot.read).toEqual(['monitorGroup', 'monitor', 'groupMembership', 'sla', 'slaExclusionPeriod']);
    expect(memberGuids(snapshot)).toEqual({ [String(shop.MonitorGroupGuid)]: [guidFor('monitor', 'Shop homepage')], [String(checkout.MonitorGroupGuid)]: [] });
    expect(listedPerParent(snapshot, 'slaExclusionPeriod')[String(gold.SlaGuid)]).toEqual([aLivePeriod(1)]);
    expect(snapshot.operators).toEqual([{ OperatorGuid: 'op-1', FullName: 'Jane' }]);
  });

  it('reads nothing of the kinds that are not managed or referenced', async () => {
    const { client, calls } = fakeClient({});
    await readLive(client, liveScope(desiredState({ manage: { scheduledReports: { prune: true } } })));
    expect(calls).toEqual(['/ScheduledReport']);
  });

  it('reads the vault when managed monitors refer to it, even if the vault is not managed', () => {
    const desired = desiredState({ manage: { monitors: { prune: false } }, monitors: [aMonitor({ PredefinedVariables: [{ Key: 'k', Value: { vault: 'Web/x' } }] })] });
    expect(liveScope(desired)).toEqual({ kinds: ['vaultSection', 'vaultItem', 'monitor'], operators: true });
  });

  it('fails the read when a listing fails, naming it, instead of reading it as empty', async () => {
    const { client } = fakeClient({ groups: [shop] }, { [`/MonitorGroup/${String(shop.MonitorGroupGuid)}/Member`]: 500 });
    const read = readLive(client, liveScope(desiredState({ manage: { monitorGroups: { prune: true } } })));
    await expect(read).rejects.toBeInstanceOf(LiveReadError);
    await expect(read).rejects.toThrow(/reading members of monitor group "Shop" .* failed, so no plan was made/);
  });

  it('fails with LIVE_INCOMPLETE when group members name monitors the monitor listing did not return (a later page came back empty)', async () => {
    const monitors = ['a', 'b', 'c', 'd'].map((name) => aLiveMonitor({ Name: name }));
    // The listing stopped after its first page: c and d are missing, yet the group still lists them.
    const { client } = fakeClient({ monitors: monitors.slice(0, 2), groups: [shop, checkout], members: { [String(shop.MonitorGroupGuid)]: monitors, [String(checkout.MonitorGroupGuid)]: [monitors[3] as ApiObject] } });
    const desired = desiredState({ manage: { monitors: { prune: true }, monitorGroups: { prune: true } }, monitors: [aMonitor({ Name: 'a' })], monitorGroups: [aGroup({ members: ['a'] })] });
    const read = readLive(client, liveScope(desired));
    await expect(read).rejects.toBeInstanceOf(LiveReadError);
    await expect(read).rejects.toMatchObject({ code: 'LIVE_INCOMPLETE', listing: 'monitors' });
    await expect(read).rejects.toThrow(
      `the monitor listing is incomplete: group member listings name 2 monitors that GET /Monitor did not return (monitor group "Shop" (${String(shop.MonitorGroupGuid)}) has member ${guidFor('monitor', 'c')}, ${guidFor('monitor', 'd')}; monitor group "Checkout"`,
    );
    await expect(read).rejects.toThrow(/use the API account of an account administrator and run again$/);
  });

  it('checks the members as soon as they are listed: LIVE_INCOMPLETE does not wait for the rest of the read', async () => {
    const monitors = ['a', 'b'].map((name) => aLiveMonitor({ Name: name }));
    const { client } = fakeClient({ monitors: monitors.slice(0, 1), groups: [shop], members: { [String(shop.MonitorGroupGuid)]: monitors } });
    // The operator listing (who changed what) never answers: the check must not wait for it.
    client.operators.list = () => ({ toArray: () => new Promise<ApiObject[]>(() => undefined) });
    const desired = desiredState({ manage: { monitors: { prune: true }, monitorGroups: { prune: true } }, monitors: [aMonitor({ Name: 'a' })], monitorGroups: [aGroup({ members: ['a'] })] });
    expect(liveScope(desired).operators).toBe(true);
    await expect(readLive(client, liveScope(desired))).rejects.toMatchObject({ code: 'LIVE_INCOMPLETE', listing: 'monitors' });
  });

  it('accepts member GUIDs that differ from the listing only in case', async () => {
    const monitor = aLiveMonitor();
    const upper = { MonitorGuid: String(monitor.MonitorGuid).toUpperCase() };
    const { client } = fakeClient({ monitors: [monitor], groups: [shop], members: { [String(shop.MonitorGroupGuid)]: [upper] } });
    const snapshot = await readLive(client, liveScope(desiredState({ manage: { monitorGroups: { prune: false } } })));
    expect(memberGuids(snapshot)[String(shop.MonitorGroupGuid)]).toEqual([upper.MonitorGuid]);
  });

  it('fails with LIVE_RESTRICTED when every monitor carries only the fields a non-administrator gets', async () => {
    const viewed = ['a', 'b'].map((name) => ({ MonitorGuid: guidFor('monitor', name), Name: name, MonitorType: 'Https', MonitorMode: 'Production', IsActive: true, GenerateAlert: true }));
    const { client } = fakeClient({ monitors: viewed });
    const read = readLive(client, liveScope(desiredState({ manage: { monitors: { prune: false } } })));
    await expect(read).rejects.toMatchObject({ code: 'LIVE_RESTRICTED', listing: 'monitors' });
    await expect(read).rejects.toThrow(/reads monitors with only the fields a non-administrator gets .*it is not an account administrator/);
    // One monitor with its settings is an administrator's view: an old monitor may lack the later-added dates.
    const admin = fakeClient({ monitors: [...viewed, aLiveMonitor({ CreatedDate: undefined, LastModifiedDate: undefined })] });
    await expect(readLive(admin.client, liveScope(desiredState({ manage: { monitors: { prune: false } } })))).resolves.toMatchObject({ read: ['monitor'] });
  });

  it('degrades to operator ids when operators are forbidden (403), and fails on any other operator error', async () => {
    const desired = desiredState({ manage: { monitors: { prune: false } } });
    const forbidden = fakeClient({}, { '/Operator': 403 });
    expect((await readLive(forbidden.client, liveScope(desired))).operators).toBeNull();
    const broken = fakeClient({}, { '/Operator': 502 });
    await expect(readLive(broken.client, liveScope(desired))).rejects.toThrow(/reading operators/);
  });
  it('keeps one of the client\'s slots free of per-parent listings while the monitor cursor chain runs, and gives it back after', async () => {
    const groups = Array.from({ length: 12 }, (_, n) => aLiveGroup({ Description: `Group ${n}` }));
    const slas = Array.from({ length: 6 }, (_, n) => aLiveSla({ Description: `SLA ${n}` }));
    let chainRunning = true;
    let endChain = (): void => undefined;
    const chain = new Promise<ApiObject[]>((resolve) => (endChain = () => resolve([])));
    let inFlight = 0;
    let completed = 0;
    const most = { duringChain: 0, afterChain: 0 };
    // Per-parent listings resolve only after a few turns of the event loop, so they overlap as much as they may; the
    // monitor listing (the chain) ends once six of them are done.
    const slow = (): Listing<ApiObject> => ({
      async toArray() {
        inFlight += 1;
        if (chainRunning) most.duringChain = Math.max(most.duringChain, inFlight);
        else most.afterChain = Math.max(most.afterChain, inFlight);
        for (let turn = 0; turn < 5; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
        inFlight -= 1;
        completed += 1;
        if (completed === 6) {
          chainRunning = false;
          endChain();
        }
        return [];
      },
    });
    const { client } = fakeClient({ groups, slas });
    const limited: LiveClient = {
      ...client,
      parallelism: 4,
      monitors: { list: () => ({ toArray: () => chain }) },
      monitorGroups: { list: client.monitorGroups.list, members: () => slow() },
      slas: { list: client.slas.list, exclusionPeriods: { list: () => slow() } },
    };
    const desired = desiredState({ manage: { monitors: { prune: false }, monitorGroups: { prune: false }, slas: { prune: false } }, monitors: [aMonitor()], monitorGroups: [aGroup({ members: ['Shop homepage'] })] });
    await readLive(limited, liveScope(desired));
    expect(completed).toBe(18);
    expect(most).toEqual({ duringChain: 3, afterChain: 4 });
  });
});
