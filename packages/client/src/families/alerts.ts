import type { Core } from '../core.js';
import type { Page, Paged } from '../paging.js';
import { checkPeriod, checkTake } from '../query.js';
import type { Query } from '../transport.js';
import type { Alert, AlertAttributes, AlertQuery, Relationship, ResourceItem, StatisticsAttributes, StatisticsItem, StatisticsQuery } from '../types.js';

/**
 * Alert and Statistics items come as `{Id, Type, Attributes, Relationships}`, but the spec also shows alert
 * fields at the top level of an item. Both become the first shape, so callers read `item.Attributes`.
 */
export function toResourceItem<A>(raw: unknown): ResourceItem<A> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { Attributes: {} as A, Relationships: [] };
  const { Id, Type, Attributes, Relationships, ...rest } = raw as Record<string, unknown>;
  const item: ResourceItem<A> = {
    Attributes: (Attributes !== null && typeof Attributes === 'object' && !Array.isArray(Attributes) ? Attributes : rest) as A,
    Relationships: Array.isArray(Relationships) ? (Relationships as Relationship[]) : [],
  };
  if (typeof Id === 'string' || typeof Id === 'number') item.Id = String(Id);
  if (typeof Type === 'string') item.Type = Type;
  return item;
}

export interface AlertsApi {
  /** Alerts of one monitor, following cursors. */
  byMonitor(monitorGuid: string, query?: AlertQuery): Paged<Alert>;
  byMonitorPage(monitorGuid: string, query?: AlertQuery): Promise<Page<Alert>>;
  /** Alerts of the monitors of a group, following cursors. */
  byGroup(monitorGroupGuid: string, query?: AlertQuery): Paged<Alert>;
  byGroupPage(monitorGroupGuid: string, query?: AlertQuery): Promise<Page<Alert>>;
}

export function alertsApi(core: Core): AlertsApi {
  const call = (route: string, name: string, guid: string, query: AlertQuery = {}) => {
    const ctx = core.context('GET', route, { [name]: guid });
    checkTake(ctx, query.Take);
    const checked: Query = checkPeriod(ctx, query, 'day');
    return { method: 'GET', route, params: { [name]: guid }, query: checked } as const;
  };
  const options = { map: toResourceItem<AlertAttributes>, acceptSingleObject: true };
  const byMonitor = (guid: string, query?: AlertQuery) => call('/Alert/Monitor/{monitorGuid}', 'monitorGuid', guid, query);
  const byGroup = (guid: string, query?: AlertQuery) => call('/Alert/MonitorGroup/{monitorGroupGuid}', 'monitorGroupGuid', guid, query);
  return {
    byMonitor: (guid, query) => core.paged(byMonitor(guid, query), options),
    byMonitorPage: async (guid, query) => core.page(byMonitor(guid, query), options),
    byGroup: (guid, query) => core.paged(byGroup(guid, query), options),
    byGroupPage: async (guid, query) => core.page(byGroup(guid, query), options),
  };
}

export interface StatisticsApi {
  /** Statistics intervals of one monitor (default period `Last24Hours`, one-hour intervals). */
  monitor(monitorGuid: string, query?: StatisticsQuery): Promise<StatisticsItem[]>;
  group(monitorGroupGuid: string, query?: StatisticsQuery): Promise<StatisticsItem[]>;
}

export function statisticsApi(core: Core): StatisticsApi {
  const get = (route: string, name: string, guid: string, query: StatisticsQuery = {}) => {
    const checked: Query = checkPeriod(core.context('GET', route, { [name]: guid }), query, 'datetime');
    return core
      .paged({ method: 'GET', route, params: { [name]: guid }, query: checked }, { map: toResourceItem<StatisticsAttributes> })
      .toArray();
  };
  return {
    monitor: async (guid, query) => get('/Statistics/Monitor/{monitorGuid}', 'monitorGuid', guid, query),
    group: async (guid, query) => get('/Statistics/MonitorGroup/{monitorGroupGuid}', 'monitorGroupGuid', guid, query),
  };
}
