/**
 * The config format, once: the TypeScript types of the desired state and `schemas/config.schema.json` are both
 * derived from these TypeBox objects. Descriptions come from the field tables of the API spec (editors show them).
 */
import { Type, type Static, type TNever, type TObject, type TOptional } from '@sinclair/typebox';
import * as wire from '@monsync/client/wire';
import type { Secret } from './secret.js';
import { ApiObject, ClosedObject, IntegerEnum, OpenEnum, StringEnum, def, use } from './schema-builder.js';
import { IGNORABLE_KINDS } from './kinds.js';
import { POLICY_RULES } from './policy/rules.js';
import { DEFAULT_SAFETY } from './safety.js';
import { ALLOW_UNKNOWN_FIELD_KEYS } from './published-fields.js';
import type { SafetyLimits } from './types.js';

// ---------------------------------------------------------------------------------------------------------------
// Enumerations, as the service spells them (`@monsync/client/wire` holds the published lists)
// ---------------------------------------------------------------------------------------------------------------

export const USER_AGENTS = ['ChromeLatest', 'EdgeLatest'] as const;
export const ERROR_CONDITION_TYPES = wire.ERROR_CONDITION_TYPES;
export const EFFECTS = wire.EFFECTS;
export const ERROR_CONDITION_LEVELS = wire.ERROR_CONDITION_LEVELS;
export const MATCH_TYPES = wire.MATCH_TYPES;
export const MONITOR_MODES = wire.MONITOR_MODES;
export const MONITOR_TYPES = wire.MONITOR_TYPES;
export const VAULT_ITEM_TYPES = ['CertificateArchive', 'Certificate', 'CredentialSet', 'File', 'OneTimePassword'] as const;
export const FILE_TYPES = wire.FILE_TYPES;
export const SCHEDULE_TYPES = ['Daily', 'Weekly', 'Monthly', 'Quarterly', 'Yearly'] as const;
export const SCHEDULE_MODES = ['OneTime', 'Daily', 'Weekly', 'Monthly'] as const;
export const WEEK_DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export const CULTURE_NAMES = ['en-US', 'en-GB', 'fr-FR', 'de-DE', 'nl-NL', ''] as const;
export const SMS_PROVIDERS = ['UseAccountSetting', 'SmsProviderEurope', 'SmsProviderEurope2', 'SmsProviderUSA', 'SmsProviderInternational'] as const;
export const QUARTER_START_MONTHS = [1, 2, 3] as const;
export const SELECTED_PERIODS = wire.PRESET_PERIODS_WITH_EXCLUSIVE;
export const ALERT_TYPES = wire.ALERT_TYPES;
export { MANAGED_KINDS, type ManagedKind } from './kinds.js';
/** Singular kind names used by `ignore` patterns (`monitor:legacy-*`): from the kind registry (kinds.ts). */
export const IGNORE_KINDS = IGNORABLE_KINDS;

/**
 * Monitor fields the service removed on 2025-08-27, each with the `ErrorConditionType` that replaces it: the one
 * table in `@monsync/client/wire`, which the migration uses too.
 */
export const REMOVED_MONITOR_FIELDS = wire.REMOVED_MONITOR_FIELDS;

export type RemovedMonitorField = keyof typeof REMOVED_MONITOR_FIELDS;

export const UserAgentSchema = def('UserAgent', StringEnum(USER_AGENTS, { description: 'Browser user agent: the latest Chrome or Edge version.' }));
export const ErrorConditionTypeSchema = def(
  'ErrorConditionType',
  StringEnum(ERROR_CONDITION_TYPES, {
    description:
      'Kind of error condition. The service adds LoadTimeLimit1 and LoadTimeLimit2 to every monitor; monsync leaves them alone unless you declare them. ' +
      'Units of `Value`: LoadTimeLimit1/LoadTimeLimit2 milliseconds (the vendor\'s provider writes "3500" for 3.5 s; the v3 limits counted milliseconds too); ' +
      'TotalMinBytes/TotalMaxBytes bytes; HttpStatus an HTTP status code; PageElementFailedWithPercentage a percentage. The published sources state no unit for the ' +
      'other types: check the web application before relying on one.',
  }),
);
export const EffectSchema = def('Effect', StringEnum(EFFECTS, { description: 'What the condition causes: `Error` raises an error, `Indicate` only marks the check. Omitted for some types.' }));
export const ErrorConditionLevelSchema = def(
  'ErrorConditionLevel',
  StringEnum(ERROR_CONDITION_LEVELS, {
    description: 'Severity of the condition: Info, Warning, Error (the 2022 definition calls the last one Severe; both are sent as written).',
  }),
);
export const MatchTypeSchema = def(
  'MatchType',
  StringEnum(MATCH_TYPES, {
    description:
      'How a content condition matches: ErrorWhenContains, ErrorWhenNotContains and their Regex forms (the 2022 definition names them Positive, Negative, PositiveRegex, NegativeRegex; both are sent as written).',
  }),
);
// The API enumerations are closed, as the published definition lists them: a value the service added after this
// release passes only when monsync.yaml allows it (`allowUnknown.values`); pull writes that for what an account holds.
export const MonitorModeSchema = def('MonitorMode', StringEnum(MONITOR_MODES, { description: 'Stage of the monitor: Development, Staging or Production.' }));
export const MonitorTypeSchema = def(
  'MonitorType',
  StringEnum(MONITOR_TYPES, { description: 'Kind of monitor, e.g. `Https` (the service no longer creates `Http`, `WebserviceHttp` or `WebserviceHttps`).' }),
);
export const VaultItemTypeSchema = def(
  'VaultItemType',
  StringEnum(VAULT_ITEM_TYPES, {
    description:
      '`CertificateArchive` (client-certificate archive, e.g. pfx), `Certificate` (public key, for single sign-on), `CredentialSet` (username/password), `File` (file for self-service transaction monitors, at most 2 MB, any format), `OneTimePassword` (secret for two-factor authentication).',
  }),
);
export const FileTypeSchema = def('FileType', StringEnum(FILE_TYPES, { description: 'Form in which the report is delivered.' }));
export const ScheduleTypeSchema = def('ScheduleType', StringEnum(SCHEDULE_TYPES, { description: 'How often the report is sent.' }));
export const ScheduleModeSchema = def('ScheduleMode', StringEnum(SCHEDULE_MODES, { description: 'Recurrence of an operator duty schedule.' }));
export const WeekDaySchema = def('WeekDay', StringEnum(WEEK_DAYS, { description: 'Day of the week.' }));
export const CultureNameSchema = def(
  'CultureName',
  StringEnum(CULTURE_NAMES, { description: 'Language and formats of the operator; empty or unspecified means the account culture.' }),
);
export const SmsProviderSchema = def('SmsProvider', StringEnum(SMS_PROVIDERS, { description: 'Provider used for SMS alerts to this operator.' }));
export const QuarterStartMonthSchema = def(
  'QuarterStartMonth',
  IntegerEnum(QUARTER_START_MONTHS, { description: '1 = Jan/Apr/Jul/Oct, 2 = Feb/May/Aug/Nov, 3 = Mar/Jun/Sep/Dec.' }),
);
export const SelectedPeriodSchema = def(
  'SelectedPeriod',
  StringEnum(SELECTED_PERIODS, {
    description: 'Period covered by the report: a preset period (`PreviousWeek`, without a space; `All`), or a `...Excl` variant, which leaves out the current, incomplete unit.',
  }),
);
export const AlertTypeSchema = def('AlertType', StringEnum(ALERT_TYPES, { description: 'Kind of alert.' }));

// ---------------------------------------------------------------------------------------------------------------
// Scalars
// ---------------------------------------------------------------------------------------------------------------

export const TIMESTAMP_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$';
export const TimestampSchema = def(
  'Timestamp',
  Type.String({ pattern: TIMESTAMP_PATTERN, description: 'v4 timestamp `YYYY-MM-DDTHH:MM:SS`: no time-zone designator, no milliseconds.' }),
);
export const TimeOfDaySchema = def(
  'TimeOfDay',
  Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$', description: 'Time of day `HH:MM:SS` (24-hour).' }),
);
export const ShortTimeSchema = def('ShortTime', Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'Time of day `HH:mm` (24-hour).' }));
export const EmailSchema = def('Email', Type.String({ format: 'email', description: 'E-mail address.' }));
/**
 * A GUID as the API writes it (8-4-4-4-12 hexadecimal digits). Checked at validate, before any request: a pin
 * that cannot be a GUID would otherwise surface only after the whole account had been read.
 */
export const GUID_PATTERN = '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$';
const Guid = (description: string) => Type.String({ pattern: GUID_PATTERN, description: `${description} A GUID: 8-4-4-4-12 hexadecimal digits.` });
const Name = (description: string) => Type.String({ minLength: 1, description });

/** `{ fromEnv: NAME }` or `{ fromFile: path }`: the only way to write a secret. Decoded into a `Secret`. */
export const SecretRefSchema = def(
  'SecretRef',
  Type.Unsafe<Secret>({
    title: 'SecretRef',
    description:
      'A secret, by reference only (never a literal): `{ fromEnv: NAME }` reads an environment variable, `{ fromFile: path }` reads a file relative to this YAML file (base64-encoded for binary vault types). Read only when values are needed.',
    anyOf: [
      {
        type: 'object',
        properties: { fromEnv: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description: 'Name of the environment variable holding the value.' } },
        required: ['fromEnv'],
        additionalProperties: false,
      },
      {
        type: 'object',
        properties: { fromFile: { type: 'string', minLength: 1, description: 'Path of the file holding the value, relative to this YAML file.' } },
        required: ['fromFile'],
        additionalProperties: false,
      },
    ],
  }),
);

/** `{ vault: "Section/Item" }`: resolved by the reconciler to `{{vault:<VaultItemGuid>}}`. */
/**
 * A value that looks like a secret but is not, kept in clear on purpose and reviewable in the tree (camelCase: monsync's
 * own form). Decoded into the literal string.
 */
export const NotSecretSchema = def(
  'NotSecret',
  Type.Unsafe<string>({
    title: 'NotSecret',
    type: 'object',
    description:
      'A value that looks like a secret but is not, written on purpose: `{ literal: "...", notSecret: "why" }`. monsync refuses a literal that looks like a secret where none is expected (a variable or header whose name says password, token, secret or key; a `Bearer ...` or JWT-shaped value; a URL with `user:password@`); this form sends `literal` as written, and `notSecret` tells reviewers why it may be kept in clear. Accepted in a variable `Value` and anywhere inside a PascalCase field monsync passes through (e.g. `Url`).',
    properties: {
      literal: { type: 'string', description: 'The value, sent as written.' },
      notSecret: { type: 'string', minLength: 1, description: 'Why this value is not a secret, for reviewers of the tree.' },
    },
    required: ['literal', 'notSecret'],
    additionalProperties: false,
  }),
);

export const VaultRefSchema = def(
  'VaultRef',
  ClosedObject(
    { vault: Type.String({ pattern: '^[^/]+/[\\s\\S]+$', description: 'Declared vault item as `Section/Item` (section Name, slash, item Name).' }) },
    { title: 'VaultRef', description: 'Reference to a declared vault item; sent as `{{vault:<VaultItemGuid>}}`.' },
  ),
);

// ---------------------------------------------------------------------------------------------------------------
// Guardrails every declared object may carry: protection and policy waivers (monsync's own, never sent)
// ---------------------------------------------------------------------------------------------------------------

export const WAIVER_DATE_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';

export const PolicyWaiverSchema = def(
  'PolicyWaiver',
  ClosedObject(
    {
      rule: OpenEnum(
        POLICY_RULES.map((rule) => rule.name),
        { description: 'Name of the policy rule this object is excused from (a rule of `policy:` in monsync.yaml).' },
      ),
      reason: Type.String({ minLength: 1, description: 'Why the object may break the rule: required, and shown in reviews.' }),
      until: Type.Optional(
        Type.String({ pattern: WAIVER_DATE_PATTERN, description: 'Last day (YYYY-MM-DD, UTC) the waiver holds; after it the waiver is an error. Without it the waiver does not expire.' }),
      ),
    },
    { description: 'Silences one policy rule for this object.' },
  ),
);

/** `protect` and `policyWaivers`, on every kind whose declarations are objects; stripped before anything is sent or compared. */
const guardrails = {
  protect: Type.Optional(
    Type.Boolean({
      description:
        'true: monsync never deletes or retires this object (nor the objects declared inside it), not even with --allow-unsafe; a plan that would is refused (exit 1). Remove it in a reviewed change first.',
    }),
  ),
  policyWaivers: Type.Optional(Type.Array(PolicyWaiverSchema, { description: 'Policy rules this object is excused from, each with a reason and an optional end date.' })),
};

// ---------------------------------------------------------------------------------------------------------------
// Monitors
// ---------------------------------------------------------------------------------------------------------------

export const ErrorConditionSchema = def(
  'ErrorCondition',
  ApiObject(
    {
      ErrorConditionType: use(ErrorConditionTypeSchema, 'Kind of condition (set key: at most one entry per type).'),
      Value: Type.String({
        description:
          'Limit value, as a string. LoadTimeLimit1/LoadTimeLimit2: milliseconds ("3000" is 3 seconds; a value under 100 is warned about, LOAD_TIME_IN_SECONDS); ' +
          'TotalMinBytes/TotalMaxBytes: bytes; HttpStatus: an HTTP status code (e.g. "200").',
      }),
      Percentage: Type.Optional(Type.String({ description: 'Percentage, as a string; used by PageElementMaxSizeWithPercentage and PageElementFailedWithPercentage.' })),
      Effect: Type.Optional(EffectSchema),
      Level: Type.Optional(ErrorConditionLevelSchema),
      MatchType: Type.Optional(MatchTypeSchema),
    },
    { description: 'One error condition of a monitor.' },
  ),
);

export const PredefinedVariableSchema = def(
  'PredefinedVariable',
  ApiObject(
    {
      Key: Type.String({ minLength: 1, description: 'Variable name (set key).' }),
      Value: Type.Union([Type.String(), VaultRefSchema, SecretRefSchema, NotSecretSchema], {
        description:
          'Variable value: a string, `{ vault: "Section/Item" }` to use a vault item, or a secret by reference (`{ fromEnv: NAME }` / `{ fromFile: path }`) for a value that must not be kept in the file. A literal is refused when the Key names a credential or the value looks like one; `{ literal: "...", notSecret: "why" }` keeps one that only looks secret.',
      }),
      Sensitive: Type.Optional(
        Type.Never({
          description: 'Obsolete for multi-step API monitors and must not be sent (the service rejects it). Keep a secret value out of the file with a secret or vault reference instead.',
          deprecated: true,
        }),
      ),
    },
    { description: 'User-defined or collection variable of a collection-based API monitor.' },
  ),
);

const removedFields = Object.fromEntries(
  Object.entries(REMOVED_MONITOR_FIELDS).map(([field, replacement]) => [
    field,
    Type.Optional(
      Type.Never({
        description: `Removed by the service on 2025-08-27: use an \`ErrorConditions\` entry of type \`${replacement}\` (run \`monsync migrate\`).`,
        deprecated: true,
      }),
    ),
  ]),
) as { [K in RemovedMonitorField]: TOptional<TNever> };

export const MonitorSchema = def(
  'Monitor',
  ApiObject(
    {
      Name: Name('Monitor name; the key of the monitor (unique among managed monitors).'),
      MonitorGuid: Type.Optional(Guid('Pins the identity of an existing monitor (adopt or rename).')),
      MonitorType: Type.Optional(MonitorTypeSchema),
      MonitorMode: Type.Optional(MonitorModeSchema),
      HttpMethod: Type.Optional(StringEnum(wire.HTTP_METHODS, { description: 'HTTP method of the check.' })),
      IpVersion: Type.Optional(StringEnum(wire.IP_VERSIONS, { description: 'IP version the check uses.' })),
      HttpVersion: Type.Optional(StringEnum(wire.HTTP_VERSIONS, { description: 'HTTP version the check negotiates.' })),
      AuthenticationType: Type.Optional(StringEnum(wire.AUTHENTICATION_TYPES, { description: 'How the check authenticates.' })),
      BrowserType: Type.Optional(StringEnum(wire.BROWSER_TYPES, { description: 'Browser of a browser-based check.' })),
      CheckInterval: Type.Optional(
        Type.Integer({
          minimum: 1,
          description: 'Minutes between checks (the v3 field `CheckFrequency` counted minutes too). Not together with CheckIntervalSeconds. Below the account minimum the service refuses it.',
        }),
      ),
      CheckIntervalSeconds: Type.Optional(Type.Integer({ minimum: 1, description: 'Seconds between checks, for intervals under a minute. Not together with CheckInterval.' })),
      IsActive: Type.Optional(Type.Boolean({ description: 'Whether the monitor runs checks.' })),
      GenerateAlert: Type.Optional(Type.Boolean({ description: 'Whether errors raise alerts.' })),
      UserAgent: Type.Optional(UserAgentSchema),
      ErrorConditions: Type.Optional(
        Type.Array(ErrorConditionSchema, { description: 'Error conditions (a set keyed by `ErrorConditionType`); replaces the removed limit fields.' }),
      ),
      PredefinedVariables: Type.Optional(
        Type.Array(PredefinedVariableSchema, { description: 'Variables of collection-based API monitors (a set keyed by `Key`). A value can reference the vault.' }),
      ),
      Password: Type.Optional(use(SecretRefSchema, 'Monitor password: write-only, by reference only.')),
      ...removedFields,
      ...guardrails,
    },
    { title: 'Monitor', description: 'A monitor. PascalCase fields are API fields sent verbatim; one the published definition does not list is an error unless monsync.yaml allows it (allowUnknown).' },
  ),
);

// ---------------------------------------------------------------------------------------------------------------
// Monitor groups
// ---------------------------------------------------------------------------------------------------------------

export const MonitorGroupSchema = def(
  'MonitorGroup',
  ApiObject(
    {
      Description: Name('Group name; the key of the group.'),
      MonitorGroupGuid: Type.Optional(Guid('Pins the identity of an existing group (adopt or rename).')),
      members: Type.Optional(
        Type.Array(Type.String({ minLength: 1 }), { description: 'Names of declared monitors; membership is reconciled.', uniqueItems: true }),
      ),
      IsAll: Type.Optional(
        Type.Boolean({ description: 'True only for the default All Monitors group, which holds every monitor and cannot be a target.' }),
      ),
      ...guardrails,
    },
    { title: 'MonitorGroup', description: 'A monitor group.' },
  ),
);

// ---------------------------------------------------------------------------------------------------------------
// Vault
// ---------------------------------------------------------------------------------------------------------------

export const CertificateArchiveSchema = def(
  'CertificateArchive',
  ApiObject(
    {
      Password: Type.Optional(use(SecretRefSchema, 'Password of the archive (write-only).')),
      ArchiveData: Type.Optional(use(SecretRefSchema, 'The archive (e.g. a pfx file), base-64 (write-only); `fromFile` reads it as binary.')),
      Issuer: Type.Optional(Type.String({ description: 'Issuer (read-only).' })),
      NotBefore: Type.Optional(use(TimestampSchema, 'Start of validity (read-only).')),
      NotAfter: Type.Optional(use(TimestampSchema, 'End of validity (read-only).')),
    },
    { description: 'Client-certificate archive of a CertificateArchive item.' },
  ),
);

export const VaultItemSchema = def(
  'VaultItem',
  ApiObject(
    {
      Name: Name('Display name; the key of the item within its section.'),
      VaultItemType: VaultItemTypeSchema,
      VaultItemGuid: Type.Optional(Guid('Pins the identity of an existing item.')),
      Value: Type.Optional(
        use(SecretRefSchema, 'Content per type: CertificateArchive: the binary file (base-64); Certificate: the PEM certificate, a file or a variable holding PEM text or its base-64 (sent base-64 encoded, as the service expects); OneTimePassword: the secret; File: the file (at most 2 MB). Unused for CredentialSet.'),
      ),
      Notes: Type.Optional(Type.String({ description: 'Description. monsync appends its fingerprint marker `monsync:fp=<hex>`.' })),
      UserName: Type.Optional(Type.String({ description: 'User name of a CredentialSet.' })),
      Password: Type.Optional(use(SecretRefSchema, 'Password of a CredentialSet (write-only).')),
      CertificateArchive: Type.Optional(CertificateArchiveSchema),
      ...guardrails,
    },
    { title: 'VaultItem', description: 'A vault item: sensitive reusable data.' },
  ),
);

export const VAULT_ACCESS_LEVELS = ['view', 'change'] as const;

export const VaultAccessSchema = def(
  'VaultAccess',
  Type.Union(
    [
      ClosedObject({ operator: use(EmailSchema, 'Email of an operator.'), level: StringEnum(VAULT_ACCESS_LEVELS, { description: '`view`, or `change` (change and view).' }) }),
      ClosedObject({ group: Name('Description of an operator group.'), level: StringEnum(VAULT_ACCESS_LEVELS, { description: '`view`, or `change` (change and view).' }) }),
    ],
    { description: 'Who may see (`view`) or also change (`change`) the section: one operator (by Email) or one group (by Description).' },
  ),
);

export const VaultSectionSchema = def(
  'VaultSection',
  ApiObject(
    {
      Name: Name('Section name; the key of the section.'),
      VaultSectionGuid: Type.Optional(Guid('Pins the identity of an existing section.')),
      items: Type.Optional(Type.Array(VaultItemSchema, { description: 'Items of the section (key: section + item Name).' })),
      ...guardrails,
      access: Type.Optional(
        Type.Array(VaultAccessSchema, {
          description:
            'Who may see or change the section; when present, exactly these operators and groups have access (the API account\'s own operator keeps the access the service gave it as creator unless it is listed here).',
        }),
      ),
    },
    { title: 'VaultSection', description: 'A vault section; every vault item belongs to exactly one section.' },
  ),
);

export const VaultSchema = def(
  'Vault',
  ClosedObject({ sections: Type.Optional(Type.Array(VaultSectionSchema, { description: 'Vault sections with their items.' })) }, { description: 'The vault: sensitive reusable data.' }),
);

// ---------------------------------------------------------------------------------------------------------------
// SLAs
// ---------------------------------------------------------------------------------------------------------------

export const SlaExclusionPeriodSchema = def(
  'SlaExclusionPeriod',
  ApiObject(
    {
      Description: Name('Name of the period; its key within the SLA.'),
      From: use(TimestampSchema, 'Start date-time.'),
      Until: use(TimestampSchema, 'End date-time; after From.'),
      ExclusionPeriodId: Type.Optional(Type.Union([Type.String(), Type.Integer()], { description: 'Pins the identity of an existing period.' })),
      ...guardrails,
    },
    { title: 'SlaExclusionPeriod', description: 'A period excluded from the SLA.' },
  ),
);

const Percent = (description: string) => Type.Number({ minimum: 0, maximum: 100, description });

export const SlaSchema = def(
  'Sla',
  ApiObject(
    {
      Description: Name('SLA name; the key of the SLA (must be unique; a duplicate gives a conflict).'),
      SlaGuid: Type.Optional(Guid('Pins the identity of an existing SLA.')),
      UptimeErrorThreshold: Type.Optional(Percent('Minimum uptime percentage; below it an error shows in the SLA overview.')),
      UptimeWarningThreshold: Type.Optional(
        Percent('Minimum uptime percentage to avoid a warning; a value below it but not below the error threshold gives a warning. At least UptimeErrorThreshold.'),
      ),
      LoadTimeErrorThreshold: Type.Optional(Type.Number({ minimum: 0, description: 'Maximum page load time to avoid an error.' })),
      OperatorReponseTimeThreshold: Type.Optional(
        Type.Integer({
          minimum: 0,
          description:
            'Allowed time between the operator receiving an alert notification and confirming it. Spelled as the service spells it (no "s" in "Repon"); the spelling `OperatorResponseTimeThreshold` is dropped by the service.',
        }),
      ),
      exclusionPeriods: Type.Optional(Type.Array(SlaExclusionPeriodSchema, { description: 'Exclusion periods (key: Description).' })),
      ...guardrails,
    },
    { title: 'Sla', description: 'A service level agreement.' },
  ),
);

// ---------------------------------------------------------------------------------------------------------------
// Scheduled reports
// ---------------------------------------------------------------------------------------------------------------

export const ReportScheduleSchema = def(
  'ReportSchedule',
  ApiObject(
    {
      ScheduleType: ScheduleTypeSchema,
      Time: Type.Optional(use(TimeOfDaySchema, 'Time of sending, `HH:MM:SS`.')),
      WeekDay: Type.Optional(use(WeekDaySchema, 'Day of sending; only for Weekly.')),
      MonthDay: Type.Optional(Type.Integer({ minimum: 1, maximum: 31, description: 'Day of the month; for Monthly.' })),
      QuarterStartMonth: Type.Optional(QuarterStartMonthSchema),
    },
    { description: 'When the report is sent. Only the fields of the ScheduleType are allowed.' },
  ),
);

export const RecipientsSchema = def(
  'Recipients',
  ApiObject(
    {
      Operators: Type.Optional(Type.Array(Guid('An operator.'), { description: 'Operator GUIDs.' })),
      OperatorGroups: Type.Optional(Type.Array(Guid('An operator group.'), { description: 'Operator group GUIDs.' })),
      ExtraEmailAddresses: Type.Optional(Type.Array(EmailSchema, { description: 'Further e-mail addresses.' })),
    },
    { description: 'Who receives the report.' },
  ),
);

export const REPORT_KEY_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]*$';

export const ScheduledReportSchema = def(
  'ScheduledReport',
  ApiObject(
    {
      key: Type.String({
        pattern: REPORT_KEY_PATTERN,
        maxLength: 100,
        description: 'monsync key of the report (reports have no name in the API); kept as a marker line `monsync:key=<key>` at the end of InternalNotes.',
      }),
      ScheduledReportGuid: Type.Optional(Guid('Pins the identity of an existing report.')),
      DashboardGuid: Guid('Dashboard the report is built from.'),
      FileType: FileTypeSchema,
      IsActive: Type.Optional(Type.Boolean({ description: 'True when the report is sent on schedule.' })),
      Schedule: ReportScheduleSchema,
      SelectedPeriod: Type.Optional(SelectedPeriodSchema),
      InternalNotes: Type.Optional(Type.String({ description: 'Notes visible only to account administrators.' })),
      Notes: Type.Optional(Type.String({ description: 'Text placed in the report message.' })),
      Recipients: Type.Optional(RecipientsSchema),
      ...guardrails,
    },
    { title: 'ScheduledReport', description: 'A scheduled dashboard report.' },
  ),
);

// ---------------------------------------------------------------------------------------------------------------
// Alert definitions
// ---------------------------------------------------------------------------------------------------------------

const StringList = (item: string, description: string) => Type.Optional(Type.Array(Type.String({ minLength: 1, description: item }), { description, uniqueItems: true }));

export const EscalationLevelIntegrationSchema = def(
  'EscalationLevelIntegration',
  ApiObject(
    {
      integration: Name('Name of an integration of the account (`GET /Integration`: Email, SMS and Phone are predefined, others are set up in the web app); the key of the entry within its level.'),
      VariableValues: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Values of the integration\'s variables for this level (variable name to text).' })),
      ExtraEmailAddresses: Type.Optional(Type.Array(use(EmailSchema, 'An address.'), { description: 'More addresses to send to (Email integrations only); compared as a set.', uniqueItems: true })),
      IsActive: Type.Optional(Type.Boolean({ description: 'Write-only: the service never returns it, so it is sent when the integration is attached and again only with `monsync plan --rotate escalationLevelIntegration:<key>`. Default when left out: true.' })),
      SendOkAlerts: Type.Optional(Type.Boolean({ description: 'Write-only (as IsActive). Must be false for Phone and GenericWebhook integrations. Default when left out: true where the integration\'s type allows it, else false.' })),
      SendReminderAlerts: Type.Optional(Type.Boolean({ description: 'Write-only (as IsActive). Must be false for GenericWebhook integrations. Default when left out: true, except false for GenericWebhook.' })),
    },
    { title: 'EscalationLevelIntegration', description: 'An integration attached to an escalation level, with its settings for that level.' },
  ),
);

export const ESCALATION_MODES = wire.ESCALATION_MODES;

export const EscalationLevelSchema = def(
  'EscalationLevel',
  ApiObject(
    {
      Id: Type.Integer({ minimum: 1, maximum: 4, description: 'The level number (1 to the number of levels the account has, 3 on most accounts, 4 on some); the key of the level.' }),
      EscalationMode: Type.Optional(StringEnum(ESCALATION_MODES, { description: 'Alert after `ThresholdErrorCount` errors, or after `ThresholdMinutes` of errors.' })),
      ThresholdErrorCount: Type.Optional(Type.Integer({ minimum: 0, description: 'Errors before this level alerts (with AlertOnErrorCount).' })),
      ThresholdMinutes: Type.Optional(Type.Integer({ minimum: 0, description: 'Minutes of errors before this level alerts (with AlertOnErrorDuration).' })),
      IsActive: Type.Optional(Type.Boolean({ description: 'Whether this level alerts at all.' })),
      Message: Type.Optional(Type.String({ description: 'Text added to the alerts of this level.' })),
      NumberOfReminders: Type.Optional(Type.Integer({ minimum: 0, description: 'Reminders sent while the error lasts.' })),
      ReminderDelay: Type.Optional(Type.Integer({ minimum: 0, description: 'Minutes between reminders.' })),
      IncludeTraceRoute: Type.Optional(Type.Boolean({ description: 'Whether alerts carry a trace route.' })),
      members: Type.Optional(
        ClosedObject(
          {
            operators: StringList('Email of an operator (declared, or in the account).', 'Operators this level reaches, by Email.'),
            operatorGroups: StringList('Description of an operator group (declared, or in the account).', 'Operator groups this level reaches, by Description.'),
          },
          { description: 'Whom this level reaches; when present, exactly these (an omitted list is empty).' },
        ),
      ),
      integrations: Type.Optional(Type.Array(EscalationLevelIntegrationSchema, { description: 'Integrations attached to this level; when present, exactly these (key: integration).' })),
    },
    { title: 'EscalationLevel', description: 'One of the definition\'s fixed escalation levels: declared levels are updated whole; levels are never created or deleted.' },
  ),
);

export const AlertDefinitionSchema = def(
  'AlertDefinition',
  ApiObject(
    {
      AlertName: Type.Optional(Name('Name of the alert definition; its key (an existing definition of this name, the default one included, is adopted).')),
      AlertDefinitionGuid: Type.Optional(Guid('Pins the identity of an existing definition (adopt or rename). Alone with IsActive, the older form: only activation is planned.')),
      IsActive: Type.Optional(Type.Boolean({ description: 'Whether the definition alerts.' })),
      members: Type.Optional(
        ClosedObject(
          {
            monitors: StringList('Name of a monitor (declared, or in the account).', 'Monitors this definition covers, by Name.'),
            monitorGroups: StringList('Description of a monitor group (declared, or in the account).', 'Monitor groups this definition covers, by Description.'),
          },
          { description: 'What this definition covers; when present, exactly these (an omitted list is empty).' },
        ),
      ),
      escalationLevels: Type.Optional(Type.Array(EscalationLevelSchema, { description: 'Escalation levels (key: Id); a level not listed is left as it is.' })),
      ...guardrails,
    },
    { title: 'AlertDefinition', description: 'An alert definition, by AlertName: what it covers and whom each escalation level reaches.' },
  ),
);

// ---------------------------------------------------------------------------------------------------------------
// Operators and operator groups
// ---------------------------------------------------------------------------------------------------------------

export const DutyScheduleSchema = def(
  'DutySchedule',
  ApiObject(
    {
      ScheduleMode: ScheduleModeSchema,
      StartDateTime: Type.Optional(use(TimestampSchema, 'Start; only for OneTime.')),
      EndDateTime: Type.Optional(use(TimestampSchema, 'End; only for OneTime.')),
      WeekDay: Type.Optional(use(WeekDaySchema, 'Only for Weekly.')),
      MonthDay: Type.Optional(Type.Integer({ minimum: 1, maximum: 31, description: 'Only for Monthly.' })),
      StartTime: Type.Optional(use(ShortTimeSchema, '24-hour `HH:mm`; for Daily, Weekly, Monthly.')),
      EndTime: Type.Optional(use(ShortTimeSchema, '24-hour `HH:mm`; for Daily, Weekly, Monthly.')),
      Id: Type.Optional(Type.Union([Type.Integer(), Type.String()], { description: 'Read-only, generated.' })),
    },
    {
      title: 'DutySchedule',
      description:
        'A duty schedule: Daily `StartTime`/`EndTime`; Weekly adds `WeekDay`; Monthly adds `MonthDay` (a month without that day has no window); OneTime `StartDateTime`/`EndDateTime`. Times are 24-hour `HH:mm` on the operator\'s clock (`TimeZoneId`); an `EndTime` not after `StartTime` ends the next day.',
    },
  ),
);

const DutySchedulesSchema = (description: string) =>
  Type.Optional(
    Type.Array(DutyScheduleSchema, {
      description: `${description} A set keyed by content (mode, days and times): order does not matter, and the same schedule twice is an error. Each schedule marks hours its operator is ON duty (see the README, "Duty schedules and the on-call preview").`,
    }),
  );

/**
 * Operator authorization types the published definition lists as assignable (D22, and P26's two newer ones); the
 * list is closed: a type the service added later passes with `allowUnknown: { values: { authorizations: [...] } }`.
 * `AccountAdministrator` is listed by the service but never assignable (`UNASSIGNABLE_AUTHORIZATION_TYPES`).
 */
export const OPERATOR_AUTHORIZATION_TYPES = [
  'AccountAccess',
  'AllowInfra',
  'FinancialOperator',
  'TechnicalContact',
  'ShareDashboards',
  'CreateAlertDefinition',
  'CreateIntegration',
  'CreatePrivateLocations',
  'ManageMonitorTemplates',
] as const;

/**
 * Operator fields a config must not declare, and why (the loader reports them with their position). The service
 * sets the first two; `IsOnDuty` is switched by people during an incident, operational state monsync never plans;
 * the last two are the spec's, absent from the service's published definition.
 */
export const OPERATOR_REFUSED_FIELDS = {
  IsAccountAdministrator: 'is read-only: the service sets it for the account administrator; remove it',
  UserName: 'is read-only: the service sets it from Email; remove it',
  IsOnDuty: 'is operational state that people switch during an incident, not configuration, so monsync never plans it; remove it (on-call hours are duty schedules)',
  // The spec lists these two; the service's published definition has neither, so it would drop them and every plan
  // would show them again.
  PhoneProvider: 'is not a field of the service (it drops it, so every plan would show it again); remove it: the account setting applies',
  OutgoingPhoneNumber: 'is not a field of the service, which takes the number\'s id; name the number with `outgoingPhoneNumber` (monsync looks up its id) or give `OutgoingPhoneNumberId`',
} as const;

const refusedOperatorFields = Object.fromEntries(
  Object.entries(OPERATOR_REFUSED_FIELDS).map(([field, why]) => [field, Type.Optional(Type.Never({ description: `Not allowed: \`${field}\` ${why}.` }))]),
);

export const OperatorSchema = def(
  'Operator',
  ApiObject(
    {
      Email: use(EmailSchema, 'Primary address and login name; the key of the operator (compared ignoring case).'),
      OperatorGuid: Type.Optional(Guid('Pins the identity of an existing operator (adopt, or change its Email).')),
      Password: Type.Optional(
        use(SecretRefSchema, 'Login password, by reference only. Sent when the operator is created; the service never returns it, so a change is sent only with `monsync apply --rotate operator:<Email>`.'),
      ),
      FullName: Type.Optional(Type.String()),
      MobilePhone: Type.Optional(Type.String()),
      OutgoingPhoneNumberId: Type.Optional(Type.Integer({ description: 'Number alerts are sent from: an `Id` of GET /OutgoingPhoneNumber. Or name the number with `outgoingPhoneNumber`.' })),
      outgoingPhoneNumber: Type.Optional(
        Type.String({
          minLength: 1,
          description:
            'Number alerts are sent from, by its `PhoneNumber` (spaces, dashes, dots and brackets ignored) or its `Description` (case ignored) in GET /OutgoingPhoneNumber; monsync sends its `OutgoingPhoneNumberId`. Not with `OutgoingPhoneNumberId`.',
          examples: ['+31 20 123 4567', 'Amsterdam'],
        }),
      ),
      BackupEmail: Type.Optional(use(EmailSchema, 'Backup e-mail address.')),
      CultureName: Type.Optional(use(CultureNameSchema, 'Write-only: the service does not return it, so it is sent on create and with `--rotate`, never compared.')),
      TimeZoneId: Type.Optional(Type.Integer({ description: 'When unspecified the account time zone applies; values come from the Timezone endpoints.' })),
      SmsProvider: Type.Optional(SmsProviderSchema),
      UseNumericSender: Type.Optional(Type.Boolean({ description: 'Applies when the SMS provider is set for this operator. Write-only: sent on create and with `--rotate`.' })),
      AllowNativeLogin: Type.Optional(Type.Boolean({ description: 'Username/password login allowed; unspecified means account setting. Write-only: sent on create and with `--rotate`.' })),
      AllowSingleSignon: Type.Optional(Type.Boolean({ description: 'Single sign-on allowed; unspecified means account setting. Write-only: sent on create and with `--rotate`.' })),
      dutySchedules: DutySchedulesSchema('The operator\'s own duty schedules; when present, the operator holds exactly these and those of the groups that list it in `members`.'),
      authorizations: Type.Optional(
        Type.Array(StringEnum(OPERATOR_AUTHORIZATION_TYPES, { description: 'An authorization type the operator holds.' }), {
          description:
            'Authorization types of the operator itself (those of its groups come with the groups); when present, the operator holds exactly these. `AccountAccess` (seeing monitors and dashboards) is given to every new operator by the service: list it unless the operator must not have it. `AccountAdministrator` cannot be assigned (members of the group Administrators hold it). monsync never removes `AccountAccess` from the API account\'s own operator.',
          uniqueItems: true,
        }),
      ),
      ...refusedOperatorFields,
    },
    {
      title: 'Operator',
      description:
        'An operator (a person\'s account), keyed by Email. `...Specified` companions are sent by monsync whenever their field is declared; never write them.',
    },
  ),
);

/** Group authorization types the published definition lists as assignable; newer ones pass (the list is open). */
export const OPERATOR_GROUP_AUTHORIZATION_TYPES = [
  'ShareDashboards',
  'AllowInfra',
  'TechnicalContact',
  'FinancialOperator',
  'BasicOperator',
  'CreateAlertDefinition',
  'CreateIntegration',
  'CreatePrivateLocations',
  'ManageMonitorTemplates',
] as const;
/** Authorization types the service lists but never lets a client assign: refused with their position. */
export const UNASSIGNABLE_AUTHORIZATION_TYPES = ['Administrator', 'AccountAdministrator'] as const;

export const OperatorGroupSchema = def(
  'OperatorGroup',
  ApiObject(
    {
      Description: Name('Group name; the key of the group. `Administrators` names the system group (declare it for its members only).'),
      OperatorGroupGuid: Type.Optional(Guid('Pins the identity of an existing group (adopt or rename).')),
      members: Type.Optional(
        Type.Array(use(EmailSchema, 'Email of a declared operator.'), { description: 'E-mails of declared operators; when present, the group has exactly these members.', uniqueItems: true }),
      ),
      dutySchedules: DutySchedulesSchema('Duty schedules copied onto each operator in `members` (the service keeps a group\'s schedules only as those copies; a group declaring them must declare `members`).'),
      authorizations: Type.Optional(
        Type.Array(OpenEnum(OPERATOR_GROUP_AUTHORIZATION_TYPES, { description: 'An authorization type.' }), {
          description: 'Authorization types of the group; when present, the group has exactly these (Administrator and AccountAdministrator cannot be assigned).',
          uniqueItems: true,
        }),
      ),
    },
    { title: 'OperatorGroup', description: 'An operator group. The system group Everyone is never planned.' },
  ),
);

// ---------------------------------------------------------------------------------------------------------------
// RUM websites (the vendor's 2026 provider: `/Rum/Website`)
// ---------------------------------------------------------------------------------------------------------------

export const RumWebsiteSchema = def(
  'RumWebsite',
  ApiObject(
    {
      Description: Name('Name of the website as the web app shows it; the key of the RUM website.'),
      RumWebsiteId: Type.Optional(Guid('Pins the identity of an existing RUM website (adopt, or change its Description).')),
      Url: Type.String({ minLength: 1, description: 'Address of the website whose real visitors are measured; required.' }),
      IsSpa: Type.Optional(Type.Boolean({ description: 'The website is a single-page application. Default when left out: false.' })),
      IncludeUrlFragment: Type.Optional(Type.Boolean({ description: 'Count the part of the address after `#` as a page of its own; only with `IsSpa: true`. Default when left out: false.' })),
      RumScript: Type.Optional(
        Type.Never({ description: 'Not allowed: `RumScript` is the snippet the service generates for the website to embed; read it in the web app (monsync never sends it).' }),
      ),
      ...guardrails,
    },
    { title: 'RumWebsite', description: 'A website measured by real user monitoring (RUM), keyed by Description.' },
  ),
);

// ---------------------------------------------------------------------------------------------------------------
// Settings (monsync.yaml)
// ---------------------------------------------------------------------------------------------------------------

export const IGNORE_PATTERN = `^(${IGNORE_KINDS.join('|')}):.+$`;

export const IgnorePatternSchema = def(
  'IgnorePattern',
  Type.String({ pattern: IGNORE_PATTERN, description: '`kind:glob` with a singular kind, e.g. `monitor:legacy-*`: matching objects are never touched and never reported.' }),
);

export const ManageEntrySchema = def(
  'ManageEntry',
  Type.Union(
    [
      ClosedObject({
        prune: Type.Optional(Type.Boolean({ default: false, description: 'Delete live objects no file declares (default false: they are listed as unmanaged).' })),
      }),
      Type.Null(),
    ],
    { description: 'This tree is authoritative for the kind. `{ prune: true }` also deletes live objects no file declares; empty means prune: false.' },
  ),
);

/** How a pruned monitor leaves the account. */
export const REMOVAL_STRATEGIES = ['auto', 'delete', 'deactivate'] as const;

export const MonitorManageEntrySchema = def(
  'MonitorManageEntry',
  Type.Union(
    [
      ClosedObject({
        prune: Type.Optional(Type.Boolean({ default: false, description: 'Delete (or retire, see removal) live monitors no file declares (default false: they are listed as unmanaged).' })),
        removal: Type.Optional(
          StringEnum(REMOVAL_STRATEGIES, {
            default: 'auto',
            description:
              'How a monitor leaves the account. `auto` (default): DELETE it, and when the service refuses (405, or 404 for a monitor it still shows) retire it instead. ' +
              '`delete`: DELETE only; a refusal is an error. `deactivate`: always retire it. A retired monitor gets IsActive and GenerateAlert false and a ' +
              '`monsync:retired=` line in Notes; monsync then plans nothing for it, and revives the same monitor when the config declares it again.',
          }),
        ),
      }),
      Type.Null(),
    ],
    { description: 'This tree is authoritative for monitors. `{ prune: true }` also removes live monitors no file declares; empty means prune: false.' },
  ),
);

export const ManageSchema = def(
  'Manage',
  ClosedObject(
    {
      monitors: Type.Optional(MonitorManageEntrySchema),
      monitorGroups: Type.Optional(ManageEntrySchema),
      vault: Type.Optional(ManageEntrySchema),
      slas: Type.Optional(ManageEntrySchema),
      scheduledReports: Type.Optional(ManageEntrySchema),
      alertDefinitions: Type.Optional(ManageEntrySchema),
      operators: Type.Optional(ManageEntrySchema),
      operatorGroups: Type.Optional(ManageEntrySchema),
      rumWebsites: Type.Optional(ManageEntrySchema),
      ignore: Type.Optional(Type.Array(IgnorePatternSchema, { description: 'Objects never touched, never reported.' })),
    },
    { description: 'Which kinds this tree is authoritative for; a kind absent here is not planned at all.' },
  ),
);

const safetyLimitFields = (defaults: SafetyLimits, of: string) => ({
  maxDeletePercent: Type.Optional(
    Type.Number({ minimum: 0, maximum: 100, default: defaults.maxDeletePercent, description: `Deletions of ${of} past this share of its live ones (and at least minDeleteCount of them) make a plan unsafe.` }),
  ),
  maxUpdatePercent: Type.Optional(
    Type.Number({ minimum: 0, maximum: 100, default: defaults.maxUpdatePercent, description: `Updates of ${of} past this share of its live ones (and at least minUpdateCount of them) make a plan unsafe.` }),
  ),
  minDeleteCount: Type.Optional(
    Type.Integer({ minimum: 1, default: defaults.minDeleteCount, description: `Fewer deletions of ${of} than this never make a plan unsafe by their share.` }),
  ),
  minUpdateCount: Type.Optional(
    Type.Integer({ minimum: 1, default: defaults.minUpdateCount, description: `Fewer updates of ${of} than this never make a plan unsafe by their share.` }),
  ),
});

export const SafetySchema = def(
  'Safety',
  ClosedObject(
    {
      ...safetyLimitFields(DEFAULT_SAFETY, 'a kind of object'),
      relations: Type.Optional(
        ClosedObject(safetyLimitFields(DEFAULT_SAFETY.relations, 'a kind of relation row'), {
          description: 'The same thresholds for relation rows (group memberships, operator group members and authorizations, duty schedules, vault accesses), weighed apart from objects.',
        }),
      ),
    },
    {
      description:
        'When a plan is unsafe, so that apply refuses it without --allow-unsafe: a kind\'s deletes or updates past both its share and its count; deleting every object of a kind that had 2 or more (unless maxDeletePercent is 100); deletions of objects of all kinds together past the share and the count.',
    },
  ),
);

const PascalCaseList = (description: string) => Type.Array(Type.String({ pattern: '^[A-Z][A-Za-z0-9_]*$' }), { description, uniqueItems: true });

export const AllowUnknownSchema = def(
  'AllowUnknown',
  ClosedObject(
    {
      fields: Type.Optional(
        ClosedObject(
          Object.fromEntries(ALLOW_UNKNOWN_FIELD_KEYS.map((key) => [key, Type.Optional(PascalCaseList(`API fields of ${key} objects that the published definition does not list, sent as written.`))])),
          { description: 'By object: PascalCase fields the service added after this release. Any other unknown PascalCase field is an error.' },
        ),
      ),
      values: Type.Optional(
        Type.Record(Type.String({ pattern: '^[A-Z][A-Za-z0-9]*$|^authorizations$' }), Type.Array(Type.String({ minLength: 1 }), { uniqueItems: true }), {
          description:
            'By field name (e.g. `MonitorType`, `EscalationMode`, or an operator\'s or operator group\'s `authorizations`): values outside the published enum, e.g. a monitor type the service added after this release. Any other value outside the enum is an error.',
        }),
      ),
    },
    {
      description:
        'What the service added after this release, let through on purpose and reviewed like any change: unknown API fields by object, enum values by field. Example: `{ fields: { monitor: [NewField] }, values: { MonitorType: [NewType] } }`.',
    },
  ),
);

export const ProtectPatternSchema = def(
  'ProtectPattern',
  Type.String({
    pattern: IGNORE_PATTERN,
    description:
      '`kind:glob` with a singular kind, as in ignore, e.g. `monitor:prod-*` or `vaultSection:payments`: matching objects (and the objects inside them) are never deleted or retired, not even with --allow-unsafe.',
  }),
);

/** `policy:`: one key per built-in rule (policy/rules.ts), a mapping of parameters or, for a rule that selects, a list of them. */
export const PolicySchema: TObject = def(
  'Policy',
  ClosedObject(
    Object.fromEntries(
      POLICY_RULES.map((rule) => [
        rule.name,
        Type.Optional(rule.multiple ? Type.Array(rule.parameters, { minItems: 1, description: `${rule.summary} One entry per selection.` }) : Type.Union([rule.parameters, Type.Null()], { description: `${rule.summary} Empty means the defaults (severity error).` })),
      ]),
    ),
    { description: 'Built-in policy rules checked by validate and plan (packages/schema/src/policy/rules.ts lists them). A finding of severity error fails validate, plan and apply; objects are excused one rule at a time with `policyWaivers`.' },
  ),
);

export const API_VERSION = 'monsync/v1';

/** One file of a config tree: `monsync.yaml` (settings, and optionally resources) or any other `*.yaml`. */
export const ConfigFileSchema = ClosedObject(
  {
    apiVersion: Type.Optional(Type.Literal(API_VERSION, { description: 'Format version; required in monsync.yaml.' })),
    manage: Type.Optional(ManageSchema),
    ignore: Type.Optional(Type.Array(IgnorePatternSchema, { description: 'Same as manage.ignore.' })),
    safety: Type.Optional(SafetySchema),
    protect: Type.Optional(Type.Array(ProtectPatternSchema, { description: 'Objects monsync never deletes or retires (nor the objects inside them), not even with --allow-unsafe.' })),
    policy: Type.Optional(PolicySchema),
    allowUnknown: Type.Optional(AllowUnknownSchema),
    apiOperator: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          'Email or OperatorGuid of the operator the API account acts for (several: separated by commas). Without it, monsync reads the operator the service recorded as the creator of its own vault section "monsync API account (do not edit)", made by its first apply; name it here when plan and apply use API accounts of different operators, or the API account may not create vault sections. The lock-out guard keeps monsync from deleting it or taking its access, and its own changes are not drift. MONSYNC_OPERATOR, or the action\'s `operators` input, add to it.',
      }),
    ),
    monitors: Type.Optional(Type.Array(MonitorSchema, { description: 'Monitors (key: Name).' })),
    monitorGroups: Type.Optional(Type.Array(MonitorGroupSchema, { description: 'Monitor groups (key: Description).' })),
    vault: Type.Optional(VaultSchema),
    slas: Type.Optional(Type.Array(SlaSchema, { description: 'SLAs (key: Description).' })),
    scheduledReports: Type.Optional(Type.Array(ScheduledReportSchema, { description: 'Scheduled reports (key: key).' })),
    alertDefinitions: Type.Optional(Type.Array(AlertDefinitionSchema, { description: 'Alert definition activation (key: AlertDefinitionGuid).' })),
    operators: Type.Optional(Type.Array(OperatorSchema, { description: 'Operators (key: Email).' })),
    operatorGroups: Type.Optional(Type.Array(OperatorGroupSchema, { description: 'Operator groups (key: Description).' })),
    rumWebsites: Type.Optional(Type.Array(RumWebsiteSchema, { description: 'RUM websites (key: Description).' })),
  },
  {
    title: 'monsync config file',
    description:
      'A file of a monsync config tree. monsync.yaml at the root holds apiVersion, manage, safety, protect, policy and allowUnknown; any *.yaml may hold resources. PascalCase keys are API fields (one the published definition does not list is an error unless allowUnknown lets it through), camelCase keys are monsync\'s own.',
  },
);

/** Definitions emitted in `$defs` even when no property of the file refers to them. */
export const EXTRA_CONFIG_DEFS = [DutyScheduleSchema, AlertTypeSchema, CultureNameSchema, SmsProviderSchema, ScheduleModeSchema];

export type ConfigFileValue = Static<typeof ConfigFileSchema>;
