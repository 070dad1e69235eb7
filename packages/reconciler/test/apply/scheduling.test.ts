/**
 * Scheduling, with an in-memory client whose requests the test releases one by one: which steps run together,
 * which wait, and what a failure or a stop leaves behind. No HTTP, no clock.
 */
import { NotFoundError, ValidationError } from '@monsync/client';
import { describe, expect, it } from 'vitest';
import { applyPlan, checkPlan } from '../../src/apply/apply-plan.js';
import type { StepEvent } from '../../src/apply/types.js';
import type { ApiObject, Listing, WriteClient } from '../../src/live/types.js';
import type { Plan } from '../../src/plan/types.js';
import { aLiveItem, aLiveMonitor, aLiveSection, aMonitor, anItem, aSection, CANARY, desiredState, FINGERPRINT_KEY, guidFor, planFor, liveSnapshot, secret } from '../../src/test-utils/index.js';

interface Call {
  what: string;
  release(): void;
  fail(error: unknown): void;
}

const listing = (items: ApiObject[]): Listing<ApiObject> => ({ toArray: () => Promise.resolve(items) });

/** Every write waits until the test releases it; `calls` shows what is in flight, in the order it was sent. */
function gatedClient() {
  const calls: Call[] = [];
  const waiters: (() => void)[] = [];
  let counter = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const gate = <T>(what: string, value: () => T): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      calls.push({
        what,
        release: () => {
          inFlight -= 1;
          resolve(value());
        },
        fail: (error) => {
          inFlight -= 1;
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      });
      waiters.splice(0).forEach((w) => w());
    });
  const guid = (prefix: string) => `${prefix}-${String((counter += 1)).padStart(4, '0')}`;
  const client: WriteClient = {
    monitors: {
      list: () => listing([]),
      get: (g) => gate(`get monitor ${g}`, () => ({ MonitorGuid: g })),
      create: (body) => gate(`create monitor ${String(body.Name)}`, () => ({ MonitorGuid: guid('m') })),
      patch: (g) => gate(`patch monitor ${g}`, () => undefined),
      delete: (g) => gate(`delete monitor ${g}`, () => undefined),
    },
    monitorGroups: {
      list: () => listing([]),
      members: () => listing([]),
      create: (body) => gate(`create group ${String(body.Description)}`, () => ({ MonitorGroupGuid: guid('g') })),
      replace: (g) => gate(`replace group ${g}`, () => undefined),
      delete: (g) => gate(`delete group ${g}`, () => undefined),
      addMember: (g, m) => gate(`add ${m} to ${g}`, () => undefined),
      removeMember: (g, m) => gate(`remove ${m} from ${g}`, () => undefined),
    },
    vaultSections: {
      list: () => listing([]),
      create: (body) => gate(`create section ${String(body.Name)}`, () => ({ VaultSectionGuid: guid('s') })),
      replace: (g) => gate(`replace section ${g}`, () => undefined),
      delete: (g) => gate(`delete section ${g}`, () => undefined),
      authorizations: {
        list: () => listing([]),
        create: (g) => gate(`grant on section ${g}`, () => undefined),
        delete: (g, a) => gate(`revoke ${a} on section ${g}`, () => undefined),
      },
    },
    vaultItems: {
      list: () => listing([]),
      create: (body) => gate(`create item ${String(body.Name)} in ${String(body.VaultSectionGuid)}`, () => ({ VaultItemGuid: guid('i') })),
      patch: (g) => gate(`patch item ${g}`, () => undefined),
      delete: (g) => gate(`delete item ${g}`, () => undefined),
    },
    slas: {
      list: () => listing([]),
      create: () => gate('create sla', () => undefined),
      patch: () => gate('patch sla', () => undefined),
      delete: () => gate('delete sla', () => undefined),
      exclusionPeriods: {
        list: () => listing([]),
        create: () => gate('create period', () => undefined),
        patch: () => gate('patch period', () => undefined),
        delete: () => gate('delete period', () => undefined),
      },
    },
    scheduledReports: {
      list: () => listing([]),
      create: () => gate('create report', () => ({ ScheduledReportGuid: guid('r') })),
      patch: () => gate('patch report', () => undefined),
      delete: () => gate('delete report', () => undefined),
    },
    rumWebsites: {
      list: () => listing([]),
      create: (body) => gate(`create RUM website ${String(body.Description)}`, () => ({ RumWebsiteId: guid('w') })),
      replace: (g) => gate(`replace RUM website ${g}`, () => undefined),
      delete: (g) => gate(`delete RUM website ${g}`, () => undefined),
    },
    alertDefinitions: { patch: (g) => gate(`patch alert ${g}`, () => undefined) },
    operators: {
      list: () => listing([]),
      dutySchedules: {
        list: () => listing([]),
        create: (g) => gate(`create duty schedule ${g}`, () => ({ Id: 1 })),
        delete: (g, id) => gate(`delete duty schedule ${g}/${id}`, () => undefined),
      },
      authorizations: {
        list: () => listing([]),
        add: (g, t) => gate(`grant ${t} to operator ${g}`, () => undefined),
        remove: (g, t) => gate(`revoke ${t} from operator ${g}`, () => undefined),
      },
      create: (body) => gate(`create operator ${String(body.Email)}`, () => ({ OperatorGuid: guid('o') })),
      replace: (g) => gate(`replace operator ${g}`, () => undefined),
      delete: (g) => gate(`delete operator ${g}`, () => undefined),
    },
    operatorGroups: {
      list: () => listing([]),
      create: (body) => gate(`create operator group ${String(body.Description)}`, () => ({ OperatorGroupGuid: guid('og') })),
      replace: (g) => gate(`replace operator group ${g}`, () => undefined),
      delete: (g) => gate(`delete operator group ${g}`, () => undefined),
      members: () => listing([]),
      addMember: (g, o) => gate(`add ${o} to ${g}`, () => undefined),
      removeMember: (g, o) => gate(`remove ${o} from ${g}`, () => undefined),
      authorizations: {
        list: () => listing([]),
        addByType: (g, t) => gate(`grant ${t} to ${g}`, () => undefined),
        removeByType: (g, t) => gate(`revoke ${t} from ${g}`, () => undefined),
      },
    },
  };
  /** Resolves once `n` calls have been sent in total. */
  const sent = async (n: number): Promise<void> => {
    while (calls.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  const call = (what: string | RegExp): Call => {
    const found = calls.find((c) => (typeof what === 'string' ? c.what === what : what.test(c.what)));
    if (found === undefined) throw new Error(`no call ${String(what)} among ${calls.map((c) => c.what).join('; ')}`);
    return found;
  };
  return { client, calls, sent, call, maxInFlight: () => maxInFlight };
}

const manageAll = { monitors: { prune: false }, vault: { prune: false } };

describe('applyPlan scheduling', () => {
  it('starts a step as soon as its own dependencies are done, while an unrelated slow step is still running', async () => {
    const desired = desiredState({ manage: manageAll, vaultSections: [aSection({ Name: 'Web' }, [anItem({ Name: 'token', VaultItemType: 'File', Value: 'aGk=' })])], monitors: [aMonitor({ Name: 'Slow' })] });
    const plan = planFor(desired, liveSnapshot());
    const fake = gatedClient();
    const applying = applyPlan(plan, fake.client, { parallelism: 4 });
    await fake.sent(2);
    expect(fake.calls.map((c) => c.what).sort()).toEqual(['create monitor Slow', 'create section Web']);
    fake.call('create section Web').release();
    // The item needs only the section: it goes out while the monitor (the same dependency level) is unanswered.
    await fake.sent(3);
    expect(fake.calls[2]?.what).toBe('create item token in s-0001');
    fake.call(/^create item/).release();
    fake.call('create monitor Slow').release();
    const report = await applying;
    expect(report.ok).toBe(true);
  });

  it('never has more steps in flight than the parallelism', async () => {
    const monitors = Array.from({ length: 12 }, (_, i) => aMonitor({ Name: `m${String(i).padStart(2, '0')}` }));
    const plan = planFor(desiredState({ manage: manageAll, monitors }), liveSnapshot());
    const fake = gatedClient();
    const applying = applyPlan(plan, fake.client, { parallelism: 3 });
    for (let released = 0; released < 12; released += 1) {
      await fake.sent(Math.min(12, released + 3));
      expect(fake.calls.length - released).toBeLessThanOrEqual(3);
      fake.calls[released]?.release();
    }
    const report = await applying;
    expect(fake.maxInFlight()).toBe(3);
    expect(report.done).toHaveLength(12);
  });

  it('starts ready steps in plan order', async () => {
    const monitors = ['c', 'a', 'b'].map((name) => aMonitor({ Name: name }));
    const plan = planFor(desiredState({ manage: manageAll, monitors }), liveSnapshot());
    const fake = gatedClient();
    const applying = applyPlan(plan, fake.client, { parallelism: 1 });
    for (let i = 0; i < 3; i += 1) {
      await fake.sent(i + 1);
      fake.calls[i]?.release();
    }
    await applying;
    expect(fake.calls.map((c) => c.what)).toEqual(['create monitor a', 'create monitor b', 'create monitor c']);
  });

  it('stops starting steps when the signal aborts, lets running ones finish and lists the rest as not run', async () => {
    const monitors = ['a', 'b', 'c', 'd'].map((name) => aMonitor({ Name: name }));
    const plan = planFor(desiredState({ manage: manageAll, monitors }), liveSnapshot());
    const fake = gatedClient();
    const controller = new AbortController();
    const applying = applyPlan(plan, fake.client, { parallelism: 2, signal: controller.signal });
    await fake.sent(2);
    controller.abort();
    fake.calls[0]?.release();
    fake.calls[1]?.release();
    const report = await applying;
    expect(report.done.map((d) => d.key)).toEqual(['a', 'b']);
    expect(report.notRun.map((d) => d.key)).toEqual(['c', 'd']);
    expect(report.ok).toBe(false);
  });

  it('after a stop waits settleMs at most for the running steps, and reports those still running as unsettled', async () => {
    const monitors = ['a', 'b', 'c'].map((name) => aMonitor({ Name: name }));
    const plan = planFor(desiredState({ manage: manageAll, monitors }), liveSnapshot());
    const fake = gatedClient();
    const controller = new AbortController();
    const events: StepEvent[] = [];
    const applying = applyPlan(plan, fake.client, { parallelism: 2, signal: controller.signal, settleMs: 1, onStep: (e) => events.push(e) });
    await fake.sent(2);
    controller.abort();
    fake.calls[0]?.release();
    // 'b' is not answered: the apply stops waiting for it.
    const report = await applying;
    expect(report.done.map((d) => d.key)).toEqual(['a']);
    expect(report.unsettled?.map((d) => d.key)).toEqual(['b']);
    expect(report.notRun.map((d) => d.key)).toEqual(['c']);
    // An answer that comes after the apply gave up changes neither the report nor the events.
    fake.calls[1]?.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(report.done.map((d) => d.key)).toEqual(['a']);
    expect(events.filter((e) => e.type === 'done').map((e) => e.step.key)).toEqual(['a']);
  });

  it('emits start and done events with the counts a progress display needs', async () => {
    const plan = planFor(desiredState({ manage: manageAll, monitors: [aMonitor({ Name: 'a' }), aMonitor({ Name: 'b' })] }), liveSnapshot());
    const fake = gatedClient();
    const events: StepEvent[] = [];
    const applying = applyPlan(plan, fake.client, { parallelism: 2, onStep: (e) => events.push(e) });
    await fake.sent(2);
    fake.calls[0]?.release();
    fake.calls[1]?.release();
    await applying;
    expect(events.map((e) => `${e.type} ${e.step.key} ${e.progress.done}/${e.progress.total} ${e.progress.inFlight}`)).toEqual([
      'start a 0/2 1',
      'start b 0/2 2',
      'done a 1/2 1',
      'done b 2/2 0',
    ]);
  });

  it('counts a delete whose object is already gone as done', async () => {
    const plan: Plan = {
      ...planFor(desiredState({ manage: manageAll }), liveSnapshot()),
      steps: [{ id: 'monitor:old', action: 'delete', kind: 'monitor', key: 'old', guid: 'm-old', changes: [], dependsOn: [] }],
    };
    const fake = gatedClient();
    const applying = applyPlan(plan, fake.client);
    await fake.sent(1);
    fake.calls[0]?.fail(new NotFoundError({ method: 'DELETE', path: '/Monitor/m-old', status: 404, serviceMessage: 'Monitor m-old does not exist.' }));
    const report = await applying;
    expect(report.done).toEqual([{ id: 'monitor:old', action: 'delete', kind: 'monitor', key: 'old', guid: 'm-old', note: 'already deleted' }]);
  });

  it('redacts secret values from a failure whose service message echoes the request', async () => {
    const desired = desiredState({ manage: manageAll, vaultSections: [aSection({ Name: 'Web' }, [anItem({ Password: secret(CANARY) })])] });
    const plan = planFor(desired, liveSnapshot());
    const fake = gatedClient();
    const events: StepEvent[] = [];
    const applying = applyPlan(plan, fake.client, { secrets: { desired, key: FINGERPRINT_KEY }, onStep: (e) => events.push(e) });
    await fake.sent(1);
    fake.calls[0]?.release();
    await fake.sent(2);
    const echoed = `Password "${CANARY}" is too weak; got {"Password":"${CANARY}"}`;
    fake.calls[1]?.fail(new ValidationError({ method: 'POST', path: '/VaultItem', status: 400, serviceMessage: echoed }));
    const report = await applying;
    expect(report.failed[0]?.serviceMessage).toBe('Password "[redacted]" is too weak; got {"Password":"[redacted]"}');
    expect(JSON.stringify({ report, events: events.map((e) => ('result' in e ? e.result : e.type)) })).not.toContain(CANARY);
  });

  it('redacts secret values from a failure that is not an API error', async () => {
    const desired = desiredState({ manage: manageAll, vaultSections: [aSection({ Name: 'Web' }, [anItem({ Password: secret(CANARY) })])] });
    const plan = planFor(desired, liveSnapshot());
    const fake = gatedClient();
    const applying = applyPlan(plan, fake.client, { secrets: { desired, key: FINGERPRINT_KEY } });
    await fake.sent(1);
    fake.calls[0]?.release();
    await fake.sent(2);
    fake.calls[1]?.fail(new Error(`socket closed while sending ${CANARY}`));
    const report = await applying;
    expect(report.failed[0]?.message).toBe('socket closed while sending [redacted]');
  });

  it('starts a delete only once every create of its kind is done, even with no dependency between them in the plan', async () => {
    const desired = desiredState({ manage: { monitors: { prune: true } }, safety: { maxDeletePercent: 100 }, monitors: [aMonitor({ Name: 'new-a' }), aMonitor({ Name: 'new-b' })] });
    const plan = planFor(desired, liveSnapshot({ monitors: [aLiveMonitor({ Name: 'old' })] }));
    expect(plan.steps.map((s) => [s.id, s.dependsOn])).toEqual([
      ['monitor:new-a', []],
      ['monitor:new-b', []],
      ['monitor:old', []],
    ]);
    const fake = gatedClient();
    const applying = applyPlan(plan, fake.client, { parallelism: 8 });
    await fake.sent(2);
    fake.call('create monitor new-a').release();
    await Promise.resolve();
    expect(fake.calls.map((c) => c.what)).toEqual(['create monitor new-a', 'create monitor new-b']);
    fake.call('create monitor new-b').release();
    await fake.sent(3);
    expect(fake.calls[2]?.what).toBe(`delete monitor ${guidFor('monitor', 'old')}`);
    fake.calls[2]?.release();
    expect((await applying).ok).toBe(true);
  });

  it('skips the deletes of a kind when a create of it fails, naming that create, and when a create of a child kind is skipped', async () => {
    const desired = desiredState({
      manage: { vault: { prune: true } },
      safety: { maxDeletePercent: 100 },
      vaultSections: [aSection({ Name: 'Web' }), aSection({ Name: 'New' }, [anItem({ Name: 'token', VaultItemType: 'File', Value: 'aGk=' })])],
    });
    const live = liveSnapshot({ vaultSections: [aLiveSection(), aLiveSection({ Name: 'Old' })], vaultItems: [aLiveItem('Web', { Name: 'stale' })] });
    const plan = planFor(desired, live);
    expect(plan.steps.map((s) => `${s.action} ${s.id} [${s.dependsOn.join(', ')}]`)).toEqual([
      'create vaultSection:New []',
      'create vaultItem:New/token [vaultSection:New]',
      'delete vaultItem:Web/stale []',
      'delete vaultSection:Old []',
    ]);
    const fake = gatedClient();
    const applying = applyPlan(plan, fake.client);
    await fake.sent(1);
    fake.calls[0]?.fail(new ValidationError({ method: 'POST', path: '/VaultSection', status: 400, serviceMessage: 'Name is taken.' }));
    const report = await applying;
    expect(report.failed.map((f) => f.id)).toEqual(['vaultSection:New']);
    expect([...report.skipped].sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      expect.objectContaining({ id: 'vaultItem:New/token', action: 'create', waitedFor: 'vaultSection:New' }),
      // The item delete waits for item creates only: it is skipped because the one it waited for was skipped.
      expect.objectContaining({ id: 'vaultItem:Web/stale', action: 'delete', waitedFor: 'vaultSection:New', via: 'vaultItem:New/token' }),
      expect.objectContaining({ id: 'vaultSection:Old', action: 'delete', guid: guidFor('vaultSection', 'Old'), waitedFor: 'vaultSection:New' }),
    ]);
    expect(fake.calls.map((c) => c.what)).toEqual(['create section New']);
  });

  it('refuses a plan in which a create waits for a delete its own kind\'s creates gate', () => {
    const plan: Plan = {
      ...planFor(desiredState({ manage: manageAll }), liveSnapshot()),
      steps: [
        { id: 'monitor:new', action: 'create', kind: 'monitor', key: 'new', changes: [], dependsOn: ['monitor:old'], desired: { Name: 'new' } },
        { id: 'monitor:old', action: 'delete', kind: 'monitor', key: 'old', guid: 'm-old', changes: [], dependsOn: [] },
      ],
    };
    expect(() => checkPlan(plan)).toThrow(/the plan's dependencies form a cycle among monitor:new, monitor:old/);
  });

  it('runs nothing for a plan without steps', async () => {
    const fake = gatedClient();
    const report = await applyPlan(planFor(desiredState({ manage: manageAll }), liveSnapshot()), fake.client);
    expect(report).toMatchObject({ total: 0, ok: true, done: [], failed: [], skipped: [], notRun: [] });
    expect(fake.calls).toEqual([]);
  });
});

