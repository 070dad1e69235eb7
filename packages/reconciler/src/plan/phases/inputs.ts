/**
 * Phase 0 of `assemblePlan`: inputs that cannot be planned from at all. Both are problems of the live snapshot,
 * not of the config, so they carry no position.
 */
import type { DesiredState } from '../../desired.js';
import type { LiveScope, LiveSnapshot } from '../../live/types.js';
import { planProblem, type PlanProblem } from '../errors.js';

export function inputProblems(desired: DesiredState, live: LiveSnapshot, scope: LiveScope): PlanProblem[] {
  const problems: PlanProblem[] = [];
  for (const kind of scope.kinds) {
    if (!live.read.includes(kind)) {
      problems.push(planProblem('LIVE_NOT_READ', `the live snapshot does not include ${kind} objects; read them with readLive(client, liveScope(desired)) before planning`));
    }
  }
  // Reports are matched by the key marker in InternalNotes, which only account administrators see: without it every
  // declared report would be created again next to the one that exists.
  const reports = live.scheduledReports;
  if (desired.settings.manage.scheduledReports !== undefined && desired.scheduledReports.length > 0 && reports.length > 0 && !reports.some((r) => 'InternalNotes' in r)) {
    problems.push(
      planProblem(
        'LIVE_RESTRICTED',
        `the API account reads ${reports.length} scheduled report${reports.length === 1 ? '' : 's'} without InternalNotes, which only account administrators see; ` +
          'monsync finds its reports by the monsync:key= marker there, so a plan would create every declared report again. Use the API account of an account administrator',
      ),
    );
  }
  return problems;
}
