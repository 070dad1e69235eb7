/**
 * What the phases of `assemblePlan` hand each other: the per-kind state after matching, the drafts of steps, and
 * the lookups across kinds (`Resolution`). Plain data and small classes; no phase keeps state of its own.
 */
import type { RemovalStrategy } from '@monsync/schema';
import type { DesiredEntry, KindModule, LiveEntry, Resolver } from '../../kinds/contract.js';
import { KINDS } from '../../kinds/index.js';
import type { PlanStep, StepKind } from '../types.js';

export interface Pair {
  desired: DesiredEntry;
  live: LiveEntry;
}

/** A kind and how its settings manage it. */
export interface KindBase {
  mod: KindModule;
  managed: boolean;
  prune: boolean;
  /** How pruned objects leave, for kinds that can be retired (`manage.monitors.removal`). */
  removal?: RemovalStrategy;
}

/** One kind after matching: what is declared, what is live, and how they pair up. */
export interface KindState extends KindBase {
  /** Live objects of the kind in the managed scope, ignored and dormant retired ones left out, sorted by key then GUID. */
  live: LiveEntry[];
  /** Every live object of the kind read, ignored ones too: they can keep an object the plan deletes in use. */
  allLive: LiveEntry[];
  pairs: Pair[];
  creates: DesiredEntry[];
  orphans: LiveEntry[];
  /** With `plan --dedupe`: live copies of a declared key beside the one kept, to be removed. */
  duplicates: Duplicate[];
  /** Declarations not ignored, sorted by key. */
  desired: DesiredEntry[];
  /**
   * Set when the kind was matched list by list (`KindModule.memberSets`, match-sets.ts): every declaration is paired,
   * nothing is created or left over, and `desired`, `live`, `allLive` and `pairs` are built only when a phase reads
   * them. The phases every plan runs read these counts instead; the rarer ones (a delete of a parent or member
   * object, the digests) read the entries.
   */
  sets?: { paired: number };
}

/** A live object sharing its key with the one kept (`kept`, chosen by `rule`). */
export interface Duplicate {
  entry: LiveEntry;
  kept: LiveEntry;
  rule: string;
}

/** A step before it has an id: dependencies point at other drafts until the steps are ordered and named. */
export interface Draft {
  step: Omit<PlanStep, 'id' | 'dependsOn'>;
  desiredEntry?: DesiredEntry;
  liveEntry?: LiveEntry;
  dependsOn: Set<Draft>;
}

/** Maps per kind, so lookups need no composite string keys (this runs tens of thousands of times per plan). */
export class PerKind<V> {
  readonly #maps = new Map<StepKind, Map<string, V>>();

  of(kind: StepKind): Map<string, V> {
    let map = this.#maps.get(kind);
    if (map === undefined) {
      map = new Map();
      this.#maps.set(kind, map);
    }
    return map;
  }

  get(kind: StepKind, id: string): V | undefined {
    return this.#maps.get(kind)?.get(id);
  }

  has(kind: StepKind, id: string): boolean {
    return this.#maps.get(kind)?.has(id) === true;
  }

  /** Whether anything of the kind is held: asked first where most look-ups name a kind with nothing (no delete). */
  hasAny(kind: StepKind): boolean {
    const map = this.#maps.get(kind);
    return map !== undefined && map.size > 0;
  }
}

// The maps are built by functions of their own, so the getters asked tens of thousands of times stay small to compile.
function liveByGuid(live: readonly LiveEntry[]): Map<string, LiveEntry> {
  const map = new Map<string, LiveEntry>();
  for (const entry of live) map.set(entry.guid, entry);
  return map;
}

/** `null`: two live objects share the key, so it names neither. */
function liveGuidByKey(live: readonly LiveEntry[]): Map<string, string | null> {
  const map = new Map<string, string | null>();
  for (const entry of live) map.set(entry.key, map.has(entry.key) ? null : entry.guid);
  return map;
}

function desiredByLiveGuid(pairs: readonly Pair[]): Map<string, DesiredEntry> {
  const map = new Map<string, DesiredEntry>();
  for (const { desired, live } of pairs) map.set(live.guid, desired);
  return map;
}

function placeByDesiredKey(pairs: readonly Pair[]): Map<string, number> {
  const map = new Map<string, number>();
  for (let i = 0; i < pairs.length; i += 1) map.set((pairs[i] as Pair).desired.key, i);
  return map;
}

/** One kind's objects as the resolver knows them; the lookup maps are built from them on first use. */
class KindLookup {
  /** The live objects, or how to build them: a kind matched as sets builds its entries only when asked (match-sets.ts). */
  #live: readonly LiveEntry[] | (() => readonly LiveEntry[]);
  #pairs: readonly Pair[] | (() => readonly Pair[]) | undefined;
  #creates: readonly DesiredEntry[] = [];
  #managed = false;
  #liveByGuid: Map<string, LiveEntry> | undefined;
  /** `null`: two live objects share the key, so it names neither. */
  #liveGuidByKey: Map<string, string | null> | undefined;
  #desiredByGuid: Map<string, DesiredEntry> | undefined;
  /** Where each declared key's pair is in the pairs. */
  #placeByDesiredKey: Map<string, number> | undefined;
  #created: Set<string> | undefined;

  constructor(live: readonly LiveEntry[] | (() => readonly LiveEntry[])) {
    this.#live = live;
  }

  register(pairs: readonly Pair[] | (() => readonly Pair[]), creates: readonly DesiredEntry[], managed: boolean): void {
    this.#pairs = pairs;
    this.#creates = creates;
    this.#managed = managed;
  }

  #liveEntries(): readonly LiveEntry[] {
    if (typeof this.#live === 'function') this.#live = this.#live();
    return this.#live;
  }

  #pairList(): readonly Pair[] | undefined {
    if (typeof this.#pairs === 'function') this.#pairs = this.#pairs();
    return this.#pairs;
  }

  liveByGuid(guid: string): LiveEntry | undefined {
    this.#liveByGuid ??= liveByGuid(this.#liveEntries());
    return this.#liveByGuid.get(guid);
  }

  liveGuidByKey(key: string): string | null | undefined {
    this.#liveGuidByKey ??= liveGuidByKey(this.#liveEntries());
    return this.#liveGuidByKey.get(key);
  }

  /** Before the kind is matched there are no pairs yet, and nothing is cached. */
  desiredByGuid(guid: string): DesiredEntry | undefined {
    if (this.#desiredByGuid === undefined) {
      const pairs = this.#pairList();
      if (pairs === undefined) return undefined;
      this.#desiredByGuid = desiredByLiveGuid(pairs);
    }
    return this.#desiredByGuid.get(guid);
  }

  guidByDesiredKey(key: string): string | undefined {
    const place = this.placeOfDesiredKey(key, -1);
    return place < 0 ? undefined : this.pairAt(place).live.guid;
  }

  /** Where the pair of a declared key is in the pairs, tried at `hint` first; -1 when the key is paired with nothing. */
  placeOfDesiredKey(key: string, hint: number): number {
    const pairs = this.#pairList();
    if (pairs === undefined) return -1;
    if (pairs[hint]?.desired.key === key) return hint;
    this.#placeByDesiredKey ??= placeByDesiredKey(pairs);
    return this.#placeByDesiredKey.get(key) ?? -1;
  }

  /** A pair at a place `placeOfDesiredKey` returned. */
  pairAt(place: number): Pair {
    return (this.#pairList() as readonly Pair[])[place] as Pair;
  }

  isCreated(key: string): boolean {
    if (!this.#managed) return false;
    this.#created ??= new Set(this.#creates.map((entry) => entry.key));
    return this.#created.has(key);
  }
}

/**
 * Lookups across kinds. Each kind's maps are built when first asked for, not when the kind is matched: most are
 * never asked for (nothing refers to a group membership, and its 10,000 entries at account scale would otherwise
 * fill five maps for nothing).
 */
export class Resolution implements Resolver {
  readonly #kinds = new Map<StepKind, KindLookup>();
  readonly #self: ReadonlySet<string>;

  /** `self`: the API account's own operators (`ownOperators`, `run/session.ts`). */
  constructor(self: readonly string[] = []) {
    this.#self = new Set(self.map((guid) => guid.toLowerCase()));
  }

  isSelf(operatorGuid: string): boolean {
    return this.#self.has(operatorGuid.toLowerCase());
  }

  knowsSelf(): boolean {
    return this.#self.size > 0;
  }
  readonly #ignoredGuid = new PerKind<true>();
  readonly #ignoredKey = new PerKind<true>();

  /** A kind's live objects, or how to build them when first asked (a kind matched as sets, match-sets.ts). */
  indexLive(kind: StepKind, entries: readonly LiveEntry[] | (() => readonly LiveEntry[])): void {
    this.#kinds.set(kind, new KindLookup(entries));
  }

  ignore(kind: StepKind, entry: { key: string; guid?: string }): void {
    this.#ignoredKey.of(kind).set(entry.key, true);
    if (entry.guid !== undefined) this.#ignoredGuid.of(kind).set(entry.guid, true);
  }

  isIgnoredKey(kind: StepKind, key: string): boolean {
    return this.#ignoredKey.has(kind, key);
  }

  isIgnoredGuid(kind: StepKind, guid: string): boolean {
    return this.#ignoredGuid.has(kind, guid);
  }

  register(kind: StepKind, pairs: readonly Pair[] | (() => readonly Pair[]), creates: readonly DesiredEntry[], managed: boolean): void {
    this.#kinds.get(kind)?.register(pairs, creates, managed);
  }

  keyOf(kind: StepKind, guid: string): string | undefined {
    const lookup = this.#kinds.get(kind);
    return lookup?.desiredByGuid(guid)?.key ?? lookup?.liveByGuid(guid)?.key;
  }

  guidOf(kind: StepKind, key: string): string | undefined {
    const lookup = this.#kinds.get(kind);
    if (lookup === undefined) return undefined;
    const matched = lookup.guidByDesiredKey(key);
    if (matched !== undefined) return matched;
    if (lookup.isCreated(key)) return undefined;
    return lookup.liveGuidByKey(key) ?? undefined;
  }

  desiredOf(kind: StepKind, guid: string): DesiredEntry | undefined {
    return this.#kinds.get(kind)?.desiredByGuid(guid);
  }

  /** One kind's pairs found by declared key, for a caller asking it of every member of every list (match-sets.ts). */
  pairFinder(kind: StepKind): PairFinder {
    return new PairFinder(this.#kinds.get(kind));
  }

  isCreated(kind: StepKind, key: string): boolean {
    return this.#kinds.get(kind)?.isCreated(key) === true;
  }
}

/**
 * A kind's pairs found by declared key, each key looked for first just past the pair found last: keys asked in the
 * order of the pairs (declared key order when no declaration pins a GUID, as matching sorts them) are found without
 * hashing one. At 100,000 group members, hashing each declared key into a map of every pair, and each member into
 * it, was most of the cost of comparing the lists. Keys asked in any other order (members not written sorted by
 * name) are looked up in that map, built on the first of them: as costly as before, never more.
 */
export class PairFinder {
  readonly #lookup: KindLookup | undefined;
  #next = 0;

  constructor(lookup: KindLookup | undefined) {
    this.#lookup = lookup;
  }

  /** Where the pair of a declared key is among the kind's pairs; -1 when the key is paired with no live object. */
  placeOf(key: string): number {
    const place = this.#lookup === undefined ? -1 : this.#lookup.placeOfDesiredKey(key, this.#next);
    if (place >= 0) this.#next = place + 1;
    return place;
  }

  /** The GUID of the live object paired at a place `placeOf` returned. */
  guidAt(place: number): string {
    return (this.#lookup as KindLookup).pairAt(place).live.guid;
  }
}

/**
 * The entries that refer to other objects, in their order: few at account scale (most of 100,000 monitors refer to
 * nothing). The phases that follow references (references.ts, deletes.ts, order.ts) loop over these only, and leave
 * the loop over every entry to this one function: a loop runs interpreted until it is optimised, once in each function
 * that has it, and on a plan's first call four such loops over 100,000 entries each cost that.
 */
export function entriesWithRefs<E extends { readonly refs: readonly unknown[] }>(entries: readonly E[]): E[] {
  const found: E[] = [];
  for (let i = 0; i < entries.length; i += 1) {
    const entry = entries[i] as E;
    if (entry.refs.length > 0) found.push(entry);
  }
  return found;
}

const KIND_ORDER = new Map<string, number>(KINDS.map((m, i) => [m.kind, i]));

/** A kind's place in the plan order (`KINDS`); an unknown kind sorts last. */
export function kindOrder(kind: string): number {
  return KIND_ORDER.get(kind) ?? KINDS.length;
}

/** Keys compare exactly unless a kind says otherwise; one function for all, as the optimiser then sees one callee. */
export function exactKey(key: string): string {
  return key;
}

const IDENTITY = new Map<StepKind, (key: string) => string>(KINDS.map((m) => [m.kind, m.identity ?? exactKey]));

/** A key as the service tells keys of its kind apart (SLA names ignoring case and surrounding spaces). */
export function identityOf(kind: StepKind, key: string): string {
  const identity = IDENTITY.get(kind);
  return identity === undefined ? key : identity(key);
}
