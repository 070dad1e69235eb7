/**
 * Phase 7 of `assemblePlan`, digests: `configDigest` over the settings and every managed declaration (sets in key
 * order, secrets as fingerprints), `liveDigest` over the managed kinds' live objects in scope, by GUID. A saved plan
 * is stale when either changed (`compareSavedPlan`).
 */
import type { DesiredState } from '../../desired.js';
import type { DesiredEntry, LiveEntry, SetField } from '../../kinds/contract.js';
import { toSetForm } from '../diff.js';
import { hasSecret, replaceSecrets, secretAddress, type SecretFingerprints } from '../secrets.js';
import { canonicalJson, compareStrings, HashFeed } from '../values.js';
import type { KindState } from './state.js';

/**
 * The config digest hashes each entry's fields with sets in key order; other nesting keeps its YAML order, which
 * is stable for an unchanged tree and keeps hashing cheap at account scale.
 */
export function configDigest(desired: DesiredState, states: readonly KindState[], fingerprints: SecretFingerprints | undefined): string {
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
