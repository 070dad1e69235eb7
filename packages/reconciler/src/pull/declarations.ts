/**
 * Where each object is declared in a tree's YAML, and where each live object is in a pulled tree's data: both found
 * by walking the kind registry's paths (`path`, `parent`, `keyField` in `packages/schema/src/kinds.ts`), so a kind
 * added to the registry is found without code here.
 */
import { childKinds, KINDS_AS_LISTED, topLevelKinds, type KindEntry } from '@monsync/schema';
import { isMap, isScalar, isSeq, type Node, type Pair } from 'yaml';
import type { EditableFile, EditableMap, EditableSeq } from './yaml-edits.js';

/** One declaration in a file: its node, the sequence it is an entry of, and the field holding that sequence. */
export interface Declaration {
  readonly kind: KindEntry;
  readonly key: string;
  readonly file: EditableFile;
  readonly node: Node;
  readonly seq: EditableSeq;
  readonly owner: Pair | undefined;
  /** Nodes from the document root down to `seq`, for telling flow context. */
  readonly parents: readonly Node[];
  readonly parent: Declaration | undefined;
}

/** The fields below a parent entry that hold a child kind's list: its path after the parent's `*`. */
export function childField(child: KindEntry): readonly string[] {
  const star = child.path.lastIndexOf('*');
  return child.path.slice(star + 1);
}

function keyText(value: unknown): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
}

/** The node at `path` below a mapping, with the pair holding it and the nodes on the way. */
export function nodeAt(root: Node | null | undefined, path: readonly string[]): { node: Node; owner: Pair | undefined; parents: Node[] } | undefined {
  let node: Node | null | undefined = root;
  let owner: Pair | undefined;
  const parents: Node[] = [];
  for (const segment of path) {
    if (!isMap(node)) return undefined;
    const pair = node.items.find((item) => isScalar(item.key) && keyText(item.key.value) === segment);
    if (pair === undefined) return undefined;
    parents.push(node);
    owner = pair as Pair;
    node = pair.value as Node | null;
  }
  return node === null || node === undefined ? undefined : { node, owner, parents };
}

function entryKey(kind: KindEntry, item: unknown): string | undefined {
  if (kind.contentKey !== undefined) return isMap(item) ? kind.contentKey(item.toJSON() as Record<string, unknown>) : undefined;
  if (kind.keyField === undefined) return isScalar(item) ? keyText(item.value) : undefined;
  if (!isMap(item)) return undefined;
  const pair = item.items.find((entry) => isScalar(entry.key) && entry.key.value === kind.keyField);
  return isScalar(pair?.value) ? keyText(pair.value.value) : undefined;
}

/**
 * The lists a kind's entries are in below a parent (or the root), each with how an entry's own key is made: one list
 * at the kind's path, or one per member kind (`members: { monitors: [...], monitorGroups: [...] }`, `memberLists`).
 */
export function listsOf(kind: KindEntry, path: readonly string[]): { path: readonly string[]; own: (entry: string) => string }[] {
  if (kind.memberLists === undefined) return [{ path, own: (entry) => entry }];
  return Object.entries(kind.memberLists).map(([field, member]) => ({ path: [...path, field], own: (entry) => `${member}:${entry}` }));
}

function collect(out: Declaration[], file: EditableFile, kind: KindEntry, root: Node, path: readonly string[], parent: Declaration | undefined, above: readonly Node[]): void {
  for (const list of listsOf(kind, path)) collectList(out, file, kind, root, list, parent, above);
}

function collectList(out: Declaration[], file: EditableFile, kind: KindEntry, root: Node, list: ReturnType<typeof listsOf>[number], parent: Declaration | undefined, above: readonly Node[]): void {
  const found = nodeAt(root, list.path);
  if (found === undefined || !isSeq(found.node)) return;
  const seq = found.node as EditableSeq;
  const parents = [...above, ...found.parents, seq];
  for (const item of seq.items) {
    const entry = entryKey(kind, item);
    if (entry === undefined) continue;
    const own = list.own(entry);
    const declaration: Declaration = { kind, key: parent === undefined ? own : `${parent.key}/${own}`, file, node: item as Node, seq, owner: found.owner, parents, parent };
    out.push(declaration);
    for (const child of childKinds(kind)) collect(out, file, child, item as Node, childField(child), declaration, [...parents, item as Node]);
  }
}

/** Every declaration of every kind in the files, in file order. */
export function declarationsOf(files: readonly EditableFile[]): Declaration[] {
  const out: Declaration[] = [];
  for (const file of files) {
    for (const document of file.documents) {
      const root = document.contents as Node | null;
      if (root === null) continue;
      for (const kind of topLevelKinds()) collect(out, file, kind, root, kind.path, undefined, []);
    }
  }
  return out;
}

/** A live object in the form a config declares it (from a pulled tree), and its key. */
export interface PulledObject {
  readonly kind: KindEntry;
  readonly key: string;
  readonly value: unknown;
  readonly parentKey: string | undefined;
  /** The fields below its parent's entry that hold its list (`['members', 'monitors']`). */
  readonly field: readonly string[];
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let value = root;
  for (const segment of path) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

function pulledKey(kind: KindEntry, value: unknown): string | undefined {
  if (kind.contentKey !== undefined) return typeof value === 'object' && value !== null && !Array.isArray(value) ? kind.contentKey(value as Record<string, unknown>) : undefined;
  return kind.keyField === undefined ? keyText(value) : keyText(valueAt(value, [kind.keyField]));
}

function collectPulled(out: Map<string, PulledObject>, kind: KindEntry, root: unknown, path: readonly string[], parentKey: string | undefined): void {
  for (const { path: at, own: ownKey } of listsOf(kind, path)) {
    const list = valueAt(root, at);
    if (!Array.isArray(list)) continue;
    for (const value of list) {
      const entry = pulledKey(kind, value);
      if (entry === undefined) continue;
      const own = ownKey(entry);
      const key = parentKey === undefined ? own : `${parentKey}/${own}`;
      out.set(pulledId(kind.kind, key), { kind, key, value, parentKey, field: at });
      for (const child of childKinds(kind)) collectPulled(out, child, value, childField(child), key);
    }
  }
}

export function pulledId(kind: string, key: string): string {
  return `${kind}\u0000${key}`;
}

/** Every object of a pulled tree's data (`{ monitors: [...], vault: { sections: [...] }, ... }`), by kind and key. */
export function pulledObjectsOf(data: unknown): Map<string, PulledObject> {
  const out = new Map<string, PulledObject>();
  for (const kind of KINDS_AS_LISTED) if (kind.parent === undefined) collectPulled(out, kind, data, kind.path, undefined);
  return out;
}

export type { EditableMap };
