import { ApiRequestError, notFound } from '../errors.js';
import { SELECTED_PERIODS } from '../periods.js';
import type { Reply, RequestContext, Router } from '../router.js';
import { Store } from '../store.js';
import { Checker, isObj, requireBody, sameGuid, type Obj } from '../validate.js';
import { definitionHash } from './hash.js';
import { key, noContent, ok, requireAdmin } from './common.js';

/**
 * As the service has them: the published definition's FileType row contradicts the spec's `PDFDownloadLink`,
 * `ExcelDownloadLink` and `HTMLEmail`, and the running service follows the published sources.
 */
export const FILE_TYPES = ['PDFAttachment', 'PDFLink', 'ExcelAttachment', 'ExcelLink', 'Html'] as const;
const PUBLISHED_REPORT_FIELDS = new Set([
  'ScheduledReportGuid', 'Hash', 'DashboardGuid', 'DashboardGuidSpecified', 'FileType', 'IsActive', 'Schedule', 'SelectedPeriod',
  'InternalNotes', 'Notes', 'Recipients',
]);
export const SCHEDULE_TYPES = ['Daily', 'Weekly', 'Monthly', 'Quarterly', 'Yearly'] as const;
export const WEEK_DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function defaults(): Obj {
  return {
    DashboardGuid: null,
    FileType: null,
    IsActive: true,
    Schedule: null,
    SelectedPeriod: 'PreviousDay',
    InternalNotes: '',
    Notes: '',
    Recipients: { Operators: [], OperatorGroups: [], ExtraEmailAddresses: [] },
  };
}

/** Invalid definitions answer 403 with every problem listed (spec, Errors). */
function checkReport(ctx: RequestContext, r: Obj): void {
  const c = new Checker(ctx.settings.rules.validationStatus);
  c.string(r, 'DashboardGuid', { required: true });
  c.string(r, 'FileType', { required: true, oneOf: FILE_TYPES });
  c.boolean(r, 'IsActive', { required: true });
  c.string(r, 'SelectedPeriod', ctx.settings.rules.checkSelectedPeriod ? { oneOf: SELECTED_PERIODS } : {});
  c.string(r, 'InternalNotes');
  c.string(r, 'Notes');
  const s = r['Schedule'];
  if (!isObj(s)) c.add('Schedule is required: an object with ScheduleType and Time.');
  else {
    const type = c.string(s, 'ScheduleType', { required: true, oneOf: SCHEDULE_TYPES });
    c.string(s, 'Time', { required: true, pattern: /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/, hint: 'HH:MM:SS' });
    if (type === 'Weekly') c.string(s, 'WeekDay', { required: true, oneOf: WEEK_DAYS });
    if (type === 'Monthly') c.number(s, 'MonthDay', { required: true, integer: true, min: 1, max: 31 });
    if (type === 'Quarterly') {
      const q = s['QuarterStartMonth'];
      if (q === undefined || q === null) c.add('QuarterStartMonth is required for a Quarterly schedule (1, 2 or 3).');
      else if (q !== 1 && q !== 2 && q !== 3) c.add(`QuarterStartMonth ${JSON.stringify(q)} is outside 1..3 (1 = Jan/Apr/Jul/Oct, 2 = Feb/May/Aug/Nov, 3 = Mar/Jun/Sep/Dec).`);
    }
  }
  const rc = r['Recipients'];
  if (!isObj(rc)) c.add('Recipients must be an object with Operators, OperatorGroups and ExtraEmailAddresses.');
  else {
    for (const [field, exists] of [
      ['Operators', (g: string) => ctx.store.operators.has(key(g))],
      ['OperatorGroups', (g: string) => ctx.store.operatorGroups.has(key(g))],
    ] as const) {
      const list = rc[field] ?? [];
      if (!Array.isArray(list)) c.add(`Recipients.${field} must be an array of GUIDs.`);
      else for (const g of list) if (typeof g !== 'string' || !exists(g)) c.add(`Recipients.${field}: ${String(g)} is not a known ${field === 'Operators' ? 'operator' : 'operator group'}.`);
    }
    const mails = rc['ExtraEmailAddresses'] ?? [];
    if (!Array.isArray(mails)) c.add('Recipients.ExtraEmailAddresses must be an array of e-mail addresses.');
    else for (const m of mails) if (typeof m !== 'string' || !EMAIL.test(m)) c.add(`Recipients.ExtraEmailAddresses: "${String(m)}" is not an e-mail address.`);
  }
  c.done();
}

function build(ctx: RequestContext, guid: string, body: Obj, base: Obj): Obj {
  const c = new Checker();
  c.pascalKeys(body, ctx.settings.rules);
  c.done();
  const r: Obj = { ScheduledReportGuid: guid, Hash: '', ...base };
  const dropUnknown = ctx.settings.rules.unknownFields === 'drop';
  for (const [k, v] of Object.entries(body)) if (k !== 'ScheduledReportGuid' && k !== 'Hash' && (!dropUnknown || PUBLISHED_REPORT_FIELDS.has(k))) r[k] = v;
  if (isObj(r['Recipients'])) r['Recipients'] = { Operators: [], OperatorGroups: [], ExtraEmailAddresses: [], ...r['Recipients'] };
  checkReport(ctx, r);
  r['Hash'] = definitionHash(r);
  return r;
}

/** InternalNotes are visible to account administrators only. */
function render(ctx: RequestContext, r: Obj): Obj {
  const out = structuredClone(r);
  if (!ctx.caller.isAdmin) delete out['InternalNotes'];
  return out;
}

function find(ctx: RequestContext): Obj {
  const guid = ctx.params['scheduledReportGuid'] ?? '';
  const r = ctx.store.scheduledReports.get(key(guid));
  if (!r) throw notFound(`Scheduled report ${guid} does not exist.`);
  return r;
}

export function registerScheduledReportRoutes(router: Router): void {
  router.add('GET', '/ScheduledReport', (ctx) => ok([...ctx.store.scheduledReports.values()].map((r) => render(ctx, r))));
  router.add('GET', '/ScheduledReport/{scheduledReportGuid}', (ctx) => ok(render(ctx, find(ctx))));
  router.add('POST', '/ScheduledReport', (ctx): Reply => {
    requireAdmin(ctx, 'creating a scheduled report');
    const guid = Store.newGuid();
    const r = build(ctx, guid, requireBody(ctx.body, 'scheduled report'), defaults());
    ctx.store.scheduledReports.put(guid, r);
    return ok(render(ctx, r));
  });
  const update = (mode: 'replace' | 'patch') => (ctx: RequestContext): Reply => {
    requireAdmin(ctx, 'changing a scheduled report');
    const existing = find(ctx);
    const guid = String(existing['ScheduledReportGuid']);
    const body = requireBody(ctx.body, 'scheduled report');
    if (body['ScheduledReportGuid'] !== undefined && !sameGuid(body['ScheduledReportGuid'], guid)) {
      throw new ApiRequestError(ctx.settings.rules.validationStatus, 'VALIDATION_FAILED', `ScheduledReportGuid in the body differs from the one in the path (${guid}).`);
    }
    const r = build(ctx, guid, body, mode === 'replace' ? defaults() : structuredClone(existing));
    ctx.store.scheduledReports.put(key(guid), r);
    return noContent();
  };
  router.add('PUT', '/ScheduledReport/{scheduledReportGuid}', update('replace'));
  router.add('PATCH', '/ScheduledReport/{scheduledReportGuid}', update('patch'));
  router.add('DELETE', '/ScheduledReport/{scheduledReportGuid}', (ctx) => {
    requireAdmin(ctx, 'deleting a scheduled report');
    const r = find(ctx);
    ctx.store.scheduledReports.remove(key(String(r['ScheduledReportGuid'])));
    return noContent();
  });
}
