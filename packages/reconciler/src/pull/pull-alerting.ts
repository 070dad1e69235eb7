/**
 * Alert definitions as `pull` writes them: by `AlertName`, with `IsActive`, the monitors and groups they cover
 * (`members` by Name and Description), and their escalation levels (by `Id`, with the level's fields, the operators
 * and groups it reaches by Email and Description, and the integrations attached to it by name). An attached
 * integration's `IsActive`, `SendOkAlerts` and `SendReminderAlerts` are never returned by the service: they are left
 * out (not invented) and listed as settings pull could not read. A list whose listing was not read is left out, so
 * a tree never declares as empty what nobody looked at.
 */
import { LEVEL_INTEGRATION_WRITE_ONLY_FIELDS } from '@monsync/client/wire';
import {
  ALERT_DEFINITION_KIND,
  ALERT_DEFINITION_MEMBER_KIND,
  ESCALATION_LEVEL_INTEGRATION_KIND,
  ESCALATION_LEVEL_KIND,
  ESCALATION_LEVEL_MEMBER_KIND,
  MONITOR_GROUP_KIND,
  MONITOR_KIND,
} from '@monsync/schema';
import { listed, listedPerParent } from '../live/snapshot.js';
import type { ApiObject, LiveSnapshot } from '../live/types.js';
import { clean } from './clean.js';

/** Settings of one attached integration that the service never returns, and where the integration is declared. */
export interface UnreadSettings {
  /** `alert definition "Shop on-call", level 1, integration "Ops chat channel"` (in whichever file declares it) */
  where: string;
  fields: string[];
  /** The attached integration's kind and key (`<AlertName>/<Id>/<integration>`), and the kind of its definition. */
  kind: string;
  key: string;
  definitionKind: string;
}

export interface PulledAlerting {
  definitions: ApiObject[];
  /** The named form of each definition, by its GUID (lower case): what `pull --into` rewrites an older entry to. */
  byGuid: Map<string, ApiObject>;
  unread: UnreadSettings[];
  notes: string[];
}

/** The names a tree gives the objects alerting refers to, by GUID (lower case). */
export interface AlertingNames {
  monitors: ReadonlyMap<string, string>;
  monitorGroups: ReadonlyMap<string, string>;
  operators: ReadonlyMap<string, string>;
  operatorGroups: ReadonlyMap<string, string>;
}

export const ALERT_DEFINITIONS_FILE = 'alert-definitions.yaml';

const text = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');
const byName = (a: string, b: string): number => a.localeCompare(b, 'en');

/**
 * A member list (`{ monitorGroups: [...], monitors: [...] }`) by the names of its entries, or undefined with a
 * note when an entry names nothing a tree can declare: written without it, the list would remove it.
 */
function namedMembers(
  listing: readonly ApiObject[] | undefined,
  lists: readonly { field: string; guid: string; names: ReadonlyMap<string, string> }[],
  what: string,
  notes: string[],
): ApiObject | undefined {
  if (listing === undefined) return undefined;
  const out: Record<string, string[]> = {};
  for (const member of listing) {
    const list = lists.find((l) => text(member[l.guid]) !== '');
    const guid = list === undefined ? '' : text(member[list.guid]);
    const name = list?.names.get(guid.toLowerCase());
    if (list === undefined || name === undefined || name === '') {
      notes.push(`${what}: a member (${guid === '' ? 'of an unknown kind' : guid}) is not one a tree can name; its members are left out of the tree`);
      return undefined;
    }
    (out[list.field] ??= []).push(name);
  }
  const sorted: ApiObject = {};
  for (const { field } of lists) {
    const names = out[field];
    if (names !== undefined) sorted[field] = [...new Set(names)].sort(byName);
  }
  return sorted;
}

/** The integrations attached to a level by name, with their settings; undefined with a note when one has no unique name. */
function attachedIntegrations(listing: readonly ApiObject[] | undefined, integrations: readonly ApiObject[], at: { where: string; levelKey: string }, pulled: PulledAlerting): ApiObject[] | undefined {
  const { where, levelKey } = at;
  if (listing === undefined) return undefined;
  const out: ApiObject[] = [];
  for (const link of listing) {
    const guid = text(link['IntegrationGuid']).toLowerCase();
    const integration = integrations.find((i) => text(i['IntegrationGuid']).toLowerCase() === guid);
    const name = text(integration?.['Name']);
    const named = integrations.filter((i) => text(i['Name']).toLowerCase() === name.toLowerCase());
    if (integration === undefined || name === '' || named.length !== 1) {
      const why = integration === undefined ? `integration ${guid} is not in the account's list` : `${named.length} integrations are named ${JSON.stringify(name)}`;
      pulled.notes.push(`${where}: ${why}, so a tree cannot name it; the level's integrations are left out of the tree (rename it in the web app)`);
      return undefined;
    }
    // The write-only settings are never in the answer; a service that echoed them would still not be believed.
    out.push({ integration: name, ...clean(link, ESCALATION_LEVEL_INTEGRATION_KIND, ['VariableValues', 'ExtraEmailAddresses'], ['IntegrationGuid', 'Name', 'Type', ...LEVEL_INTEGRATION_WRITE_ONLY_FIELDS]) });
    pulled.unread.push({
      where: `${where}, integration ${JSON.stringify(name)}`,
      fields: [...LEVEL_INTEGRATION_WRITE_ONLY_FIELDS],
      kind: ESCALATION_LEVEL_INTEGRATION_KIND.kind,
      key: `${levelKey}/${name}`,
      definitionKind: ALERT_DEFINITION_KIND.kind,
    });
  }
  return out.sort((a, b) => byName(text(a['integration']), text(b['integration'])));
}

/** One definition's levels, by Id, each with its members and integrations where they were read. */
function pulledLevels(live: Pick<LiveSnapshot, 'perParent' | 'integrations'>, definitionGuid: string, name: string, names: AlertingNames, pulled: PulledAlerting): ApiObject[] | undefined {
  const label = JSON.stringify(name);
  const levels = listedPerParent(live, ESCALATION_LEVEL_KIND.kind)[definitionGuid];
  if (levels === undefined) return undefined;
  const members = listedPerParent(live, ESCALATION_LEVEL_MEMBER_KIND.kind);
  const links = listedPerParent(live, ESCALATION_LEVEL_INTEGRATION_KIND.kind);
  const reached = [
    { field: 'operators', guid: 'OperatorGuid', names: names.operators },
    { field: 'operatorGroups', guid: 'OperatorGroupGuid', names: names.operatorGroups },
  ];
  return [...levels]
    .sort((a, b) => Number(a['Id']) - Number(b['Id']))
    .map((level) => {
      const id = text(level['Id']);
      const where = `alert definition ${label}, level ${id}`;
      const out = clean(level, ESCALATION_LEVEL_KIND, ['Id', 'EscalationMode', 'ThresholdErrorCount', 'ThresholdMinutes', 'IsActive'], ['AlertDefinitionGuid']);
      const people = namedMembers(members[`${definitionGuid}/${id}`], reached, where, pulled.notes);
      if (people !== undefined) out['members'] = people;
      const attached = attachedIntegrations(links[`${definitionGuid}/${id}`], live.integrations ?? [], { where, levelKey: `${name}/${id}` }, pulled);
      if (attached !== undefined) out['integrations'] = attached;
      return out;
    });
}

/** The account's alert definitions as a tree declares them (see the module comment). */
export function pullAlerting(live: Pick<LiveSnapshot, 'lists' | 'perParent' | 'integrations'>, names: AlertingNames): PulledAlerting {
  const pulled: PulledAlerting = { definitions: [], byGuid: new Map(), unread: [], notes: [] };
  const covered = listedPerParent(live, ALERT_DEFINITION_MEMBER_KIND.kind);
  const coverage = [
    { field: 'monitorGroups', guid: 'MonitorGroupGuid', names: names.monitorGroups },
    { field: 'monitors', guid: 'MonitorGuid', names: names.monitors },
  ];
  const definitions = [...listed(live, ALERT_DEFINITION_KIND.kind)].sort((a, b) => byName(text(a['AlertName']), text(b['AlertName'])));
  const counts = new Map<string, number>();
  for (const d of definitions) counts.set(text(d['AlertName']).toLowerCase(), (counts.get(text(d['AlertName']).toLowerCase()) ?? 0) + 1);
  for (const [name, count] of counts) {
    // Written twice, the tree would not validate: the key is the name, which the service compares ignoring case.
    if (count > 1) pulled.notes.push(`${count} live alert definitions are named ${JSON.stringify(name)} (the service ignores case): a tree names each once, so they are left out; rename all but one in the web app`);
  }
  for (const definition of definitions) {
    const guid = text(definition['AlertDefinitionGuid']);
    const name = text(definition['AlertName']);
    if ((counts.get(name.toLowerCase()) ?? 0) > 1) continue;
    const label = JSON.stringify(name);
    const out = clean(definition, ALERT_DEFINITION_KIND, ['AlertName', 'IsActive']);
    const members = namedMembers(covered[guid], coverage, `alert definition ${label}`, pulled.notes);
    if (members !== undefined) out['members'] = members;
    const levels = pulledLevels(live, guid, name, names, pulled);
    if (levels !== undefined) out['escalationLevels'] = levels;
    pulled.definitions.push(out);
    pulled.byGuid.set(guid.toLowerCase(), out);
  }
  return pulled;
}

/** The GUID-to-name maps of what alerting refers to, from the listings pull read. */
export function alertingNames(live: Pick<LiveSnapshot, 'lists'>, operators: ReadonlyMap<string, string>, operatorGroups: ReadonlyMap<string, string>): AlertingNames {
  const names = (kind: typeof MONITOR_KIND | typeof MONITOR_GROUP_KIND, guid: string, name: string): Map<string, string> => {
    const out = new Map<string, string>();
    // The All Monitors group is the account itself: a tree cannot name it.
    for (const object of listed(live, kind.kind)) if (object['IsAll'] !== true) out.set(text(object[guid]).toLowerCase(), text(object[name]));
    return out;
  };
  return { monitors: names(MONITOR_KIND, 'MonitorGuid', 'Name'), monitorGroups: names(MONITOR_GROUP_KIND, 'MonitorGroupGuid', 'Description'), operators, operatorGroups };
}
