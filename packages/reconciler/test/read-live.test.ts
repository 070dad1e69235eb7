import { describe, expect, it } from 'vitest';
import { LiveReadError, liveScope, readLive, type ApiObject, type LiveClient, type Listing } from '../src/index.js';
import { ALL_MONITORS_GROUP, aGroup, aLiveGroup, aLiveMonitor, aLivePeriod, aLiveSla, aMonitor, desiredState, guidFor } from '../src/test-utils/index.js';

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
    vaultSections: { list: () => listing('/VaultSection', []) },
    vaultItems: { list: () => listing('/VaultItem', []) },
    slas: { list: () => listing('/Sla', data.slas ?? []), exclusionPeriods: { list: (guid) => listing(`/Sla/${guid}/ExclusionPeriod`, data.periods?.[guid] ?? []) } },
    scheduledReports: { list: () => listing('/ScheduledReport', []) },
    operators: { list: () => listing('/Operator', [{ OperatorGuid: 'op-1', FullName: 'Jane' }]) },
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
    expect(snapshot.groupMembers).toEqual({ [String(shop.MonitorGroupGuid)]: [guidFor('monitor', 'Shop homepage')], [String(checkout.MonitorGroupGuid)]: [] });
    expect(snapshot.exclusionPeriods[String(gold.SlaGuid)]).toEqual([aLivePeriod(1)]);
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

  it('degrades to operator ids when operators are forbidden (403), and fails on any other operator error', async () => {
    const desired = desiredState({ manage: { monitors: { prune: false } } });
    const forbidden = fakeClient({}, { '/Operator': 403 });
    expect((await readLive(forbidden.client, liveScope(desired))).operators).toBeNull();
    const broken = fakeClient({}, { '/Operator': 502 });
    await expect(readLive(broken.client, liveScope(desired))).rejects.toThrow(/reading operators/);
  });
});
