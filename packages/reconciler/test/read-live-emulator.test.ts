import { createClient, type MonitoringClient } from '@monsync/client';
import { SEEDED, profileFromEnv, startEmulator, type RunningEmulator } from '@monsync/emulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LiveReadError, liveScope, PlanError, readLive, type ApiObject, type LiveClient, listed, listedPerParent, type LiveSnapshot } from '../src/index.js';
import { aGroup, aMonitor, aReport, desiredState, planFor } from '../src/test-utils/index.js';

/** Monitor GUIDs per group GUID, as read. */
function memberGuids(snapshot: LiveSnapshot): Record<string, string[]> {
  return Object.fromEntries(Object.entries(listedPerParent(snapshot, 'groupMembership')).map(([group, members]) => [group, members.map((m) => String(m.MonitorGuid))]));
}

let emulator: RunningEmulator;
let client: MonitoringClient;

beforeEach(async () => {
  emulator = await startEmulator({ port: 0, profile: profileFromEnv(), seed: 'demo' });
  client = createClient({ baseUrl: emulator.url, username: 'demo', password: 'demo-password', retry: { sleep: () => Promise.resolve(), maxAttempts: 2 } });
});

afterEach(async () => {
  await client.close();
  await emulator.close();
});

const allKinds = { monitors: { prune: false }, monitorGroups: { prune: false }, vault: { prune: false }, slas: { prune: false }, scheduledReports: { prune: false } };

function routes(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const entry of emulator.control.requestLog().entries) counts.set(entry.route, (counts.get(entry.route) ?? 0) + 1);
  return counts;
}

/** The declaration a user would write for a live object: its fields minus the read-only ones. */
function declared(object: ApiObject, readOnly: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) if (!readOnly.includes(key)) out[key] = value;
  return out;
}

describe('readLive against the emulator', () => {
  it('reads the whole account with one listing per kind and one per parent, never one GET per object', async () => {
    emulator.control.clearLog();
    const snapshot = await readLive(client, liveScope(desiredState({ manage: allKinds })));
    const state = emulator.control.dump();
    const groups = state.monitorGroups.filter((g) => g.fields.IsAll !== true);

    expect(listed(snapshot, 'monitor')).toHaveLength(state.monitors.length);
    expect(listed(snapshot, 'monitorGroup')).toHaveLength(state.monitorGroups.length);
    expect(Object.keys(memberGuids(snapshot)).sort()).toEqual(groups.map((g) => String(g.fields.MonitorGroupGuid)).sort());
    expect(listed(snapshot, 'sla')).toHaveLength(state.slas.length);
    expect(Object.values(listedPerParent(snapshot, 'slaExclusionPeriod')).flat()).toHaveLength(state.slas.flatMap((s) => s.exclusionPeriods).length);
    expect(listed(snapshot, 'scheduledReport')).toHaveLength(state.scheduledReports.length);
    expect(snapshot.operators?.map((o) => o.OperatorGuid)).toContain(SEEDED.colleague.guid);

    const counts = routes();
    expect(counts.get('GET /Monitor')).toBe(Math.max(1, Math.ceil(state.monitors.length / 100)));
    expect(counts.get('GET /MonitorGroup')).toBe(1);
    expect(counts.get('GET /MonitorGroup/{monitorGroupGuid}/Member')).toBe(groups.length);
    expect(counts.get('GET /Sla/{slaGuid}/ExclusionPeriod')).toBe(state.slas.length);
    for (const single of ['GET /Monitor/{monitorGuid}', 'GET /MonitorGroup/{monitorGroupGuid}', 'GET /VaultItem/{VaultItemGuid}', 'GET /Sla/{slaGuid}']) {
      expect(counts.get(single) ?? 0).toBe(0);
    }
  });

  it('plans zero changes for declarations equal to what the service returns, apart from read-only fields and defaults', async () => {
    const snapshot = await readLive(client, liveScope(desiredState({ manage: allKinds })));
    const members = (groupGuid: string): string[] =>
      (memberGuids(snapshot)[groupGuid] ?? []).map((guid) => String(listed(snapshot, 'monitor').find((m) => m.MonitorGuid === guid)?.Name ?? guid));
    const source = { file: 'pulled.yaml', line: 1, column: 1 };
    const desired = desiredState({
      manage: { monitors: { prune: false }, monitorGroups: { prune: false }, slas: { prune: false } },
      monitors: listed(snapshot, 'monitor').map((m) => ({ value: declared(m, ['MonitorGuid', 'CreatedDate', 'LastModifiedDate', 'LastModifiedByOperatorId']) as never, source })),
      monitorGroups: listed(snapshot, 'monitorGroup')
        .filter((g) => g.IsAll !== true)
        .map((g) => ({ value: { Description: String(g.Description), members: members(String(g.MonitorGroupGuid)) } as never, source })),
      slas: listed(snapshot, 'sla').map((s) => ({
        value: {
          ...declared(s, ['SlaGuid', 'Hash']),
          exclusionPeriods: (listedPerParent(snapshot, 'slaExclusionPeriod')[String(s.SlaGuid)] ?? []).map((p) => ({ value: declared(p, ['ExclusionPeriodId', 'Hash']), source })),
        } as never,
        source,
      })),
    });
    expect(listed(snapshot, 'monitor').length).toBeGreaterThan(0);
    const plan = planFor(desired, snapshot);
    expect(plan.steps).toEqual([]);
    expect(plan.summary.unchanged).toBeGreaterThan(listed(snapshot, 'monitor').length);
  });

  it('fails the read when a per-parent listing fails, rather than reading that group as empty', async () => {
    // Every member listing fails, more often than the client's two attempts (retry.maxAttempts here).
    emulator.control.setFaults({ scripted: [{ method: 'GET', route: '/MonitorGroup/{monitorGroupGuid}/Member', count: 100, kind: '500' }] });
    await expect(readLive(client, liveScope(desiredState({ manage: { monitorGroups: { prune: true } } })))).rejects.toBeInstanceOf(LiveReadError);
  });
});

describe('readLive with an API account that cannot see the whole account', () => {
  let viewer: MonitoringClient;
  beforeEach(() => {
    viewer = createClient({ baseUrl: emulator.url, username: SEEDED.viewer.apiUser, password: SEEDED.viewer.apiPassword, retry: { sleep: () => Promise.resolve(), maxAttempts: 2 } });
  });
  afterEach(async () => {
    await viewer.close();
  });

  it('refuses to plan monitors from a non-administrator, who sees some monitors with six fields (it would create the others again)', async () => {
    const admin = await readLive(client, liveScope(desiredState({ manage: allKinds })));
    const desired = desiredState({ manage: { monitors: { prune: false }, monitorGroups: { prune: false } }, monitors: listed(admin, 'monitor').map((m) => aMonitor({ Name: String(m.Name) })) });
    const read = readLive(viewer, liveScope(desired));
    await expect(read).rejects.toBeInstanceOf(LiveReadError);
    await expect(read).rejects.toMatchObject({ code: 'LIVE_RESTRICTED' });
    await expect(read).rejects.toThrow(/it is not an account administrator, so it sees only the monitors it has view-data permission on/);
  });

  it('refuses to plan declared reports from a non-administrator, who cannot see the key markers (it would create a second report)', async () => {
    const desired = desiredState({ manage: { scheduledReports: { prune: false } }, scheduledReports: [aReport({ key: 'weekly-exec' }), aReport({ key: 'monthly-ops' })] });
    // The administrator's plan finds both reports by their markers.
    expect(planFor(desired, await readLive(client, liveScope(desired))).steps.filter((s) => s.action === 'create')).toEqual([]);
    const live = await readLive(viewer, liveScope(desired));
    expect(listed(live, 'scheduledReport').length).toBeGreaterThan(0);
    expect(() => planFor(desired, live)).toThrow(PlanError);
    expect(() => planFor(desired, live)).toThrow(/scheduled reports without InternalNotes, which only account administrators see/);
  });
});

describe('readLive when the monitor listing is cut short', () => {
  it('fails with LIVE_INCOMPLETE when a later page comes back empty and a group names monitors on it', async () => {
    // Pages need the profile that pages GET /Monitor with Cursor, as the spec says.
    await client.close();
    await emulator.close();
    emulator = await startEmulator({ port: 0, profile: 'strict', seed: 'empty' });
    client = createClient({ baseUrl: emulator.url, username: 'demo', password: 'demo-password', retry: { sleep: () => Promise.resolve(), maxAttempts: 2 } });
    const group = await client.monitorGroups.create({ Description: 'Fleet' } as never);
    const created: string[] = [];
    for (let i = 0; i < 120; i += 1) created.push(String((await client.monitors.create({ Name: `m-${String(i).padStart(3, '0')}`, MonitorType: 'Https' } as never)).MonitorGuid));
    const late = created[110] ?? '';
    await client.monitorGroups.addMember(String(group.MonitorGroupGuid), late);
    const desired = desiredState({ manage: { monitors: { prune: true }, monitorGroups: { prune: true } }, monitors: created.map((_, i) => aMonitor({ Name: `m-${String(i).padStart(3, '0')}` })), monitorGroups: [aGroup({ Description: 'Fleet', members: ['m-110'] })] });
    // Whole, the listing plans nothing.
    expect(planFor(desired, await readLive(client, liveScope(desired))).steps).toEqual([]);
    // Cut short after its first page, as when the service answers the next cursor with an empty page.
    const firstPageOnly: LiveClient = {
      ...client,
      monitors: {
        list: () => ({
          async toArray() {
            for await (const page of client.monitors.list().pages()) return page.items as ApiObject[];
            return [];
          },
        }),
      },
    };
    const read = readLive(firstPageOnly, liveScope(desired));
    await expect(read).rejects.toMatchObject({ code: 'LIVE_INCOMPLETE' });
    await expect(read).rejects.toThrow(`group member listings name 1 monitor that GET /Monitor did not return (monitor group "Fleet" (${String(group.MonitorGroupGuid)}) has member ${late})`);
  });
});
