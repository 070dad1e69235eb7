import { EmulatorConfigError } from './errors.js';

/**
 * Profiles: one emulator, several readings of the service. A profile is configuration (the rules handlers read)
 * plus the answer shapes a wrapper puts on successful replies; no profile has handlers of its own. The README's
 * "Profiles" table says, choice by choice, which side each profile takes and why.
 */
export const PROFILE_NAMES = ['default', 'strict', 'published', 'lean', 'rate-limited'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

export interface Rules {
  /** Keys that do not start with an upper-case letter answered 400 (not a rule the spec states). */
  pascalKeys: boolean;
  /** Monitor fields removed on 2025-08-27: refused with 400, or dropped silently as unknown to the service. */
  removedMonitorFields: 'refuse' | 'drop';
  /** `IsSensitive` fixed per item type on create and unchangeable (400), or ignored on writes. */
  sensitiveRules: boolean;
  /** Renaming the Everyone or Administrators group answered 400. */
  refuseSystemGroupRename: boolean;
  /** AlertDefinition PUT/PATCH naming fields the emulator does not know answered 400 (otherwise ignored). */
  alertDefinitionKnownFieldsOnly: boolean;
  /** PATCH of an escalation level with only some of its fields: refused (D22: "only accepts a complete" level) or merged. */
  partialLevelPatch: boolean;
  /** Smallest `Take` accepted (the spec says 0..100 in one place and 1..100 in another). */
  minTake: 0 | 1;
  /** `ErrorConditionType` values accepted: the spec's seven, or the published definition's full list. */
  errorConditionTypes: 'spec' | 'published';
  /** `GET /Monitor` and `/Monitor/MonitorGroup/{g}`: one bare array, or batches paged with `Cursor`. */
  monitorList: 'bare' | 'paged';
  /** Monitor group member items: whole monitors, or `{MonitorGuid}`. */
  memberItems: 'monitor' | 'guid';
  /** Error bodies: `{Messages: [{Message}]}` or `{ErrorDescription}`. */
  errorBody: 'messages' | 'description';
  /** Fields the emulator does not know, on monitors, groups, SLAs and reports: stored and returned, or dropped. */
  unknownFields: 'keep' | 'drop';
  /** A second SLA with the same name answered 409. */
  uniqueSlaNames: boolean;
  /** A report's `SelectedPeriod` checked against the published list (otherwise any text). */
  checkSelectedPeriod: boolean;
  /** Status of SLA and report validation errors. */
  validationStatus: 400 | 403;
  /** `LoadTimeLimit1`/`LoadTimeLimit2` conditions the service adds when a monitor has none: never, on create, always. */
  loadTimeConditions: 'none' | 'on-create' | 'always';
  /** On create the service also fills in `PredefinedVariables` of multi-step monitors and the group a monitor was created into. */
  createDefaults: boolean;
  /** Where `POST /Register` reads `Description` and `operatorGuid`. */
  registerParams: 'query' | 'body' | 'either';
  /** `Cursors.Self` on every batch of a listing that takes more than one (otherwise `Next` only). */
  cursorsSelf: boolean;
  /** An alert listing of one monitor holding exactly one alert answers the item itself, without `Data`. */
  bareSingleAlert: boolean;
  /** Operator group authorizations: the legacy form (ids, type in the body) or the announced one (type in the path, names listed). */
  operatorGroupAuthorizationForm: 'legacy' | 'announced';
  /** Vault section authorizations answered as the spec shows them (`ContextId`, `OperatorGroupId`) or as published. */
  vaultAuthorizationForm: 'spec' | 'published';
  /** Operators as the spec shows them, or as published: `OutgoingPhoneNumberId`, no `PhoneProvider`, `...Specified` companions honoured, write-only settings not returned by GET. */
  operatorFields: 'spec' | 'published';
  /** RUM websites: `RumScript` (or, on POST, `RumWebsiteId`) in a request body answered 400, or ignored. */
  rumWebsiteReadOnly: 'refuse' | 'ignore';
  /** PUT /Rum/Website/{id}: the whole website (a writable field left out is refused) or the fields sent merged. */
  rumWebsitePut: 'whole' | 'merge';
  /** Route keys the service does not have: answered 405 (after authentication). */
  absentRoutes: readonly string[];
}

/** What a successful reply becomes: its status, and its body as the handler built it, none, or the new GUID alone. */
export interface ReplyShape {
  status: number;
  body: 'object' | 'none' | 'guid';
  /** The field of the handler's reply holding the identifier (for `body: 'guid'`). */
  idField?: string;
}

export interface ReplyShapes {
  /** By route key (`POST /Monitor`); wins over `methods`. */
  routes: Readonly<Record<string, ReplyShape>>;
  /** By method, for every route of it the table above does not name. */
  methods: Readonly<Partial<Record<string, ReplyShape>>>;
}

/** A request rate limited as a service limits one: `perSecond` requests a second on average, `burst` at once. */
export interface RequestRate {
  perSecond: number;
  burst: number;
}

export interface RateLimit {
  /** Share of API requests answered 429, 0..1 (default 0.1). */
  share: number;
  /** Seed of the deterministic sequence (default 1). */
  seed: number;
  /** `Retry-After` of each 429, in seconds (default 1). */
  retryAfterSeconds: number;
}

export interface Profile {
  name: ProfileName;
  rules: Rules;
  shapes: ReplyShapes;
  rateLimit?: RateLimit;
}

const created = (status = 201, body: ReplyShape['body'] = 'object', idField?: string): ReplyShape => ({ status, body, ...(idField ? { idField } : {}) });

/** Every create the published definition answers 201 with the created object (its "201 scope" row). */
const CREATES = [
  'POST /Monitor',
  'POST /Monitor/MonitorGroup/{monitorGroupGuid}',
  'POST /MonitorGroup',
  'POST /Operator',
  'POST /OperatorGroup',
  'POST /VaultItem',
  'POST /VaultSection',
  'POST /VaultSection/{vaultSectionGuid}/Authorization',
  'POST /Sla',
  'POST /Sla/{slaGuid}/ExclusionPeriod',
  'POST /ScheduledReport',
  'POST /AlertDefinition',
  'POST /AlertDefinition/{alertDefinitionGuid}/Member/Monitor/{memberGuid}',
  'POST /AlertDefinition/{alertDefinitionGuid}/Member/MonitorGroup/{memberGuid}',
  'POST /AlertDefinition/{alertDefinitionGuid}/EscalationLevel/{escalationLevelId}/Member/Operator/{memberGuid}',
  'POST /AlertDefinition/{alertDefinitionGuid}/EscalationLevel/{escalationLevelId}/Member/OperatorGroup/{memberGuid}',
  'POST /AlertDefinition/{alertDefinitionGuid}/EscalationLevel/{escalationLevelId}/Integration',
  'POST /Register',
  'POST /Rum/Website',
];

const CREATED_OBJECT: Record<string, ReplyShape> = Object.fromEntries(CREATES.map((k) => [k, created()]));

const DEFAULT_RULES: Rules = {
  pascalKeys: false,
  removedMonitorFields: 'drop',
  sensitiveRules: false,
  refuseSystemGroupRename: false,
  alertDefinitionKnownFieldsOnly: false,
  partialLevelPatch: false,
  minTake: 0,
  errorConditionTypes: 'spec',
  monitorList: 'bare',
  memberItems: 'monitor',
  errorBody: 'messages',
  unknownFields: 'keep',
  uniqueSlaNames: true,
  checkSelectedPeriod: false,
  validationStatus: 403,
  loadTimeConditions: 'none',
  createDefaults: false,
  registerParams: 'either',
  cursorsSelf: true,
  bareSingleAlert: false,
  operatorGroupAuthorizationForm: 'legacy',
  vaultAuthorizationForm: 'spec',
  operatorFields: 'spec',
  rumWebsiteReadOnly: 'ignore',
  rumWebsitePut: 'merge',
  absentRoutes: [],
};

const DEFAULT_SHAPES: ReplyShapes = {
  routes: { ...CREATED_OBJECT, 'DELETE /Monitor/{monitorGuid}': created(204, 'none') },
  methods: {},
};

const NO_CONTENT = created(204, 'none');

export const PROFILES: Readonly<Record<ProfileName, Profile>> = {
  default: { name: 'default', rules: DEFAULT_RULES, shapes: DEFAULT_SHAPES },
  strict: {
    name: 'strict',
    rules: {
      ...DEFAULT_RULES,
      pascalKeys: true,
      removedMonitorFields: 'refuse',
      sensitiveRules: true,
      refuseSystemGroupRename: true,
      alertDefinitionKnownFieldsOnly: true,
      minTake: 1,
      monitorList: 'paged',
      rumWebsiteReadOnly: 'refuse',
      rumWebsitePut: 'whole',
    },
    // The provider shows no status for a RUM website's create: strict answers 200 with the object.
    shapes: { ...DEFAULT_SHAPES, routes: { ...DEFAULT_SHAPES.routes, 'POST /Rum/Website': created(200) } },
  },
  published: {
    name: 'published',
    rules: {
      ...DEFAULT_RULES,
      memberItems: 'guid',
      errorConditionTypes: 'published',
      unknownFields: 'drop',
      uniqueSlaNames: false,
      checkSelectedPeriod: true,
      validationStatus: 400,
      loadTimeConditions: 'always',
      registerParams: 'query',
      // Group duty schedules exist only as copies on the members (AddDutyScheduleForAllMembers).
      absentRoutes: [
        'POST /OperatorGroup/{operatorGroupGuid}/DutySchedule',
        'PUT /OperatorGroup/{operatorGroupGuid}/DutySchedule/{dutyScheduleId}',
        'DELETE /OperatorGroup/{operatorGroupGuid}/DutySchedule/{dutyScheduleId}',
      ],
      operatorGroupAuthorizationForm: 'announced',
      vaultAuthorizationForm: 'published',
      operatorFields: 'published',
      // The vendor's provider PUTs the whole website.
      rumWebsitePut: 'whole',
    },
    shapes: {
      routes: {
        ...CREATED_OBJECT,
        'POST /MonitorGroup/{monitorGroupGuid}/Member/{monitorGuid}': created(201, 'none'),
        'POST /OperatorGroup/{operatorGroupGuid}/Member/{operatorGuid}': created(201, 'none'),
        'POST /Operator/{operatorGuid}/DutySchedule': created(201, 'none'),
        'POST /OperatorGroup/{operatorGroupGuid}/DutySchedule/AddDutyScheduleForAllMembers': NO_CONTENT,
        'POST /OperatorGroup/{operatorGroupGuid}/Authorization/{authorizationType}': created(201, 'none'),
        'POST /Operator/{operatorGuid}/Authorization/{authorizationType}': created(201, 'none'),
        'POST /MonitorGroup/{monitorGroupGuid}/StopAllMonitors': NO_CONTENT,
        'POST /MonitorGroup/{monitorGroupGuid}/StartAllMonitors': NO_CONTENT,
        'POST /MonitorGroup/{monitorGroupGuid}/StopAllMonitorAlerts': NO_CONTENT,
        'POST /MonitorGroup/{monitorGroupGuid}/StartAllMonitorAlerts': NO_CONTENT,
        'POST /MonitorGroup/{monitorGroupGuid}/AddMaintenancePeriodToAllMembers': NO_CONTENT,
      },
      methods: { PUT: NO_CONTENT, PATCH: NO_CONTENT, DELETE: NO_CONTENT },
    },
  },
  lean: {
    name: 'lean',
    rules: {
      ...DEFAULT_RULES,
      uniqueSlaNames: false,
      loadTimeConditions: 'on-create',
      createDefaults: true,
      partialLevelPatch: true,
      registerParams: 'body',
      cursorsSelf: false,
      bareSingleAlert: true,
      absentRoutes: ['DELETE /Monitor/{monitorGuid}'],
    },
    shapes: {
      routes: {
        ...CREATED_OBJECT,
        'POST /Monitor': created(201, 'none'),
        'POST /Monitor/MonitorGroup/{monitorGroupGuid}': NO_CONTENT,
        'POST /MonitorGroup': created(200),
        'POST /VaultSection': created(201, 'none'),
        'POST /VaultItem': created(201, 'guid', 'VaultItemGuid'),
        'POST /Sla': created(201, 'guid', 'SlaGuid'),
        'POST /Sla/{slaGuid}/ExclusionPeriod': NO_CONTENT,
        'POST /ScheduledReport': created(201, 'guid', 'ScheduledReportGuid'),
        'POST /AlertDefinition': created(201, 'none'),
        'POST /AlertDefinition/{alertDefinitionGuid}/Member/Monitor/{memberGuid}': created(201, 'none'),
        'POST /AlertDefinition/{alertDefinitionGuid}/Member/MonitorGroup/{memberGuid}': created(201, 'none'),
        'POST /AlertDefinition/{alertDefinitionGuid}/EscalationLevel/{escalationLevelId}/Member/Operator/{memberGuid}': created(201, 'none'),
        'POST /AlertDefinition/{alertDefinitionGuid}/EscalationLevel/{escalationLevelId}/Member/OperatorGroup/{memberGuid}': created(201, 'none'),
        'POST /AlertDefinition/{alertDefinitionGuid}/EscalationLevel/{escalationLevelId}/Integration': created(201, 'none'),
        'POST /Register': created(200),
        // The 2021 definition's answer (the 2022 one and `published`: 201 with no body).
        'POST /Operator/{operatorGuid}/Authorization/{authorizationType}': NO_CONTENT,
        'POST /Rum/Website': NO_CONTENT,
      },
      methods: {},
    },
  },
  'rate-limited': {
    name: 'rate-limited',
    rules: DEFAULT_RULES,
    shapes: DEFAULT_SHAPES,
    rateLimit: { share: 0.1, seed: 1, retryAfterSeconds: 1 },
  },
};

export function isProfileName(value: unknown): value is ProfileName {
  return typeof value === 'string' && (PROFILE_NAMES as readonly string[]).includes(value);
}

export function profileNamed(name: string): Profile {
  if (!isProfileName(name)) throw new EmulatorConfigError(`profile "${name}" is not one of: ${PROFILE_NAMES.join(', ')}.`);
  return PROFILES[name];
}

/**
 * The profile a test run asks for in `MONSYNC_EMULATOR_PROFILE` (`default` when unset or empty), so one suite runs
 * against every reading of the service: `startEmulator({ ..., profile: profileFromEnv() })`.
 */
export function profileFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): ProfileName {
  const raw = env['MONSYNC_EMULATOR_PROFILE'];
  if (raw === undefined || raw === '') return 'default';
  if (!isProfileName(raw)) {
    throw new EmulatorConfigError(`MONSYNC_EMULATOR_PROFILE "${raw}" is not one of: ${PROFILE_NAMES.join(', ')}.`);
  }
  return raw;
}
