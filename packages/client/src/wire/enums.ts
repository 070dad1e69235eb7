/**
 * Enumerations as the running service spells them. The service publishes an OpenAPI definition (2022 revision,
 * "D22") and its vendor ships a provider (2026 release, "P26"); where those two speak, they decide the spelling,
 * and where they differ from each other the newer one does (P26 shows what the service does today). Lists the
 * spec of the API shows only in part are complete here. No I/O: the schema package imports this module.
 */

export const ERROR_CONDITION_TYPES = [
  'LoadTimeLimit1',
  'LoadTimeLimit2',
  'TotalMinBytes',
  'TotalMaxBytes',
  'ContentMatch',
  'ConsoleContentMatch',
  'ConsoleLevel',
  'HttpStatus',
  'PageElementMaxSizeWithPercentage',
  'PageElementFailedWithPercentage',
  'TimeToFirstByteMaximum',
  'RequestStartMaximum',
  'DomCompleteMaximum',
  'DomInteractiveMaximum',
  'UseRecommendedCoreWebVitals',
  'FirstContentfulPaintMaximum',
  'LargestContentfulPaintMaximum',
  'TimeToInteractiveMaximum',
  'CumulativeLayoutShiftMaximum',
  'TotalBlockingTimeMaximum',
  // Added by the 2026 provider.
  'PageElementUrlMatch',
] as const;

export const EFFECTS = ['Indicate', 'Error'] as const;

/**
 * `Level` of an error condition. The 2022 definition says Info/Warning/Severe, the 2026 provider Info/Warning/Error.
 * Both are accepted and sent as written: no published source says that `Severe` and `Error` are one value, and a
 * wrong guess would change how a monitor alerts. The provider's list comes first (completion offers it first).
 */
export const ERROR_CONDITION_LEVELS = ['Info', 'Warning', 'Error', 'Severe'] as const;

/**
 * `MatchType` of a content condition. The 2026 provider's names come first; the 2022 definition's
 * Positive/Negative/PositiveRegex/NegativeRegex are accepted and sent as written, for the same reason as `Level`.
 */
export const MATCH_TYPES = [
  'ErrorWhenContains',
  'ErrorWhenNotContains',
  'ErrorWhenContainsRegex',
  'ErrorWhenNotContainsRegex',
  'Positive',
  'Negative',
  'PositiveRegex',
  'NegativeRegex',
] as const;

export const MONITOR_MODES = ['Development', 'Staging', 'Production'] as const;

/** D22's list; P26 adds `PostmanApi` and no longer lists `RealBrowserCheck`. Creating Http/WebserviceHttp(s) is refused today. */
export const MONITOR_TYPES = [
  'Http',
  'Https',
  'Connect',
  'Ping',
  'POP3',
  'SMTP',
  'FTP',
  'MySQL',
  'MSSQL',
  'WebserviceHttp',
  'WebserviceHttps',
  'Transaction',
  'DNS',
  'FullPageCheck',
  'RealBrowserCheck',
  'Certificate',
  'SFTP',
  'MultiStepApi',
  'IMAP',
  'PostmanApi',
] as const;

export const HTTP_METHODS = ['Get', 'Post'] as const;
export const IP_VERSIONS = ['IpV4', 'IpV6'] as const;
export const HTTP_VERSIONS = ['Negotiate', 'Http1_1', 'Http2', 'Http3'] as const;
export const AUTHENTICATION_TYPES = ['None', 'Basic', 'NTLM', 'Digest'] as const;
/** The 2026 provider allows only these two (the 2022 definition lists older browsers too). */
export const BROWSER_TYPES = ['Chrome', 'Edge'] as const;

export const SORTINGS = ['Ascending', 'Descending'] as const;

export const FILE_TYPES = ['PDFAttachment', 'PDFLink', 'ExcelAttachment', 'ExcelLink', 'Html'] as const;

export const SCHEDULE_TYPES = ['Daily', 'Weekly', 'Monthly', 'Quarterly', 'Yearly'] as const;

/** `DayOfWeek`, in the definition's order. */
export const WEEK_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** Duty schedules and maintenance periods. */
export const SCHEDULE_MODES = ['OneTime', 'Daily', 'Weekly', 'Monthly'] as const;
export const MAINTENANCE_TYPES = ['DisableMonitoring', 'DisableNotifications'] as const;

/** `PresetPeriodType`: no spaces in the `Previous...` values, and `All` last. */
export const PRESET_PERIODS = [
  'CurrentDay',
  'CurrentWeek',
  'CurrentMonth',
  'CurrentQuarter',
  'CurrentYear',
  'PreviousDay',
  'PreviousWeek',
  'PreviousMonth',
  'PreviousQuarter',
  'PreviousYear',
  'Last2Hours',
  'Last6Hours',
  'Last12Hours',
  'Last24Hours',
  'Last48Hours',
  'Last7Days',
  'Last30Days',
  'Last60Days',
  'Last90Days',
  'Last365Days',
  'Last3Months',
  'Last6Months',
  'Last12Months',
  'Last24Months',
  'All',
] as const;

const EXCLUSIVE = [
  'Last2HoursExcl',
  'Last6HoursExcl',
  'Last12HoursExcl',
  'Last24HoursExcl',
  'Last48HoursExcl',
  'Last7DaysExcl',
  'Last30DaysExcl',
  'Last60DaysExcl',
  'Last90DaysExcl',
  'Last365DaysExcl',
  'Last3MonthsExcl',
  'Last6MonthsExcl',
  'Last12MonthsExcl',
  'Last24MonthsExcl',
] as const;

/** `PresetPeriodTypeWithExclusive` (a report's `SelectedPeriod`): every preset period and the `...Excl` variants. */
export const PRESET_PERIODS_WITH_EXCLUSIVE = [...PRESET_PERIODS.filter((p) => p !== 'All'), ...EXCLUSIVE, 'All'] as const satisfies readonly string[];

export const ALERT_TYPES = ['Ok', 'Error', 'Reminder'] as const;
export const ERROR_LEVELS = ['NoError', 'Unconfirmed', 'Confirmed'] as const;
/** Status `ErrorLevel` adds two values to the check's. */
export const STATUS_ERROR_LEVELS = ['NoError', 'Unconfirmed', 'Confirmed', 'Inactive', 'Inconclusive'] as const;

export const VAULT_ITEM_TYPES = ['CredentialSet', 'Certificate', 'CertificateArchive', 'File', 'OneTimePassword'] as const;
export const VAULT_AUTHORIZATION_TYPES = ['ViewVaultSection', 'ChangeVaultSection'] as const;
export const OTP_HASH_ALGORITHMS = ['SHA256', 'SHA512', 'SHA1'] as const;
export const OTP_ENCODINGS = ['Base32', 'Hex'] as const;

/**
 * Monitor fields the service removed on 2025-08-27, each mapped to the `ErrorConditions` type replacing it. Sending
 * one of them gets a 400; the schema package suggests (and `monsync migrate` makes) the replacement from this table.
 */
export const REMOVED_MONITOR_FIELDS = {
  AlertOnLoadTimeLimit1: 'LoadTimeLimit1',
  LoadTimeLimit1: 'LoadTimeLimit1',
  AlertOnLoadTimeLimit2: 'LoadTimeLimit2',
  LoadTimeLimit2: 'LoadTimeLimit2',
  AlertOnMaximumBytes: 'TotalMaxBytes',
  MaximumBytes: 'TotalMaxBytes',
  AlertOnMinimumBytes: 'TotalMinBytes',
  MinimumBytes: 'TotalMinBytes',
  AlertOnMaximumSize: 'PageElementMaxSizeWithPercentage',
  ElementMaximumSize: 'PageElementMaxSizeWithPercentage',
  AlertOnPercentageFail: 'PageElementFailedWithPercentage',
  FailedObjectPercentage: 'PageElementFailedWithPercentage',
  ExpectedHttpStatusCode: 'HttpStatus',
  ExpectedHttpStatusCodeSpecified: 'HttpStatus',
} as const satisfies Record<string, (typeof ERROR_CONDITION_TYPES)[number]>;

/** `EscalationLevel.EscalationMode` (D22). */
export const ESCALATION_MODES = ['AlertOnErrorCount', 'AlertOnErrorDuration'] as const;

/** `Integration.Type` (D22): Email, SMS and Phone are predefined on every account, the others configured in the web app. */
export const INTEGRATION_TYPES = ['Slack', 'PagerDuty', 'Sms', 'Email', 'Phone', 'Statushub', 'GenericWebhook'] as const;

/** `AlertDefinitionAuthorization.AuthorizationType` (D22). */
export const ALERT_DEFINITION_AUTHORIZATION_TYPES = ['EditAlertDefinition'] as const;

/**
 * Settings of an integration attached to an escalation level that GET never returns (P26 makes them write-only,
 * with a version counter the user bumps): sent on create and again only when asked.
 */
export const LEVEL_INTEGRATION_WRITE_ONLY_FIELDS = ['IsActive', 'SendOkAlerts', 'SendReminderAlerts'] as const;

/**
 * What an integration's type refuses in an escalation level's link (P26's docs): `SendOkAlerts` must be false for
 * Phone and GenericWebhook, `SendReminderAlerts` for GenericWebhook; `ExtraEmailAddresses` is for Email only and
 * `StatusHubServiceList` for Statushub only. The reason, or undefined when the type takes the setting.
 */
export function integrationTypeRefuses(type: string, field: string, value: unknown): string | undefined {
  if (field === 'SendOkAlerts' && value === true && (type === 'Phone' || type === 'GenericWebhook')) return `a ${type} integration sends no OK alerts: SendOkAlerts must be false`;
  if (field === 'SendReminderAlerts' && value === true && type === 'GenericWebhook') return 'a GenericWebhook integration sends no reminders: SendReminderAlerts must be false';
  if (field === 'ExtraEmailAddresses' && type !== 'Email') return `ExtraEmailAddresses is for Email integrations only, not ${type}`;
  if (field === 'StatusHubServiceList' && type !== 'Statushub') return `StatusHubServiceList is for Statushub integrations only, not ${type}`;
  return undefined;
}
