/**
 * Enumerations of the v4 API as typed constants. Where the spec says a list is incomplete ("values seen",
 * "full list: not shown"), the matching field type in `types.ts` stays open (`Open<T>`) so that a value the
 * service adds later is not a type error; closed lists are exact.
 */

/** A union of known values that still accepts any other string (autocomplete keeps the known ones). */
export type Open<T extends string> = T | (string & Record<never, never>);

type ValueOf<T> = T[keyof T];

export const UserAgents = { ChromeLatest: 'ChromeLatest', EdgeLatest: 'EdgeLatest' } as const;
export type UserAgent = ValueOf<typeof UserAgents>;

export const ErrorConditionTypes = {
  LoadTimeLimit1: 'LoadTimeLimit1',
  LoadTimeLimit2: 'LoadTimeLimit2',
  TotalMaxBytes: 'TotalMaxBytes',
  TotalMinBytes: 'TotalMinBytes',
  PageElementMaxSizeWithPercentage: 'PageElementMaxSizeWithPercentage',
  PageElementFailedWithPercentage: 'PageElementFailedWithPercentage',
  HttpStatus: 'HttpStatus',
} as const;
export type ErrorConditionType = ValueOf<typeof ErrorConditionTypes>;

/** Effects seen in the spec; "omitted for some types". */
export const Effects = { Indicate: 'Indicate', Error: 'Error' } as const;
export type Effect = ValueOf<typeof Effects>;

/**
 * Monitor fields the service removed on 2025-08-27, each mapped to the `ErrorConditions` type replacing it.
 * Sending one of them gets a 400; the schema package uses this table to suggest the migration.
 */
export const RemovedMonitorFields = {
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
} as const satisfies Record<string, ErrorConditionType>;
export type RemovedMonitorField = keyof typeof RemovedMonitorFields;

export const VaultItemTypes = {
  CertificateArchive: 'CertificateArchive',
  Certificate: 'Certificate',
  CredentialSet: 'CredentialSet',
  File: 'File',
  OneTimePassword: 'OneTimePassword',
} as const;
export type VaultItemType = ValueOf<typeof VaultItemTypes>;

/** Secret encodings of OneTimePassword items (default Base32). The JSON field name is not in the spec. */
export const OtpEncodings = { Hex: 'Hex', Base32: 'Base32' } as const;
export type OtpEncoding = ValueOf<typeof OtpEncodings>;

export const VaultAuthorizationTypes = {
  ViewVaultSection: 'ViewVaultSection',
  ChangeVaultSection: 'ChangeVaultSection',
} as const;
export type VaultAuthorizationType = ValueOf<typeof VaultAuthorizationTypes>;

/** Values seen; the full list of `OperatorGroupAuthorizationType` is not in the spec. */
export const OperatorGroupAuthorizationTypes = { FinancialOperator: 'FinancialOperator', AllowInfra: 'AllowInfra' } as const;
export type OperatorGroupAuthorizationType = ValueOf<typeof OperatorGroupAuthorizationTypes>;

export const FileTypes = {
  PDFAttachment: 'PDFAttachment',
  PDFDownloadLink: 'PDFDownloadLink',
  ExcelAttachment: 'ExcelAttachment',
  ExcelDownloadLink: 'ExcelDownloadLink',
  HTMLEmail: 'HTMLEmail',
} as const;
export type FileType = ValueOf<typeof FileTypes>;

export const ScheduleTypes = {
  Daily: 'Daily',
  Weekly: 'Weekly',
  Monthly: 'Monthly',
  Quarterly: 'Quarterly',
  Yearly: 'Yearly',
} as const;
export type ScheduleType = ValueOf<typeof ScheduleTypes>;

/** Quarterly reports: 1 = Jan/Apr/Jul/Oct, 2 = Feb/May/Aug/Nov, 3 = Mar/Jun/Sep/Dec. */
export const QuarterStartMonths = { JanAprJulOct: 1, FebMayAugNov: 2, MarJunSepDec: 3 } as const;
export type QuarterStartMonth = ValueOf<typeof QuarterStartMonths>;

/** Values seen for `ScheduledReport.SelectedPeriod`; the full list is not in the spec. */
export const SelectedPeriods = {
  CurrentDay: 'CurrentDay',
  PreviousDay: 'PreviousDay',
  Last6Months: 'Last6Months',
  Last24Months: 'Last24Months',
} as const;
export type SelectedPeriod = ValueOf<typeof SelectedPeriods>;

export const ScheduleModes = { OneTime: 'OneTime', Daily: 'Daily', Weekly: 'Weekly', Monthly: 'Monthly' } as const;
export type ScheduleMode = ValueOf<typeof ScheduleModes>;

export const WeekDays = {
  Monday: 'Monday',
  Tuesday: 'Tuesday',
  Wednesday: 'Wednesday',
  Thursday: 'Thursday',
  Friday: 'Friday',
  Saturday: 'Saturday',
  Sunday: 'Sunday',
} as const;
export type WeekDay = ValueOf<typeof WeekDays>;

/** Operator cultures; an empty string means "use the account culture". */
export const CultureNames = {
  EnUS: 'en-US',
  EnGB: 'en-GB',
  FrFR: 'fr-FR',
  DeDE: 'de-DE',
  NlNL: 'nl-NL',
  AccountDefault: '',
} as const;
export type CultureName = ValueOf<typeof CultureNames>;

export const SmsProviders = {
  UseAccountSetting: 'UseAccountSetting',
  SmsProviderEurope: 'SmsProviderEurope',
  SmsProviderEurope2: 'SmsProviderEurope2',
  SmsProviderUSA: 'SmsProviderUSA',
  SmsProviderInternational: 'SmsProviderInternational',
} as const;
export type SmsProvider = ValueOf<typeof SmsProviders>;

/** Only `UseAccountSetting` is seen in the spec. */
export const PhoneProviders = { UseAccountSetting: 'UseAccountSetting' } as const;
export type PhoneProvider = ValueOf<typeof PhoneProviders>;

/**
 * Preset periods of the Alert and Statistics queries. The `Previous ...` values are written with a space in
 * the reference and are sent that way (percent-encoded as `%20`).
 */
export const PresetPeriods = {
  CurrentDay: 'CurrentDay',
  CurrentWeek: 'CurrentWeek',
  CurrentMonth: 'CurrentMonth',
  CurrentQuarter: 'CurrentQuarter',
  CurrentYear: 'CurrentYear',
  PreviousDay: 'Previous Day',
  PreviousWeek: 'Previous Week',
  PreviousMonth: 'Previous Month',
  PreviousQuarter: 'Previous Quarter',
  PreviousYear: 'Previous Year',
  Last2Hours: 'Last2Hours',
  Last6Hours: 'Last6Hours',
  Last12Hours: 'Last12Hours',
  Last24Hours: 'Last24Hours',
  Last48Hours: 'Last48Hours',
  Last7Days: 'Last7Days',
  Last30Days: 'Last30Days',
  Last60Days: 'Last60Days',
  Last90Days: 'Last90Days',
  Last365Days: 'Last365Days',
  Last3Months: 'Last3Months',
  Last6Months: 'Last6Months',
  Last12Months: 'Last12Months',
  Last24Months: 'Last24Months',
} as const;
export type PresetPeriod = ValueOf<typeof PresetPeriods>;

/** Alert types seen in v4; the full set is not in the spec. */
export const AlertTypes = { Reminder: 'Reminder', Error: 'Error' } as const;
export type AlertType = ValueOf<typeof AlertTypes>;

export const ErrorLevels = { NoError: 'NoError', Unconfirmed: 'Unconfirmed', Confirmed: 'Confirmed' } as const;
export type ErrorLevel = ValueOf<typeof ErrorLevels>;
