import type { Core } from '../core.js';
import type { Page, Paged } from '../paging.js';
import type { MaintenancePeriod, Monitor, MonitorGroup, MonitorGroupCreate, MonitorGroupReplace } from '../types.js';

export interface MonitorGroupsApi {
  list(): Paged<MonitorGroup>;
  listPage(): Promise<Page<MonitorGroup>>;
  get(monitorGroupGuid: string): Promise<MonitorGroup>;
  /** The new group, with its `MonitorGroupGuid` (found by Description when the answer does not carry it). */
  create(body: MonitorGroupCreate): Promise<MonitorGroup>;
  replace(monitorGroupGuid: string, body: MonitorGroupReplace): Promise<MonitorGroup | undefined>;
  delete(monitorGroupGuid: string): Promise<void>;
  /**
   * Monitors in the group (`GET /MonitorGroup/{guid}/Member`): `{MonitorGuid}` items (published), full monitors, or bare
   * GUID strings, each read as an object with `MonitorGuid`.
   */
  members(monitorGroupGuid: string): Paged<Monitor>;
  addMember(monitorGroupGuid: string, monitorGuid: string): Promise<void>;
  removeMember(monitorGroupGuid: string, monitorGuid: string): Promise<void>;
  /** Activates every member. With the All Monitors group's GUID: every monitor of the account. */
  startAllMonitors(monitorGroupGuid: string): Promise<void>;
  stopAllMonitors(monitorGroupGuid: string): Promise<void>;
  startAllMonitorAlerts(monitorGroupGuid: string): Promise<void>;
  stopAllMonitorAlerts(monitorGroupGuid: string): Promise<void>;
  /** The payload is not in the spec and is sent as given. */
  addMaintenancePeriodToAllMembers(monitorGroupGuid: string, body: MaintenancePeriod): Promise<void>;
}

/** A member as the published definition lists it (`{MonitorGuid}`), as a full monitor, or as a bare GUID string. */
function normaliseMember(raw: unknown): Monitor {
  return (typeof raw === 'string' ? { MonitorGuid: raw } : raw) as Monitor;
}

export function monitorGroupsApi(core: Core): MonitorGroupsApi {
  const one = '/MonitorGroup/{monitorGroupGuid}';
  const action = (name: string) => (monitorGroupGuid: string) =>
    core.none({ method: 'POST', route: `${one}/${name}`, params: { monitorGroupGuid } });
  return {
    list: () => core.paged<MonitorGroup>({ method: 'GET', route: '/MonitorGroup' }),
    listPage: () => core.page<MonitorGroup>({ method: 'GET', route: '/MonitorGroup' }),
    get: (monitorGroupGuid) => core.json<MonitorGroup>({ method: 'GET', route: one, params: { monitorGroupGuid } }),
    create: (body) =>
      core.created<MonitorGroup>(
        { method: 'POST', route: '/MonitorGroup', body },
        {
          idField: 'MonitorGroupGuid',
          listKey: 'GET /MonitorGroup',
          list: () => core.paged<MonitorGroup>({ method: 'GET', route: '/MonitorGroup' }).toArray(),
          matches: (g) => g.Description === body.Description && g.IsAll !== true,
        },
      ),
    replace: (monitorGroupGuid, body) => core.maybe<MonitorGroup>({ method: 'PUT', route: one, params: { monitorGroupGuid }, body }),
    delete: (monitorGroupGuid) => core.none({ method: 'DELETE', route: one, params: { monitorGroupGuid } }),
    members: (monitorGroupGuid) => core.paged({ method: 'GET', route: `${one}/Member`, params: { monitorGroupGuid } }, { map: normaliseMember }),
    addMember: (monitorGroupGuid, monitorGuid) =>
      core.none({ method: 'POST', route: `${one}/Member/{monitorGuid}`, params: { monitorGroupGuid, monitorGuid } }),
    removeMember: (monitorGroupGuid, monitorGuid) =>
      core.none({ method: 'DELETE', route: `${one}/Member/{monitorGuid}`, params: { monitorGroupGuid, monitorGuid } }),
    startAllMonitors: action('StartAllMonitors'),
    stopAllMonitors: action('StopAllMonitors'),
    startAllMonitorAlerts: action('StartAllMonitorAlerts'),
    stopAllMonitorAlerts: action('StopAllMonitorAlerts'),
    addMaintenancePeriodToAllMembers: (monitorGroupGuid, body) =>
      core.none({ method: 'POST', route: `${one}/AddMaintenancePeriodToAllMembers`, params: { monitorGroupGuid }, body }),
  };
}
