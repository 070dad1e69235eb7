import { isVaultRef } from '../desired.js';
import type { ApiObject } from '../live/types.js';
import { isPlainObject } from '../plan/values.js';
import { desiredEntry, liveEntry, str, type KeyRef, type KindModule } from './contract.js';
import { apiFields, findOne, idOf, pinned, requireGuid } from './shared.js';
import { withLiveOmissions } from './write-body.js';

const VAULT_IN_VALUE = /\{\{vault:([^}]+)\}\}/g;

function variables(fields: ApiObject): unknown[] {
  const value = fields.PredefinedVariables;
  return Array.isArray(value) ? value : [];
}

/** Vault GUIDs (or keys, in placeholders) a monitor's variables refer to. */
export function vaultReferencesIn(fields: ApiObject): string[] {
  const found: string[] = [];
  for (const variable of variables(fields)) {
    if (!isPlainObject(variable)) continue;
    const value = variable.Value;
    if (isVaultRef(value)) found.push(value.vault);
    else if (typeof value === 'string') for (const match of value.matchAll(VAULT_IN_VALUE)) if (match[1] !== undefined) found.push(match[1]);
  }
  return found;
}

export const monitorKind: KindModule = {
  kind: 'monitor',
  title: 'monitors',
  manage: 'monitors',
  guidField: 'MonitorGuid',
  readOnlyFields: ['MonitorGuid', 'CreatedDate', 'LastModifiedDate', 'LastModifiedByOperatorId'],
  writeOnlyFields: [],
  setFields: [
    { path: ['ErrorConditions'], key: 'ErrorConditionType' },
    { path: ['PredefinedVariables'], key: 'Key' },
  ],
  serverDefaults: {
    IsActive: true,
    GenerateAlert: true,
    ErrorConditions: [],
    PredefinedVariables: [],
    UserAgent: 'ChromeLatest',
    MonitorMode: 'Default',
  },
  reads: ['monitor'],
  references: {
    field: 'PredefinedVariables',
    kinds: ['vaultItem'],
    // PATCH replaces the whole list, so the list sent is all that stays: the declared entries, each keeping the live
    // fields it leaves out (a variable declared without its Value keeps the live reference). An omitted list leaves
    // the live one alone.
    after(live, declared) {
      if (!('PredefinedVariables' in declared)) return live.refs;
      return vaultReferencesIn(withLiveOmissions(declared, live.fields, monitorKind)).map((guid) => ({ kind: 'vaultItem', guid }));
    },
  },

  desired(state) {
    return state.monitors.map(({ value, source }) => {
      const fields = apiFields(value);
      const refs: KeyRef[] = [];
      for (const variable of variables(fields)) {
        if (isPlainObject(variable) && isVaultRef(variable.Value)) refs.push({ kind: 'vaultItem', key: variable.Value.vault });
      }
      const guid = pinned(value, 'MonitorGuid');
      return desiredEntry('monitor', value.Name, fields, source, refs, { pinnedGuid: guid });
    });
  },

  live(snapshot) {
    return snapshot.monitors.map((fields) =>
      liveEntry(
        'monitor',
        str(fields, 'Name') ?? '',
        idOf(fields, 'MonitorGuid'),
        fields,
        vaultReferencesIn(fields).map((guid) => ({ kind: 'vaultItem', guid })),
      ),
    );
  },

  /** `{ vault: 'Section/Item' }` becomes `{{vault:<guid>}}`, or `{{vault:Section/Item}}` when the item is created in this plan. */
  resolve(entry, resolver) {
    const list = entry.fields.PredefinedVariables;
    if (!Array.isArray(list) || !list.some((v: unknown) => isPlainObject(v) && isVaultRef(v.Value))) return entry.fields;
    const resolved = list.map((variable: unknown) => {
      if (!isPlainObject(variable) || !isVaultRef(variable.Value)) return variable;
      const guid = resolver.guidOf('vaultItem', variable.Value.vault);
      return { ...variable, Value: `{{vault:${guid ?? variable.Value.vault}}}` };
    });
    return { ...entry.fields, PredefinedVariables: resolved };
  },

  lastModified(live) {
    const date = str(live.fields, 'LastModifiedDate');
    const operatorId = str(live.fields, 'LastModifiedByOperatorId');
    return { ...(date === undefined ? {} : { date }), ...(operatorId === undefined ? {} : { operatorId }) };
  },

  requests: {
    async create(client, _step, body) {
      const created = await client.monitors.create(body);
      return idOf(created, 'MonitorGuid');
    },
    async update(client, step, body) {
      await client.monitors.patch(requireGuid(step.guid, step.id), body);
    },
    async delete(client, step) {
      await client.monitors.delete(requireGuid(step.guid, step.id));
    },
    find(client, step) {
      return findOne(client.monitors.list(), (m) => m.Name === step.key, 'MonitorGuid');
    },
  },
};
