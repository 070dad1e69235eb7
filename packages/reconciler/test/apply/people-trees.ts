/**
 * People for the apply tests: random operators (with their own duty schedules and authorizations), operator groups (members,
 * authorizations, duty schedules) and vault access, on the config side and on the account side. The convergence
 * property mixes them with the other kinds; the duty-schedule property draws only these.
 */
import fc from 'fast-check';
import type { MonitoringClient } from '@monsync/client';
import { SEEDED } from '@monsync/emulator';
import { dutyContent } from '@monsync/schema';
import type { Declared, OperatorConfig, OperatorGroupConfig } from '@monsync/schema';
import { anOperator, anOperatorGroup } from '../../src/test-utils/index.js';

export const PEOPLE = ['ann@example.com', 'bob@example.com', 'cat@example.com'];
export const OPERATOR_GROUPS = ['Night shift', 'Weekend'];
const AUTHORIZATIONS = ['AllowInfra', 'FinancialOperator', 'BasicOperator'];
/** An operator's own: `AccountAccess` is what the service gives every new operator. */
const OPERATOR_AUTHORIZATIONS = ['AccountAccess', 'AllowInfra', 'TechnicalContact'];
export const SCHEDULES = [
  { ScheduleMode: 'Daily', StartTime: '22:00', EndTime: '06:00' },
  { ScheduleMode: 'Daily', StartTime: '08:00', EndTime: '17:00' },
  { ScheduleMode: 'Weekly', WeekDay: 'Saturday', StartTime: '00:00', EndTime: '00:00' },
  { ScheduleMode: 'Monthly', MonthDay: 31, StartTime: '09:00', EndTime: '17:00' },
  { ScheduleMode: 'OneTime', StartDateTime: '2026-12-24T18:00:00', EndDateTime: '2026-12-27T08:00:00' },
];

/** Keeps the first of each key, as a valid tree must. */
export function unique<T extends readonly unknown[]>(list: readonly T[]): T[] {
  const seen = new Set<unknown>();
  return list.filter((entry) => (seen.has(entry[0]) ? false : (seen.add(entry[0]), true)));
}

const scheduleIndexes = fc.subarray([0, 1, 2, 3, 4]);
const operatorFields = fc.record({ FullName: fc.constantFrom('Ann', 'Ann B.'), TimeZoneId: fc.constantFrom(1, 3) });
/** Who a vault access entry names (an operator or a group, by key) and its level. */
const accessEntry = fc.tuple(fc.constantFrom(...PEOPLE.map((email) => ({ operator: email })), ...OPERATOR_GROUPS.map((group) => ({ group }))), fc.constantFrom('view', 'change'));

/** The config side: declared operators (their own schedules optional), groups (each list optional), access per section. */
export const peopleDesiredArb = fc.record({
  prune: fc.record({ operators: fc.boolean(), operatorGroups: fc.boolean() }),
  operators: fc.array(
    fc.tuple(fc.constantFrom(...PEOPLE), operatorFields, fc.option(scheduleIndexes, { nil: undefined }), fc.option(fc.subarray(OPERATOR_AUTHORIZATIONS), { nil: undefined })),
    { maxLength: 3 },
  ),
  /** The API account's own operator's list: whatever it leaves out, its AccountAccess stays (no self lock-out). */
  ownAuthorizations: fc.option(fc.subarray(OPERATOR_AUTHORIZATIONS), { nil: undefined }),
  groups: fc.array(
    fc.tuple(
      fc.constantFrom(...OPERATOR_GROUPS),
      fc.option(fc.subarray(PEOPLE), { nil: undefined }),
      fc.option(fc.subarray(AUTHORIZATIONS), { nil: undefined }),
      fc.option(scheduleIndexes, { nil: undefined }),
    ),
    { maxLength: 2 },
  ),
  access: fc.option(fc.array(accessEntry, { maxLength: 3 }), { nil: undefined }),
});

/** The account side: operators holding schedule rows (the same index twice is a duplicate row), groups, access. */
export const peopleLiveArb = fc.record({
  operators: fc.array(
    fc.tuple(fc.constantFrom(...PEOPLE), operatorFields, fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 4 }), fc.subarray(OPERATOR_AUTHORIZATIONS)),
    { maxLength: 3 },
  ),
  groups: fc.array(fc.tuple(fc.constantFrom(...OPERATOR_GROUPS), fc.subarray(PEOPLE), fc.subarray(AUTHORIZATIONS)), { maxLength: 2 }),
  access: fc.array(accessEntry, { maxLength: 3 }),
});

export type PeopleDesired = typeof peopleDesiredArb extends fc.Arbitrary<infer T> ? T : never;
export type PeopleLive = typeof peopleLiveArb extends fc.Arbitrary<infer T> ? T : never;
type AccessInput = PeopleDesired['access'];

export interface PeopleTree {
  manage: { operators: { prune: boolean }; operatorGroups: { prune: boolean } };
  operators: Declared<OperatorConfig>[];
  operatorGroups: Declared<OperatorGroupConfig>[];
  /** A vault section's `access`, when declared: only operators and groups the tree declares. */
  access: { operator: string; level: string }[] | { group: string; level: string }[] | undefined;
}

/**
 * The tree as `validate` accepts it: the API account's operator always declared (pruning it is the lock-out
 * guard's business, tested on its own), members and access naming declared operators and groups only, and a group
 * declaring schedules also declaring its members.
 */
export function buildPeopleDesired(input: PeopleDesired): PeopleTree {
  const operators = unique(input.operators);
  const emails = new Set(operators.map(([email]) => email));
  const groups = unique(input.groups).map(([name, members, authorizations, schedules]) => {
    const declared = members?.filter((email) => emails.has(email));
    return anOperatorGroup({
      Description: name,
      ...(declared === undefined ? {} : { members: declared }),
      ...(authorizations === undefined ? {} : { authorizations }),
      ...(declared === undefined || schedules === undefined ? {} : { dutySchedules: schedules.map((i) => SCHEDULES[i]) }),
    } as never);
  });
  const names = new Set(groups.map((g) => g.value.Description));
  return {
    manage: { operators: { prune: input.prune.operators }, operatorGroups: { prune: input.prune.operatorGroups } },
    operators: [
      anOperator({ Email: SEEDED.admin.email, ...(input.ownAuthorizations === undefined ? {} : { authorizations: input.ownAuthorizations }) } as never),
      ...operators.map(([email, fields, schedules, authorizations]) =>
        anOperator({
          Email: email,
          ...fields,
          ...(schedules === undefined ? {} : { dutySchedules: schedules.map((i) => SCHEDULES[i]) }),
          ...(authorizations === undefined ? {} : { authorizations }),
        } as never),
      ),
    ],
    operatorGroups: groups,
    access: declaredAccess(input.access, emails, names),
  };
}

function declaredAccess(access: AccessInput, emails: ReadonlySet<string>, groups: ReadonlySet<string>): PeopleTree['access'] {
  if (access === undefined) return undefined;
  const kept = unique(access.map(([who, level]) => ['operator' in who ? `operator:${who.operator}` : `group:${who.group}`, who, level] as const));
  return kept.filter(([, who]) => ('operator' in who ? emails.has(who.operator) : groups.has(who.group))).map(([, who, level]) => ({ ...who, level })) as PeopleTree['access'];
}

/** Operator and group GUIDs of the account, by Email and Description, once `buildPeopleLive` made them. */
export interface PeopleGuids {
  operators: Map<string, string>;
  groups: Map<string, string>;
}

/** Creates the people through the API, as another tool (or a person in the web app) would have. */
export async function buildPeopleLive(client: MonitoringClient, input: PeopleLive): Promise<PeopleGuids> {
  const operators = new Map<string, string>();
  for (const [email, fields, rows, authorizations] of unique(input.operators)) {
    const guid = String((await client.operators.create({ Email: email, ...fields } as never)).OperatorGuid);
    operators.set(email, guid);
    for (const i of rows) await client.operators.dutySchedules.create(guid, SCHEDULES[i] as never);
    // The service gave it AccountAccess; the account holds exactly the drawn types.
    if (!authorizations.includes('AccountAccess')) await client.operators.authorizations.remove(guid, 'AccountAccess');
    for (const type of authorizations) if (type !== 'AccountAccess') await client.operators.authorizations.add(guid, type);
  }
  const groups = new Map<string, string>();
  for (const [name, members, authorizations] of unique(input.groups)) {
    const group = String((await client.operatorGroups.create({ Description: name })).OperatorGroupGuid);
    groups.set(name, group);
    for (const email of members) {
      const guid = operators.get(email);
      if (guid !== undefined) await client.operatorGroups.addMember(group, guid);
    }
    for (const type of authorizations) await client.operatorGroups.authorizations.addByType(group, type);
  }
  return { operators, groups };
}

/** Gives access to a section to the operators and groups `buildPeopleLive` made (the others are skipped). */
export async function grantLiveAccess(client: MonitoringClient, sectionGuid: string, access: PeopleLive['access'], guids: PeopleGuids): Promise<void> {
  for (const [who, level] of access) {
    const principal = 'operator' in who ? { OperatorGuid: guids.operators.get(who.operator) } : { OperatorGroupGuid: guids.groups.get(who.group) };
    if (Object.values(principal)[0] === undefined) continue;
    await client.vaultSections.authorizations.create(sectionGuid, { AuthorizationType: level === 'change' ? 'ChangeVaultSection' : 'ViewVaultSection', ...principal } as never);
  }
}

/** People keys that appear more than once in the account: operators, groups, an operator's schedule, a section's access. */
export async function peopleDuplicates(client: MonitoringClient, add: (key: string) => void): Promise<void> {
  for (const o of await client.operators.list().toArray()) {
    add(`operator:${String(o.Email).toLowerCase()}`);
    for (const row of await client.operators.dutySchedules.list(String(o.OperatorGuid)).toArray()) add(`dutySchedule:${String(o.Email)}/${JSON.stringify(dutyContent(row))}`);
  }
  for (const g of await client.operatorGroups.list().toArray()) add(`operatorGroup:${String(g.Description)}`);
  for (const s of await client.vaultSections.list().toArray()) {
    for (const a of await client.vaultSections.authorizations.list(String(s.VaultSectionGuid)).toArray()) {
      const who = String(a.OperatorGuid ?? a.OperatorGroupGuid ?? (a as { OperatorGroupId?: unknown }).OperatorGroupId);
      add(`vaultAccess:${String(s.Name)}/${who}/${String(a.AuthorizationType)}`);
    }
  }
}
