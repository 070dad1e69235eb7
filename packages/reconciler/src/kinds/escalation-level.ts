import { ALERT_DEFINITION_KIND, ESCALATION_LEVEL_INTEGRATION_KIND, ESCALATION_LEVEL_KIND, ESCALATION_LEVEL_MEMBER_KIND } from '@monsync/schema';
import { listedPerParent } from '../live/snapshot.js';
import type { ApiObject } from '../live/types.js';
import type { StepKind } from '../plan/types.js';
import { alertWrites, levelParts } from './alerting.js';
import { desiredEntry, liveEntry, placeholder, type KindModule, type LiveEntry } from './contract.js';
import { apiFields, bodyString, idOf, withoutFields } from './shared.js';

const DEFINITION = ALERT_DEFINITION_KIND.kind;
/** What the service's level holds besides `Id` (D22): a PATCH sends all of them. */
const LEVEL_FIELDS = ['EscalationMode', 'ThresholdErrorCount', 'ThresholdMinutes', 'IsActive', 'Message', 'NumberOfReminders', 'ReminderDelay', 'IncludeTraceRoute'];

/** The complete level D22 asks for: the level as it is, with the planned fields over it, and its `Id`. */
function completeLevel(current: ApiObject, planned: ApiObject, id: number): ApiObject & { Id: number } {
  const out: ApiObject = {};
  for (const field of LEVEL_FIELDS) if (current[field] !== undefined) out[field] = current[field];
  return { ...out, ...withoutFields(planned, ['AlertDefinitionGuid', 'Hash']), Id: id };
}

/**
 * An alert definition's escalation levels, keyed `<AlertName>/<Id>`, step GUID `<definitionGuid>/<Id>`. The levels
 * are fixed: they are updated, never created or deleted, and a level the tree does not declare is left as it is
 * (a system object). A declared level of a definition the plan creates is a "create" that fills in the level the
 * new definition came with. Every write sends the complete level (D22: PATCH "only accepts a complete" level).
 */
export const escalationLevelKind: KindModule = {
  ...ESCALATION_LEVEL_KIND,
  serverDefaults: {},
  updateReplaces: true,
  parents: [DEFINITION],
  ownedBy: [DEFINITION],
  builtFrom: [DEFINITION, 'escalationLevel'],
  system: () => true,
  read: {
    perParent: {
      parent: DEFINITION,
      list: (client, guid) => alertWrites.reads(client).escalationLevels.list(guid),
      what: (definition) => `escalation levels of alert definition "${idOf(definition, 'AlertName')}" (${idOf(definition, 'AlertDefinitionGuid')})`,
    },
  },

  desired(state) {
    return state.alertDefinitions.flatMap(({ value: definition }) => {
      const name = definition.AlertName ?? definition.AlertDefinitionGuid ?? '';
      return (definition.escalationLevels ?? []).map(({ value, source }) => {
        const manages: StepKind[] = [];
        if (value.members !== undefined) manages.push(ESCALATION_LEVEL_MEMBER_KIND.kind);
        if (Array.isArray(value.integrations)) manages.push(ESCALATION_LEVEL_INTEGRATION_KIND.kind);
        return desiredEntry('escalationLevel', `${name}/${value.Id}`, apiFields(value), source, [{ kind: DEFINITION, key: name }], { manages: manages.length === 0 ? undefined : manages });
      });
    });
  },

  live(snapshot, resolver) {
    const entries: LiveEntry[] = [];
    const levels = listedPerParent(snapshot, 'escalationLevel');
    for (const definitionGuid of Object.keys(levels)) {
      const definition = resolver.keyOf(DEFINITION, definitionGuid);
      if (definition === undefined) continue;
      for (const fields of levels[definitionGuid] ?? []) {
        const id = idOf(fields, 'Id');
        entries.push(liveEntry('escalationLevel', `${definition}/${id}`, `${definitionGuid}/${id}`, fields, [{ kind: DEFINITION, guid: definitionGuid }]));
      }
    }
    return entries;
  },

  createExtras(entry, resolver) {
    const definition = entry.refs[0]?.key ?? '';
    return { AlertDefinitionGuid: resolver.guidOf(DEFINITION, definition) ?? placeholder(DEFINITION, definition) };
  },

  requests: {
    /** The new definition's level exists already: it is read, and written back whole with the declared fields. */
    async create(client, _step, body) {
      const definition = bodyString(body, 'AlertDefinitionGuid');
      const id = Number(body.Id);
      const levels = alertWrites.of(client).escalationLevels;
      const current = await levels.get(definition, String(id));
      await levels.patch(definition, String(id), completeLevel(current, body, id));
      return `${definition}/${id}`;
    },
    /** The update body carries the live fields the tree leaves out (`updateReplaces`): the complete level. */
    async update(client, step, body) {
      const { definition, level } = levelParts(step.guid);
      await alertWrites.of(client).escalationLevels.patch(definition, level, completeLevel({}, body, Number(level)));
    },
    delete() {
      return Promise.reject(new Error('escalation levels cannot be deleted: they are fixed for the account'));
    },
    /** A level always exists once its definition does. */
    find(_client, _step, body) {
      return Promise.resolve(`${bodyString(body, 'AlertDefinitionGuid')}/${String(body.Id)}`);
    },
  },
};
