import { decodeCursor, encodeCursor, getParam, parseTake } from '../cursor.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { resolvePreset, type Range } from '../periods.js';
import type { Reply, RequestContext, Router } from '../router.js';
import type { MonitorRec } from '../store.js';
import { alertsBetween, decodeCheckId, hourStats, incidentsBetween, monitorSeed, type HourStats, type SimAlert } from '../simulation.js';
import { DAY_MS, HOUR_MS, formatTimestamp, formatUsTimestamp, parseDateOnly, parseTimestamp } from '../time.js';
import type { Obj } from '../validate.js';
import { canViewMonitor, findMonitor, findMonitorGroup, isMultiStepApi, key, monitorCategory, ok } from './common.js';

// ---- query parameters -----------------------------------------------------------------------

function parseBool(ctx: RequestContext, name: string, fallback: boolean): boolean {
  const raw = getParam(ctx.query, name);
  if (raw === undefined) return fallback;
  if (/^true$/i.test(raw)) return true;
  if (/^false$/i.test(raw)) return false;
  throw badRequest(`${name} "${raw}" must be true or false.`);
}

/** Allowed `Sorting` values are not shown in the spec; the emulator takes asc/desc (and Ascending/Descending). */
function parseSorting(ctx: RequestContext): 'asc' | 'desc' {
  const raw = getParam(ctx.query, 'Sorting');
  if (raw === undefined) return 'desc';
  const v = raw.toLowerCase();
  if (v === 'asc' || v === 'ascending') return 'asc';
  if (v === 'desc' || v === 'descending') return 'desc';
  throw badRequest(`Sorting "${raw}" must be asc or desc.`);
}

/** Start/End (used together) or PresetPeriod (default Last24Hours), never both. */
function parseRange(ctx: RequestContext, kind: 'date' | 'datetime'): Range {
  const start = getParam(ctx.query, 'Start');
  const end = getParam(ctx.query, 'End');
  const preset = getParam(ctx.query, 'PresetPeriod');
  if ((start !== undefined || end !== undefined) && preset !== undefined) {
    throw badRequest('Start/End and PresetPeriod cannot be combined; use one or the other.');
  }
  if (start === undefined && end === undefined) return resolvePreset(preset ?? 'Last24Hours', ctx.settings.now());
  if (start === undefined || end === undefined) throw badRequest('Start and End must be used together.');
  const parse = kind === 'date' ? parseDateOnly : parseTimestamp;
  const hint = kind === 'date' ? 'YYYY-MM-DD' : 'YYYY-MM-DDTHH:MM:SS';
  const s = parse(start);
  const e = parse(end);
  if (!s) throw badRequest(`Start "${start}" must be ${hint}.`);
  if (!e) throw badRequest(`End "${end}" must be ${hint}.`);
  // Alert End dates include the whole day.
  const to = kind === 'date' ? e.getTime() + DAY_MS : e.getTime();
  if (to <= s.getTime()) throw badRequest('End must be after Start.');
  return { from: s.getTime(), to };
}

// ---- alerts ---------------------------------------------------------------------------------

function simMonitor(rec: MonitorRec): { guid: string; seq: number } {
  return { guid: key(String(rec.fields['MonitorGuid'])), seq: rec.seq };
}

function renderAlert(a: SimAlert): Obj {
  const link = (id: number): Obj => ({ Id: String(id), Type: 'MonitorCheck', Links: { Self: `/MonitorCheck/${id}` } });
  return {
    Id: String(a.checkId),
    Type: 'Alert',
    Attributes: {
      AlertType: a.type,
      MonitorGuid: a.monitorGuid,
      Timestamp: formatTimestamp(new Date(a.time)),
      FirstError: formatTimestamp(new Date(a.firstErrorTime)),
      MonitorCheckId: a.checkId,
      FirstErrorMonitorCheckId: a.firstErrorCheckId,
      ErrorDescription: a.description,
      IncidentKey: a.incidentKey,
    },
    Relationships: [link(a.checkId), link(a.firstErrorCheckId)],
  };
}

interface AlertQuery {
  from: number;
  to: number;
  rem: boolean;
  sort: 'asc' | 'desc';
  offset: number;
  take: number;
}

function alertList(ctx: RequestContext, scope: string, monitors: readonly MonitorRec[], single = false): Reply {
  const cursor = getParam(ctx.query, 'Cursor');
  let q: AlertQuery;
  if (cursor) {
    const p = decodeCursor(ctx.store.cursorSecret, scope, cursor);
    q = {
      from: Number(p['from']),
      to: Number(p['to']),
      rem: p['rem'] === true,
      sort: p['sort'] === 'asc' ? 'asc' : 'desc',
      offset: Number(p['offset']),
      take: getParam(ctx.query, 'Take') === undefined ? Number(p['take']) : parseTake(ctx.query, 100, ctx.settings.rules.minTake),
    };
  } else {
    const range = parseRange(ctx, 'date');
    q = { ...range, rem: parseBool(ctx, 'IncludeReminders', false), sort: parseSorting(ctx), offset: 0, take: parseTake(ctx.query, ctx.settings.pageSize, ctx.settings.rules.minTake) };
  }
  const alerts = monitors
    .flatMap((m) => alertsBetween(simMonitor(m), q.from, q.to))
    .filter((a) => q.rem || a.type !== 'Reminder')
    .sort((a, b) => (q.sort === 'asc' ? a.time - b.time || a.checkId - b.checkId : b.time - a.time || b.checkId - a.checkId));
  const page = alerts.slice(q.offset, q.offset + q.take);
  // The spec's single-monitor example shows the item itself at the top level; the lean profile answers so.
  if (single && ctx.settings.rules.bareSingleAlert && alerts.length === 1 && page[0]) return ok(renderAlert(page[0]));
  const body: Obj = { Data: page.map(renderAlert) };
  // Every batch of a listing that takes more than one carries Self, and Next while more follows (spec, Cursor rules).
  // A Take of 0 takes nothing, so it offers no next batch (it would be the same one, forever).
  const more = q.take > 0 && q.offset + q.take < alerts.length;
  if (more || cursor) {
    const secret = ctx.store.cursorSecret;
    const cursors: Obj = {};
    if (more) cursors['Next'] = encodeCursor(secret, scope, { ...q, offset: q.offset + q.take });
    if (ctx.settings.rules.cursorsSelf) cursors['Self'] = encodeCursor(secret, scope, { ...q });
    if (Object.keys(cursors).length > 0) body['Cursors'] = cursors;
  }
  return ok(body);
}

// ---- statistics -----------------------------------------------------------------------------

export const STATISTICS_FIELDS = [
  'StartDateTime', 'EndDateTime', 'Alerts', 'OperatorResponseTarget', 'OperatorResponseTime', 'DowntimePercentage',
  'UptimePercentage', 'Checks', 'ConfirmedErrors', 'UnconfirmedErrors', 'Uptime', 'Downtime', 'TotalTime',
  'ResolveTime', 'ConnectionTime', 'DownloadTime', 'TotalBytes',
] as const;

const MAX_MONITOR_HOURS = 3_000_000;

function parseFilter(ctx: RequestContext): readonly string[] {
  const raw = getParam(ctx.query, 'Filter');
  if (raw === undefined || raw.trim() === '') return STATISTICS_FIELDS;
  const out: string[] = [];
  for (const part of raw.split(',').map((p) => p.trim()).filter(Boolean)) {
    const field = STATISTICS_FIELDS.find((f) => f.toLowerCase() === part.toLowerCase());
    if (!field) throw badRequest(`Filter field "${part}" is not a Statistics field (${STATISTICS_FIELDS.join(', ')}).`);
    if (!out.includes(field)) out.push(field);
  }
  return out;
}

/** The preset's unit; for custom ranges hourly up to 48 hours, daily up to 92 days, monthly beyond. */
function intervals(range: Range): Range[] {
  const span = range.to - range.from;
  const unit = range.unit ?? (span <= 48 * HOUR_MS ? 'hour' : span <= 92 * DAY_MS ? 'day' : 'month');
  const out: Range[] = [];
  let t = range.from;
  while (t < range.to) {
    let next: number;
    if (unit === 'hour') next = (Math.floor(t / HOUR_MS) + 1) * HOUR_MS;
    else if (unit === 'day') next = (Math.floor(t / DAY_MS) + 1) * DAY_MS;
    else {
      const d = new Date(t);
      next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    }
    out.push({ from: t, to: Math.min(next, range.to) });
    t = next;
  }
  return out;
}

const round = (n: number, digits: number): number => Number(n.toFixed(digits));

function intervalAttributes(seeds: number[], iv: Range, now: number): Obj {
  const sum: HourStats = { checks: 0, confirmedErrors: 0, unconfirmedErrors: 0, alerts: 0, downtimeMinutes: 0, minutes: 0, totalTime: 0, resolveTime: 0, connectionTime: 0, downloadTime: 0, totalBytes: 0, operatorResponseTime: 0 };
  let responses = 0;
  const end = Math.min(iv.to, now);
  for (const seed of seeds) {
    for (let h = Math.floor(iv.from / HOUR_MS) * HOUR_MS; h < end; h += HOUR_MS) {
      const s = hourStats(seed, Math.max(h, iv.from), Math.min(h + HOUR_MS, end));
      sum.checks += s.checks;
      sum.confirmedErrors += s.confirmedErrors;
      sum.unconfirmedErrors += s.unconfirmedErrors;
      sum.alerts += s.alerts;
      sum.downtimeMinutes += s.downtimeMinutes;
      sum.minutes += s.minutes;
      sum.totalTime += s.totalTime * s.checks;
      sum.resolveTime += s.resolveTime * s.checks;
      sum.connectionTime += s.connectionTime * s.checks;
      sum.downloadTime += s.downloadTime * s.checks;
      sum.totalBytes += s.totalBytes;
      if (s.alerts > 0) {
        sum.operatorResponseTime += s.operatorResponseTime;
        responses += 1;
      }
    }
  }
  const avg = (v: number): number => (sum.checks > 0 ? round(v / sum.checks, 3) : 0);
  const downPct = sum.minutes > 0 ? (sum.downtimeMinutes / sum.minutes) * 100 : 0;
  return {
    StartDateTime: formatTimestamp(new Date(iv.from)),
    EndDateTime: formatTimestamp(new Date(iv.to)),
    Alerts: sum.alerts,
    OperatorResponseTarget: 15,
    OperatorResponseTime: responses > 0 ? round(sum.operatorResponseTime / responses, 1) : 0,
    DowntimePercentage: round(downPct, 3),
    UptimePercentage: round(100 - downPct, 3),
    Checks: sum.checks,
    ConfirmedErrors: sum.confirmedErrors,
    UnconfirmedErrors: sum.unconfirmedErrors,
    Uptime: round(sum.minutes - sum.downtimeMinutes, 2),
    Downtime: round(sum.downtimeMinutes, 2),
    TotalTime: avg(sum.totalTime),
    ResolveTime: avg(sum.resolveTime),
    ConnectionTime: avg(sum.connectionTime),
    DownloadTime: avg(sum.downloadTime),
    TotalBytes: sum.totalBytes,
  };
}

function statistics(ctx: RequestContext, monitors: readonly MonitorRec[], related: { Id: string; Type: string; Self: string }): Reply {
  const fields = parseFilter(ctx);
  const range = parseRange(ctx, 'datetime');
  const hours = Math.ceil((range.to - range.from) / HOUR_MS);
  if (hours * Math.max(1, monitors.length) > MAX_MONITOR_HOURS) {
    throw badRequest(`The emulator simulates at most ${MAX_MONITOR_HOURS} monitor-hours per request; choose a shorter period or a smaller group.`);
  }
  const seeds = monitors.map((m) => monitorSeed(String(m.fields['MonitorGuid'])));
  const now = ctx.settings.now().getTime();
  const relationships = [{ Id: related.Id, Type: related.Type, Links: { Self: related.Self } }];
  const data = intervals(range).map((iv) => {
    const all = intervalAttributes(seeds, iv, now);
    const attributes: Obj = {};
    for (const f of fields) attributes[f] = all[f];
    return { Id: formatUsTimestamp(new Date(iv.from)), Type: 'Statistics', Attributes: attributes, Relationships: relationships };
  });
  return ok({ Data: data });
}

// ---- monitor checks -------------------------------------------------------------------------

function findCheck(ctx: RequestContext): { rec: MonitorRec; time: number; id: number } {
  const raw = ctx.params['monitorCheckId'] ?? '';
  if (!/^\d+$/.test(raw)) throw badRequest(`Monitor check id "${raw}" must be an integer.`);
  const id = Number(raw);
  const { seq, time } = decodeCheckId(id);
  const rec = ctx.store.monitorOrder[ctx.store.orderIndexAfter(seq - 1)];
  if (!rec || rec.seq !== seq || time > ctx.settings.now().getTime()) throw notFound(`Monitor check ${raw} does not exist.`);
  if (!canViewMonitor(ctx, String(rec.fields['MonitorGuid']))) throw forbidden(`Permission denied: no view-data permission on the monitor of check ${raw}.`);
  return { rec, time, id };
}

function inError(rec: MonitorRec, time: number): boolean {
  const seed = monitorSeed(String(rec.fields['MonitorGuid']));
  return incidentsBetween(seed, time, time + 60_000).length > 0;
}

function checkHeader(rec: MonitorRec, time: number, id: number): Obj {
  return { MonitorCheckId: id, MonitorGuid: rec.fields['MonitorGuid'], Timestamp: formatTimestamp(new Date(time)), HasError: inError(rec, time) };
}

function requireKind(rec: MonitorRec, allowed: boolean, what: string, monitors: string): void {
  if (!allowed) {
    throw badRequest(`${what} are available only for checks of ${monitors} monitors; monitor "${String(rec.fields['Name'])}" is ${String(rec.fields['MonitorType'])}.`);
  }
}

export function registerHistoryRoutes(router: Router): void {
  router.add('GET', '/Alert/Monitor/{monitorGuid}', (ctx) => {
    const rec = findMonitor(ctx, ctx.params['monitorGuid'] ?? '');
    return alertList(ctx, `alert:monitor:${key(String(rec.fields['MonitorGuid']))}`, [rec], true);
  });
  router.add('GET', '/Alert/MonitorGroup/{monitorGroupGuid}', (ctx) => {
    const group = findMonitorGroup(ctx, ctx.params['monitorGroupGuid'] ?? '');
    const members = ctx.store.groupMonitors(group).filter((m) => canViewMonitor(ctx, String(m.fields['MonitorGuid'])));
    return alertList(ctx, `alert:group:${key(String(group.fields['MonitorGroupGuid']))}`, members);
  });
  router.add('GET', '/Statistics/Monitor/{monitorGuid}', (ctx) => {
    const rec = findMonitor(ctx, ctx.params['monitorGuid'] ?? '');
    const guid = String(rec.fields['MonitorGuid']);
    return statistics(ctx, [rec], { Id: guid, Type: 'Monitor', Self: `/Monitor/${guid}` });
  });
  router.add('GET', '/Statistics/MonitorGroup/{monitorGroupGuid}', (ctx) => {
    const group = findMonitorGroup(ctx, ctx.params['monitorGroupGuid'] ?? '');
    const guid = String(group.fields['MonitorGroupGuid']);
    const members = ctx.store.groupMonitors(group).filter((m) => canViewMonitor(ctx, String(m.fields['MonitorGuid'])));
    return statistics(ctx, members, { Id: guid, Type: 'MonitorGroup', Self: `/MonitorGroup/${guid}` });
  });

  router.add('GET', '/MonitorCheck/{monitorCheckId}/Waterfall', (ctx) => {
    const { rec, time, id } = findCheck(ctx);
    const cat = monitorCategory(rec.fields['MonitorType']);
    requireKind(rec, cat === 'browser' || cat === 'transaction', 'Waterfall metrics', 'browser-based');
    const seed = (monitorSeed(String(rec.fields['MonitorGuid'])) ^ id) >>> 0;
    const v = (n: number, scale: number): number => round((((seed >>> n) & 0xff) / 255) * scale, 3);
    const ttfb = 80 + v(0, 300);
    const fcp = ttfb + 200 + v(4, 900);
    const lcp = fcp + 100 + v(8, 1500);
    return ok({
      ...checkHeader(rec, time, id),
      PageLoadMetricsCollection: [
        {
          CumulativeLayoutShift: v(12, 0.25),
          FirstContentfulPaint: fcp,
          LargestContentfulPaint: lcp,
          TotalBlockingTime: v(16, 400),
          TimeToInteractive: lcp + v(20, 800),
          TimeToFirstByte: ttfb,
          SendStart: v(2, 20),
          LoadEventEnd: lcp + 300,
          DomInteractive: fcp + 50,
          DomComplete: lcp + 250,
        },
      ],
      Entries: [
        { Url: String(rec.fields['Url'] ?? 'https://example.com/'), StatusCode: 200, StartTime: 0, Duration: ttfb, Bytes: 24_000 },
        { Url: 'https://cdn.example.com/app.js', StatusCode: 200, StartTime: ttfb, Duration: 120 + v(6, 200), Bytes: 180_000 },
      ],
    });
  });
  router.add('GET', '/MonitorCheck/{monitorCheckId}/MultiStepAPI', (ctx) => {
    const { rec, time, id } = findCheck(ctx);
    requireKind(rec, isMultiStepApi(rec.fields['MonitorType']), 'Multi-step API details', 'multi-step API');
    const error = inError(rec, time);
    return ok({
      ...checkHeader(rec, time, id),
      TotalTime: 0.42,
      Steps: [
        { StepName: 'Authenticate', HttpStatusCode: 200, Duration: 0.12, AssertionResults: [{ Assertion: 'status == 200', Passed: true }] },
        { StepName: 'Query', HttpStatusCode: error ? 503 : 200, Duration: 0.3, AssertionResults: [{ Assertion: 'status == 200', Passed: !error }] },
      ],
    });
  });
  router.add('GET', '/MonitorCheck/{monitorCheckId}/CollectionAPI', (ctx) => {
    const { rec, time, id } = findCheck(ctx);
    requireKind(rec, String(rec.fields['MonitorType']).toLowerCase() === 'postmanapi', 'Collection API details', 'collection-based API');
    const error = inError(rec, time);
    return ok({
      ...checkHeader(rec, time, id),
      HttpStatusCode: error ? 500 : 200,
      TotalRunTime: 0.61,
      AssertionResults: [{ Name: 'Status code is 200', Passed: !error }],
      ResponseElements: [{ Name: 'token', Found: !error }],
      Steps: [{ Name: 'Get token', HttpStatusCode: error ? 500 : 200, Duration: 0.61 }],
    });
  });
}
