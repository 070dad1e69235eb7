/**
 * Phase 2 of `assemblePlan`, references: every reference a managed declaration makes must name an object that
 * exists or that this plan creates, and none may name an object this plan deletes.
 */
import { planProblem, type PlanProblem } from '../errors.js';
import { entriesWithRefs, type PerKind, type KindState, type Resolution } from './state.js';

export function unresolvedReferences(states: readonly KindState[], resolution: Resolution): PlanProblem[] {
  const problems: PlanProblem[] = [];
  for (const state of states) {
    // Matched as sets (match-sets.ts), every declaration refers to a paired parent and a paired member.
    if (!state.managed || state.sets !== undefined) continue;
    // Most entries refer to nothing (a monitor without vault references): only those that do are looked at.
    for (const entry of entriesWithRefs(state.desired)) {
      for (const ref of entry.refs) {
        if (resolution.guidOf(ref.kind, ref.key) === undefined && !resolution.isCreated(ref.kind, ref.key)) {
          problems.push(
            planProblem(
              'UNRESOLVED_REFERENCE',
              `${state.mod.kind} "${entry.key}" refers to ${ref.kind} "${ref.key}", which is neither declared in a managed kind nor in the account; declare it or fix the reference`,
              entry.source,
            ),
          );
        }
      }
    }
  }
  return problems;
}

/**
 * A declared object must not keep referring to an object this plan deletes (the delete would fail, or break it).
 * Without a delete there is nothing to look up (prune is off in most runs, and there are 20,000 references at scale).
 */
export function referencesToDeleted(states: readonly KindState[], resolution: Resolution, deleted: PerKind<true> | undefined): PlanProblem[] {
  const problems: PlanProblem[] = [];
  if (deleted === undefined) return problems;
  for (const state of states) {
    if (!state.managed || nothingDeletedOf(state, deleted)) continue;
    for (const entry of entriesWithRefs(state.desired)) {
      for (const ref of entry.refs) {
        // Most references name a kind the plan deletes nothing of (a membership's monitor): no look-up.
        if (!deleted.hasAny(ref.kind)) continue;
        const guid = resolution.guidOf(ref.kind, ref.key);
        if (guid !== undefined && deleted.has(ref.kind, guid)) {
          problems.push(
            planProblem(
              'REFERENCE_TO_DELETED',
              `${state.mod.kind} "${entry.key}" refers to ${ref.kind} "${ref.key}", which this plan deletes because no file declares it; declare it, or remove the reference`,
              entry.source,
            ),
          );
        }
      }
    }
  }
  return problems;
}

/**
 * A kind matched as sets (match-sets.ts) refers to its parents only, and to paired ones: while the plan deletes
 * none of their kinds, its entries need not be built to know that none refers to a deleted object.
 */
export function nothingDeletedOf(state: KindState, deleted: Pick<PerKind<unknown>, 'hasAny'>): boolean {
  return state.sets !== undefined && !(state.mod.parents ?? []).some((kind) => deleted.hasAny(kind));
}
