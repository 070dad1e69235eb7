import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientFromEnv, type MonitoringClient } from '@monsync/client';
import type { Plan } from '@monsync/reconciler';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { monsync, tempTree, useEmulator } from './helpers.js';

// The emulator's clock, moved by the test, so that the copies of a monitor have creation dates an hour apart.
let clock = Date.parse('2026-03-01T09:00:00Z');
const suite = useEmulator({ start: { now: () => new Date(clock) }, eachTest: { reset: true } });

const TREE = {
  'monsync.yaml': 'apiVersion: monsync/v1\nmanage:\n  monitors: { prune: true }\n',
  'monitors.yaml': 'monitors:\n' + ['Twin', 'Solo', 'Third'].map((n) => `  - { Name: ${n}, MonitorType: Https, Url: "https://${n.toLowerCase()}.example.com/" }\n`).join(''),
};

async function withClient<T>(work: (client: MonitoringClient) => Promise<T>): Promise<T> {
  const client = clientFromEnv(suite.env);
  try {
    return await work(client);
  } finally {
    await client.close();
  }
}

/** Solo, Third, and Twin twice: made by hand in the web app, or by two applies before the lock existed. */
async function twins(): Promise<{ older: string; newer: string }> {
  return withClient(async (client) => {
    const made: string[] = [];
    for (const name of ['Twin', 'Solo', 'Third', 'Twin']) {
      clock += 3_600_000;
      const created = await client.monitors.create({ Name: name, MonitorType: 'Https', Url: `https://${name.toLowerCase()}.example.com/` });
      if (name === 'Twin') made.push(String(created.MonitorGuid));
    }
    return { older: made[0] ?? '', newer: made[1] ?? '' };
  });
}

describe('live objects sharing a declared key', () => {
  it('fail the plan with each copy listed, its GUID, creation date and last editor, and the way out', async () => {
    const { older, newer } = await twins();
    const tree = tempTree(TREE);
    const plan = await monsync(['plan'], { cwd: tree, env: suite.env });
    expect(plan.code).toBe(ExitCode.Error);
    expect(plan.err).toContain('DUPLICATE_LIVE_KEY');
    expect(plan.err).toContain(`2 live monitors have the key "Twin": ${older} (created 2026-03-01T10:00:00, last changed by `);
    expect(plan.err).toContain(`; ${newer} (created 2026-03-01T13:00:00, last changed by `);
    expect(plan.err).toContain(`Run monsync plan --dedupe to plan keeping the oldest (${older}, the oldest by CreatedDate) and deleting the others, or add "MonitorGuid: ${older}" to this entry`);
  });

  it('plan --dedupe keeps the oldest and deletes the rest, and the saved plan applies and converges', async () => {
    const { older, newer } = await twins();
    const tree = tempTree(TREE);
    const planned = await monsync(['plan', '--dedupe', '--out', 'plan.json', '--format', 'json'], { cwd: tree, env: suite.env });
    expect(planned.code).toBe(ExitCode.Ok);
    const plan = JSON.parse(planned.out) as Plan;
    expect(plan.steps).toMatchObject([
      { action: 'delete', kind: 'monitor', key: 'Twin', guid: newer, removal: 'auto', reason: `duplicate (plan --dedupe): the account keeps ${older} (the oldest by CreatedDate)` },
    ]);
    const applied = await monsync(['apply', 'plan.json', '--auto-approve'], { cwd: tree, env: suite.env });
    expect(applied.code, applied.err).toBe(ExitCode.Ok);
    const left = await withClient((client) => client.monitors.list().toArray());
    const twinsLeft = left.filter((m) => m.Name === 'Twin');
    // Deleted, or, on a profile without DELETE /Monitor (lean), retired: either way only the oldest is active.
    expect(twinsLeft.filter((m) => !String(m.Notes ?? '').includes('monsync:retired=')).map((m) => m.MonitorGuid)).toEqual([older]);
    expect(twinsLeft.filter((m) => m.MonitorGuid !== older).every((m) => m.IsActive === false)).toBe(true);
    expect((await monsync(['plan', '--detailed-exitcode'], { cwd: tree, env: suite.env })).code).toBe(ExitCode.Ok);
  });

  it('plan --dedupe stays under the safety thresholds: removing half the monitors is refused without --allow-unsafe', async () => {
    await twins();
    const tree = tempTree(TREE);
    writeFileSync(join(tree, 'monsync.yaml'), 'apiVersion: monsync/v1\nmanage:\n  monitors: { prune: false }\nsafety:\n  maxDeletePercent: 20\n  minDeleteCount: 1\n');
    const unsafe = await monsync(['plan', '--dedupe'], { cwd: tree, env: suite.env });
    expect(unsafe.code).toBe(ExitCode.UnsafeOrStale);
    expect(unsafe.err).toContain('monitor: deletes 1 of 4 (25%), over 20% and at least 1 (safety.maxDeletePercent, safety.minDeleteCount)');
    const refused = await monsync(['apply', '--dedupe', '--auto-approve'], { cwd: tree, env: suite.env });
    expect(refused.code).toBe(ExitCode.UnsafeOrStale);
    const allowed = await monsync(['apply', '--dedupe', '--auto-approve', '--allow-unsafe'], { cwd: tree, env: suite.env });
    expect(allowed.code, allowed.err).toBe(ExitCode.Ok);
    expect(allowed.err).toMatch(/- monitor "Twin" deleted/);
  });
});
