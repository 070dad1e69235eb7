import { badRequest, notFound } from '../errors.js';
import type { Reply, RequestContext, Router } from '../router.js';
import { Store, type AlertDefinitionRec, type EscalationLevelRec } from '../store.js';
import { Checker, isObj, requireBody, sameGuid } from '../validate.js';
import { key, noContent, ok, requireAdmin } from './common.js';

function find(ctx: RequestContext): AlertDefinitionRec {
  const guid = ctx.params['alertDefinitionGuid'] ?? '';
  const def = ctx.store.alertDefinitions.get(key(guid));
  if (!def) throw notFound(`Alert definition ${guid} does not exist.`);
  return def;
}

const defKey = (ctx: RequestContext): string => key(ctx.params['alertDefinitionGuid'] ?? '');

/** The seeded definitions carry their name as `Description`; the published definition calls it `AlertName`. */
function render(def: AlertDefinitionRec): { AlertDefinitionGuid: unknown; AlertName: unknown; IsActive: unknown } {
  return { AlertDefinitionGuid: def.fields['AlertDefinitionGuid'], AlertName: def.fields['AlertName'] ?? def.fields['Description'] ?? '', IsActive: def.fields['IsActive'] };
}

/** Create, list and delete: the spec supports activation only, the published definition full CRUD (its DISAGREE row). */
function registerCrud(router: Router): void {
  router.add('GET', '/AlertDefinition', (ctx) => ok([...ctx.store.alertDefinitions.values()].map(render)));
  router.add('GET', '/AlertDefinition/{alertDefinitionGuid}', (ctx) => ok(render(find(ctx))));
  router.add('POST', '/AlertDefinition', (ctx) => {
    requireAdmin(ctx, 'creating an alert definition');
    const body = requireBody(ctx.body, 'alert definition');
    const c = new Checker();
    c.pascalKeys(body, ctx.settings.rules);
    const name = c.string(body, 'AlertName', { required: true });
    const active = c.boolean(body, 'IsActive');
    c.done();
    const guid = Store.newGuid();
    const def: AlertDefinitionRec = { fields: { AlertDefinitionGuid: guid, AlertName: name, IsActive: active ?? true }, escalationLevels: [1, 2, 3, 4].map((Id) => ({ Id, integrations: [] })) };
    ctx.store.alertDefinitions.put(guid, def);
    return ok(render(def));
  });
  router.add('DELETE', '/AlertDefinition/{alertDefinitionGuid}', (ctx) => {
    requireAdmin(ctx, 'deleting an alert definition');
    find(ctx);
    ctx.store.alertDefinitions.remove(defKey(ctx));
    return noContent();
  });
}

function setActive(mode: 'replace' | 'patch') {
  return (ctx: RequestContext): Reply => {
    requireAdmin(ctx, 'activating or deactivating an alert definition');
    const def = find(ctx);
    const guid = ctx.params['alertDefinitionGuid'] ?? '';
    const body = requireBody(ctx.body, 'alert definition');
    const c = new Checker();
    c.pascalKeys(body, ctx.settings.rules);
    // Only activation is supported; the spec does not say that other fields are refused, so only the strict profile does.
    if (ctx.settings.rules.alertDefinitionKnownFieldsOnly) {
      for (const k of Object.keys(body)) if (!['AlertDefinitionGuid', 'IsActive', 'AlertName'].includes(k)) c.add(`${k} cannot be changed: only IsActive is supported.`);
    }
    if (mode === 'replace') {
      c.string(body, 'AlertDefinitionGuid', { required: true });
      c.boolean(body, 'IsActive', { required: true });
    } else {
      c.boolean(body, 'IsActive');
    }
    if (typeof body['AlertDefinitionGuid'] === 'string' && !sameGuid(body['AlertDefinitionGuid'], guid)) {
      c.add(`AlertDefinitionGuid in the body (${body['AlertDefinitionGuid']}) must equal the one in the path (${guid}).`);
    }
    c.done();
    const { IsActive: active, AlertName: name } = body;
    if (typeof active === 'boolean' || typeof name === 'string') {
      ctx.store.alertDefinitions.update(key(guid), (d) => {
        if (typeof active === 'boolean') d.fields['IsActive'] = active;
        if (typeof name === 'string') d.fields['AlertName'] = name;
      });
    }
    return ok(render(def));
  };
}

function level(ctx: RequestContext, def: AlertDefinitionRec): EscalationLevelRec {
  const raw = ctx.params['escalationLevelId'] ?? '';
  const lvl = def.escalationLevels.find((l) => String(l.Id) === raw);
  if (!lvl) throw notFound(`Escalation level ${raw} does not exist on alert definition ${String(def.fields['AlertDefinitionGuid'])}.`);
  return lvl;
}

export function registerAlertDefinitionRoutes(router: Router): void {
  registerCrud(router);
  router.add('PUT', '/AlertDefinition/{alertDefinitionGuid}', setActive('replace'));
  router.add('PATCH', '/AlertDefinition/{alertDefinitionGuid}', setActive('patch'));
  const base = '/AlertDefinition/{alertDefinitionGuid}/EscalationLevel/{escalationLevelId}/Integration';
  router.add('GET', base, (ctx) => ok(structuredClone(level(ctx, find(ctx)).integrations)));
  router.add('POST', base, (ctx) => {
    requireAdmin(ctx, 'linking integrations');
    const lvl = level(ctx, find(ctx));
    const body = requireBody(ctx.body, 'escalation-level integration');
    const c = new Checker();
    c.pascalKeys(body, ctx.settings.rules);
    const guid = c.string(body, 'IntegrationGuid', { required: true });
    const vars = body['VariableValues'];
    const values: Record<string, string> = {};
    if (vars !== undefined && vars !== null) {
      if (!isObj(vars)) c.add('VariableValues must be an object mapping variable names to strings.');
      else {
        for (const [k, v] of Object.entries(vars)) {
          if (typeof v !== 'string') c.add(`VariableValues.${k} must be a string.`);
          else values[k] = v;
        }
      }
    }
    c.done();
    const integration = ctx.store.integrations.get(key(guid ?? ''));
    if (!integration) throw badRequest(`Integration ${String(guid)} does not exist.`);
    if (Object.keys(values).length > 0 && integration['AllowsEscalationLevelVariables'] !== true) {
      throw badRequest(`Integration "${String(integration['Name'])}" does not allow variables to be set at escalation level.`);
    }
    const entry = { IntegrationGuid: String(integration['IntegrationGuid']), VariableValues: values };
    const idx = lvl.integrations.findIndex((i) => sameGuid(i.IntegrationGuid, entry.IntegrationGuid));
    ctx.store.alertDefinitions.update(defKey(ctx), () => {
      if (idx >= 0) lvl.integrations[idx] = entry;
      else lvl.integrations.push(entry);
    });
    return ok(structuredClone(entry));
  });
  router.add('DELETE', `${base}/{integrationGuid}`, (ctx) => {
    requireAdmin(ctx, 'unlinking integrations');
    const lvl = level(ctx, find(ctx));
    const guid = ctx.params['integrationGuid'] ?? '';
    const idx = lvl.integrations.findIndex((i) => sameGuid(i.IntegrationGuid, guid));
    if (idx < 0) throw notFound(`Integration ${guid} is not linked to escalation level ${lvl.Id}.`);
    ctx.store.alertDefinitions.update(defKey(ctx), () => lvl.integrations.splice(idx, 1));
    return ok();
  });
}
