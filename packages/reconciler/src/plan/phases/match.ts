/**
 * Phase 1 of `assemblePlan`, identity: each kind's declarations and live objects, ignore patterns applied, paired
 * by pinned GUID first and then by key (compared as the service compares them). Kinds are matched in plan order,
 * so a child's live key can be built from its parent's matched (desired) key.
 */
import type { DesiredState, Settings } from '../../desired.js';
import type { DesiredEntry, KindModule, LiveEntry, Resolver } from '../../kinds/contract.js';
import { KINDS } from '../../kinds/index.js';
import type { ApiObject, LiveScope, LiveSnapshot } from '../../live/types.js';
import { at, place, planProblem, type PlanProblem } from '../errors.js';
import type { IgnoreMatcher } from '../ignore.js';
import type { PlanWarning, StepKind } from '../types.js';
import { compareStrings } from '../values.js';
import { lookAlikeWarnings } from './look-alike.js';
import { matchableLive, settleRetired } from './retire.js';
import { matchedAsSets, pairedAsSets } from './match-sets.js';
import { exactKey, Resolution, type Duplicate, type KindBase, type KindState, type Pair } from './state.js';

export interface Matched {
  states: KindState[];
  resolution: Resolution;
  problems: PlanProblem[];
  warnings: PlanWarning[];
}

/** What matching a kind reads and adds to: the inputs, the resolution so far, and the findings. */
interface MatchContext {
  desired: DesiredState;
  live: LiveSnapshot;
  resolution: Resolution;
  ignore: IgnoreMatcher;
  /** Until something is ignored, no parent can be: the per-reference lookups are skipped (20,000 entries at scale). */
  ignoredAny: { value: boolean };
  problems: PlanProblem[];
  warnings: PlanWarning[];
  dedupe: boolean;
}

export interface MatchOptions {
  dedupe?: boolean | undefined;
  self?: readonly string[] | undefined;
  /** Match relations declared as lists entry by entry even where list by list would do (match-sets.ts): what tests compare it with. */
  perEntry?: boolean | undefined;
}

/** Every kind that is managed or read, matched; ignored objects are recorded in the resolution and left out. */
export function matchKinds(desired: DesiredState, live: LiveSnapshot, scope: LiveScope, ignore: IgnoreMatcher, options: MatchOptions = {}): Matched {
  const settings: Settings = desired.settings;
  const context: MatchContext = { desired, live, resolution: new Resolution(options.self), ignore, ignoredAny: { value: false }, problems: [], warnings: [], dedupe: options.dedupe === true };
  const states: KindState[] = [];
  for (const mod of KINDS) {
    const managed = settings.manage[mod.section] !== undefined;
    if (!managed && !scope.kinds.includes(mod.kind)) continue;
    const entry = settings.manage[mod.section];
    const base: KindBase = { mod, managed, prune: entry?.prune === true, ...(mod.retire === undefined ? {} : { removal: entry?.removal ?? 'auto' }) };
    // Lists are compared whole only where matching entry by entry would find nothing to report: nothing ignored
    // (an ignored parent or entry leaves entries out) and no problem so far (a parent declared twice pairs neither).
    const asSets = mod.memberSets !== undefined && options.perEntry !== true && context.problems.length === 0 && !context.ignoredAny.value && !ignore.names(mod.kind);
    const paired = asSets && mod.memberSets !== undefined ? pairedAsSets(mod.memberSets, mod.kind, desired, live, context.resolution) : undefined;
    states.push(paired === undefined ? matchKind(base, context) : matchedAsSets(base, paired, context.resolution, () => matchKind(base, { ...context, ignoredAny: { value: false }, problems: [], warnings: [] })));
  }
  return { states, resolution: context.resolution, problems: context.problems, warnings: context.warnings };
}

/** One kind matched entry by entry: its declarations and live objects in scope, paired, with what is left over. */
function matchKind(base: KindBase, context: MatchContext): KindState {
  const { mod, managed } = base;
  const { desired, live, resolution, ignore, ignoredAny, problems } = context;
  const allLive = mod.live(live, resolution, desired);
  resolution.indexLive(mod.kind, allLive);
  const liveEntries = liveInScope(mod, allLive, ignore, resolution, ignoredAny);
  const desiredEntries = declaredInScope(mod, mod.desired(desired), managed, ignore, resolution, ignoredAny, context.warnings);
  const desiredAscending = ascendingKeys(desiredEntries);
  if (!desiredAscending && !sortedByKey(desiredEntries)) desiredEntries.sort((a, b) => compareStrings(a.key, b.key));
  const liveAscending = ascendingKeys(liveEntries);
  if (!liveAscending && !sortedByKeyAndGuid(liveEntries)) liveEntries.sort((a, b) => compareStrings(a.key, b.key) || compareStrings(a.guid, b.guid));
  // Retired objects (phases/retire.ts): only one per key takes part in matching, and unpaired ones are dormant.
  const { matchable, dormant: shadowed, retiredAny } = matchableLive(mod, liveEntries);
  const copies: Copies = { dedupe: context.dedupe, operators: live.operators, found: [] };
  const rules = matchRules(mod);
  // `matchable` is `liveEntries` or a part of it, in the same order, so its keys ascend too.
  const unique = desiredAscending && liveAscending && rules.identity === exactKey && !pinsAny(desiredEntries);
  const matched = unique ? matchAscending(desiredEntries, matchable) : match(rules, desiredEntries, matchable, problems, resolution, copies);
  const settled = settleRetired(mod, matched.pairs, matched.orphans, retiredAny);
  if (managed) context.warnings.push(...lookAlikeWarnings(mod, rules.identity, matched.creates, settled.orphans, base.prune));
  resolution.register(mod.kind, settled.pairs, matched.creates, managed);
  const dormant = new Set([...shadowed, ...settled.dormant]);
  const inPlay = dormant.size === 0 ? liveEntries : liveEntries.filter((entry) => !dormant.has(entry));
  return {
    ...base,
    live: inPlay,
    allLive,
    desired: desiredEntries,
    pairs: settled.pairs,
    creates: matched.creates,
    orphans: settled.orphans,
    duplicates: copies.found,
  };
}

function liveInScope(mod: KindModule, allLive: readonly LiveEntry[], ignore: IgnoreMatcher, resolution: Resolution, ignoredAny: { value: boolean }): LiveEntry[] {
  // No pattern for the kind and nothing ignored yet, so no parent either: every entry stays.
  if (!ignoredAny.value && !ignore.names(mod.kind)) return allLive.slice();
  const parents = mod.parents ?? [];
  const kept: LiveEntry[] = [];
  for (const entry of allLive) {
    if (ignore.matches(mod.kind, entry.key) || (ignoredAny.value && entry.refs.some((r) => parents.includes(r.kind) && resolution.isIgnoredGuid(r.kind, r.guid)))) {
      resolution.ignore(mod.kind, entry);
      ignoredAny.value = true;
    } else kept.push(entry);
  }
  return kept;
}

function declaredInScope(
  mod: KindModule,
  entries: readonly DesiredEntry[],
  managed: boolean,
  ignore: IgnoreMatcher,
  resolution: Resolution,
  ignoredAny: { value: boolean },
  warnings: PlanWarning[],
): DesiredEntry[] {
  if (!ignoredAny.value && !ignore.names(mod.kind)) return entries.slice();
  const parents = mod.parents ?? [];
  const kept: DesiredEntry[] = [];
  for (const entry of entries) {
    const parentIgnored = ignoredAny.value && entry.refs.some((r) => parents.includes(r.kind) && resolution.isIgnoredKey(r.kind, r.key));
    if (ignore.matches(mod.kind, entry.key) || parentIgnored) {
      resolution.ignore(mod.kind, entry);
      ignoredAny.value = true;
      if (!parentIgnored && managed) {
        warnings.push({ code: 'IGNORED_DECLARATION', message: `${at(entry.source)}${mod.kind} "${entry.key}" is declared but matches an ignore pattern, so it is not planned`, kind: mod.kind, key: entry.key });
      }
    } else kept.push(entry);
  }
  return kept;
}

/** Warnings for ignore patterns naming no kind: they match nothing. */
export function unknownIgnoreKinds(ignore: IgnoreMatcher): PlanWarning[] {
  const warnings: PlanWarning[] = [];
  for (const pattern of ignore.unknown) {
    warnings.push({ code: 'UNKNOWN_IGNORE_KIND', message: `ignore pattern "${pattern}" names no kind (use e.g. monitor:legacy-*, monitorGroup:..., vaultItem:Section/*); it matches nothing` });
  }
  return warnings;
}

/** Warnings for patterns of the kinds read that hide nothing (usually a typo: the object meant is then planned, pruned even). */
export function ignoreUnmatched(ignore: IgnoreMatcher, states: readonly KindState[]): PlanWarning[] {
  return ignore.unmatched(states.map((s) => s.mod.kind)).map(({ pattern, kind, caseOnly }) => {
    const hint = caseOnly === undefined ? '' : `; it would match "${caseOnly}" if case were ignored, but patterns are case-sensitive`;
    return {
      code: 'IGNORE_UNMATCHED',
      message: `ignore pattern "${pattern}" matches no ${kind} in the account or the config, so it hides nothing${hint}; an object it was meant to hide is planned like any other (deleted with prune)`,
      kind,
    };
  });
}

function pinHint(mod: Pick<KindModule, 'guidField'>, guid: string): string {
  return mod.guidField === '' ? 'rename one of them in the service' : `add "${mod.guidField}: ${guid}" to this entry to pin one, then rename or delete the other`;
}

/** The object's own identifier as a pin names it: for a period its `ExclusionPeriodId`, not the `<slaGuid>/<id>` step GUID. */
function ownId(mod: Pick<KindModule, 'guidField'>, entry: LiveEntry): string {
  const value = entry.fields[mod.guidField];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** Live objects sharing one declared key, and what to do about them. */
export interface Copies {
  /** `plan --dedupe`: keep the oldest, and hand the others to the deletes phase; otherwise each key is a problem. */
  dedupe: boolean;
  /** To name who last changed each copy. */
  operators: readonly ApiObject[] | null;
  /** Filled with the copies to delete when `dedupe`. */
  found: Duplicate[];
}

function dateOf(entry: LiveEntry, field: string): string | undefined {
  const value = entry.fields[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The copy to keep: the oldest by `CreatedDate` when every copy has one (the service's own record of age), else by
 * `LastModifiedDate`, else the lowest GUID (no age known; at least the same choice every time).
 */
export function oldestCopy(copies: readonly LiveEntry[]): { kept: LiveEntry; rule: string; others: LiveEntry[] } {
  const byGuid = [...copies].sort((a, b) => compareStrings(a.guid, b.guid));
  for (const field of ['CreatedDate', 'LastModifiedDate']) {
    if (!byGuid.every((c) => dateOf(c, field) !== undefined)) continue;
    const sorted = [...byGuid].sort((a, b) => compareStrings(dateOf(a, field) ?? '', dateOf(b, field) ?? ''));
    const [kept, ...others] = sorted as [LiveEntry, ...LiveEntry[]];
    return { kept, rule: `the oldest by ${field}`, others };
  }
  const [kept, ...others] = byGuid as [LiveEntry, ...LiveEntry[]];
  return { kept, rule: 'no creation date to tell age: the lowest GUID', others };
}

/** `<guid> (created ..., last changed by ... at ...)`, from the fields the kind has. */
function describeCopy(entry: LiveEntry, operators: readonly ApiObject[] | null): string {
  const created = dateOf(entry, 'CreatedDate');
  const changedAt = dateOf(entry, 'LastModifiedDate');
  const by = dateOf(entry, 'LastModifiedByOperatorId');
  const operator = by === undefined ? undefined : operators?.find((o) => o['OperatorGuid'] === by);
  const name = operator === undefined ? by : (['FullName', 'Email'].map((f) => operator[f]).find((v): v is string => typeof v === 'string' && v !== '') ?? by);
  const facts = [created === undefined ? '' : `created ${created}`, by === undefined && changedAt === undefined ? '' : `last changed${name === undefined ? '' : ` by ${name}`}${changedAt === undefined ? '' : ` at ${changedAt}`}`];
  const shown = facts.filter((f) => f !== '');
  return shown.length === 0 ? entry.guid : `${entry.guid} (${shown.join(', ')})`;
}

/** What matching needs of a kind, defaults filled in. */
export interface MatchRules {
  kind: StepKind;
  title: string;
  guidField: string;
  identity(key: string): string;
  ownedBy: readonly StepKind[];
}

/**
 * Built in one object shape for every kind: each kind module has a shape of its own, and the optimised matching loops
 * would be discarded and compiled again for each kind module they were given.
 */
export function matchRules(mod: KindModule): MatchRules {
  return { kind: mod.kind, title: mod.title.many, guidField: mod.guidField, identity: mod.identity ?? exactKey, ownedBy: mod.ownedBy ?? [] };
}

export interface KindMatch {
  pairs: Pair[];
  creates: DesiredEntry[];
  orphans: LiveEntry[];
}

/** One entry per key, a list only when a key repeats (rare; an error unless pins tell them apart). */
type ByKey = Map<string, LiveEntry | LiveEntry[]>;

/**
 * Pairs desired with live by pinned GUID first, then by key. Two live objects behind one declared key is an error.
 * A child deleted with its owner (an exclusion period) has an id only unique within its owner, so its pin is
 * looked up among the owner's children only; `<ownerGuid>/<id>` (the step GUID) is accepted as well.
 */
export function match(
  rules: MatchRules,
  desired: readonly DesiredEntry[],
  live: readonly LiveEntry[],
  problems: PlanProblem[],
  resolver: Resolver,
  copies: Copies = { dedupe: false, operators: null, found: [] },
): KindMatch {
  const identity = rules.identity;
  const owners = rules.guidField === '' ? [] : rules.ownedBy;
  const ownerOf = (refs: readonly { kind: StepKind }[]): number => refs.findIndex((r) => owners.includes(r.kind));
  const liveOwner = (entry: LiveEntry): string => entry.refs[ownerOf(entry.refs)]?.guid.toLowerCase() ?? '';
  const desiredOwner = (entry: DesiredEntry): string => {
    const ref = entry.refs[ownerOf(entry.refs)];
    return ref === undefined ? '' : (resolver.guidOf(ref.kind, ref.key)?.toLowerCase() ?? '');
  };
  const pinKey = (owner: string, id: string): string => (owners.length === 0 ? id : `${owner}/${id}`);
  const pinned = desired.some((entry) => entry.pinnedGuid !== undefined);
  if (!pinned && identity === exactKey && sortedByKey(desired) && sortedByKey(live)) return matchSorted(rules, desired, live, problems, copies);
  // Pins are looked up by GUID only when some entry pins one.
  const byGuid = new Map<string, LiveEntry>();
  const byKey: ByKey = new Map();
  for (const entry of live) {
    if (pinned && rules.guidField !== '') byGuid.set(pinKey(liveOwner(entry), ownId(rules, entry)).toLowerCase(), entry);
    const id = identity(entry.key);
    const found = byKey.get(id);
    if (found === undefined) byKey.set(id, entry);
    else if (Array.isArray(found)) found.push(entry);
    else byKey.set(id, [found, entry]);
  }
  const claimed = new Set<LiveEntry>();
  const pairs: Pair[] = [];
  const creates: DesiredEntry[] = [];
  const unique = uniqueDeclarations(rules, desired, problems);
  const pinnedFirst = pinned ? [...unique.filter((e) => e.pinnedGuid !== undefined), ...unique.filter((e) => e.pinnedGuid === undefined)] : unique;
  for (const entry of pinnedFirst) {
    if (entry.pinnedGuid !== undefined) {
      const owner = owners.length === 0 ? '' : desiredOwner(entry);
      const pin = owner !== '' && entry.pinnedGuid.toLowerCase().startsWith(`${owner}/`) ? entry.pinnedGuid.slice(owner.length + 1) : entry.pinnedGuid;
      // GUIDs compare ignoring case, as the service does.
      const found = owners.length > 0 && owner === '' ? undefined : byGuid.get(pinKey(owner, pin).toLowerCase());
      if (found === undefined) {
        problems.push(
          planProblem(
            'PINNED_GUID_NOT_FOUND',
            `${rules.kind} "${entry.key}" pins ${rules.guidField} ${entry.pinnedGuid}, which is not in the account; remove the pin to create a new object, or correct the GUID`,
            entry.source,
          ),
        );
      } else if (claimed.has(found)) {
        problems.push(planProblem('PINNED_GUID_TWICE', `${rules.kind} "${entry.key}" pins ${entry.pinnedGuid}, which another entry pins too`, entry.source));
      } else {
        claimed.add(found);
        pairs.push({ desired: entry, live: found });
      }
      continue;
    }
    matchByKey(rules, entry, byKey, claimed, pairs, creates, problems, copies);
  }
  const orphans = live.filter((l) => !claimed.has(l));
  return { pairs, creates, orphans };
}

// Entries are often in order already (a listing, a generated tree): a pass of plain comparisons then spares the sort
// a comparator call for each of 100,000 monitors.
function sortedByKey(entries: readonly { key: string }[]): boolean {
  for (let i = 1; i < entries.length; i += 1) if ((entries[i] as { key: string }).key < (entries[i - 1] as { key: string }).key) return false;
  return true;
}

/** Whether each key is greater than the one before: no key is there twice, and the entries are in key order. */
function ascendingKeys(entries: readonly { key: string }[]): boolean {
  for (let i = 1; i < entries.length; i += 1) if (!((entries[i - 1] as { key: string }).key < (entries[i] as { key: string }).key)) return false;
  return true;
}

function pinsAny(entries: readonly DesiredEntry[]): boolean {
  for (let i = 0; i < entries.length; i += 1) if ((entries[i] as DesiredEntry).pinnedGuid !== undefined) return true;
  return false;
}

function sortedByKeyAndGuid(entries: readonly LiveEntry[]): boolean {
  for (let i = 1; i < entries.length; i += 1) {
    const { key, guid } = entries[i] as LiveEntry;
    const before = entries[i - 1] as LiveEntry;
    if (key < before.key || (key === before.key && guid < before.guid)) return false;
  }
  return true;
}

/**
 * `match` for the common case at account scale, with the same result: no pins, keys compared exactly, both sides
 * sorted by key (as `matchKinds` sorts them). One merge of the two lists instead of a map of every live key and a
 * set of every claimed object (200,000 of each for 100,000 monitors in groups).
 */
function matchSorted(rules: MatchRules, desired: readonly DesiredEntry[], live: readonly LiveEntry[], problems: PlanProblem[], copies: Copies): KindMatch {
  const pairs: Pair[] = [];
  const creates: DesiredEntry[] = [];
  const orphans: LiveEntry[] = [];
  // As `match` reports them: every key declared twice first, then every key live more than once.
  const declaredTwice: PlanProblem[] = [];
  const liveTwice: PlanProblem[] = [];
  let first: DesiredEntry | undefined;
  let next = 0;
  // By index: a for...of allocates for each step until the loop is optimised, and this one runs once per kind.
  for (let i = 0; i < desired.length; i += 1) {
    const entry = desired[i] as DesiredEntry;
    if (first !== undefined && first.key === entry.key) {
      declaredTwice.push(duplicateDeclaration(rules, entry, first));
      continue;
    }
    first = entry;
    while (next < live.length && (live[next] as LiveEntry).key < entry.key) orphans.push(live[next++] as LiveEntry);
    let end = next;
    while (end < live.length && (live[end] as LiveEntry).key === entry.key) end += 1;
    if (end === next) creates.push(entry);
    else if (end === next + 1) pairs.push({ desired: entry, live: live[next] as LiveEntry });
    else {
      const candidates = live.slice(next, end);
      const matched = liveCopies(rules, entry, candidates, liveTwice, copies);
      if (matched === undefined) orphans.push(...candidates);
      else pairs.push({ desired: entry, live: matched });
    }
    next = end;
  }
  while (next < live.length) orphans.push(live[next++] as LiveEntry);
  problems.push(...declaredTwice, ...liveTwice);
  return { pairs, creates, orphans };
}

/**
 * `match` where it has the least to do, with the same result: no pins, keys compared exactly, and the keys of each
 * side ascending (sorted, none twice), as an account's listing and a generated tree usually are. Each key then names
 * one object on each side at most, so a pair is found with one comparison of its keys, where `matchSorted` makes
 * four (for each of 100,000 monitors at account scale) and the checks of `match` and `matchKind` two more.
 */
function matchAscending(desired: readonly DesiredEntry[], live: readonly LiveEntry[]): KindMatch {
  const pairs: Pair[] = [];
  const creates: DesiredEntry[] = [];
  const orphans: LiveEntry[] = [];
  let next = 0;
  for (let i = 0; i < desired.length; i += 1) {
    const entry = desired[i] as DesiredEntry;
    let paired = false;
    while (next < live.length) {
      const other = live[next] as LiveEntry;
      if (other.key === entry.key) {
        pairs.push({ desired: entry, live: other });
        next += 1;
        paired = true;
        break;
      }
      // Past the declared key: nothing live has it.
      if (entry.key < other.key) break;
      orphans.push(other);
      next += 1;
    }
    if (!paired) creates.push(entry);
  }
  while (next < live.length) orphans.push(live[next++] as LiveEntry);
  return { pairs, creates, orphans };
}

/**
 * Several unclaimed live objects with one declared key: with `--dedupe`, the one kept (the others go to the deletes
 * phase); otherwise a problem, and undefined (none of them is paired).
 */
function liveCopies(rules: MatchRules, entry: DesiredEntry, candidates: readonly LiveEntry[], problems: PlanProblem[], copies: Copies): LiveEntry | undefined {
  const { kept, rule, others } = oldestCopy(candidates);
  if (copies.dedupe) {
    for (const other of others) copies.found.push({ entry: other, kept, rule });
    return kept;
  }
  const listed = [kept, ...others].map((c) => describeCopy(c, copies.operators)).join('; ');
  problems.push(
    planProblem(
      'DUPLICATE_LIVE_KEY',
      `${candidates.length} live ${rules.title} have the key "${entry.key}": ${listed}. Run monsync plan --dedupe to plan keeping the oldest (${kept.guid}, ${rule}) and ` +
        `deleting the others, or ${pinHint(rules, ownId(rules, kept))}`,
      entry.source,
    ),
  );
  return undefined;
}

function matchByKey(
  rules: MatchRules,
  entry: DesiredEntry,
  byKey: ByKey,
  claimed: Set<LiveEntry>,
  pairs: Pair[],
  creates: DesiredEntry[],
  problems: PlanProblem[],
  copies: Copies,
): void {
  const found = byKey.get(rules.identity(entry.key));
  if (found !== undefined && !Array.isArray(found)) {
    if (claimed.has(found)) creates.push(entry);
    else {
      claimed.add(found);
      pairs.push({ desired: entry, live: found });
    }
    return;
  }
  const candidates = found === undefined ? [] : found.filter((l) => !claimed.has(l));
  if (candidates.length === 0) creates.push(entry);
  else if (candidates.length === 1 && candidates[0] !== undefined) {
    claimed.add(candidates[0]);
    pairs.push({ desired: entry, live: candidates[0] });
  } else {
    const kept = liveCopies(rules, entry, candidates, problems, copies);
    if (kept === undefined) return;
    for (const candidate of candidates) claimed.add(candidate);
    pairs.push({ desired: entry, live: kept });
  }
}

/** Declarations with a key seen before (as the service tells keys apart) are problems, and left out. */
function uniqueDeclarations(rules: MatchRules, desired: readonly DesiredEntry[], problems: PlanProblem[]): DesiredEntry[] {
  const seenKeys = new Map<string, DesiredEntry>();
  const unique: DesiredEntry[] = [];
  for (const entry of desired) {
    const id = rules.identity(entry.key);
    const earlier = seenKeys.get(id);
    if (earlier !== undefined) {
      problems.push(duplicateDeclaration(rules, entry, earlier));
      continue;
    }
    seenKeys.set(id, entry);
    unique.push(entry);
  }
  return unique;
}

function duplicateDeclaration(rules: MatchRules, entry: DesiredEntry, earlier: DesiredEntry): PlanProblem {
  const alike = earlier.key === entry.key ? '' : ` as "${earlier.key}", which the service does not tell apart from it`;
  return planProblem('DUPLICATE_DESIRED_KEY', `${rules.kind} "${entry.key}" is declared twice (also at ${place(earlier.source)}${alike}); keys must be unique, rename one`, entry.source);
}
