import type { Core } from '../core.js';
import { sameContent } from '../created.js';
import { withSpecifiedCompanions } from '../wire/operator-fields.js';
import type { Page, Paged } from '../paging.js';
import type {
  DutySchedule,
  DutyScheduleCreate,
  DutyScheduleReplace,
  Operator,
  OperatorAuthorization,
  OperatorCreate,
  OperatorGroup,
  OperatorGroupAuthorization,
  OperatorGroupCreate,
  OperatorGroupReplace,
  OperatorReplace,
  OutgoingPhoneNumber,
  Timezone,
} from '../types.js';
import type { OperatorAuthorizationType, OperatorGroupAuthorizationType, Open } from '../enums.js';

export interface OperatorsApi {
  /** All operators, including the account administrator. */
  list(): Paged<Operator>;
  listPage(): Promise<Page<Operator>>;
  get(operatorGuid: string): Promise<Operator>;
  /**
   * The response is the operator with its assigned `OperatorGuid`. Create and replace send the `...Specified: true`
   * companion of every such field the body holds (`SPECIFIED_COMPANION_FIELDS`): without it the service ignores it.
   */
  create(body: OperatorCreate): Promise<Operator>;
  replace(operatorGuid: string, body: OperatorReplace): Promise<Operator | undefined>;
  /** The operator of the API account in use cannot be deleted (403). */
  delete(operatorGuid: string): Promise<void>;
  /** Duty (off-duty) schedules. */
  dutySchedules: {
    list(operatorGuid: string): Paged<DutySchedule>;
    /** The new schedule with its `Id` (the published definition answers with no body: found by its content). */
    create(operatorGuid: string, body: DutyScheduleCreate): Promise<DutySchedule>;
    replace(operatorGuid: string, dutyScheduleId: number | string, body: DutyScheduleReplace): Promise<DutySchedule | undefined>;
    delete(operatorGuid: string, dutyScheduleId: number | string): Promise<void>;
  };
  /**
   * The operator's own authorizations (the published definition: the type in the path, no body). `list` reads the
   * bare type names the service lists, or objects with `AuthorizationType`. `add` and `remove` take any 2xx answer,
   * with or without a body (201 empty, 204, 200 with the list); `add` is a POST, so the client never sends it
   * again on its own after an unclear outcome: the caller looks at `list` first.
   */
  authorizations: {
    list(operatorGuid: string): Paged<OperatorAuthorization>;
    add(operatorGuid: string, authorizationType: Open<OperatorAuthorizationType>): Promise<void>;
    remove(operatorGuid: string, authorizationType: Open<OperatorAuthorizationType>): Promise<void>;
  };
}

export function operatorsApi(core: Core): OperatorsApi {
  const one = '/Operator/{operatorGuid}';
  const schedules = `${one}/DutySchedule`;
  const schedule = `${schedules}/{dutyScheduleId}`;
  const authorizations = `${one}/Authorization`;
  return {
    list: () => core.paged<Operator>({ method: 'GET', route: '/Operator' }),
    listPage: () => core.page<Operator>({ method: 'GET', route: '/Operator' }),
    get: (operatorGuid) => core.json<Operator>({ method: 'GET', route: one, params: { operatorGuid } }),
    create: (body) =>
      core.created<Operator>(
        { method: 'POST', route: '/Operator', body: withSpecifiedCompanions(body) },
        {
          idField: 'OperatorGuid',
          listKey: 'GET /Operator',
          list: () => core.paged<Operator>({ method: 'GET', route: '/Operator' }).toArray(),
          matches: (o) => typeof o.Email === 'string' && o.Email.toLowerCase() === body.Email.toLowerCase(),
        },
      ),
    replace: (operatorGuid, body) => core.maybe<Operator>({ method: 'PUT', route: one, params: { operatorGuid }, body: withSpecifiedCompanions(body) }),
    delete: (operatorGuid) => core.none({ method: 'DELETE', route: one, params: { operatorGuid } }),
    dutySchedules: {
      list: (operatorGuid) => core.paged<DutySchedule>({ method: 'GET', route: schedules, params: { operatorGuid } }),
      // The published definition answers 201 with no body: the new schedule is the newest one with the content sent.
      create: (operatorGuid, body) =>
        core.created<DutySchedule>(
          { method: 'POST', route: schedules, params: { operatorGuid }, body },
          {
            idField: 'Id',
            listKey: `GET /Operator/${operatorGuid}/DutySchedule`,
            list: () => core.paged<DutySchedule>({ method: 'GET', route: schedules, params: { operatorGuid } }).toArray(),
            matches: (d) => sameContent(body, d),
            pick: (found) => found.reduce((best, d) => (Number(d.Id) > Number(best.Id) ? d : best)),
          },
        ),
      replace: (operatorGuid, dutyScheduleId, body) =>
        core.maybe<DutySchedule>({ method: 'PUT', route: schedule, params: { operatorGuid, dutyScheduleId }, body }),
      delete: (operatorGuid, dutyScheduleId) => core.none({ method: 'DELETE', route: schedule, params: { operatorGuid, dutyScheduleId } }),
    },
    authorizations: {
      list: (operatorGuid) => core.paged({ method: 'GET', route: authorizations, params: { operatorGuid } }, { map: normaliseAuthorization }),
      add: (operatorGuid, authorizationType) => core.none({ method: 'POST', route: `${authorizations}/{authorizationType}`, params: { operatorGuid, authorizationType } }),
      remove: (operatorGuid, authorizationType) => core.none({ method: 'DELETE', route: `${authorizations}/{authorizationType}`, params: { operatorGuid, authorizationType } }),
    },
  };
}

export interface OperatorGroupsApi {
  /** All groups, including the system groups Everyone and Administrators. */
  list(): Paged<OperatorGroup>;
  listPage(): Promise<Page<OperatorGroup>>;
  get(operatorGroupGuid: string): Promise<OperatorGroup>;
  create(body: OperatorGroupCreate): Promise<OperatorGroup>;
  replace(operatorGroupGuid: string, body: OperatorGroupReplace): Promise<OperatorGroup | undefined>;
  delete(operatorGroupGuid: string): Promise<void>;
  /** `{OperatorGuid}` items (published), full operators, or bare GUID strings, each read as an object with `OperatorGuid`. */
  members(operatorGroupGuid: string): Paged<Operator>;
  /** `POST .../Member/{operatorGuid}`: 201 with no body (published). */
  addMember(operatorGroupGuid: string, operatorGuid: string): Promise<void>;
  removeMember(operatorGroupGuid: string, operatorGuid: string): Promise<void>;
  /** Schedules applied to every operator of the group. */
  dutySchedules: {
    /**
     * The published route (204, no body): copies the schedule onto each current member as an operator schedule of
     * its own, changed and deleted through `/Operator/{guid}/DutySchedule`. The service has no group schedule to read.
     */
    addForAllMembers(operatorGroupGuid: string, body: DutyScheduleCreate): Promise<void>;
    /** The spec's route; the published definition has no group POST, PUT or DELETE of schedules. */
    create(operatorGroupGuid: string, body: DutyScheduleCreate): Promise<DutySchedule | undefined>;
    replace(operatorGroupGuid: string, dutyScheduleId: number | string, body: DutyScheduleReplace): Promise<DutySchedule | undefined>;
    delete(operatorGroupGuid: string, dutyScheduleId: number | string): Promise<void>;
  };
  /**
   * Two forms exist and the spec does not say which is in force: the legacy one (ids, type in the body) and
   * the announced one (type in the path, no body, no ids). `list` reads either.
   */
  authorizations: {
    list(operatorGroupGuid: string): Paged<OperatorGroupAuthorization>;
    /** Legacy: `POST .../Authorization` with `{AuthorizationType}`. */
    add(operatorGroupGuid: string, authorizationType: Open<OperatorGroupAuthorizationType>): Promise<OperatorGroupAuthorization | undefined>;
    /** Legacy: `DELETE .../Authorization/{authorizationGuid}`. */
    remove(operatorGroupGuid: string, authorizationGuid: string): Promise<void>;
    /** Announced: `POST .../Authorization/{authorizationType}` without a body. */
    addByType(operatorGroupGuid: string, authorizationType: Open<OperatorGroupAuthorizationType>): Promise<void>;
    /** Announced: `DELETE .../Authorization/{authorizationType}`. */
    removeByType(operatorGroupGuid: string, authorizationType: Open<OperatorGroupAuthorizationType>): Promise<void>;
  };
}

/** The spec also spells the flag `IsAdministratorGroup`; callers get `IsAdministratorsGroup` either way. */
function normaliseGroup(raw: unknown): OperatorGroup {
  const group = raw as OperatorGroup;
  if (group.IsAdministratorsGroup === undefined && typeof group.IsAdministratorGroup === 'boolean') {
    return { ...group, IsAdministratorsGroup: group.IsAdministratorGroup };
  }
  return group;
}

/** A member as the published definition lists it (`{OperatorGuid}`), as a full operator, or as a bare GUID string. */
function normaliseOperatorMember(raw: unknown): Operator {
  return (typeof raw === 'string' ? { OperatorGuid: raw } : raw) as Operator;
}

/** The announced form (and an operator's authorizations) lists bare type names. */
function normaliseAuthorization<T extends OperatorGroupAuthorization | OperatorAuthorization>(raw: unknown): T {
  return (typeof raw === 'string' ? { AuthorizationType: raw } : raw) as T;
}

export function operatorGroupsApi(core: Core): OperatorGroupsApi {
  const one = '/OperatorGroup/{operatorGroupGuid}';
  const auth = `${one}/Authorization`;
  const schedule = `${one}/DutySchedule/{dutyScheduleId}`;
  return {
    list: () => core.paged({ method: 'GET', route: '/OperatorGroup' }, { map: normaliseGroup }),
    listPage: () => core.page({ method: 'GET', route: '/OperatorGroup' }, { map: normaliseGroup }),
    get: async (operatorGroupGuid) => normaliseGroup(await core.json<OperatorGroup>({ method: 'GET', route: one, params: { operatorGroupGuid } })),
    create: async (body) =>
      normaliseGroup(
        await core.created<OperatorGroup>(
          { method: 'POST', route: '/OperatorGroup', body },
          {
            idField: 'OperatorGroupGuid',
            listKey: 'GET /OperatorGroup',
            list: () => core.paged<OperatorGroup>({ method: 'GET', route: '/OperatorGroup' }).toArray(),
            matches: (g) => g.Description === body.Description,
          },
        ),
      ),
    replace: async (operatorGroupGuid, body) => {
      const res = await core.maybe<OperatorGroup>({ method: 'PUT', route: one, params: { operatorGroupGuid }, body });
      return res === undefined ? undefined : normaliseGroup(res);
    },
    delete: (operatorGroupGuid) => core.none({ method: 'DELETE', route: one, params: { operatorGroupGuid } }),
    members: (operatorGroupGuid) => core.paged({ method: 'GET', route: `${one}/Member`, params: { operatorGroupGuid } }, { map: normaliseOperatorMember }),
    addMember: (operatorGroupGuid, operatorGuid) => core.none({ method: 'POST', route: `${one}/Member/{operatorGuid}`, params: { operatorGroupGuid, operatorGuid } }),
    removeMember: (operatorGroupGuid, operatorGuid) => core.none({ method: 'DELETE', route: `${one}/Member/{operatorGuid}`, params: { operatorGroupGuid, operatorGuid } }),
    dutySchedules: {
      addForAllMembers: (operatorGroupGuid, body) =>
        core.none({ method: 'POST', route: `${one}/DutySchedule/AddDutyScheduleForAllMembers`, params: { operatorGroupGuid }, body }),
      create: (operatorGroupGuid, body) =>
        core.maybe<DutySchedule>({ method: 'POST', route: `${one}/DutySchedule`, params: { operatorGroupGuid }, body }),
      replace: (operatorGroupGuid, dutyScheduleId, body) =>
        core.maybe<DutySchedule>({ method: 'PUT', route: schedule, params: { operatorGroupGuid, dutyScheduleId }, body }),
      delete: (operatorGroupGuid, dutyScheduleId) => core.none({ method: 'DELETE', route: schedule, params: { operatorGroupGuid, dutyScheduleId } }),
    },
    authorizations: {
      list: (operatorGroupGuid) => core.paged({ method: 'GET', route: auth, params: { operatorGroupGuid } }, { map: normaliseAuthorization }),
      add: (operatorGroupGuid, authorizationType) =>
        core.maybe<OperatorGroupAuthorization>({ method: 'POST', route: auth, params: { operatorGroupGuid }, body: { AuthorizationType: authorizationType } }),
      remove: (operatorGroupGuid, authorizationGuid) =>
        core.none({ method: 'DELETE', route: `${auth}/{authorizationGuid}`, params: { operatorGroupGuid, authorizationGuid } }),
      addByType: (operatorGroupGuid, authorizationType) =>
        core.none({ method: 'POST', route: `${auth}/{authorizationType}`, params: { operatorGroupGuid, authorizationType } }),
      removeByType: (operatorGroupGuid, authorizationType) =>
        core.none({ method: 'DELETE', route: `${auth}/{authorizationType}`, params: { operatorGroupGuid, authorizationType } }),
    },
  };
}

export interface TimezonesApi {
  list(): Paged<Timezone>;
  get(timezoneId: number | string): Promise<Timezone>;
}

/** The spec writes both `TimezoneId` and `TimeZoneId`; callers can always read `TimezoneId`. */
function normaliseTimezone(raw: unknown): Timezone {
  const tz = raw as Timezone;
  if (tz.TimezoneId === undefined && tz.TimeZoneId !== undefined) return { ...tz, TimezoneId: tz.TimeZoneId };
  return tz;
}

export function timezonesApi(core: Core): TimezonesApi {
  return {
    list: () => core.paged({ method: 'GET', route: '/Timezone' }, { map: normaliseTimezone }),
    get: async (timezoneId) => normaliseTimezone(await core.json<Timezone>({ method: 'GET', route: '/Timezone/{timezoneId}', params: { timezoneId } })),
  };
}

export interface OutgoingPhoneNumbersApi {
  /** The numbers alerts may be sent from: an operator's `OutgoingPhoneNumberId` is one of their `Id`s. */
  list(): Paged<OutgoingPhoneNumber>;
}

export function outgoingPhoneNumbersApi(core: Core): OutgoingPhoneNumbersApi {
  return { list: () => core.paged({ method: 'GET', route: '/OutgoingPhoneNumber' }) };
}
