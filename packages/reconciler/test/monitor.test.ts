import { describe, expect, it } from 'vitest';
import { PlanError, type PlanStep } from '../src/index.js';
import {
  aLiveItem,
  aLiveMonitor,
  aLiveSection,
  aMonitor,
  anItem,
  aSection,
  desiredState,
  guidFor,
  liveSnapshot,
  OTHER_OPERATOR,
  planFor,
  SELF_OPERATOR,
} from '../src/test-utils/index.js';

const monitorsOnly = (prune: boolean) => ({ monitors: { prune } });

function only(steps: PlanStep[]): PlanStep {
  expect(steps).toHaveLength(1);
  const [step] = steps;
  if (step === undefined) throw new Error('no step');
  return step;
}

describe('monitor kind', () => {
  it('creates a declared monitor that is not in the account, with its source and body', () => {
    const desired = desiredState({ manage: monitorsOnly(false), monitors: [aMonitor({ Name: 'Shop homepage', IsActive: false }, { file: 'monitors/shop.yaml', line: 3, column: 5 })] });
    const plan = planFor(desired, liveSnapshot());
    const step = only(plan.steps);
    expect(step).toMatchObject({ id: 'monitor:Shop homepage', action: 'create', kind: 'monitor', key: 'Shop homepage', source: { file: 'monitors/shop.yaml', line: 3, column: 5 } });
    expect(step.guid).toBeUndefined();
    expect(step.desired).toEqual({ Name: 'Shop homepage', MonitorType: 'Https', IsActive: false });
    expect(step.changes).toEqual([
      { op: 'add', path: '/IsActive', after: false },
      { op: 'add', path: '/MonitorType', after: 'Https' },
      { op: 'add', path: '/Name', after: 'Shop homepage' },
    ]);
    expect(plan.summary).toEqual({ create: 1, update: 0, delete: 0, ensure: 0, unchanged: 0, unmanaged: 0 });
  });

  it('updates only the field that differs, with before and after', () => {
    const desired = desiredState({ manage: monitorsOnly(false), monitors: [aMonitor({ IsActive: false })] });
    const plan = planFor(desired, liveSnapshot({ monitors: [aLiveMonitor()] }));
    const step = only(plan.steps);
    expect(step).toMatchObject({ action: 'update', guid: guidFor('monitor', 'Shop homepage') });
    expect(step.changes).toEqual([{ op: 'replace', path: '/IsActive', before: true, after: false }]);
    expect(step.desired).toEqual({ Name: 'Shop homepage', MonitorType: 'Https', IsActive: false });
  });

  it('deletes an undeclared live monitor when prune is on', () => {
    const live = liveSnapshot({ monitors: [aLiveMonitor(), aLiveMonitor({ Name: 'Old' }), aLiveMonitor({ Name: 'Kept 1' }), aLiveMonitor({ Name: 'Kept 2' })] });
    const desired = desiredState({ manage: monitorsOnly(true), monitors: [aMonitor(), aMonitor({ Name: 'Kept 1' }), aMonitor({ Name: 'Kept 2' })] });
    const plan = planFor(desired, live);
    const step = only(plan.steps);
    expect(step).toMatchObject({ id: 'monitor:Old', action: 'delete', guid: guidFor('monitor', 'Old'), changes: [] });
    expect(plan.unmanaged).toEqual([]);
    expect(plan.safe).toBe(true);
  });

  it('lists an undeclared live monitor as unmanaged when prune is off, and plans nothing for it', () => {
    const live = liveSnapshot({ monitors: [aLiveMonitor(), aLiveMonitor({ Name: 'Old' })] });
    const plan = planFor(desiredState({ manage: monitorsOnly(false), monitors: [aMonitor()] }), live);
    expect(plan.steps).toEqual([]);
    expect(plan.unmanaged).toEqual([{ kind: 'monitor', key: 'Old', guid: guidFor('monitor', 'Old') }]);
    expect(plan.summary.unmanaged).toBe(1);
  });

  it('plans nothing for a monitor that matches', () => {
    const plan = planFor(desiredState({ manage: monitorsOnly(true), monitors: [aMonitor({ IsActive: true })] }), liveSnapshot({ monitors: [aLiveMonitor()] }));
    expect(plan.steps).toEqual([]);
    expect(plan.summary.unchanged).toBe(1);
  });

  it('plans zero changes when live differs only by server defaults, read-only fields, set order, numeric strings and timestamps', () => {
    const desired = desiredState({
      manage: monitorsOnly(true),
      monitors: [
        aMonitor({
          Name: 'API health',
          MonitorType: 'Https',
          CheckFrequency: 5,
          ErrorConditions: [
            { ErrorConditionType: 'LoadTimeLimit1', Value: '4', Effect: 'Error' },
            { ErrorConditionType: 'HttpStatus', Value: '200' },
          ],
          PredefinedVariables: [
            { Key: 'b', Value: 'two' },
            { Key: 'a', Value: 'one' },
          ],
          Tags: [],
          Notes: null,
          MaintenanceFrom: '2026-03-01T10:00:00',
        }),
      ],
    });
    const live = aLiveMonitor({
      Name: 'API health',
      CheckFrequency: '5',
      ErrorConditions: [
        { ErrorConditionType: 'HttpStatus', Value: '200', Percentage: '', Effect: 'Error' },
        { ErrorConditionType: 'LoadTimeLimit1', Value: 4, Percentage: '', Effect: 'Error' },
      ],
      PredefinedVariables: [
        { Key: 'a', Value: 'one' },
        { Key: 'b', Value: 'two' },
      ],
      Notes: '',
      MaintenanceFrom: '2026-03-01T10:00:00.000Z',
      SomeFieldTheServiceAdded: { nested: true },
    });
    delete live.Tags;
    const plan = planFor(desired, liveSnapshot({ monitors: [live] }));
    expect(plan.steps).toEqual([]);
    expect(plan.summary.unchanged).toBe(1);
  });

  it('addresses error conditions by type and variables by key in field changes', () => {
    const desired = desiredState({
      manage: monitorsOnly(false),
      monitors: [aMonitor({ ErrorConditions: [{ ErrorConditionType: 'HttpStatus', Value: '204' }], PredefinedVariables: [{ Key: 'a', Value: 'one' }] })],
    });
    const live = aLiveMonitor({
      ErrorConditions: [
        { ErrorConditionType: 'HttpStatus', Value: '200' },
        { ErrorConditionType: 'TotalMaxBytes', Value: '4' },
      ],
      PredefinedVariables: [{ Key: 'a', Value: 'one' }],
    });
    const step = only(planFor(desired, liveSnapshot({ monitors: [live] })).steps);
    expect(step.changes).toEqual([
      { op: 'replace', path: '/ErrorConditions/HttpStatus/Value', before: '200', after: '204' },
      { op: 'remove', path: '/ErrorConditions/TotalMaxBytes', before: { ErrorConditionType: 'TotalMaxBytes', Value: '4' } },
    ]);
    expect(step.desired?.ErrorConditions).toEqual([{ ErrorConditionType: 'HttpStatus', Value: '204' }]);
  });

  it('treats a field the config omits as unmanaged, whatever the live value', () => {
    const live = aLiveMonitor({ IsActive: false, GenerateAlert: false, UserAgent: 'EdgeLatest' });
    const plan = planFor(desiredState({ manage: monitorsOnly(false), monitors: [aMonitor()] }), liveSnapshot({ monitors: [live] }));
    expect(plan.steps).toEqual([]);
  });

  it('resolves a vault reference to the live item GUID', () => {
    const desired = desiredState({
      manage: { monitors: { prune: false } },
      monitors: [aMonitor({ PredefinedVariables: [{ Key: 'login', Value: { vault: 'Web/shop-login' } }] })],
      vaultSections: [aSection({}, [anItem()])],
    });
    const item = guidFor('vaultItem', 'Web/shop-login');
    const live = liveSnapshot({ monitors: [aLiveMonitor({ PredefinedVariables: [{ Key: 'login', Value: `{{vault:${item}}}` }] })], vaultSections: [aLiveSection()], vaultItems: [aLiveItem('Web')] });
    expect(planFor(desired, live).steps).toEqual([]);
  });

  it('writes a placeholder and depends on the item create when the referenced vault item is new', () => {
    const desired = desiredState({
      manage: { monitors: { prune: false }, vault: { prune: false } },
      monitors: [aMonitor({ PredefinedVariables: [{ Key: 'login', Value: { vault: 'Web/shop-login' } }] })],
      vaultSections: [aSection({}, [anItem()])],
    });
    const plan = planFor(desired, liveSnapshot({ vaultSections: [aLiveSection()] }));
    const monitor = plan.steps.find((s) => s.kind === 'monitor');
    expect(monitor?.desired?.PredefinedVariables).toEqual([{ Key: 'login', Value: '{{vault:Web/shop-login}}' }]);
    expect(monitor?.dependsOn).toEqual(['vaultItem:Web/shop-login']);
    expect(plan.steps.map((s) => s.id)).toEqual(['vaultItem:Web/shop-login', 'monitor:Shop homepage']);
  });

  it('refuses a vault reference that names nothing, with the file position', () => {
    const desired = desiredState({
      manage: monitorsOnly(false),
      monitors: [aMonitor({ PredefinedVariables: [{ Key: 'login', Value: { vault: 'Web/missing' } }] }, { file: 'monitors/shop.yaml', line: 7, column: 9 })],
    });
    const error = (() => {
      try {
        planFor(desired, liveSnapshot({ vaultSections: [aLiveSection()] }));
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(PlanError);
    expect((error as PlanError).code).toBe('UNRESOLVED_REFERENCE');
    expect((error as PlanError).message).toContain('monitors/shop.yaml:7:9: monitor "Shop homepage" refers to vaultItem "Web/missing"');
  });

  it('attributes an update to the operator who last changed the monitor outside git', () => {
    const live = aLiveMonitor({ IsActive: false, LastModifiedByOperatorId: OTHER_OPERATOR, LastModifiedDate: '2026-02-03T04:05:06' });
    const step = only(planFor(desiredState({ manage: monitorsOnly(false), monitors: [aMonitor({ IsActive: true })] }), liveSnapshot({ monitors: [live] })).steps);
    expect(step.drift).toEqual({ lastModifiedDate: '2026-02-03T04:05:06', lastModifiedByOperatorId: OTHER_OPERATOR, operatorName: 'Jane Doe' });
  });

  it('does not attribute drift when the API account made the last change', () => {
    const live = aLiveMonitor({ IsActive: false, LastModifiedByOperatorId: SELF_OPERATOR });
    const step = only(planFor(desiredState({ manage: monitorsOnly(false), monitors: [aMonitor({ IsActive: true })] }), liveSnapshot({ monitors: [live] })).steps);
    expect(step.drift).toBeUndefined();
  });

  it('names the operator by id when operators could not be read', () => {
    const live = aLiveMonitor({ IsActive: false, LastModifiedByOperatorId: OTHER_OPERATOR });
    const step = only(planFor(desiredState({ manage: monitorsOnly(false), monitors: [aMonitor({ IsActive: true })] }), liveSnapshot({ monitors: [live], operators: null })).steps);
    expect(step.drift).toEqual({ lastModifiedDate: '2026-01-02T00:00:00', lastModifiedByOperatorId: OTHER_OPERATOR });
  });

  it('refuses to plan when two live monitors share a declared name, naming both GUIDs, their dates, and the ways out', () => {
    const a = aLiveMonitor({ MonitorGuid: '11111111-1111-4111-8111-111111111111' });
    const b = aLiveMonitor({ MonitorGuid: '22222222-2222-4222-8222-222222222222' });
    const run = () => planFor(desiredState({ manage: monitorsOnly(false), monitors: [aMonitor({}, { file: 'm.yaml', line: 2, column: 3 })] }), liveSnapshot({ monitors: [a, b] }));
    expect(run).toThrow(PlanError);
    expect(run).toThrow(
      /m\.yaml:2:3: 2 live monitors have the key "Shop homepage": 11111111-1111-4111-8111-111111111111 \(created [^)]+\); 22222222-2222-4222-8222-222222222222 \(created [^)]+\)\. Run monsync plan --dedupe to plan keeping the oldest \(11111111-1111-4111-8111-111111111111, the oldest by CreatedDate\) and deleting the others, or add "MonitorGuid: 11111111/,
    );
    try {
      run();
    } catch (e) {
      expect((e as PlanError).code).toBe('DUPLICATE_LIVE_KEY');
    }
  });

  it('with dedupe keeps the oldest of two live monitors sharing a declared name, by CreatedDate, and deletes the other even without prune', () => {
    const older = aLiveMonitor({ MonitorGuid: '22222222-2222-4222-8222-222222222222', CreatedDate: '2026-01-01T00:00:00' });
    const newer = aLiveMonitor({ MonitorGuid: '11111111-1111-4111-8111-111111111111', CreatedDate: '2026-02-01T00:00:00' });
    const desired = desiredState({ manage: monitorsOnly(false), monitors: [aMonitor()], safety: { maxDeletePercent: 100 } });
    const plan = planFor(desired, liveSnapshot({ monitors: [newer, older] }), { dedupe: true });
    expect(plan.steps).toMatchObject([
      { action: 'delete', guid: '11111111-1111-4111-8111-111111111111', reason: 'duplicate (plan --dedupe): the account keeps 22222222-2222-4222-8222-222222222222 (the oldest by CreatedDate)' },
    ]);
    expect(plan.summary).toMatchObject({ delete: 1, unchanged: 1, unmanaged: 0 });
  });

  it('matches a pinned GUID whatever the live name, planning a rename', () => {
    const guid = guidFor('monitor', 'Old name');
    const desired = desiredState({ manage: monitorsOnly(true), monitors: [aMonitor({ Name: 'New name', MonitorGuid: guid })] });
    const step = only(planFor(desired, liveSnapshot({ monitors: [aLiveMonitor({ Name: 'Old name' })] })).steps);
    expect(step).toMatchObject({ action: 'update', key: 'New name', guid, reason: 'pinned GUID rename' });
    expect(step.changes).toEqual([{ op: 'replace', path: '/Name', before: 'Old name', after: 'New name' }]);
    expect(step.desired).not.toHaveProperty('MonitorGuid');
  });

  it('never touches or reports a monitor matching an ignore pattern', () => {
    const live = liveSnapshot({ monitors: [aLiveMonitor(), aLiveMonitor({ Name: 'legacy-ftp' })] });
    const plan = planFor(desiredState({ manage: monitorsOnly(true), ignore: ['monitor:legacy-*'], monitors: [aMonitor()] }), live);
    expect(plan.steps).toEqual([]);
    expect(plan.unmanaged).toEqual([]);
    expect(plan.warnings).toEqual([]);
  });

  it('drops spaces around the kind and the glob of an ignore pattern', () => {
    const live = liveSnapshot({ monitors: [aLiveMonitor(), aLiveMonitor({ Name: 'legacy-ftp' })] });
    const plan = planFor(desiredState({ manage: monitorsOnly(true), ignore: [' monitor : legacy-* '], monitors: [aMonitor()] }), live);
    expect(plan.steps).toEqual([]);
    expect(plan.warnings).toEqual([]);
  });

  it('warns IGNORE_UNMATCHED for a pattern that matches nothing, pointing at a match that differs only in case', () => {
    const live = liveSnapshot({ monitors: [aLiveMonitor(), aLiveMonitor({ Name: 'legacy-ftp' }), aLiveMonitor({ Name: 'keep-me' })] });
    const plan = planFor(desiredState({ manage: monitorsOnly(true), safety: { maxDeletePercent: 100 }, ignore: ['monitor:Legacy-*', 'monitor:old-*', 'monitor:keep-*'], monitors: [aMonitor()] }), live);
    // The typo hides nothing, so prune deletes the object it was meant to hide: the warning says so.
    expect(plan.steps.map((s) => `${s.action} ${s.key}`)).toEqual(['delete legacy-ftp']);
    expect(plan.warnings).toEqual([
      {
        code: 'IGNORE_UNMATCHED',
        kind: 'monitor',
        message:
          'ignore pattern "monitor:Legacy-*" matches no monitor in the account or the config, so it hides nothing; it would match "legacy-ftp" if case were ignored, ' +
          'but patterns are case-sensitive; an object it was meant to hide is planned like any other (deleted with prune)',
      },
      { code: 'IGNORE_UNMATCHED', kind: 'monitor', message: expect.stringMatching(/^ignore pattern "monitor:old-\*" matches no monitor in the account or the config, so it hides nothing; an object/) },
    ]);
  });

  it('counts a pattern matching only a declared object as used, and does not judge patterns of kinds that were not read', () => {
    const plan = planFor(desiredState({ manage: monitorsOnly(false), ignore: ['monitor:draft-*', 'sla:Gold'], monitors: [aMonitor({ Name: 'draft-1' })] }), liveSnapshot());
    expect(plan.warnings.map((w) => w.code)).toEqual(['IGNORED_DECLARATION']);
  });
});
