/**
 * The kind registry: every declarative fact about a resource kind, in one table that every package derives its
 * kind lists from (the plan schema, `ignore`, `--target`, the loader's checks, the renderers, `pull`). The
 * reconciler's kind modules (`packages/reconciler/src/kinds/`) extend each entry with behaviour: reads, requests,
 * matching. See docs/architecture.md, "The kind registry", and "How to add a kind".
 *
 * The order of `KIND_ENTRIES` is the plan order: creates and updates run in it, deletes in reverse. People see kinds
 * listed by config section instead (`KINDS_AS_LISTED`): the order of `manage` in `monsync.yaml`.
 */
import { serverAddedKeys } from '@monsync/client/wire';
import { dutyContent, dutyLabel } from './duty-schedule.js';

/** The `manage` entries of `monsync.yaml`, one per config section, in the order people see kinds listed in. */
export const MANAGED_KINDS = ['monitors', 'monitorGroups', 'vault', 'slas', 'scheduledReports', 'alertDefinitions', 'operators', 'operatorGroups', 'rumWebsites'] as const;
export type ManagedKind = (typeof MANAGED_KINDS)[number];

/** An array compared as a set: by `key` for arrays of objects, by value for arrays of scalars. */
export interface KindSetField {
  /** Field path below the object, e.g. `['ErrorConditions']` or `['Recipients', 'Operators']`. */
  readonly path: readonly string[];
  readonly key?: string;
  /**
   * Keys of entries the service adds by itself when they are missing (a monitor's `LoadTimeLimit1`/`LoadTimeLimit2`
   * conditions, `SERVER_ADDED_ENTRIES` in `@monsync/client/wire`): a live entry with one of them that the config does
   * not list is left alone (no removal, and an update body keeps it); once declared, it is compared like any other.
   */
  readonly serverAdded?: readonly string[];
}

export interface KindEntry {
  /** The kind's name in plans (`step.kind`), `--target kind:key` and `ignore: ['kind:glob']`. */
  readonly kind: string;
  /** The `manage` entry that plans it; also the config section it is declared in. */
  readonly section: ManagedKind;
  /**
   * Where its declarations are in a config file: top-level kinds a list at this path, child kinds a list in each
   * entry of their parent's list (`*`), e.g. `['vault', 'sections', '*', 'items']`.
   */
  readonly path: readonly string[];
  /** The `DesiredState` list holding the declarations of a top-level kind. */
  readonly stateField?: 'monitors' | 'monitorGroups' | 'vaultSections' | 'slas' | 'scheduledReports' | 'alertDefinitions' | 'operators' | 'operatorGroups' | 'rumWebsites';
  /** The kind whose declarations hold this one's (its key is `<parent key>/<own key>`). */
  readonly parent?: string;
  /** Field naming an object within its parent or the account. None: the list entry is itself the key (a member name). */
  readonly keyField?: string;
  /**
   * For a kind whose entries are objects named by their content rather than by one field (a duty schedule, a vault
   * access): an entry's own key as plans write it. Where entries of a tree or a pulled account are matched to plan
   * steps (`pull --into`), this is how they are found.
   */
  readonly contentKey?: (entry: Readonly<Record<string, unknown>>) => string | undefined;
  /**
   * For a relation declared as one list per member kind below its path (`members: { monitors: [...], monitorGroups:
   * [...] }`): each list's field and the kind its entries name. An entry's own key is `<kind>:<entry>`.
   */
  readonly memberLists?: Readonly<Record<string, string>>;
  /** The object's own identifier field: written in the config, it pins identity (adoption, rename). Empty: none. */
  readonly guidField: string;
  /** Where identifiers are unique: the account, or only among the children of one parent (exclusion period ids). */
  readonly guidUnique: 'account' | 'parent';
  /** Fields the service sets and a config never holds. */
  readonly readOnlyFields: readonly string[];
  /** JSON pointers of write-only (secret) fields, which the service never returns. */
  readonly secretFields: readonly string[];
  readonly setFields: readonly KindSetField[];
  /** For people: `monitor` / `monitors`; `inParent` beside the parent's own title (`1 vault section with 3 items`). */
  readonly title: { readonly one: string; readonly many: string; readonly inParent?: { readonly one: string; readonly many: string } };
  /** Whether `ignore` patterns may name it (memberships follow their group). */
  readonly ignorable: boolean;
  /** Keys that differ only in case or surrounding spaces name one object (the service's uniqueness rule for SLAs). */
  readonly keyIgnoresCase?: boolean;
}

export const VAULT_SECTION_KIND = {
  kind: 'vaultSection',
  section: 'vault',
  path: ['vault', 'sections'],
  stateField: 'vaultSections',
  keyField: 'Name',
  guidField: 'VaultSectionGuid',
  guidUnique: 'account',
  readOnlyFields: ['VaultSectionGuid'],
  secretFields: [],
  setFields: [],
  title: { one: 'vault section', many: 'vault sections' },
  ignorable: true,
} as const satisfies KindEntry;

export const VAULT_ITEM_KIND = {
  kind: 'vaultItem',
  section: 'vault',
  path: ['vault', 'sections', '*', 'items'],
  parent: 'vaultSection',
  keyField: 'Name',
  guidField: 'VaultItemGuid',
  guidUnique: 'account',
  readOnlyFields: ['VaultItemGuid', 'VaultItemUsedBy', 'IsSensitive', 'VaultSectionGuid'],
  secretFields: ['/Value', '/Password', '/CertificateArchive/Password', '/CertificateArchive/ArchiveData'],
  setFields: [],
  title: { one: 'vault item', many: 'vault items', inParent: { one: 'item', many: 'items' } },
  ignorable: true,
} as const satisfies KindEntry;

export const MONITOR_GROUP_KIND = {
  kind: 'monitorGroup',
  section: 'monitorGroups',
  path: ['monitorGroups'],
  stateField: 'monitorGroups',
  keyField: 'Description',
  guidField: 'MonitorGroupGuid',
  guidUnique: 'account',
  readOnlyFields: ['MonitorGroupGuid', 'IsAll', 'UsedBasicMonitorQuota', 'UsedBrowserMonitorQuota', 'UsedTransactionMonitorQuota', 'UsedApiMonitorQuota', 'UsedClassicQuota'],
  secretFields: [],
  setFields: [],
  title: { one: 'monitor group', many: 'monitor groups' },
  ignorable: true,
} as const satisfies KindEntry;

export const MONITOR_KIND = {
  kind: 'monitor',
  section: 'monitors',
  path: ['monitors'],
  stateField: 'monitors',
  keyField: 'Name',
  guidField: 'MonitorGuid',
  guidUnique: 'account',
  readOnlyFields: ['MonitorGuid', 'CreatedDate', 'LastModifiedDate', 'LastModifiedByOperatorId'],
  secretFields: [],
  setFields: [
    { path: ['ErrorConditions'], key: 'ErrorConditionType', serverAdded: serverAddedKeys('monitor', 'ErrorConditions') },
    { path: ['PredefinedVariables'], key: 'Key' },
  ],
  title: { one: 'monitor', many: 'monitors' },
  ignorable: true,
} as const satisfies KindEntry;

export const GROUP_MEMBERSHIP_KIND = {
  kind: 'groupMembership',
  section: 'monitorGroups',
  path: ['monitorGroups', '*', 'members'],
  parent: 'monitorGroup',
  guidField: '',
  guidUnique: 'parent',
  readOnlyFields: [],
  secretFields: [],
  setFields: [],
  title: { one: 'group membership', many: 'group memberships' },
  ignorable: false,
} as const satisfies KindEntry;

export const SLA_KIND = {
  kind: 'sla',
  section: 'slas',
  path: ['slas'],
  stateField: 'slas',
  keyField: 'Description',
  guidField: 'SlaGuid',
  guidUnique: 'account',
  readOnlyFields: ['SlaGuid', 'Hash'],
  secretFields: [],
  setFields: [],
  title: { one: 'SLA', many: 'SLAs' },
  ignorable: true,
  keyIgnoresCase: true,
} as const satisfies KindEntry;

export const SLA_EXCLUSION_PERIOD_KIND = {
  kind: 'slaExclusionPeriod',
  section: 'slas',
  path: ['slas', '*', 'exclusionPeriods'],
  parent: 'sla',
  keyField: 'Description',
  guidField: 'ExclusionPeriodId',
  guidUnique: 'parent',
  readOnlyFields: ['ExclusionPeriodId', 'Hash'],
  secretFields: [],
  setFields: [],
  title: { one: 'SLA exclusion period', many: 'SLA exclusion periods', inParent: { one: 'exclusion period', many: 'exclusion periods' } },
  ignorable: true,
} as const satisfies KindEntry;

export const SCHEDULED_REPORT_KIND = {
  kind: 'scheduledReport',
  section: 'scheduledReports',
  path: ['scheduledReports'],
  stateField: 'scheduledReports',
  keyField: 'key',
  guidField: 'ScheduledReportGuid',
  guidUnique: 'account',
  readOnlyFields: ['ScheduledReportGuid', 'Hash'],
  secretFields: [],
  setFields: [{ path: ['Recipients', 'Operators'] }, { path: ['Recipients', 'OperatorGroups'] }, { path: ['Recipients', 'ExtraEmailAddresses'] }],
  title: { one: 'scheduled report', many: 'scheduled reports' },
  ignorable: true,
} as const satisfies KindEntry;

/**
 * Alert definitions, keyed by `AlertName` (the service's lookup ignores case). The older form names one by its GUID
 * alone (`{ AlertDefinitionGuid, IsActive }`): its key is then the GUID, and it pins the definition.
 */
export const ALERT_DEFINITION_KIND = {
  kind: 'alertDefinition',
  section: 'alertDefinitions',
  path: ['alertDefinitions'],
  stateField: 'alertDefinitions',
  keyField: 'AlertName',
  guidField: 'AlertDefinitionGuid',
  guidUnique: 'account',
  readOnlyFields: ['AlertDefinitionGuid', 'Hash'],
  secretFields: [],
  setFields: [],
  title: { one: 'alert definition', many: 'alert definitions' },
  ignorable: true,
  keyIgnoresCase: true,
} as const satisfies KindEntry;

/**
 * One of an alert definition's fixed escalation levels, keyed `<AlertName>/<Id>`: read and updated whole, never
 * created or deleted (a new definition comes with the account's levels, which its "create" fills in).
 */
export const ESCALATION_LEVEL_KIND = {
  kind: 'escalationLevel',
  section: 'alertDefinitions',
  path: ['alertDefinitions', '*', 'escalationLevels'],
  parent: 'alertDefinition',
  keyField: 'Id',
  guidField: '',
  guidUnique: 'parent',
  readOnlyFields: ['Hash'],
  secretFields: [],
  setFields: [],
  title: { one: 'escalation level', many: 'escalation levels', inParent: { one: 'level', many: 'levels' } },
  ignorable: true,
} as const satisfies KindEntry;

/**
 * A monitor or monitor group an alert definition covers, declared by its `members` ({ monitors, monitorGroups }),
 * keyed `<AlertName>/monitor:<Name>` or `<AlertName>/monitorGroup:<Description>`; authoritative where declared.
 */
export const ALERT_DEFINITION_MEMBER_KIND = {
  kind: 'alertDefinitionMember',
  section: 'alertDefinitions',
  path: ['alertDefinitions', '*', 'members'],
  parent: 'alertDefinition',
  guidField: '',
  guidUnique: 'parent',
  readOnlyFields: [],
  secretFields: [],
  setFields: [],
  memberLists: { monitors: 'monitor', monitorGroups: 'monitorGroup' },
  title: { one: 'alert definition member', many: 'alert definition members' },
  ignorable: false,
} as const satisfies KindEntry;

/**
 * An operator or operator group an escalation level reaches, declared by the level's `members` ({ operators,
 * operatorGroups }), keyed `<AlertName>/<Id>/operator:<Email>` or `.../operatorGroup:<Description>`; authoritative
 * where declared.
 */
export const ESCALATION_LEVEL_MEMBER_KIND = {
  kind: 'escalationLevelMember',
  section: 'alertDefinitions',
  path: ['alertDefinitions', '*', 'escalationLevels', '*', 'members'],
  parent: 'escalationLevel',
  guidField: '',
  guidUnique: 'parent',
  readOnlyFields: [],
  secretFields: [],
  setFields: [],
  memberLists: { operators: 'operator', operatorGroups: 'operatorGroup' },
  title: { one: 'escalation level member', many: 'escalation level members' },
  ignorable: false,
} as const satisfies KindEntry;

/**
 * An integration attached to an escalation level, keyed `<AlertName>/<Id>/<integration name>`; authoritative where
 * a level declares `integrations`. `IsActive`, `SendOkAlerts` and `SendReminderAlerts` are write-only.
 */
export const ESCALATION_LEVEL_INTEGRATION_KIND = {
  kind: 'escalationLevelIntegration',
  section: 'alertDefinitions',
  path: ['alertDefinitions', '*', 'escalationLevels', '*', 'integrations'],
  parent: 'escalationLevel',
  keyField: 'integration',
  guidField: '',
  guidUnique: 'parent',
  readOnlyFields: ['Hash'],
  secretFields: [],
  setFields: [{ path: ['ExtraEmailAddresses'] }],
  title: { one: 'escalation level integration', many: 'escalation level integrations', inParent: { one: 'integration', many: 'integrations' } },
  ignorable: true,
} as const satisfies KindEntry;

/**
 * Operators (people's accounts), keyed by e-mail (the login name; the service compares it ignoring case).
 * `IsOnDuty` is operational state people switch during an incident, never configuration: read-only here. So are the
 * spec's `PhoneProvider` and `OutgoingPhoneNumber`, which an account speaking the spec's form returns but the service's
 * published definition does not have: never written, never pulled into a tree (where validate refuses them).
 */
export const OPERATOR_KIND = {
  kind: 'operator',
  section: 'operators',
  path: ['operators'],
  stateField: 'operators',
  keyField: 'Email',
  guidField: 'OperatorGuid',
  guidUnique: 'account',
  readOnlyFields: ['OperatorGuid', 'IsAccountAdministrator', 'UserName', 'IsOnDuty', 'Hash', 'PhoneProvider', 'OutgoingPhoneNumber'],
  secretFields: ['/Password'],
  setFields: [],
  title: { one: 'operator', many: 'operators' },
  ignorable: true,
} as const satisfies KindEntry;

/**
 * An authorization type an operator holds, declared by the operator's `authorizations`, keyed `<Email>/<type>`;
 * authoritative where declared. `AccountAdministrator` is listed but never assignable (a system entry); a new
 * operator is given `AccountAccess` by the service.
 */
export const OPERATOR_AUTHORIZATION_KIND = {
  kind: 'operatorAuthorization',
  section: 'operators',
  path: ['operators', '*', 'authorizations'],
  parent: 'operator',
  guidField: '',
  guidUnique: 'parent',
  readOnlyFields: [],
  secretFields: [],
  setFields: [],
  title: { one: 'operator authorization', many: 'operator authorizations' },
  ignorable: false,
} as const satisfies KindEntry;

/** Operator groups, keyed by Description; the system group Everyone is never planned. */
export const OPERATOR_GROUP_KIND = {
  kind: 'operatorGroup',
  section: 'operatorGroups',
  path: ['operatorGroups'],
  stateField: 'operatorGroups',
  keyField: 'Description',
  guidField: 'OperatorGroupGuid',
  guidUnique: 'account',
  readOnlyFields: ['OperatorGroupGuid', 'IsEveryone', 'IsAdministratorsGroup', 'IsAdministratorGroup'],
  secretFields: [],
  setFields: [],
  title: { one: 'operator group', many: 'operator groups' },
  ignorable: true,
} as const satisfies KindEntry;

/** An operator in a group, declared by the group's `members` (e-mails); authoritative where declared. */
export const OPERATOR_GROUP_MEMBER_KIND = {
  kind: 'operatorGroupMember',
  section: 'operatorGroups',
  path: ['operatorGroups', '*', 'members'],
  parent: 'operatorGroup',
  guidField: '',
  guidUnique: 'parent',
  readOnlyFields: [],
  secretFields: [],
  setFields: [],
  title: { one: 'operator group membership', many: 'operator group memberships' },
  ignorable: false,
} as const satisfies KindEntry;

/** An authorization type granted to a group, declared by the group's `authorizations`; authoritative where declared. */
export const OPERATOR_GROUP_AUTHORIZATION_KIND = {
  kind: 'operatorGroupAuthorization',
  section: 'operatorGroups',
  path: ['operatorGroups', '*', 'authorizations'],
  parent: 'operatorGroup',
  guidField: '',
  guidUnique: 'parent',
  readOnlyFields: [],
  secretFields: [],
  setFields: [],
  title: { one: 'operator group authorization', many: 'operator group authorizations' },
  ignorable: false,
} as const satisfies KindEntry;

/**
 * Duty schedules an operator holds, keyed `<Email>/<label>` (`ann@example.com/Daily 22:00-06:00`): a set keyed by
 * content, so reordering plans nothing. Declared under an operator (`dutySchedules`) or an operator group, whose
 * schedules are copied onto each declared member (the service keeps a group's schedules only as those copies).
 * Planned with `manage.operators`.
 */
export const DUTY_SCHEDULE_KIND = {
  kind: 'dutySchedule',
  section: 'operators',
  path: ['operators', '*', 'dutySchedules'],
  parent: 'operator',
  guidField: '',
  guidUnique: 'parent',
  readOnlyFields: ['Id'],
  secretFields: [],
  setFields: [],
  contentKey: (entry) => dutyLabel(dutyContent(entry)),
  title: { one: 'duty schedule', many: 'duty schedules', inParent: { one: 'duty schedule', many: 'duty schedules' } },
  ignorable: false,
} as const satisfies KindEntry;

/** `operator:<Email>` or `group:<Description>`: whom a vault section's `access` entry names. */
function vaultAccessKey(entry: Readonly<Record<string, unknown>>): string | undefined {
  if (typeof entry['operator'] === 'string') return `operator:${entry['operator']}`;
  return typeof entry['group'] === 'string' ? `group:${entry['group']}` : undefined;
}

/**
 * Access of an operator or a group to a vault section (`access:` of the section), keyed
 * `<section>/operator:<email>` or `<section>/group:<Description>`; `level` is `view` or `change`.
 */
export const VAULT_ACCESS_KIND = {
  kind: 'vaultAccess',
  section: 'vault',
  path: ['vault', 'sections', '*', 'access'],
  parent: 'vaultSection',
  guidField: '',
  guidUnique: 'parent',
  readOnlyFields: [],
  secretFields: [],
  setFields: [],
  contentKey: (entry) => vaultAccessKey(entry),
  title: { one: 'vault access', many: 'vault accesses' },
  ignorable: true,
} as const satisfies KindEntry;

/**
 * Real user monitoring websites (`/Rum/Website`, the vendor's 2026 provider), keyed by Description (the name the web
 * app shows). `RumScript`, the snippet a site embeds, is generated by the service: read-only, never sent or pulled.
 */
export const RUM_WEBSITE_KIND = {
  kind: 'rumWebsite',
  section: 'rumWebsites',
  path: ['rumWebsites'],
  stateField: 'rumWebsites',
  keyField: 'Description',
  guidField: 'RumWebsiteId',
  guidUnique: 'account',
  readOnlyFields: ['RumWebsiteId', 'RumScript'],
  secretFields: [],
  setFields: [],
  title: { one: 'RUM website', many: 'RUM websites' },
  ignorable: true,
} as const satisfies KindEntry;

/** Every kind, in plan order. */
export const KIND_ENTRIES = [
  OPERATOR_KIND,
  OPERATOR_AUTHORIZATION_KIND,
  OPERATOR_GROUP_KIND,
  OPERATOR_GROUP_MEMBER_KIND,
  OPERATOR_GROUP_AUTHORIZATION_KIND,
  DUTY_SCHEDULE_KIND,
  VAULT_SECTION_KIND,
  VAULT_ACCESS_KIND,
  VAULT_ITEM_KIND,
  MONITOR_GROUP_KIND,
  MONITOR_KIND,
  GROUP_MEMBERSHIP_KIND,
  SLA_KIND,
  SLA_EXCLUSION_PERIOD_KIND,
  SCHEDULED_REPORT_KIND,
  ALERT_DEFINITION_KIND,
  ESCALATION_LEVEL_KIND,
  ALERT_DEFINITION_MEMBER_KIND,
  ESCALATION_LEVEL_MEMBER_KIND,
  ESCALATION_LEVEL_INTEGRATION_KIND,
  RUM_WEBSITE_KIND,
] as const satisfies readonly KindEntry[];

export type KindName = (typeof KIND_ENTRIES)[number]['kind'];

/** An entry of the registry, its name typed as one of the registry's. */
export type NamedKindEntry = KindEntry & { readonly kind: KindName };

/** Every kind, listed for people: by config section, then in plan order within a section. */
export const KINDS_AS_LISTED: readonly NamedKindEntry[] = MANAGED_KINDS.flatMap((section) => KIND_ENTRIES.filter((entry) => entry.section === section));

/** The kinds `ignore` patterns may name, as listed. */
export const IGNORABLE_KINDS: readonly KindName[] = KINDS_AS_LISTED.filter((entry) => entry.ignorable).map((entry) => entry.kind);

export function kindEntry(kind: string): KindEntry | undefined {
  return KIND_ENTRIES.find((entry) => entry.kind === kind);
}

/** The kinds declared in each entry of `parent`'s list (vault items in a section). */
export function childKinds(parent: KindEntry): NamedKindEntry[] {
  return KINDS_AS_LISTED.filter((entry) => entry.parent === parent.kind);
}

/** The kinds declared in a list at the top of a config file (their children are declared inside them), as listed. */
export function topLevelKinds(): NamedKindEntry[] {
  return KINDS_AS_LISTED.filter((entry) => entry.parent === undefined);
}
