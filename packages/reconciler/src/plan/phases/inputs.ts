/**
 * Phase 0 of `assemblePlan`: inputs that cannot be planned from at all. Both are problems of the live snapshot,
 * not of the config, so they carry no position.
 */
import type { DesiredState } from '../../desired.js';
import { KINDS, kindModule } from '../../kinds/index.js';
import { idOf } from '../../kinds/shared.js';
import { listed, listedPerParent, namedParent } from '../../live/snapshot.js';
import type { LiveScope, LiveSnapshot } from '../../live/types.js';
import { planProblem, type PlanProblem } from '../errors.js';

export function inputProblems(desired: DesiredState, live: LiveSnapshot, scope: LiveScope): PlanProblem[] {
  const problems: PlanProblem[] = [];
  for (const kind of scope.kinds) {
    if (!live.read.includes(kind)) {
      problems.push(planProblem('LIVE_NOT_READ', `the live snapshot does not include ${kind} objects; read them with readLive(client, liveScope(desired)) before planning`));
    }
  }
  if (scope.outgoingPhoneNumbers === true && live.outgoingPhoneNumbers === undefined) {
    problems.push(planProblem('LIVE_NOT_READ', 'an operator names its outgoingPhoneNumber, but the live snapshot has no outgoing phone numbers; read them with readLive(client, liveScope(desired)) before planning'));
  }
  if (scope.integrations === true && live.integrations === undefined) {
    problems.push(planProblem('LIVE_NOT_READ', 'an escalation level attaches an integration, but the live snapshot has no integrations; read them with readLive(client, liveScope(desired)) before planning'));
  }
  problems.push(...unreadParents(live, scope));
  for (const mod of KINDS) {
    if (mod.unmatchable === undefined || desired.settings.manage[mod.section] === undefined) continue;
    const objects = listed(live, mod.kind);
    if (objects.length === 0 || mod.desired(desired).length === 0) continue;
    const reason = mod.unmatchable(objects);
    if (reason !== undefined) problems.push(planProblem('LIVE_RESTRICTED', reason));
  }
  return problems;
}

/**
 * A kind listed under the parents a scope names (an operator's authorizations): each such parent of the snapshot must
 * have its listing, or its children would be read as none (and a declared list planned as all new).
 */
function unreadParents(live: LiveSnapshot, scope: LiveScope): PlanProblem[] {
  const problems: PlanProblem[] = [];
  for (const mod of KINDS) {
    const names = scope.parents?.[mod.kind];
    const spec = mod.read?.perParent;
    if (names === undefined || spec === undefined || !live.read.includes(mod.kind)) continue;
    const parentMod = kindModule(spec.parent);
    const lists = listedPerParent(live, mod.kind);
    const named = namedParent(names, parentMod.guidField, parentMod.keyField);
    for (const parent of listed(live, spec.parent)) {
      if (!named(parent) || spec.of?.(parent) === false || lists[idOf(parent, parentMod.guidField)] !== undefined) continue;
      const name = idOf(parent, parentMod.keyField ?? parentMod.guidField);
      problems.push(planProblem('LIVE_NOT_READ', `the live snapshot does not include the ${mod.title.many} of ${parentMod.title.one} ${JSON.stringify(name)}; read them with readLive(client, liveScope(desired)) before planning`));
    }
  }
  return problems;
}
