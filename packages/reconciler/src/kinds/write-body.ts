/**
 * What an update sends. monsync manages only what the config declares, at every level (schema README, "Set
 * entries"): a field that a nested object or a set entry leaves out is not compared, so the plan shows no change
 * to it. The service keeps only what it is sent, though: PATCH replaces a whole nested list or object, PUT the whole
 * object. So the body carries what the config leaves out, taken from the live object, and what apply sends is
 * the live object plus exactly the changes the plan shows:
 * - in a declared nested object, the live fields it omits;
 * - in an entry of a keyed set, the fields of the live entry with the same key (matched as the comparison matches
 *   them); in an ordinary array, those of the live element at the same index (compared index by index too);
 * - for kinds updated by PUT (`updateReplaces`), the live top-level fields the config omits.
 * Never filled: write-only fields (the service returns them empty) and objects holding a secret (sent whole when
 * their secret is written, left out when it is not).
 */
import type { ApiObject } from '../live/types.js';
import { hasSecret } from '../plan/secrets.js';
import { escapePointer, isPlainObject } from '../plan/values.js';
import type { KindModule, SetField } from './contract.js';

export type WriteBodyRules = Pick<KindModule, 'setFields' | 'secretFields' | 'updateReplaces'>;

interface Walk {
  sets: ReadonlyMap<string, SetField>;
  writeOnly: ReadonlySet<string>;
}

/**
 * The update body for `declared` (resolved fields, secrets still in place so their pointers hold) over `live`.
 * Declared values always win; array order and length are the declared ones, so secret pointers stay valid.
 */
export function withLiveOmissions(declared: ApiObject, live: ApiObject, rules: WriteBodyRules): ApiObject {
  const walk = walkOf(rules);
  const out: ApiObject = {};
  // `for...in`, not `Object.entries`: no pair list per object (plain data objects inherit no enumerable key).
  for (const key in declared) out[key] = fillField(declared[key], live[key], '', '/', key, walk);
  if (rules.updateReplaces === true) {
    for (const key in live) {
      const value = live[key];
      if (declared[key] === undefined && value !== undefined && !walk.writeOnly.has(`/${escapePointer(key)}`)) out[key] = value;
    }
  }
  return out;
}

/** A kind's rules as `fill` looks them up, built once per kind: a body is made for every update of the kind. */
const walks = new WeakMap<WriteBodyRules, Walk>();
function walkOf(rules: WriteBodyRules): Walk {
  let walk = walks.get(rules);
  if (walk === undefined) {
    walk = { sets: new Map(rules.setFields.map((s) => [s.path.join('/'), s])), writeOnly: new Set(rules.secretFields) };
    walks.set(rules, walk);
  }
  return walk;
}

/**
 * `fill` of the field `key` of an object (`under` and `at`: its path and pointer, each ending in `/` but at the top,
 * where the path is empty): a scalar is sent as declared. Only the few objects and lists among the fields of a body
 * are walked, with paths built for them alone: two strings for each field of each updated object otherwise.
 */
function fillField(d: unknown, l: unknown, under: string, at: string, key: string, walk: Walk): unknown {
  return typeof d === 'object' && d !== null ? fill(d, l, `${under}${key}`, `${at}${escapePointer(key)}`, walk) : d;
}

/** `path` names fields as set specs do (`Recipients/Operators`, `*` for array elements); `pointer` as write-only specs do. */
function fill(d: unknown, l: unknown, path: string, pointer: string, walk: Walk): unknown {
  if (Array.isArray(d)) {
    if (!Array.isArray(l)) return d;
    const element = `${path}/*`;
    const spec = walk.sets.get(path);
    if (spec === undefined) return d.map((entry, i) => (i < l.length ? fill(entry, l[i], element, `${pointer}/${i}`, walk) : entry));
    if (spec.key === undefined) return d;
    const mine = byKey(d, spec.key);
    const theirs = byKey(l, spec.key);
    // Entries without their key, or a key twice: the comparison falls back to whole values, and so does the body.
    if (mine === undefined || theirs === undefined) return d;
    const filled = d.map((entry, i) => fill(entry, theirs.get(keyOf(entry, spec.key as string) as string), element, `${pointer}/${i}`, walk));
    // Entries the service added by itself and the config leaves out stay as they are (a list without them would
    // make the service add them again with its defaults, undoing a value changed in the web app).
    // Added to the list just built, not spread into a new one: the spread of lists of differing element kinds (a
    // monitor's conditions, some with and some without entries kept) made the optimised walk be thrown away.
    for (const [key, entry] of theirs) if (spec.serverAdded?.includes(key) === true && !mine.has(key)) filled.push(entry);
    return filled;
  }
  if (isPlainObject(d)) {
    if (!isPlainObject(l) || hasSecret(d)) return d;
    const out: Record<string, unknown> = {};
    const under = `${path}/`;
    const at = `${pointer}/`;
    for (const key in d) out[key] = fillField(d[key], l[key], under, at, key, walk);
    for (const key in l) {
      const value = l[key];
      if (d[key] === undefined && value !== undefined && !walk.writeOnly.has(`${at}${escapePointer(key)}`)) out[key] = value;
    }
    return out;
  }
  return d;
}

function keyOf(entry: unknown, field: string): string | undefined {
  if (!isPlainObject(entry)) return undefined;
  const k = entry[field];
  return typeof k === 'string' || typeof k === 'number' ? String(k) : undefined;
}

/** Entries by key, or `undefined` when one lacks its key or a key repeats. */
function byKey(list: readonly unknown[], field: string): Map<string, unknown> | undefined {
  const out = new Map<string, unknown>();
  for (const entry of list) {
    const k = keyOf(entry, field);
    if (k === undefined || out.has(k)) return undefined;
    out.set(k, entry);
  }
  return out;
}
