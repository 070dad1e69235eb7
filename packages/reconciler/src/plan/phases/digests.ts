/**
 * Phase 7 of `assemblePlan`, digests: `configDigest` over the settings and every managed declaration (sets in key
 * order, secrets as fingerprints), `liveDigest` over the managed kinds' live objects in scope, by GUID. A saved plan
 * is stale when either changed (`compareSavedPlan`). And each step's `digest`, of the normalized change it makes, with
 * the plan's `planDigest` over them: what a reviewer approved, compared by the action's apply on merge and by
 * `monsync apply --expect-digest`.
 */
import type { DesiredState } from '../../desired.js';
import type { DesiredEntry, LiveEntry, SetField } from '../../kinds/contract.js';
import { toSetForm } from '../diff.js';
import { hasSecret, replaceSecrets, secretAddress, type SecretFingerprints } from '../secrets.js';
import type { Plan, PlanChange, PlanStep } from '../types.js';
import { canonicalJson, compareStrings, getAt, HashFeed, isPlainObject, segmentsOf, sha256Hex } from '../values.js';
import type { KindState } from './state.js';

/**
 * The config digest hashes each entry's fields with sets in key order; other nesting keeps its YAML order, which
 * is stable for an unchanged tree and keeps hashing cheap at account scale.
 */
export function configDigest(desired: DesiredState, states: readonly KindState[], fingerprints: SecretFingerprints | undefined): string {
  const feed = new HashFeed();
  const { manage, ignore, safety, protect, policy } = desired.settings;
  // Guardrails only when written, so that the digest of a tree without them is what it always was.
  const guardrails = { ...(protect === undefined ? {} : { protect }), ...(policy === undefined ? {} : { policy: policy.map(({ rule, severity, params }) => ({ rule, severity, params })) }) };
  feed.add(canonicalJson({ manage, ignore, safety, ...guardrails }));
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
function addConfigLines(feed: HashFeed, entries: readonly DesiredEntry[], sets: readonly SetField[], fingerprints: SecretFingerprints | undefined): void {
  for (const entry of entries) feed.add(configLine(entry, sets, fingerprints));
}

function configLine(entry: DesiredEntry, sets: readonly SetField[], fingerprints: SecretFingerprints | undefined): string {
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
export function liveDigest(states: readonly KindState[]): string {
  const feed = new HashFeed();
  for (const state of states) {
    if (!state.managed || state.mod.ensureOnly === true) continue;
    feed.add(state.mod.kind);
    addLiveLines(feed, [...state.live].sort(byGuid));
    feed.add('\n');
  }
  return feed.hex();
}

/**
 * Makes `plan.configDigest` and `plan.liveDigest` computed when first read (then kept as ordinary properties, in
 * their place, so the plan's JSON is what it was). They are the JSON of every declared and live object hashed, about a
 * third of a plan's CPU at 100,000 monitors, and only a saved or compared plan needs them (`--out`, JSON output,
 * apply's recheck, the action); `monsync plan` printing text never reads them. The inputs are read then, not now:
 * `assemblePlan`'s callers never change a desired state or a snapshot after planning from it.
 */
export function digestsOnFirstRead(plan: Plan, desired: DesiredState, states: readonly KindState[], fingerprints: SecretFingerprints | undefined): void {
  onFirstRead(plan, 'configDigest', () => configDigest(desired, states, fingerprints));
  onFirstRead(plan, 'liveDigest', () => liveDigest(states));
}

function onFirstRead(plan: Plan, name: 'configDigest' | 'liveDigest', compute: () => string): void {
  const settle = (value: string): void => void Object.defineProperty(plan, name, { value, enumerable: true, writable: true, configurable: true });
  Object.defineProperty(plan, name, {
    enumerable: true,
    configurable: true,
    get(): string {
      const value = compute();
      settle(value);
      return value;
    },
    set: settle,
  });
}

/** A live object's GUID anywhere in a string: 8-4-4-4-12 hex digits, either case. */
const GUID_PATTERN = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/g;

/**
 * Each live GUID of the read, as the kind and key it names. A resolved reference is hashed as the key it refers to,
 * so that a referenced object deleted and created again (same key, new GUID) leaves the step's digest alone.
 */
export function guidNames(states: readonly KindState[]): GuidNames {
  let names: Map<string, string> | undefined;
  // Built on the first GUID a step's values hold: most plans at account scale hold none (a switched-off monitor).
  return { get: (guid) => (names ??= guidNameMap(states)).get(guid) };
}

/** What `stepDigest` asks of `guidNames`: the name of a lower-case GUID. */
export interface GuidNames {
  get(guid: string): string | undefined;
}

function guidNameMap(states: readonly KindState[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const state of states) {
    // Nor is one of a kind matched as sets (`<parent>/<member>`): its entries need not be built for nothing.
    if (state.sets !== undefined) continue;
    for (const entry of state.allLive) {
      // A step GUID `<parent>/<id>` (a membership, a period) is never a whole GUID_PATTERN match.
      if (entry.guid.length === GUID_LENGTH) names.set(entry.guid.toLowerCase(), `{{${state.mod.kind}:${entry.key}}}`);
    }
  }
  return names;
}

const GUID_LENGTH = 36;

function withoutGuids(value: unknown, names: GuidNames): unknown {
  if (typeof value === 'string') return value.replace(GUID_PATTERN, (guid) => names.get(guid.toLowerCase()) ?? guid);
  if (Array.isArray(value)) return value.map((v) => withoutGuids(v, names));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = withoutGuids(value[key], names);
    return out;
  }
  return value;
}

/** A sensitive change by the fingerprint of its desired value (the body holds `{ sensitive, fingerprint }` there). */
function sensitiveValue(step: PlanStep, pointer: string): unknown {
  const at = getAt(step.desired, segmentsOf(pointer));
  return isPlainObject(at) && typeof at['fingerprint'] === 'string' ? { fingerprint: at['fingerprint'] } : { fingerprint: '' };
}

/** One field change as reviewed: what is written where; the live value it replaces is not part of it. */
function normalChange(step: PlanStep, change: PlanChange, sets: readonly SetField[], names: GuidNames): unknown {
  if (change.op === 'remove') return { op: change.op, path: change.path };
  if (change.sensitive === true) return { op: change.op, path: change.path, after: sensitiveValue(step, change.path) };
  const path = segmentsOf(change.path).join('/');
  return { op: change.op, path: change.path, after: withoutGuids(toSetForm(change.after, sets, path), names) };
}

/**
 * The normalized change a step makes: kind, key, action, how a delete removes, and the field changes with their
 * desired values (sets in key order, secrets by fingerprint, references by key). No GUID of the step's own object,
 * no timestamp of the read, no position in the plan or the file: two plans that would write the same get the same.
 */
export function normalizedStep(step: PlanStep, sets: readonly SetField[], names: GuidNames): unknown {
  const changes = step.changes.map((change) => normalChange(step, change, sets, names)).sort((a, b) => compareStrings(canonicalJson(a), canonicalJson(b)));
  // An ensure step has no changes: what it asserts is its body.
  const asserted = step.action === 'ensure' ? withoutGuids(toSetForm(step.desired ?? {}, sets), names) : undefined;
  return { kind: step.kind, key: step.key, action: step.action, removal: step.removal, changes, asserted };
}

export function stepDigest(step: PlanStep, sets: readonly SetField[], names: GuidNames): string {
  return sha256Hex(canonicalJson(normalizedStep(step, sets, names)));
}

/** The digest of a whole plan: of its step digests as a sorted list, so that step order does not count. */
export function planDigestOf(stepDigests: readonly string[]): string {
  return sha256Hex([...stepDigests].sort(compareStrings).join('\n'));
}
