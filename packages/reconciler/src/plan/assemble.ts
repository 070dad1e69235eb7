/**
 * assemblePlan: desired state + live snapshot -> plan. Pure and deterministic: no I/O, no clock, no environment;
 * the same inputs give byte-identical JSON. Secrets arrive already fingerprinted (`fingerprintDesiredSecrets`).
 * The engine only iterates kind modules; everything kind-specific lives in `src/kinds/`.
 */
import { isSecretValue, type DesiredState } from '../desired.js';
import type { DesiredEntry, KindModule, LiveEntry, Resolver } from '../kinds/contract.js';
import { KINDS } from '../kinds/index.js';
import { withLiveOmissions } from '../kinds/write-body.js';
import type { ApiObject, LiveSnapshot } from '../live/types.js';
import { comparable, declaredFieldsSame, diffFields, toSetForm } from './diff.js';
import { at, PlanError, type PlanProblem } from './errors.js';
import { ignoreMatcher } from './ignore.js';
import { splitMarker, withMarker } from './markers.js';
import { liveScope } from './scope.js';
import { combineFingerprints, findSecrets, hasSecret, replaceSecrets, secretAddress, type SecretFingerprints } from './secrets.js';
import { SENSITIVE, type Plan, type PlanChange, type PlanDrift, type PlanStep, type PlanViolation, type PlanWarning, type StepKind } from './types.js';
import { canonicalJson, compareStrings, escapePointer, HashFeed, isPlainObject } from './values.js';

export interface PlanOptions {
  /** From `fingerprintDesiredSecrets`; required when a managed object declares secrets. */
  fingerprints?: SecretFingerprints;
  /** The API account's operator: updates of objects it changed last are not drift. Unknown: every update is attributed. */
  selfOperatorGuid?: string;
  /** `kind:key` patterns (globs allowed): plan only these steps and the steps they depend on. */
  targets?: readonly string[];
}

interface Pair {
  desired: DesiredEntry;
  live: LiveEntry;
}

interface KindState {
  mod: KindModule;
  managed: boolean;
  prune: boolean;
  live: LiveEntry[];
  /** Every live object of the kind read, ignored ones too: they can keep an object the plan deletes in use. */
  allLive: LiveEntry[];
  pairs: Pair[];
  creates: DesiredEntry[];
  orphans: LiveEntry[];
  desired: DesiredEntry[];
}

interface Draft {
  step: Omit<PlanStep, 'id' | 'dependsOn'>;
  desiredEntry?: DesiredEntry;
  liveEntry?: LiveEntry;
  dependsOn: Set<Draft>;
}

/** Maps per kind, so lookups need no composite string keys (this runs tens of thousands of times per plan). */
class PerKind<V> {
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

function liveGuidByDesiredKey(pairs: readonly Pair[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const { desired, live } of pairs) map.set(desired.key, live.guid);
  return map;
}

/** One kind's objects as the resolver knows them; the lookup maps are built from them on first use. */
class KindIndex {
  readonly #live: readonly LiveEntry[];
  #pairs: readonly Pair[] | undefined;
  #creates: readonly DesiredEntry[] = [];
  #managed = false;
  #liveByGuid: Map<string, LiveEntry> | undefined;
  /** `null`: two live objects share the key, so it names neither. */
  #liveGuidByKey: Map<string, string | null> | undefined;
  #desiredByGuid: Map<string, DesiredEntry> | undefined;
  #guidByDesiredKey: Map<string, string> | undefined;
  #created: Set<string> | undefined;

  constructor(live: readonly LiveEntry[]) {
    this.#live = live;
  }

  register(pairs: readonly Pair[], creates: readonly DesiredEntry[], managed: boolean): void {
    this.#pairs = pairs;
    this.#creates = creates;
    this.#managed = managed;
  }

  liveByGuid(guid: string): LiveEntry | undefined {
    this.#liveByGuid ??= liveByGuid(this.#live);
    return this.#liveByGuid.get(guid);
  }

  liveGuidByKey(key: string): string | null | undefined {
    this.#liveGuidByKey ??= liveGuidByKey(this.#live);
    return this.#liveGuidByKey.get(key);
  }

  /** Before the kind is matched there are no pairs yet, and nothing is cached. */
  desiredByGuid(guid: string): DesiredEntry | undefined {
    if (this.#pairs === undefined) return undefined;
    this.#desiredByGuid ??= desiredByLiveGuid(this.#pairs);
    return this.#desiredByGuid.get(guid);
  }

  guidByDesiredKey(key: string): string | undefined {
    if (this.#pairs === undefined) return undefined;
    this.#guidByDesiredKey ??= liveGuidByDesiredKey(this.#pairs);
    return this.#guidByDesiredKey.get(key);
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
class Resolution implements Resolver {
  readonly #kinds = new Map<StepKind, KindIndex>();
  readonly #ignoredGuid = new PerKind<true>();
  readonly #ignoredKey = new PerKind<true>();

  indexLive(kind: StepKind, entries: readonly LiveEntry[]): void {
    this.#kinds.set(kind, new KindIndex(entries));
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

  register(kind: StepKind, pairs: readonly Pair[], creates: readonly DesiredEntry[], managed: boolean): void {
    this.#kinds.get(kind)?.register(pairs, creates, managed);
  }

  keyOf(kind: StepKind, guid: string): string | undefined {
    const index = this.#kinds.get(kind);
    return index?.desiredByGuid(guid)?.key ?? index?.liveByGuid(guid)?.key;
  }

  guidOf(kind: StepKind, key: string): string | undefined {
    const index = this.#kinds.get(kind);
    if (index === undefined) return undefined;
    const matched = index.guidByDesiredKey(key);
    if (matched !== undefined) return matched;
    if (index.isCreated(key)) return undefined;
    return index.liveGuidByKey(key) ?? undefined;
  }

  desiredOf(kind: StepKind, guid: string): DesiredEntry | undefined {
    return this.#kinds.get(kind)?.desiredByGuid(guid);
  }

  isCreated(kind: StepKind, key: string): boolean {
    return this.#kinds.get(kind)?.isCreated(key) === true;
  }
}

function withoutFields(fields: ApiObject, drop: readonly string[] | ReadonlySet<string>): ApiObject {
  const skip = drop instanceof Set ? drop : new Set(drop);
  const out: ApiObject = {};
  for (const key of Object.keys(fields)) if (!skip.has(key) && fields[key] !== undefined) out[key] = fields[key];
  return out;
}

function pinHint(mod: Pick<KindModule, 'guidField'>, guid: string): string {
  return mod.guidField === '' ? 'rename one of them in the service' : `add "${mod.guidField}: ${guid}" to this entry to pin one, then rename or delete the other`;
}

/** The object's own identifier as a pin names it: for a period its `ExclusionPeriodId`, not the `<slaGuid>/<id>` step GUID. */
function ownId(mod: Pick<KindModule, 'guidField'>, entry: LiveEntry): string {
  const value = entry.fields[mod.guidField];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** Keys compare exactly unless a kind says otherwise; one function for all, as the optimiser then sees one callee. */
function exactKey(key: string): string {
  return key;
}

/** What matching needs of a kind, defaults filled in. */
interface MatchRules {
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
function matchRules(mod: KindModule): MatchRules {
  return { kind: mod.kind, title: mod.title, guidField: mod.guidField, identity: mod.identity ?? exactKey, ownedBy: mod.ownedBy ?? [] };
}

/**
 * Pairs desired with live by pinned GUID first, then by key. Two live objects behind one declared key is an error.
 * A child deleted with its owner (an exclusion period) has an id only unique within its owner, so its pin is
 * looked up among the owner's children only; `<ownerGuid>/<id>` (the step GUID) is accepted as well.
 */
function match(
  mod: MatchRules,
  desired: readonly DesiredEntry[],
  live: readonly LiveEntry[],
  problems: PlanProblem[],
  resolver: Resolver,
): Pick<KindState, 'pairs' | 'creates' | 'orphans'> {
  const identity = mod.identity;
  const owners = mod.guidField === '' ? [] : mod.ownedBy;
  const ownerOf = (refs: readonly { kind: StepKind }[]): number => refs.findIndex((r) => owners.includes(r.kind));
  const liveOwner = (entry: LiveEntry): string => entry.refs[ownerOf(entry.refs)]?.guid.toLowerCase() ?? '';
  const desiredOwner = (entry: DesiredEntry): string => {
    const ref = entry.refs[ownerOf(entry.refs)];
    return ref === undefined ? '' : (resolver.guidOf(ref.kind, ref.key)?.toLowerCase() ?? '');
  };
  const pinKey = (owner: string, id: string): string => (owners.length === 0 ? id : `${owner}/${id}`);
  const pinned = desired.some((entry) => entry.pinnedGuid !== undefined);
  // Pins are looked up by GUID only when some entry pins one.
  const byGuid = new Map<string, LiveEntry>();
  // One entry per key, a list only when a key repeats (rare; an error unless pins tell them apart).
  const byKey = new Map<string, LiveEntry | LiveEntry[]>();
  for (const entry of live) {
    if (pinned && mod.guidField !== '') byGuid.set(pinKey(liveOwner(entry), ownId(mod, entry)).toLowerCase(), entry);
    const id = identity(entry.key);
    const found = byKey.get(id);
    if (found === undefined) byKey.set(id, entry);
    else if (Array.isArray(found)) found.push(entry);
    else byKey.set(id, [found, entry]);
  }
  const claimed = new Set<LiveEntry>();
  const pairs: Pair[] = [];
  const creates: DesiredEntry[] = [];
  const seenKeys = new Map<string, DesiredEntry>();
  const unique: DesiredEntry[] = [];
  for (const entry of desired) {
    const id = identity(entry.key);
    const earlier = seenKeys.get(id);
    if (earlier !== undefined) {
      const alike = earlier.key === entry.key ? '' : ` as "${earlier.key}", which the service does not tell apart from it`;
      problems.push({
        code: 'DUPLICATE_DESIRED_KEY',
        message: `${at(entry.source)}${mod.kind} "${entry.key}" is declared twice (also at ${at(earlier.source).slice(0, -2)}${alike}); keys must be unique, rename one`,
        source: entry.source,
      });
      continue;
    }
    seenKeys.set(id, entry);
    unique.push(entry);
  }
  const pinnedFirst = pinned ? [...unique.filter((e) => e.pinnedGuid !== undefined), ...unique.filter((e) => e.pinnedGuid === undefined)] : unique;
  for (const entry of pinnedFirst) {
    if (entry.pinnedGuid !== undefined) {
      const owner = owners.length === 0 ? '' : desiredOwner(entry);
      const pin = owner !== '' && entry.pinnedGuid.toLowerCase().startsWith(`${owner}/`) ? entry.pinnedGuid.slice(owner.length + 1) : entry.pinnedGuid;
      // GUIDs compare ignoring case, as the service does.
      const found = owners.length > 0 && owner === '' ? undefined : byGuid.get(pinKey(owner, pin).toLowerCase());
      if (found === undefined) {
        problems.push({
          code: 'PINNED_GUID_NOT_FOUND',
          message: `${at(entry.source)}${mod.kind} "${entry.key}" pins ${mod.guidField} ${entry.pinnedGuid}, which is not in the account; remove the pin to create a new object, or correct the GUID`,
          source: entry.source,
        });
      } else if (claimed.has(found)) {
        problems.push({ code: 'PINNED_GUID_TWICE', message: `${at(entry.source)}${mod.kind} "${entry.key}" pins ${entry.pinnedGuid}, which another entry pins too`, source: entry.source });
      } else {
        claimed.add(found);
        pairs.push({ desired: entry, live: found });
      }
      continue;
    }
    const found = byKey.get(identity(entry.key));
    if (found !== undefined && !Array.isArray(found)) {
      if (claimed.has(found)) creates.push(entry);
      else {
        claimed.add(found);
        pairs.push({ desired: entry, live: found });
      }
      continue;
    }
    const candidates = found === undefined ? [] : found.filter((l) => !claimed.has(l));
    if (candidates.length === 0) creates.push(entry);
    else if (candidates.length === 1 && candidates[0] !== undefined) {
      claimed.add(candidates[0]);
      pairs.push({ desired: entry, live: candidates[0] });
    } else {
      const sorted = [...candidates].sort((a, b) => compareStrings(a.guid, b.guid));
      problems.push({
        code: 'DUPLICATE_LIVE_KEY',
        message: `${at(entry.source)}two live ${mod.title} have the key "${entry.key}" (${sorted.map((c) => c.guid).join(' and ')}); ${pinHint(mod, sorted[0] === undefined ? '' : ownId(mod, sorted[0]))}`,
        source: entry.source,
      });
    }
  }
  const orphans = live.filter((l) => !claimed.has(l));
  return { pairs, creates, orphans };
}

function operatorName(operators: readonly ApiObject[] | null, guid: string): string | undefined {
  if (operators === null) return undefined;
  const found = operators.find((o) => o.OperatorGuid === guid);
  if (found === undefined) return undefined;
  for (const field of ['FullName', 'Email', 'UserName']) {
    const value = found[field];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/** `add` operations for a create, one per field; fields holding secrets are opened so only the secret leaves are sensitive. */
function createChanges(fields: ApiObject): PlanChange[] {
  const changes: PlanChange[] = [];
  if (findSecrets(fields).length === 0) {
    for (const key of Object.keys(fields).sort(compareStrings)) changes.push({ op: 'add', path: `/${escapePointer(key)}`, after: fields[key] });
    return changes;
  }
  const walk = (value: unknown, path: string): void => {
    if (isSecretValue(value)) changes.push({ op: 'add', path, after: SENSITIVE, sensitive: true });
    else if (findSecrets(value).length === 0) changes.push({ op: 'add', path, after: value });
    else if (Array.isArray(value)) value.forEach((child, i) => walk(child, `${path}/${i}`));
    else if (isPlainObject(value)) for (const key of Object.keys(value).sort(compareStrings)) walk(value[key], `${path}/${escapePointer(key)}`);
  };
  for (const key of Object.keys(fields).sort(compareStrings)) walk(fields[key], `/${escapePointer(key)}`);
  return changes;
}

function sensitiveChanges(pointers: readonly string[]): PlanChange[] {
  return pointers.map((path) => ({ op: 'replace', path, before: SENSITIVE, after: SENSITIVE, sensitive: true }));
}

function percentOf(count: number, total: number): number {
  return Math.round((count / total) * 1000) / 10;
}

function globMatches(pattern: string, text: string): boolean {
  let source = '';
  for (const ch of pattern) source += ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${source}$`, 'su').test(text);
}

export function assemblePlan(desired: DesiredState, live: LiveSnapshot, options: PlanOptions = {}): Plan {
  const settings = desired.settings;
  const problems: PlanProblem[] = [];
  const warnings: PlanWarning[] = [];
  const scope = liveScope(desired);
  const managedOf = (mod: KindModule): boolean => settings.manage[mod.manage] !== undefined;

  for (const kind of scope.kinds) {
    if (!live.read.includes(kind)) {
      problems.push({ code: 'LIVE_NOT_READ', message: `the live snapshot does not include ${kind} objects; read them with readLive(client, liveScope(desired)) before planning` });
    }
  }
  // Reports are matched by the key marker in InternalNotes, which only account administrators see: without it every
  // declared report would be created again next to the one that exists.
  if (settings.manage.scheduledReports !== undefined && desired.scheduledReports.length > 0 && live.scheduledReports.length > 0 && !live.scheduledReports.some((r) => 'InternalNotes' in r)) {
    problems.push({
      code: 'LIVE_RESTRICTED',
      message:
        `the API account reads ${live.scheduledReports.length} scheduled report${live.scheduledReports.length === 1 ? '' : 's'} without InternalNotes, which only account administrators see; ` +
        'monsync finds its reports by the monsync:key= marker there, so a plan would create every declared report again. Use the API account of an account administrator',
    });
  }
  if (problems.length > 0) throw new PlanError(problems);

  const ignore = ignoreMatcher(settings.ignore);
  for (const pattern of ignore.unknown) {
    warnings.push({ code: 'UNKNOWN_IGNORE_KIND', message: `ignore pattern "${pattern}" names no kind (use e.g. monitor:legacy-*, monitorGroup:..., vaultItem:Section/*); it matches nothing` });
  }

  const resolution = new Resolution();
  const states: KindState[] = [];
  // Until something is ignored, no parent can be: the per-reference lookups are skipped (20,000 entries at scale).
  let ignoredAny = false;
  for (const mod of KINDS) {
    const managed = managedOf(mod);
    if (!managed && !scope.kinds.includes(mod.kind)) continue;
    const parents = mod.parents ?? [];
    const allLive = mod.live(live, resolution);
    resolution.indexLive(mod.kind, allLive);
    const liveEntries: LiveEntry[] = [];
    for (const entry of allLive) {
      if (ignore.matches(mod.kind, entry.key) || (ignoredAny && entry.refs.some((r) => parents.includes(r.kind) && resolution.isIgnoredGuid(r.kind, r.guid)))) {
        resolution.ignore(mod.kind, entry);
        ignoredAny = true;
      } else liveEntries.push(entry);
    }
    const desiredEntries: DesiredEntry[] = [];
    for (const entry of mod.desired(desired)) {
      const parentIgnored = ignoredAny && entry.refs.some((r) => parents.includes(r.kind) && resolution.isIgnoredKey(r.kind, r.key));
      if (ignore.matches(mod.kind, entry.key) || parentIgnored) {
        resolution.ignore(mod.kind, entry);
        ignoredAny = true;
        if (!parentIgnored && managed) {
          warnings.push({ code: 'IGNORED_DECLARATION', message: `${at(entry.source)}${mod.kind} "${entry.key}" is declared but matches an ignore pattern, so it is not planned`, kind: mod.kind, key: entry.key });
        }
      } else desiredEntries.push(entry);
    }
    desiredEntries.sort((a, b) => compareStrings(a.key, b.key));
    liveEntries.sort((a, b) => compareStrings(a.key, b.key) || compareStrings(a.guid, b.guid));
    const matched = match(matchRules(mod), desiredEntries, liveEntries, problems, resolution);
    resolution.register(mod.kind, matched.pairs, matched.creates, managed);
    states.push({ mod, managed, prune: settings.manage[mod.manage]?.prune === true, live: liveEntries, allLive, desired: desiredEntries, ...matched });
  }
  // A pattern that hides nothing is usually a typo, and the object it was meant to hide is then planned (pruned).
  for (const { pattern, kind, caseOnly } of ignore.unmatched(states.map((s) => s.mod.kind))) {
    const hint = caseOnly === undefined ? '' : `; it would match "${caseOnly}" if case were ignored, but patterns are case-sensitive`;
    warnings.push({
      code: 'IGNORE_UNMATCHED',
      message: `ignore pattern "${pattern}" matches no ${kind} in the account or the config, so it hides nothing${hint}; an object it was meant to hide is planned like any other (deleted with prune)`,
      kind,
    });
  }
  if (problems.length > 0) throw new PlanError(problems);

  // References must name an object that exists or that this plan creates.
  for (const state of states) {
    if (!state.managed) continue;
    for (const entry of state.desired) {
      for (const ref of entry.refs) {
        if (resolution.guidOf(ref.kind, ref.key) === undefined && !resolution.isCreated(ref.kind, ref.key)) {
          problems.push({
            code: 'UNRESOLVED_REFERENCE',
            message: `${at(entry.source)}${state.mod.kind} "${entry.key}" refers to ${ref.kind} "${ref.key}", which is neither declared in a managed kind nor in the account; declare it or fix the reference`,
            source: entry.source,
          });
        }
      }
    }
  }

  const fingerprintOf = (entry: DesiredEntry, pointer: string): string => {
    const address = secretAddress(entry.kind, entry.key, pointer);
    const found = options.fingerprints?.[address];
    if (found === undefined) {
      problems.push({
        code: 'MISSING_FINGERPRINT',
        message: `${at(entry.source)}no fingerprint for the secret at ${entry.kind} "${entry.key}" ${pointer}; pass fingerprintDesiredSecrets(desired, key) as options.fingerprints`,
        source: entry.source,
      });
      return '';
    }
    return found;
  };

  const drafts: Draft[] = [];
  const deletedGuids = new PerKind<true>();
  let deletedAny = false;
  const unmanaged: Plan['unmanaged'] = [];
  let unchanged = 0;
  const secretWarned = new Set<DesiredEntry>();

  for (const state of states) {
    const { mod } = state;
    if (!state.managed) continue;
    const dropOnWrite = new Set<string>([...mod.readOnlyFields, ...(mod.guidField === '' ? [] : [mod.guidField])]);
    const markerField = mod.marker?.field;
    const immutable = mod.immutableFields ?? [];
    const dropOnUpdate = new Set<string>([...dropOnWrite, ...immutable]);
    const withoutSecrets = (fields: ApiObject, secretCount: number, replace: (pointer: string) => unknown): ApiObject =>
      secretCount === 0 ? fields : (replaceSecrets(fields, replace) as ApiObject);

    const readOnlyDeclared = (entry: DesiredEntry): void => {
      let declared: string[] | undefined;
      for (const f of mod.readOnlyFields) if (f !== mod.guidField && f in entry.fields) (declared ??= []).push(f);
      if (declared !== undefined) {
        warnings.push({ code: 'READ_ONLY_FIELD', message: `${at(entry.source)}${mod.kind} "${entry.key}" declares read-only ${declared.join(', ')}; the service sets ${declared.length === 1 ? 'it' : 'them'}, so monsync ignores ${declared.length === 1 ? 'it' : 'them'}`, kind: mod.kind, key: entry.key });
      }
    };
    const secretsUntracked = (entry: DesiredEntry, pointers: readonly string[]): void => {
      if (pointers.length === 0 || mod.marker?.name === 'fp' || secretWarned.has(entry)) return;
      secretWarned.add(entry);
      warnings.push({
        code: 'SECRET_NOT_COMPARED',
        message: `${at(entry.source)}${mod.kind} "${entry.key}": ${pointers.join(', ')} cannot be compared (the service never returns ${pointers.length === 1 ? 'it' : 'them'} and a ${mod.kind} has no field to hold a fingerprint); ${pointers.length === 1 ? 'it is' : 'they are'} sent on create and with every update`,
        kind: mod.kind,
        key: entry.key,
      });
    };

    if (mod.ensureOnly === true) {
      for (const entry of state.desired) {
        drafts.push({
          step: { action: 'ensure', kind: mod.kind, key: entry.key, guid: entry.key, changes: [], source: entry.source, desired: { ...entry.fields } },
          desiredEntry: entry,
          dependsOn: new Set(),
        });
      }
      continue;
    }

    for (const entry of state.creates) {
      readOnlyDeclared(entry);
      const resolved = mod.resolve?.(entry, resolution) ?? entry.fields;
      const secrets = findSecrets(resolved);
      secretsUntracked(entry, secrets.map((s) => s.pointer));
      const fps = secrets.map((s) => ({ pointer: s.pointer, fingerprint: fingerprintOf(entry, s.pointer) }));
      const fpAt = new Map(fps.map((f) => [f.pointer, f.fingerprint]));
      const body = withoutFields(withoutSecrets(resolved, secrets.length, (p) => ({ sensitive: true, fingerprint: fpAt.get(p) ?? '' })), dropOnWrite);
      const shown = withoutFields(resolved, dropOnWrite);
      if (markerField !== undefined && mod.marker !== undefined) {
        const text = typeof resolved[markerField] === 'string' ? (resolved[markerField] as string) : undefined;
        if (mod.marker.name === 'fp' && fps.length > 0) body[markerField] = withMarker(text, 'fp', combineFingerprints(fps));
        if (mod.marker.name === 'key') body[markerField] = withMarker(text, 'key', entry.key);
      }
      drafts.push({
        step: { action: 'create', kind: mod.kind, key: entry.key, changes: createChanges(shown), source: entry.source, desired: { ...body, ...mod.createExtras?.(entry, resolution) } },
        desiredEntry: entry,
        dependsOn: new Set(),
      });
    }

    // A relation that exists is all there is to it: nothing to compare.
    if (mod.relation === true) unchanged += state.pairs.length;
    for (const { desired: entry, live: current } of mod.relation === true ? [] : state.pairs) {
      readOnlyDeclared(entry);
      const resolved = mod.resolve?.(entry, resolution) ?? entry.fields;
      const secrets = findSecrets(resolved);
      if (secrets.length > 0) secretsUntracked(entry, secrets.map((s) => s.pointer));
      // The common case at account scale, decided without building the live view and the compared copy below:
      // nothing secret, no marker, no immutable field, every declared field equal to the live one.
      if (secrets.length === 0 && markerField === undefined && immutable.length === 0 && (entry.key === current.key || entry.pinnedGuid === undefined)) {
        if (declaredFieldsSame(resolved, current.fields, mod.serverDefaults, dropOnUpdate, mod.setFields)) {
          unchanged += 1;
          continue;
        }
      }
      // Only declared fields are compared, so only they are taken from the live object (defaults fill gaps).
      const liveView: ApiObject = {};
      for (const key of Object.keys(resolved)) {
        const value = key in current.fields ? current.fields[key] : mod.serverDefaults[key];
        if (value !== undefined) liveView[key] = value;
      }
      let liveMarker: string | undefined;
      let liveText: string | undefined;
      if (markerField !== undefined && mod.marker !== undefined) {
        const split = splitMarker(current.fields[markerField], mod.marker.name);
        liveMarker = split.marker;
        liveText = split.text;
        if (markerField in liveView) liveView[markerField] = split.text;
      }
      const compared = withoutFields(withoutSecrets(resolved, secrets.length, () => undefined), dropOnUpdate);
      const changes = diffFields(compared, liveView, mod.setFields);
      for (const field of immutable) {
        if (!(field in resolved)) continue;
        const pair = comparable({ [field]: resolved[field] }, { [field]: liveView[field] }, mod.setFields);
        if (canonicalJson(pair.desired) !== canonicalJson(pair.live)) {
          warnings.push({
            code: 'IMMUTABLE_FIELD',
            message: `${at(entry.source)}${mod.kind} "${entry.key}": ${field} cannot be changed after creation (live ${JSON.stringify(liveView[field])}, declared ${JSON.stringify(resolved[field])}); delete the object and declare it anew to change it`,
            kind: mod.kind,
            key: entry.key,
          });
        }
      }
      const reasons: string[] = [];
      if (entry.key !== current.key && entry.pinnedGuid !== undefined && mod.marker?.name !== 'key') reasons.push('pinned GUID rename');
      let writeSecrets = false;
      const fps = secrets.map((s) => ({ pointer: s.pointer, fingerprint: fingerprintOf(entry, s.pointer) }));
      const expected = fps.length > 0 ? combineFingerprints(fps) : undefined;
      if (mod.marker?.name === 'fp' && expected !== undefined && liveMarker !== expected) {
        reasons.push(liveMarker === undefined ? 'no fingerprint marker' : 'secret changed');
        changes.push(...sensitiveChanges(fps.map((f) => f.pointer)));
        writeSecrets = true;
      }
      if (mod.marker?.name === 'key' && liveMarker !== entry.key) {
        reasons.push(liveMarker === undefined ? 'no key marker' : 'pinned GUID rename');
        changes.push(liveMarker === undefined ? { op: 'add', path: '/key', after: entry.key } : { op: 'replace', path: '/key', before: liveMarker, after: entry.key });
      }
      if (changes.length === 0) {
        unchanged += 1;
        continue;
      }
      if (mod.marker?.name !== 'fp' && fps.length > 0) writeSecrets = true;
      const fpAt = new Map(fps.map((f) => [f.pointer, f.fingerprint]));
      // Live plus exactly the changes shown: what the config leaves out is sent as it is live (kinds/write-body.ts).
      const body = withoutFields(
        withoutSecrets(withLiveOmissions(resolved, current.fields, mod), secrets.length, (p) => (writeSecrets ? { sensitive: true, fingerprint: fpAt.get(p) ?? '' } : undefined)),
        dropOnUpdate,
      );
      if (markerField !== undefined && mod.marker !== undefined) {
        const text = markerField in resolved ? (typeof resolved[markerField] === 'string' ? (resolved[markerField] as string) : undefined) : liveText;
        if (mod.marker.name === 'fp' && expected !== undefined) body[markerField] = withMarker(text, 'fp', expected);
        if (mod.marker.name === 'key') body[markerField] = withMarker(text, 'key', entry.key);
      }
      let drift: PlanDrift | undefined;
      const modified = mod.lastModified?.(current);
      if (modified?.operatorId !== undefined && modified.operatorId !== '' && modified.operatorId !== options.selfOperatorGuid) {
        const name = operatorName(live.operators, modified.operatorId);
        drift = {
          ...(modified.date === undefined ? {} : { lastModifiedDate: modified.date }),
          lastModifiedByOperatorId: modified.operatorId,
          ...(name === undefined ? {} : { operatorName: name }),
        };
      }
      drafts.push({
        step: {
          action: 'update',
          kind: mod.kind,
          key: entry.key,
          guid: current.guid,
          changes: changes.sort((a, b) => compareStrings(a.path, b.path)),
          ...(reasons.length > 0 ? { reason: reasons.join('; ') } : {}),
          ...(drift === undefined ? {} : { drift }),
          source: entry.source,
          desired: body,
        },
        desiredEntry: entry,
        liveEntry: current,
        dependsOn: new Set(),
      });
    }

    for (const orphan of state.orphans) {
      if (!state.prune && mod.relation !== true) {
        unmanaged.push({ kind: mod.kind, key: orphan.key, guid: orphan.guid });
        continue;
      }
      const owned = mod.ownedBy ?? [];
      if (orphan.refs.some((r) => owned.includes(r.kind) && deletedGuids.has(r.kind, r.guid))) continue;
      deletedGuids.of(mod.kind).set(orphan.guid, true);
      deletedAny = true;
      drafts.push({ step: { action: 'delete', kind: mod.kind, key: orphan.key, guid: orphan.guid, changes: [] }, liveEntry: orphan, dependsOn: new Set() });
    }
  }

  // A declared object must not keep referring to an object this plan deletes (the delete would fail, or break it).
  // Without a delete there is nothing to look up (prune is off in most runs, and there are 20,000 references at scale).
  for (const state of deletedAny ? states : []) {
    if (!state.managed) continue;
    for (const entry of state.desired) {
      for (const ref of entry.refs) {
        const guid = resolution.guidOf(ref.kind, ref.key);
        if (guid !== undefined && deletedGuids.has(ref.kind, guid)) {
          problems.push({
            code: 'REFERENCE_TO_DELETED',
            message: `${at(entry.source)}${state.mod.kind} "${entry.key}" refers to ${ref.kind} "${ref.key}", which this plan deletes because no file declares it; declare it, or remove the reference`,
            source: entry.source,
          });
        }
      }
    }
  }
  problems.push(...deletesRefused(drafts, states, resolution));
  if (problems.length > 0) throw new PlanError(problems);

  linkDependencies(drafts, states);
  const selected = selectTargets(drafts, options.targets, warnings);
  const steps = orderAndName(selected);

  const summary = { create: 0, update: 0, delete: 0, ensure: 0, unchanged, unmanaged: unmanaged.length };
  for (const step of steps) summary[step.action] += 1;

  const violations: PlanViolation[] = [];
  for (const state of states) {
    if (!state.managed || state.mod.ensureOnly === true || state.live.length === 0) continue;
    const total = state.live.length;
    const limits = { delete: settings.safety.maxDeletePercent, update: settings.safety.maxUpdatePercent } as const;
    for (const action of ['delete', 'update'] as const) {
      const count = steps.filter((s) => s.kind === state.mod.kind && s.action === action).length;
      const percent = percentOf(count, total);
      if (count > 0 && (count / total) * 100 > limits[action]) {
        const verb = action === 'delete' ? 'deletes' : 'updates';
        violations.push({
          kind: state.mod.kind,
          action,
          count,
          total,
          percent,
          limit: limits[action],
          message: `plan ${verb} ${count} of ${total} live ${state.mod.title} (${percent}%), over the ${action} limit of ${limits[action]}% (safety.max${action === 'delete' ? 'Delete' : 'Update'}Percent); review it, then apply with --allow-deletes (it accepts any unsafe plan, updates as well as deletes) or raise the limit in monsync.yaml`,
        });
      }
    }
  }

  unmanaged.sort((a, b) => kindIndex(a.kind) - kindIndex(b.kind) || compareStrings(a.key, b.key) || compareStrings(a.guid, b.guid));

  return {
    formatVersion: 1,
    configDigest: configDigest(desired, states, options.fingerprints),
    liveDigest: liveDigest(states),
    summary,
    safe: violations.length === 0,
    violations,
    steps,
    unmanaged,
    warnings,
  };
}

const SHOWN_REFERRERS = 5;

/** Why a live object still refers to an object the plan deletes, and how to make it stop, for the problem message. */
function whyKept(state: KindState, entry: LiveEntry, resolution: Resolution, relation: 'child' | 'reference'): { text: string; source?: DesiredEntry['source'] } {
  const { mod } = state;
  const field = mod.references?.field ?? 'its fields';
  const declared = state.managed && !resolution.isIgnoredGuid(mod.kind, entry.guid) ? resolution.desiredOf(mod.kind, entry.guid) : undefined;
  if (relation === 'child') {
    if (declared !== undefined) return { text: `it is declared at ${at(declared.source).slice(0, -2)}, so this plan keeps it; remove it from the config to delete it too`, source: declared.source };
    if (resolution.isIgnoredGuid(mod.kind, entry.guid)) return { text: 'it matches an ignore pattern, so monsync leaves it as it is; delete it in the service, or stop ignoring it' };
    return { text: state.managed ? `no file declares it and prune is off for ${mod.title}; delete it in the service` : `${mod.title} are not managed; delete it in the service` };
  }
  if (declared !== undefined) {
    const place = at(declared.source).slice(0, -2);
    return field in declared.fields
      ? { text: `its declared ${field} at ${place} still hold the reference; remove it there`, source: declared.source }
      : { text: `its declaration at ${place} leaves out ${field}, so the live value stays; declare ${field} there without the reference`, source: declared.source };
  }
  if (resolution.isIgnoredGuid(mod.kind, entry.guid)) return { text: 'it matches an ignore pattern, so monsync leaves it as it is; remove the reference in the service' };
  if (state.managed) return { text: `no file declares it and prune is off for ${mod.title}; declare it with ${field} that leave the reference out, or remove the reference in the service` };
  return { text: `${mod.title} are not managed; remove the reference in the service, or manage ${mod.title} and declare it with ${field} that leave the reference out` };
}

/**
 * Deletes the service would refuse (DESIGN §4: a vault item in use, a section still holding items): a live object
 * the plan neither deletes nor updates away from the reference keeps the target in use. Fields the config leaves
 * out are not managed, so their references stay; ignored, unmanaged and unpruned objects keep theirs too. Such a
 * plan would fail at apply, and no `--allow-deletes` could change that, so it is a problem, not a violation.
 * GUIDs compare case-insensitively, as the service does.
 */
function deletesRefused(drafts: readonly Draft[], states: readonly KindState[], resolution: Resolution): PlanProblem[] {
  const deleted = new PerKind<Draft>();
  let any = false;
  for (const draft of drafts) {
    if (draft.step.action !== 'delete' || draft.liveEntry === undefined) continue;
    deleted.of(draft.step.kind).set(draft.liveEntry.guid.toLowerCase(), draft);
    any = true;
  }
  if (!any) return [];
  const isDeleted = (kind: StepKind, guid: string): boolean => deleted.has(kind, guid.toLowerCase());

  interface Keeper {
    entry: LiveEntry;
    relation: 'child' | 'reference';
    text: string;
    source?: DesiredEntry['source'];
  }
  const keepers = new Map<Draft, Keeper[]>();
  for (const state of states) {
    const { mod } = state;
    const owners = mod.ownedBy ?? [];
    const parents = mod.parents ?? [];
    for (const entry of state.allLive) {
      if (entry.refs.length === 0 || !entry.refs.some((r) => isDeleted(r.kind, r.guid))) continue;
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
        const why = whyKept(state, entry, resolution, relation);
        const list = keepers.get(target) ?? [];
        list.push({ entry, relation, ...why });
        keepers.set(target, list);
      }
    }
  }

  const problems: PlanProblem[] = [];
  const targets = [...keepers.keys()].sort((a, b) => kindIndex(a.step.kind) - kindIndex(b.step.kind) || compareStrings(a.step.key, b.step.key) || compareStrings(a.step.guid ?? '', b.step.guid ?? ''));
  for (const target of targets) {
    const all = (keepers.get(target) ?? []).sort((a, b) => kindIndex(a.entry.kind) - kindIndex(b.entry.kind) || compareStrings(a.entry.key, b.entry.key) || compareStrings(a.entry.guid, b.entry.guid));
    const { kind, key, guid } = target.step;
    const keep = `Or keep ${kind} "${key}": declare it, or add "${kind}:${key}" to ignore.`;
    for (const relation of ['reference', 'child'] as const) {
      const group = all.filter((k) => k.relation === relation);
      if (group.length === 0) continue;
      const verb = relation === 'reference' ? 'refers to it' : 'stays in it';
      const shown = group.slice(0, SHOWN_REFERRERS).map((k) => `${k.entry.kind} "${k.entry.key}" (${k.entry.guid}) ${verb}: ${k.text}.`);
      if (group.length > SHOWN_REFERRERS) shown.push(`And ${group.length - SHOWN_REFERRERS} more.`);
      const source = group.find((k) => k.source !== undefined)?.source;
      const head = `${at(source)}${kind} "${key}" (${guid ?? ''}) cannot be deleted: this plan prunes it because no file declares it, but the service refuses`;
      if (relation === 'reference') {
        // Its parent's delete waits for it, so the parent cannot go either: say so rather than let apply find out.
        const parents = (target.liveEntry?.refs ?? []).map((r) => deleted.get(r.kind, r.guid.toLowerCase())?.step).filter((p) => p !== undefined);
        const also = parents.map((p) => ` (so ${p.kind} "${p.key}", which holds it, cannot be deleted either)`).join('');
        problems.push({
          code: 'DELETE_IN_USE',
          message: `${head} to delete an object in use (400), and it stays in use after this plan${also}. ${shown.join(' ')} ${keep}`,
          ...(source === undefined ? {} : { source }),
        });
      } else {
        problems.push({
          code: 'DELETE_NOT_EMPTY',
          message: `${head} to delete it while it holds objects (400), and it still holds ${group.length === 1 ? 'one' : group.length} after this plan. ${shown.join(' ')} ${keep}`,
          ...(source === undefined ? {} : { source }),
        });
      }
    }
  }
  return problems;
}

const KIND_INDEX = new Map<string, number>(KINDS.map((m, i) => [m.kind, i]));

function kindIndex(kind: string): number {
  return KIND_INDEX.get(kind) ?? KINDS.length;
}

const IDENTITY = new Map<StepKind, (key: string) => string>(KINDS.map((m) => [m.kind, m.identity ?? exactKey]));

function identityOf(kind: StepKind, key: string): string {
  const identity = IDENTITY.get(kind);
  return identity === undefined ? key : identity(key);
}

function linkDependencies(drafts: readonly Draft[], states: readonly KindState[]): void {
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
  // A delete waits for the updates and deletes of the live objects that refer to it: they drop the reference.
  // Without a delete nothing waits (and the references of every live object, 30,000 at scale, need no look-up).
  const anyDeleted = drafts.some((draft) => draft.step.action === 'delete');
  for (const state of anyDeleted ? states : []) {
    for (const entry of state.live) {
      for (const ref of entry.refs) {
        const target = deleted.get(ref.kind, ref.guid.toLowerCase());
        if (target === undefined) continue;
        const other = byLiveGuid.get(entry.kind, entry.guid);
        if (other !== undefined && other !== target) target.dependsOn.add(other);
      }
    }
  }
}

function selectTargets(drafts: Draft[], targets: readonly string[] | undefined, warnings: PlanWarning[]): Draft[] {
  if (targets === undefined || targets.length === 0) return drafts;
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
  return drafts.filter((d) => keep.has(d));
}

/** DESIGN §5: creates, updates and ensures kind by kind, then deletes in reverse kind order; keys sorted within a kind. */
function orderAndName(drafts: readonly Draft[]): PlanStep[] {
  const rank = (d: Draft): number => (d.step.action === 'delete' ? 2 * KINDS.length - kindIndex(d.step.kind) : kindIndex(d.step.kind));
  const ordered = drafts
    .map((d) => ({ d, rank: rank(d) }))
    .sort(
      (a, b) =>
        a.rank - b.rank || compareStrings(a.d.step.key, b.d.step.key) || compareStrings(a.d.step.action, b.d.step.action) || compareStrings(a.d.step.guid ?? '', b.d.step.guid ?? ''),
    )
    .map((x) => x.d);
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
  return ordered.map((d) => {
    const { action, kind, key, guid, changes, reason, drift, source, desired } = d.step;
    const dependsOn = [...d.dependsOn].map((dep) => ids.get(dep)).filter((id): id is string => id !== undefined).sort(compareStrings);
    // Built field by field so the JSON key order is fixed whatever the draft held.
    const step = { id: ids.get(d) ?? '', action, kind, key } as PlanStep;
    if (guid !== undefined) step.guid = guid;
    step.changes = changes;
    step.dependsOn = dependsOn;
    if (reason !== undefined) step.reason = reason;
    if (drift !== undefined) step.drift = drift;
    if (source !== undefined) step.source = source;
    if (desired !== undefined) step.desired = desired;
    return step;
  });
}

/**
 * The config digest hashes each entry's fields with sets in key order; other nesting keeps its YAML order, which
 * is stable for an unchanged tree and keeps hashing cheap at account scale.
 */
function configDigest(desired: DesiredState, states: readonly KindState[], fingerprints: SecretFingerprints | undefined): string {
  const feed = new HashFeed();
  const { manage, ignore, safety } = desired.settings;
  feed.add(canonicalJson({ manage, ignore, safety }));
  for (const state of states) {
    if (!state.managed) continue;
    feed.add(`\n${state.mod.kind}`);
    addConfigLines(feed, state.desired, state.mod.setFields, fingerprints);
  }
  return feed.hex();
}

// The hot loops and lines are small functions of their own, given only entries and arrays (never a kind module, of
// which each kind has its own object shape): the optimiser compiles them once, rather than recompiling the whole
// digest function on the stack for its hot loop, and again for each kind.
function addConfigLines(feed: HashFeed, entries: readonly DesiredEntry[], sets: KindModule['setFields'], fingerprints: SecretFingerprints | undefined): void {
  for (const entry of entries) feed.add(configLine(entry, sets, fingerprints));
}

function configLine(entry: DesiredEntry, sets: KindModule['setFields'], fingerprints: SecretFingerprints | undefined): string {
  const declared = hasSecret(entry.fields) ? replaceSecrets(entry.fields, (p) => `fingerprint:${fingerprints?.[secretAddress(entry.kind, entry.key, p)] ?? ''}`) : entry.fields;
  return `\n${JSON.stringify(entry.key)}\t${entry.pinnedGuid ?? ''}\t${entry.manages === undefined ? '' : entry.manages.join(',')}\t${JSON.stringify(toSetForm(declared, sets))}`;
}

function addLiveLines(feed: HashFeed, entries: readonly LiveEntry[]): void {
  for (const entry of entries) feed.add(liveLine(entry));
}

function liveLine(entry: LiveEntry): string {
  return `\n${entry.guid}\t${JSON.stringify(entry.fields)}`;
}

function byGuid(a: LiveEntry, b: LiveEntry): number {
  return compareStrings(a.guid, b.guid);
}

/**
 * Over the managed kinds' live objects in scope, by GUID: any edit to one (its `LastModifiedDate` at least)
 * changes it. Fields are hashed in the service's order, which is stable for an unchanged object.
 */
function liveDigest(states: readonly KindState[]): string {
  const feed = new HashFeed();
  for (const state of states) {
    if (!state.managed || state.mod.ensureOnly === true) continue;
    feed.add(state.mod.kind);
    addLiveLines(feed, [...state.live].sort(byGuid));
    feed.add('\n');
  }
  return feed.hex();
}
