/**
 * Type tests, run by vitest's typecheck (`vitest.config.ts`): a body the types should refuse is written under
 * `@ts-expect-error`, which fails the run when the types accept it; `expectTypeOf` compares types. Nothing here
 * runs: the values are only declared.
 */
import { describe, expectTypeOf, it } from 'vitest';
import { PresetPeriods } from './index.js';
import type {
  DutyScheduleCreate,
  Monitor,
  MonitorCreate,
  MonitorGroupCreate,
  MonitorPatch,
  MonitorReadOnly,
  MonitorGroupReadOnly,
  OperatorCreate,
  OperatorReadOnly,
  PresetPeriod,
  ScheduledReportCreate,
  SlaCreate,
  SlaExclusionPeriodCreate,
  VaultAuthorizationCreate,
  VaultItemCreate,
  VaultItemPatch,
  VaultItemReadOnly,
  VaultSectionCreate,
 ReadOnlyFields } from './index.js';

describe('read-only fields are rejected in request bodies', () => {
  it('rejects monitor read-only fields in create and patch bodies', () => {
    // @ts-expect-error MonitorGuid is assigned by the service
    const a: MonitorCreate = { Name: 'x', MonitorGuid: 'g' };
    void a;
    // @ts-expect-error CreatedDate is read-only
    const b: MonitorCreate = { Name: 'x', CreatedDate: '2026-01-01T00:00:00' };
    void b;
    // @ts-expect-error LastModifiedByOperatorId is read-only
    const c: MonitorPatch = { LastModifiedByOperatorId: 3 };
    void c;
    const ok: MonitorCreate = { Name: 'x', IsActive: true, SomeFutureField: 1 };
    void ok;
  });

  it('rejects used-quota, IsAll and GUID fields in a group body', () => {
    // @ts-expect-error used-credit fields are read-only
    const a: MonitorGroupCreate = { Description: 'g', UsedApiMonitorQuota: 1 };
    void a;
    // @ts-expect-error MonitorGroupGuid is read-only
    const b: MonitorGroupCreate = { Description: 'g', MonitorGroupGuid: 'x' };
    void b;
  });

  it('rejects VaultItemUsedBy, IsSensitive and GUIDs in vault bodies, and type or section changes in a patch', () => {
    const base = { Name: 'n', VaultSectionGuid: 's', VaultItemType: 'File' } as const;
    // @ts-expect-error VaultItemUsedBy is read-only
    const a: VaultItemCreate = { ...base, VaultItemUsedBy: '-' };
    void a;
    // @ts-expect-error IsSensitive cannot be set
    const b: VaultItemCreate = { ...base, IsSensitive: true };
    void b;
    // @ts-expect-error VaultItemType stays unchanged on PATCH
    const c: VaultItemPatch = { VaultItemType: 'File' };
    void c;
    // @ts-expect-error VaultSectionGuid is read-only
    const d: VaultSectionCreate = { Name: 'n', VaultSectionGuid: 's' };
    void d;
  });

  it('rejects Hash and ids in report and SLA bodies, and IsAccountAdministrator in an operator body', () => {
    // @ts-expect-error Hash is read-only
    const a: SlaCreate = { Description: 'Gold', Hash: 'h' };
    void a;
    // @ts-expect-error ExclusionPeriodId is read-only
    const b: SlaExclusionPeriodCreate = { Description: 'p', From: 'f', Until: 'u', ExclusionPeriodId: 1 };
    void b;
    // @ts-expect-error ScheduledReportGuid is read-only
    const c: ScheduledReportCreate = { DashboardGuid: 'd', FileType: 'HTMLEmail', Schedule: { ScheduleType: 'Daily' }, ScheduledReportGuid: 'r' };
    void c;
    // @ts-expect-error IsAccountAdministrator is read-only
    const d: OperatorCreate = { Email: 'a@example.com', IsAccountAdministrator: true };
    void d;
  });

  it('keeps the ReadOnlyFields table equal to the read-only types', () => {
    expectTypeOf<(typeof ReadOnlyFields.monitor)[number]>().toEqualTypeOf<keyof MonitorReadOnly>();
    expectTypeOf<(typeof ReadOnlyFields.monitorGroup)[number]>().toEqualTypeOf<keyof MonitorGroupReadOnly>();
    expectTypeOf<(typeof ReadOnlyFields.vaultItem)[number]>().toEqualTypeOf<keyof VaultItemReadOnly>();
    expectTypeOf<(typeof ReadOnlyFields.operator)[number]>().toEqualTypeOf<keyof OperatorReadOnly>();
  });
});

describe('other body rules in types', () => {
  it('requires the fields a create needs', () => {
    // @ts-expect-error Name is required to create a monitor
    const a: MonitorCreate = { IsActive: true };
    void a;
    // @ts-expect-error the vault item type is required
    const b: VaultItemCreate = { Name: 'n', VaultSectionGuid: 's' };
    void b;
  });

  it('sends only the duty schedule fields of its mode', () => {
    const weekly: DutyScheduleCreate = { ScheduleMode: 'Weekly', WeekDay: 'Friday', StartTime: '18:00', EndTime: '23:00' };
    void weekly;
    // @ts-expect-error MonthDay belongs to Monthly schedules
    const wrong: DutyScheduleCreate = { ScheduleMode: 'Daily', StartTime: '18:00', EndTime: '23:00', MonthDay: 3 };
    void wrong;
  });

  it('needs exactly one of OperatorGuid and OperatorGroupId in a vault authorization', () => {
    const ok: VaultAuthorizationCreate = { AuthorizationType: 'ViewVaultSection', OperatorGuid: 'o' };
    void ok;
    // @ts-expect-error neither is set
    const neither: VaultAuthorizationCreate = { AuthorizationType: 'ViewVaultSection' };
    void neither;
  });

  it('forbids the obsolete Sensitive flag on monitor variables', () => {
    // @ts-expect-error Sensitive must not be sent
    const m: MonitorCreate = { Name: 'x', PredefinedVariables: [{ Key: 'k', Value: 'v', Sensitive: true }] };
    void m;
  });

  it('types a read monitor with the fields every reader receives', () => {
    expectTypeOf<Monitor['MonitorGuid']>().toEqualTypeOf<string>();
    expectTypeOf<Monitor['IsActive']>().toEqualTypeOf<boolean>();
  });
});

describe('enumeration constants', () => {
  it('keeps literal types', () => {
    expectTypeOf(PresetPeriods.PreviousDay).toEqualTypeOf<'PreviousDay'>();
    expectTypeOf<'PreviousDay'>().toExtend<PresetPeriod>();
  });
});
