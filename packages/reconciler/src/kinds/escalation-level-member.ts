import { ALERT_DEFINITION_KIND, ESCALATION_LEVEL_KIND, ESCALATION_LEVEL_MEMBER_KIND, OPERATOR_GROUP_KIND, OPERATOR_KIND } from '@monsync/schema';
import { listedPerParent } from '../live/snapshot.js';
import type { ApiObject } from '../live/types.js';
import { alertWrites, levelParts, memberPart } from './alerting.js';
import { desiredEntry, liveEntry, placeholder, type KindModule, type LiveEntry } from './contract.js';
import { bodyString, idOf } from './shared.js';

const DEFINITION = ALERT_DEFINITION_KIND.kind;
const LEVEL = ESCALATION_LEVEL_KIND.kind;
const OPERATOR = OPERATOR_KIND.kind;
const GROUP = OPERATOR_GROUP_KIND.kind;
type Reached = typeof OPERATOR | typeof GROUP;

/** A listed member: `{OperatorGuid}` or `{OperatorGroupGuid}`. */
function reachedBy(member: ApiObject): { kind: Reached; guid: string } | undefined {
  const operator = idOf(member, 'OperatorGuid');
  if (operator !== '') return { kind: OPERATOR, guid: operator };
  const group = idOf(member, 'OperatorGroupGuid');
  return group === '' ? undefined : { kind: GROUP, guid: group };
}

/** The member a create body names (`OperatorGuid` or `OperatorGroupGuid`, resolved by apply). */
function memberOfBody(body: ApiObject): { kind: Reached; guid: string } {
  return typeof body.OperatorGroupGuid === 'string' ? { kind: GROUP, guid: bodyString(body, 'OperatorGroupGuid') } : { kind: OPERATOR, guid: bodyString(body, 'OperatorGuid') };
}

/**
 * The operators and operator groups an escalation level reaches, declared by the level's `members` ({ operators:
 * [Email], operatorGroups: [Description] }), keyed `<AlertName>/<Id>/operator:<Email>` or
 * `.../operatorGroup:<Description>`, step GUID `<definitionGuid>/<Id>/operator:<guid>`. Authoritative for levels
 * that declare `members`; each is added and removed with its own request.
 */
export const escalationLevelMemberKind: KindModule = {
  ...ESCALATION_LEVEL_MEMBER_KIND,
  serverDefaults: {},
  relation: true,
  parents: [LEVEL, DEFINITION, OPERATOR, GROUP],
  ownedBy: [DEFINITION, OPERATOR, GROUP],
  builtFrom: [DEFINITION, LEVEL, 'escalationLevelMember', OPERATOR, GROUP],
  readWhen: (desired) => desired.alertDefinitions.some(({ value }) => (value.escalationLevels ?? []).some(({ value: level }) => level.members !== undefined)),
  read: {
    perParent: {
      parent: LEVEL,
      list: (client, id) => {
        const { definition, level } = levelParts(id);
        return alertWrites.reads(client).escalationLevels.members.list(definition, level);
      },
      what: (_level, id) => `members of escalation level ${id}`,
      keep: (member) => {
        const reached = reachedBy(member);
        return reached === undefined ? {} : reached.kind === OPERATOR ? { OperatorGuid: reached.guid } : { OperatorGroupGuid: reached.guid };
      },
    },
  },
  diff: () => [],
  memberSets: {
    parent: LEVEL,
    // `<AlertName>/<Id>`: the level number holds no `/`.
    parentSlashes: 1,
    declared: (state) =>
      state.alertDefinitions.flatMap(({ value: definition }) => {
        const name = definition.AlertName ?? definition.AlertDefinitionGuid ?? '';
        return (definition.escalationLevels ?? []).flatMap(({ value: level }) => {
          const members = level.members;
          if (members === undefined) return [];
          return [{ parent: `${name}/${level.Id}`, members: [{ kind: OPERATOR, keys: members.operators ?? [] }, { kind: GROUP, keys: members.operatorGroups ?? [] }] }];
        });
      }),
    listed: (snapshot) => listedPerParent(snapshot, 'escalationLevelMember'),
    memberKind: (member) => reachedBy(member)?.kind,
    memberGuid: (member) => reachedBy(member)?.guid ?? '',
  },

  desired(state) {
    return state.alertDefinitions.flatMap(({ value: definition }) => {
      const name = definition.AlertName ?? definition.AlertDefinitionGuid ?? '';
      return (definition.escalationLevels ?? []).flatMap(({ value: level, source }) => {
        const members = level.members;
        if (members === undefined) return [];
        const levelKey = `${name}/${level.Id}`;
        const entry = (kind: Reached, key: string) =>
          desiredEntry('escalationLevelMember', `${levelKey}/${kind}:${key}`, {}, source, [
            { kind: LEVEL, key: levelKey },
            { kind, key },
          ]);
        return [...(members.operators ?? []).map((o) => entry(OPERATOR, o)), ...(members.operatorGroups ?? []).map((g) => entry(GROUP, g))];
      });
    });
  },

  live(snapshot, resolver) {
    const entries: LiveEntry[] = [];
    const lists = listedPerParent(snapshot, 'escalationLevelMember');
    for (const levelGuid of Object.keys(lists)) {
      const level = resolver.desiredOf(LEVEL, levelGuid);
      if (level?.manages?.includes('escalationLevelMember') !== true) continue;
      const { definition } = levelParts(levelGuid);
      for (const member of lists[levelGuid] ?? []) {
        const reached = reachedBy(member);
        if (reached === undefined) continue;
        const key = resolver.keyOf(reached.kind, reached.guid) ?? reached.guid;
        entries.push(
          liveEntry('escalationLevelMember', `${level.key}/${reached.kind}:${key}`, `${levelGuid}/${reached.kind}:${reached.guid}`, {}, [
            { kind: LEVEL, guid: levelGuid },
            { kind: DEFINITION, guid: definition },
            { kind: reached.kind, guid: reached.guid },
          ]),
        );
      }
    }
    return entries;
  },

  createExtras(entry, resolver) {
    const [level, member] = entry.refs;
    const levelKey = level?.key ?? '';
    const at = levelKey.lastIndexOf('/');
    const definition = levelKey.slice(0, at);
    const kind = member?.kind === GROUP ? GROUP : OPERATOR;
    return {
      AlertDefinitionGuid: resolver.guidOf(DEFINITION, definition) ?? placeholder(DEFINITION, definition),
      Id: Number(levelKey.slice(at + 1)),
      [kind === GROUP ? 'OperatorGroupGuid' : 'OperatorGuid']: resolver.guidOf(kind, member?.key ?? '') ?? placeholder(kind, member?.key ?? ''),
    };
  },

  requests: {
    async create(client, _step, body) {
      const definition = bodyString(body, 'AlertDefinitionGuid');
      const level = String(body.Id);
      const { kind, guid } = memberOfBody(body);
      const members = alertWrites.of(client).escalationLevels.members;
      await (kind === GROUP ? members.addOperatorGroup(definition, level, guid) : members.addOperator(definition, level, guid));
      return `${definition}/${level}/${kind}:${guid}`;
    },
    update() {
      return Promise.reject(new Error('an escalation level member has nothing to update'));
    },
    async delete(client, step) {
      const { definition, level, rest } = levelParts(step.guid);
      const { kind, guid } = memberPart(rest);
      const members = alertWrites.of(client).escalationLevels.members;
      await (kind === GROUP ? members.removeOperatorGroup(definition, level, guid) : members.removeOperator(definition, level, guid));
    },
    async find(client, _step, body) {
      const definition = bodyString(body, 'AlertDefinitionGuid');
      const level = String(body.Id);
      const { kind, guid } = memberOfBody(body);
      const listed = await alertWrites.of(client).escalationLevels.members.list(definition, level).toArray();
      return listed.some((m) => reachedBy(m)?.guid.toLowerCase() === guid.toLowerCase()) ? `${definition}/${level}/${kind}:${guid}` : undefined;
    },
  },
};
