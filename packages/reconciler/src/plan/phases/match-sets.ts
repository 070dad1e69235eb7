/**
 * Phase 1 of `assemblePlan`, identity, for relations declared as lists (`KindModule.memberSets`: a monitor group's
 * `members`, an alert definition's and an escalation level's): each parent's declared lists are compared with its live
 * list in one pass. Where every list is what is
 * live, matching entry by entry would pair every declaration and leave nothing over, create nothing and find no
 * problem: the kind's state then says so with a count, and its entries (100,000 memberships in 5,000 groups at
 * account scale, each built, sorted, paired and checked for references) are built only if a phase reads them (a
 * delete of a group or a monitor, the digests). Any other case is matched entry by entry (match.ts).
 */
import type { DesiredState } from '../../desired.js';
import type { DeclaredMembers, MemberSets } from '../../kinds/contract.js';
import type { LiveSnapshot } from '../../live/types.js';
import type { StepKind } from '../types.js';
import { compareStrings } from '../values.js';
import type { KindBase, KindState, PairFinder, Resolution } from './state.js';

/** `/` in a key. */
function slashes(key: string): number {
  let n = 0;
  for (let at = key.indexOf('/'); at >= 0; at = key.indexOf('/', at + 1)) n += 1;
  return n;
}

/** A member kind's pair finder, one per kind for the whole kind matched (it looks first just past the pair found last). */
type Finders = (kind: StepKind) => PairFinder;

/**
 * How many declarations there are, when each parent's declared lists are its live list; undefined when any is not
 * (or when matching entry by entry could read a key two ways, or find a problem). Parents are matched first, and
 * a member's live key is its desired key (`Resolver.keyOf`): each declared key is turned into the GUID of the live
 * object paired with it, and compared with the GUIDs listed.
 */
export function pairedAsSets(sets: MemberSets, kind: StepKind, desired: DesiredState, live: LiveSnapshot, resolver: Resolution): number | undefined {
  const listed = sets.listed(live);
  const found = new Map<StepKind, PairFinder>();
  const finders: Finders = (member) => {
    let finder = found.get(member);
    if (finder === undefined) {
      finder = resolver.pairFinder(member);
      found.set(member, finder);
    }
    return finder;
  };
  let paired = 0;
  for (const { parent, members: declared } of sets.declared(desired)) {
    // Entry keys are `<parent>/<member>`: a parent key with a slash more than its kind's could make two parents' keys one.
    if (typeof parent !== 'string' || slashes(parent) !== (sets.parentSlashes ?? 0)) return undefined;
    let count = 0;
    for (const { keys } of declared) count += keys.length;
    const guid = resolver.guidOf(sets.parent, parent);
    // The live parent is this declaration's (not a created one's key, nor an unpaired object's), and lists its members.
    const owner = guid === undefined ? undefined : resolver.desiredOf(sets.parent, guid);
    if (guid === undefined || owner?.key !== parent || owner.manages?.includes(kind) !== true) {
      // An empty list of a parent with no live object of its own (one created) has no entry on either side.
      if (count === 0) continue;
      return undefined;
    }
    if (!sameMembers(sets, declared, count, listed[guid] ?? [], finders)) return undefined;
    paired += count;
  }
  return paired;
}

/**
 * Whether the live objects paired with the declared member keys, each declared once, are the members listed. A
 * listed member paired with no declaration is no declared key's object, so the lists then differ.
 */
function sameMembers(sets: MemberSets, declared: readonly DeclaredMembers[], count: number, listed: readonly Record<string, unknown>[], finders: Finders): boolean {
  if (count !== listed.length) return false;
  const inOrder = listedInOrder(sets, declared, listed, finders);
  if (inOrder !== undefined) return inOrder;
  // One member kind: GUIDs alone tell members apart; several: each GUID with its kind.
  const tagged = declared.length > 1;
  const wanted: string[] = [];
  for (const { kind, keys } of declared) {
    const members = finders(kind);
    for (const member of keys) {
      const place = typeof member === 'string' ? members.placeOf(member) : -1;
      if (place < 0) return false;
      wanted.push(tagged ? `${kind}:${members.guidAt(place)}` : members.guidAt(place));
    }
  }
  const found: string[] = [];
  for (const member of listed) {
    const kind = sets.memberKind(member);
    if (kind === undefined || (!tagged && kind !== declared[0]?.kind)) return false;
    found.push(tagged ? `${kind}:${sets.memberGuid(member)}` : sets.memberGuid(member));
  }
  wanted.sort(compareStrings);
  found.sort(compareStrings);
  // A key declared twice is one pair, so its GUID would come twice.
  return wanted.every((guid, i) => guid === found[i] && guid !== wanted[i - 1]);
}

/**
 * Members declared in key order (as the pairs are), kind by kind, and listed in the order declared (the emulator
 * lists a group's members in the order they were added): their pairs then come in order (so no key is declared
 * twice) and each is the member listed at its place, which needs nothing sorted nor stored. True when so, false when
 * a member is no declared key's object, undefined when the orders differ (the lists are then compared sorted).
 */
function listedInOrder(sets: MemberSets, declared: readonly DeclaredMembers[], listed: readonly Record<string, unknown>[], finders: Finders): boolean | undefined {
  let at = 0;
  for (const { kind, keys } of declared) {
    const members = finders(kind);
    let last = -1;
    for (let i = 0; i < keys.length; i += 1) {
      const member = keys[i];
      const place = typeof member === 'string' ? members.placeOf(member) : -1;
      if (place < 0) return false;
      const row = listed[at] as Record<string, unknown>;
      at += 1;
      if (place <= last || sets.memberKind(row) !== kind || members.guidAt(place) !== sets.memberGuid(row)) return undefined;
      last = place;
    }
  }
  return true;
}

/**
 * The state of a kind matched as sets: `paired` declarations, all paired; the entries and pairs are those `match`
 * makes (what matching entry by entry gives, built on first read), and the resolution builds them when asked too.
 */
export function matchedAsSets(base: KindBase, paired: number, resolution: Resolution, match: () => KindState): KindState {
  let full: KindState | undefined;
  const entries = (): KindState => (full ??= match());
  resolution.indexLive(base.mod.kind, () => entries().allLive);
  resolution.register(base.mod.kind, () => entries().pairs, [], base.managed);
  return {
    ...base,
    get live() {
      return entries().live;
    },
    get allLive() {
      return entries().allLive;
    },
    get desired() {
      return entries().desired;
    },
    get pairs() {
      return entries().pairs;
    },
    creates: [],
    orphans: [],
    duplicates: [],
    sets: { paired },
  };
}
