/**
 * Field comparison: both sides are brought to one comparable form, then fast-json-patch `compare` lists the
 * operations. Only what the config declares is compared (live objects are projected onto the declared shape),
 * so unknown live fields and values the service fills in never show as changes.
 */
import jsonPatch from 'fast-json-patch';
import { normalizeTimestamp } from '@monsync/client';
import { isSecretValue } from '../desired.js';
import type { SetField } from '../kinds/contract.js';
import type { PlanChange } from './types.js';
import { canonicalJson, compareStrings, escapePointer, getAt, isEmptyValue, isPlainObject, pointerOf, segmentsOf } from './values.js';

/** Paths are `/`-joined field names (`Recipients/Operators`); array elements add `*`. */
type Path = string;

const join = (path: Path, key: string): Path => (path === '' ? key : `${path}/${key}`);

interface SetIndex {
  /** Set field by its joined path (the first declared, when two share one). */
  readonly at: ReadonlyMap<Path, SetField>;
  /** Every path at or above a set field: elsewhere values are used as they are. */
  readonly above: ReadonlySet<Path>;
  /**
   * `below`'s answers by path, then key: the comparison asks for the same few child paths of every object, and a
   * joined string each time is an allocation, and a hash of a new string, per field per object at account scale.
   * Only paths in `above` are ever asked about, so the keys held are the declared field names below set fields.
   */
  readonly children: Map<Path, Map<string, Path | null>>;
}

/**
 * Built once per kind's set list: the comparison asks "is there a set here / below here" for every field of every
 * object, tens of thousands of times per plan.
 */
const indexes = new WeakMap<readonly SetField[], SetIndex>();
function indexOf(sets: readonly SetField[]): SetIndex {
  let index = indexes.get(sets);
  if (index === undefined) {
    const at = new Map<Path, SetField>();
    const above = new Set<Path>();
    for (const spec of sets) {
      const joined = spec.path.join('/');
      if (!at.has(joined)) at.set(joined, spec);
      above.add(joined);
      // Prefixes at every `/`, as a `startsWith(path + '/')` test would find them.
      for (let slash = joined.indexOf('/'); slash >= 0; slash = joined.indexOf('/', slash + 1)) above.add(joined.slice(0, slash));
    }
    index = { at, above, children: new Map() };
    indexes.set(sets, index);
  }
  return index;
}

/**
 * Set-like arrays become objects keyed by their key (so a diff reads `/ErrorConditions/HttpStatus/Value` rather
 * than shifting indexes), scalar sets become sorted arrays. An array whose elements lack the key or repeat it is
 * left as an array sorted by content: still order-insensitive, just less precise in its diff. Values with no set
 * below them are returned as they are (never mutated, only shared).
 */
export function toSetForm(value: unknown, sets: readonly SetField[], path: Path = ''): unknown {
  if (sets.length === 0) return value;
  return setForm(value, indexOf(sets), path);
}

function setForm(value: unknown, index: SetIndex, path: Path): unknown {
  if (isPlainObject(value)) {
    let out: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      const child = join(path, key);
      if (!index.above.has(child)) continue;
      const converted = setForm(value[key], index, child);
      if (converted !== value[key]) {
        out ??= { ...value };
        out[key] = converted;
      }
    }
    return out ?? value;
  }
  if (Array.isArray(value)) {
    const spec = index.at.get(path);
    if (spec === undefined) return value;
    return spec.key === undefined ? sortByContent(value) : keyedForm(value, spec.key);
  }
  return value;
}

/**
 * A keyed set as an object by key, keys in order; sorted by content when an element lacks the key or repeats it.
 * Without a map of its own: this runs for each set of each declared object when the config digest is made.
 */
function keyedForm(value: readonly unknown[], keyField: string): unknown {
  const keys: string[] = [];
  for (const element of value) {
    const k = isPlainObject(element) ? element[keyField] : undefined;
    if (typeof k !== 'string' && typeof k !== 'number') return sortByContent(value);
    keys.push(String(k));
  }
  const order = keys.map((_, i) => i).sort((a, b) => compareStrings(keys[a] as string, keys[b] as string));
  for (let i = 1; i < order.length; i += 1) if (keys[order[i] as number] === keys[order[i - 1] as number]) return sortByContent(value);
  const out: Record<string, unknown> = {};
  for (const i of order) out[keys[i] as string] = value[i];
  return out;
}

function sortByContent(values: readonly unknown[]): unknown[] {
  return values
    .map((v) => [canonicalJson(v), v] as const)
    .sort((a, b) => compareStrings(a[0], b[0]))
    .map(([, v]) => v);
}

function normalizeScalar(value: unknown): unknown {
  if (typeof value === 'string') return normalizeTimestamp(value) ?? value;
  return value;
}

export function normalizeDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalizeDeep);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = normalizeDeep(v);
    return out;
  }
  return normalizeScalar(value);
}

/** The API sends some numbers as strings (`ErrorConditions[].Value: "4"`) and YAML writes them as numbers. */
function alignScalar(d: unknown, l: unknown): [unknown, unknown] {
  const nd = normalizeScalar(d);
  const nl = normalizeScalar(l);
  if (typeof nd === 'number' && typeof nl === 'string' && nl.trim() !== '' && Number(nl) === nd) return [nd, nd];
  if (typeof nd === 'string' && typeof nl === 'number' && nd.trim() !== '' && Number(nd) === nl) return [nd, nd];
  if (typeof nd === 'boolean' && (nl === 'true' || nl === 'false') && String(nd) === nl) return [nd, nd];
  if (typeof nl === 'boolean' && (nd === 'true' || nd === 'false') && String(nl) === nd) return [nd, nd];
  return [nd, nl];
}

/**
 * Projects the live value onto the shape of the desired one: only declared object fields survive on the live
 * side, except in keyed sets where a live element the config does not list is a removal and must stay.
 */
function align(d: unknown, l: unknown, index: SetIndex, path: Path): [unknown, unknown] {
  if (isEmptyValue(d) && isEmptyValue(l)) {
    const same = normalizeDeep(d);
    return [same, same];
  }
  if (isPlainObject(d)) {
    if (!isPlainObject(l)) return [normalizeDeep(d), normalizeDeep(l)];
    const spec = index.at.get(path);
    const keyedSet = spec?.key !== undefined;
    const dOut: Record<string, unknown> = {};
    const lOut: Record<string, unknown> = {};
    for (const key of Object.keys(d)) {
      const [a, b] = align(d[key], l[key], index, join(path, key));
      if (a !== undefined) dOut[key] = a;
      if (b !== undefined) lOut[key] = b;
    }
    if (keyedSet) {
      for (const key of Object.keys(l)) {
        if (!(key in d) && l[key] !== undefined && spec?.serverAdded?.includes(key) !== true) lOut[key] = normalizeDeep(l[key]);
      }
    }
    return [dOut, lOut];
  }
  if (Array.isArray(d)) {
    if (!Array.isArray(l)) return [normalizeDeep(d), normalizeDeep(l)];
    const dOut: unknown[] = [];
    const lOut: unknown[] = [];
    for (let i = 0; i < Math.max(d.length, l.length); i += 1) {
      if (i < d.length && i < l.length) {
        const [a, b] = align(d[i], l[i], index, join(path, '*'));
        dOut.push(a);
        lOut.push(b);
      } else if (i < d.length) dOut.push(normalizeDeep(d[i]));
      else lOut.push(normalizeDeep(l[i]));
    }
    return [dOut, lOut];
  }
  return alignScalar(d, l);
}

export interface Comparable {
  desired: Record<string, unknown>;
  live: Record<string, unknown>;
}

/** Both sides in comparable form: sets keyed, timestamps canonical, the live side projected on the declared fields. */
export function comparable(desired: Record<string, unknown>, live: Record<string, unknown>, sets: readonly SetField[]): Comparable {
  const d = toSetForm(desired, sets) as Record<string, unknown>;
  const l = toSetForm(live, sets) as Record<string, unknown>;
  const [a, b] = align(d, l, indexOf(sets), '');
  return { desired: (a ?? {}) as Record<string, unknown>, live: (b ?? {}) as Record<string, unknown> };
}

function scalarEqual(d: unknown, l: unknown): boolean {
  if (d === l) return true;
  if (typeof d === 'string' && typeof l === 'string') {
    const td = normalizeTimestamp(d);
    return td !== undefined && td === normalizeTimestamp(l);
  }
  const [a, b] = alignScalar(d, l);
  return a === b;
}

/**
 * Whether the live value already matches the declared one, with the semantics of `diffFields` but without
 * building anything: the common, unchanged case at account scale. `false` only means "not proven equal"
 * (unusual shapes fall through to the full comparison), so callers must run `diffFields` then. A declared value
 * holding a secret (`SecretValue`) is never the same: the drafts phase looks for secrets only when this is false.
 */
export function sameAsDeclared(d: unknown, l: unknown, sets: readonly SetField[], path: Path = ''): boolean {
  const index = indexOf(sets);
  return same(d, l, index, index.above.has(path) || path === '' ? path : null);
}

/**
 * `sameAsDeclared` over each declared field of `declared` but those in `skip`, the live view of a field being the
 * live value, or the service's default when the live object lacks it: what `diffFields` finds empty for the
 * declared fields, decided on the objects as they are.
 */
export function declaredFieldsSame(declared: Record<string, unknown>, live: Record<string, unknown>, defaults: Record<string, unknown>, skip: ReadonlySet<string>, sets: readonly SetField[]): boolean {
  const index = indexOf(sets);
  for (const key in declared) {
    const value = declared[key];
    // One keyed load for the usual case, a field the live object has; `in` only tells a missing one from one unset.
    const current = live[key];
    // Most fields of most objects: the same scalar (as `same` would find first), with no path to work out.
    if (value === current && (typeof value !== 'object' || value === null)) continue;
    // Two empty lists (a monitor's variables, most often): the same, as `same` finds them, without its walk.
    if (Array.isArray(value) && value.length === 0 && Array.isArray(current) && current.length === 0) continue;
    if (value === undefined || skip.has(key)) continue;
    if (!same(value, current !== undefined || key in live ? current : defaults[key], index, below(index, '', key))) return false;
  }
  return true;
}

/**
 * The path of `key` below `path`; `null` when no set field lies at or below it, so that nothing below builds path
 * strings it never uses (most fields of most objects: a string per field per object otherwise).
 */
function below(index: SetIndex, path: Path | null, key: string): Path | null {
  if (path === null) return null;
  let known = index.children.get(path);
  if (known === undefined) {
    known = new Map();
    index.children.set(path, known);
  }
  let child = known.get(key);
  if (child === undefined) {
    const joined = join(path, key);
    child = index.above.has(joined) ? joined : null;
    known.set(key, child);
  }
  return child;
}

function same(d: unknown, l: unknown, index: SetIndex, path: Path | null): boolean {
  if (d === l && (typeof d !== 'object' || d === null)) return true;
  if (isPlainObject(d)) return sameFields(d, l, index, path);
  if (isEmptyValue(d) && isEmptyValue(l)) return true;
  if (Array.isArray(d)) {
    if (!Array.isArray(l)) return false;
    const spec = path === null ? undefined : index.at.get(path);
    // A keyed set may hold entries the service added by itself beyond the declared ones: its own test counts them.
    if (d.length !== l.length && spec?.serverAdded === undefined) return false;
    if (spec === undefined) {
      const element = below(index, path, '*');
      for (let i = 0; i < d.length; i += 1) if (!same(d[i], l[i], index, element)) return false;
      return true;
    }
    return spec.key === undefined ? sameScalarSet(d, l) : sameKeyedSet(d, l, spec, index, below(index, path, '*'));
  }
  if (isPlainObject(l) || Array.isArray(l)) return false;
  return scalarEqual(d, l);
}

/** `same` for a declared plain object: each of its fields as the live object holds it. */
function sameFields(d: Record<string, unknown>, l: unknown, index: SetIndex, path: Path | null): boolean {
  // A secret is compared by its fingerprint, never as a value: one shaped as a plain object is no exception.
  if (isSecretValue(d)) return false;
  // An empty declared object matches any empty live value, and a live object whatever it holds (no declared field
  // differs): the emptiness test, a walk of the object's keys, is needed only when the live value is no object.
  if (!isPlainObject(l)) return isEmptyValue(d) && isEmptyValue(l);
  // `for...in`, not `Object.keys`: no key list per object (plain data objects inherit no enumerable key). The same
  // scalar is settled before the path below is built (a string per field of each set entry otherwise).
  for (const key in d) {
    const a = d[key];
    const b = l[key];
    if (a === b && (typeof a !== 'object' || a === null)) continue;
    if (!same(a, b, index, below(index, path, key))) return false;
  }
  return true;
}

// The set comparisons are functions of their own: `same` runs for every field of every object and is compiled
// again when a new shape deoptimises it, and these rarer branches would make each of those compilations larger.

/**
 * Scalar sets (e-mail addresses, GUIDs): equal as sorted lists of identical strings; anything else is left to the
 * full comparison.
 */
function sameScalarSet(d: readonly unknown[], l: readonly unknown[]): boolean {
  if (!d.every((v) => typeof v === 'string') || !l.every((v) => typeof v === 'string')) return false;
  const a = [...(d as string[])].sort(compareStrings);
  const b = [...(l as string[])].sort(compareStrings);
  return a.every((v, i) => v === b[i]);
}

/**
 * Keyed sets: each declared entry has exactly one live entry with its key, and matches it; the live set holds no
 * other entry but those the service adds by itself.
 */
function sameKeyedSet(d: readonly unknown[], l: readonly unknown[], spec: SetField, index: SetIndex, element: Path | null): boolean {
  const keyField = spec.key as string;
  const inOrder = sameInOrder(d, l, keyField, index, element);
  if (inOrder !== undefined) return inOrder;
  const seen: string[] = [];
  for (const entry of d) {
    const k = isPlainObject(entry) ? entry[keyField] : undefined;
    if (typeof k !== 'string' && typeof k !== 'number') return false;
    const key = String(k);
    // Sets are short (a monitor's error conditions): a list of the keys seen is cheaper than a set of them.
    if (seen.includes(key)) return false;
    seen.push(key);
    const match = onlyWithKey(l, keyField, key);
    if (match === undefined || !same(entry, match, index, element)) return false;
  }
  if (l.length === d.length) return true;
  const added = spec.serverAdded ?? [];
  const extra = l.filter((candidate) => !isPlainObject(candidate) || !added.includes(String(candidate[keyField])) || seen.includes(String(candidate[keyField])));
  return extra.length === d.length;
}

/**
 * A keyed set in the usual case (the service returns a set as it was written), settled in one pass: both sets hold
 * the same distinct string keys at the same positions, so each declared entry's only live entry with its key is the
 * one at its position, and the search by key, the list of keys seen and the count of extra entries are not needed.
 * `undefined` as soon as the keys are not so: the search decides then. An entry that differs from the live one at its
 * position settles the set as different whatever follows: the search would pair the two, or find the key twice.
 */
function sameInOrder(d: readonly unknown[], l: readonly unknown[], keyField: string, index: SetIndex, element: Path | null): boolean | undefined {
  if (d.length !== l.length) return undefined;
  for (let i = 0; i < d.length; i += 1) {
    const entry = d[i];
    const candidate = l[i];
    if (!isPlainObject(entry) || !isPlainObject(candidate)) return undefined;
    const key = entry[keyField];
    if (typeof key !== 'string' || candidate[keyField] !== key) return undefined;
    for (let j = 0; j < i; j += 1) if ((d[j] as Record<string, unknown>)[keyField] === key) return undefined;
    if (!sameFields(entry, candidate, index, element)) return false;
  }
  return true;
}

/** The one element of a keyed set with this key (compared as strings), or undefined when none or several have it. */
function onlyWithKey(l: readonly unknown[], keyField: string, key: string): Record<string, unknown> | undefined {
  let match: Record<string, unknown> | undefined;
  for (const candidate of l) {
    if (!isPlainObject(candidate)) continue;
    const k = candidate[keyField];
    // A string key is its own string form: no conversion for the usual case.
    if (k === undefined || (typeof k === 'string' ? k !== key : String(k) !== key)) continue;
    if (match !== undefined) return undefined;
    match = candidate;
  }
  return match;
}

/**
 * Field changes from live to desired. Changes inside ordinary (ordered) arrays are reported as one replacement
 * of the whole array: index-by-index operations on a shifted list are noise to a reviewer.
 */
export function diffFields(desired: Record<string, unknown>, live: Record<string, unknown>, sets: readonly SetField[]): PlanChange[] {
  // Only the declared fields that differ are compared in full: each top-level field's changes are its own, and a
  // changed object usually differs in one of its dozen fields, most often a scalar one.
  const index = indexOf(sets);
  const scalars: PlanChange[] = [];
  let differing: Record<string, unknown> | undefined;
  const before: Record<string, unknown> = {};
  for (const key of Object.keys(desired)) {
    const value = desired[key];
    const current = live[key];
    if (same(value, current, index, below(index, '', key))) continue;
    if (isScalar(value) && isScalar(current) && key in live) {
      scalars.push(scalarReplace(key, value, current));
      continue;
    }
    (differing ??= {})[key] = value;
    if (key in live) before[key] = current;
  }
  if (differing === undefined) return scalars.sort((a, b) => compareStrings(a.path, b.path));
  return [...scalars, ...patchChanges(differing, before, sets)].sort((a, b) => compareStrings(a.path, b.path));
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/**
 * The change of a top-level scalar field that differs from its live scalar, as the patch of the comparable forms
 * would show it (`align` of two scalars is `alignScalar`), without building them: the usual change at account scale,
 * in code that runs too seldom to be optimised.
 */
function scalarReplace(key: string, desired: string | number | boolean, live: string | number | boolean): PlanChange {
  const [after, before] = alignScalar(desired, live);
  return { op: 'replace', path: `/${escapePointer(key)}`, before, after };
}

/** The changes of the differing declared fields, from a JSON patch of their comparable forms; not sorted. */
function patchChanges(differing: Record<string, unknown>, before: Record<string, unknown>, sets: readonly SetField[]): PlanChange[] {
  const { desired: d, live: l } = comparable(differing, before, sets);
  const operations = jsonPatch.compare(l, d);
  const byPath = new Map<string, PlanChange>();
  for (const operation of operations) {
    if (operation.op !== 'add' && operation.op !== 'remove' && operation.op !== 'replace') continue;
    const segments = segmentsOf(operation.path);
    let cut = segments.length;
    for (let i = 1; i <= segments.length; i += 1) {
      const prefix = segments.slice(0, i);
      if (Array.isArray(getAt(l, prefix)) || Array.isArray(getAt(d, prefix))) {
        cut = i;
        break;
      }
    }
    const at = segments.slice(0, cut);
    const path = pointerOf(at);
    if (byPath.has(path)) continue;
    const before = getAt(l, at);
    const after = getAt(d, at);
    const change: PlanChange =
      before === undefined
        ? { op: 'add', path, after }
        : after === undefined
          ? { op: 'remove', path, before }
          : { op: 'replace', path, before, after };
    byPath.set(path, change);
  }
  return [...byPath.values()];
}
