/**
 * Phase 0 of `assemblePlan`: inputs that cannot be planned from at all. Both are problems of the live snapshot,
 * not of the config, so they carry no position.
 */
import type { DesiredState } from '../../desired.js';
import { KINDS } from '../../kinds/index.js';
import { listed } from '../../live/snapshot.js';
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
  for (const mod of KINDS) {
    if (mod.unmatchable === undefined || desired.settings.manage[mod.section] === undefined) continue;
    const objects = listed(live, mod.kind);
    if (objects.length === 0 || mod.desired(desired).length === 0) continue;
    const reason = mod.unmatchable(objects);
    if (reason !== undefined) problems.push(planProblem('LIVE_RESTRICTED', reason));
  }
  return problems;
}
