/**
 * Types from the spec's field tables. Conventions:
 * - every object allows unknown PascalCase fields (`Extra`), because the service adds fields and monsync passes
 *   them through;
 * - read-only fields (listed in `ReadOnlyFields`) are forbidden in create/replace/patch bodies (`?: never`: the
 *   index signature would otherwise let them through);
 * - write-only fields (the service never returns them, or returns them empty) carry a `@writeOnly` tag and are
 *   listed in `WriteOnlyFields`;
 * - timestamps are strings `YYYY-MM-DDTHH:MM:SS` (see `timestamp.ts`).
 */
import type {
  AlertType,
  CultureName,
  Effect,
  ErrorConditionLevel,
  ErrorConditionType,
  FileType,
  MaintenanceType,
  MatchType,
  MonitorMode,
  MonitorType,
  Open,
  OperatorAuthorizationType,
  OperatorGroupAuthorizationType,
  PresetPeriod,
  QuarterStartMonth,
  ScheduleType,
  SelectedPeriod,
  SmsProvider,
  Sorting,
  UserAgent,
  VaultAuthorizationType,
  VaultItemType,
  WeekDay,
} from './enums.js';

/** Fields this client does not know pass through untouched. */
export interface Extra {
  [field: string]: unknown;
}

/** Forbids the named fields in a request body. */
export type NoFields<K extends string> = { [P in K]?: never };

/** A `YYYY-MM-DDTHH:MM:SS` timestamp string (no zone, no milliseconds). */
export type Timestamp = string;

/**
 * Read-only fields per kind: set by the service, never sent, never diffed. The body types below forbid them,
 * and a type test keeps this table and the types in step.
 */
export const ReadOnlyFields = {
  monitor: ['MonitorGuid', 'CreatedDate', 'LastModifiedDate', 'LastModifiedByOperatorId'],
  monitorGroup: [
    'MonitorGroupGuid',
    'IsAll',
    'UsedBasicMonitorQuota',
    'UsedBrowserMonitorQuota',
    'UsedTransactionMonitorQuota',
    'UsedApiMonitorQuota',
    'UsedClassicQuota',
  ],
  operator: ['OperatorGuid', 'IsAccountAdministrator', 'UserName'],
  dutySchedule: ['Id'],
  operatorGroup: ['OperatorGroupGuid', 'IsEveryone'],
  vaultItem: ['VaultItemGuid', 'VaultItemUsedBy', 'IsSensitive'],
  vaultSection: ['VaultSectionGuid'],
  vaultAuthorization: ['AuthorizationId'],
  scheduledReport: ['ScheduledReportGuid', 'Hash'],
  sla: ['SlaGuid', 'Hash'],
  slaExclusionPeriod: ['ExclusionPeriodId', 'Hash'],
  rumWebsite: ['RumWebsiteId', 'RumScript'],
} as const;

/** Write-only fields per kind (dotted paths for nested ones): never returned, so never diffed from reads. */
export const WriteOnlyFields = {
  vaultItem: ['Value', 'Password', 'CertificateArchive.Password', 'CertificateArchive.ArchiveData'],
  operator: ['Password'],
} as const;

type ReadOnlyOf<K extends keyof typeof ReadOnlyFields> = (typeof ReadOnlyFields)[K][number];

// ---------------------------------------------------------------------------------------------- monitors

export interface ErrorCondition extends Extra {
  ErrorConditionType: Open<ErrorConditionType>;
  Value?: string;
  /** Used by the two `...WithPercentage` types. */
  Percentage?: string;
  /** Omitted for some types. */
  Effect?: Open<Effect>;
  Level?: Open<ErrorConditionLevel>;
  /** For the content-match types. */
  MatchType?: Open<MatchType>;
}

export interface PredefinedVariable extends Extra {
  Key: string;
  /** A literal, or a vault reference `{{vault:<VaultItemGuid>}}`. A literal may be a secret. */
  Value?: string;
  /** Obsolete for multi-step API monitors and must not be sent. */
  Sensitive?: never;
}

/** The writable monitor fields the spec and the published definition name; the service has more, passed through. */
export interface MonitorFields {
  Name?: string;
  MonitorType?: Open<MonitorType>;
  MonitorMode?: Open<MonitorMode>;
  /**
   * Minutes between checks (the vendor's 2026 provider; the 2022 definition said seconds). The v3 field
   * `CheckFrequency`, also minutes, is read as this one. Not together with `CheckIntervalSeconds`.
   */
  CheckInterval?: number;
  /** Seconds between checks, for intervals under a minute; not together with `CheckInterval`. */
  CheckIntervalSeconds?: number;
  IsActive?: boolean;
  GenerateAlert?: boolean;
  UserAgent?: Open<UserAgent>;
  PredefinedVariables?: PredefinedVariable[];
  ErrorConditions?: ErrorCondition[];
}

export interface MonitorReadOnly {
  MonitorGuid: string;
  CreatedDate?: Timestamp;
  LastModifiedDate?: Timestamp;
  /** Identifies the operator who last created or changed the monitor. */
  LastModifiedByOperatorId?: string | number;
}

/** A monitor as read. The six fields below are returned even to a non-administrator with view-data permission. */
export type Monitor = MonitorReadOnly &
  MonitorFields & {
    Name: string;
    MonitorType: string;
    MonitorMode: string;
    IsActive: boolean;
    GenerateAlert: boolean;
  } & Extra;

export type MonitorCreate = MonitorFields & { Name: string } & NoFields<ReadOnlyOf<'monitor'>> & Extra;
export type MonitorReplace = MonitorCreate;
export type MonitorPatch = MonitorFields & NoFields<ReadOnlyOf<'monitor'>> & Extra;

export interface MonitorListQuery {
  /** Batch size 1..100 (default 100). */
  Take?: number;
  /** Start from this cursor instead of the first batch. */
  Cursor?: string;
}

// ------------------------------------------------------------------------------------------ monitor checks

export interface PageLoadMetrics extends Extra {
  CumulativeLayoutShift?: number;
  FirstContentfulPaint?: number;
  LargestContentfulPaint?: number;
  TotalBlockingTime?: number;
  TimeToInteractive?: number;
  TimeToFirstByte?: number;
  SendStart?: number;
  LoadEventEnd?: number;
  DomInteractive?: number;
  DomComplete?: number;
}

export interface MonitorCheckWaterfall extends Extra {
  PageLoadMetricsCollection?: PageLoadMetrics[];
}

/** Shape not in the spec. */
export type MonitorCheckDetails = Extra;

// ---------------------------------------------------------------------------------------------- groups

export interface MonitorGroupFields {
  /** The group's name. */
  Description?: string;
  IsQuotaUnlimited?: boolean;
}

export interface MonitorGroupReadOnly {
  MonitorGroupGuid: string;
  /** True for the All Monitors group, whose membership cannot change. */
  IsAll?: boolean;
  UsedBasicMonitorQuota?: number;
  UsedBrowserMonitorQuota?: number;
  UsedTransactionMonitorQuota?: number;
  UsedApiMonitorQuota?: number;
  UsedClassicQuota?: number;
}

export type MonitorGroup = MonitorGroupReadOnly & MonitorGroupFields & { Description: string } & Extra;
export type MonitorGroupCreate = MonitorGroupFields & { Description: string } & NoFields<ReadOnlyOf<'monitorGroup'>> & Extra;
export type MonitorGroupReplace = MonitorGroupCreate;

/** A monitor's maintenance period (also the body of AddMaintenancePeriodToAllMembers). */
export interface MaintenancePeriod extends Extra {
  /** Generated by the service; required in the published schema (send 0 on create). */
  Id?: number;
  ScheduleMode: 'OneTime' | 'Daily' | 'Weekly' | 'Monthly';
  MaintenanceType: MaintenanceType;
  /** OneTime. */
  StartDateTime?: Timestamp;
  EndDateTime?: Timestamp;
  /** Weekly. */
  WeekDay?: WeekDay;
  /** Monthly. */
  MonthDay?: number;
  /** Daily, Weekly, Monthly. */
  StartTime?: string;
  EndTime?: string;
  Description?: string;
}

// ---------------------------------------------------------------------------------------- alerts, stats

export interface Relationship extends Extra {
  Id?: string;
  Type?: string;
  Links?: { Self?: string };
}

/**
 * A list item in the `{Id, Type, Attributes, Relationships}` shape. The spec shows alert fields both inside
 * `Attributes` and at the top level of an item; the client moves top-level fields into `Attributes`, so this
 * shape is all callers see.
 */
export interface ResourceItem<A> {
  Id?: string;
  Type?: string;
  Attributes: A;
  Relationships: Relationship[];
}

export interface AlertAttributes extends Extra {
  AlertType?: Open<AlertType>;
  MonitorGuid?: string;
  Timestamp?: Timestamp;
  FirstError?: Timestamp;
  MonitorCheckId?: number;
  FirstErrorMonitorCheckId?: number;
  ErrorDescription?: string;
  IncidentKey?: string;
}

export type Alert = ResourceItem<AlertAttributes>;

export interface AlertQuery {
  IncludeReminders?: boolean;
  /** Start from this cursor instead of the first batch. */
  Cursor?: string;
  /** Default `Descending` (newest first). */
  Sorting?: Sorting;
  /** Batch size 1..100. */
  Take?: number;
  /** `YYYY-MM-DD` (or a Date, sent as its UTC day); only with `End`, never with `PresetPeriod`. */
  Start?: string | Date;
  End?: string | Date;
  PresetPeriod?: PresetPeriod;
}

export interface StatisticsAttributes extends Extra {
  StartDateTime?: Timestamp;
  EndDateTime?: Timestamp;
  Alerts?: number;
  OperatorResponseTarget?: number;
  OperatorResponseTime?: number;
  DowntimePercentage?: number;
  UptimePercentage?: number;
  Checks?: number;
  ConfirmedErrors?: number;
  UnconfirmedErrors?: number;
  Uptime?: number;
  Downtime?: number;
  TotalTime?: number;
  ResolveTime?: number;
  ConnectionTime?: number;
  DownloadTime?: number;
  TotalBytes?: number;
}

export type StatisticsItem = ResourceItem<StatisticsAttributes>;

export interface StatisticsQuery {
  /** Statistics field names to return; an array is joined with commas. */
  Filter?: string | readonly (keyof StatisticsAttributes & string)[];
  /** `YYYY-MM-DDTHH:MM:SS` (or a Date, sent in UTC); only with `End`, never with `PresetPeriod`. */
  Start?: string | Date;
  End?: string | Date;
  /** Default `Last24Hours`. */
  PresetPeriod?: PresetPeriod;
}

// ----------------------------------------------------------------------------------- alert definitions

export interface AlertDefinition extends Extra {
  AlertDefinitionGuid: string;
  /** The name people see (published definition); the spec shows only the GUID and `IsActive`. */
  AlertName?: string;
  IsActive: boolean;
}

/** POST body: P26 sends `{AlertName, IsActive}`; the answer is 201 with the object. */
export interface AlertDefinitionCreate extends Extra {
  AlertName: string;
  IsActive?: boolean;
}

/** PUT body: the complete field list; the client fills `AlertDefinitionGuid` from the path when absent. */
export interface AlertDefinitionReplace extends Extra {
  AlertDefinitionGuid?: string;
  AlertName?: string;
  IsActive: boolean;
}

/** PATCH body: `AlertDefinitionGuid` is optional but, when present, must equal the one in the path. */
export interface AlertDefinitionPatch extends Extra {
  AlertDefinitionGuid?: string;
  AlertName?: string;
  IsActive?: boolean;
}

/** A monitor or a monitor group the definition covers: one of the two GUIDs per entry (`GET {g}/Member`). */
export interface AlertDefinitionMember extends Extra {
  MonitorGuid?: string;
  MonitorGroupGuid?: string;
}

/** One of the definition's fixed escalation levels (`Id` 1..N); updated whole, never created or deleted. */
export interface EscalationLevel extends Extra {
  Id: number;
  EscalationMode?: 'AlertOnErrorCount' | 'AlertOnErrorDuration';
  ThresholdErrorCount?: number;
  ThresholdMinutes?: number;
  IsActive?: boolean;
  Message?: string;
  NumberOfReminders?: number;
  /** Minutes. */
  ReminderDelay?: number;
  IncludeTraceRoute?: boolean;
}

/** An operator or an operator group a level reaches: one of the two GUIDs per entry. */
export interface EscalationLevelMember extends Extra {
  OperatorGuid?: string;
  OperatorGroupGuid?: string;
}

export interface EscalationLevelIntegration extends Extra {
  IntegrationGuid?: string;
  /** An array on write; some answers give one comma-separated string, which the client reads as the array. */
  ExtraEmailAddresses?: string[];
  StatusHubServiceList?: Array<{ MonitorGuid: string; IntegrationServiceGuid: string }>;
  /** Write-only: GET does not return it. */
  IsActive?: boolean;
  /** Write-only (P26). */
  SendOkAlerts?: boolean;
  /** Write-only (P26). */
  SendReminderAlerts?: boolean;
  /**
   * Variable values used when the integration allows variables at escalation level.
   * @writeOnly treated as sensitive: may carry tokens, so it is redacted from errors.
   */
  VariableValues?: Record<string, string>;
}

/** `GET /Integration`: the only integration route; integrations are set up in the web app. */
export interface Integration extends Extra {
  IntegrationGuid: string;
  Name: string;
  Type?: 'Slack' | 'PagerDuty' | 'Sms' | 'Email' | 'Phone' | 'Statushub' | 'GenericWebhook';
  /** One comma-separated string on the wire; read as the array of its trimmed parts. */
  ExtraEmailAddresses?: string[];
}

export interface AlertDefinitionAuthorization extends Extra {
  AuthorizationId?: string;
  AuthorizationType: 'EditAlertDefinition';
  OperatorGuid?: string;
  OperatorGroupGuid?: string;
}

// ---------------------------------------------------------------------------------------- checkpoints

export interface CheckpointServer extends Extra {
  Ipv4Addresses?: string[];
  /** Plain strings (older responses had `{IpAddress}` objects; the client converts them). */
  IpV6Addresses?: string[];
}

export interface PrivateCheckpointHealth extends Extra {
  Warnings?: unknown;
}

// ------------------------------------------------------------------------------------------ operators

export interface OperatorFields {
  /** Primary address and login name. */
  Email?: string;
  /** @writeOnly */
  Password?: string;
  FullName?: string;
  MobilePhone?: string;
  /** An `Id` of GET /OutgoingPhoneNumber (the spec's `OutgoingPhoneNumber` text is not what the service takes). */
  OutgoingPhoneNumberId?: number;
  BackupEmail?: string;
  IsOnDuty?: boolean;
  /** Empty or absent: the account culture applies. Not returned by GET. */
  CultureName?: CultureName;
  /** From the Timezone endpoints; absent: the account time zone applies. */
  TimeZoneId?: number;
  SmsProvider?: SmsProvider;
  /** Not returned by GET. */
  UseNumericSender?: boolean;
  /** Not returned by GET. */
  AllowNativeLogin?: boolean;
  /** Not returned by GET. */
  AllowSingleSignon?: boolean;
  /** Companions: a field above takes effect only with its `...Specified: true`; the client sends them. */
  CultureNameSpecified?: boolean;
  TimeZoneIdSpecified?: boolean;
  UseNumericSenderSpecified?: boolean;
  AllowNativeLoginSpecified?: boolean;
  AllowSingleSignonSpecified?: boolean;
  OutgoingPhoneNumberIdSpecified?: boolean;
}

/** GET /OutgoingPhoneNumber: the numbers alerts may be sent from. */
export interface OutgoingPhoneNumber extends Extra {
  Id: number;
  PhoneNumber?: string;
  Description?: string;
}

export interface OperatorReadOnly {
  OperatorGuid: string;
  IsAccountAdministrator?: boolean;
  /** Present on list items. */
  UserName?: string;
}

export type Operator = OperatorReadOnly & Omit<OperatorFields, 'Password'> & { Email: string } & Extra;
export type OperatorCreate = OperatorFields & { Email: string } & NoFields<ReadOnlyOf<'operator'>> & Extra;
export type OperatorReplace = OperatorCreate;

interface DutyScheduleBase extends Extra {
  Id?: never;
}
/** Only the fields relevant to the mode are sent; the others are type errors. */
export type DutyScheduleCreate = DutyScheduleBase &
  (
    | { ScheduleMode: 'OneTime'; StartDateTime: Timestamp; EndDateTime: Timestamp; WeekDay?: never; MonthDay?: never; StartTime?: never; EndTime?: never }
    | { ScheduleMode: 'Daily'; StartTime: string; EndTime: string; WeekDay?: never; MonthDay?: never; StartDateTime?: never; EndDateTime?: never }
    | { ScheduleMode: 'Weekly'; WeekDay: WeekDay; StartTime: string; EndTime: string; MonthDay?: never; StartDateTime?: never; EndDateTime?: never }
    | { ScheduleMode: 'Monthly'; MonthDay: number; StartTime: string; EndTime: string; WeekDay?: never; StartDateTime?: never; EndDateTime?: never }
  );
export type DutyScheduleReplace = DutyScheduleCreate;

export interface DutySchedule extends Extra {
  /** Generated by the service (integers in the examples). */
  Id: number | string;
  ScheduleMode: Open<'OneTime' | 'Daily' | 'Weekly' | 'Monthly'>;
  StartDateTime?: Timestamp;
  EndDateTime?: Timestamp;
  WeekDay?: WeekDay;
  MonthDay?: number;
  /** 24-hour `HH:mm`. */
  StartTime?: string;
  EndTime?: string;
}

// ------------------------------------------------------------------------------------ operator groups

export interface OperatorGroupFields {
  Description?: string;
  /** Also spelled `IsAdministratorGroup` in one place; the client copies that spelling here on read. */
  IsAdministratorsGroup?: boolean;
}

export interface OperatorGroupReadOnly {
  OperatorGroupGuid: string;
  IsEveryone?: boolean;
}

export type OperatorGroup = OperatorGroupReadOnly & OperatorGroupFields & { Description: string } & Extra;
export type OperatorGroupCreate = OperatorGroupFields & { Description: string } & NoFields<ReadOnlyOf<'operatorGroup'>> & Extra;
export type OperatorGroupReplace = OperatorGroupCreate;

/**
 * A group authorization. The legacy GET returns `{AuthorizationId, AuthorizationType, OperatorGroupGuid}`; the
 * announced GET returns bare type names, which the client turns into `{AuthorizationType}`.
 */
export interface OperatorGroupAuthorization extends Extra {
  AuthorizationType: Open<OperatorGroupAuthorizationType>;
  AuthorizationId?: string;
  OperatorGroupGuid?: string;
}

/** An operator's own authorization: the published GET lists bare type names, which the client turns into `{AuthorizationType}`. */
export interface OperatorAuthorization extends Extra {
  AuthorizationType: Open<OperatorAuthorizationType>;
}

// ------------------------------------------------------------------------------------------ timezones

export interface Timezone extends Extra {
  /** The client fills it from `TimeZoneId` when only that spelling is returned. */
  TimezoneId: number;
  TimeZoneId?: number;
  Description?: string;
  /** Minutes. */
  OffsetFromUtc?: number;
  HasDaylightSaving?: boolean;
  /** Minutes; omitted when HasDaylightSaving is false. */
  DaylightSavingOffset?: number;
}

// ---------------------------------------------------------------------------------------------- vault

export interface CertificateArchive extends Extra {
  Issuer?: string;
  NotBefore?: Timestamp;
  NotAfter?: Timestamp;
  /** @writeOnly returned empty */
  Password?: string;
  /** Base-64 of the archive. @writeOnly returned empty */
  ArchiveData?: string;
}

export interface VaultItemFields {
  Name?: string;
  /** Cannot be changed after creation. */
  VaultSectionGuid?: string;
  VaultItemType?: VaultItemType;
  /**
   * Content per type: CertificateArchive base-64 (returned empty), Certificate public-key text (returned as
   * stored), File content, OneTimePassword secret; unused for CredentialSet.
   * @writeOnly for sensitive items
   */
  Value?: string;
  Notes?: string;
  UserName?: string;
  /** @writeOnly returned empty */
  Password?: string;
  CertificateArchive?: CertificateArchive;
}

export interface VaultItemReadOnly {
  VaultItemGuid: string;
  /** Which items or monitors use the item (a count, or a dash when unused). */
  VaultItemUsedBy?: string;
  /** Set by the service from the type; cannot be changed. */
  IsSensitive?: boolean;
}

export type VaultItem = VaultItemReadOnly &
  VaultItemFields & { Name: string; VaultSectionGuid: string; VaultItemType: Open<VaultItemType> } & Extra;
export type VaultItemCreate = VaultItemFields & {
  Name: string;
  VaultSectionGuid: string;
  VaultItemType: VaultItemType;
} & NoFields<ReadOnlyOf<'vaultItem'>> &
  Extra;
/** PUT: an omitted ordinary field becomes empty; omitted sensitive values (`Value`, `Password`, `CertificateArchive`) stay. */
export type VaultItemReplace = VaultItemCreate;
/** PATCH: `VaultItemType` stays unchanged and the section cannot change. */
export type VaultItemPatch = Omit<VaultItemFields, 'VaultItemType' | 'VaultSectionGuid'> &
  NoFields<ReadOnlyOf<'vaultItem'> | 'VaultItemType' | 'VaultSectionGuid'> &
  Extra;

export type VaultSection = { VaultSectionGuid: string; Name: string } & Extra;
export type VaultSectionCreate = { Name: string } & NoFields<ReadOnlyOf<'vaultSection'>> & Extra;
export type VaultSectionReplace = VaultSectionCreate;

/**
 * A vault section authorization as the service publishes it: `OperatorGroupGuid` (the spec's `OperatorGroupId` is
 * read as it) and no `ContextId` (the section is the one in the path; a spec-form `ContextId` read is kept as is).
 */
export interface VaultAuthorization extends Extra {
  AuthorizationId: string;
  AuthorizationType: Open<VaultAuthorizationType>;
  OperatorGuid?: string | null;
  OperatorGroupGuid?: string | null;
}

/** Exactly one of OperatorGuid and OperatorGroupGuid; the section is the one in the path. */
export type VaultAuthorizationCreate = {
  AuthorizationType: VaultAuthorizationType;
} & ({ OperatorGuid: string; OperatorGroupGuid?: null } | { OperatorGroupGuid: string; OperatorGuid?: null }) &
  NoFields<ReadOnlyOf<'vaultAuthorization'> | 'ContextId' | 'OperatorGroupId'> &
  Extra;

// ------------------------------------------------------------------------------------ scheduled reports

export interface ReportSchedule extends Extra {
  ScheduleType: ScheduleType;
  /** `HH:MM:SS`. */
  Time?: string;
  /** For Weekly. */
  WeekDay?: WeekDay;
  /** For Monthly. */
  MonthDay?: number;
  /** For Quarterly. */
  QuarterStartMonth?: QuarterStartMonth;
}

export interface ReportRecipients extends Extra {
  Operators?: string[];
  OperatorGroups?: string[];
  ExtraEmailAddresses?: string[];
}

export interface ScheduledReportFields {
  DashboardGuid?: string;
  FileType?: FileType;
  IsActive?: boolean;
  Schedule?: ReportSchedule;
  SelectedPeriod?: Open<SelectedPeriod>;
  /** Visible to account administrators only (monsync keeps its `monsync:key=` marker here). */
  InternalNotes?: string;
  Notes?: string;
  Recipients?: ReportRecipients;
}

export type ScheduledReport = { ScheduledReportGuid: string; Hash?: string } & ScheduledReportFields & Extra;
export type ScheduledReportCreate = ScheduledReportFields & {
  DashboardGuid: string;
  FileType: FileType;
  Schedule: ReportSchedule;
} & NoFields<ReadOnlyOf<'scheduledReport'>> &
  Extra;
export type ScheduledReportReplace = ScheduledReportCreate;
export type ScheduledReportPatch = ScheduledReportFields & NoFields<ReadOnlyOf<'scheduledReport'>> & Extra;

// ----------------------------------------------------------------------------------------------- RUM websites

/** A website measured by real user monitoring (`/Rum/Website`, the fields of the vendor's 2026 provider). */
export interface RumWebsiteFields {
  /** The website's name as the web app shows it. */
  Description?: string;
  Url?: string;
  /** A single-page application. */
  IsSpa?: boolean;
  /** Count the part of the address after `#` as a page (single-page applications only). */
  IncludeUrlFragment?: boolean;
}

/** `RumScript` is the snippet the service generates for the site to embed. */
export type RumWebsite = { RumWebsiteId: string; RumScript?: string } & RumWebsiteFields & { Description: string } & Extra;
export type RumWebsiteCreate = RumWebsiteFields & { Description: string; Url: string } & NoFields<ReadOnlyOf<'rumWebsite'>> & Extra;
/** The whole website: PUT replaces it (the client adds `RumWebsiteId` from the path, as the vendor's provider sends it). */
export type RumWebsiteReplace = RumWebsiteCreate;

// ----------------------------------------------------------------------------------------------- SLAs

export interface SlaFields {
  /** The SLA's name; unique (a duplicate gives 409). */
  Description?: string;
  UptimeErrorThreshold?: number;
  UptimeWarningThreshold?: number;
  LoadTimeErrorThreshold?: number;
  /**
   * Spelled as the service spells it (no "s" after "Repon"); the spec's `OperatorResponseTimeThreshold` is
   * dropped by the service, and read as this one.
   */
  OperatorReponseTimeThreshold?: number;
}

export type Sla = { SlaGuid: string; Hash?: string } & SlaFields & { Description: string } & Extra;
export type SlaCreate = SlaFields & { Description: string } & NoFields<ReadOnlyOf<'sla'>> & Extra;
export type SlaReplace = SlaCreate;
export type SlaPatch = SlaFields & NoFields<ReadOnlyOf<'sla'>> & Extra;

export interface SlaExclusionPeriodFields {
  Description?: string;
  From?: Timestamp;
  Until?: Timestamp;
}

export type SlaExclusionPeriod = { ExclusionPeriodId: number | string; Hash?: string } & SlaExclusionPeriodFields & {
  Description: string;
} & Extra;
export type SlaExclusionPeriodCreate = SlaExclusionPeriodFields & {
  Description: string;
  From: Timestamp;
  Until: Timestamp;
} & NoFields<ReadOnlyOf<'slaExclusionPeriod'>> &
  Extra;
export type SlaExclusionPeriodReplace = SlaExclusionPeriodCreate;
export type SlaExclusionPeriodPatch = SlaExclusionPeriodFields & NoFields<ReadOnlyOf<'slaExclusionPeriod'>> & Extra;

// ------------------------------------------------------------------------------------------- register

export interface RegisterRequest extends Extra {
  Description?: string;
  /** Create the API account for another operator (needs sufficient rights). */
  operatorGuid?: string;
}

export interface ApiAccount extends Extra {
  UserName: string;
  /** The new API password: shown once, cannot be recovered. Treat as a secret. */
  Password: string;
  AccountId?: string;
  OperatorName?: string;
  /** `OK` on success. */
  status?: string;
}

/** Credentials for a single call (e.g. `register()` authenticates with the operator's own login). */
export interface Credentials {
  username: string;
  password: string;
}
