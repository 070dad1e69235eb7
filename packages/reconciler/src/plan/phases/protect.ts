/**
 * Phase 5 of `assemblePlan`, protection: a delete (or retire) of an object that a `protect:` pattern of monsync.yaml
 * or a `protect: true` declaration protects, or of an object inside a protected one (a vault section's items, an
 * SLA's exclusion periods), is marked `protectedBy`. Such a plan is refused (plan exits 1, apply writes nothing)
 * whatever `--allow-unsafe` says. Relations (group memberships) are edits of their group, never protected.
 */
import type { Protection } from '@monsync/schema';
import { globToRegExp } from '../ignore.js';
import type { PlanProtection } from '../types.js';
import { identityOf, type Draft, type KindState, type Resolution } from './state.js';

interface Matcher {
  protection: Protection;
  test(key: string): boolean;
}

function matchers(protection: readonly Protection[]): Map<string, Matcher[]> {
  const byKind = new Map<string, Matcher[]>();
  for (const p of protection) {
    const pattern = p.glob === undefined ? undefined : globToRegExp(p.glob);
    const key = p.key === undefined ? undefined : identityOf(p.kind, p.key);
    const test = (k: string): boolean => (pattern !== undefined ? pattern.test(k) : identityOf(p.kind, k) === key);
    byKind.set(p.kind, [...(byKind.get(p.kind) ?? []), { protection: p, test }]);
  }
  return byKind;
}

function protectedBy(p: Protection): PlanProtection {
  return { rule: p.rule, source: p.source };
}

/** Marks every delete draft of a protected object; returns how many were marked. */
export function markProtected(drafts: readonly Draft[], states: readonly KindState[], resolution: Resolution, protection: readonly Protection[] | undefined): number {
  if (protection === undefined || protection.length === 0) return 0;
  const byKind = matchers(protection);
  const parentsOf = new Map(states.map((state) => [state.mod.kind, state.mod.relation === true ? undefined : (state.mod.parents ?? [])]));
  let marked = 0;
  for (const draft of drafts) {
    const { step } = draft;
    const parents = parentsOf.get(step.kind);
    if (step.action !== 'delete' || parents === undefined) continue;
    const own = byKind.get(step.kind)?.find((m) => m.test(step.key));
    let found = own?.protection;
    // Inside a protected object: its parent, by the parent's key as the plan knows it.
    for (const ref of draft.liveEntry?.refs ?? []) {
      if (found !== undefined) break;
      if (!parents.includes(ref.kind)) continue;
      const parentKey = resolution.keyOf(ref.kind, ref.guid);
      if (parentKey !== undefined) found = byKind.get(ref.kind)?.find((m) => m.test(parentKey))?.protection;
    }
    if (found === undefined) continue;
    step.protectedBy = protectedBy(found);
    marked += 1;
  }
  return marked;
}
