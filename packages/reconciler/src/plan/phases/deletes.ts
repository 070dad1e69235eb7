/**
 * Phase 4 of `assemblePlan`, deletes and prune: undeclared live objects of a kind with `prune: true` are deleted
 * (relations always: a declared `members` list is authoritative), others listed as unmanaged; children of a deleted
 * owner go with it. Then the deletes the service would refuse: an object that stays in use, or still holds objects.
 */
import type { DesiredEntry, LiveEntry } from '../../kinds/contract.js';
import { place, planProblem, type PlanProblem } from '../errors.js';
import type { Plan, PlanWarning, StepKind } from '../types.js';
import { compareStrings } from '../values.js';
import { driftOf, type DraftOptions } from './drafts.js';
import { nothingDeletedOf } from './references.js';
import { retireBody } from './retire.js';
import { entriesWithRefs, kindOrder, PerKind, type Draft, type KindState, type Resolution } from './state.js';

/** The reason of a delete `plan --dedupe` planned; `apply` recognises a saved plan made with it by this. */
export const DUPLICATE_REASON = 'duplicate (plan --dedupe): the account keeps';

export interface Deletes {
  drafts: Draft[];
  unmanaged: Plan['unmanaged'];
  /** GUIDs deleted, per kind; undefined when the plan deletes nothing. */
  deleted: PerKind<true> | undefined;
  /** Undeclared objects kept instead of deleted (`KindModule.keptWhy`), each with why. */
  kept: PlanWarning[];
}

/**
 * With `options`, a delete of an object another operator created or changed last carries that as its drift: an
 * object made in the web app and pruned here is drift, not only a changed one.
 */
export function draftDeletes(states: readonly KindState[], options?: DraftOptions): Deletes {
  const drafts: Draft[] = [];
  const unmanaged: Plan['unmanaged'] = [];
  const deleted = new PerKind<true>();
  // Deleted for certain, so their owned children go with them; an object that may be retired instead stays, and so
  // do its children (a retired monitor keeps its group memberships unless they are removed too).
  const gone = new PerKind<true>();
  let deletedAny = false;
  const kept: PlanWarning[] = [];
  for (const state of states) {
    const { mod } = state;
    if (!state.managed) continue;
    const owned = mod.ownedBy ?? [];
    const remove = (entry: LiveEntry, reason?: string): void => {
      deleted.of(mod.kind).set(entry.guid, true);
      if (mod.retire === undefined || state.removal === 'delete') gone.of(mod.kind).set(entry.guid, true);
      deletedAny = true;
      const step: Draft['step'] = { action: 'delete', kind: mod.kind, key: entry.key, guid: entry.guid, changes: [] };
      if (reason !== undefined) step.reason = reason;
      const drift = options === undefined ? undefined : driftOf(mod, entry, options);
      if (drift !== undefined) step.drift = drift;
      // A kind that can be retired says how (phases/retire.ts); the body is what a retire sends.
      if (mod.retire !== undefined && state.removal !== undefined) {
        step.removal = state.removal;
        if (state.removal !== 'delete') step.desired = retireBody(mod.retire, entry, state.removal);
      }
      drafts.push({ step, liveEntry: entry, dependsOn: new Set() });
    };
    for (const orphan of state.orphans) {
      if (mod.system?.(orphan) === true) continue;
      if (!state.prune && mod.relation !== true && mod.authoritative !== true) {
        unmanaged.push({ kind: mod.kind, key: orphan.key, guid: orphan.guid });
        continue;
      }
      // Only what would be deleted is kept: an unpruned object stays anyway, listed as unmanaged.
      const why = mod.keptWhy?.(orphan);
      if (why !== undefined) {
        kept.push({ code: 'ACCESS_KEPT', message: `${mod.title.one} "${orphan.key}" is kept although the config does not declare it: ${why}`, kind: mod.kind, key: orphan.key });
        continue;
      }
      if (orphan.refs.some((r) => owned.includes(r.kind) && gone.has(r.kind, r.guid))) continue;
      remove(orphan, mod.deleteReason?.(orphan));
    }
    // plan --dedupe: the copies of a declared key are removed whatever prune says; the one kept stays declared.
    for (const copy of state.duplicates) remove(copy.entry, `${DUPLICATE_REASON} ${copy.kept.guid} (${copy.rule})`);
  }
  unmanaged.sort((a, b) => kindOrder(a.kind) - kindOrder(b.kind) || compareStrings(a.key, b.key) || compareStrings(a.guid, b.guid));
  return { drafts, unmanaged, deleted: deletedAny ? deleted : undefined, kept };
}

const SHOWN_REFERRERS = 5;

/** A live object that keeps a deleted one in use (a reference) or not empty (a child), and what to do about it. */
interface Keeper {
  entry: LiveEntry;
  relation: 'child' | 'reference';
  text: string;
  source?: DesiredEntry['source'];
}

/**
 * Deletes the service would refuse (a vault item in use, a section still holding items): a live object the plan
 * neither deletes nor updates away from the reference keeps the target in use. Fields the config leaves out are
 * not managed, so their references stay; ignored, unmanaged and unpruned objects keep theirs too. Such a plan would
 * fail at apply, and no `--allow-unsafe` could change that, so it is a problem, not a violation. GUIDs compare
 * case-insensitively, as the service does.
 */
export function deletesRefused(deletes: readonly Draft[], states: readonly KindState[], resolution: Resolution): PlanProblem[] {
  const deleted = new PerKind<Draft>();
  for (const draft of deletes) if (draft.step.action === 'delete' && draft.liveEntry !== undefined) deleted.of(draft.step.kind).set(draft.liveEntry.guid.toLowerCase(), draft);
  if (deletes.length === 0) return [];
  const keepers = keepersOf(deleted, states, resolution);
  const problems: PlanProblem[] = [];
  const targets = [...keepers.keys()].sort(
    (a, b) => kindOrder(a.step.kind) - kindOrder(b.step.kind) || compareStrings(a.step.key, b.step.key) || compareStrings(a.step.guid ?? '', b.step.guid ?? ''),
  );
  for (const target of targets) {
    const all = (keepers.get(target) ?? []).sort(
      (a, b) => kindOrder(a.entry.kind) - kindOrder(b.entry.kind) || compareStrings(a.entry.key, b.entry.key) || compareStrings(a.entry.guid, b.entry.guid),
    );
    for (const relation of ['reference', 'child'] as const) {
      const group = all.filter((k) => k.relation === relation);
      if (group.length > 0) problems.push(refusal(target, relation, group, deleted));
    }
  }
  return problems;
}

function keepersOf(deleted: PerKind<Draft>, states: readonly KindState[], resolution: Resolution): Map<Draft, Keeper[]> {
  // The kind first: most references name a kind the plan deletes nothing of, and need no lower-cased GUID.
  const isDeleted = (kind: StepKind, guid: string): boolean => deleted.hasAny(kind) && deleted.has(kind, guid.toLowerCase());
  const keepers = new Map<Draft, Keeper[]>();
  for (const state of states) {
    if (nothingDeletedOf(state, deleted)) continue;
    const { mod } = state;
    const owners = mod.ownedBy ?? [];
    const parents = mod.parents ?? [];
    for (const entry of entriesWithRefs(state.allLive)) {
      if (!entry.refs.some((r) => isDeleted(r.kind, r.guid))) continue;
      // It goes first (the delete waits for it), or it goes with its owner.
      if (isDeleted(mod.kind, entry.guid) || entry.refs.some((r) => owners.includes(r.kind) && isDeleted(r.kind, r.guid))) continue;
      let refs = entry.refs;
      const declared = state.managed && !resolution.isIgnoredGuid(mod.kind, entry.guid) ? resolution.desiredOf(mod.kind, entry.guid) : undefined;
      if (declared !== undefined && mod.references !== undefined) {
        const kept = mod.references.after(entry, mod.resolve?.(declared, resolution) ?? declared.fields);
        // A declared reference to a deleted object is REFERENCE_TO_DELETED already: not reported twice.
        const named = new Set(declared.refs.map((r) => resolution.guidOf(r.kind, r.key)?.toLowerCase()));
        refs = [...entry.refs.filter((r) => parents.includes(r.kind)), ...kept.filter((r) => !named.has(r.guid.toLowerCase()))];
      }
      const seen = new Set<Draft>();
      for (const ref of refs) {
        const target = deleted.get(ref.kind, ref.guid.toLowerCase());
        if (target === undefined || seen.has(target)) continue;
        seen.add(target);
        const relation = parents.includes(ref.kind) ? 'child' : 'reference';
        const list = keepers.get(target) ?? [];
        list.push({ entry, relation, ...whyKept(state, entry, resolution, relation) });
        keepers.set(target, list);
      }
    }
  }
  return keepers;
}

function refusal(target: Draft, relation: Keeper['relation'], group: readonly Keeper[], deleted: PerKind<Draft>): PlanProblem {
  const { kind, key, guid } = target.step;
  const keep = `Or keep ${kind} "${key}": declare it, or add "${kind}:${key}" to ignore.`;
  const verb = relation === 'reference' ? 'refers to it' : 'stays in it';
  const shown = group.slice(0, SHOWN_REFERRERS).map((k) => `${k.entry.kind} "${k.entry.key}" (${k.entry.guid}) ${verb}: ${k.text}.`);
  if (group.length > SHOWN_REFERRERS) shown.push(`And ${group.length - SHOWN_REFERRERS} more.`);
  const source = group.find((k) => k.source !== undefined)?.source;
  const head = `${kind} "${key}" (${guid ?? ''}) cannot be deleted: this plan prunes it because no file declares it, but the service refuses`;
  if (relation === 'child') {
    return planProblem(
      'DELETE_NOT_EMPTY',
      `${head} to delete it while it holds objects (400), and it still holds ${group.length === 1 ? 'one' : group.length} after this plan. ${shown.join(' ')} ${keep}`,
      source,
    );
  }
  // Its parent's delete waits for it, so the parent cannot go either: say so rather than let apply find out.
  const parents = (target.liveEntry?.refs ?? []).map((r) => deleted.get(r.kind, r.guid.toLowerCase())?.step).filter((p) => p !== undefined);
  const also = parents.map((p) => ` (so ${p.kind} "${p.key}", which holds it, cannot be deleted either)`).join('');
  return planProblem('DELETE_IN_USE', `${head} to delete an object in use (400), and it stays in use after this plan${also}. ${shown.join(' ')} ${keep}`, source);
}

/** Why a live object still refers to an object the plan deletes, and how to make it stop, for the problem message. */
function whyKept(state: KindState, entry: LiveEntry, resolution: Resolution, relation: Keeper['relation']): { text: string; source?: DesiredEntry['source'] } {
  const { mod } = state;
  const field = mod.references?.field ?? 'its fields';
  const declared = state.managed && !resolution.isIgnoredGuid(mod.kind, entry.guid) ? resolution.desiredOf(mod.kind, entry.guid) : undefined;
  const ignored = resolution.isIgnoredGuid(mod.kind, entry.guid);
  if (relation === 'child') {
    if (declared !== undefined) return { text: `it is declared at ${place(declared.source)}, so this plan keeps it; remove it from the config to delete it too`, source: declared.source };
    if (ignored) return { text: 'it matches an ignore pattern, so monsync leaves it as it is; delete it in the service, or stop ignoring it' };
    return { text: state.managed ? `no file declares it and prune is off for ${mod.title.many}; delete it in the service` : `${mod.title.many} are not managed; delete it in the service` };
  }
  if (declared !== undefined) {
    const where = place(declared.source);
    return field in declared.fields
      ? { text: `its declared ${field} at ${where} still hold the reference; remove it there`, source: declared.source }
      : { text: `its declaration at ${where} leaves out ${field}, so the live value stays; declare ${field} there without the reference`, source: declared.source };
  }
  if (ignored) return { text: 'it matches an ignore pattern, so monsync leaves it as it is; remove the reference in the service' };
  if (state.managed) return { text: `no file declares it and prune is off for ${mod.title.many}; declare it with ${field} that leave the reference out, or remove the reference in the service` };
  return { text: `${mod.title.many} are not managed; remove the reference in the service, or manage ${mod.title.many} and declare it with ${field} that leave the reference out` };
}
