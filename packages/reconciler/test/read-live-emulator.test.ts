import { createClient, type MonitoringClient } from '@monsync/client';
import { SEEDED, startEmulator, type RunningEmulator } from '@monsync/emulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LiveReadError, liveScope, readLive, type ApiObject } from '../src/index.js';
import { desiredState, planFor } from '../src/test-utils/index.js';

let emulator: RunningEmulator;
let client: MonitoringClient;

beforeEach(async () => {
  emulator = await startEmulator({ port: 0, seed: 'demo' });
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

    expect(snapshot.monitors).toHaveLength(state.monitors.length);
    expect(snapshot.monitorGroups).toHaveLength(state.monitorGroups.length);
    expect(Object.keys(snapshot.groupMembers).sort()).toEqual(groups.map((g) => String(g.fields.MonitorGroupGuid)).sort());
    expect(snapshot.slas).toHaveLength(state.slas.length);
    expect(Object.values(snapshot.exclusionPeriods).flat()).toHaveLength(state.slas.flatMap((s) => s.exclusionPeriods).length);
    expect(snapshot.scheduledReports).toHaveLength(state.scheduledReports.length);
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
      (snapshot.groupMembers[groupGuid] ?? []).map((guid) => String(snapshot.monitors.find((m) => m.MonitorGuid === guid)?.Name ?? guid));
    const source = { file: 'pulled.yaml', line: 1, column: 1 };
    const desired = desiredState({
      manage: { monitors: { prune: false }, monitorGroups: { prune: false }, slas: { prune: false } },
      monitors: snapshot.monitors.map((m) => ({ value: declared(m, ['MonitorGuid', 'CreatedDate', 'LastModifiedDate', 'LastModifiedByOperatorId']) as never, source })),
      monitorGroups: snapshot.monitorGroups
        .filter((g) => g.IsAll !== true)
        .map((g) => ({ value: { Description: String(g.Description), members: members(String(g.MonitorGroupGuid)) } as never, source })),
      slas: snapshot.slas.map((s) => ({
        value: {
          ...declared(s, ['SlaGuid', 'Hash']),
          exclusionPeriods: (snapshot.exclusionPeriods[String(s.SlaGuid)] ?? []).map((p) => ({ value: declared(p, ['ExclusionPeriodId', 'Hash']), source })),
        } as never,
        source,
      })),
    });
    expect(snapshot.monitors.length).toBeGreaterThan(0);
    const plan = planFor(desired, snapshot);
    expect(plan.steps).toEqual([]);
    expect(plan.summary.unchanged).toBeGreaterThan(snapshot.monitors.length);
  });

  it('fails the read when a per-parent listing fails, rather than reading that group as empty', async () => {
    emulator.control.setFaults({ scripted: [{ method: 'GET', route: '/MonitorGroup/{monitorGroupGuid}/Member', count: 1, kind: '500' }] });
    await expect(readLive(client, liveScope(desiredState({ manage: { monitorGroups: { prune: true } } })))).rejects.toBeInstanceOf(LiveReadError);
  });
});
