/**
 * The narrow, structural view of `@monsync/client` the reconciler needs. The real `MonitoringClient` satisfies
 * these interfaces; tests pass in-memory fakes. Objects are plain records because the service adds fields and
 * monsync passes them through.
 */
import type { SelfRecord } from './self.js';
import type { StepKind } from '../plan/types.js';

export type ApiObject = Record<string, unknown>;

/** What a `Paged<T>` (or a bare-array list) offers: every item, following cursors. */
export interface Listing<T> {
  /**
   * `answered`, when the listing supports it, is called as soon as the last batch's answer has arrived, before it is
   * parsed (readLive starts the next per-parent listing there, so its request overlaps this parse).
   */
  toArray(options?: { answered?: () => void }): Promise<T[]>;
}

/** The read side: one listing per kind plus the per-parent listings. */
export interface LiveClient {
  monitors: { list(): Listing<ApiObject> };
  monitorGroups: { list(): Listing<ApiObject>; members(monitorGroupGuid: string): Listing<ApiObject> };
  vaultSections: { list(): Listing<ApiObject>; authorizations: { list(vaultSectionGuid: string): Listing<ApiObject> } };
  vaultItems: { list(): Listing<ApiObject> };
  slas: { list(): Listing<ApiObject>; exclusionPeriods: { list(slaGuid: string): Listing<ApiObject> } };
  scheduledReports: { list(): Listing<ApiObject> };
  rumWebsites: { list(): Listing<ApiObject> };
  operators: {
    list(): Listing<ApiObject>;
    dutySchedules: { list(operatorGuid: string): Listing<ApiObject> };
    authorizations: { list(operatorGuid: string): Listing<ApiObject> };
  };
  /** Time zones of operators (`TimeZoneId`), read for the on-call preview. */
  timezones: { list(): Listing<ApiObject> };
  /** `GET /OutgoingPhoneNumber`, read when an operator names its number (`outgoingPhoneNumber`) and by `pull`. */
  outgoingPhoneNumbers?: { list(): Listing<ApiObject> };
  operatorGroups: {
    list(): Listing<ApiObject>;
    members(operatorGroupGuid: string): Listing<ApiObject>;
    authorizations: { list(operatorGroupGuid: string): Listing<ApiObject> };
  };
  /** Alert definitions with their members, escalation levels, level members and attached integrations. */
  alertDefinitions?: {
    list(): Listing<ApiObject>;
    members: { list(alertDefinitionGuid: string): Listing<ApiObject> };
    escalationLevels: { list(alertDefinitionGuid: string): Listing<ApiObject>; members: { list(alertDefinitionGuid: string, escalationLevelId: string): Listing<ApiObject> } };
    integrations: { list(alertDefinitionGuid: string, escalationLevelId: string): Listing<ApiObject> };
  };
  /** `GET /Integration`, read when a level names an integration, and by `pull`. */
  integrations?: { list(): Listing<ApiObject> };
  /** The client's concurrency limit; readLive keeps one slot of it for the monitor cursor chain. */
  readonly parallelism?: number;
}

/** The write side used by the kind modules' requests (apply). */
export interface WriteClient {
  /** Attempts the client makes of one request (its retry policy); apply's repeated creates stay within it. */
  readonly maxAttempts?: number;
  monitors: {
    list(): Listing<ApiObject>;
    get(monitorGuid: string): Promise<ApiObject>;
    create(body: ApiObject): Promise<ApiObject>;
    patch(monitorGuid: string, body: ApiObject): Promise<unknown>;
    delete(monitorGuid: string): Promise<unknown>;
  };
  monitorGroups: {
    list(): Listing<ApiObject>;
    members(monitorGroupGuid: string): Listing<ApiObject>;
    create(body: ApiObject): Promise<ApiObject>;
    replace(monitorGroupGuid: string, body: ApiObject): Promise<unknown>;
    delete(monitorGroupGuid: string): Promise<unknown>;
    addMember(monitorGroupGuid: string, monitorGuid: string): Promise<unknown>;
    removeMember(monitorGroupGuid: string, monitorGuid: string): Promise<unknown>;
  };
  vaultSections: {
    list(): Listing<ApiObject>;
    create(body: ApiObject): Promise<ApiObject>;
    replace(vaultSectionGuid: string, body: ApiObject): Promise<unknown>;
    delete(vaultSectionGuid: string): Promise<unknown>;
    authorizations: {
      list(vaultSectionGuid: string): Listing<ApiObject>;
      create(vaultSectionGuid: string, body: ApiObject): Promise<unknown>;
      delete(vaultSectionGuid: string, authorizationId: string): Promise<unknown>;
    };
  };
  vaultItems: {
    list(): Listing<ApiObject>;
    create(body: ApiObject): Promise<ApiObject>;
    patch(vaultItemGuid: string, body: ApiObject): Promise<unknown>;
    delete(vaultItemGuid: string): Promise<unknown>;
  };
  slas: {
    list(): Listing<ApiObject>;
    create(body: ApiObject): Promise<unknown>;
    patch(slaGuid: string, body: ApiObject): Promise<unknown>;
    delete(slaGuid: string): Promise<unknown>;
    exclusionPeriods: {
      list(slaGuid: string): Listing<ApiObject>;
      create(slaGuid: string, body: ApiObject): Promise<unknown>;
      patch(slaGuid: string, exclusionPeriodId: string, body: ApiObject): Promise<unknown>;
      delete(slaGuid: string, exclusionPeriodId: string): Promise<unknown>;
    };
  };
  scheduledReports: {
    list(): Listing<ApiObject>;
    create(body: ApiObject): Promise<unknown>;
    patch(scheduledReportGuid: string, body: ApiObject): Promise<unknown>;
    delete(scheduledReportGuid: string): Promise<unknown>;
  };
  rumWebsites: {
    list(): Listing<ApiObject>;
    create(body: ApiObject): Promise<ApiObject>;
    replace(rumWebsiteId: string, body: ApiObject): Promise<unknown>;
    delete(rumWebsiteId: string): Promise<unknown>;
  };
  alertDefinitions: {
    patch(alertDefinitionGuid: string, body: ApiObject): Promise<unknown>;
    list?(): Listing<ApiObject>;
    create?(body: ApiObject & { AlertName: string }): Promise<ApiObject>;
    delete?(alertDefinitionGuid: string): Promise<unknown>;
    members?: {
      list(alertDefinitionGuid: string): Listing<ApiObject>;
      addMonitor(alertDefinitionGuid: string, monitorGuid: string): Promise<unknown>;
      removeMonitor(alertDefinitionGuid: string, monitorGuid: string): Promise<unknown>;
      addMonitorGroup(alertDefinitionGuid: string, monitorGroupGuid: string): Promise<unknown>;
      removeMonitorGroup(alertDefinitionGuid: string, monitorGroupGuid: string): Promise<unknown>;
    };
    escalationLevels?: {
      get(alertDefinitionGuid: string, escalationLevelId: string): Promise<ApiObject>;
      patch(alertDefinitionGuid: string, escalationLevelId: string, body: ApiObject & { Id: number }): Promise<unknown>;
      members: {
        list(alertDefinitionGuid: string, escalationLevelId: string): Listing<ApiObject>;
        addOperator(alertDefinitionGuid: string, escalationLevelId: string, operatorGuid: string): Promise<unknown>;
        removeOperator(alertDefinitionGuid: string, escalationLevelId: string, operatorGuid: string): Promise<unknown>;
        addOperatorGroup(alertDefinitionGuid: string, escalationLevelId: string, operatorGroupGuid: string): Promise<unknown>;
        removeOperatorGroup(alertDefinitionGuid: string, escalationLevelId: string, operatorGroupGuid: string): Promise<unknown>;
      };
    };
    integrations?: {
      list(alertDefinitionGuid: string, escalationLevelId: string): Listing<ApiObject>;
      link(alertDefinitionGuid: string, escalationLevelId: string, body: ApiObject): Promise<unknown>;
      patch(alertDefinitionGuid: string, escalationLevelId: string, integrationGuid: string, body: ApiObject): Promise<unknown>;
      unlink(alertDefinitionGuid: string, escalationLevelId: string, integrationGuid: string): Promise<unknown>;
    };
  };
  operators: {
    list(): Listing<ApiObject>;
    dutySchedules: {
      list(operatorGuid: string): Listing<ApiObject>;
      create(operatorGuid: string, body: ApiObject): Promise<ApiObject>;
      delete(operatorGuid: string, dutyScheduleId: string): Promise<unknown>;
    };
    authorizations: {
      list(operatorGuid: string): Listing<ApiObject>;
      add(operatorGuid: string, authorizationType: string): Promise<unknown>;
      remove(operatorGuid: string, authorizationType: string): Promise<unknown>;
    };
    create(body: ApiObject): Promise<ApiObject>;
    replace(operatorGuid: string, body: ApiObject): Promise<unknown>;
    delete(operatorGuid: string): Promise<unknown>;
  };
  operatorGroups: {
    list(): Listing<ApiObject>;
    create(body: ApiObject): Promise<ApiObject>;
    replace(operatorGroupGuid: string, body: ApiObject): Promise<unknown>;
    delete(operatorGroupGuid: string): Promise<unknown>;
    members(operatorGroupGuid: string): Listing<ApiObject>;
    addMember(operatorGroupGuid: string, operatorGuid: string): Promise<unknown>;
    removeMember(operatorGroupGuid: string, operatorGuid: string): Promise<unknown>;
    authorizations: {
      list(operatorGroupGuid: string): Listing<ApiObject>;
      addByType(operatorGroupGuid: string, authorizationType: string): Promise<unknown>;
      removeByType(operatorGroupGuid: string, authorizationType: string): Promise<unknown>;
    };
  };
}

/** Which kinds to read: the managed kinds and those they reference. */
export interface LiveScope {
  kinds: StepKind[];
  /** Read operators to name who changed an object outside git. */
  operators: boolean;
  /** Read `GET /OutgoingPhoneNumber` (an operator names its number, or `pull` writes names for ids). */
  outgoingPhoneNumbers?: boolean;
  /** Read the record of the API account's operator (`live/self.ts`): when it is not named and the plan needs it. */
  self?: boolean;
  /** Read `GET /Integration` (an escalation level names an integration, or `pull` writes names for GUIDs). */
  integrations?: boolean;
  /**
   * A per-parent kind listed only under some of its parents (an operator's authorizations, under the operators that
   * declare `authorizations:`): by kind, the parents' keys and GUIDs, in lower case. Without an entry, every parent.
   */
  parents?: Partial<Record<StepKind, readonly string[]>>;
}

/**
 * Plain data, no client inside: what `assemblePlan` reads. `read` says which kinds were actually listed, so an
 * unread kind is never mistaken for an empty one. Listings are kept by kind, as each kind module's `read` says
 * (`kinds/contract.ts`); `listed` and `listedPerParent` (`live/snapshot.ts`) read them.
 */
export interface LiveSnapshot {
  read: StepKind[];
  /** The listing of each top-level kind read, as the service returned it. */
  lists: Partial<Record<StepKind, ApiObject[]>>;
  /** The listings of each child kind read, per parent GUID (group members per group, periods per SLA). */
  perParent: Partial<Record<StepKind, Record<string, ApiObject[]>>>;
  /** `null` when operators were not read or not readable (403): drift then names operator ids. */
  operators: ApiObject[] | null;
  /** `GET /Timezone`, read with the duty schedules (the on-call preview counts hours on each operator's clock). */
  timezones?: ApiObject[];
  /** `GET /OutgoingPhoneNumber`, when the scope asks for it. */
  outgoingPhoneNumbers?: ApiObject[];
  /** The record of the API account's operator (`live/self.ts`), when the scope asks for it and it could be read. */
  self?: SelfRecord;
  /** `GET /Integration`, when the scope asks for it. */
  integrations?: ApiObject[];
}
