/**
 * The built-in policy rules of `monsync.yaml`'s `policy:`, each as data (its name, what it checks, how to fix a
 * finding, the parameters a team gives it) plus one function (`check`). This file is the whole list: a team reads
 * it to see every rule there is. Rules check the desired tree (`scope: 'object'`, one declared object at a time), one
 * declared object as the account would hold it after the plan (`scope: 'plan'`: what only the account shows, such as
 * who an alert definition pages), or the account after the plan (`scope: 'account'`, given every monitor it would hold).
 */
import { Type, type Static, type TObject } from '@sinclair/typebox';
import { ERROR_CONDITION_TYPES, MONITOR_TYPES } from '@monsync/client/wire';
import { ALERT_DEFINITION_KIND, KINDS_AS_LISTED, MONITOR_KIND, type KindName } from '../kinds.js';
import { ClosedObject, OpenEnum, StringEnum, def } from '../schema-builder.js';

export const POLICY_SEVERITIES = ['error', 'warning'] as const;
export type PolicySeverity = (typeof POLICY_SEVERITIES)[number];

/** One declared object as a rule sees it: its fields as written (secrets as references), and for monitors its groups. */
export interface PolicyObject {
  kind: KindName;
  /** The key as plans show it (`Section/Item` for a vault item). */
  key: string;
  /** The value of its key field as written (a vault item's own Name). */
  name: string;
  fields: Readonly<Record<string, unknown>>;
  /** Monitors: the Descriptions of the declared groups whose `members` name it. */
  groups?: readonly string[];
}

/** A monitor of the account once the plan is applied (declared, or live and kept). */
export interface AccountMonitor {
  key: string;
  active: boolean;
}

/** What a rule found: the message (after the object's name) and the field it is about, for the position. */
export interface RuleFinding {
  message: string;
  /** A top-level field of the object; the object's key field when absent. */
  field?: string;
}

interface RuleBase<P extends TObject> {
  name: string;
  summary: string;
  /** How to fix a finding, shown after it. */
  fix: string;
  /** Parameters besides `severity`; a rule that takes a list is given one entry per selection (`checkInterval` for two monitor types). */
  parameters: P;
  multiple: boolean;
}

export interface ObjectRule<P extends TObject = TObject> extends RuleBase<P> {
  scope: 'object';
  /** The kinds it checks; `undefined`: the kinds its parameters name (`kind`). */
  kinds?: readonly KindName[];
  check(object: PolicyObject, params: Static<P>): RuleFinding[];
}

export interface AccountRule<P extends TObject = TObject> extends RuleBase<P> {
  scope: 'account';
  check(monitors: readonly AccountMonitor[], params: Static<P>): RuleFinding[];
}

/** Hours in a row, UTC, as the plan's previews list them. */
export interface HourSpan {
  from: string;
  to: string;
  hours: number;
}

/**
 * An alert definition as the account would hold it after the plan, as the plan's "who gets paged" preview sees it.
 * What the plan could not read is `undefined`, never empty: a rule finds only what it can see.
 */
export interface AlertPath {
  active: boolean;
  /** Monitors and monitor groups it covers; undefined when they were not read. */
  covers: number | undefined;
  levels: readonly {
    id: number;
    active: boolean;
    /** Operators it reaches, groups expanded; undefined when its members (or a group's) were not read. */
    operators: number | undefined;
    /** Hours of the preview with none of them on duty; undefined without duty schedules or a clock. */
    nobodyOnDuty: readonly HourSpan[] | undefined;
  }[];
}

/** A rule about one declared object that only the account after the plan can answer; checked by plan, waivable per object. */
export interface PlanRule<P extends TObject = TObject> extends RuleBase<P> {
  scope: 'plan';
  kinds: readonly KindName[];
  check(path: AlertPath, params: Static<P>): RuleFinding[];
}

export type PolicyRule = ObjectRule | AccountRule | PlanRule;

const MONITOR = MONITOR_KIND.kind;
/** Kinds whose objects have a name (a key field): every kind a rule may name. */
export const NAMED_KINDS: readonly KindName[] = KINDS_AS_LISTED.filter((entry) => entry.keyField !== undefined).map((entry) => entry.kind);

const severity = Type.Optional(def('PolicySeverity', StringEnum(POLICY_SEVERITIES, { default: 'error', description: '`error` (the default) fails validate, plan and apply; `warning` is shown and fails nothing.' })));
const monitorSelector = {
  monitorType: Type.Optional(OpenEnum(MONITOR_TYPES, { description: 'Only monitors of this MonitorType, compared ignoring case as the service does; a value that is no published MonitorType (nor one `allowUnknown.values.MonitorType` lets through) is an error.' })),
  name: Type.Optional(Type.String({ minLength: 1, description: 'Only monitors whose Name matches this glob (`*` any text, `?` one character), e.g. `checkout-*`.' })),
};

function globMatches(glob: string, text: string): boolean {
  const source = [...glob].map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${source}$`, 'su').test(text);
}

/**
 * An enum value as the service compares it: ignoring case (its enumerations parse `https` as `Https`, and the emulator
 * reads them so too), so `https`, or an account's `HTTPS`, never escapes a rule written for `Https`.
 */
export function sameEnumValue(a: unknown, b: string): boolean {
  return typeof a === 'string' && a.toLowerCase() === b.toLowerCase();
}

/** Whether a monitor is one a selecting rule entry is about (no selector: every monitor). */
function selects(params: { monitorType?: string | undefined; name?: string | undefined }, object: PolicyObject): boolean {
  if (params.monitorType !== undefined && !sameEnumValue(object.fields.MonitorType, params.monitorType)) return false;
  return params.name === undefined || globMatches(params.name, object.name);
}

/** `for Https monitors named checkout-*`, for messages. */
function selection(params: { monitorType?: string | undefined; name?: string | undefined }): string {
  const type = params.monitorType === undefined ? '' : ` ${params.monitorType}`;
  const name = params.name === undefined ? '' : ` named ${params.name}`;
  return type === '' && name === '' ? 'for every monitor' : `for${type} monitors${name}`;
}

const CheckIntervalParams = def(
  'CheckIntervalRule',
  ClosedObject(
  {
    ...monitorSelector,
    min: Type.Optional(Type.Integer({ minimum: 1, description: 'Fewest minutes between checks.' })),
    max: Type.Optional(Type.Integer({ minimum: 1, description: 'Most minutes between checks.' })),
    severity,
  },
  { description: 'Minutes between checks (CheckInterval; CheckIntervalSeconds counts as its minutes) within min..max for the selected monitors.' },
  ),
);

export const checkInterval: ObjectRule<typeof CheckIntervalParams> = {
  name: 'checkInterval',
  scope: 'object',
  summary: 'Monitors (of a MonitorType, or named by a glob) declare a CheckInterval from `min` to `max` minutes (CheckIntervalSeconds counts as its minutes; none declared is a finding).',
  fix: 'set CheckInterval (minutes) within the limits',
  parameters: CheckIntervalParams,
  multiple: true,
  kinds: [MONITOR],
  check(object, params) {
    if (!selects(params, object)) return [];
    const { CheckInterval: minutes, CheckIntervalSeconds: seconds } = object.fields;
    const interval = typeof minutes === 'number' ? minutes : typeof seconds === 'number' ? seconds / 60 : undefined;
    const limits = `${params.min === undefined ? `at most ${params.max ?? ''}` : params.max === undefined ? `at least ${params.min}` : `${params.min} to ${params.max}`} minutes ${selection(params)}`;
    // Unset, the service's default applies, which the rule cannot see: a rule about intervals wants them written.
    if (interval === undefined) return [{ message: `has no CheckInterval, so the service's default applies; the policy wants ${limits}` }];
    const field = typeof minutes === 'number' ? 'CheckInterval' : 'CheckIntervalSeconds';
    if (params.min !== undefined && interval < params.min) return [{ message: `checks every ${interval} minutes, more often than the policy allows (${limits})`, field }];
    if (params.max !== undefined && interval > params.max) return [{ message: `checks every ${interval} minutes, less often than the policy asks (${limits})`, field }];
    return [];
  },
};

const RequiredConditionsParams = def(
  'RequiredErrorConditionsRule',
  ClosedObject(
  {
    ...monitorSelector,
    types: Type.Array(StringEnum(ERROR_CONDITION_TYPES), { minItems: 1, uniqueItems: true, description: 'ErrorConditionTypes every selected monitor declares in ErrorConditions.' }),
    severity,
  },
  { description: 'ErrorConditions the selected monitors must declare.' },
  ),
);

export const requiredErrorConditions: ObjectRule<typeof RequiredConditionsParams> = {
  name: 'requiredErrorConditions',
  scope: 'object',
  summary: 'Monitors (of a MonitorType, or named by a glob) declare ErrorConditions of the given types.',
  fix: 'add an ErrorConditions entry of each missing type',
  parameters: RequiredConditionsParams,
  multiple: true,
  kinds: [MONITOR],
  check(object, params) {
    if (!selects(params, object)) return [];
    const conditions = Array.isArray(object.fields.ErrorConditions) ? (object.fields.ErrorConditions as unknown[]) : [];
    const declared = conditions.map((c) => (c !== null && typeof c === 'object' ? (c as Record<string, unknown>).ErrorConditionType : undefined));
    const missing = params.types.filter((type) => !declared.some((d) => sameEnumValue(d, type)));
    if (missing.length === 0) return [];
    return [{ message: `lacks ErrorConditions of type ${missing.join(', ')} (required ${selection(params)})`, ...(Array.isArray(object.fields.ErrorConditions) ? { field: 'ErrorConditions' } : {}) }];
  },
};

const SeverityOnly = (description: string) => ClosedObject({ severity }, { description });

const MonitorInGroupParams = def('MonitorInGroupRule', SeverityOnly('Every declared monitor is a member of at least one declared monitor group.'));

export const monitorInGroup: ObjectRule<typeof MonitorInGroupParams> = {
  name: 'monitorInGroup',
  scope: 'object',
  summary: 'Every declared monitor is in the `members` of at least one declared monitor group.',
  fix: 'add the monitor to the members of a monitor group',
  parameters: MonitorInGroupParams,
  multiple: false,
  kinds: [MONITOR],
  check(object) {
    return (object.groups ?? []).length > 0 ? [] : [{ message: 'is in no monitor group' }];
  },
};

const ActiveAlertParams = def('ActiveMonitorsAlertRule', SeverityOnly('Every active monitor (IsActive not false) declares GenerateAlert: true.'));

export const activeMonitorsAlert: ObjectRule<typeof ActiveAlertParams> = {
  name: 'activeMonitorsAlert',
  scope: 'object',
  summary: 'Every active monitor (IsActive not false) declares `GenerateAlert: true`, so an error reaches someone.',
  fix: 'set GenerateAlert: true, or IsActive: false for a monitor that should not run',
  parameters: ActiveAlertParams,
  multiple: false,
  kinds: [MONITOR],
  check(object) {
    if (object.fields.IsActive === false || object.fields.GenerateAlert === true) return [];
    const said = object.fields.GenerateAlert === undefined ? 'does not declare GenerateAlert: true' : `has GenerateAlert: ${String(object.fields.GenerateAlert)}`;
    return [{ message: `is active but ${said}, so its errors alert nobody`, ...(object.fields.GenerateAlert === undefined ? {} : { field: 'GenerateAlert' }) }];
  },
};

const kindParam = StringEnum(NAMED_KINDS, { description: 'Kind of object, by its singular name (as in ignore patterns).' });
const NamePatternParams = def(
  'NamePatternRule',
  ClosedObject(
  {
    kind: kindParam,
    pattern: Type.String({ minLength: 1, description: 'Regular expression (JavaScript syntax) the whole name must match, e.g. `^(shop|platform)-[a-z0-9-]+$`.' }),
    severity,
  },
  { description: 'Names (the key field: Name, Description or key) of one kind match a regular expression.' },
  ),
);

export const namePattern: ObjectRule<typeof NamePatternParams> = {
  name: 'namePattern',
  scope: 'object',
  summary: 'Names of one kind (its key field: Name, Description, key) match a regular expression.',
  fix: 'rename the object to match the pattern (a pinned GUID keeps its identity through the rename)',
  parameters: NamePatternParams,
  multiple: true,
  check(object, params) {
    if (object.kind !== params.kind) return [];
    // Patterns are checked when monsync.yaml is read (an invalid one is an error there), so this compiles.
    return new RegExp(params.pattern, 'u').test(object.name) ? [] : [{ message: `does not match the name pattern /${params.pattern}/` }];
  },
};

const ForbiddenFieldsParams = def(
  'ForbiddenFieldsRule',
  ClosedObject(
  {
    kind: kindParam,
    fields: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, uniqueItems: true, description: 'Top-level fields that must not be written, e.g. `CheckIntervalSeconds`.' }),
    severity,
  },
  { description: 'Fields objects of one kind must not set.' },
  ),
);

export const forbiddenFields: ObjectRule<typeof ForbiddenFieldsParams> = {
  name: 'forbiddenFields',
  scope: 'object',
  summary: 'Objects of one kind do not set the listed fields.',
  fix: 'remove the field',
  parameters: ForbiddenFieldsParams,
  multiple: true,
  check(object, params) {
    if (object.kind !== params.kind) return [];
    return params.fields.filter((field) => Object.hasOwn(object.fields, field)).map((field) => ({ message: `sets ${field}, which the policy forbids for ${params.kind}s`, field }));
  },
};

const MaxInactiveParams = def(
  'MaxInactiveShareRule',
  ClosedObject(
  {
    percent: Type.Number({ minimum: 0, maximum: 100, description: 'Largest share of the account\'s monitors that may be inactive (IsActive: false) after the plan, as a percentage.' }),
    severity,
  },
  { description: 'At most this share of the account\'s monitors is inactive once the plan is applied.' },
  ),
);

export const maxInactiveShare: AccountRule<typeof MaxInactiveParams> = {
  name: 'maxInactiveShare',
  scope: 'account',
  summary: 'Once the plan is applied, at most `percent` % of the account\'s monitors (declared and unmanaged; retired ones are gone) are inactive. Checked by plan, not validate.',
  fix: 'activate or remove inactive monitors, or raise the percentage',
  parameters: MaxInactiveParams,
  multiple: false,
  check(monitors, params) {
    if (monitors.length === 0) return [];
    const inactive = monitors.filter((m) => !m.active).length;
    const share = Math.round((inactive / monitors.length) * 1000) / 10;
    if ((inactive / monitors.length) * 100 <= params.percent) return [];
    return [{ message: `${inactive} of ${monitors.length} monitors (${share}%) would be inactive after this plan, over the policy's ${params.percent}%` }];
  },
};

const ReachParams = def(
  'AlertsReachSomeoneRule',
  SeverityOnly('Every active alert definition that covers monitors reaches an operator at some active escalation level, and someone is on duty at its first active level in every hour of the next 7 days.'),
);

/** `Tue 03 Mar 00:00Z` style is the renderers' business: the rule names the first gap in UTC and counts the rest. */
function hoursSaid(spans: readonly HourSpan[]): string {
  const total = spans.reduce((sum, span) => sum + span.hours, 0);
  const first = spans[0];
  const at = first === undefined ? '' : `, the first from ${first.from.slice(0, 16).replace('T', ' ')} UTC`;
  return `${total} ${total === 1 ? 'hour' : 'hours'} of the next 7 days${at}`;
}

export const alertsReachSomeone: PlanRule<typeof ReachParams> = {
  name: 'alertsReachSomeone',
  scope: 'plan',
  summary:
    'Every active alert definition that covers monitors reaches at least one operator at an active escalation level (groups expanded), and its first active level has someone on duty in every hour of the next 7 days. Checked by plan, not validate.',
  fix: 'add an operator or a group with members to an active level, or duty schedules that cover the hours, or take the monitors out of the definition',
  parameters: ReachParams,
  multiple: false,
  kinds: [ALERT_DEFINITION_KIND.kind],
  check(path) {
    if (!path.active || path.covers === 0) return [];
    const active = path.levels.filter((level) => level.active);
    // A level whose members were not read may reach anyone: the rule says nothing it cannot see.
    if (active.some((level) => level.operators === undefined)) return [];
    const covers = path.covers === undefined ? 'its monitors' : `the ${path.covers} ${path.covers === 1 ? 'monitor or group' : 'monitors and groups'} it covers`;
    if (active.every((level) => level.operators === 0)) {
      return [{ message: active.length === 0 ? `has no active escalation level, so ${covers} page nobody` : `reaches no operator at any active escalation level, so ${covers} page nobody` }];
    }
    const first = active[0];
    const gaps = first?.nobodyOnDuty ?? [];
    if (first === undefined || gaps.length === 0) return [];
    const who = first.operators === 0 ? 'reaches nobody' : `has none of its ${first.operators} operator${first.operators === 1 ? '' : 's'} on duty`;
    return [{ message: `escalation level ${first.id} (its first active one) ${who} in ${hoursSaid(gaps)}`, field: 'escalationLevels' }];
  },
};

/** Every rule, in the order `policy:` lists them for people. */
export const POLICY_RULES: readonly PolicyRule[] = [
  checkInterval as unknown as ObjectRule,
  requiredErrorConditions as unknown as ObjectRule,
  monitorInGroup as unknown as ObjectRule,
  activeMonitorsAlert as unknown as ObjectRule,
  namePattern as unknown as ObjectRule,
  forbiddenFields as unknown as ObjectRule,
  maxInactiveShare as unknown as AccountRule,
  alertsReachSomeone as unknown as PlanRule,
];

export function policyRule(name: string): PolicyRule | undefined {
  return POLICY_RULES.find((rule) => rule.name === name);
}

/** Whether an object rule applies to a kind (a rule that names its kind in a parameter: any named kind). */
export function ruleAppliesTo(rule: PolicyRule, kind: KindName): boolean {
  if (rule.scope === 'account') return false;
  if (rule.scope === 'plan') return rule.kinds.includes(kind);
  return rule.kinds === undefined ? NAMED_KINDS.includes(kind) : rule.kinds.includes(kind);
}
