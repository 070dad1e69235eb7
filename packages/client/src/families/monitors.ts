import type { Core } from '../core.js';
import type { CreatedLookup } from '../created.js';
import type { Page, Paged } from '../paging.js';
import { checkTake } from '../query.js';
import type {
  Monitor,
  MonitorCheckDetails,
  MonitorCheckWaterfall,
  MonitorCreate,
  MonitorListQuery,
  MonitorPatch,
  MonitorReplace,
} from '../types.js';
import { publishedReader } from '../wire/read.js';

export interface MonitorsApi {
  /** Every monitor, following cursors (`GET /Monitor`). */
  list(query?: MonitorListQuery): Paged<Monitor>;
  /** One batch with its cursors. */
  listPage(query?: MonitorListQuery): Promise<Page<Monitor>>;
  get(monitorGuid: string): Promise<Monitor>;
  /** The new monitor, with its `MonitorGuid` (found by Name when the answer does not carry it). */
  create(body: MonitorCreate): Promise<Monitor>;
  /** `POST /Monitor/MonitorGroup/{monitorGroupGuid}`: create the monitor directly in a group. */
  createInGroup(monitorGroupGuid: string, body: MonitorCreate): Promise<Monitor>;
  /** `GET /Monitor/MonitorGroup/{monitorGroupGuid}`, following cursors. */
  listInGroup(monitorGroupGuid: string, query?: MonitorListQuery): Paged<Monitor>;
  /** PUT: replaces the monitor. Resolves to the monitor when the service returns it. */
  replace(monitorGuid: string, body: MonitorReplace): Promise<Monitor | undefined>;
  /** PATCH: sets the given fields. */
  patch(monitorGuid: string, body: MonitorPatch): Promise<Monitor | undefined>;
  /** `DELETE /Monitor/{monitorGuid}`: not in the spec's table, but a config tool must delete (docs/architecture.md, API assumptions). */
  delete(monitorGuid: string): Promise<void>;
}

// Older spellings (the v3 `CheckFrequency`) are read as the published field.
const asMonitor = publishedReader<Monitor>('monitor');

export function monitorsApi(core: Core): MonitorsApi {
  // A monitor's key is its Name (the reconciler matches on it): a create whose answer names no MonitorGuid finds it so.
  const byName = (body: MonitorCreate): CreatedLookup<Monitor> => ({
    idField: 'MonitorGuid',
    listKey: 'GET /Monitor',
    list: () => core.paged<Monitor>({ method: 'GET', route: '/Monitor' }).toArray(),
    matches: (m) => m.Name === body.Name,
  });
  const listCall = (query: MonitorListQuery = {}) => {
    checkTake(core.context('GET', '/Monitor'), query.Take);
    return { method: 'GET', route: '/Monitor', query: { ...query } } as const;
  };
  return {
    list: (query) => core.paged<Monitor>(listCall(query), { map: asMonitor }),
    listPage: async (query) => core.page<Monitor>(listCall(query), { map: asMonitor }),
    get: async (monitorGuid) => asMonitor(await core.json<Monitor>({ method: 'GET', route: '/Monitor/{monitorGuid}', params: { monitorGuid } })),
    create: (body) => core.created<Monitor>({ method: 'POST', route: '/Monitor', body }, byName(body)),
    createInGroup: (monitorGroupGuid, body) =>
      core.created<Monitor>({ method: 'POST', route: '/Monitor/MonitorGroup/{monitorGroupGuid}', params: { monitorGroupGuid }, body }, byName(body)),
    listInGroup: (monitorGroupGuid, query = {}) => {
      const route = '/Monitor/MonitorGroup/{monitorGroupGuid}';
      checkTake(core.context('GET', route, { monitorGroupGuid }), query.Take);
      return core.paged<Monitor>({ method: 'GET', route, params: { monitorGroupGuid }, query: { ...query } }, { map: asMonitor });
    },
    replace: (monitorGuid, body) => core.maybe<Monitor>({ method: 'PUT', route: '/Monitor/{monitorGuid}', params: { monitorGuid }, body }),
    patch: (monitorGuid, body) => core.maybe<Monitor>({ method: 'PATCH', route: '/Monitor/{monitorGuid}', params: { monitorGuid }, body }),
    delete: (monitorGuid) => core.none({ method: 'DELETE', route: '/Monitor/{monitorGuid}', params: { monitorGuid } }),
  };
}

export interface MonitorChecksApi {
  /** Waterfall metrics of a browser-based check, with `PageLoadMetricsCollection`. */
  waterfall(monitorCheckId: number | string): Promise<MonitorCheckWaterfall>;
  /** Details of a multi-step API check. */
  multiStepApi(monitorCheckId: number | string): Promise<MonitorCheckDetails>;
  /** Details of a collection-based API check (the real path segment carries a vendor word; the spec's neutral one is used). */
  collectionApi(monitorCheckId: number | string): Promise<MonitorCheckDetails>;
}

export function monitorChecksApi(core: Core): MonitorChecksApi {
  const get = <T>(segment: string, monitorCheckId: number | string) =>
    core.json<T>({ method: 'GET', route: `/MonitorCheck/{monitorCheckId}/${segment}`, params: { monitorCheckId } });
  return {
    waterfall: (id) => get<MonitorCheckWaterfall>('Waterfall', id),
    multiStepApi: (id) => get<MonitorCheckDetails>('MultiStepAPI', id),
    collectionApi: (id) => get<MonitorCheckDetails>('CollectionAPI', id),
  };
}
