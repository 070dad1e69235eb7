/**
 * What an update sends must be the live object plus exactly the changes the plan shows. A field that a set entry
 * or a nested object leaves out is not compared (schema README, "Set entries"), so it must not be written either:
 * the service keeps only what it is sent for a nested value (PATCH replaces lists and objects whole, PUT the object).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { kindModule, renderJson, type ApiObject, type KindModule, type Plan, type PlanStep } from '../src/index.js';
import { toSetForm } from '../src/plan/diff.js';
import { canonicalJson, escapePointer, isEmptyValue, isPlainObject } from '../src/plan/values.js';
import {
  aGroup,
  aLiveGroup,
  aLiveItem,
  aLiveMonitor,
  aLiveReport,
  aLiveSection,
  aMonitor,
  anItem,
  aReport,
  aSection,
  CANARY,
  desiredState,
  guidFor,
  liveSnapshot,
  planFor,
  secret,
  type DesiredParts,
  type LiveParts,
} from '../src/test-utils/index.js';

const monitorsOnly = { monitors: { prune: false } };

function updateOf(plan: Plan, id: string): PlanStep {
  const step = plan.steps.find((s) => s.id === id);
  if (step === undefined) throw new Error(`no step ${id} in ${plan.steps.map((s) => s.id).join(', ')}`);
  expect(step.action).toBe('update');
  return step;
}

/** The object the service holds after the update: PATCH merges the top level (nested values are replaced), PUT replaces all but read-only fields. */
function serviceAfter(mod: KindModule, live: ApiObject, body: ApiObject): ApiObject {
  if (mod.updateReplaces !== true) return { ...live, ...body };
  const kept: ApiObject = {};
  for (const field of mod.readOnlyFields) if (field in live) kept[field] = live[field];
  return { ...kept, ...body };
}

/** Leaves by JSON pointer, sets keyed as the plan shows them; empty values (`null`, `''`, `[]`, `{}`) count as absent. */
function leaves(value: unknown, mod: KindModule): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (v: unknown, pointer: string): void => {
    if (isEmptyValue(v)) return;
    if (isPlainObject(v)) for (const [k, child] of Object.entries(v)) walk(child, `${pointer}/${escapePointer(k)}`);
    else out.set(pointer, canonicalJson(v));
  };
  walk(toSetForm(value, mod.setFields), '');
  return out;
}

/** Pointers whose value differs between `before` and `after` while no change of `step` covers them. */
function unshownDifferences(mod: KindModule, before: ApiObject, after: ApiObject, step: PlanStep | undefined): string[] {
  const a = leaves(before, mod);
  const b = leaves(after, mod);
  const shown = (step?.changes ?? []).map((c) => c.path);
  const covered = (pointer: string): boolean => shown.some((path) => pointer === path || pointer.startsWith(`${path}/`));
  return [...new Set([...a.keys(), ...b.keys()])].filter((p) => a.get(p) !== b.get(p) && !covered(p)).sort();
}

describe('update bodies keep what the config leaves out', () => {
  it('sends the live Effect of an error condition whose declaration omits it, while the plan shows only the Value change', () => {
    const live = aLiveMonitor({
      ErrorConditions: [
        { ErrorConditionType: 'LoadTimeLimit1', Value: '4', Effect: 'Error' },
        { ErrorConditionType: 'HttpStatus', Value: '200', Effect: 'Indicate' },
      ],
    });
    const desired = desiredState({
      manage: monitorsOnly,
      monitors: [aMonitor({ ErrorConditions: [{ ErrorConditionType: 'LoadTimeLimit1', Value: '3' }, { ErrorConditionType: 'HttpStatus', Value: '200' }] })],
    });
    const plan = planFor(desired, liveSnapshot({ monitors: [live] }));
    const step = updateOf(plan, 'monitor:Shop homepage');
    expect(step.changes).toEqual([{ op: 'replace', path: '/ErrorConditions/LoadTimeLimit1/Value', before: '4', after: '3' }]);
    expect(step.desired?.ErrorConditions).toEqual([
      { ErrorConditionType: 'LoadTimeLimit1', Value: '3', Effect: 'Error' },
      { ErrorConditionType: 'HttpStatus', Value: '200', Effect: 'Indicate' },
    ]);
    // The saved plan (`--out plan.json`, then `apply plan.json`) carries the same body.
    const saved = JSON.parse(renderJson(plan)) as Plan;
    expect(saved.steps.find((s) => s.id === step.id)?.desired?.ErrorConditions).toEqual(step.desired?.ErrorConditions);
  });

  it('keeps the Effect of an untouched entry when the only change is a variable added', () => {
    const live = aLiveMonitor({
      Name: 'Shop checkout',
      ErrorConditions: [{ ErrorConditionType: 'LoadTimeLimit1', Value: '10', Effect: 'Error' }],
      PredefinedVariables: [{ Key: 'login', Value: 'robot' }],
    });
    const desired = desiredState({
      manage: monitorsOnly,
      monitors: [
        aMonitor({
          Name: 'Shop checkout',
          ErrorConditions: [{ ErrorConditionType: 'LoadTimeLimit1', Value: '10' }],
          PredefinedVariables: [{ Key: 'login', Value: 'robot' }, { Key: 'otp', Value: '123' }],
        }),
      ],
    });
    const step = updateOf(planFor(desired, liveSnapshot({ monitors: [live] })), 'monitor:Shop checkout');
    expect(step.changes).toEqual([{ op: 'add', path: '/PredefinedVariables/otp', after: { Key: 'otp', Value: '123' } }]);
    expect(step.desired?.ErrorConditions).toEqual([{ ErrorConditionType: 'LoadTimeLimit1', Value: '10', Effect: 'Error' }]);
  });

  it('still removes a live entry the declared list leaves out, and sends a changed Effect as declared', () => {
    const live = aLiveMonitor({
      ErrorConditions: [
        { ErrorConditionType: 'LoadTimeLimit1', Value: '4', Effect: 'Error' },
        { ErrorConditionType: 'TotalMaxBytes', Value: '5000', Effect: 'Error' },
      ],
    });
    const desired = desiredState({ manage: monitorsOnly, monitors: [aMonitor({ ErrorConditions: [{ ErrorConditionType: 'LoadTimeLimit1', Value: '4', Effect: 'Indicate' }] })] });
    const step = updateOf(planFor(desired, liveSnapshot({ monitors: [live] })), 'monitor:Shop homepage');
    expect(step.changes.map((c) => `${c.op} ${c.path}`)).toEqual(['replace /ErrorConditions/LoadTimeLimit1/Effect', 'remove /ErrorConditions/TotalMaxBytes']);
    expect(step.desired?.ErrorConditions).toEqual([{ ErrorConditionType: 'LoadTimeLimit1', Value: '4', Effect: 'Indicate' }]);
  });

  it('keeps the vault reference of a variable declared without its Value, so a pruned item it refers to is refused up front', () => {
    const itemGuid = guidFor('vaultItem', 'Web/shop-login');
    const live = liveSnapshot({
      monitors: [aLiveMonitor({ IsActive: true, PredefinedVariables: [{ Key: 'login', Value: `{{vault:${itemGuid}}}` }] })],
      vaultSections: [aLiveSection()],
      vaultItems: [aLiveItem('Web')],
    });
    const declared = aMonitor({ IsActive: false, PredefinedVariables: [{ Key: 'login' }] });
    const plan = planFor(desiredState({ manage: monitorsOnly, monitors: [declared] }), live);
    const step = updateOf(plan, 'monitor:Shop homepage');
    expect(step.changes).toEqual([{ op: 'replace', path: '/IsActive', before: true, after: false }]);
    expect(step.desired?.PredefinedVariables).toEqual([{ Key: 'login', Value: `{{vault:${itemGuid}}}` }]);
    // The monitor keeps using the item, so pruning the item cannot work: a problem, not a failed apply.
    const pruning = desiredState({ manage: { monitors: { prune: false }, vault: { prune: true } }, monitors: [declared], vaultSections: [aSection()] });
    expect(() => planFor(pruning, live)).toThrowError(expect.objectContaining({ message: expect.stringMatching(/vaultItem "Web\/shop-login" .* cannot be deleted/) }));
  });

  it('keeps the fields a nested object leaves out (a report schedule without its WeekDay, recipients without some lists)', () => {
    const live = aLiveReport('weekly-exec', {
      Schedule: { ScheduleType: 'Weekly', Time: '08:00:00', WeekDay: 'Monday' },
      Recipients: { Operators: [guidFor('operator', 'sam')], OperatorGroups: [], ExtraEmailAddresses: ['ops@example.com'] },
    });
    const desired = desiredState({
      manage: { scheduledReports: { prune: false } },
      scheduledReports: [aReport({ Schedule: { ScheduleType: 'Weekly', Time: '09:00:00' }, Recipients: { ExtraEmailAddresses: ['ops@example.com'] } })],
    });
    const step = updateOf(planFor(desired, liveSnapshot({ scheduledReports: [live] })), 'scheduledReport:weekly-exec');
    expect(step.changes).toEqual([{ op: 'replace', path: '/Schedule/Time', before: '08:00:00', after: '09:00:00' }]);
    expect(step.desired?.Schedule).toEqual({ ScheduleType: 'Weekly', Time: '09:00:00', WeekDay: 'Monday' });
    expect(step.desired?.Recipients).toEqual({ ExtraEmailAddresses: ['ops@example.com'], Operators: [guidFor('operator', 'sam')], OperatorGroups: [] });
  });

  it('sends the live fields a renamed monitor group leaves out, since its update is a PUT, but never its read-only quotas', () => {
    const live = aLiveGroup({ IsQuotaUnlimited: true, Notes: 'team shop' });
    const desired = desiredState({ manage: { monitorGroups: { prune: false } }, monitorGroups: [aGroup({ Description: 'Shop EU', MonitorGroupGuid: guidFor('monitorGroup', 'Shop') })] });
    const step = updateOf(planFor(desired, liveSnapshot({ monitorGroups: [live] })), 'monitorGroup:Shop EU');
    expect(step.changes).toEqual([{ op: 'replace', path: '/Description', before: 'Shop', after: 'Shop EU' }]);
    expect(step.desired).toEqual({ Description: 'Shop EU', IsQuotaUnlimited: true, Notes: 'team shop' });
  });

  it('never fills a write-only field from the (empty) live value, and keeps secrets out of the plan', () => {
    const live = liveSnapshot({
      vaultSections: [aLiveSection()],
      vaultItems: [aLiveItem('Web', { Name: 'client-cert', VaultItemType: 'CertificateArchive', CertificateArchive: { ArchiveData: '', Password: '', FileName: 'client.pfx' } })],
    });
    const item = anItem({ Name: 'client-cert', VaultItemType: 'CertificateArchive', UserName: undefined, CertificateArchive: { ArchiveData: secret(CANARY, 'PFX'), Password: secret(`${CANARY}-pw`, 'PFX_PW') } });
    const plan = planFor(desiredState({ manage: { vault: { prune: false } }, vaultSections: [aSection({}, [item])] }), live);
    const step = updateOf(plan, 'vaultItem:Web/client-cert');
    expect(step.reason).toBe('no fingerprint marker');
    const archive = step.desired?.CertificateArchive;
    expect(archive).toEqual({ ArchiveData: { sensitive: true, fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) }, Password: { sensitive: true, fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    expect(renderJson(plan)).not.toContain(CANARY);
  });
});

// Property: for random live objects and declarations of the kinds with sets or nested objects, the object the
// service holds after the planned update differs from the live one only where the plan shows a change, and
// planning again against it finds nothing to do.
const conditionTypes = ['LoadTimeLimit1', 'LoadTimeLimit2', 'HttpStatus', 'TotalMaxBytes'] as const;
const condition = fc.record(
  { ErrorConditionType: fc.constantFrom(...conditionTypes), Value: fc.constantFrom('1', '2', '200'), Percentage: fc.constantFrom('5', '10'), Effect: fc.constantFrom('Error', 'Indicate') },
  { requiredKeys: ['ErrorConditionType', 'Value'] },
);
const conditions = fc.uniqueArray(condition, { maxLength: 4, selector: (c) => c.ErrorConditionType });
const variable = fc.record({ Key: fc.constantFrom('login', 'otp', 'query'), Value: fc.constantFrom('a', 'b') }, { requiredKeys: ['Key'] });
const variables = fc.uniqueArray(variable, { maxLength: 3, selector: (v) => v.Key });
const emails = fc.uniqueArray(fc.constantFrom('a@example.com', 'b@example.com'), { maxLength: 2 });
const schedule = fc.record({ ScheduleType: fc.constantFrom('Weekly', 'Daily'), Time: fc.constantFrom('08:00:00', '09:00:00'), WeekDay: fc.constantFrom('Monday', 'Friday') }, { requiredKeys: [] });

interface Case {
  kind: 'monitor' | 'scheduledReport' | 'monitorGroup' | 'vaultSection';
  arbitrary: fc.Arbitrary<{ desired: DesiredParts; live: LiveParts; id: string; liveObject: ApiObject }>;
}

const cases: Case[] = [
  {
    kind: 'monitor',
    arbitrary: fc
      .record({
        live: fc.record({ IsActive: fc.boolean(), ErrorConditions: conditions, PredefinedVariables: variables }),
        declared: fc.record({ IsActive: fc.boolean(), ErrorConditions: conditions, PredefinedVariables: variables }, { requiredKeys: [] }),
      })
      .map(({ live, declared }) => {
        const liveObject = aLiveMonitor(live);
        return { desired: { manage: monitorsOnly, monitors: [aMonitor(declared)] }, live: { monitors: [liveObject] }, id: 'monitor:Shop homepage', liveObject };
      }),
  },
  {
    kind: 'scheduledReport',
    arbitrary: fc
      .record({
        live: fc.record({ FileType: fc.constantFrom('PDFAttachment', 'Html'), Schedule: schedule, Recipients: fc.record({ Operators: emails, ExtraEmailAddresses: emails }) }),
        declared: fc.record(
          { FileType: fc.constantFrom('PDFAttachment', 'Html'), Schedule: schedule, Recipients: fc.record({ Operators: emails, ExtraEmailAddresses: emails }, { requiredKeys: [] }) },
          { requiredKeys: [] },
        ),
      })
      .map(({ live, declared }) => {
        const liveObject = aLiveReport('weekly-exec', live);
        // Undefined fields are not declared: the builder's default schedule and recipients give way to the drawn ones.
        const report = aReport({ Schedule: undefined, Recipients: undefined, ...declared });
        return { desired: { manage: { scheduledReports: { prune: false } }, scheduledReports: [report] }, live: { scheduledReports: [liveObject] }, id: 'scheduledReport:weekly-exec', liveObject };
      }),
  },
  {
    kind: 'monitorGroup',
    arbitrary: fc
      .record({
        live: fc.record({ IsQuotaUnlimited: fc.boolean(), Notes: fc.constantFrom('x', 'y') }, { requiredKeys: ['IsQuotaUnlimited'] }),
        declared: fc.record({ IsQuotaUnlimited: fc.boolean(), Notes: fc.constantFrom('x', 'y') }, { requiredKeys: [] }),
        rename: fc.boolean(),
      })
      .map(({ live, declared, rename }) => {
        const liveObject = aLiveGroup(live);
        const name = rename ? 'Shop EU' : 'Shop';
        return { desired: { manage: { monitorGroups: { prune: false } }, monitorGroups: [aGroup({ ...declared, Description: name, MonitorGroupGuid: guidFor('monitorGroup', 'Shop') })] }, live: { monitorGroups: [liveObject] }, id: `monitorGroup:${name}`, liveObject };
      }),
  },
  {
    kind: 'vaultSection',
    arbitrary: fc.record({ Notes: fc.option(fc.constantFrom('x', 'y'), { nil: undefined }), rename: fc.boolean() }).map(({ Notes, rename }) => {
      const liveObject = aLiveSection(Notes === undefined ? {} : { Notes });
      const name = rename ? 'Web EU' : 'Web';
      return { desired: { manage: { vault: { prune: false } }, vaultSections: [aSection({ Name: name, VaultSectionGuid: guidFor('vaultSection', 'Web') })] }, live: { vaultSections: [liveObject] }, id: `vaultSection:${name}`, liveObject };
    }),
  },
];

describe('an update writes the live object plus exactly the changes the plan shows', () => {
  for (const { kind, arbitrary } of cases) {
    it(`for ${kind}: nothing outside the shown changes differs after the update, and planning again finds nothing`, () => {
      const mod = kindModule(kind);
      fc.assert(
        fc.property(arbitrary, ({ desired, live, id, liveObject }) => {
          const state = desiredState(desired);
          const plan = planFor(state, liveSnapshot(live));
          const step = plan.steps.find((s) => s.id === id);
          const after = step === undefined ? liveObject : serviceAfter(mod, liveObject, step.desired ?? {});
          expect(unshownDifferences(mod, liveObject, after, step)).toEqual([]);
          const again = planFor(state, liveSnapshot({ ...live, [Object.keys(live)[0] as keyof LiveParts]: [after] }));
          expect(again.steps.filter((s) => s.action !== 'ensure')).toEqual([]);
        }),
        { numRuns: 300 },
      );
    });
  }
});
