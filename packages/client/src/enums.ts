/**
 * Enumerations of the v4 API as typed constants, in the service's published spelling (`wire/enums.ts` holds the
 * lists and their sources). Where a list may still grow, the matching field type in `types.ts` stays open
 * (`Open<T>`) so that a value the service adds later is not a type error; closed lists are exact.
 */
import * as wire from './wire/enums.js';

/** A union of known values that still accepts any other string (autocomplete keeps the known ones). */
export type Open<T extends string> = T | (string & Record<never, never>);

type ValueOf<T> = T[keyof T];

export const UserAgents = { ChromeLatest: 'ChromeLatest', EdgeLatest: 'EdgeLatest' } as const;
export type UserAgent = ValueOf<typeof UserAgents>;

/** `{ Name: 'Name', ... }` for a published list: the constant objects below are built from `wire/enums.ts`. */
function named<const T extends readonly string[]>(values: T): { readonly [K in T[number]]: K } {
  return Object.fromEntries(values.map((value) => [value, value])) as { readonly [K in T[number]]: K };
}

/** The full published list (the spec shows seven). */
export const ErrorConditionTypes = named(wire.ERROR_CONDITION_TYPES);
export type ErrorConditionType = ValueOf<typeof ErrorConditionTypes>;

/** Both published lists: see `wire/enums.ts` for why neither is translated into the other. */
export const ErrorConditionLevels = named(wire.ERROR_CONDITION_LEVELS);
export type ErrorConditionLevel = ValueOf<typeof ErrorConditionLevels>;
export const MatchTypes = named(wire.MATCH_TYPES);
export type MatchType = ValueOf<typeof MatchTypes>;

export const MonitorModes = named(wire.MONITOR_MODES);
export type MonitorMode = ValueOf<typeof MonitorModes>;
export const MonitorTypes = named(wire.MONITOR_TYPES);
export type MonitorType = ValueOf<typeof MonitorTypes>;
export const Sortings = named(wire.SORTINGS);
export type Sorting = ValueOf<typeof Sortings>;
export const MaintenanceTypes = named(wire.MAINTENANCE_TYPES);
export type MaintenanceType = ValueOf<typeof MaintenanceTypes>;

/** "Omitted for some types". */
export const Effects = named(wire.EFFECTS);
export type Effect = ValueOf<typeof Effects>;

/** Monitor fields the service removed on 2025-08-27 and what replaces each (the table is in `wire/enums.ts`). */
export const RemovedMonitorFields = wire.REMOVED_MONITOR_FIELDS;
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

/**
 * The published list (2022 definition, and the two the 2026 provider adds); `Administrator` is listed but never
 * assignable. The spec shows only `FinancialOperator` and `AllowInfra`.
 */
export const OperatorGroupAuthorizationTypes = {
  ShareDashboards: 'ShareDashboards',
  AllowInfra: 'AllowInfra',
  Administrator: 'Administrator',
  TechnicalContact: 'TechnicalContact',
  FinancialOperator: 'FinancialOperator',
  BasicOperator: 'BasicOperator',
  CreateAlertDefinition: 'CreateAlertDefinition',
  CreateIntegration: 'CreateIntegration',
  CreatePrivateLocations: 'CreatePrivateLocations',
  ManageMonitorTemplates: 'ManageMonitorTemplates',
} as const;
export type OperatorGroupAuthorizationType = ValueOf<typeof OperatorGroupAuthorizationTypes>;

/**
 * An operator's own authorization types (the 2022 definition, and the two the 2026 provider adds).
 * `AccountAdministrator` is listed but never assignable; a new operator is given `AccountAccess` by the service.
 */
export const OperatorAuthorizationTypes = {
  AccountAccess: 'AccountAccess',
  AccountAdministrator: 'AccountAdministrator',
  AllowInfra: 'AllowInfra',
  FinancialOperator: 'FinancialOperator',
  TechnicalContact: 'TechnicalContact',
  ShareDashboards: 'ShareDashboards',
  CreateAlertDefinition: 'CreateAlertDefinition',
  CreateIntegration: 'CreateIntegration',
  CreatePrivateLocations: 'CreatePrivateLocations',
  ManageMonitorTemplates: 'ManageMonitorTemplates',
} as const;
export type OperatorAuthorizationType = ValueOf<typeof OperatorAuthorizationTypes>;

export const FileTypes = named(wire.FILE_TYPES);
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

/** `ScheduledReport.SelectedPeriod`: `PresetPeriodTypeWithExclusive`, every preset period and the `...Excl` variants. */
export const SelectedPeriods = named(wire.PRESET_PERIODS_WITH_EXCLUSIVE);
export type SelectedPeriod = ValueOf<typeof SelectedPeriods>;

export const ScheduleModes = { OneTime: 'OneTime', Daily: 'Daily', Weekly: 'Weekly', Monthly: 'Monthly' } as const;
export type ScheduleMode = ValueOf<typeof ScheduleModes>;

export const WeekDays = named(wire.WEEK_DAYS);
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


/** Preset periods of the Alert and Statistics queries: `PreviousDay` without a space (the spec's `Previous Day` is read too), and `All`. */
export const PresetPeriods = named(wire.PRESET_PERIODS);
export type PresetPeriod = ValueOf<typeof PresetPeriods>;

export const AlertTypes = named(wire.ALERT_TYPES);
export type AlertType = ValueOf<typeof AlertTypes>;

export const ErrorLevels = { NoError: 'NoError', Unconfirmed: 'Unconfirmed', Confirmed: 'Confirmed' } as const;
export type ErrorLevel = ValueOf<typeof ErrorLevels>;
