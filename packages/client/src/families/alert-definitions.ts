import type { Core } from '../core.js';
import type { Paged } from '../paging.js';
import { invalid } from '../query.js';
import type {
  AlertDefinition,
  AlertDefinitionAuthorization,
  AlertDefinitionCreate,
  AlertDefinitionMember,
  AlertDefinitionPatch,
  AlertDefinitionReplace,
  EscalationLevel,
  EscalationLevelIntegration,
  EscalationLevelMember,
  Integration,
} from '../types.js';

type LevelId = number | string;

/**
 * Alert definitions as the published definition and the vendor's provider have them:
 * full create/read/update/delete, the monitors and monitor groups a definition covers, its fixed escalation levels
 * (read and updated, never created or deleted), the operators and groups of each level, and the integrations attached
 * to a level. Members have no id of their own: each is added and removed by its path, one at a time.
 */
export interface AlertDefinitionsApi {
  list(): Paged<AlertDefinition>;
  get(alertDefinitionGuid: string): Promise<AlertDefinition>;
  /**
   * POST, answered 201 with the object (D22). When the answer does not name the new definition, it is found by
   * listing and matching `AlertName` (ignoring case, as P26 looks definitions up); otherwise the outcome is unclear.
   */
  create(body: AlertDefinitionCreate): Promise<AlertDefinition>;
  /** PUT with the complete field list; `AlertDefinitionGuid` is filled from the path when absent. */
  replace(alertDefinitionGuid: string, body: AlertDefinitionReplace): Promise<AlertDefinition | undefined>;
  /** PATCH; a body `AlertDefinitionGuid` must equal the one in the path (checked before sending). */
  patch(alertDefinitionGuid: string, body: AlertDefinitionPatch): Promise<AlertDefinition | undefined>;
  /** PATCH `{IsActive}`, idempotent. */
  setActive(alertDefinitionGuid: string, isActive: boolean): Promise<AlertDefinition | undefined>;
  delete(alertDefinitionGuid: string): Promise<void>;
  /** The monitors and monitor groups the definition covers (`{g}/Member`). */
  members: {
    list(alertDefinitionGuid: string): Paged<AlertDefinitionMember>;
    addMonitor(alertDefinitionGuid: string, monitorGuid: string): Promise<void>;
    removeMonitor(alertDefinitionGuid: string, monitorGuid: string): Promise<void>;
    addMonitorGroup(alertDefinitionGuid: string, monitorGroupGuid: string): Promise<void>;
    removeMonitorGroup(alertDefinitionGuid: string, monitorGroupGuid: string): Promise<void>;
  };
  /** `{g}/EscalationLevel`: as many as the account has (3 on most accounts, 4 on some). */
  escalationLevels: {
    list(alertDefinitionGuid: string): Paged<EscalationLevel>;
    get(alertDefinitionGuid: string, escalationLevelId: LevelId): Promise<EscalationLevel>;
    /** PUT: D22 accepts only a complete level, so send every field. */
    replace(alertDefinitionGuid: string, escalationLevelId: LevelId, body: EscalationLevel): Promise<void>;
    /** PATCH, as P26 updates a level: send the complete level here too. */
    patch(alertDefinitionGuid: string, escalationLevelId: LevelId, body: EscalationLevel): Promise<void>;
    /** The operators and operator groups a level reaches. */
    members: {
      list(alertDefinitionGuid: string, escalationLevelId: LevelId): Paged<EscalationLevelMember>;
      addOperator(alertDefinitionGuid: string, escalationLevelId: LevelId, operatorGuid: string): Promise<void>;
      removeOperator(alertDefinitionGuid: string, escalationLevelId: LevelId, operatorGuid: string): Promise<void>;
      addOperatorGroup(alertDefinitionGuid: string, escalationLevelId: LevelId, operatorGroupGuid: string): Promise<void>;
      removeOperatorGroup(alertDefinitionGuid: string, escalationLevelId: LevelId, operatorGroupGuid: string): Promise<void>;
    };
  };
  /** `{g}/EscalationLevel/{n}/Integration`: integrations attached to a level, with their settings. */
  integrations: {
    list(alertDefinitionGuid: string, escalationLevelId: LevelId): Paged<EscalationLevelIntegration>;
    get(alertDefinitionGuid: string, escalationLevelId: LevelId, integrationGuid: string): Promise<EscalationLevelIntegration>;
    /** POST: attaches an integration (`*Specified` companions added for the fields set). The answer is not relied on. */
    link(alertDefinitionGuid: string, escalationLevelId: LevelId, body: EscalationLevelIntegration): Promise<EscalationLevelIntegration | undefined>;
    replace(alertDefinitionGuid: string, escalationLevelId: LevelId, integrationGuid: string, body: EscalationLevelIntegration): Promise<void>;
    patch(alertDefinitionGuid: string, escalationLevelId: LevelId, integrationGuid: string, body: EscalationLevelIntegration): Promise<void>;
    unlink(alertDefinitionGuid: string, escalationLevelId: LevelId, integrationGuid: string): Promise<void>;
  };
  /** `{g}/Authorizations` (plural, as D22 spells it). */
  authorizations: {
    list(alertDefinitionGuid: string): Paged<AlertDefinitionAuthorization>;
    create(alertDefinitionGuid: string, body: AlertDefinitionAuthorization): Promise<unknown>;
    delete(alertDefinitionGuid: string, authorizationGuid: string): Promise<void>;
  };
}

/** `GET /Integration`: the account's integrations (no create or update route exists). */
export interface IntegrationsApi {
  list(): Paged<Integration>;
}

const sameGuid = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** `ExtraEmailAddresses` read as an array whether the answer gives one or a comma-separated string (P26 splits and trims it). */
export function emailList(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string').map((v) => v.trim()).filter((v) => v !== '');
  if (typeof value === 'string') return value.split(',').map((v) => v.trim()).filter((v) => v !== '');
  return undefined;
}

function withEmailList<T extends { ExtraEmailAddresses?: string[] }>(raw: unknown): T {
  const item = raw as T & { ExtraEmailAddresses?: unknown };
  if (item === null || typeof item !== 'object' || !('ExtraEmailAddresses' in item)) return item;
  const list = emailList(item.ExtraEmailAddresses);
  const { ExtraEmailAddresses: _raw, ...rest } = item;
  return (list === undefined ? rest : { ...rest, ExtraEmailAddresses: list }) as T;
}

/**
 * P26 sends `ExtraEmailAddressesSpecified` / `StatusHubServiceListSpecified` only with the field they flag, "because
 * some integration types reject these fields".
 */
export function withLinkCompanions(body: EscalationLevelIntegration): EscalationLevelIntegration {
  const out: EscalationLevelIntegration = { ...body };
  if (body.ExtraEmailAddresses !== undefined) out['ExtraEmailAddressesSpecified'] = true;
  if (body.StatusHubServiceList !== undefined) out['StatusHubServiceListSpecified'] = true;
  return out;
}

/** A member listed as `{MonitorGuid}` / `{OperatorGuid}` and the like, or as a bare GUID string (read as `fallback`). */
const memberOf =
  <T>(fallback: string) =>
  (raw: unknown): T =>
    (typeof raw === 'string' ? { [fallback]: raw } : raw) as T;

export function alertDefinitionsApi(core: Core): AlertDefinitionsApi {
  const one = '/AlertDefinition/{alertDefinitionGuid}';
  const level = `${one}/EscalationLevel/{escalationLevelId}`;
  const links = `${level}/Integration`;
  const link = `${links}/{integrationGuid}`;
  const check = (method: 'PUT' | 'PATCH', guid: string, bodyGuid: unknown): void => {
    if (bodyGuid === undefined) return;
    if (typeof bodyGuid !== 'string' || !sameGuid(bodyGuid, guid)) {
      const ctx = core.context(method, one, { alertDefinitionGuid: guid });
      throw invalid(ctx, `body AlertDefinitionGuid ${JSON.stringify(bodyGuid)} differs from the one in the path; remove it from the body or make them equal`);
    }
  };
  const list = () => core.paged<AlertDefinition>({ method: 'GET', route: '/AlertDefinition' });
  const patch = async (alertDefinitionGuid: string, body: AlertDefinitionPatch) => {
    check('PATCH', alertDefinitionGuid, body.AlertDefinitionGuid);
    return core.maybe<AlertDefinition>({ method: 'PATCH', route: one, params: { alertDefinitionGuid }, body });
  };
  const member = (kind: 'Monitor' | 'MonitorGroup', method: 'POST' | 'DELETE') => (alertDefinitionGuid: string, memberGuid: string) =>
    core.none({ method, route: `${one}/Member/${kind}/{memberGuid}`, params: { alertDefinitionGuid, memberGuid } });
  const levelMember = (kind: 'Operator' | 'OperatorGroup', method: 'POST' | 'DELETE') => (alertDefinitionGuid: string, escalationLevelId: LevelId, memberGuid: string) =>
    core.none({ method, route: `${level}/Member/${kind}/{memberGuid}`, params: { alertDefinitionGuid, escalationLevelId, memberGuid } });
  return {
    list,
    get: (alertDefinitionGuid) => core.json<AlertDefinition>({ method: 'GET', route: one, params: { alertDefinitionGuid } }),
    create: (body) =>
      core.created<AlertDefinition>(
        { method: 'POST', route: '/AlertDefinition', body },
        {
          idField: 'AlertDefinitionGuid',
          listKey: 'GET /AlertDefinition',
          list: () => list().toArray(),
          matches: (d) => typeof d.AlertName === 'string' && d.AlertName.toLowerCase() === body.AlertName.toLowerCase(),
        },
      ),
    replace: async (alertDefinitionGuid, body) => {
      check('PUT', alertDefinitionGuid, body.AlertDefinitionGuid);
      return core.maybe<AlertDefinition>({ method: 'PUT', route: one, params: { alertDefinitionGuid }, body: { ...body, AlertDefinitionGuid: body.AlertDefinitionGuid ?? alertDefinitionGuid } });
    },
    patch,
    setActive: (alertDefinitionGuid, isActive) => patch(alertDefinitionGuid, { IsActive: isActive }),
    delete: (alertDefinitionGuid) => core.none({ method: 'DELETE', route: one, params: { alertDefinitionGuid } }),
    members: {
      list: (alertDefinitionGuid) => core.paged({ method: 'GET', route: `${one}/Member`, params: { alertDefinitionGuid } }, { map: memberOf<AlertDefinitionMember>('MonitorGuid') }),
      addMonitor: member('Monitor', 'POST'),
      removeMonitor: member('Monitor', 'DELETE'),
      addMonitorGroup: member('MonitorGroup', 'POST'),
      removeMonitorGroup: member('MonitorGroup', 'DELETE'),
    },
    escalationLevels: {
      list: (alertDefinitionGuid) => core.paged<EscalationLevel>({ method: 'GET', route: `${one}/EscalationLevel`, params: { alertDefinitionGuid } }),
      get: (alertDefinitionGuid, escalationLevelId) => core.json<EscalationLevel>({ method: 'GET', route: level, params: { alertDefinitionGuid, escalationLevelId } }),
      replace: (alertDefinitionGuid, escalationLevelId, body) => core.none({ method: 'PUT', route: level, params: { alertDefinitionGuid, escalationLevelId }, body }),
      patch: (alertDefinitionGuid, escalationLevelId, body) => core.none({ method: 'PATCH', route: level, params: { alertDefinitionGuid, escalationLevelId }, body }),
      members: {
        list: (alertDefinitionGuid, escalationLevelId) =>
          core.paged({ method: 'GET', route: `${level}/Member`, params: { alertDefinitionGuid, escalationLevelId } }, { map: memberOf<EscalationLevelMember>('OperatorGuid') }),
        addOperator: levelMember('Operator', 'POST'),
        removeOperator: levelMember('Operator', 'DELETE'),
        addOperatorGroup: levelMember('OperatorGroup', 'POST'),
        removeOperatorGroup: levelMember('OperatorGroup', 'DELETE'),
      },
    },
    integrations: {
      list: (alertDefinitionGuid, escalationLevelId) =>
        core.paged({ method: 'GET', route: links, params: { alertDefinitionGuid, escalationLevelId } }, { map: withEmailList<EscalationLevelIntegration> }),
      get: async (alertDefinitionGuid, escalationLevelId, integrationGuid) =>
        withEmailList<EscalationLevelIntegration>(await core.json({ method: 'GET', route: link, params: { alertDefinitionGuid, escalationLevelId, integrationGuid } })),
      link: (alertDefinitionGuid, escalationLevelId, body) =>
        core.maybe<EscalationLevelIntegration>({ method: 'POST', route: links, params: { alertDefinitionGuid, escalationLevelId }, body: withLinkCompanions(body) }),
      replace: (alertDefinitionGuid, escalationLevelId, integrationGuid, body) =>
        core.none({ method: 'PUT', route: link, params: { alertDefinitionGuid, escalationLevelId, integrationGuid }, body: withLinkCompanions(body) }),
      patch: (alertDefinitionGuid, escalationLevelId, integrationGuid, body) =>
        core.none({ method: 'PATCH', route: link, params: { alertDefinitionGuid, escalationLevelId, integrationGuid }, body: withLinkCompanions(body) }),
      unlink: (alertDefinitionGuid, escalationLevelId, integrationGuid) => core.none({ method: 'DELETE', route: link, params: { alertDefinitionGuid, escalationLevelId, integrationGuid } }),
    },
    authorizations: {
      list: (alertDefinitionGuid) => core.paged<AlertDefinitionAuthorization>({ method: 'GET', route: `${one}/Authorizations`, params: { alertDefinitionGuid } }),
      create: (alertDefinitionGuid, body) => core.maybe({ method: 'POST', route: `${one}/Authorizations`, params: { alertDefinitionGuid }, body }),
      delete: (alertDefinitionGuid, authorizationGuid) => core.none({ method: 'DELETE', route: `${one}/Authorizations/{authorizationGuid}`, params: { alertDefinitionGuid, authorizationGuid } }),
    },
  };
}

export function integrationsApi(core: Core): IntegrationsApi {
  return { list: () => core.paged({ method: 'GET', route: '/Integration' }, { map: withEmailList<Integration> }) };
}
