import { ALERT_DEFINITION_KIND, ALERT_DEFINITION_MEMBER_KIND, MONITOR_GROUP_KIND, MONITOR_KIND } from '@monsync/schema';
import { listedPerParent } from '../live/snapshot.js';
import type { ApiObject } from '../live/types.js';
import { alertWrites, memberPart } from './alerting.js';
import { desiredEntry, liveEntry, placeholder, type KindModule, type LiveEntry } from './contract.js';
import { bodyString, idOf, splitCompound } from './shared.js';

const DEFINITION = ALERT_DEFINITION_KIND.kind;
const MONITOR = MONITOR_KIND.kind;
const GROUP = MONITOR_GROUP_KIND.kind;
type Covered = typeof MONITOR | typeof GROUP;

/** A listed member: `{MonitorGuid}` or `{MonitorGroupGuid}`. */
function coveredBy(member: ApiObject): { kind: Covered; guid: string } | undefined {
  const monitor = idOf(member, 'MonitorGuid');
  if (monitor !== '') return { kind: MONITOR, guid: monitor };
  const group = idOf(member, 'MonitorGroupGuid');
  return group === '' ? undefined : { kind: GROUP, guid: group };
}

/**
 * The monitors and monitor groups an alert definition covers, declared by its `members` ({ monitors: [Name],
 * monitorGroups: [Description] }), keyed `<AlertName>/monitor:<Name>` or `<AlertName>/monitorGroup:<Description>`,
 * step GUID `<definitionGuid>/monitor:<guid>`. Authoritative for definitions that declare `members`; each is added
 * and removed with its own request (there is no bulk replace).
 */
export const alertDefinitionMemberKind: KindModule = {
  ...ALERT_DEFINITION_MEMBER_KIND,
  serverDefaults: {},
  relation: true,
  parents: [DEFINITION, MONITOR, GROUP],
  ownedBy: [DEFINITION, MONITOR, GROUP],
  builtFrom: [DEFINITION, 'alertDefinitionMember', MONITOR, GROUP],
  readWhen: (desired) => desired.alertDefinitions.some(({ value }) => value.members !== undefined),
  read: {
    perParent: {
      parent: DEFINITION,
      list: (client, guid) => alertWrites.reads(client).members.list(guid),
      what: (definition) => `monitors covered by alert definition "${idOf(definition, 'AlertName')}" (${idOf(definition, 'AlertDefinitionGuid')})`,
      keep: (member) => {
        const covered = coveredBy(member);
        return covered === undefined ? {} : covered.kind === MONITOR ? { MonitorGuid: covered.guid } : { MonitorGroupGuid: covered.guid };
      },
    },
  },
  diff: () => [],
  memberSets: {
    parent: DEFINITION,
    declared: (state) =>
      state.alertDefinitions.flatMap(({ value }) => {
        const members = value.members;
        if (members === undefined) return [];
        return [{ parent: value.AlertName ?? value.AlertDefinitionGuid ?? '', members: [{ kind: MONITOR, keys: members.monitors ?? [] }, { kind: GROUP, keys: members.monitorGroups ?? [] }] }];
      }),
    listed: (snapshot) => listedPerParent(snapshot, 'alertDefinitionMember'),
    memberKind: (member) => coveredBy(member)?.kind,
    memberGuid: (member) => coveredBy(member)?.guid ?? '',
  },

  desired(state) {
    return state.alertDefinitions.flatMap(({ value, source }) => {
      const name = value.AlertName ?? value.AlertDefinitionGuid ?? '';
      const members = value.members;
      if (members === undefined) return [];
      const entry = (kind: Covered, key: string) => desiredEntry('alertDefinitionMember', `${name}/${kind}:${key}`, {}, source, [{ kind: DEFINITION, key: name }, { kind, key }]);
      return [...(members.monitors ?? []).map((m) => entry(MONITOR, m)), ...(members.monitorGroups ?? []).map((g) => entry(GROUP, g))];
    });
  },

  live(snapshot, resolver) {
    const entries: LiveEntry[] = [];
    const lists = listedPerParent(snapshot, 'alertDefinitionMember');
    for (const definitionGuid of Object.keys(lists)) {
      const definition = resolver.desiredOf(DEFINITION, definitionGuid);
      if (definition?.manages?.includes('alertDefinitionMember') !== true) continue;
      for (const member of lists[definitionGuid] ?? []) {
        const covered = coveredBy(member);
        if (covered === undefined) continue;
        const key = resolver.keyOf(covered.kind, covered.guid) ?? covered.guid;
        entries.push(
          liveEntry('alertDefinitionMember', `${definition.key}/${covered.kind}:${key}`, `${definitionGuid}/${covered.kind}:${covered.guid}`, {}, [
            { kind: DEFINITION, guid: definitionGuid },
            { kind: covered.kind, guid: covered.guid },
          ]),
        );
      }
    }
    return entries;
  },

  createExtras(entry, resolver) {
    const [definition, member] = entry.refs;
    const guidOr = (kind: typeof DEFINITION | Covered, key: string): string => resolver.guidOf(kind, key) ?? placeholder(kind, key);
    const kind = member?.kind === GROUP ? GROUP : MONITOR;
    return { AlertDefinitionGuid: guidOr(DEFINITION, definition?.key ?? ''), [kind === GROUP ? 'MonitorGroupGuid' : 'MonitorGuid']: guidOr(kind, member?.key ?? '') };
  },

  requests: {
    async create(client, _step, body) {
      const definition = bodyString(body, 'AlertDefinitionGuid');
      const { kind, guid } = memberOfBody(body);
      const members = alertWrites.of(client).members;
      await (kind === GROUP ? members.addMonitorGroup(definition, guid) : members.addMonitor(definition, guid));
      return `${definition}/${kind}:${guid}`;
    },
    update() {
      return Promise.reject(new Error('an alert definition member has nothing to update'));
    },
    async delete(client, step) {
      const [definition, rest] = splitCompound(step.guid);
      const { kind, guid } = memberPart(rest);
      const members = alertWrites.of(client).members;
      await (kind === GROUP ? members.removeMonitorGroup(definition, guid) : members.removeMonitor(definition, guid));
    },
    async find(client, _step, body) {
      const definition = bodyString(body, 'AlertDefinitionGuid');
      const { kind, guid } = memberOfBody(body);
      const listed = await alertWrites.of(client).members.list(definition).toArray();
      const found = listed.some((m) => coveredBy(m)?.guid.toLowerCase() === guid.toLowerCase());
      return found ? `${definition}/${kind}:${guid}` : undefined;
    },
  },
};

/** The member a create body names (`MonitorGuid` or `MonitorGroupGuid`, resolved by apply). */
function memberOfBody(body: ApiObject): { kind: Covered; guid: string } {
  return typeof body.MonitorGroupGuid === 'string' ? { kind: GROUP, guid: bodyString(body, 'MonitorGroupGuid') } : { kind: MONITOR, guid: bodyString(body, 'MonitorGuid') };
}
