/**
 * Retired objects, for kinds that can be retired instead of deleted (`KindModule.retire`: monitors, where the
 * service may refuse DELETE). A retired object still exists, switched off and marked `monsync:retired=` in a text
 * field. Undeclared, it is dormant: not matched, not unmanaged, not pruned again, not counted by the safety
 * thresholds. Declared again, it is revived: the same object, matched by key, switched back on and unmarked.
 */
import type { RemovalStrategy } from '@monsync/schema';
import type { DesiredEntry, KindModule, LiveEntry, RetireSpec } from '../../kinds/contract.js';
import type { ApiObject } from '../../live/types.js';
import { splitMarker, withMarker } from '../markers.js';
import { compareStrings } from '../values.js';
import { exactKey, type Draft, type KindState, type Pair } from './state.js';

export const REVIVED = 'revived: retired by monsync, declared again';

/** What every retired marker line holds (markers.ts). */
const RETIRED_MARKER = 'monsync:retired=';

export function isRetired(spec: RetireSpec, entry: LiveEntry): boolean {
  const text = entry.fields[spec.field];
  // Asked of every monitor, twice: most have no marker text at all, and need no split.
  return typeof text === 'string' && text.includes(RETIRED_MARKER) && splitMarker(text, 'retired').marker !== undefined;
}

/**
 * The live objects matching may pair with a declaration: every active one, and a retired one only when no active
 * object (or retired one with a lower GUID) has its key, so that declaring a key again revives one object and
 * never meets an old retired copy as a duplicate. The rest are dormant.
 */
export function matchableLive(mod: KindModule, live: readonly LiveEntry[]): { matchable: readonly LiveEntry[]; dormant: LiveEntry[]; retiredAny: boolean } {
  const spec = mod.retire;
  if (spec === undefined) return { matchable: live, dormant: [], retiredAny: false };
  // Retired objects are few: an account of 100,000 monitors with none pays one pass, not a sort of all of them.
  const retired = live.filter((entry) => isRetired(spec, entry));
  if (retired.length === 0) return { matchable: live, dormant: [], retiredAny: false };
  const identity = mod.identity ?? exactKey;
  const activeKeys = new Set<string>();
  for (const entry of live) if (!isRetired(spec, entry)) activeKeys.add(identity(entry.key));
  const retiredTaken = new Set<string>();
  const matchable: LiveEntry[] = [];
  const dormant: LiveEntry[] = [];
  const keep = new Set<LiveEntry>();
  for (const entry of retired.sort((a, b) => compareStrings(a.guid, b.guid))) {
    const id = identity(entry.key);
    if (activeKeys.has(id) || retiredTaken.has(id)) continue;
    retiredTaken.add(id);
    keep.add(entry);
  }
  for (const entry of live) {
    if (!isRetired(spec, entry) || keep.has(entry)) matchable.push(entry);
    else dormant.push(entry);
  }
  return { matchable, dormant, retiredAny: true };
}

/** The declaration of a revived object: what the config says, plus switching it back on and dropping the marker. */
function revivedEntry(spec: RetireSpec, desired: DesiredEntry, live: LiveEntry): DesiredEntry {
  const fields: ApiObject = { ...spec.revived, ...desired.fields };
  // Without the fingerprint line too: the update that revives it writes the one its secrets have now.
  if (!(spec.field in desired.fields)) fields[spec.field] = splitMarker(splitMarker(live.fields[spec.field], 'retired').text, 'fp').text ?? '';
  return { ...desired, fields };
}

/**
 * After matching: retired objects left unpaired are dormant; paired ones are revived. `retiredAny` is what
 * `matchableLive` found: without a retired object among those matched, nothing is to settle (and 100,000 pairs
 * need not be asked).
 */
export function settleRetired(mod: KindModule, pairs: Pair[], orphans: LiveEntry[], retiredAny: boolean): { pairs: Pair[]; orphans: LiveEntry[]; dormant: LiveEntry[] } {
  const spec = mod.retire;
  if (spec === undefined || !retiredAny) return { pairs, orphans, dormant: [] };
  const dormant = orphans.filter((entry) => isRetired(spec, entry));
  if (dormant.length === 0 && !pairs.some((p) => isRetired(spec, p.live))) return { pairs, orphans, dormant };
  return {
    pairs: pairs.map((pair) => (isRetired(spec, pair.live) ? { desired: revivedEntry(spec, pair.desired, pair.live), live: pair.live } : pair)),
    orphans: orphans.filter((entry) => !isRetired(spec, entry)),
    dormant,
  };
}

/** Says why a revived object is updated. */
export function markRevived(drafts: readonly Draft[], states: readonly KindState[]): void {
  const specs = new Map(states.filter((s) => s.mod.retire !== undefined).map((s) => [s.mod.kind, s.mod.retire as RetireSpec]));
  if (specs.size === 0) return;
  for (const draft of drafts) {
    const spec = specs.get(draft.step.kind);
    if (spec === undefined || draft.step.action !== 'update' || draft.liveEntry === undefined || !isRetired(spec, draft.liveEntry)) continue;
    draft.step.reason = draft.step.reason === undefined ? REVIVED : `${REVIVED}; ${draft.step.reason}`;
  }
}

/** What a retire sends (a PATCH): the retired fields, and the marker line after the object's own text. */
export function retireBody(spec: RetireSpec, live: LiveEntry, removal: RemovalStrategy): ApiObject {
  const text = splitMarker(live.fields[spec.field], 'retired').text;
  return { ...spec.retired, [spec.field]: withMarker(text, 'retired', removal) };
}
