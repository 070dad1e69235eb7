import { LEVEL_INTEGRATION_WRITE_ONLY_FIELDS } from '@monsync/client/wire';
import { ALERT_DEFINITION_KIND, ESCALATION_LEVEL_INTEGRATION_KIND, ESCALATION_LEVEL_KIND } from '@monsync/schema';
import { listedPerParent } from '../live/snapshot.js';
import type { ApiObject } from '../live/types.js';
import { alertWrites, levelParts } from './alerting.js';
import { desiredEntry, liveEntry, placeholder, type KindModule, type LiveEntry } from './contract.js';
import { apiFields, bodyString, idOf, withoutFields } from './shared.js';

const DEFINITION = ALERT_DEFINITION_KIND.kind;
const LEVEL = ESCALATION_LEVEL_KIND.kind;
/** Path parameters a create body carries; never sent as fields. */
const PATH_FIELDS = ['AlertDefinitionGuid', 'Id'];

/** The body of a link: the integration's settings, path parameters left out. */
const linkBody = (body: ApiObject): ApiObject => withoutFields(body, PATH_FIELDS);

/**
 * Integrations attached to an escalation level, declared by the level's `integrations` (key: the integration's
 * name, looked up in `GET /Integration` when the plan is made), keyed `<AlertName>/<Id>/<name>`, step GUID
 * `<definitionGuid>/<Id>/<integrationGuid>`. Authoritative for levels that declare `integrations`. `IsActive`,
 * `SendOkAlerts` and `SendReminderAlerts` are write-only: sent when attached, never compared, and sent again only
 * when the plan rotates the entry (`--rotate escalationLevelIntegration:<key>`).
 */
export const escalationLevelIntegrationKind: KindModule = {
  ...ESCALATION_LEVEL_INTEGRATION_KIND,
  serverDefaults: {},
  authoritative: true,
  writeOnce: LEVEL_INTEGRATION_WRITE_ONLY_FIELDS,
  parents: [LEVEL, DEFINITION],
  ownedBy: [DEFINITION],
  builtFrom: [DEFINITION, LEVEL, 'escalationLevelIntegration'],
  readWhen: (desired) => desired.alertDefinitions.some(({ value }) => (value.escalationLevels ?? []).some(({ value: level }) => Array.isArray(level.integrations))),
  read: {
    perParent: {
      parent: LEVEL,
      list: (client, id) => {
        const { definition, level } = levelParts(id);
        return alertWrites.reads(client).integrations.list(definition, level);
      },
      what: (_level, id) => `integrations attached to escalation level ${id}`,
    },
  },

  desired(state) {
    return state.alertDefinitions.flatMap(({ value: definition }) => {
      const name = definition.AlertName ?? definition.AlertDefinitionGuid ?? '';
      return (definition.escalationLevels ?? []).flatMap(({ value: level }) =>
        (level.integrations ?? []).map(({ value, source }) =>
          desiredEntry('escalationLevelIntegration', `${name}/${level.Id}/${value.integration}`, apiFields(value), source, [{ kind: LEVEL, key: `${name}/${level.Id}` }]),
        ),
      );
    });
  },

  live(snapshot, resolver) {
    const entries: LiveEntry[] = [];
    const lists = listedPerParent(snapshot, 'escalationLevelIntegration');
    const names = new Map((snapshot.integrations ?? []).map((i) => [idOf(i, 'IntegrationGuid').toLowerCase(), idOf(i, 'Name')]));
    for (const levelGuid of Object.keys(lists)) {
      const level = resolver.desiredOf(LEVEL, levelGuid);
      if (level?.manages?.includes('escalationLevelIntegration') !== true) continue;
      const { definition } = levelParts(levelGuid);
      for (const fields of lists[levelGuid] ?? []) {
        const guid = idOf(fields, 'IntegrationGuid');
        const name = names.get(guid.toLowerCase()) ?? guid;
        entries.push(liveEntry('escalationLevelIntegration', `${level.key}/${name}`, `${levelGuid}/${guid}`, fields, [
          { kind: LEVEL, guid: levelGuid },
          { kind: DEFINITION, guid: definition },
        ]));
      }
    }
    return entries;
  },

  createExtras(entry, resolver) {
    const levelKey = entry.refs[0]?.key ?? '';
    const at = levelKey.lastIndexOf('/');
    const definition = levelKey.slice(0, at);
    const guid = entry.fields.IntegrationGuid;
    return { AlertDefinitionGuid: resolver.guidOf(DEFINITION, definition) ?? placeholder(DEFINITION, definition), Id: Number(levelKey.slice(at + 1)), IntegrationGuid: guid };
  },

  requests: {
    async create(client, _step, body) {
      const definition = bodyString(body, 'AlertDefinitionGuid');
      const level = String(body.Id);
      const guid = bodyString(body, 'IntegrationGuid');
      await alertWrites.of(client).integrations.link(definition, level, linkBody(body));
      return `${definition}/${level}/${guid}`;
    },
    async update(client, step, body) {
      const { definition, level, rest } = levelParts(step.guid);
      await alertWrites.of(client).integrations.patch(definition, level, rest, withoutFields(linkBody(body), ['IntegrationGuid']));
    },
    async delete(client, step) {
      const { definition, level, rest } = levelParts(step.guid);
      await alertWrites.of(client).integrations.unlink(definition, level, rest);
    },
    async find(client, _step, body) {
      const definition = bodyString(body, 'AlertDefinitionGuid');
      const level = String(body.Id);
      const guid = bodyString(body, 'IntegrationGuid');
      const listed = await alertWrites.of(client).integrations.list(definition, level).toArray();
      return listed.some((l) => idOf(l, 'IntegrationGuid').toLowerCase() === guid.toLowerCase()) ? `${definition}/${level}/${guid}` : undefined;
    },
  },
};
