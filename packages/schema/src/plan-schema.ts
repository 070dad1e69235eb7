/**
 * The plan JSON contract (docs/architecture.md, "The plan"): `plan --format json` and saved plans. The `Plan` type and
 * `schemas/plan.schema.json` both come from these objects.
 */
import { Type, type Static } from '@sinclair/typebox';
import { REMOVAL_STRATEGIES } from './config-schema.js';
import { KINDS_AS_LISTED, OPERATOR_GROUP_KIND, OPERATOR_KIND, type KindName } from './kinds.js';
import { ClosedObject, StringEnum, def } from './schema-builder.js';

/**
 * The one version of the plan format: apply refuses a plan file of another version. A renamed or removed section
 * or field is a new version; an added optional section (one an older reader may ignore) is not.
 */
export const PLAN_FORMAT_VERSION = 1;
export const PLAN_ACTIONS = ['create', 'update', 'delete', 'ensure'] as const;
/** Kind names, as listed for people: from the kind registry (kinds.ts). */
export const PLAN_STEP_KINDS: readonly KindName[] = KINDS_AS_LISTED.map((entry) => entry.kind);
export const CHANGE_OPS = ['add', 'remove', 'replace'] as const;

const Sha256Hex = (description: string) => Type.String({ pattern: '^[0-9a-f]{64}$', description });
const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const PlanSourceRefSchema = def(
  'PlanSourceRef',
  ClosedObject(
    {
      file: Type.String({ description: 'File relative to the config root.' }),
      line: Type.Integer({ minimum: 1, description: '1-based line.' }),
      column: Type.Integer({ minimum: 1, description: '1-based column.' }),
    },
    { description: 'Where the object is declared.' },
  ),
);

export const PlanChangeSchema = def(
  'PlanChange',
  ClosedObject(
    {
      op: StringEnum(CHANGE_OPS, { description: 'JSON-patch style operation.' }),
      path: Type.String({ description: 'JSON pointer of the changed field, e.g. `/ErrorConditions/HttpStatus/Value`.' }),
      before: Type.Optional(Type.Unknown({ description: 'Live value; `"(sensitive)"` for a sensitive change.' })),
      after: Type.Optional(Type.Unknown({ description: 'Desired value; `"(sensitive)"` for a sensitive change.' })),
      sensitive: Type.Optional(Type.Boolean({ description: 'True for a write-only secret: values are never in a plan.' })),
    },
    { description: 'One field change of a step.' },
  ),
);

export const PlanDriftSchema = def(
  'PlanDrift',
  ClosedObject(
    {
      lastModifiedDate: Type.Optional(Type.String({ description: 'Live LastModifiedDate: when it was changed outside git.' })),
      lastModifiedByOperatorId: Type.Optional(Type.String({ description: 'Live LastModifiedByOperatorId: who changed it.' })),
      operatorName: Type.Optional(Type.String({ description: 'Name of that operator, when known.' })),
    },
    { description: 'Who changed the live object outside git, and when.' },
  ),
);

export const PlanProtectionSchema = def(
  'PlanProtection',
  ClosedObject(
    {
      rule: Type.String({ description: 'What protects the object: a `protect:` pattern of monsync.yaml (`monitor:prod-*`), or `protect: true` on its declaration (or on the declaration it is inside).' }),
      source: Type.Optional(PlanSourceRefSchema),
    },
    { description: 'The step deletes or retires a protected object: the plan is refused (exit 1) and apply writes nothing, with or without --allow-unsafe.' },
  ),
);

export const POLICY_FINDING_SEVERITIES = ['error', 'warning'] as const;

export const PlanPolicyFindingSchema = def(
  'PlanPolicyFinding',
  ClosedObject(
    {
      rule: Type.String({ description: 'Name of the policy rule (`policy:` in monsync.yaml).' }),
      severity: StringEnum(POLICY_FINDING_SEVERITIES, { description: '`error`: plan exits 1 and apply refuses; `warning`: shown only.' }),
      message: Type.String({ description: 'What breaks the rule.' }),
      fix: Type.String({ description: 'How to fix it (or waive it with `policyWaivers`).' }),
      kind: Type.Optional(Type.String({ description: 'Kind of the object at fault; absent for a rule about the whole account.' })),
      key: Type.Optional(Type.String({ description: 'Key of the object at fault.' })),
      file: Type.Optional(Type.String({ description: 'File relative to the config root: the declaration at fault, or monsync.yaml for a rule about the account.' })),
      line: Type.Optional(Type.Integer({ minimum: 1 })),
      column: Type.Optional(Type.Integer({ minimum: 1 })),
    },
    { description: 'A finding of a policy rule.' },
  ),
);

export const PlanStepSchema = def(
  'PlanStep',
  ClosedObject(
    {
      id: Type.String({ minLength: 1, description: "Stable id: '<kind>:<key>', plus ':<action>' when needed for uniqueness." }),
      action: StringEnum(PLAN_ACTIONS, { description: 'What the step does; `ensure` re-asserts alert definition activation and is not drift.' }),
      kind: StringEnum(PLAN_STEP_KINDS, { description: 'Kind of object.' }),
      key: Type.String({ description: "Natural key (membership: '<group>/<monitor>', item: '<section>/<item>', period: '<sla>/<period>')." }),
      guid: Type.Optional(Type.String({ description: 'Live GUID or id when known.' })),
      changes: Type.Array(PlanChangeSchema, { description: 'Field changes.' }),
      dependsOn: Type.Array(Type.String(), { description: 'Ids of the steps that must succeed first.' }),
      reason: Type.Optional(Type.String({ description: "Why, e.g. 'no fingerprint marker', 'pinned GUID rename'." })),
      removal: Type.Optional(
        StringEnum(REMOVAL_STRATEGIES, {
          description:
            'For a delete of a kind with a removal strategy (monitors, `manage.monitors.removal`): `delete` sends DELETE; `deactivate` retires the object ' +
            '(the `desired` body: inactive, no alerts, a `monsync:retired=` marker) instead; `auto` sends DELETE and retires the object when the service refuses it.',
        }),
      ),
      drift: Type.Optional(PlanDriftSchema),
      protectedBy: Type.Optional(PlanProtectionSchema),
      source: Type.Optional(PlanSourceRefSchema),
      desired: Type.Optional(
        Type.Record(Type.String(), Type.Unknown(), {
          description: 'Body to be sent for create/update; secrets replaced by `{ sensitive: true, fingerprint: "<hex>" }`.',
        }),
      ),
      digest: Type.Optional(
        Sha256Hex(
          'sha256 hex of the normalized change: kind, key, action, removal and the field changes with their desired values (sets in key order, secrets by ' +
            'fingerprint, references by key); no GUID, timestamp or order. Equal digests mean the same write was reviewed.',
        ),
      ),
    },
    { description: 'One step of a plan, in execution order.' },
  ),
);

/** Why a plan is unsafe (docs/architecture.md, "Safety"). */
export const SAFETY_RULES = ['share', 'every', 'together'] as const;

export const PlanViolationSchema = def(
  'PlanViolation',
  ClosedObject(
    {
      kind: Type.String({ description: 'Kind whose threshold is exceeded; `*` for the objects of every kind together (rule `together`).' }),
      action: StringEnum(['delete', 'update'] as const, { description: 'Action counted.' }),
      count: Count('Planned actions of that kind.'),
      total: Count('Live objects of that kind.'),
      percent: Type.Number({ minimum: 0, description: 'count / total, as a percentage.' }),
      limit: Type.Number({ minimum: 0, description: 'The safety threshold, as a percentage.' }),
      rule: Type.Optional(
        StringEnum(SAFETY_RULES, {
          description:
            'share: more than `limit` percent of the kind and at least `minCount`; every: every live object of a kind that had 2 or more; together: deletions of objects of all kinds together past the share and the count. Absent in plans of earlier releases: share.',
        }),
      ),
      minCount: Type.Optional(Type.Integer({ minimum: 1, description: 'The count the share needs (safety.minDeleteCount / minUpdateCount, or those of safety.relations).' })),
      setting: Type.Optional(Type.String({ description: 'The monsync.yaml setting to raise to accept such plans, e.g. `safety.relations.maxDeletePercent`.' })),
      message: Type.String({ description: 'Human-readable explanation.' }),
    },
    { description: 'A safety threshold the plan exceeds: apply refuses without --allow-unsafe.' },
  ),
);

export const PlanUnmanagedSchema = def(
  'PlanUnmanaged',
  ClosedObject(
    {
      kind: Type.String({ description: 'Kind of object.' }),
      key: Type.String({ description: 'Natural key of the live object.' }),
      guid: Type.String({ description: 'Its GUID or id.' }),
    },
    { description: 'A live object no file declares, kept because prune is false.' },
  ),
);

export const PlanWarningSchema = def(
  'PlanWarning',
  ClosedObject(
    {
      code: Type.String({ pattern: '^[A-Z][A-Z0-9_]*$', description: 'SCREAMING_SNAKE code.' }),
      message: Type.String(),
      kind: Type.Optional(Type.String()),
      key: Type.Optional(Type.String()),
    },
    { description: 'Something the reader of the plan should know.' },
  ),
);

export const PlanSummarySchema = def(
  'PlanSummary',
  ClosedObject(
    {
      create: Count('Create steps.'),
      update: Count('Update steps.'),
      delete: Count('Delete steps.'),
      ensure: Count('Ensure steps.'),
      unchanged: Count('Declared objects that need no change.'),
      unmanaged: Count('Live objects no file declares.'),
    },
    { description: 'Counts of steps and objects.' },
  ),
);

/** What a duty schedule's windows mean; the reconciler's `DUTY_SCHEDULE_READING` picks one. */
export const DUTY_SCHEDULE_READINGS = ['on-duty', 'off-duty'] as const;
const UtcInstant = (description: string) => Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$', description });
const HourCells = (description: string) => Type.String({ pattern: '^[#+.]*$', description });

export const PlanOnCallGapSchema = def(
  'PlanOnCallGap',
  ClosedObject(
    {
      from: UtcInstant('First instant, UTC.'),
      to: UtcInstant('End (exclusive), UTC.'),
      hours: Count('Hours in the gap.'),
    },
    { description: 'Consecutive hours in which a group has nobody on duty where it had someone before.' },
  ),
);

export const PlanOnCallSubjectSchema = def(
  'PlanOnCallSubject',
  ClosedObject(
    {
      kind: StringEnum([OPERATOR_KIND.kind, OPERATOR_GROUP_KIND.kind] as const, { description: 'An operator or an operator group.' }),
      key: Type.String({ description: 'Its key: the operator\'s Email, the group\'s Description.' }),
      timeZone: Type.String({ description: 'The zone hours are counted in (IANA name, `UTC` or `UTC+hh:mm`): the operator\'s; a group\'s members\' when they share one, else UTC.' }),
      from: UtcInstant('Start of the first hour: the start of the hour holding `now` on that zone\'s clock.'),
      before: HourCells('One cell per hour from `from` before the plan: `#` on duty the whole hour, `+` part of it, `.` not at all (a group: some member on duty).'),
      after: HourCells('The same, after the plan.'),
      uncovered: Type.Optional(Type.Array(PlanOnCallGapSchema, { description: 'Groups only: the hours nobody is on duty any more.' })),
      notes: Type.Optional(Type.Array(Type.String(), { description: 'Why hours may be off (a zone whose daylight-saving rules are unknown).' })),
    },
    { description: 'Who is on duty, hour by hour, before and after the plan.' },
  ),
);

export const PlanOnCallSchema = def(
  'PlanOnCall',
  ClosedObject(
    {
      now: UtcInstant('The instant the preview starts from (the plan\'s clock).'),
      hours: Count('Hours previewed (7 days).'),
      reading: StringEnum(DUTY_SCHEDULE_READINGS, { description: 'What a duty schedule\'s windows mean: the hours its operator is on duty, or off duty.' }),
      subjects: Type.Array(PlanOnCallSubjectSchema, { description: 'Every operator and group whose duty schedules, time zone or membership the plan changes.' }),
    },
    { description: 'The on-call preview: who is on duty each hour of the next days, before and after the plan.' },
  ),
);

const Names = (description: string) => Type.Array(Type.String(), { description });

export const PlanPagingGroupSchema = def(
  'PlanPagingGroup',
  ClosedObject(
    {
      key: Type.String({ description: 'The operator group\'s Description.' }),
      members: Type.Optional(Names('Its members\' Emails; absent when they were not read (the group is not managed) or it is the Everyone group.')),
    },
    { description: 'An operator group an escalation level reaches, expanded.' },
  ),
);

export const PlanPagingLevelSchema = def(
  'PlanPagingLevel',
  ClosedObject(
    {
      id: Type.Integer({ description: 'The level\'s `Id`.' }),
      active: Type.Boolean({ description: 'IsActive (a level the service has not said is inactive is active).' }),
      escalationMode: Type.Optional(Type.String({ description: 'EscalationMode: AlertOnErrorCount (ThresholdErrorCount) or AlertOnErrorDuration (ThresholdMinutes).' })),
      thresholdErrorCount: Type.Optional(Type.Integer()),
      thresholdMinutes: Type.Optional(Type.Integer()),
      operators: Type.Optional(Names('Operators it names (Email); absent when its members were not read.')),
      operatorGroups: Type.Optional(Type.Array(PlanPagingGroupSchema, { description: 'Operator groups it names, with their members.' })),
      reaches: Type.Optional(Names('Every operator it reaches, groups expanded, sorted; absent when that is not known (members of the level or of a group not read).')),
      timeZone: Type.Optional(Type.String({ description: 'The zone `onDuty` is counted in: the reached operators\' when they share one, else UTC.' })),
      from: Type.Optional(UtcInstant('Start of the first hour of `onDuty`.')),
      onDuty: Type.Optional(HourCells('One cell per hour from `from`: `#` one of `reaches` on duty the whole hour, `+` part of it, `.` nobody. Absent without duty schedules or a clock.')),
      nobodyOnDuty: Type.Optional(Type.Array(PlanOnCallGapSchema, { description: 'The hours of `onDuty` with nobody on duty, consecutive hours together.' })),
    },
    { description: 'One escalation level of a path: its threshold, whom it reaches and who of them is on duty.' },
  ),
);

export const PlanPagingPathSchema = def(
  'PlanPagingPath',
  ClosedObject(
    {
      active: Type.Boolean({ description: 'The definition\'s IsActive.' }),
      monitors: Type.Optional(Names('Monitors it covers (Name); absent when its members were not read.')),
      monitorGroups: Type.Optional(Names('Monitor groups it covers (Description).')),
      levels: Type.Array(PlanPagingLevelSchema, { description: 'Its escalation levels by Id.' }),
    },
    { description: 'An alert definition\'s escalation path at one moment: what it covers and whom each level pages.' },
  ),
);

export const PlanPagingDefinitionSchema = def(
  'PlanPagingDefinition',
  ClosedObject(
    {
      key: Type.String({ description: 'The definition\'s AlertName (after the plan, when it is renamed).' }),
      before: Type.Optional(PlanPagingPathSchema),
      after: Type.Optional(PlanPagingPathSchema),
      waived: Type.Optional(PlanSourceRefSchema),
    },
    {
      description:
        'An alert definition whose escalation path the plan changes: before (absent when the plan creates it) and after (absent when it deletes it). ' +
        '`waived`: where the `policyWaivers` entry is that silenced its `alertsReachSomeone` finding in this plan.',
    },
  ),
);

export const PlanPagingSchema = def(
  'PlanPaging',
  ClosedObject(
    {
      now: Type.Optional(UtcInstant('The instant the hours start from (the plan\'s clock); absent without one, and then no level has hours.')),
      hours: Count('Hours previewed (7 days).'),
      reading: StringEnum(DUTY_SCHEDULE_READINGS, { description: 'What a duty schedule\'s windows mean, as in `onCall`.' }),
      definitions: Type.Array(PlanPagingDefinitionSchema, { description: 'Each alert definition whose levels, members, covered monitors or on-duty hours the plan changes, by AlertName; at most 25.' }),
      omitted: Type.Optional(Count('Such definitions left out of `definitions` to keep the plan small.')),
    },
    { description: 'Who gets paged: the escalation path of every alert definition the plan changes, before and after.' },
  ),
);

export const PlanTargetSchema = def(
  'PlanTarget',
  ClosedObject(
    {
      apiUrl: Type.String({ description: 'The API root the plan was made against, normalised: scheme, host, port and path, without credentials, query, fragment or a trailing slash.' }),
      account: Sha256Hex('sha256 hex naming the API account the plan was made with: of the normalised API URL and the API user name (never the password).'),
    },
    { description: 'Where the plan was made: `monsync apply PLANFILE` refuses the plan against another service or API account.' },
  ),
);

export const PlanDocumentSchema = ClosedObject(
  {
    formatVersion: Type.Literal(PLAN_FORMAT_VERSION, { description: 'Version of this format.' }),
    configDigest: Sha256Hex('sha256 hex of the normalized desired state (secrets as fingerprints).'),
    liveDigest: Sha256Hex('sha256 hex of the normalized live snapshot of the managed kinds; a saved plan is refused when it changed.'),
    planDigest: Type.Optional(
      Sha256Hex('sha256 hex over the sorted step digests: one value for the whole change (`monsync apply --expect-digest`); the same for an empty plan whatever the account holds.'),
    ),
    summary: PlanSummarySchema,
    safe: Type.Boolean({ description: 'False when a safety threshold is exceeded.' }),
    violations: Type.Array(PlanViolationSchema, { description: 'Safety thresholds exceeded.' }),
    steps: Type.Array(PlanStepSchema, { description: 'Steps in execution order.' }),
    unmanaged: Type.Array(PlanUnmanagedSchema, { description: 'Live objects no file declares.' }),
    warnings: Type.Array(PlanWarningSchema, { description: 'Warnings.' }),
    onCall: Type.Optional(PlanOnCallSchema),
    paging: Type.Optional(PlanPagingSchema),
    policy: Type.Optional(Type.Array(PlanPolicyFindingSchema, { description: 'Findings of the policy rules of monsync.yaml (on the tree and on the account after the plan); absent when there are none.' })),
    target: Type.Optional(PlanTargetSchema),
  },
  {
    title: 'monsync plan',
    description: 'A monsync plan (`monsync plan --format json`, `--out plan.json`). Secret values are never in it.',
  },
);

export type Plan = Static<typeof PlanDocumentSchema>;
export type PlanStep = Static<typeof PlanStepSchema>;
export type PlanChange = Static<typeof PlanChangeSchema>;
export type PlanViolation = Static<typeof PlanViolationSchema>;
export type PlanUnmanaged = Static<typeof PlanUnmanagedSchema>;
export type PlanWarning = Static<typeof PlanWarningSchema>;
export type PlanSummary = Static<typeof PlanSummarySchema>;
export type PlanDrift = Static<typeof PlanDriftSchema>;
export type PlanOnCall = Static<typeof PlanOnCallSchema>;
export type PlanTarget = Static<typeof PlanTargetSchema>;
export type PlanOnCallSubject = Static<typeof PlanOnCallSubjectSchema>;
export type PlanOnCallGap = Static<typeof PlanOnCallGapSchema>;
export type PlanPaging = Static<typeof PlanPagingSchema>;
export type PlanPagingDefinition = Static<typeof PlanPagingDefinitionSchema>;
export type PlanPagingPath = Static<typeof PlanPagingPathSchema>;
export type PlanPagingLevel = Static<typeof PlanPagingLevelSchema>;
export type PlanPagingGroup = Static<typeof PlanPagingGroupSchema>;
export type PlanProtection = Static<typeof PlanProtectionSchema>;
export type PolicyFinding = Static<typeof PlanPolicyFindingSchema>;
export type PlanAction = (typeof PLAN_ACTIONS)[number];
export type PlanStepKind = KindName;
