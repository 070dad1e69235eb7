import { badRequest, forbidden, notFound } from '../errors.js';
import type { Reply, RequestContext, Router } from '../router.js';
import { Store, type DutyScheduleRec, type OperatorGroupRec } from '../store.js';
import { normalizeTimestamp } from '../time.js';
import { Checker, isObj, requireBody, sameGuid, type Obj } from '../validate.js';
import { key, ok, requireAdmin } from './common.js';

export const CULTURES = ['en-US', 'en-GB', 'fr-FR', 'de-DE', 'nl-NL', ''] as const;
export const SMS_PROVIDERS = ['UseAccountSetting', 'SmsProviderEurope', 'SmsProviderEurope2', 'SmsProviderUSA', 'SmsProviderInternational'] as const;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Read-only or computed: ignored when a client sends a GET result back. */
const OPERATOR_READ_ONLY = new Set(['OperatorGuid', 'IsAccountAdministrator', 'UserName']);

// ---- operators ------------------------------------------------------------------------------

/** Settings the published service applies only with their `...Specified: true` companion. */
const SPECIFIED_FIELDS = ['CultureName', 'TimeZoneId', 'UseNumericSender', 'AllowNativeLogin', 'AllowSingleSignon', 'OutgoingPhoneNumberId'];
/** Settings the published service takes but does not return on GET (the vendor's provider cannot read them back). */
const UNREAD_FIELDS = ['CultureName', 'UseNumericSender', 'AllowNativeLogin', 'AllowSingleSignon', 'SetupMode'];
/** Fields of the spec's operator the published definition does not have. */
const SPEC_ONLY_FIELDS = ['PhoneProvider', 'OutgoingPhoneNumber'];
/** The numbers alerts may be sent from (GET /OutgoingPhoneNumber); fixed, as an account's are. */
export const OUTGOING_PHONE_NUMBERS = [
  { Id: 1, PhoneNumber: '+31201234567', Description: 'Amsterdam' },
  { Id: 2, PhoneNumber: '+12025550123', Description: 'Washington' },
];

export function renderOperator(ctx: RequestContext, op: Obj): Obj {
  const { Password: _secret, ...rest } = op;
  const guid = key(String(op['OperatorGuid']));
  const out: Obj = { ...structuredClone(rest), IsAccountAdministrator: ctx.store.isAdmin(guid) };
  if (ctx.settings.rules.operatorFields === 'published') {
    for (const f of [...UNREAD_FIELDS, ...SPEC_ONLY_FIELDS, 'UserName']) delete out[f];
    for (const f of SPECIFIED_FIELDS) delete out[`${f}Specified`];
  }
  return out;
}

/**
 * The published service applies a setting only when its companion `...Specified` is true: otherwise the value
 * sent is ignored and the stored one kept. Companions are not stored.
 */
function applySpecified(ctx: RequestContext, body: Obj, existing: Obj | undefined): Obj {
  if (ctx.settings.rules.operatorFields !== 'published') return body;
  const out: Obj = { ...body };
  for (const f of SPECIFIED_FIELDS) {
    const companion = `${f}Specified`;
    if (out[companion] !== true) {
      if (existing !== undefined && existing[f] !== undefined) out[f] = existing[f];
      else delete out[f];
    }
    delete out[companion];
  }
  for (const f of SPEC_ONLY_FIELDS) delete out[f];
  return out;
}

function findOperator(ctx: RequestContext, guid: string): Obj {
  const op = ctx.store.operators.get(key(guid));
  if (!op) throw notFound(`Operator ${guid} does not exist.`);
  return op;
}

function checkOperator(ctx: RequestContext, op: Obj, selfGuid: string | undefined): void {
  const c = new Checker();
  const email = c.string(op, 'Email', { required: true, pattern: EMAIL, hint: 'an e-mail address' });
  for (const f of ['Password', 'FullName', 'MobilePhone', 'OutgoingPhoneNumber', 'BackupEmail', 'PhoneProvider']) c.string(op, f);
  c.string(op, 'CultureName', { oneOf: CULTURES });
  c.string(op, 'SmsProvider', { oneOf: SMS_PROVIDERS });
  for (const f of ['IsOnDuty', 'UseNumericSender', 'AllowNativeLogin', 'AllowSingleSignon']) c.boolean(op, f);
  const phone = c.number(op, 'OutgoingPhoneNumberId', { integer: true });
  if (phone !== undefined && !OUTGOING_PHONE_NUMBERS.some((n) => n.Id === phone)) c.add(`OutgoingPhoneNumberId ${phone} is not a known number (see GET /OutgoingPhoneNumber).`);
  const tz = c.number(op, 'TimeZoneId', { integer: true });
  if (tz !== undefined && !ctx.store.timezones.some((t) => t['TimezoneId'] === tz)) c.add(`TimeZoneId ${tz} is not a known time zone (see GET /Timezone).`);
  if (email !== undefined) {
    for (const [guid, other] of ctx.store.operators) {
      if (guid !== selfGuid && String(other['Email']).toLowerCase() === email.toLowerCase()) c.add(`Email ${email} is already used by another operator.`);
    }
  }
  c.done();
}

function operatorBody(ctx: RequestContext, body: Obj): Obj {
  const c = new Checker();
  c.pascalKeys(body, ctx.settings.rules);
  c.done();
  const out: Obj = {};
  for (const [k, v] of Object.entries(body)) if (!OPERATOR_READ_ONLY.has(k)) out[k] = v;
  return out;
}

function dropRecipient(report: Obj, field: 'Operators' | 'OperatorGroups', guid: string): void {
  const rc = report['Recipients'];
  if (isObj(rc) && Array.isArray(rc[field])) rc[field] = rc[field].filter((g) => !sameGuid(g, guid));
}

function deleteOperator(ctx: RequestContext): Reply {
  requireAdmin(ctx, 'deleting an operator');
  const guid = ctx.params['operatorGuid'] ?? '';
  findOperator(ctx, guid);
  const k = key(guid);
  if (k === ctx.caller.operatorGuid) {
    throw forbidden('The operator of the API account in use cannot be deleted; use an API account of another administrator.');
  }
  const admins = ctx.store.administratorsGroup();
  if (admins && admins.members.has(k) && admins.members.size === 1) throw badRequest('The last member of the Administrators group cannot be deleted.');
  const s = ctx.store;
  s.operators.remove(k);
  s.apiAccounts.removeWhere((a) => key(a.OperatorGuid) === k);
  s.operatorGroups.updateEach((g) => g.members.delete(k));
  s.dutySchedules.removeWhere((d) => d.ownerKind === 'operator' && d.ownerGuid === k);
  s.vaultAuthorizations.removeWhere((a) => sameGuid(a['OperatorGuid'], k));
  s.monitorViewPermissions.remove(k);
  s.operatorAuthorizations.remove(k);
  s.scheduledReports.updateEach((r) => dropRecipient(r, 'Operators', k));
  return ok();
}

// ---- duty schedules -------------------------------------------------------------------------

const MODES = ['OneTime', 'Daily', 'Weekly', 'Monthly'] as const;
const MODE_FIELDS: Record<(typeof MODES)[number], string[]> = {
  OneTime: ['StartDateTime', 'EndDateTime'],
  Daily: ['StartTime', 'EndTime'],
  Weekly: ['StartTime', 'EndTime', 'WeekDay'],
  Monthly: ['StartTime', 'EndTime', 'MonthDay'],
};
const ALL_MODE_FIELDS = ['StartDateTime', 'EndDateTime', 'StartTime', 'EndTime', 'WeekDay', 'MonthDay'];
const WEEK_DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Only the fields of the mode are accepted (spec: "Only the fields relevant to the mode are sent"). */
function checkSchedule(ctx: RequestContext, body: Obj, id: number): Obj {
  const c = new Checker();
  c.pascalKeys(body, ctx.settings.rules);
  const mode = c.string(body, 'ScheduleMode', { required: true, oneOf: MODES }) as (typeof MODES)[number] | undefined;
  if (body['Id'] !== undefined && body['Id'] !== id) c.add(`Id ${JSON.stringify(body['Id'])} in the body differs from the schedule's Id ${id}.`);
  if (mode === undefined) c.done();
  const wanted = MODE_FIELDS[mode ?? 'Daily'];
  for (const f of ALL_MODE_FIELDS) {
    if (!wanted.includes(f) && body[f] !== undefined && body[f] !== null) c.add(`${f} does not apply to a ${mode} schedule; send only ${wanted.join(', ')}.`);
  }
  const out: Obj = { Id: id, ScheduleMode: mode };
  if (mode === 'OneTime') {
    for (const f of ['StartDateTime', 'EndDateTime']) {
      const v = c.string(body, f, { required: true });
      if (v === undefined) continue;
      const n = normalizeTimestamp(v);
      if (!n) c.add(`${f} "${v}" must be a date-time YYYY-MM-DDTHH:MM:SS.`);
      else out[f] = n;
    }
    if (typeof out['StartDateTime'] === 'string' && typeof out['EndDateTime'] === 'string' && out['StartDateTime'] >= out['EndDateTime']) {
      c.add('StartDateTime must be before EndDateTime.');
    }
  } else {
    out['StartTime'] = c.string(body, 'StartTime', { required: true, pattern: HH_MM, hint: '24-hour HH:mm' });
    out['EndTime'] = c.string(body, 'EndTime', { required: true, pattern: HH_MM, hint: '24-hour HH:mm' });
    if (mode === 'Weekly') out['WeekDay'] = c.string(body, 'WeekDay', { required: true, oneOf: WEEK_DAYS });
    if (mode === 'Monthly') out['MonthDay'] = c.number(body, 'MonthDay', { required: true, integer: true, min: 1, max: 31 });
  }
  c.done();
  for (const [k, v] of Object.entries(body)) if (!(k in out) && !ALL_MODE_FIELDS.includes(k) && k !== 'Id') out[k] = v;
  return out;
}

function schedulesOfOperator(ctx: RequestContext, operatorGuid: string): Obj[] {
  const groups = new Set(ctx.store.groupsOf(operatorGuid).map((g) => key(String(g.fields['OperatorGroupGuid']))));
  const out: Obj[] = [];
  for (const d of ctx.store.dutySchedules.values()) {
    if (d.ownerKind === 'operator' && d.ownerGuid === operatorGuid) out.push(structuredClone(d.fields));
    // A group's schedule applies to every member of the group.
    if (d.ownerKind === 'operatorGroup' && groups.has(d.ownerGuid)) out.push({ ...structuredClone(d.fields), OperatorGroupGuid: d.ownerGuid });
  }
  return out;
}

function addSchedule(ctx: RequestContext, ownerKind: DutyScheduleRec['ownerKind'], ownerGuid: string): Reply {
  const body = requireBody(ctx.body, 'duty schedule');
  const fields = checkSchedule(ctx, body, ctx.store.peekDutyScheduleId());
  const id = ctx.store.nextDutyScheduleId();
  ctx.store.dutySchedules.put(id, { ownerKind, ownerGuid, fields });
  return ok(structuredClone(fields));
}

/**
 * The published route: the schedule is copied onto each current member as an operator schedule of its own (an
 * operator who joins later gets none, and changing or removing a copy is done on each member); 204, no body.
 */
function addScheduleForAllMembers(ctx: RequestContext, g: OperatorGroupRec): Reply {
  const body = requireBody(ctx.body, 'duty schedule');
  checkSchedule(ctx, body, ctx.store.peekDutyScheduleId());
  for (const op of groupMembers(ctx, g)) {
    const id = ctx.store.nextDutyScheduleId();
    ctx.store.dutySchedules.put(id, { ownerKind: 'operator', ownerGuid: key(String(op['OperatorGuid'])), fields: checkSchedule(ctx, body, id) });
  }
  return ok();
}

function findSchedule(ctx: RequestContext, ownerKind: DutyScheduleRec['ownerKind'], ownerGuid: string): DutyScheduleRec {
  const raw = ctx.params['dutyScheduleId'] ?? '';
  const rec = /^\d+$/.test(raw) ? ctx.store.dutySchedules.get(Number(raw)) : undefined;
  if (!rec) throw notFound(`Duty schedule ${raw} does not exist.`);
  if (rec.ownerKind !== ownerKind || rec.ownerGuid !== ownerGuid) {
    if (rec.ownerKind === 'operatorGroup') {
      throw badRequest(`Duty schedule ${raw} belongs to operator group ${rec.ownerGuid}; change it through /OperatorGroup/${rec.ownerGuid}/DutySchedule/${raw}.`);
    }
    throw notFound(`Duty schedule ${raw} does not exist for this ${ownerKind === 'operator' ? 'operator' : 'operator group'}.`);
  }
  return rec;
}

function updateSchedule(ctx: RequestContext, ownerKind: DutyScheduleRec['ownerKind'], ownerGuid: string): Reply {
  const rec = findSchedule(ctx, ownerKind, ownerGuid);
  const fields = checkSchedule(ctx, requireBody(ctx.body, 'duty schedule'), Number(rec.fields['Id']));
  ctx.store.dutySchedules.update(Number(rec.fields['Id']), (d) => {
    d.fields = fields;
  });
  return ok(structuredClone(rec.fields));
}

function deleteSchedule(ctx: RequestContext, ownerKind: DutyScheduleRec['ownerKind'], ownerGuid: string): Reply {
  const rec = findSchedule(ctx, ownerKind, ownerGuid);
  ctx.store.dutySchedules.remove(Number(rec.fields['Id']));
  return ok();
}

// ---- operator groups ------------------------------------------------------------------------

function findGroup(ctx: RequestContext): OperatorGroupRec {
  const guid = ctx.params['operatorGroupGuid'] ?? '';
  const g = ctx.store.operatorGroups.get(key(guid));
  if (!g) throw notFound(`Operator group ${guid} does not exist.`);
  return g;
}

function groupGuid(g: OperatorGroupRec): string {
  return key(String(g.fields['OperatorGroupGuid']));
}

function refuseSystem(g: OperatorGroupRec, what: string): void {
  if (g.fields['IsEveryone'] === true || g.fields['IsAdministratorsGroup'] === true) {
    throw badRequest(`"${String(g.fields['Description'])}" is a system group; ${what} is not possible.`);
  }
}

function checkGroupBody(ctx: RequestContext, body: Obj, pathGuid: string | undefined): Obj {
  const c = new Checker();
  c.pascalKeys(body, ctx.settings.rules);
  c.string(body, 'Description', { required: true });
  if (pathGuid && body['OperatorGroupGuid'] !== undefined && !sameGuid(body['OperatorGroupGuid'], pathGuid)) c.add('OperatorGroupGuid in the body differs from the one in the path.');
  c.done();
  const out: Obj = {};
  for (const [k, v] of Object.entries(body)) if (!['OperatorGroupGuid', 'IsEveryone', 'IsAdministratorsGroup', 'IsAdministratorGroup'].includes(k)) out[k] = v;
  return out;
}

/** Members as whole operators, or as the published `{OperatorGuid}` items. */
function renderMembers(ctx: RequestContext, g: OperatorGroupRec): Obj[] {
  const members = groupMembers(ctx, g);
  if (ctx.settings.rules.memberItems === 'guid') return members.map((o) => ({ OperatorGuid: o['OperatorGuid'] }));
  return members.map((o) => renderOperator(ctx, o));
}

function groupMembers(ctx: RequestContext, g: OperatorGroupRec): Obj[] {
  if (g.fields['IsEveryone'] === true) return [...ctx.store.operators.values()];
  return [...g.members].map((m) => ctx.store.operators.get(m)).filter((o): o is Obj => o !== undefined);
}

const AUTH_TYPE = /^[A-Za-z][A-Za-z0-9]*$/;

function renderAuthorizations(ctx: RequestContext, g: OperatorGroupRec): unknown {
  const list = [...g.authorizations.values()];
  if (ctx.settings.operatorGroupAuthorizationForm === 'announced') return list.map((a) => a.AuthorizationType);
  return list.map((a) => ({ AuthorizationId: a.AuthorizationId, AuthorizationType: a.AuthorizationType, OperatorGroupGuid: g.fields['OperatorGroupGuid'] }));
}

/**
 * Types the published definition lists but marks "not assignable": the service derives them from membership of
 * the Administrators group, so a client's request to assign one is refused (400, as its other invalid input).
 */
const UNASSIGNABLE = new Set(['Administrator', 'AccountAdministrator']);

function checkAssignable(type: unknown): string {
  if (typeof type !== 'string' || !AUTH_TYPE.test(type)) {
    throw badRequest(`AuthorizationType ${JSON.stringify(type)} is not valid (e.g. FinancialOperator, AllowInfra).`);
  }
  if (UNASSIGNABLE.has(type)) {
    throw badRequest(`AuthorizationType ${type} cannot be assigned: it comes with membership of the Administrators group; add the operator to that group instead.`);
  }
  return type;
}

function grant(ctx: RequestContext, g: OperatorGroupRec, requested: unknown): { AuthorizationId: string; AuthorizationType: string } {
  const type = checkAssignable(requested);
  for (const a of g.authorizations.values()) if (a.AuthorizationType === type) return a;
  const a = { AuthorizationId: Store.newGuid(), AuthorizationType: type };
  ctx.store.operatorGroups.update(groupGuid(g), (grp) => grp.authorizations.set(a.AuthorizationId, a));
  return a;
}

/**
 * The types an operator's authorization may have (published definition section 7: the 2022 list and the two the
 * 2026 provider adds). Another name is refused with 400, as the service refuses a value outside its enumeration;
 * the emulator never stores a type the published definition lacks.
 */
const OPERATOR_AUTHORIZATION_TYPES = [
  'AccountAccess',
  'AccountAdministrator',
  'AllowInfra',
  'FinancialOperator',
  'TechnicalContact',
  'ShareDashboards',
  'CreateAlertDefinition',
  'CreateIntegration',
  'CreatePrivateLocations',
  'ManageMonitorTemplates',
];

function checkOperatorType(requested: unknown): string {
  const type = checkAssignable(requested);
  if (!OPERATOR_AUTHORIZATION_TYPES.includes(type)) {
    throw badRequest(`AuthorizationType ${type} is not an operator authorization type; use one of ${OPERATOR_AUTHORIZATION_TYPES.filter((t) => !UNASSIGNABLE.has(t)).join(', ')}.`);
  }
  return type;
}

/** An operator's authorization types: what was assigned (`AccountAccess` from the start), and `AccountAdministrator` while it is an administrator. */
function operatorAuthorizationTypes(ctx: RequestContext, guid: string): string[] {
  const assigned = [...assignedTypes(ctx, guid)];
  return ctx.store.isAdmin(guid) ? ['AccountAdministrator', ...assigned] : assigned;
}

/** The types assigned to an operator, as a set to change; an operator stored before they were kept has `AccountAccess`. */
function assignedTypes(ctx: RequestContext, guid: string): Set<string> {
  return new Set(ctx.store.operatorAuthorizations.get(guid) ?? ['AccountAccess']);
}

function registerOperatorAuthorizationRoutes(router: Router): void {
  const target = (ctx: RequestContext): string => {
    requireAdmin(ctx, 'changing operator authorizations');
    return key(String(findOperator(ctx, ctx.params['operatorGuid'] ?? '')['OperatorGuid']));
  };
  router.add('GET', '/Operator/{operatorGuid}/Authorization', (ctx) => {
    const op = findOperator(ctx, ctx.params['operatorGuid'] ?? '');
    return ok(operatorAuthorizationTypes(ctx, key(String(op['OperatorGuid']))));
  });
  router.add('POST', '/Operator/{operatorGuid}/Authorization/{authorizationType}', (ctx) => {
    const guid = target(ctx);
    const type = checkOperatorType(ctx.params['authorizationType']);
    const set = assignedTypes(ctx, guid);
    set.add(type);
    ctx.store.operatorAuthorizations.put(guid, set);
    return ok(operatorAuthorizationTypes(ctx, guid));
  });
  router.add('DELETE', '/Operator/{operatorGuid}/Authorization/{authorizationType}', (ctx) => {
    const guid = target(ctx);
    const type = checkOperatorType(ctx.params['authorizationType']);
    const set = assignedTypes(ctx, guid);
    if (!set.delete(type)) throw notFound(`Operator ${guid} has no authorization ${type}.`);
    ctx.store.operatorAuthorizations.put(guid, set);
    return ok();
  });
}

// ---- routes ---------------------------------------------------------------------------------

function registerOperatorCrud(router: Router): void {
  router.add('GET', '/Operator', (ctx) => ok([...ctx.store.operators.values()].map((o) => renderOperator(ctx, o))));
  router.add('GET', '/Operator/{operatorGuid}', (ctx) => ok(renderOperator(ctx, findOperator(ctx, ctx.params['operatorGuid'] ?? ''))));
  router.add('POST', '/Operator', (ctx) => {
    requireAdmin(ctx, 'creating an operator');
    const body = applySpecified(ctx, operatorBody(ctx, requireBody(ctx.body, 'operator')), undefined);
    const guid = Store.newGuid();
    const published = ctx.settings.rules.operatorFields === 'published';
    const op: Obj = {
      OperatorGuid: guid,
      Email: body['Email'],
      FullName: '',
      MobilePhone: '',
      ...(published ? {} : { OutgoingPhoneNumber: '', PhoneProvider: 'UseAccountSetting' }),
      BackupEmail: '',
      IsOnDuty: true,
      CultureName: '',
      SmsProvider: 'UseAccountSetting',
      UseNumericSender: false,
      ...body,
    };
    checkOperator(ctx, op, undefined);
    op['UserName'] = op['Email'];
    ctx.store.operators.put(guid, op);
    // The service gives every new operator access to the account (the published definition, section 7).
    ctx.store.operatorAuthorizations.put(key(guid), new Set(['AccountAccess']));
    return ok(renderOperator(ctx, op));
  });
  router.add('PUT', '/Operator/{operatorGuid}', (ctx) => {
    requireAdmin(ctx, 'changing an operator');
    const guid = ctx.params['operatorGuid'] ?? '';
    const existing = findOperator(ctx, guid);
    const raw = requireBody(ctx.body, 'operator');
    if (raw['OperatorGuid'] !== undefined && !sameGuid(raw['OperatorGuid'], guid)) throw badRequest('OperatorGuid in the body differs from the one in the path.');
    const body = applySpecified(ctx, operatorBody(ctx, raw), existing);
    const op: Obj = { OperatorGuid: existing['OperatorGuid'], ...body };
    // The password is write-only: leaving it out keeps it.
    if (op['Password'] === undefined || op['Password'] === null || op['Password'] === '') {
      if (existing['Password'] !== undefined) op['Password'] = existing['Password'];
      else delete op['Password'];
    }
    checkOperator(ctx, op, key(guid));
    op['UserName'] = op['Email'];
    ctx.store.operators.put(key(guid), op);
    return ok(renderOperator(ctx, op));
  });
  router.add('DELETE', '/Operator/{operatorGuid}', deleteOperator);
  router.add('GET', '/OutgoingPhoneNumber', () => ok(structuredClone(OUTGOING_PHONE_NUMBERS)));
}

function registerDutyScheduleRoutes(router: Router): void {
  router.add('GET', '/Operator/{operatorGuid}/DutySchedule', (ctx) => {
    const op = findOperator(ctx, ctx.params['operatorGuid'] ?? '');
    return ok(schedulesOfOperator(ctx, key(String(op['OperatorGuid']))));
  });
  const opOwner = (ctx: RequestContext): string => {
    requireAdmin(ctx, 'changing duty schedules');
    return key(String(findOperator(ctx, ctx.params['operatorGuid'] ?? '')['OperatorGuid']));
  };
  router.add('POST', '/Operator/{operatorGuid}/DutySchedule', (ctx) => addSchedule(ctx, 'operator', opOwner(ctx)));
  router.add('PUT', '/Operator/{operatorGuid}/DutySchedule/{dutyScheduleId}', (ctx) => updateSchedule(ctx, 'operator', opOwner(ctx)));
  router.add('DELETE', '/Operator/{operatorGuid}/DutySchedule/{dutyScheduleId}', (ctx) => deleteSchedule(ctx, 'operator', opOwner(ctx)));
}

function registerOperatorGroupRoutes(router: Router): void {
  router.add('GET', '/OperatorGroup', (ctx) => ok([...ctx.store.operatorGroups.values()].map((g) => structuredClone(g.fields))));
  router.add('GET', '/OperatorGroup/{operatorGroupGuid}', (ctx) => ok(structuredClone(findGroup(ctx).fields)));
  router.add('POST', '/OperatorGroup', (ctx) => {
    requireAdmin(ctx, 'creating an operator group');
    const body = checkGroupBody(ctx, requireBody(ctx.body, 'operator group'), undefined);
    const guid = Store.newGuid();
    const g: OperatorGroupRec = {
      fields: { OperatorGroupGuid: guid, Description: body['Description'], IsEveryone: false, IsAdministratorsGroup: false, ...body },
      members: new Set(),
      authorizations: new Map(),
    };
    ctx.store.operatorGroups.put(guid, g);
    return ok(structuredClone(g.fields));
  });
  router.add('PUT', '/OperatorGroup/{operatorGroupGuid}', (ctx) => {
    requireAdmin(ctx, 'changing an operator group');
    const g = findGroup(ctx);
    // The spec states no rule against renaming a system group; the strict profile refuses it.
    if (ctx.settings.rules.refuseSystemGroupRename) refuseSystem(g, 'changing it');
    const body = checkGroupBody(ctx, requireBody(ctx.body, 'operator group'), groupGuid(g));
    ctx.store.operatorGroups.update(groupGuid(g), (grp) => {
      const { OperatorGroupGuid, IsEveryone, IsAdministratorsGroup } = grp.fields;
      grp.fields = { OperatorGroupGuid, Description: body['Description'], IsEveryone, IsAdministratorsGroup, ...body };
    });
    return ok(structuredClone(g.fields));
  });
  router.add('DELETE', '/OperatorGroup/{operatorGroupGuid}', (ctx) => {
    requireAdmin(ctx, 'deleting an operator group');
    const g = findGroup(ctx);
    refuseSystem(g, 'deleting it');
    const guid = groupGuid(g);
    const s = ctx.store;
    s.operatorGroups.remove(guid);
    s.dutySchedules.removeWhere((d) => d.ownerKind === 'operatorGroup' && d.ownerGuid === guid);
    s.vaultAuthorizations.removeWhere((a) => sameGuid(a['OperatorGroupId'], guid));
    s.scheduledReports.updateEach((r) => dropRecipient(r, 'OperatorGroups', guid));
    return ok();
  });
  router.add('GET', '/OperatorGroup/{operatorGroupGuid}/Member', (ctx) => ok(renderMembers(ctx, findGroup(ctx))));
  router.add('POST', '/OperatorGroup/{operatorGroupGuid}/Member/{operatorGuid}', (ctx) => {
    requireAdmin(ctx, 'changing operator group membership');
    const g = findGroup(ctx);
    if (g.fields['IsEveryone'] === true) throw badRequest('Everyone holds every operator automatically; its membership cannot be changed.');
    const op = findOperator(ctx, ctx.params['operatorGuid'] ?? '');
    ctx.store.operatorGroups.update(groupGuid(g), (grp) => grp.members.add(key(String(op['OperatorGuid']))));
    return ok();
  });
  router.add('DELETE', '/OperatorGroup/{operatorGroupGuid}/Member/{operatorGuid}', (ctx) => {
    requireAdmin(ctx, 'changing operator group membership');
    const g = findGroup(ctx);
    if (g.fields['IsEveryone'] === true) throw badRequest('Everyone holds every operator automatically; its membership cannot be changed.');
    const op = findOperator(ctx, ctx.params['operatorGuid'] ?? '');
    const k = key(String(op['OperatorGuid']));
    if (!g.members.has(k)) throw notFound(`Operator ${k} is not a member of "${String(g.fields['Description'])}".`);
    if (g.fields['IsAdministratorsGroup'] === true && g.members.size === 1) throw badRequest('The Administrators group must keep at least one member.');
    ctx.store.operatorGroups.update(groupGuid(g), (grp) => grp.members.delete(k));
    return ok();
  });
  const groupOwner = (ctx: RequestContext): string => {
    requireAdmin(ctx, 'changing duty schedules');
    return groupGuid(findGroup(ctx));
  };
  router.add('POST', '/OperatorGroup/{operatorGroupGuid}/DutySchedule', (ctx) => addSchedule(ctx, 'operatorGroup', groupOwner(ctx)));
  router.add('POST', '/OperatorGroup/{operatorGroupGuid}/DutySchedule/AddDutyScheduleForAllMembers', (ctx) => {
    requireAdmin(ctx, 'changing duty schedules');
    return addScheduleForAllMembers(ctx, findGroup(ctx));
  });
  router.add('PUT', '/OperatorGroup/{operatorGroupGuid}/DutySchedule/{dutyScheduleId}', (ctx) => updateSchedule(ctx, 'operatorGroup', groupOwner(ctx)));
  router.add('DELETE', '/OperatorGroup/{operatorGroupGuid}/DutySchedule/{dutyScheduleId}', (ctx) => deleteSchedule(ctx, 'operatorGroup', groupOwner(ctx)));
}

function registerGroupAuthorizationRoutes(router: Router): void {
  router.add('GET', '/OperatorGroup/{operatorGroupGuid}/Authorization', (ctx) => ok(renderAuthorizations(ctx, findGroup(ctx))));
  router.add('POST', '/OperatorGroup/{operatorGroupGuid}/Authorization', (ctx) => {
    requireAdmin(ctx, 'changing operator group authorizations');
    const g = findGroup(ctx);
    const body = requireBody(ctx.body, 'authorization');
    const a = grant(ctx, g, body['AuthorizationType']);
    return ok({ AuthorizationId: a.AuthorizationId, AuthorizationType: a.AuthorizationType, OperatorGroupGuid: g.fields['OperatorGroupGuid'] });
  });
  router.add('POST', '/OperatorGroup/{operatorGroupGuid}/Authorization/{authorizationType}', (ctx) => {
    requireAdmin(ctx, 'changing operator group authorizations');
    const g = findGroup(ctx);
    grant(ctx, g, ctx.params['authorizationType']);
    return ok([...g.authorizations.values()].map((a) => a.AuthorizationType));
  });
  router.add('DELETE', '/OperatorGroup/{operatorGroupGuid}/Authorization/{authorization}', (ctx) => {
    requireAdmin(ctx, 'changing operator group authorizations');
    const g = findGroup(ctx);
    const ref = ctx.params['authorization'] ?? '';
    // Legacy form: an authorization id; announced form: the authorization type name.
    let id = g.authorizations.has(key(ref)) ? key(ref) : undefined;
    if (id === undefined) for (const a of g.authorizations.values()) if (a.AuthorizationType === ref) id = a.AuthorizationId;
    if (id === undefined) throw notFound(`Operator group "${String(g.fields['Description'])}" has no authorization ${ref}.`);
    const removed = id;
    ctx.store.operatorGroups.update(groupGuid(g), (grp) => grp.authorizations.delete(removed));
    return ok();
  });
}

export function registerOperatorRoutes(router: Router): void {
  registerOperatorCrud(router);
  registerDutyScheduleRoutes(router);
  registerOperatorGroupRoutes(router);
  registerGroupAuthorizationRoutes(router);
  registerOperatorAuthorizationRoutes(router);
}
