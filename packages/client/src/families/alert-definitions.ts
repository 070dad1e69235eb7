import type { Core } from '../core.js';
import type { Paged } from '../paging.js';
import { invalid } from '../query.js';
import type { AlertDefinition, AlertDefinitionPatch, AlertDefinitionReplace, EscalationLevelIntegration } from '../types.js';

export interface AlertDefinitionsApi {
  /** PUT with the complete field list; `AlertDefinitionGuid` is filled from the path when absent. */
  replace(alertDefinitionGuid: string, body: AlertDefinitionReplace): Promise<AlertDefinition | undefined>;
  /** PATCH; a body `AlertDefinitionGuid` must equal the one in the path (checked before sending). */
  patch(alertDefinitionGuid: string, body: AlertDefinitionPatch): Promise<AlertDefinition | undefined>;
  /** PATCH `{IsActive}`: the only change the API supports, idempotent. */
  setActive(alertDefinitionGuid: string, isActive: boolean): Promise<AlertDefinition | undefined>;
  /** `/AlertDefinition/{guid}/EscalationLevel/{escalationLevelId}/Integration` (its methods are not in the spec's table). */
  integrations: {
    list(alertDefinitionGuid: string, escalationLevelId: number | string): Paged<EscalationLevelIntegration>;
    /** POST: links an integration to the escalation level, optionally with `VariableValues`. */
    link(alertDefinitionGuid: string, escalationLevelId: number | string, body: EscalationLevelIntegration): Promise<EscalationLevelIntegration | undefined>;
  };
}

const sameGuid = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

export function alertDefinitionsApi(core: Core): AlertDefinitionsApi {
  const one = '/AlertDefinition/{alertDefinitionGuid}';
  const integrations = `${one}/EscalationLevel/{escalationLevelId}/Integration`;
  const check = (method: 'PUT' | 'PATCH', guid: string, bodyGuid: unknown): void => {
    if (bodyGuid === undefined) return;
    if (typeof bodyGuid !== 'string' || !sameGuid(bodyGuid, guid)) {
      const ctx = core.context(method, one, { alertDefinitionGuid: guid });
      throw invalid(ctx, `body AlertDefinitionGuid ${JSON.stringify(bodyGuid)} differs from the one in the path; remove it from the body or make them equal`);
    }
  };
  const patch = async (alertDefinitionGuid: string, body: AlertDefinitionPatch) => {
    check('PATCH', alertDefinitionGuid, body.AlertDefinitionGuid);
    return core.maybe<AlertDefinition>({ method: 'PATCH', route: one, params: { alertDefinitionGuid }, body });
  };
  return {
    replace: async (alertDefinitionGuid, body) => {
      check('PUT', alertDefinitionGuid, body.AlertDefinitionGuid);
      return core.maybe<AlertDefinition>({
        method: 'PUT',
        route: one,
        params: { alertDefinitionGuid },
        body: { ...body, AlertDefinitionGuid: body.AlertDefinitionGuid ?? alertDefinitionGuid },
      });
    },
    patch,
    setActive: (alertDefinitionGuid, isActive) => patch(alertDefinitionGuid, { IsActive: isActive }),
    integrations: {
      list: (alertDefinitionGuid, escalationLevelId) =>
        core.paged<EscalationLevelIntegration>({ method: 'GET', route: integrations, params: { alertDefinitionGuid, escalationLevelId } }),
      link: (alertDefinitionGuid, escalationLevelId, body) =>
        core.maybe<EscalationLevelIntegration>({ method: 'POST', route: integrations, params: { alertDefinitionGuid, escalationLevelId }, body }),
    },
  };
}
