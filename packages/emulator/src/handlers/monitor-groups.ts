import { badRequest, notFound } from '../errors.js';
import type { Reply, RequestContext, Router } from '../router.js';
import { Store, type MonitorGroupRec } from '../store.js';
import { normalizeTimestamp } from '../time.js';
import { Checker, requireBody, sameGuid, type Obj } from '../validate.js';
import { findMonitorGroup, key, memberList, monitorCategory, nowStamp, ok, requireAdmin, type MonitorCategory } from './common.js';

const READ_ONLY = new Set([
  'MonitorGroupGuid',
  'IsAll',
  'UsedBasicMonitorQuota',
  'UsedBrowserMonitorQuota',
  'UsedTransactionMonitorQuota',
  'UsedApiMonitorQuota',
  'UsedClassicQuota',
]);

export function renderMonitorGroup(ctx: RequestContext, group: MonitorGroupRec): Obj {
  let used: Record<MonitorCategory, number>;
  if (group.fields['IsAll'] === true) used = ctx.store.monitorCategoryCounts;
  else {
    // Order does not matter for counting, so the member set is read as it is.
    used = { basic: 0, browser: 0, transaction: 0, api: 0 };
    for (const guid of group.members) {
      const m = ctx.store.monitors.get(guid);
      if (m) used[monitorCategory(m.fields['MonitorType'])] += 1;
    }
  }
  // A shallow copy is enough: replies are serialised at once, and act-as copies its result.
  return {
    ...group.fields,
    UsedBasicMonitorQuota: used.basic,
    UsedBrowserMonitorQuota: used.browser,
    UsedTransactionMonitorQuota: used.transaction,
    UsedApiMonitorQuota: used.api,
    // The emulated account is not on the single-credit-pool plan.
    UsedClassicQuota: 0,
  };
}

function checkGroupBody(ctx: RequestContext, body: Obj, pathGuid: string | undefined): Checker {
  const c = new Checker();
  c.pascalKeys(body, ctx.settings.rules);
  c.string(body, 'Description', { required: true });
  c.boolean(body, 'IsQuotaUnlimited');
  if (body['IsAll'] === true) c.add('IsAll is read-only: the account has exactly one All Monitors group.');
  if (pathGuid !== undefined && body['MonitorGroupGuid'] !== undefined && !sameGuid(body['MonitorGroupGuid'], pathGuid)) {
    c.add(`MonitorGroupGuid in the body differs from the one in the path (${pathGuid}).`);
  }
  return c;
}

/** The group fields the published definition names; the published profile drops the rest. */
const PUBLISHED_GROUP_FIELDS = new Set([
  'Description', 'IsQuotaUnlimited', 'BasicMonitorQuota', 'BrowserMonitorQuota', 'TransactionMonitorQuota', 'ApiMonitorQuota',
  'ClassicQuota', 'UnifiedCreditsQuota',
]);

function writableFields(ctx: RequestContext, body: Obj): Obj {
  const dropUnknown = ctx.settings.rules.unknownFields === 'drop';
  const out: Obj = {};
  for (const [k, v] of Object.entries(body)) if (!READ_ONLY.has(k) && (!dropUnknown || PUBLISHED_GROUP_FIELDS.has(k))) out[k] = v;
  return out;
}

export function groupKey(group: MonitorGroupRec): string {
  return key(String(group.fields['MonitorGroupGuid']));
}

function refuseAllGroup(group: MonitorGroupRec, what: string): void {
  if (group.fields['IsAll'] === true) {
    throw badRequest(`The All Monitors group holds every monitor; ${what} is not possible. Use another group.`);
  }
}

function setOnMembers(ctx: RequestContext, field: 'IsActive' | 'GenerateAlert', value: boolean): Reply {
  requireAdmin(ctx, 'starting or stopping monitors');
  const group = findMonitorGroup(ctx, ctx.params['monitorGroupGuid'] ?? '');
  const stamp = nowStamp(ctx);
  for (const rec of ctx.store.groupMonitors(group)) {
    ctx.store.replaceMonitorFields(rec, {
      ...rec.fields,
      [field]: value,
      LastModifiedDate: stamp,
      LastModifiedByOperatorId: ctx.caller.operatorGuid,
    });
  }
  return ok();
}

export function registerMonitorGroupRoutes(router: Router): void {
  router.add('GET', '/MonitorGroup', (ctx) => ok([...ctx.store.monitorGroups.values()].map((g) => renderMonitorGroup(ctx, g))));
  router.add('GET', '/MonitorGroup/{monitorGroupGuid}', (ctx) =>
    ok(renderMonitorGroup(ctx, findMonitorGroup(ctx, ctx.params['monitorGroupGuid'] ?? ''))),
  );
  router.add('POST', '/MonitorGroup', (ctx) => {
    requireAdmin(ctx, 'creating a monitor group');
    const body = requireBody(ctx.body, 'monitor group');
    checkGroupBody(ctx, body, undefined).done();
    const guid = Store.newGuid();
    const group: MonitorGroupRec = {
      fields: { MonitorGroupGuid: guid, Description: body['Description'], IsAll: false, IsQuotaUnlimited: false, ...writableFields(ctx, body) },
      members: new Set(),
    };
    ctx.store.monitorGroups.put(guid, group);
    return ok(renderMonitorGroup(ctx, group));
  });
  router.add('PUT', '/MonitorGroup/{monitorGroupGuid}', (ctx) => {
    requireAdmin(ctx, 'changing a monitor group');
    const guid = ctx.params['monitorGroupGuid'] ?? '';
    const group = findMonitorGroup(ctx, guid);
    refuseAllGroup(group, 'changing it');
    const body = requireBody(ctx.body, 'monitor group');
    checkGroupBody(ctx, body, guid).done();
    ctx.store.monitorGroups.update(key(guid), (g) => {
      g.fields = {
        MonitorGroupGuid: g.fields['MonitorGroupGuid'],
        Description: body['Description'],
        IsAll: false,
        IsQuotaUnlimited: false,
        ...writableFields(ctx, body),
      };
    });
    return ok(renderMonitorGroup(ctx, group));
  });
  router.add('DELETE', '/MonitorGroup/{monitorGroupGuid}', (ctx) => {
    requireAdmin(ctx, 'deleting a monitor group');
    const guid = ctx.params['monitorGroupGuid'] ?? '';
    const group = findMonitorGroup(ctx, guid);
    refuseAllGroup(group, 'deleting it');
    ctx.store.monitorGroups.remove(key(guid));
    return ok();
  });
  router.add('GET', '/MonitorGroup/{monitorGroupGuid}/Member', (ctx) => {
    const group = findMonitorGroup(ctx, ctx.params['monitorGroupGuid'] ?? '');
    return memberList(ctx, key(String(group.fields['MonitorGroupGuid'])), ctx.store.groupMonitors(group));
  });
  router.add('POST', '/MonitorGroup/{monitorGroupGuid}/Member/{monitorGuid}', (ctx) => {
    requireAdmin(ctx, 'changing group membership');
    const group = findMonitorGroup(ctx, ctx.params['monitorGroupGuid'] ?? '');
    refuseAllGroup(group, 'changing its membership');
    const monitorGuid = ctx.params['monitorGuid'] ?? '';
    if (!ctx.store.monitors.has(key(monitorGuid))) throw notFound(`Monitor ${monitorGuid} does not exist.`);
    if (!group.members.has(key(monitorGuid))) ctx.store.monitorGroups.update(groupKey(group), (g) => g.members.add(key(monitorGuid)));
    return ok();
  });
  router.add('DELETE', '/MonitorGroup/{monitorGroupGuid}/Member/{monitorGuid}', (ctx) => {
    requireAdmin(ctx, 'changing group membership');
    const group = findMonitorGroup(ctx, ctx.params['monitorGroupGuid'] ?? '');
    refuseAllGroup(group, 'changing its membership');
    const monitorGuid = ctx.params['monitorGuid'] ?? '';
    if (!ctx.store.monitors.has(key(monitorGuid))) throw notFound(`Monitor ${monitorGuid} does not exist.`);
    if (group.members.has(key(monitorGuid))) ctx.store.monitorGroups.update(groupKey(group), (g) => g.members.delete(key(monitorGuid)));
    return ok();
  });
  router.add('POST', '/MonitorGroup/{monitorGroupGuid}/StopAllMonitors', (ctx) => setOnMembers(ctx, 'IsActive', false));
  router.add('POST', '/MonitorGroup/{monitorGroupGuid}/StartAllMonitors', (ctx) => setOnMembers(ctx, 'IsActive', true));
  router.add('POST', '/MonitorGroup/{monitorGroupGuid}/StopAllMonitorAlerts', (ctx) => setOnMembers(ctx, 'GenerateAlert', false));
  router.add('POST', '/MonitorGroup/{monitorGroupGuid}/StartAllMonitorAlerts', (ctx) => setOnMembers(ctx, 'GenerateAlert', true));
  router.add('POST', '/MonitorGroup/{monitorGroupGuid}/AddMaintenancePeriodToAllMembers', (ctx) => {
    requireAdmin(ctx, 'adding maintenance periods');
    const group = findMonitorGroup(ctx, ctx.params['monitorGroupGuid'] ?? '');
    const body = requireBody(ctx.body, 'maintenance period');
    const c = new Checker();
    c.pascalKeys(body, ctx.settings.rules);
    const from = c.string(body, 'From', { required: true });
    const until = c.string(body, 'Until', { required: true });
    const f = from === undefined ? null : normalizeTimestamp(from);
    const u = until === undefined ? null : normalizeTimestamp(until);
    if (from !== undefined && !f) c.add('From must be a date-time YYYY-MM-DDTHH:MM:SS.');
    if (until !== undefined && !u) c.add('Until must be a date-time YYYY-MM-DDTHH:MM:SS.');
    if (f && u && f >= u) c.add('From must be before Until.');
    c.done();
    const period: Obj = { ...body, From: f, Until: u };
    for (const m of ctx.store.groupMonitors(group)) {
      ctx.store.addMaintenancePeriod(String(m.fields['MonitorGuid']), structuredClone(period));
    }
    return ok();
  });
}

