import { ALERT_DEFINITION_KIND } from '@monsync/schema';
import { desiredEntry, type KindModule } from './contract.js';
import { apiFields, requireGuid } from './shared.js';

/**
 * Alert definitions can only be activated or deactivated, and there is no GET: each declaration is re-asserted
 * on every apply as an `ensure` step (PATCH, idempotent), shown apart from changes and never counted as drift.
 */
export const alertDefinitionKind: KindModule = {
  ...ALERT_DEFINITION_KIND,
  serverDefaults: {},
  ensureOnly: true,
  builtFrom: [],

  desired(state) {
    return state.alertDefinitions.map(({ value, source }) => desiredEntry('alertDefinition', value.AlertDefinitionGuid, apiFields(value, ['AlertDefinitionGuid']), source, []));
  },

  live() {
    return [];
  },

  requests: {
    create() {
      return Promise.reject(new Error('alert definitions cannot be created through the API; they are only ensured'));
    },
    async update(client, step, body) {
      await client.alertDefinitions.patch(requireGuid(step.guid ?? step.key, step.id), body);
    },
    delete() {
      return Promise.reject(new Error('alert definitions cannot be deleted through the API'));
    },
    find() {
      return Promise.resolve(undefined);
    },
  },
};
