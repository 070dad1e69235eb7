/**
 * Alert definitions as the published definition (D22) and the vendor's 2026 provider (P26) have them: full CRUD, the
 * monitors and groups a definition covers, its fixed escalation levels (as many as the account has), the operators
 * and groups of each level, the integrations attached to a level, and `/Authorizations`. Where the sources are silent
 * (duplicate member adds, removing a non-member, attaching an integration twice) the strict profile refuses and the
 * others treat it as done, so a client has to cope with both.
 */
import { badRequest, notFound } from '../errors.js';
import type { Reply, RequestContext, Router } from '../router.js';
import { Store, type AlertDefinitionRec, type EscalationLevelRec, type LevelIntegrationRec } from '../store.js';
import { Checker, isObj, requireBody, sameGuid, type Obj } from '../validate.js';
import { key, noContent, ok, requireAdmin } from './common.js';

const ONE = '/AlertDefinition/{alertDefinitionGuid}';
const LEVEL = `${ONE}/EscalationLevel/{escalationLevelId}`;
const LINKS = `${LEVEL}/Integration`;
const ESCALATION_MODES = ['AlertOnErrorCount', 'AlertOnErrorDuration'];
const LEVEL_FIELDS = ['EscalationMode', 'ThresholdErrorCount', 'ThresholdMinutes', 'IsActive', 'Message', 'NumberOfReminders', 'ReminderDelay', 'IncludeTraceRoute'] as const;
/** Settings of an attached integration that GET does not return (P26). */
const WRITE_ONLY = ['IsActive', 'SendOkAlerts', 'SendReminderAlerts'];

/**
 * What a level holds before anyone edits it. No source documents the service's defaults (P26 reads the levels back
 * after a create), so these are one plausible reading: level 1 active after 1 error, the others inactive.
 */
export function defaultLevelFields(id: number): Obj {
  return { EscalationMode: 'AlertOnErrorCount', ThresholdErrorCount: id, ThresholdMinutes: 15 * id, IsActive: id === 1, Message: '', NumberOfReminders: 0, ReminderDelay: 30, IncludeTraceRoute: false };
}

export function newLevels(count: number): EscalationLevelRec[] {
  return Array.from({ length: count }, (_, i) => ({ Id: i + 1, fields: defaultLevelFields(i + 1), members: [], integrations: [] }));
}

function find(ctx: RequestContext): AlertDefinitionRec {
  const guid = ctx.params['alertDefinitionGuid'] ?? '';
  const def = ctx.store.alertDefinitions.get(key(guid));
  if (!def) throw notFound(`Alert definition ${guid} does not exist.`);
  return def;
}

const defKey = (ctx: RequestContext): string => key(ctx.params['alertDefinitionGuid'] ?? '');

/** Older states named a definition by `Description`; the published definition calls it `AlertName`. */
function render(def: AlertDefinitionRec): Obj {
  return { AlertDefinitionGuid: def.fields['AlertDefinitionGuid'], AlertName: def.fields['AlertName'] ?? def.fields['Description'] ?? '', IsActive: def.fields['IsActive'] };
}

function level(ctx: RequestContext, def: AlertDefinitionRec): EscalationLevelRec {
  const raw = ctx.params['escalationLevelId'] ?? '';
  const lvl = def.escalationLevels.find((l) => String(l.Id) === raw);
  if (!lvl) throw notFound(`Escalation level ${raw} does not exist on alert definition ${String(def.fields['AlertDefinitionGuid'])}: the account has levels 1 to ${def.escalationLevels.length}.`);
  return lvl;
}

const renderLevel = (lvl: EscalationLevelRec): Obj => ({ Id: lvl.Id, ...(lvl.fields ?? defaultLevelFields(lvl.Id)) });

function definitionBody(ctx: RequestContext, body: Obj, mode: 'create' | 'replace' | 'patch'): { name?: string; active?: boolean } {
  const c = new Checker();
  c.pascalKeys(body, ctx.settings.rules);
  if (ctx.settings.rules.alertDefinitionKnownFieldsOnly) {
    for (const k of Object.keys(body)) if (!['AlertDefinitionGuid', 'IsActive', 'AlertName', 'Hash'].includes(k)) c.add(`${k} is not a field of an alert definition.`);
  }
  const name = c.string(body, 'AlertName', { required: mode === 'create', nonEmpty: true });
  const active = c.boolean(body, 'IsActive', { required: mode === 'replace' });
  if (mode === 'replace') c.string(body, 'AlertDefinitionGuid', { required: true });
  const guid = ctx.params['alertDefinitionGuid'];
  if (guid !== undefined && typeof body['AlertDefinitionGuid'] === 'string' && !sameGuid(body['AlertDefinitionGuid'], guid)) {
    c.add(`AlertDefinitionGuid in the body (${body['AlertDefinitionGuid']}) must equal the one in the path (${guid}).`);
  }
  c.done();
  return { ...(name === undefined ? {} : { name }), ...(active === undefined ? {} : { active }) };
}

function registerDefinitions(router: Router): void {
  router.add('GET', '/AlertDefinition', (ctx) => ok([...ctx.store.alertDefinitions.values()].map(render)));
  router.add('GET', ONE, (ctx) => ok(render(find(ctx))));
  router.add('POST', '/AlertDefinition', (ctx) => {
    requireAdmin(ctx, 'creating an alert definition');
    const { name, active } = definitionBody(ctx, requireBody(ctx.body, 'alert definition'), 'create');
    const guid = Store.newGuid();
    const def: AlertDefinitionRec = { fields: { AlertDefinitionGuid: guid, AlertName: name, IsActive: active ?? true }, escalationLevels: newLevels(ctx.store.escalationLevelCount), members: [], authorizations: [] };
    ctx.store.alertDefinitions.put(guid, def);
    return ok(render(def));
  });
  const update = (mode: 'replace' | 'patch') => (ctx: RequestContext): Reply => {
    requireAdmin(ctx, 'changing an alert definition');
    find(ctx);
    const { name, active } = definitionBody(ctx, requireBody(ctx.body, 'alert definition'), mode);
    ctx.store.alertDefinitions.update(defKey(ctx), (d) => {
      if (active !== undefined) d.fields['IsActive'] = active;
      if (name !== undefined) {
        d.fields['AlertName'] = name;
        delete d.fields['Description'];
      }
    });
    return ok(render(find(ctx)));
  };
  router.add('PUT', ONE, update('replace'));
  router.add('PATCH', ONE, update('patch'));
  router.add('DELETE', ONE, (ctx) => {
    requireAdmin(ctx, 'deleting an alert definition');
    find(ctx);
    ctx.store.alertDefinitions.remove(defKey(ctx));
    return noContent();
  });
}

/** Members are identified by their path: `{g}/Member/Monitor/{guid}`, `.../Member/OperatorGroup/{guid}` and so on. */
interface MemberKind {
  /** The path segment and the name of the reply field. */
  segment: 'Monitor' | 'MonitorGroup' | 'Operator' | 'OperatorGroup';
  field: string;
  exists(ctx: RequestContext, guid: string): boolean;
}

const MEMBER_KINDS: Record<MemberKind['segment'], MemberKind> = {
  Monitor: { segment: 'Monitor', field: 'MonitorGuid', exists: (ctx, g) => ctx.store.monitors.has(key(g)) },
  MonitorGroup: { segment: 'MonitorGroup', field: 'MonitorGroupGuid', exists: (ctx, g) => ctx.store.monitorGroups.get(key(g))?.fields['IsAll'] !== true && ctx.store.monitorGroups.has(key(g)) },
  Operator: { segment: 'Operator', field: 'OperatorGuid', exists: (ctx, g) => ctx.store.operators.has(key(g)) },
  OperatorGroup: { segment: 'OperatorGroup', field: 'OperatorGroupGuid', exists: (ctx, g) => ctx.store.operatorGroups.has(key(g)) },
};

/** A member whose object was deleted since is not listed (the service drops such links with the object). */
function liveMembers(ctx: RequestContext, members: readonly Obj[] | undefined): Obj[] {
  return (members ?? []).filter((m) => Object.values(MEMBER_KINDS).some((k) => typeof m[k.field] === 'string' && k.exists(ctx, m[k.field] as string))).map((m) => ({ ...m }));
}

/** POST and DELETE of one member; `list` finds the member list to change inside the definition being updated. */
function memberRoutes(router: Router, base: string, kind: MemberKind, list: (def: AlertDefinitionRec, ctx: RequestContext) => Obj[], reply: (ctx: RequestContext, guid: string) => Obj): void {
  const route = `${base}/Member/${kind.segment}/{memberGuid}`;
  router.add('POST', route, (ctx) => {
    requireAdmin(ctx, 'changing the members of an alert definition');
    const def = find(ctx);
    list(def, ctx);
    const guid = ctx.params['memberGuid'] ?? '';
    if (!kind.exists(ctx, guid)) throw notFound(`${kind.segment} ${guid} does not exist.`);
    const already = list(def, ctx).some((m) => sameGuid(m[kind.field], guid));
    if (already && ctx.settings.rules.alertDefinitionKnownFieldsOnly) throw badRequest(`${kind.segment} ${guid} is already a member.`);
    if (!already) ctx.store.alertDefinitions.update(defKey(ctx), (d) => list(d, ctx).push({ [kind.field]: guid }));
    return ok(reply(ctx, guid));
  });
  router.add('DELETE', route, (ctx) => {
    requireAdmin(ctx, 'changing the members of an alert definition');
    const def = find(ctx);
    const guid = ctx.params['memberGuid'] ?? '';
    const at = list(def, ctx).findIndex((m) => sameGuid(m[kind.field], guid));
    if (at < 0) {
      if (ctx.settings.rules.alertDefinitionKnownFieldsOnly) throw notFound(`${kind.segment} ${guid} is not a member.`);
      return noContent();
    }
    ctx.store.alertDefinitions.update(defKey(ctx), (d) => list(d, ctx).splice(at, 1));
    return noContent();
  });
}

const definitionMembers = (def: AlertDefinitionRec): Obj[] => (def.members ??= []);
const levelMembers = (def: AlertDefinitionRec, ctx: RequestContext): Obj[] => (level(ctx, def).members ??= []);

function registerMembers(router: Router): void {
  router.add('GET', `${ONE}/Member`, (ctx) => ok(liveMembers(ctx, find(ctx).members)));
  for (const kind of [MEMBER_KINDS.Monitor, MEMBER_KINDS.MonitorGroup]) {
    memberRoutes(router, ONE, kind, definitionMembers, (ctx, guid) => ({ AlertDefinition: ctx.params['alertDefinitionGuid'], [kind.segment]: guid }));
  }
  router.add('GET', `${LEVEL}/Member`, (ctx) => ok(liveMembers(ctx, level(ctx, find(ctx)).members)));
  for (const kind of [MEMBER_KINDS.Operator, MEMBER_KINDS.OperatorGroup]) {
    // The published answer spells the level `Escalationlevel`, with a lower-case l.
    memberRoutes(router, LEVEL, kind, levelMembers, (ctx, guid) => ({ AlertDefinition: ctx.params['alertDefinitionGuid'], Escalationlevel: Number(ctx.params['escalationLevelId']), [kind.segment]: guid }));
  }
}

/** A complete level (D22: PUT and PATCH "only accept a complete" level); the lean profile also takes a partial PATCH. */
function levelBody(ctx: RequestContext, lvl: EscalationLevelRec, complete: boolean): Obj {
  const body = requireBody(ctx.body, 'escalation level');
  const c = new Checker();
  c.pascalKeys(body, ctx.settings.rules);
  const id = c.number(body, 'Id', { integer: true });
  if (id !== undefined && id !== lvl.Id) c.add(`Id in the body (${id}) must equal the level in the path (${lvl.Id}).`);
  const out: Obj = {};
  const take = (field: string, value: unknown): void => {
    if (value !== undefined) out[field] = value;
  };
  take('EscalationMode', c.string(body, 'EscalationMode', { required: complete, oneOf: ESCALATION_MODES }));
  for (const f of ['ThresholdErrorCount', 'ThresholdMinutes', 'NumberOfReminders', 'ReminderDelay']) take(f, c.number(body, f, { required: complete, integer: true, min: 0 }));
  for (const f of ['IsActive', 'IncludeTraceRoute']) take(f, c.boolean(body, f, { required: complete }));
  const message = body['Message'];
  if (message !== undefined && message !== null && typeof message !== 'string') c.add('Message must be a string.');
  else if (typeof message === 'string') out['Message'] = message;
  else if (complete) out['Message'] = '';
  if (ctx.settings.rules.alertDefinitionKnownFieldsOnly) {
    for (const k of Object.keys(body)) if (k !== 'Id' && k !== 'Hash' && !(LEVEL_FIELDS as readonly string[]).includes(k)) c.add(`${k} is not a field of an escalation level.`);
  }
  c.done();
  return out;
}

function registerLevels(router: Router): void {
  router.add('GET', `${ONE}/EscalationLevel`, (ctx) => ok(find(ctx).escalationLevels.map(renderLevel)));
  router.add('GET', LEVEL, (ctx) => ok(renderLevel(level(ctx, find(ctx)))));
  const update = (complete: (ctx: RequestContext) => boolean) => (ctx: RequestContext): Reply => {
    requireAdmin(ctx, 'changing an escalation level');
    const lvl = level(ctx, find(ctx));
    const fields = levelBody(ctx, lvl, complete(ctx));
    ctx.store.alertDefinitions.update(defKey(ctx), (d) => {
      const target = d.escalationLevels.find((l) => l.Id === lvl.Id);
      if (target) target.fields = { ...(target.fields ?? defaultLevelFields(target.Id)), ...fields };
    });
    return noContent();
  };
  router.add('PUT', LEVEL, update(() => true));
  router.add('PATCH', LEVEL, update((ctx) => !ctx.settings.rules.partialLevelPatch));
  // Levels are fixed: they are created with the definition and never created or deleted on their own.
}

function integrationOf(ctx: RequestContext, guid: string): Obj {
  const integration = ctx.store.integrations.get(key(guid));
  if (!integration) throw badRequest(`Integration ${guid} does not exist.`);
  return integration;
}

/** The type rules of P26's docs, and the `*Specified` flags the published profile honours. */
function linkBody(ctx: RequestContext, body: Obj, integration: Obj, mode: 'create' | 'update'): Obj {
  const rules = ctx.settings.rules;
  const c = new Checker();
  c.pascalKeys(body, rules);
  const type = String(integration['Type'] ?? '');
  const out: Obj = {};
  // P26 says these three are required on POST.
  const required = mode === 'create' && (rules.alertDefinitionKnownFieldsOnly || rules.operatorFields === 'published');
  for (const f of WRITE_ONLY) {
    const value = c.boolean(body, f, { required });
    if (value !== undefined) out[f] = value;
  }
  if (out['SendOkAlerts'] === true && (type === 'Phone' || type === 'GenericWebhook')) c.add(`SendOkAlerts must be false for a ${type} integration.`);
  if (out['SendReminderAlerts'] === true && type === 'GenericWebhook') c.add('SendReminderAlerts must be false for a GenericWebhook integration.');
  const honoured = (field: string): boolean => body[field] !== undefined && (rules.operatorFields !== 'published' || body[`${field}Specified`] === true);
  if (honoured('ExtraEmailAddresses')) {
    const list = body['ExtraEmailAddresses'];
    if (type !== 'Email') c.add(`ExtraEmailAddresses is refused by a ${type} integration (Email only).`);
    else if (!Array.isArray(list) || !list.every((e) => typeof e === 'string')) c.add('ExtraEmailAddresses must be an array of strings.');
    else out['ExtraEmailAddresses'] = list;
  }
  if (honoured('StatusHubServiceList')) {
    if (type !== 'Statushub') c.add(`StatusHubServiceList is refused by a ${type} integration (Statushub only).`);
    else if (!Array.isArray(body['StatusHubServiceList'])) c.add('StatusHubServiceList must be an array.');
    else out['StatusHubServiceList'] = body['StatusHubServiceList'];
  }
  const vars = body['VariableValues'];
  if (vars !== undefined && vars !== null) {
    if (!isObj(vars) || !Object.values(vars).every((v) => typeof v === 'string')) c.add('VariableValues must be an object mapping variable names to strings.');
    else if (Object.keys(vars).length > 0 && integration['AllowsEscalationLevelVariables'] !== true) c.add(`Integration "${String(integration['Name'])}" does not allow variables to be set at escalation level.`);
    else out['VariableValues'] = { ...vars };
  }
  c.done();
  return out;
}

/** Read back without the write-only settings; `ExtraEmailAddresses` as one comma-separated string, except in strict. */
function renderLink(ctx: RequestContext, link: LevelIntegrationRec): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(link)) if (!WRITE_ONLY.includes(k)) out[k] = structuredClone(v);
  if (Array.isArray(out['ExtraEmailAddresses']) && !ctx.settings.rules.alertDefinitionKnownFieldsOnly) out['ExtraEmailAddresses'] = (out['ExtraEmailAddresses'] as string[]).join(',');
  return out;
}

function registerLinks(router: Router): void {
  router.add('GET', LINKS, (ctx) => ok(level(ctx, find(ctx)).integrations.map((l) => renderLink(ctx, l))));
  router.add('POST', LINKS, (ctx) => {
    requireAdmin(ctx, 'attaching integrations');
    const lvl = level(ctx, find(ctx));
    const body = requireBody(ctx.body, 'escalation-level integration');
    const guid = new Checker();
    const id = guid.string(body, 'IntegrationGuid', { required: true });
    guid.done();
    const integration = integrationOf(ctx, id ?? '');
    const entry: LevelIntegrationRec = { IntegrationGuid: String(integration['IntegrationGuid']), ...linkBody(ctx, body, integration, 'create') };
    const at = lvl.integrations.findIndex((i) => sameGuid(i.IntegrationGuid, entry.IntegrationGuid));
    if (at >= 0 && ctx.settings.rules.alertDefinitionKnownFieldsOnly) throw badRequest(`Integration "${String(integration['Name'])}" is already attached to escalation level ${lvl.Id}.`);
    ctx.store.alertDefinitions.update(defKey(ctx), () => {
      if (at >= 0) lvl.integrations[at] = entry;
      else lvl.integrations.push(entry);
    });
    return ok({ IntegrationGuid: entry.IntegrationGuid, Name: integration['Name'], Type: integration['Type'] });
  });
  const attached = (ctx: RequestContext): { lvl: EscalationLevelRec; at: number } => {
    const lvl = level(ctx, find(ctx));
    const guid = ctx.params['integrationGuid'] ?? '';
    const at = lvl.integrations.findIndex((i) => sameGuid(i.IntegrationGuid, guid));
    if (at < 0) throw notFound(`Integration ${guid} is not attached to escalation level ${lvl.Id}.`);
    return { lvl, at };
  };
  router.add('GET', `${LINKS}/{integrationGuid}`, (ctx) => {
    const { lvl, at } = attached(ctx);
    return ok(renderLink(ctx, lvl.integrations[at] as LevelIntegrationRec));
  });
  const update = (mode: 'replace' | 'patch') => (ctx: RequestContext): Reply => {
    requireAdmin(ctx, 'changing an attached integration');
    const { lvl, at } = attached(ctx);
    const current = lvl.integrations[at] as LevelIntegrationRec;
    const fields = linkBody(ctx, requireBody(ctx.body, 'escalation-level integration'), integrationOf(ctx, current.IntegrationGuid), 'update');
    ctx.store.alertDefinitions.update(defKey(ctx), () => {
      lvl.integrations[at] = { ...(mode === 'patch' ? current : {}), ...fields, IntegrationGuid: current.IntegrationGuid };
    });
    return noContent();
  };
  router.add('PUT', `${LINKS}/{integrationGuid}`, update('replace'));
  router.add('PATCH', `${LINKS}/{integrationGuid}`, update('patch'));
  router.add('DELETE', `${LINKS}/{integrationGuid}`, (ctx) => {
    requireAdmin(ctx, 'detaching integrations');
    const { lvl, at } = attached(ctx);
    ctx.store.alertDefinitions.update(defKey(ctx), () => lvl.integrations.splice(at, 1));
    return noContent();
  });
}

/** `GET /Integration`: the fields D22 lists; `ExtraEmailAddresses` is one comma-separated string there. */
function renderIntegration(integration: Obj): Obj {
  const out: Obj = { IntegrationGuid: integration['IntegrationGuid'], Name: integration['Name'], Type: integration['Type'] };
  if (Array.isArray(integration['ExtraEmailAddresses'])) out['ExtraEmailAddresses'] = (integration['ExtraEmailAddresses'] as string[]).join(',');
  return out;
}

function registerAuthorizations(router: Router): void {
  const route = `${ONE}/Authorizations`;
  router.add('GET', route, (ctx) => ok(structuredClone(find(ctx).authorizations ?? [])));
  router.add('POST', route, (ctx) => {
    requireAdmin(ctx, 'granting alert definition authorizations');
    find(ctx);
    const body = requireBody(ctx.body, 'alert definition authorization');
    const c = new Checker();
    c.pascalKeys(body, ctx.settings.rules);
    c.string(body, 'AuthorizationType', { required: true, oneOf: ['EditAlertDefinition'] });
    const operator = c.string(body, 'OperatorGuid');
    const group = c.string(body, 'OperatorGroupGuid');
    if ((operator === undefined) === (group === undefined)) c.add('Give one of OperatorGuid and OperatorGroupGuid.');
    if (operator !== undefined && !MEMBER_KINDS.Operator.exists(ctx, operator)) c.add(`Operator ${operator} does not exist.`);
    if (group !== undefined && !MEMBER_KINDS.OperatorGroup.exists(ctx, group)) c.add(`Operator group ${group} does not exist.`);
    c.done();
    const entry: Obj = { AuthorizationId: Store.newGuid(), AuthorizationType: 'EditAlertDefinition', ...(operator === undefined ? { OperatorGroupGuid: group } : { OperatorGuid: operator }) };
    ctx.store.alertDefinitions.update(defKey(ctx), (d) => (d.authorizations ??= []).push(entry));
    // D22: answered 200 with the definition's authorizations.
    return ok(structuredClone(find(ctx).authorizations ?? []));
  });
  router.add('DELETE', `${route}/{authorizationGuid}`, (ctx) => {
    requireAdmin(ctx, 'removing alert definition authorizations');
    const def = find(ctx);
    const id = ctx.params['authorizationGuid'] ?? '';
    const at = (def.authorizations ?? []).findIndex((a) => sameGuid(a['AuthorizationId'], id));
    if (at < 0) throw notFound(`Authorization ${id} does not exist on this alert definition.`);
    ctx.store.alertDefinitions.update(defKey(ctx), (d) => d.authorizations?.splice(at, 1));
    return noContent();
  });
}

export function registerAlertDefinitionRoutes(router: Router): void {
  registerDefinitions(router);
  registerMembers(router);
  registerLevels(router);
  registerLinks(router);
  registerAuthorizations(router);
  router.add('GET', '/Integration', (ctx) => ok([...ctx.store.integrations.values()].map(renderIntegration)));
}
