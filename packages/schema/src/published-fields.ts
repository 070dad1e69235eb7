/**
 * The API fields of each config object, as the service's published definition and the spec list them (the API
 * spec's "Resources and their fields"; the published definition's SLA, scheduled report, vault, duty schedule,
 * monitor, group, alert definition, operator and RUM website tables; the alert definitions' field table). Nothing here is a guess:
 * a name no published source lists belongs in `allowUnknown`, not in this table. A PascalCase key of such an object that is neither here nor among the config schema's own fields is
 * an error (`UNKNOWN_API_FIELD`), unless monsync.yaml allows it (`allowUnknown.fields`): a typo is caught instead of
 * being sent. Objects not listed here (`SelectedCheckpoints`, `CustomFields`, ...) pass their fields through.
 * Keyed by the config schema's definition name; the key `allowUnknown.fields` takes is the same with a lower-case
 * first letter (`monitor`, `errorCondition`, `vaultItem`).
 */
export const PUBLISHED_FIELDS = {
  Monitor: [
    // The spec
    'MonitorGuid', 'Name', 'MonitorType', 'MonitorMode', 'IsActive', 'GenerateAlert', 'CreatedDate', 'LastModifiedDate', 'LastModifiedByOperatorId', 'UserAgent',
    'PredefinedVariables', 'ErrorConditions',
    // Published §8 (D22, P26)
    'CheckInterval', 'CheckIntervalSeconds', 'Hash', 'IsLocked', 'Credits', 'SelectedCheckpoints', 'UsePrimaryCheckpointsOnly', 'Notes', 'Url', 'NetworkAddress', 'Port',
    'IpVersion', 'HttpMethod', 'TlsVersion', 'AuthenticationType', 'Username', 'Password', 'NameForPhoneAlerts', 'UseConcurrentMonitoring', 'CustomFields', 'CustomMetrics',
    'BrowserType', 'HttpVersion', 'UseW3CTotalTime', 'Tls13', 'PostmanCollectionJson', 'MultiStepApiTransactionScript',
  ],
  ErrorCondition: ['ErrorConditionType', 'Value', 'Percentage', 'Effect', 'Level', 'MatchType'],
  PredefinedVariable: ['Key', 'Value'],
  MonitorGroup: [
    'MonitorGroupGuid', 'Description', 'IsAll', 'IsQuotaUnlimited', 'UsedBasicMonitorQuota', 'UsedBrowserMonitorQuota', 'UsedTransactionMonitorQuota', 'UsedApiMonitorQuota',
    'UsedClassicQuota', 'BasicMonitorQuota', 'BrowserMonitorQuota', 'TransactionMonitorQuota', 'ApiMonitorQuota', 'ClassicQuota', 'UnifiedCreditsQuota', 'UsedUnifiedCreditsQuota',
  ],
  VaultSection: ['VaultSectionGuid', 'Name'],
  VaultItem: ['VaultItemGuid', 'Name', 'VaultSectionGuid', 'VaultItemType', 'Value', 'IsSensitive', 'Notes', 'UserName', 'Password', 'CertificateArchive', 'VaultItemUsedBy'],
  CertificateArchive: ['Issuer', 'NotBefore', 'NotAfter', 'Password', 'ArchiveData'],
  Sla: ['SlaGuid', 'Hash', 'Description', 'UptimeErrorThreshold', 'UptimeWarningThreshold', 'LoadTimeErrorThreshold', 'OperatorReponseTimeThreshold'],
  SlaExclusionPeriod: ['ExclusionPeriodId', 'Hash', 'Description', 'From', 'Until'],
  ScheduledReport: ['ScheduledReportGuid', 'Hash', 'DashboardGuid', 'DashboardGuidSpecified', 'FileType', 'IsActive', 'Schedule', 'SelectedPeriod', 'InternalNotes', 'Notes', 'Recipients'],
  ReportSchedule: ['ScheduleType', 'Time', 'WeekDay', 'MonthDay', 'Month', 'QuarterStartMonth'],
  Recipients: ['Operators', 'OperatorGroups', 'ExtraEmailAddresses'],
  DutySchedule: ['Id', 'ScheduleMode', 'StartDateTime', 'EndDateTime', 'WeekDay', 'MonthDay', 'StartTime', 'EndTime'],
  Operator: [
    'OperatorGuid', 'Email', 'Password', 'FullName', 'MobilePhone', 'IsAccountAdministrator', 'BackupEmail', 'IsOnDuty', 'CultureName', 'TimeZoneId', 'SmsProvider',
    'UseNumericSender', 'AllowNativeLogin', 'AllowSingleSignon', 'UserName', 'Hash', 'DefaultDashboard', 'SetupMode', 'OperatorRole', 'OutgoingPhoneNumberId',
    'CultureNameSpecified', 'TimeZoneIdSpecified', 'UseNumericSenderSpecified', 'AllowNativeLoginSpecified', 'AllowSingleSignonSpecified', 'OutgoingPhoneNumberIdSpecified',
  ],
  OperatorGroup: ['OperatorGroupGuid', 'Description', 'IsEveryone', 'IsAdministratorsGroup'],
  AlertDefinition: ['AlertDefinitionGuid', 'AlertName', 'IsActive', 'Hash'],
  EscalationLevel: ['Id', 'EscalationMode', 'ThresholdErrorCount', 'ThresholdMinutes', 'IsActive', 'Message', 'NumberOfReminders', 'ReminderDelay', 'IncludeTraceRoute', 'Hash'],
  EscalationLevelIntegration: [
    'IntegrationGuid', 'ExtraEmailAddresses', 'ExtraEmailAddressesSpecified', 'StatusHubServiceList', 'StatusHubServiceListSpecified', 'IsActive', 'SendOkAlerts', 'SendReminderAlerts',
    'VariableValues', 'Hash',
  ],
  // Published §13 (P26: the vendor's provider; the 2022 definition lists the routes only)
  RumWebsite: ['RumWebsiteId', 'Description', 'Url', 'IsSpa', 'IncludeUrlFragment', 'RumScript'],
} as const satisfies Record<string, readonly string[]>;

export type PublishedObject = keyof typeof PUBLISHED_FIELDS;

/** The `allowUnknown.fields` key of a published object: `Monitor` -> `monitor`. */
export function allowKeyOf(object: string): string {
  return object.charAt(0).toLowerCase() + object.slice(1);
}

/** The keys `allowUnknown.fields` takes, one per object whose fields are published. */
export const ALLOW_UNKNOWN_FIELD_KEYS: readonly string[] = Object.keys(PUBLISHED_FIELDS).map(allowKeyOf);

export function publishedFieldsOf(object: string | undefined): readonly string[] | undefined {
  return object !== undefined && Object.hasOwn(PUBLISHED_FIELDS, object) ? PUBLISHED_FIELDS[object as PublishedObject] : undefined;
}

/** `allowUnknown:` of monsync.yaml: API fields and enum values the service added after this release, let through on purpose. */
export interface AllowUnknown {
  /** By object (`monitor`, `errorCondition`, ...): PascalCase field names. */
  fields: Readonly<Record<string, readonly string[]>>;
  /** By field name (`MonitorType`): values outside the published enum. */
  values: Readonly<Record<string, readonly string[]>>;
}

export const NOTHING_ALLOWED: AllowUnknown = { fields: {}, values: {} };

const stringsOf = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/** `allowUnknown:` as written (the schema checks its form), or nothing allowed. */
export function readAllowUnknown(written: unknown): AllowUnknown {
  if (written === null || typeof written !== 'object' || Array.isArray(written)) return NOTHING_ALLOWED;
  const { fields, values } = written as Record<string, unknown>;
  const table = (v: unknown): Record<string, string[]> =>
    v === null || typeof v !== 'object' || Array.isArray(v) ? {} : Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, list]) => [k, stringsOf(list)]));
  return { fields: table(fields), values: table(values) };
}

type SchemaNode = Readonly<Record<string, unknown>>;

const isNode = (v: unknown): v is SchemaNode => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The definition a schema node refers to (`{ $ref: '#/$defs/Monitor' }` -> `Monitor`), if any. */
function refOf(schema: unknown): string | undefined {
  return isNode(schema) && typeof schema['$ref'] === 'string' && schema['$ref'].startsWith('#/$defs/') ? schema['$ref'].slice('#/$defs/'.length) : undefined;
}

/**
 * What objects read from an account hold beyond the published definition, as `allowUnknown` would let it through:
 * fields the definition does not list and values outside its enumerations, in the objects and in the published
 * objects inside them (a monitor's error conditions, a section's items). `pull` writes this into the tree's
 * monsync.yaml, so that a tree of what the account holds validates, and a reviewer sees what it lets through.
 * `defs` are the config schema's definitions; `object` names one (`Monitor`).
 */
export function unknownIn(defs: Readonly<Record<string, unknown>>, object: PublishedObject, objects: readonly unknown[]): AllowUnknown {
  const fields: Record<string, Set<string>> = {};
  const values: Record<string, Set<string>> = {};
  const add = (table: Record<string, Set<string>>, key: string, name: string) => (table[key] ??= new Set()).add(name);
  const visit = (name: string, item: unknown): void => {
    if (!isNode(item)) return;
    const node = defs[name];
    const properties = isNode(node) && isNode(node['properties']) ? node['properties'] : {};
    const published = publishedFieldsOf(name);
    for (const [field, value] of Object.entries(item)) {
      const schema = properties[field];
      if (schema === undefined) {
        if (/^[A-Z]/.test(field) && published !== undefined && !published.includes(field)) add(fields, allowKeyOf(name), field);
        continue;
      }
      const target = refOf(schema) === undefined ? schema : defs[refOf(schema) as string];
      const many = Array.isArray(value) && isNode(target) && target['type'] === 'array';
      const itemSchema = many ? target['items'] : schema;
      const itemRef = refOf(itemSchema);
      const itemTarget = itemRef === undefined ? itemSchema : defs[itemRef];
      for (const v of many ? value : [value]) {
        if (itemRef !== undefined && publishedFieldsOf(itemRef) !== undefined) visit(itemRef, v);
        else if (typeof v === 'string' && isNode(itemTarget) && Array.isArray(itemTarget['enum']) && !itemTarget['enum'].includes(v)) add(values, field, v);
      }
    }
  };
  for (const item of objects) visit(object, item);
  const sorted = (table: Record<string, Set<string>>) => Object.fromEntries(Object.entries(table).map(([key, set]) => [key, [...set].sort()]));
  return { fields: sorted(fields), values: sorted(values) };
}
