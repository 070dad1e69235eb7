/**
 * In-memory builders for tests (the shape of changesets' assemble-release-plan test-utils): desired entries as
 * the schema package would produce them, live objects as the service returns them (server defaults, read-only
 * fields, numeric strings), and a snapshot to plan against. No HTTP.
 */
import { createHash } from 'node:crypto';
import { DEFAULT_SAFETY } from '@monsync/schema';
import type {
  AlertDefinitionConfig,
  Declared,
  DesiredState,
  ExclusionPeriodConfig,
  MonitorConfig,
  MonitorGroupConfig,
  OperatorConfig,
  OperatorGroupConfig,
  RumWebsiteConfig,
  ScheduledReportConfig,
  SecretValue,
  Settings,
  SlaConfig,
  SourceRef,
  VaultItemConfig,
  VaultSectionConfig,
} from '../desired.js';
import type { ApiObject, LiveSnapshot } from '../live/types.js';
import { KINDS } from '../kinds/index.js';
import { assemblePlan, type PlanOptions } from '../plan/assemble.js';
import { ignoreMatcher } from '../plan/ignore.js';
import { matchKinds, type Matched, type MatchOptions } from '../plan/phases/match.js';
import { liveScope } from '../plan/scope.js';
import { fingerprintDesiredSecrets } from '../plan/fingerprint.js';
import { combineFingerprints, fingerprintValue } from '../plan/secrets.js';
import { PLAN_FORMAT_VERSION, type Plan, type StepKind } from '../plan/types.js';

export const FINGERPRINT_KEY = 'test-fingerprint-key';
export const SELF_OPERATOR = '0a000000-0000-4000-8000-000000000001';
export const OTHER_OPERATOR = '0a000000-0000-4000-8000-000000000002';
export const CANARY = 'CANARY-7f3a9c';

/** Deterministic GUID from a name, so golden files and assertions stay stable. */
export function guidFor(kind: string, name: string): string {
  const hex = createHash('sha256').update(`${kind}\u0000${name}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A source position in `file`; without a line, one derived from `seed`, so positions are stable in golden files. */
export function at(file: string, seed = '', l?: number): SourceRef {
  const derived = (parseInt(createHash('sha256').update(seed).digest('hex').slice(0, 6), 16) % 90) + 2;
  return { file, line: l ?? derived, column: 5 };
}

function nameOf(fields: Record<string, unknown>, field: string, fallback: string): string {
  const value = fields[field];
  return typeof value === 'string' ? value : fallback;
}

/** Stands in for the schema package's `Secret`: reveals its value only through `reveal()`. */
export class TestSecret implements SecretValue {
  readonly #value: string;
  readonly #name: string;

  constructor(value: string, name = 'TEST_SECRET') {
    this.#value = value;
    this.#name = name;
  }

  describe(): string {
    return `env ${this.#name}`;
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return '[redacted]';
  }

  toJSON(): string {
    return '[redacted]';
  }
}

export function secret(value: string, name?: string): TestSecret {
  return new TestSecret(value, name);
}

/** The marker (in `Notes`) of a vault item whose secrets were written with these values under `FINGERPRINT_KEY`. */
export function markerFor(secrets: Record<string, string>): string {
  const parts = Object.entries(secrets).map(([pointer, value]) => ({ pointer, fingerprint: fingerprintValue(value, FINGERPRINT_KEY) }));
  return `monsync:fp=${combineFingerprints(parts)}`;
}

/** Builders accept any fields, so tests can also declare what the schema would reject or coerce. */
type Fields<_T> = Record<string, unknown>;

export function aMonitor(fields: Fields<MonitorConfig> = {}, source: SourceRef = at('monitors.yaml', nameOf(fields, 'Name', 'Shop homepage'))): Declared<MonitorConfig> {
  return { value: { Name: 'Shop homepage', MonitorType: 'Https', ...fields } as MonitorConfig, source };
}

/** A monitor as GET /Monitor returns it: defaults filled, read-only fields set, last changed by the API account. */
export function aLiveMonitor(fields: Record<string, unknown> = {}): ApiObject {
  const name = typeof fields.Name === 'string' ? fields.Name : 'Shop homepage';
  return {
    MonitorGuid: guidFor('monitor', name),
    Name: name,
    MonitorType: 'Https',
    MonitorMode: 'Production',
    IsActive: true,
    GenerateAlert: true,
    UserAgent: 'ChromeLatest',
    ErrorConditions: [],
    PredefinedVariables: [],
    CreatedDate: '2026-01-01T00:00:00',
    LastModifiedDate: '2026-01-02T00:00:00',
    LastModifiedByOperatorId: SELF_OPERATOR,
    ...fields,
  };
}

export function aGroup(fields: Fields<MonitorGroupConfig> = {}, source: SourceRef = at('groups.yaml', nameOf(fields, 'Description', 'Shop'))): Declared<MonitorGroupConfig> {
  return { value: { Description: 'Shop', ...fields } as MonitorGroupConfig, source };
}

export function aLiveGroup(fields: Record<string, unknown> = {}): ApiObject {
  const description = typeof fields.Description === 'string' ? fields.Description : 'Shop';
  return {
    MonitorGroupGuid: guidFor('monitorGroup', description),
    Description: description,
    IsAll: false,
    IsQuotaUnlimited: false,
    UsedBasicMonitorQuota: 1,
    UsedBrowserMonitorQuota: 0,
    UsedTransactionMonitorQuota: 0,
    UsedApiMonitorQuota: 0,
    UsedClassicQuota: 0,
    ...fields,
  };
}

export const ALL_MONITORS_GROUP: ApiObject = { MonitorGroupGuid: guidFor('monitorGroup', 'All Monitors'), Description: 'All Monitors', IsAll: true };

export function anItem(fields: Fields<VaultItemConfig> = {}, source: SourceRef = at('vault.yaml', nameOf(fields, 'Name', 'shop-login'))): Declared<VaultItemConfig> {
  return { value: { Name: 'shop-login', VaultItemType: 'CredentialSet', UserName: 'robot', ...fields } as VaultItemConfig, source };
}

export function aSection(fields: Fields<VaultSectionConfig> = {}, items: Declared<VaultItemConfig>[] = [], source: SourceRef = at('vault.yaml', nameOf(fields, 'Name', 'Web'))): Declared<VaultSectionConfig> {
  return { value: { Name: 'Web', ...fields, items } as VaultSectionConfig, source };
}

export function anOperator(fields: Fields<OperatorConfig> = {}, source: SourceRef = at('people.yaml', nameOf(fields, 'Email', 'sam@example.com'))): Declared<OperatorConfig> {
  return { value: { Email: 'sam@example.com', ...fields } as OperatorConfig, source };
}

export function anOperatorGroup(fields: Fields<OperatorGroupConfig> = {}, source: SourceRef = at('people.yaml', nameOf(fields, 'Description', 'On call'))): Declared<OperatorGroupConfig> {
  return { value: { Description: 'On call', ...fields } as OperatorGroupConfig, source };
}

export function aLiveSection(fields: Record<string, unknown> = {}): ApiObject {
  const name = typeof fields.Name === 'string' ? fields.Name : 'Web';
  return { VaultSectionGuid: guidFor('vaultSection', name), Name: name, ...fields };
}

/** A vault item as the service returns it: secret fields empty, `IsSensitive` and `VaultItemUsedBy` filled. */
export function aLiveItem(section: string, fields: Record<string, unknown> = {}): ApiObject {
  const name = typeof fields.Name === 'string' ? fields.Name : 'shop-login';
  return {
    VaultItemGuid: guidFor('vaultItem', `${section}/${name}`),
    VaultSectionGuid: guidFor('vaultSection', section),
    Name: name,
    VaultItemType: 'CredentialSet',
    UserName: 'robot',
    Password: '',
    Value: '',
    IsSensitive: true,
    Notes: '',
    VaultItemUsedBy: '-',
    ...fields,
  };
}

export function anSla(fields: Fields<SlaConfig> = {}, source: SourceRef = at('slas.yaml', nameOf(fields, 'Description', 'Gold'))): Declared<SlaConfig> {
  return { value: { Description: 'Gold', UptimeErrorThreshold: 99.5, UptimeWarningThreshold: 99.9, ...fields } as SlaConfig, source };
}

export function aLiveSla(fields: Record<string, unknown> = {}): ApiObject {
  const description = typeof fields.Description === 'string' ? fields.Description : 'Gold';
  return {
    SlaGuid: guidFor('sla', description),
    Hash: 'h-1',
    Description: description,
    UptimeErrorThreshold: 99.5,
    UptimeWarningThreshold: 99.9,
    LoadTimeErrorThreshold: 0,
    OperatorReponseTimeThreshold: 0,
    ...fields,
  };
}

export function aPeriod(fields: Fields<ExclusionPeriodConfig> = {}, source: SourceRef = at('slas.yaml', `period ${nameOf(fields, 'Description', '')}`)): Declared<ExclusionPeriodConfig> {
  return { value: { Description: 'Black Friday freeze', From: '2026-11-27T00:00:00', Until: '2026-11-28T00:00:00', ...fields } as ExclusionPeriodConfig, source };
}

export function aLivePeriod(id: number, fields: Record<string, unknown> = {}): ApiObject {
  return { ExclusionPeriodId: id, Hash: `p-${id}`, Description: 'Black Friday freeze', From: '2026-11-27T00:00:00', Until: '2026-11-28T00:00:00', ...fields };
}

export function aReport(fields: Fields<ScheduledReportConfig> = {}, source: SourceRef = at('reports.yaml', nameOf(fields, 'key', 'weekly-exec'))): Declared<ScheduledReportConfig> {
  return {
    value: {
      key: 'weekly-exec',
      DashboardGuid: guidFor('dashboard', 'exec'),
      FileType: 'PDFAttachment',
      Schedule: { ScheduleType: 'Weekly', Time: '08:00:00', WeekDay: 'Monday' },
      Recipients: { ExtraEmailAddresses: ['ops@example.com'] },
      ...fields,
    } as ScheduledReportConfig,
    source,
  };
}

/** A report as listed, carrying the `monsync:key=` marker of `key` unless `InternalNotes` is given. */
export function aLiveReport(key: string | undefined, fields: Record<string, unknown> = {}): ApiObject {
  return {
    ScheduledReportGuid: guidFor('scheduledReport', key ?? 'unkeyed'),
    Hash: 'r-1',
    DashboardGuid: guidFor('dashboard', 'exec'),
    FileType: 'PDFAttachment',
    IsActive: true,
    Schedule: { ScheduleType: 'Weekly', Time: '08:00:00', WeekDay: 'Monday' },
    SelectedPeriod: 'PreviousDay',
    InternalNotes: key === undefined ? '' : `monsync:key=${key}`,
    Notes: '',
    Recipients: { Operators: [], OperatorGroups: [], ExtraEmailAddresses: ['ops@example.com'] },
    ...fields,
  };
}

/** An alert definition by name (`Default alerting` unless given); the older form is `{ AlertDefinitionGuid, IsActive }`. */
export function anAlertDefinition(fields: Fields<AlertDefinitionConfig> = {}, source: SourceRef = at('alerts.yaml', nameOf(fields, 'AlertName', 'Default alerting'))): Declared<AlertDefinitionConfig> {
  return { value: { AlertName: 'Default alerting', IsActive: true, ...fields } as AlertDefinitionConfig, source };
}

/** A live alert definition (GUID from its name). */
export function aLiveAlertDefinition(fields: Record<string, unknown> = {}): ApiObject {
  const name = typeof fields['AlertName'] === 'string' ? fields['AlertName'] : 'Default alerting';
  return { AlertDefinitionGuid: guidFor('alertDefinition', name), AlertName: name, IsActive: true, ...fields };
}

/** A RUM website by Description (`Shop storefront` unless given). */
export function aRumWebsite(fields: Fields<RumWebsiteConfig> = {}, source: SourceRef = at('rum-websites.yaml', nameOf(fields, 'Description', 'Shop storefront'))): Declared<RumWebsiteConfig> {
  return { value: { Description: 'Shop storefront', Url: 'https://shop.example.com', IsSpa: true, ...fields } as RumWebsiteConfig, source };
}

/** A RUM website as listed (id from its Description), with the script the service generates. */
export function aLiveRumWebsite(fields: Record<string, unknown> = {}): ApiObject {
  const description = typeof fields['Description'] === 'string' ? fields['Description'] : 'Shop storefront';
  const id = guidFor('rumWebsite', description);
  return { RumWebsiteId: id, Description: description, Url: 'https://shop.example.com', IsSpa: true, IncludeUrlFragment: false, RumScript: `<script data-id="${id}"></script>`, ...fields };
}

export interface DesiredParts {
  manage?: Settings['manage'];
  ignore?: string[];
  safety?: Partial<Settings['safety']>;
  monitors?: Declared<MonitorConfig>[];
  monitorGroups?: Declared<MonitorGroupConfig>[];
  vaultSections?: Declared<VaultSectionConfig>[];
  slas?: Declared<SlaConfig>[];
  scheduledReports?: Declared<ScheduledReportConfig>[];
  alertDefinitions?: Declared<AlertDefinitionConfig>[];
  operators?: Declared<OperatorConfig>[];
  operatorGroups?: Declared<OperatorGroupConfig>[];
  rumWebsites?: Declared<RumWebsiteConfig>[];
}

/** Every kind managed with prune off unless `manage` says otherwise; safety thresholds at their defaults. */
export function desiredState(parts: DesiredParts = {}): DesiredState {
  return {
    root: '/config',
    settings: {
      apiVersion: 'monsync/v1',
      manage: parts.manage ?? {
        monitors: { prune: false },
        monitorGroups: { prune: false },
        vault: { prune: false },
        slas: { prune: false },
        scheduledReports: { prune: false },
        alertDefinitions: { prune: false },
      },
      ignore: parts.ignore ?? [],
      safety: { ...DEFAULT_SAFETY, relations: { ...DEFAULT_SAFETY.relations }, ...parts.safety },
    },
    monitors: parts.monitors ?? [],
    monitorGroups: parts.monitorGroups ?? [],
    vaultSections: parts.vaultSections ?? [],
    slas: parts.slas ?? [],
    scheduledReports: parts.scheduledReports ?? [],
    alertDefinitions: parts.alertDefinitions ?? [],
    ...(parts.operators === undefined ? {} : { operators: parts.operators }),
    ...(parts.operatorGroups === undefined ? {} : { operatorGroups: parts.operatorGroups }),
    ...(parts.rumWebsites === undefined ? {} : { rumWebsites: parts.rumWebsites }),
  };
}

export interface LiveParts {
  alertDefinitions?: ApiObject[];
  monitors?: ApiObject[];
  monitorGroups?: ApiObject[];
  /** Members by group Description -> monitor GUIDs. */
  members?: Record<string, string[]>;
  vaultSections?: ApiObject[];
  vaultItems?: ApiObject[];
  slas?: ApiObject[];
  /** Periods by SLA Description. */
  exclusionPeriods?: Record<string, ApiObject[]>;
  scheduledReports?: ApiObject[];
  rumWebsites?: ApiObject[];
  operators?: ApiObject[] | null;
  read?: StepKind[];
}

const ALL_READ: StepKind[] = KINDS.filter((mod) => mod.read !== undefined).map((mod) => mod.kind);

/** A snapshot in which every kind was read (empty unless given); the All Monitors group is always there. */
export function liveSnapshot(parts: LiveParts = {}): LiveSnapshot {
  const groups = [ALL_MONITORS_GROUP, ...(parts.monitorGroups ?? [])];
  const groupMembers: Record<string, ApiObject[]> = {};
  for (const group of groups) {
    if (group.IsAll === true) continue;
    groupMembers[String(group.MonitorGroupGuid)] = (parts.members?.[String(group.Description)] ?? []).map((guid) => ({ MonitorGuid: guid }));
  }
  const slas = parts.slas ?? [];
  const exclusionPeriods: Record<string, ApiObject[]> = {};
  for (const sla of slas) exclusionPeriods[String(sla.SlaGuid)] = parts.exclusionPeriods?.[String(sla.Description)] ?? [];
  return {
    read: parts.read ?? ALL_READ,
    lists: {
      monitor: parts.monitors ?? [],
      monitorGroup: groups,
      vaultSection: parts.vaultSections ?? [],
      vaultItem: parts.vaultItems ?? [],
      sla: slas,
      scheduledReport: parts.scheduledReports ?? [],
      alertDefinition: parts.alertDefinitions ?? [],
      rumWebsite: parts.rumWebsites ?? [],
    },
    perParent: { groupMembership: groupMembers, slaExclusionPeriod: exclusionPeriods },
    operators:
      parts.operators === undefined
        ? [
            { OperatorGuid: SELF_OPERATOR, FullName: 'monsync API', Email: 'api@example.com' },
            { OperatorGuid: OTHER_OPERATOR, FullName: 'Jane Doe', Email: 'jane@example.com' },
          ]
        : parts.operators,
  };
}

/** Plans the way the CLI does: fingerprints first (the only secret-revealing step), then the pure assembly. */
export function planFor(desired: DesiredState, live: LiveSnapshot, options: Omit<PlanOptions, 'fingerprints'> = {}): Plan {
  return assemblePlan(desired, live, { selfOperatorGuid: SELF_OPERATOR, ...options, fingerprints: fingerprintDesiredSecrets(desired, FINGERPRINT_KEY) });
}

/** The kinds of a plan matched, as `assemblePlan`'s first phase leaves them: what the tests of the later phases start from. */
export function matched(desired: DesiredState, live: LiveSnapshot, options: MatchOptions = {}): Matched {
  return matchKinds(desired, live, liveScope(desired), ignoreMatcher(desired.settings.ignore), options);
}

/** A plan with no steps and nothing else, for renderer tests to add one section to. */
export function anEmptyPlan(): Plan {
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    configDigest: '0'.repeat(64),
    liveDigest: '0'.repeat(64),
    summary: { create: 0, update: 0, delete: 0, ensure: 0, unchanged: 0, unmanaged: 0 },
    safe: true,
    violations: [],
    steps: [],
    unmanaged: [],
    warnings: [],
  };
}
