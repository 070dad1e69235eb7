import { decodeCursor, encodeCursor, getParam, parseTake } from '../cursor.js';
import { forbidden, notFound } from '../errors.js';
import { JsonText, type Reply, type RequestContext } from '../router.js';
import type { MonitorGroupRec, MonitorRec } from '../store.js';
import { formatTimestamp } from '../time.js';
import type { Obj } from '../validate.js';
import type { Rules } from '../profiles.js';
import { PUBLISHED_MONITOR_FIELDS, REMOVED_FIELDS, withLoadTimeConditions } from './monitor-fields.js';

export const ok = (body?: unknown): Reply => (body === undefined ? { status: 200 } : { status: 200, body });
export const noContent = (): Reply => ({ status: 204 });

export function requireAdmin(ctx: RequestContext, what: string): void {
  if (!ctx.caller.isAdmin) {
    throw forbidden(`Permission denied: ${what} needs an operator in the Administrators group.`);
  }
}

export function nowStamp(ctx: RequestContext): string {
  return formatTimestamp(ctx.settings.now());
}

export const key = (guid: string): string => guid.toLowerCase();

// ---- monitor types --------------------------------------------------------------------------

export { monitorCategory, type MonitorCategory } from '../store.js';

export const isMultiStepApi = (type: unknown): boolean => typeof type === 'string' && type.toLowerCase() === 'multistepapi';

// ---- monitor visibility and rendering -------------------------------------------------------


const VIEWER_FIELDS = ['MonitorGuid', 'Name', 'MonitorType', 'MonitorMode', 'IsActive', 'GenerateAlert'] as const;

export function canViewMonitor(ctx: RequestContext, guid: string): boolean {
  if (ctx.caller.isAdmin) return true;
  return ctx.store.monitorViewPermissions.get(ctx.caller.operatorGuid)?.has(key(guid)) ?? false;
}

/** Write-only fields never leave the emulator; non-administrators get the fields the spec guarantees. */
export function renderMonitor(ctx: RequestContext, rec: MonitorRec): Obj {
  if (!ctx.caller.isAdmin) {
    const out: Obj = {};
    for (const f of VIEWER_FIELDS) out[f] = rec.fields[f];
    return out;
  }
  // A shallow copy is enough: replies are serialised at once, and act-as deep-copies its result. Fields removed on
  // 2025-08-27 are never returned, even if a loaded state still holds them.
  const rules = ctx.settings.rules;
  const dropUnknown = rules.unknownFields === 'drop';
  const out: Obj = {};
  for (const f of Object.keys(rec.fields)) {
    if (f === 'BearerToken' || f in REMOVED_FIELDS || (dropUnknown && !PUBLISHED_MONITOR_FIELDS.has(f))) continue;
    out[f] = rec.fields[f];
  }
  if (rules.loadTimeConditions === 'always') out['ErrorConditions'] = withLoadTimeConditions(out['ErrorConditions']);
  return out;
}

/**
 * An administrator's rendering of each monitor as JSON text, per fields object. A monitor is changed only by
 * replacing its fields object (`Store.replaceMonitorFields`), never by editing it in place, so an entry cannot go
 * stale; a listing of 10,000 monitors (and the group member listings naming them again) then serialises each
 * monitor once rather than on every request.
 */
const renderedJson = new WeakMap<Rules, WeakMap<Obj, string>>();

/** The rendering cache of one profile (a store is read through one profile, but tests run several side by side). */
function renderCache(ctx: RequestContext): WeakMap<Obj, string> {
  let cache = renderedJson.get(ctx.settings.rules);
  if (!cache) renderedJson.set(ctx.settings.rules, (cache = new WeakMap()));
  return cache;
}

export function monitorJson(ctx: RequestContext, rec: MonitorRec, cache = renderCache(ctx)): string {
  if (!ctx.caller.isAdmin) return JSON.stringify(renderMonitor(ctx, rec));
  let text = cache.get(rec.fields);
  if (text === undefined) {
    text = JSON.stringify(renderMonitor(ctx, rec));
    cache.set(rec.fields, text);
  }
  return text;
}

/** A monitor listing as the profile speaks it: one bare array, or batches paged with `Cursor`. */
export function listMonitors(ctx: RequestContext, scope: string, candidates: readonly MonitorRec[]): Reply {
  return ctx.settings.rules.monitorList === 'bare' ? monitorArray(ctx, candidates) : pageMonitors(ctx, scope, candidates);
}

/** A group's members (`group` names it): whole monitors, or `{MonitorGuid}` items. */
export function memberList(ctx: RequestContext, group: string, recs: readonly MonitorRec[]): Reply {
  if (ctx.settings.rules.memberItems === 'monitor') {
    if (ctx.caller.isAdmin && recs.length <= MAX_KEPT_MEMBERS) return ok(new JsonText(adminText(ctx, `members\n${group}`, recs, 0, recs.length, '[').data));
    return monitorArray(ctx, recs);
  }
  const items: Obj[] = [];
  for (const rec of recs) if (canViewMonitor(ctx, String(rec.fields['MonitorGuid']))) items.push({ MonitorGuid: rec.fields['MonitorGuid'] });
  return ok(items);
}

export function findMonitor(ctx: RequestContext, guid: string): MonitorRec {
  const rec = ctx.store.monitors.get(key(guid));
  if (!rec) throw notFound(`Monitor ${guid} does not exist.`);
  if (!canViewMonitor(ctx, guid)) throw forbidden(`Permission denied: no view-data permission on monitor ${guid}.`);
  return rec;
}

export function findMonitorGroup(ctx: RequestContext, guid: string): MonitorGroupRec {
  const rec = ctx.store.monitorGroups.get(key(guid));
  if (!rec) throw notFound(`Monitor group ${guid} does not exist.`);
  return rec;
}

/**
 * A listing's text as last answered to an administrator (a batch's `{"Data":[...]`, a group's member array), with the
 * fields objects it was rendered from. It stands while the same fields objects are at the same places: a monitor is
 * changed only by replacing its fields object, and an added or removed monitor moves the others. A read of 100,000
 * monitors walks a chain of 1,000 batches, each waiting for the one before, so the text a batch costs to build is on
 * that chain's critical path every time; kept, a batch costs the same deep into a listing as at its start, and little
 * at either. The 5,000 member listings beside the chain cost the same process less for the same reason.
 */
interface KeptText {
  fields: readonly Obj[];
  data: Buffer;
}

/** Kept texts per profile (their rendering depends on its rules), by listing and position. */
const keptTexts = new WeakMap<Rules, { bytes: number; texts: Map<string, KeptText> }>();
/** Every batch and member listing of a 100,000-monitor account in groups of 20 (about 51 MB each); past it the cache starts again. */
const MAX_KEPT_BYTES = 192 * 1024 * 1024;
/** Member listings longer than this (the All Monitors group's) are built each time: one request, on no chain. */
const MAX_KEPT_MEMBERS = 1000;

function keptCache(ctx: RequestContext): { bytes: number; texts: Map<string, KeptText> } {
  let cache = keptTexts.get(ctx.settings.rules);
  if (!cache) keptTexts.set(ctx.settings.rules, (cache = { bytes: 0, texts: new Map() }));
  return cache;
}

/**
 * The monitors `recs[start..end)` as an administrator sees them (every monitor is visible to one), in `open` and `]`,
 * kept under `key`.
 */
function adminText(ctx: RequestContext, key: string, recs: readonly MonitorRec[], start: number, end: number, open: string): KeptText {
  const cache = keptCache(ctx);
  const kept = cache.texts.get(key);
  if (kept !== undefined && kept.fields.length === end - start && kept.fields.every((fields, k) => recs[start + k]?.fields === fields)) return kept;
  const fields: Obj[] = [];
  const texts: string[] = [];
  const rendered = renderCache(ctx);
  for (let i = start; i < end; i++) {
    const rec = recs[i] as MonitorRec;
    fields.push(rec.fields);
    texts.push(monitorJson(ctx, rec, rendered));
  }
  const text: KeptText = { fields, data: Buffer.from(`${open}${texts.join(',')}]`) };
  if (kept !== undefined) cache.bytes -= kept.data.length;
  if (cache.bytes + text.data.length > MAX_KEPT_BYTES) {
    cache.texts.clear();
    cache.bytes = 0;
  }
  cache.texts.set(key, text);
  cache.bytes += text.data.length;
  return text;
}

/**
 * Up to `take` of the monitors the caller may view, from index `start`, in `open` and `]`; `next` is where it stopped.
 * A non-administrator's batch, and any caller's whole array (the bare listing, a group's members).
 */
function visibleText(ctx: RequestContext, candidates: readonly MonitorRec[], start: number, take: number, after: number, open: string): { data: Buffer; lastSeq: number; next: number } {
  const data: string[] = [];
  const rendered = renderCache(ctx);
  let lastSeq = after;
  let i = start;
  for (; i < candidates.length && data.length < take; i++) {
    const rec = candidates[i];
    if (!rec || !canViewMonitor(ctx, String(rec.fields['MonitorGuid']))) continue;
    data.push(monitorJson(ctx, rec, rendered));
    lastSeq = rec.seq;
  }
  return { data: Buffer.from(`${open}${data.join(',')}]`), lastSeq, next: i };
}

/**
 * One cursor-paged batch of monitors: `{ Data, Cursors }`. Cursors come with every batch of a listing that takes
 * more than one (`Next` while more data follows, `Self` always); a listing whose first batch holds everything gets
 * none (spec, Cursor rules).
 */
export function pageMonitors(ctx: RequestContext, scope: string, candidates: readonly MonitorRec[]): Reply {
  const cursor = getParam(ctx.query, 'Cursor');
  let after = 0;
  let take = parseTake(ctx.query, ctx.settings.pageSize, ctx.settings.rules.minTake);
  if (cursor) {
    const payload = decodeCursor(ctx.store.cursorSecret, scope, cursor);
    after = typeof payload['after'] === 'number' ? payload['after'] : 0;
    if (getParam(ctx.query, 'Take') === undefined && typeof payload['take'] === 'number') take = payload['take'];
  }
  const start = firstAfter(candidates, after);
  let batch: { data: Buffer; lastSeq: number; next: number };
  if (ctx.caller.isAdmin) {
    const kept = adminText(ctx, `${scope}\n${after}\n${take}`, candidates, start, Math.min(candidates.length, start + take), '{"Data":[');
    const next = start + kept.fields.length;
    batch = { data: kept.data, lastSeq: next > start ? (candidates[next - 1] as MonitorRec).seq : after, next };
  } else {
    batch = visibleText(ctx, candidates, start, take, after, '{"Data":[');
  }
  let more = false;
  for (let i = batch.next; i < candidates.length; i++) {
    const rec = candidates[i];
    if (rec && canViewMonitor(ctx, String(rec.fields['MonitorGuid']))) {
      more = true;
      break;
    }
  }
  // The same text JSON.stringify({ Data, Cursors }) gives, from the cached renderings.
  let tail = '';
  if (more || cursor) {
    const secret = ctx.store.cursorSecret;
    const cursors: Obj = {};
    if (more) cursors['Next'] = encodeCursor(secret, scope, { after: batch.lastSeq, take });
    if (ctx.settings.rules.cursorsSelf) cursors['Self'] = encodeCursor(secret, scope, { after, take });
    if (Object.keys(cursors).length > 0) tail = `,"Cursors":${JSON.stringify(cursors)}`;
  }
  return ok(new JsonText(Buffer.concat([batch.data, Buffer.from(`${tail}}`)])));
}

/** A JSON array of monitors from the cached renderings (the group member listing). */
export function monitorArray(ctx: RequestContext, recs: readonly MonitorRec[]): Reply {
  return ok(new JsonText(visibleText(ctx, recs, 0, recs.length, 0, '[').data));
}

function firstAfter(list: readonly MonitorRec[], seq: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid]?.seq ?? 0) <= seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
