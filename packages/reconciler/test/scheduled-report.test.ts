import { describe, expect, it } from 'vitest';
import { PlanError } from '../src/plan/errors.js';
import { aLiveAlertDefinition, aLiveReport, anAlertDefinition, aReport, desiredState, guidFor, liveSnapshot, planFor } from '../src/test-utils/index.js';

const reportsOnly = (prune: boolean) => ({ scheduledReports: { prune } });

describe('scheduledReport kind', () => {
  it('refuses to plan declared reports from a listing without InternalNotes (a non-administrator), which would create them all again', () => {
    const { InternalNotes: _hidden, ...viewed } = aLiveReport('weekly-exec');
    const desired = desiredState({ manage: reportsOnly(false), scheduledReports: [aReport()] });
    const run = () => planFor(desired, liveSnapshot({ scheduledReports: [viewed] }));
    expect(run).toThrow(PlanError);
    expect(run).toThrow(/the API account reads 1 scheduled report without InternalNotes, which only account administrators see; .* Use the API account of an account administrator/);
    expect(() => run()).toThrowError(expect.objectContaining({ code: 'LIVE_RESTRICTED' }));
    // An empty InternalNotes is an administrator's view of a report with no notes, and no declared report needs the markers.
    expect(planFor(desired, liveSnapshot({ scheduledReports: [{ ...viewed, InternalNotes: '' }] })).steps.map((s) => s.action)).toEqual(['create']);
    expect(planFor(desiredState({ manage: reportsOnly(false) }), liveSnapshot({ scheduledReports: [viewed] })).unmanaged).toHaveLength(1);
  });

  it('creates a report with its key marker at the end of InternalNotes', () => {
    const plan = planFor(desiredState({ manage: reportsOnly(false), scheduledReports: [aReport({ InternalNotes: 'Exec summary' })] }), liveSnapshot());
    expect(plan.steps).toMatchObject([{ id: 'scheduledReport:weekly-exec', action: 'create', desired: { InternalNotes: 'Exec summary\nmonsync:key=weekly-exec' } }]);
    expect(plan.steps[0]?.changes).toContainEqual({ op: 'add', path: '/InternalNotes', after: 'Exec summary' });
  });

  it('matches a report by its key marker and updates a field, keeping the marker', () => {
    const live = liveSnapshot({ scheduledReports: [aLiveReport('weekly-exec', { InternalNotes: 'Notes for admins\nmonsync:key=weekly-exec' })] });
    const plan = planFor(desiredState({ manage: reportsOnly(false), scheduledReports: [aReport({ FileType: 'Html' })] }), live);
    expect(plan.steps).toMatchObject([
      {
        action: 'update',
        guid: guidFor('scheduledReport', 'weekly-exec'),
        changes: [{ op: 'replace', path: '/FileType', before: 'PDFAttachment', after: 'Html' }],
        desired: { FileType: 'Html', InternalNotes: 'Notes for admins\nmonsync:key=weekly-exec' },
      },
    ]);
  });

  it('compares recipients as sets and keeps undeclared recipient lists on write', () => {
    const desired = desiredState({ manage: reportsOnly(false), scheduledReports: [aReport({ Recipients: { ExtraEmailAddresses: ['b@example.com', 'a@example.com'] } })] });
    const operators = [guidFor('operator', 'x')];
    const same = liveSnapshot({ scheduledReports: [aLiveReport('weekly-exec', { Recipients: { Operators: operators, OperatorGroups: [], ExtraEmailAddresses: ['a@example.com', 'b@example.com'] } })] });
    expect(planFor(desired, same).steps).toEqual([]);

    const other = liveSnapshot({ scheduledReports: [aLiveReport('weekly-exec', { Recipients: { Operators: operators, ExtraEmailAddresses: ['a@example.com'] } })] });
    const [step] = planFor(desired, other).steps;
    expect(step?.changes).toEqual([{ op: 'replace', path: '/Recipients/ExtraEmailAddresses', before: ['a@example.com'], after: ['a@example.com', 'b@example.com'] }]);
    expect(step?.desired?.Recipients).toEqual({ Operators: operators, ExtraEmailAddresses: ['b@example.com', 'a@example.com'] });
  });

  it('adopts an unkeyed report pinned by GUID with no change, and writes its key marker with its next update', () => {
    const guid = guidFor('scheduledReport', 'unkeyed');
    const live = liveSnapshot({ scheduledReports: [aLiveReport(undefined, { InternalNotes: 'made by hand' })] });
    expect(planFor(desiredState({ manage: reportsOnly(true), scheduledReports: [aReport({ ScheduledReportGuid: guid, InternalNotes: 'made by hand' })] }), live).steps).toEqual([]);
    const plan = planFor(desiredState({ manage: reportsOnly(true), scheduledReports: [aReport({ ScheduledReportGuid: guid, InternalNotes: 'made by hand', Notes: 'changed' })] }), live);
    expect(plan.steps).toMatchObject([{ action: 'update', guid, changes: [{ op: 'replace', path: '/Notes' }], desired: { InternalNotes: 'made by hand\nmonsync:key=weekly-exec' } }]);
  });

  it('deletes an undeclared report with prune, named by its key', () => {
    const live = liveSnapshot({ scheduledReports: [aLiveReport('weekly-exec'), aLiveReport('old'), aLiveReport('a'), aLiveReport('b')] });
    const plan = planFor(desiredState({ manage: reportsOnly(true), scheduledReports: [aReport(), aReport({ key: 'a' }), aReport({ key: 'b' })] }), live);
    expect(plan.steps.map((s) => [s.action, s.id])).toEqual([['delete', 'scheduledReport:old']]);
  });

  it('lists undeclared reports as unmanaged without prune, with a stand-in key when unmarked', () => {
    const live = liveSnapshot({ scheduledReports: [aLiveReport('weekly-exec'), aLiveReport(undefined)] });
    const plan = planFor(desiredState({ manage: reportsOnly(false), scheduledReports: [aReport()] }), live);
    const guid = guidFor('scheduledReport', 'unkeyed');
    expect(plan.unmanaged).toEqual([{ kind: 'scheduledReport', key: `(no key) ${guid}`, guid }]);
  });

  it('plans zero changes when live differs only by Hash, IsActive default, marker, unmanaged fields and list order', () => {
    const live = aLiveReport('weekly-exec', {
      Hash: 'other',
      InternalNotes: 'monsync:key=weekly-exec\n',
      Schedule: { ScheduleType: 'Weekly', Time: '08:00:00', WeekDay: 'Monday', MonthDay: null },
      Recipients: { Operators: null, OperatorGroups: [], ExtraEmailAddresses: ['ops@example.com'] },
    });
    const plan = planFor(desiredState({ manage: reportsOnly(true), scheduledReports: [aReport()] }), liveSnapshot({ scheduledReports: [live] }));
    expect(plan.steps).toEqual([]);
    expect(plan.summary.unchanged).toBe(1);
  });
});

describe('alertDefinition kind', () => {
  it('diffs a definition like every other kind: an update of what differs, nothing to ensure', () => {
    const plan = planFor(desiredState({ manage: { alertDefinitions: { prune: false } }, alertDefinitions: [anAlertDefinition({ IsActive: false })] }), liveSnapshot({ alertDefinitions: [aLiveAlertDefinition()] }));
    expect(plan.steps).toEqual([expect.objectContaining({ id: 'alertDefinition:Default alerting', action: 'update', changes: [{ op: 'replace', path: '/IsActive', before: true, after: false }] })]);
    expect(plan.summary).toMatchObject({ ensure: 0, create: 0, update: 1 });
    const same = planFor(desiredState({ manage: { alertDefinitions: { prune: false } }, alertDefinitions: [anAlertDefinition()] }), liveSnapshot({ alertDefinitions: [aLiveAlertDefinition()] }));
    expect(same.steps).toEqual([]);
  });

  it('adopts a definition by its name whatever its case, and keeps the older form pinned by GUID', () => {
    const live = liveSnapshot({ alertDefinitions: [aLiveAlertDefinition({ AlertName: 'DEFAULT alerting' })] });
    expect(planFor(desiredState({ manage: { alertDefinitions: { prune: false } }, alertDefinitions: [anAlertDefinition()] }), live).steps.map((s) => `${s.action} ${s.id}`)).toEqual(['update alertDefinition:Default alerting']);
    const guid = guidFor('alertDefinition', 'DEFAULT alerting');
    const older = planFor(desiredState({ manage: { alertDefinitions: { prune: false } }, alertDefinitions: [anAlertDefinition({ AlertName: undefined, AlertDefinitionGuid: guid, IsActive: false })] }), live);
    expect(older.steps).toEqual([expect.objectContaining({ action: 'update', guid, changes: [{ op: 'replace', path: '/IsActive', before: true, after: false }] })]);
  });

  it('creates after every other kind and deletes an undeclared definition with prune', () => {
    const plan = planFor(
      desiredState({ manage: { alertDefinitions: { prune: true }, scheduledReports: { prune: false } }, safety: { maxDeletePercent: 100 }, alertDefinitions: [anAlertDefinition({ AlertName: 'Shop on-call' })], scheduledReports: [aReport()] }),
      liveSnapshot({ alertDefinitions: [aLiveAlertDefinition()] }),
    );
    expect(plan.steps.map((s) => `${s.action} ${s.id}`)).toEqual(['create scheduledReport:weekly-exec', 'create alertDefinition:Shop on-call', 'delete alertDefinition:Default alerting']);
  });
});
