import type { Core } from '../core.js';
import { sameContent } from '../created.js';
import type { Page, Paged } from '../paging.js';
import type {
  ScheduledReport,
  ScheduledReportCreate,
  ScheduledReportPatch,
  ScheduledReportReplace,
  Sla,
  SlaCreate,
  SlaExclusionPeriod,
  SlaExclusionPeriodCreate,
  SlaExclusionPeriodPatch,
  SlaExclusionPeriodReplace,
  SlaPatch,
  SlaReplace,
} from '../types.js';
import { publishedReader } from '../wire/read.js';

export interface ScheduledReportsApi {
  list(): Paged<ScheduledReport>;
  listPage(): Promise<Page<ScheduledReport>>;
  get(scheduledReportGuid: string): Promise<ScheduledReport>;
  /** The new report; without a `ScheduledReportGuid` in the answer, found by its InternalNotes (or its content). */
  create(body: ScheduledReportCreate): Promise<ScheduledReport>;
  /** Answers 204. */
  replace(scheduledReportGuid: string, body: ScheduledReportReplace): Promise<void>;
  /** Answers 204. */
  patch(scheduledReportGuid: string, body: ScheduledReportPatch): Promise<void>;
  delete(scheduledReportGuid: string): Promise<void>;
}

// Reads accept the spec's spellings (`PDFDownloadLink`, `Previous Week`, `OperatorResponseTimeThreshold`) and
// return the published ones, so an older account or emulator compares equal to a tree written in the published form.
const asReport = publishedReader<ScheduledReport>('scheduledReport');
const asSla = publishedReader<Sla>('sla');

export function scheduledReportsApi(core: Core): ScheduledReportsApi {
  const one = '/ScheduledReport/{scheduledReportGuid}';
  return {
    list: () => core.paged<ScheduledReport>({ method: 'GET', route: '/ScheduledReport' }, { map: asReport }),
    listPage: () => core.page<ScheduledReport>({ method: 'GET', route: '/ScheduledReport' }, { map: asReport }),
    get: async (scheduledReportGuid) => asReport(await core.json<ScheduledReport>({ method: 'GET', route: one, params: { scheduledReportGuid } })),
    create: (body) =>
      core.created<ScheduledReport>(
        { method: 'POST', route: '/ScheduledReport', body },
        {
          idField: 'ScheduledReportGuid',
          listKey: 'GET /ScheduledReport',
          list: () => core.paged<ScheduledReport>({ method: 'GET', route: '/ScheduledReport' }).toArray(),
          // Reports have no name: the InternalNotes the caller sent (monsync keeps its key marker there), else the content.
          matches: (r) =>
            typeof body.InternalNotes === 'string' && body.InternalNotes !== '' ? r.InternalNotes === body.InternalNotes : sameContent(body, r) && r.DashboardGuid === body.DashboardGuid,
        },
      ),
    replace: (scheduledReportGuid, body) => core.none({ method: 'PUT', route: one, params: { scheduledReportGuid }, body }),
    patch: (scheduledReportGuid, body) => core.none({ method: 'PATCH', route: one, params: { scheduledReportGuid }, body }),
    delete: (scheduledReportGuid) => core.none({ method: 'DELETE', route: one, params: { scheduledReportGuid } }),
  };
}

export interface SlasApi {
  list(): Paged<Sla>;
  listPage(): Promise<Page<Sla>>;
  get(slaGuid: string): Promise<Sla>;
  /**
   * The new SLA. The spec has POST answer 204 with no body, the published definition 201 with the SLA: without a
   * `SlaGuid` in the answer it is found by re-listing and matching on `Description` (unique, ignoring case and
   * surrounding spaces). A duplicate Description is a ConflictError (409).
   */
  create(body: SlaCreate): Promise<Sla>;
  replace(slaGuid: string, body: SlaReplace): Promise<void>;
  patch(slaGuid: string, body: SlaPatch): Promise<void>;
  delete(slaGuid: string): Promise<void>;
  exclusionPeriods: {
    list(slaGuid: string): Paged<SlaExclusionPeriod>;
    get(slaGuid: string, exclusionPeriodId: number | string): Promise<SlaExclusionPeriod>;
    /** The new period; without an `ExclusionPeriodId` in the answer, found by re-listing the SLA's periods by Description. */
    create(slaGuid: string, body: SlaExclusionPeriodCreate): Promise<SlaExclusionPeriod>;
    replace(slaGuid: string, exclusionPeriodId: number | string, body: SlaExclusionPeriodReplace): Promise<void>;
    patch(slaGuid: string, exclusionPeriodId: number | string, body: SlaExclusionPeriodPatch): Promise<void>;
    delete(slaGuid: string, exclusionPeriodId: number | string): Promise<void>;
  };
}

/** Of several matching periods, the newest: ids are handed out in increasing order. */
function highestId(periods: SlaExclusionPeriod[]): SlaExclusionPeriod {
  return periods.reduce((best, p) => (Number(p.ExclusionPeriodId) > Number(best.ExclusionPeriodId) ? p : best));
}

export function slasApi(core: Core): SlasApi {
  const one = '/Sla/{slaGuid}';
  const periods = `${one}/ExclusionPeriod`;
  const period = `${periods}/{exclusionPeriodId}`;
  return {
    list: () => core.paged<Sla>({ method: 'GET', route: '/Sla' }, { map: asSla }),
    listPage: () => core.page<Sla>({ method: 'GET', route: '/Sla' }, { map: asSla }),
    get: async (slaGuid) => asSla(await core.json<Sla>({ method: 'GET', route: one, params: { slaGuid } })),
    create: (body) =>
      core.created<Sla>(
        { method: 'POST', route: '/Sla', body },
        {
          idField: 'SlaGuid',
          listKey: 'GET /Sla',
          list: () => core.paged<Sla>({ method: 'GET', route: '/Sla' }).toArray(),
          // The service tells SLA names apart ignoring case and surrounding spaces (a second one is a 409).
          matches: (s) => typeof s.Description === 'string' && s.Description.trim().toLowerCase() === body.Description.trim().toLowerCase(),
        },
      ),
    replace: (slaGuid, body) => core.none({ method: 'PUT', route: one, params: { slaGuid }, body }),
    patch: (slaGuid, body) => core.none({ method: 'PATCH', route: one, params: { slaGuid }, body }),
    delete: (slaGuid) => core.none({ method: 'DELETE', route: one, params: { slaGuid } }),
    exclusionPeriods: {
      list: (slaGuid) => core.paged<SlaExclusionPeriod>({ method: 'GET', route: periods, params: { slaGuid } }),
      get: (slaGuid, exclusionPeriodId) => core.json<SlaExclusionPeriod>({ method: 'GET', route: period, params: { slaGuid, exclusionPeriodId } }),
      create: (slaGuid, body) =>
        core.created<SlaExclusionPeriod>(
          { method: 'POST', route: periods, params: { slaGuid }, body },
          {
            idField: 'ExclusionPeriodId',
            listKey: `GET /Sla/${slaGuid}/ExclusionPeriod`,
            list: () => core.paged<SlaExclusionPeriod>({ method: 'GET', route: periods, params: { slaGuid } }).toArray(),
            matches: (p) => p.Description === body.Description,
            pick: highestId,
          },
        ),
      replace: (slaGuid, exclusionPeriodId, body) => core.none({ method: 'PUT', route: period, params: { slaGuid, exclusionPeriodId }, body }),
      patch: (slaGuid, exclusionPeriodId, body) => core.none({ method: 'PATCH', route: period, params: { slaGuid, exclusionPeriodId }, body }),
      delete: (slaGuid, exclusionPeriodId) => core.none({ method: 'DELETE', route: period, params: { slaGuid, exclusionPeriodId } }),
    },
  };
}
