import type { Core } from '../core.js';
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

export interface ScheduledReportsApi {
  list(): Paged<ScheduledReport>;
  listPage(): Promise<Page<ScheduledReport>>;
  get(scheduledReportGuid: string): Promise<ScheduledReport>;
  /** Answers 201 with the new report. */
  create(body: ScheduledReportCreate): Promise<ScheduledReport>;
  /** Answers 204. */
  replace(scheduledReportGuid: string, body: ScheduledReportReplace): Promise<void>;
  /** Answers 204. */
  patch(scheduledReportGuid: string, body: ScheduledReportPatch): Promise<void>;
  delete(scheduledReportGuid: string): Promise<void>;
}

export function scheduledReportsApi(core: Core): ScheduledReportsApi {
  const one = '/ScheduledReport/{scheduledReportGuid}';
  return {
    list: () => core.paged<ScheduledReport>({ method: 'GET', route: '/ScheduledReport' }),
    listPage: () => core.page<ScheduledReport>({ method: 'GET', route: '/ScheduledReport' }),
    get: (scheduledReportGuid) => core.json<ScheduledReport>({ method: 'GET', route: one, params: { scheduledReportGuid } }),
    create: (body) => core.json<ScheduledReport>({ method: 'POST', route: '/ScheduledReport', body }),
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
   * Answers 204 with no body: re-list and match on `Description` (unique) to learn the new `SlaGuid`.
   * A duplicate Description is a ConflictError (409).
   */
  create(body: SlaCreate): Promise<void>;
  replace(slaGuid: string, body: SlaReplace): Promise<void>;
  patch(slaGuid: string, body: SlaPatch): Promise<void>;
  delete(slaGuid: string): Promise<void>;
  exclusionPeriods: {
    list(slaGuid: string): Paged<SlaExclusionPeriod>;
    get(slaGuid: string, exclusionPeriodId: number | string): Promise<SlaExclusionPeriod>;
    /** Answers 204 with no body: re-list to learn the new `ExclusionPeriodId`. */
    create(slaGuid: string, body: SlaExclusionPeriodCreate): Promise<void>;
    replace(slaGuid: string, exclusionPeriodId: number | string, body: SlaExclusionPeriodReplace): Promise<void>;
    patch(slaGuid: string, exclusionPeriodId: number | string, body: SlaExclusionPeriodPatch): Promise<void>;
    delete(slaGuid: string, exclusionPeriodId: number | string): Promise<void>;
  };
}

export function slasApi(core: Core): SlasApi {
  const one = '/Sla/{slaGuid}';
  const periods = `${one}/ExclusionPeriod`;
  const period = `${periods}/{exclusionPeriodId}`;
  return {
    list: () => core.paged<Sla>({ method: 'GET', route: '/Sla' }),
    listPage: () => core.page<Sla>({ method: 'GET', route: '/Sla' }),
    get: (slaGuid) => core.json<Sla>({ method: 'GET', route: one, params: { slaGuid } }),
    create: (body) => core.none({ method: 'POST', route: '/Sla', body }),
    replace: (slaGuid, body) => core.none({ method: 'PUT', route: one, params: { slaGuid }, body }),
    patch: (slaGuid, body) => core.none({ method: 'PATCH', route: one, params: { slaGuid }, body }),
    delete: (slaGuid) => core.none({ method: 'DELETE', route: one, params: { slaGuid } }),
    exclusionPeriods: {
      list: (slaGuid) => core.paged<SlaExclusionPeriod>({ method: 'GET', route: periods, params: { slaGuid } }),
      get: (slaGuid, exclusionPeriodId) => core.json<SlaExclusionPeriod>({ method: 'GET', route: period, params: { slaGuid, exclusionPeriodId } }),
      create: (slaGuid, body) => core.none({ method: 'POST', route: periods, params: { slaGuid }, body }),
      replace: (slaGuid, exclusionPeriodId, body) => core.none({ method: 'PUT', route: period, params: { slaGuid, exclusionPeriodId }, body }),
      patch: (slaGuid, exclusionPeriodId, body) => core.none({ method: 'PATCH', route: period, params: { slaGuid, exclusionPeriodId }, body }),
      delete: (slaGuid, exclusionPeriodId) => core.none({ method: 'DELETE', route: period, params: { slaGuid, exclusionPeriodId } }),
    },
  };
}
