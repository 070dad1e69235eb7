/**
 * Phase 6 of `assemblePlan`, safety: per kind, deletes and updates as a percentage of that kind's live objects,
 * over `safety.maxDeletePercent` / `maxUpdatePercent` -> a violation (the plan is unsafe). No small-account
 * exemption; a kind with no live object has nothing to measure against.
 */
import type { Settings } from '../../desired.js';
import type { PlanStep, PlanViolation } from '../types.js';
import type { KindState } from './state.js';

function percentOf(count: number, total: number): number {
  return Math.round((count / total) * 1000) / 10;
}

export function safetyViolations(states: readonly KindState[], steps: readonly PlanStep[], safety: Settings['safety']): PlanViolation[] {
  const violations: PlanViolation[] = [];
  const limits = { delete: safety.maxDeletePercent, update: safety.maxUpdatePercent } as const;
  for (const state of states) {
    // A kind matched as sets (match-sets.ts) has one live object per declaration, counted without building them.
    const total = state.sets?.paired ?? state.live.length;
    if (!state.managed || state.mod.ensureOnly === true || total === 0) continue;
    for (const action of ['delete', 'update'] as const) {
      const count = steps.filter((s) => s.kind === state.mod.kind && s.action === action).length;
      const percent = percentOf(count, total);
      if (count === 0 || (count / total) * 100 <= limits[action]) continue;
      const verb = action === 'delete' ? 'deletes' : 'updates';
      violations.push({
        kind: state.mod.kind,
        action,
        count,
        total,
        percent,
        limit: limits[action],
        message: `plan ${verb} ${count} of ${total} live ${state.mod.title.many} (${percent}%), over the ${action} limit of ${limits[action]}% (safety.max${action === 'delete' ? 'Delete' : 'Update'}Percent); review it, then apply with --allow-deletes (it accepts any unsafe plan, updates as well as deletes) or raise the limit in monsync.yaml`,
      });
    }
  }
  return violations;
}
