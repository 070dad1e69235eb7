/**
 * A pruned vault item (or section) that stays in use after the plan: the service would refuse the delete with a
 * 400, so the plan must not promise it. References the config does not manage (an omitted PredefinedVariables,
 * an undeclared, unmanaged or ignored monitor) stay, and only a monitor deleted or updated away from the
 * reference in the same plan frees the item.
 */
import { describe, expect, it } from 'vitest';
import { liveScope, PlanError, type Plan } from '../src/index.js';
import type { Settings } from '../src/desired.js';
import type { ApiObject } from '../src/live/types.js';
import { aLiveItem, aLiveMonitor, aLiveSection, aMonitor, anItem, aSection, desiredState, guidFor, liveSnapshot, planFor, type DesiredParts } from '../src/test-utils/index.js';

const OLD_ITEM = guidFor('vaultItem', 'Web/old');
const MONITOR = guidFor('monitor', 'Shop homepage');
const NO_LIMITS = { maxDeletePercent: 100, maxUpdatePercent: 100 };
const MONITOR_SOURCE = { file: 'monitors/shop.yaml', line: 3, column: 5 };

const usingOld = (fields: Record<string, unknown> = {}): ApiObject => aLiveMonitor({ PredefinedVariables: [{ Key: 'login', Value: `{{vault:${OLD_ITEM}}}` }], ...fields });

/** Section Web declares only shop-login, so Web/old is pruned. */
function desiredWith(manage: Settings['manage'], parts: DesiredParts = {}) {
  return desiredState({ manage, safety: NO_LIMITS, vaultSections: [aSection({}, [anItem()])], ...parts });
}

function liveWith(monitors: ApiObject[], extra: { vaultSections?: ApiObject[]; vaultItems?: ApiObject[] } = {}) {
  return liveSnapshot({ vaultSections: extra.vaultSections ?? [aLiveSection()], vaultItems: extra.vaultItems ?? [aLiveItem('Web'), aLiveItem('Web', { Name: 'old' })], monitors });
}

function planError(run: () => Plan): PlanError {
  try {
    run();
  } catch (error) {
    if (error instanceof PlanError) return error;
    throw error;
  }
  throw new Error('expected a PlanError, but a plan was made');
}

describe('deleting a vault item that stays in use', () => {
  it('refuses to plan the delete when the declared monitor leaves out PredefinedVariables, naming item, monitor, position and fixes', () => {
    const desired = desiredWith({ vault: { prune: true }, monitors: { prune: false } }, { monitors: [aMonitor({ IsActive: false }, MONITOR_SOURCE)] });
    const error = planError(() => planFor(desired, liveWith([usingOld()])));
    expect(error.problems).toHaveLength(1);
    const [problem] = error.problems;
    expect(problem?.code).toBe('DELETE_IN_USE');
    expect(problem).toMatchObject({ file: MONITOR_SOURCE.file, line: MONITOR_SOURCE.line, col: MONITOR_SOURCE.column });
    expect(problem?.message).toBe(
      `vaultItem "Web/old" (${OLD_ITEM}) cannot be deleted: this plan prunes it because no file declares it, but the service refuses to delete an object in use (400), and it stays in use after this plan. ` +
        `monitor "Shop homepage" (${MONITOR}) refers to it: its declaration at monitors/shop.yaml:3:5 leaves out PredefinedVariables, so the live value stays; declare PredefinedVariables there without the reference. ` +
        `Or keep vaultItem "Web/old": declare it, or add "vaultItem:Web/old" to ignore.`,
    );
    expect(error.code).toBe('DELETE_IN_USE');
  });

  it('refuses it too when the monitor is undeclared and monitors are not pruned', () => {
    const error = planError(() => planFor(desiredWith({ vault: { prune: true }, monitors: { prune: false } }), liveWith([usingOld()])));
    expect(error.problems.map((p) => p.code)).toEqual(['DELETE_IN_USE']);
    expect(error.message).toContain(`monitor "Shop homepage" (${MONITOR}) refers to it: no file declares it and prune is off for monitors; declare it with PredefinedVariables that leave the reference out`);
    expect(error.problems[0]?.file).toBeUndefined();
  });

  it('refuses it when monitors are not managed at all, and reads monitors for it', () => {
    const desired = desiredWith({ vault: { prune: true } }, { monitors: [aMonitor()] });
    expect(liveScope(desired).kinds).toContain('monitor');
    const error = planError(() => planFor(desired, liveWith([usingOld()])));
    expect(error.message).toContain(`monitor "Shop homepage" (${MONITOR}) refers to it: monitors are not managed; remove the reference in the service`);
  });

  it('refuses it when the referring monitor is ignored, even though its declaration drops the reference', () => {
    const desired = desiredWith({ vault: { prune: true }, monitors: { prune: true } }, { ignore: ['monitor:Shop*'], monitors: [aMonitor({ PredefinedVariables: [] })] });
    const error = planError(() => planFor(desired, liveWith([usingOld()])));
    expect(error.message).toContain(`monitor "Shop homepage" (${MONITOR}) refers to it: it matches an ignore pattern, so monsync leaves it as it is`);
  });

  it('refuses it when a declared PredefinedVariables still holds the reference as literal text', () => {
    const desired = desiredWith({ vault: { prune: true }, monitors: { prune: false } }, { monitors: [aMonitor({ PredefinedVariables: [{ Key: 'login', Value: `user {{vault:${OLD_ITEM}}}` }] }, MONITOR_SOURCE)] });
    const error = planError(() => planFor(desired, liveWith([usingOld()])));
    expect(error.message).toContain('its declared PredefinedVariables at monitors/shop.yaml:3:5 still hold the reference; remove it there');
  });

  it('matches the reference whatever the case of its GUID, as the service does', () => {
    const shouting = aLiveMonitor({ PredefinedVariables: [{ Key: 'login', Value: `{{vault:${OLD_ITEM.toUpperCase()}}}` }] });
    const error = planError(() => planFor(desiredWith({ vault: { prune: true }, monitors: { prune: false } }), liveWith([shouting])));
    expect(error.code).toBe('DELETE_IN_USE');
  });

  it('lists every referring monitor up to five, then counts the rest', () => {
    const monitors = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((name) => usingOld({ Name: name, MonitorGuid: guidFor('monitor', name) }));
    const error = planError(() => planFor(desiredWith({ vault: { prune: true }, monitors: { prune: false } }), liveWith(monitors)));
    expect(error.problems).toHaveLength(1);
    for (const name of ['a', 'b', 'c', 'd', 'e']) expect(error.message).toContain(`monitor "${name}" (${guidFor('monitor', name)}) refers to it`);
    expect(error.message).not.toContain('monitor "f"');
    expect(error.message).toContain('And 2 more.');
  });

  it('reports a declared reference to the pruned item once, as REFERENCE_TO_DELETED', () => {
    const desired = desiredWith({ vault: { prune: true }, monitors: { prune: false } }, { monitors: [aMonitor({ PredefinedVariables: [{ Key: 'login', Value: { vault: 'Web/old' } }] })] });
    const error = planError(() => planFor(desired, liveWith([usingOld()])));
    expect(error.problems.map((p) => p.code)).toEqual(['REFERENCE_TO_DELETED']);
  });

  it('plans the item delete after the delete of the referring monitor when monitors are pruned', () => {
    const plan = planFor(desiredWith({ vault: { prune: true }, monitors: { prune: true } }), liveWith([usingOld()]));
    expect(plan.steps.map((s) => [s.action, s.id, s.dependsOn])).toEqual([
      ['delete', 'monitor:Shop homepage', []],
      ['delete', 'vaultItem:Web/old', ['monitor:Shop homepage']],
    ]);
    expect(plan.safe).toBe(true);
  });

  it('plans the item delete after the monitor update that drops the reference', () => {
    const desired = desiredWith({ vault: { prune: true }, monitors: { prune: false } }, { monitors: [aMonitor({ PredefinedVariables: [{ Key: 'path', Value: '/shop' }] })] });
    const plan = planFor(desired, liveWith([usingOld({ PredefinedVariables: [{ Key: 'path', Value: '/shop' }, { Key: 'login', Value: `{{vault:${OLD_ITEM}}}` }] })]));
    expect(plan.steps.map((s) => [s.action, s.id, s.dependsOn])).toEqual([
      ['update', 'monitor:Shop homepage', []],
      ['delete', 'vaultItem:Web/old', ['monitor:Shop homepage']],
    ]);
    expect(plan.steps[0]?.desired?.PredefinedVariables).toEqual([{ Key: 'path', Value: '/shop' }]);
  });

  it('orders the update first also when the live reference differs in case', () => {
    const desired = desiredWith({ vault: { prune: true }, monitors: { prune: false } }, { monitors: [aMonitor({ PredefinedVariables: [] })] });
    const plan = planFor(desired, liveWith([aLiveMonitor({ PredefinedVariables: [{ Key: 'login', Value: `{{vault:${OLD_ITEM.toUpperCase()}}}` }] })]));
    expect(plan.steps.find((s) => s.id === 'vaultItem:Web/old')?.dependsOn).toEqual(['monitor:Shop homepage']);
  });

  it('lets other deletes through: an unused item is deleted while no monitor refers to it', () => {
    const plan = planFor(desiredWith({ vault: { prune: true } }), liveWith([aLiveMonitor()]));
    expect(plan.steps.map((s) => `${s.action} ${s.id}`)).toEqual(['delete vaultItem:Web/old']);
  });

  it('reads monitors only when a kind they refer to is pruned', () => {
    expect(liveScope(desiredState({ manage: { vault: { prune: true } } })).kinds).toEqual(['vaultSection', 'vaultItem', 'monitor']);
    expect(liveScope(desiredState({ manage: { vault: { prune: false } } })).kinds).toEqual(['vaultSection', 'vaultItem']);
  });
});

describe('deleting a vault section whose items stay', () => {
  const OLD_SECTION = guidFor('vaultSection', 'Old');
  const STALE = guidFor('vaultItem', 'Old/stale');

  it('names the section too when its item stays in use', () => {
    const monitor = aLiveMonitor({ PredefinedVariables: [{ Key: 'k', Value: `{{vault:${STALE}}}` }] });
    const live = liveWith([monitor], { vaultSections: [aLiveSection(), aLiveSection({ Name: 'Old' })], vaultItems: [aLiveItem('Web'), aLiveItem('Old', { Name: 'stale' })] });
    const error = planError(() => planFor(desiredWith({ vault: { prune: true }, monitors: { prune: false } }), live));
    expect(error.problems.map((p) => p.code)).toEqual(['DELETE_IN_USE']);
    expect(error.message).toContain(`vaultItem "Old/stale" (${STALE}) cannot be deleted`);
    expect(error.message).toContain('it stays in use after this plan (so vaultSection "Old", which holds it, cannot be deleted either)');
  });

  it('refuses to plan the section delete while an ignored item stays in it', () => {
    const live = liveWith([], { vaultSections: [aLiveSection(), aLiveSection({ Name: 'Old' })], vaultItems: [aLiveItem('Web'), aLiveItem('Old', { Name: 'stale' })] });
    const desired = desiredWith({ vault: { prune: true } }, { ignore: ['vaultItem:Old/*'] });
    const error = planError(() => planFor(desired, live));
    expect(error.problems).toEqual([
      {
        code: 'DELETE_NOT_EMPTY',
        message:
          `vaultSection "Old" (${OLD_SECTION}) cannot be deleted: this plan prunes it because no file declares it, but the service refuses to delete it while it holds objects (400), and it still holds one after this plan. ` +
          `vaultItem "Old/stale" (${STALE}) stays in it: it matches an ignore pattern, so monsync leaves it as it is; delete it in the service, or stop ignoring it. ` +
          `Or keep vaultSection "Old": declare it, or add "vaultSection:Old" to ignore.`,
      },
    ]);
  });

  it('deletes a section after its items when nothing keeps them', () => {
    const live = liveWith([aLiveMonitor()], { vaultSections: [aLiveSection(), aLiveSection({ Name: 'Old' })], vaultItems: [aLiveItem('Web'), aLiveItem('Old', { Name: 'stale' })] });
    const plan = planFor(desiredWith({ vault: { prune: true } }), live);
    expect(plan.steps.map((s) => [s.action, s.id, s.dependsOn])).toEqual([
      ['delete', 'vaultItem:Old/stale', []],
      ['delete', 'vaultSection:Old', ['vaultItem:Old/stale']],
    ]);
  });
});
