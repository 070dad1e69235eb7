/**
 * Phase 5 of `assemblePlan`, ordering and dependencies: explicit `dependsOn` edges (an object waits for the creates
 * of what it references; a delete waits for the updates and deletes of the live objects that refer to it), the
 * `--target` selection, then the plan order: creates, updates and ensures kind by kind, deletes in reverse kind
 * order, keys sorted within a kind; step ids `<kind>:<key>`, made unique where needed.
 */
import { placeholderKey } from '../../kinds/contract.js';
import { KINDS } from '../../kinds/index.js';
import { planProblem, type PlanProblem } from '../errors.js';
import type { PlanStep, PlanWarning } from '../types.js';
import { compareStrings } from '../values.js';
import { nothingDeletedOf } from './references.js';
import { entriesWithRefs, identityOf, kindOrder, PerKind, type Draft, type KindState } from './state.js';

/** Adds the `dependsOn` edges between drafts (in place: drafts are the phase's own objects until they are named). */
export function linkDependencies(drafts: readonly Draft[], states: readonly KindState[]): void {
  const creates = new PerKind<Draft>();
  const byLiveGuid = new PerKind<Draft>();
  const renamedFrom = new PerKind<Draft>();
  const deleted = new PerKind<Draft>();
  for (const draft of drafts) {
    const { step, liveEntry } = draft;
    if (step.action === 'create') creates.of(step.kind).set(step.key, draft);
    if ((step.action === 'update' || step.action === 'delete') && liveEntry !== undefined) byLiveGuid.of(step.kind).set(liveEntry.guid, draft);
    if (step.action === 'update' && liveEntry !== undefined && identityOf(step.kind, liveEntry.key) !== identityOf(step.kind, step.key)) {
      renamedFrom.of(step.kind).set(identityOf(step.kind, liveEntry.key), draft);
    }
    // GUIDs compare case-insensitively, as the service does (a reference typed in the UI may differ in case).
    if (step.action === 'delete' && liveEntry !== undefined) deleted.of(step.kind).set(liveEntry.guid.toLowerCase(), draft);
  }
  for (const draft of drafts) {
    const { step } = draft;
    if ((step.action === 'create' || step.action === 'update') && draft.desiredEntry !== undefined) {
      for (const ref of draft.desiredEntry.refs) {
        const parent = creates.get(ref.kind, ref.key);
        if (parent !== undefined) draft.dependsOn.add(parent);
      }
      // A create taking over a key another object is renamed away from (names are unique for some kinds).
      const renamed = step.action === 'create' ? renamedFrom.get(step.kind, identityOf(step.kind, step.key)) : undefined;
      if (renamed !== undefined) draft.dependsOn.add(renamed);
    }
  }
  // A delete of what a create of this plan brings along (the AccountAccess a new operator is given) waits for it.
  for (const draft of drafts) {
    if (draft.step.action !== 'delete' || draft.liveEntry === undefined) continue;
    for (const ref of draft.liveEntry.refs) {
      const key = placeholderKey(ref.kind, ref.guid);
      const parent = key === undefined ? undefined : creates.get(ref.kind, key);
      if (parent !== undefined) draft.dependsOn.add(parent);
    }
  }
  // A delete waits for the updates and deletes of the live objects that refer to it: they drop the reference.
  // Without a delete nothing waits (and the references of every live object, 30,000 at scale, need no look-up).
  const anyDeleted = drafts.some((draft) => draft.step.action === 'delete');
  for (const state of anyDeleted ? states : []) {
    if (nothingDeletedOf(state, deleted)) continue;
    for (const entry of entriesWithRefs(state.live)) {
      for (const ref of entry.refs) {
        const target = deleted.get(ref.kind, ref.guid.toLowerCase());
        if (target === undefined) continue;
        const other = byLiveGuid.get(entry.kind, entry.guid);
        if (other !== undefined && other !== target) target.dependsOn.add(other);
      }
    }
  }
}

export function globMatches(pattern: string, text: string): boolean {
  let source = '';
  for (const ch of pattern) source += ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${source}$`, 'su').test(text);
}

/** The drafts matching `targets` (`kind:key` globs) and what they depend on; every draft without targets. */
export function selectTargets(drafts: Draft[], targets: readonly string[] | undefined): { selected: Draft[]; warnings: PlanWarning[] } {
  if (targets === undefined || targets.length === 0) return { selected: drafts, warnings: [] };
  const warnings: PlanWarning[] = [];
  const keep = new Set<Draft>();
  const visit = (draft: Draft): void => {
    if (keep.has(draft)) return;
    keep.add(draft);
    for (const dep of draft.dependsOn) visit(dep);
  };
  for (const target of targets) {
    const hits = drafts.filter((d) => globMatches(target, `${d.step.kind}:${d.step.key}`));
    if (hits.length === 0) warnings.push({ code: 'TARGET_NOT_FOUND', message: `--target ${target} matches no step of this plan` });
    hits.forEach(visit);
  }
  return { selected: drafts.filter((d) => keep.has(d)), warnings };
}

/**
 * A narrowed plan must leave the account whole: no live object may keep referring to (or stay inside) an object the
 * selected steps delete, unless a selected step deletes it too, its owner's delete takes it along, or a selected
 * update rewrites it (the full plan already checked that such an update drops the reference). The dependencies
 * normally pull those steps in; this is the check that they did, so a targeted apply never leaves an orphan
 * behind, whatever a future kind's links miss. One problem per deleted object, naming the targets to add.
 */
export function targetOrphans(selected: readonly Draft[], states: readonly KindState[]): PlanProblem[] {
  const deleted = new PerKind<Draft>();
  const rewritten = new PerKind<true>();
  for (const draft of selected) {
    const { step, liveEntry } = draft;
    if (liveEntry === undefined) continue;
    if (step.action === 'delete') deleted.of(step.kind).set(liveEntry.guid.toLowerCase(), draft);
    else if (step.action === 'update') rewritten.of(step.kind).set(liveEntry.guid.toLowerCase(), true);
  }
  if (!selected.some((draft) => draft.step.action === 'delete')) return [];
  const left = new Map<Draft, string[]>();
  for (const state of states) {
    const owners = state.mod.ownedBy ?? [];
    for (const entry of entriesWithRefs(state.allLive)) {
      const guid = entry.guid.toLowerCase();
      if (deleted.has(entry.kind, guid) || rewritten.has(entry.kind, guid)) continue;
      const refs = entry.refs.map((ref) => ({ ref, target: deleted.get(ref.kind, ref.guid.toLowerCase()) }));
      if (refs.some(({ ref, target }) => target !== undefined && owners.includes(ref.kind))) continue;
      for (const { target } of refs) {
        if (target === undefined) continue;
        const list = left.get(target) ?? [];
        list.push(`${entry.kind}:${entry.key}`);
        left.set(target, list);
      }
    }
  }
  return [...left].map(([target, keepers]) => {
    const { kind, key } = target.step;
    const named = [...new Set(keepers)].sort(compareStrings);
    return planProblem(
      'TARGET_ORPHANS',
      `the targeted steps delete ${kind} "${key}" but leave ${named.map((k) => JSON.stringify(k)).join(', ')} referring to it, which would be orphaned: add ${named.map((k) => `--target "${k}"`).join(' ')}, or plan without --target`,
      target.desiredEntry?.source,
    );
  });
}

/** Creates, updates and ensures kind by kind, then deletes in reverse kind order; keys sorted within a kind. */
export function orderAndName(drafts: readonly Draft[]): PlanStep[] {
  const rank = (d: Draft): number => (d.step.action === 'delete' ? 2 * KINDS.length - kindOrder(d.step.kind) : kindOrder(d.step.kind));
  const ordered = drafts
    .map((d) => ({ d, rank: rank(d) }))
    .sort(
      (a, b) =>
        a.rank - b.rank || compareStrings(a.d.step.key, b.d.step.key) || compareStrings(a.d.step.action, b.d.step.action) || compareStrings(a.d.step.guid ?? '', b.d.step.guid ?? ''),
    )
    .map((x) => x.d);
  const ids = stepIds(ordered);
  return ordered.map((d) => {
    const { action, kind, key, guid, changes, reason, removal, drift, protectedBy, source, desired } = d.step;
    const dependsOn = [...d.dependsOn].map((dep) => ids.get(dep)).filter((id): id is string => id !== undefined).sort(compareStrings);
    // Built field by field so the JSON key order is fixed whatever the draft held.
    const step = { id: ids.get(d) ?? '', action, kind, key } as PlanStep;
    if (guid !== undefined) step.guid = guid;
    step.changes = changes;
    step.dependsOn = dependsOn;
    if (reason !== undefined) step.reason = reason;
    if (removal !== undefined) step.removal = removal;
    if (drift !== undefined) step.drift = drift;
    if (protectedBy !== undefined) step.protectedBy = protectedBy;
    if (source !== undefined) step.source = source;
    if (desired !== undefined) step.desired = desired;
    return step;
  });
}

/** `<kind>:<key>`, plus `:<action>` when a key has two steps, plus `:<guid>` when that is not unique either. */
function stepIds(ordered: readonly Draft[]): Map<Draft, string> {
  const bases = new Map<string, number>();
  for (const d of ordered) {
    const base = `${d.step.kind}:${d.step.key}`;
    bases.set(base, (bases.get(base) ?? 0) + 1);
  }
  const ids = new Map<Draft, string>();
  const used = new Set<string>();
  for (const d of ordered) {
    const base = `${d.step.kind}:${d.step.key}`;
    let id = (bases.get(base) ?? 0) > 1 ? `${base}:${d.step.action}` : base;
    if (used.has(id)) id = `${id}:${d.step.guid ?? ''}`;
    used.add(id);
    ids.set(d, id);
  }
  return ids;
}
