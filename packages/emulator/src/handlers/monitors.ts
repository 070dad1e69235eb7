import { notFound } from '../errors.js';
import type { Reply, RequestContext, Router } from '../router.js';
import { Store, vaultReferences, type MonitorGroupRec } from '../store.js';
import { Checker, isObj, requireBody, sameGuid, type Obj } from '../validate.js';
import { ERROR_CONDITION_TYPES, PUBLISHED_ERROR_CONDITION_TYPES, PUBLISHED_MONITOR_FIELDS, REMOVED_FIELDS, withLoadTimeConditions } from './monitor-fields.js';
import { findMonitor, findMonitorGroup, isMultiStepApi, key, nowStamp, listMonitors, ok, renderMonitor, requireAdmin } from './common.js';

/**
 * What the lean profile's service fills in on create when the request left it out: a variable of multi-step
 * monitors, and the group a monitor was created into.
 */
function serverDefaults(fields: Obj, body: Obj, group: MonitorGroupRec | undefined): void {
  if (isMultiStepApi(fields['MonitorType']) && body['PredefinedVariables'] === undefined) {
    fields['PredefinedVariables'] = [{ Key: 'environment', Value: 'production' }];
  }
  if (group && group.fields['IsAll'] !== true && body['MonitorGroups'] === undefined) fields['MonitorGroups'] = [group.fields['MonitorGroupGuid']];
}

const READ_ONLY = new Set(['MonitorGuid', 'CreatedDate', 'LastModifiedDate', 'LastModifiedByOperatorId']);

/** Defaults the emulator fills for omitted fields on create and replace. */
export const MONITOR_DEFAULTS = {
  MonitorMode: 'Production',
  IsActive: true,
  GenerateAlert: true,
  UserAgent: 'ChromeLatest',
  ErrorConditions: [] as unknown[],
  PredefinedVariables: [] as unknown[],
} as const;

const LEADING = ['MonitorGuid', 'Name', 'MonitorType', 'MonitorMode', 'IsActive', 'GenerateAlert', 'UserAgent', 'ErrorConditions', 'PredefinedVariables'];
const TRAILING = ['CreatedDate', 'LastModifiedDate', 'LastModifiedByOperatorId'];

function ordered(fields: Obj): Obj {
  const out: Obj = {};
  for (const f of LEADING) if (f in fields) out[f] = fields[f];
  for (const [k, v] of Object.entries(fields)) if (!LEADING.includes(k) && !TRAILING.includes(k)) out[k] = v;
  for (const f of TRAILING) if (f in fields) out[f] = fields[f];
  return out;
}

/** What a write may set: read-only fields are ignored, and so are removed ones and, where the profile drops them, unknown ones. */
function writable(ctx: RequestContext, body: Obj): Obj {
  const out: Obj = {};
  const dropUnknown = ctx.settings.rules.unknownFields === 'drop';
  for (const [k, v] of Object.entries(body)) {
    if (READ_ONLY.has(k) || k in REMOVED_FIELDS || (dropUnknown && !PUBLISHED_MONITOR_FIELDS.has(k))) continue;
    out[k] = v;
  }
  return out;
}

function checkBody(ctx: RequestContext, body: Obj, pathGuid: string | undefined, c: Checker): void {
  c.pascalKeys(body, ctx.settings.rules);
  for (const field of Object.keys(body)) {
    const replacement = REMOVED_FIELDS[field];
    if (replacement && ctx.settings.rules.removedMonitorFields === 'refuse') {
      c.add(`Field "${field}" was removed on 2025-08-27; use ErrorConditions with ErrorConditionType "${replacement}" instead.`);
    }
  }
  if (pathGuid !== undefined && body['MonitorGuid'] !== undefined && !sameGuid(body['MonitorGuid'], pathGuid)) {
    c.add(`MonitorGuid in the body (${String(body['MonitorGuid'])}) differs from the one in the path (${pathGuid}).`);
  }
}

/** Validates a complete (merged) monitor. */
function checkMonitor(ctx: RequestContext, m: Obj, c: Checker): void {
  const types = ctx.settings.rules.errorConditionTypes === 'published' ? PUBLISHED_ERROR_CONDITION_TYPES : ERROR_CONDITION_TYPES;
  c.string(m, 'Name', { required: true });
  c.string(m, 'MonitorType', { required: true });
  c.string(m, 'MonitorMode', { required: true });
  c.string(m, 'UserAgent', { required: true });
  c.boolean(m, 'IsActive', { required: true });
  c.boolean(m, 'GenerateAlert', { required: true });
  const conditions = m['ErrorConditions'];
  if (!Array.isArray(conditions)) c.add('ErrorConditions must be an array.');
  else {
    const seen = new Set<string>();
    conditions.forEach((ec, i) => {
      if (!isObj(ec)) return c.add(`ErrorConditions[${i}] must be an object.`);
      const t = ec['ErrorConditionType'];
      if (typeof t !== 'string' || !(types as readonly string[]).includes(t)) {
        return c.add(`ErrorConditions[${i}].ErrorConditionType must be one of: ${types.join(', ')}.`);
      }
      if (seen.has(t)) c.add(`ErrorConditions has ErrorConditionType "${t}" more than once.`);
      seen.add(t);
      if (typeof ec['Value'] !== 'string') c.add(`ErrorConditions[${i}].Value must be a string.`);
      for (const f of ['Percentage', 'Effect']) {
        if (ec[f] !== undefined && ec[f] !== null && typeof ec[f] !== 'string') c.add(`ErrorConditions[${i}].${f} must be a string.`);
      }
    });
  }
  const vars = m['PredefinedVariables'];
  if (!Array.isArray(vars)) c.add('PredefinedVariables must be an array.');
  else {
    const keys = new Set<string>();
    const multiStep = isMultiStepApi(m['MonitorType']);
    vars.forEach((v, i) => {
      if (!isObj(v)) return c.add(`PredefinedVariables[${i}] must be an object with Key and Value.`);
      if (typeof v['Key'] !== 'string' || v['Key'] === '') return c.add(`PredefinedVariables[${i}].Key must be a non-empty string.`);
      if (keys.has(v['Key'])) c.add(`PredefinedVariables has Key "${v['Key']}" more than once.`);
      keys.add(v['Key']);
      if (typeof v['Value'] !== 'string') c.add(`PredefinedVariables[${i}].Value must be a string.`);
      if (multiStep && 'Sensitive' in v) {
        c.add(`PredefinedVariables[${i}].Sensitive is obsolete for multi-step API monitors and must not be sent; keep secrets in the vault and reference them as {{vault:<VaultItemGuid>}}.`);
      }
    });
  }
  const token = m['BearerToken'];
  if (token !== undefined) {
    if (typeof token !== 'string') c.add('BearerToken must be a string.');
    else if (!isMultiStepApi(m['MonitorType'])) c.add('BearerToken can be set only on multi-step API monitors (MonitorType "MultiStepApi").');
  }
  for (const ref of vaultReferences(m)) {
    if (!ctx.store.vaultItems.has(ref)) c.add(`PredefinedVariables reference vault item ${ref}, which does not exist.`);
  }
}

/** Drops an empty/null write-only token so "not set" has a single representation. */
function settleToken(fields: Obj, previous: unknown): void {
  if (!('BearerToken' in fields)) {
    if (typeof previous === 'string' && previous !== '') fields['BearerToken'] = previous;
    return;
  }
  if (fields['BearerToken'] === null || fields['BearerToken'] === '') delete fields['BearerToken'];
}

export function createMonitor(ctx: RequestContext, groupGuid?: string): Reply {
  requireAdmin(ctx, 'creating a monitor');
  const body = requireBody(ctx.body, 'monitor');
  const group = groupGuid === undefined ? undefined : findMonitorGroup(ctx, groupGuid);
  const c = new Checker();
  checkBody(ctx, body, undefined, c);
  const stamp = nowStamp(ctx);
  const fields: Obj = { MonitorGuid: Store.newGuid(), ...MONITOR_DEFAULTS, ...writable(ctx, body) };
  if (fields['BearerToken'] === null) delete fields['BearerToken'];
  checkMonitor(ctx, fields, c);
  c.done();
  if (ctx.settings.rules.loadTimeConditions === 'on-create') fields['ErrorConditions'] = withLoadTimeConditions(fields['ErrorConditions']);
  if (ctx.settings.rules.createDefaults) serverDefaults(fields, body, group);
  settleToken(fields, undefined);
  fields['CreatedDate'] = stamp;
  fields['LastModifiedDate'] = stamp;
  fields['LastModifiedByOperatorId'] = ctx.caller.operatorGuid;
  const rec = ctx.store.insertMonitor(ordered(structuredClone(fields)));
  if (group && group.fields['IsAll'] !== true) {
    const monitorKey = key(String(rec.fields['MonitorGuid']));
    ctx.store.monitorGroups.update(key(String(group.fields['MonitorGroupGuid'])), (g) => g.members.add(monitorKey));
  }
  return ok(renderMonitor(ctx, rec));
}

function updateMonitor(ctx: RequestContext, mode: 'replace' | 'patch'): Reply {
  requireAdmin(ctx, 'changing a monitor');
  const guid = ctx.params['monitorGuid'] ?? '';
  const rec = findMonitor(ctx, guid);
  const body = requireBody(ctx.body, 'monitor');
  const c = new Checker();
  checkBody(ctx, body, guid, c);
  const previousToken = rec.fields['BearerToken'];
  const base: Obj = mode === 'replace' ? { ...MONITOR_DEFAULTS } : structuredClone(rec.fields);
  if (mode === 'patch') delete base['BearerToken'];
  const fields: Obj = { ...base, ...writable(ctx, body) };
  if (fields['BearerToken'] === null) delete fields['BearerToken'];
  checkMonitor(ctx, fields, c);
  c.done();
  // PATCH and PUT keep a write-only token the body leaves out; null or "" clears it.
  if (!('BearerToken' in body)) settleToken(fields, previousToken);
  else settleToken(fields, undefined);
  fields['MonitorGuid'] = rec.fields['MonitorGuid'];
  fields['CreatedDate'] = rec.fields['CreatedDate'];
  fields['LastModifiedDate'] = nowStamp(ctx);
  fields['LastModifiedByOperatorId'] = ctx.caller.operatorGuid;
  ctx.store.replaceMonitorFields(rec, ordered(structuredClone(fields)));
  return ok(renderMonitor(ctx, rec));
}

function deleteMonitor(ctx: RequestContext): Reply {
  requireAdmin(ctx, 'deleting a monitor');
  const guid = ctx.params['monitorGuid'] ?? '';
  if (!ctx.store.monitors.has(key(guid))) throw notFound(`Monitor ${guid} does not exist.`);
  ctx.store.removeMonitor(guid);
  return ok();
}

export function registerMonitorRoutes(router: Router): void {
  router.add('GET', '/Monitor', (ctx) => listMonitors(ctx, 'monitor', ctx.store.monitorOrder));
  router.add('POST', '/Monitor', (ctx) => createMonitor(ctx));
  router.add('GET', '/Monitor/{monitorGuid}', (ctx) => {
    return ok(renderMonitor(ctx, findMonitor(ctx, ctx.params['monitorGuid'] ?? '')));
  });
  router.add('PUT', '/Monitor/{monitorGuid}', (ctx) => updateMonitor(ctx, 'replace'));
  router.add('PATCH', '/Monitor/{monitorGuid}', (ctx) => updateMonitor(ctx, 'patch'));
  router.add('DELETE', '/Monitor/{monitorGuid}', deleteMonitor);
  router.add('GET', '/Monitor/MonitorGroup/{monitorGroupGuid}', (ctx) => {
    const groupGuid = ctx.params['monitorGroupGuid'] ?? '';
    const group = findMonitorGroup(ctx, groupGuid);
    return listMonitors(ctx, `monitor-group:${key(groupGuid)}`, ctx.store.groupMonitors(group));
  });
  router.add('POST', '/Monitor/MonitorGroup/{monitorGroupGuid}', (ctx) => createMonitor(ctx, ctx.params['monitorGroupGuid'] ?? ''));
}
