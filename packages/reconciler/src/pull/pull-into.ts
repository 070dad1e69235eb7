/**
 * `pull --into`: the live account written into an existing tree in place. The plan of the tree against the account
 * says what differs, so exactly that is edited: an update's changed fields take the live values, a declaration the
 * account lacks (a create) is removed, a live object the tree would delete (prune: true) is added, to its parent's
 * declaration when it is a child and to the new-objects file otherwise. Values come from the live account in the
 * form a config declares them (a pulled tree's data: vault references as `Section/Item`, members as monitor names,
 * secrets as `{ fromEnv: ... }` placeholders), so the edited tree plans empty against that account.
 */
import { ALERT_DEFINITION_KIND, kindEntry, SETTINGS_FILE, type KindEntry } from '@monsync/schema';
import { isAlias, isMap, isScalar, isSeq, type Node, type Pair } from 'yaml';
import type { Plan, PlanChange, PlanStep } from '../plan/types.js';
import { segmentsOf } from '../plan/values.js';
import { DUPLICATE_REASON } from '../plan/phases/deletes.js';
import { allowWritten } from './allow-unknown.js';
import { declarationsOf, nodeAt, pulledId, pulledObjectsOf, type Declaration, type PulledObject } from './declarations.js';
import { EditableFile, type EditableMap, type EditableSeq } from './yaml-edits.js';
import { rewriteOlderAlertDefinitions } from './older-alert-definitions.js';
import { toYaml } from './yaml-writer.js';

export interface TreeFile {
  /** Relative to the tree's root, with `/` separators. */
  readonly path: string;
  readonly text: string;
}

export interface PullIntoOptions {
  /** The tree's YAML files as they are. */
  readonly files: readonly TreeFile[];
  /** The plan of that tree against the live account. */
  readonly plan: Plan;
  /** The live account in config form: a pulled tree's `data`. */
  readonly pulled: unknown;
  /** Where new top-level objects go, relative to the root (created when absent). */
  readonly newObjectsFile: string;
  /**
   * The named form of each live alert definition by GUID (lower case; a pulled tree's `alertDefinitionsByGuid`): with
   * it, entries of the older form (`{ AlertDefinitionGuid, IsActive }`) are rewritten into it.
   */
  readonly alertDefinitionsByGuid?: ReadonlyMap<string, Record<string, unknown>>;
}

export interface PullIntoResult {
  /** The files whose text changed (or was created), with their new text. */
  readonly files: { path: string; text: string; created: boolean }[];
  /** What was done, one line each: `monitor "Blog": IsActive`, `+ monitor "Status page" (new-objects.yaml)`. */
  readonly edits: string[];
  /** What was left as it is, and why (secrets, objects not found). */
  readonly notes: string[];
  /** Objects written whole (added, or an older alert definition rewritten), by kind and key. */
  readonly written: { kind: string; key: string }[];
}

const REFERENCE_KEYS = ['fromEnv', 'fromFile'];

/** Whether a value holds a secret reference or placeholder (`{ fromEnv: ... }`): such values are never pulled. */
function holdsSecretReference(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsSecretReference);
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([key, item]) => REFERENCE_KEYS.includes(key) || holdsSecretReference(item));
}

function nodeValue(node: Node | null | undefined): unknown {
  return node === null || node === undefined ? undefined : (node.toJSON() as unknown);
}

function pairOf(map: Node, key: string): Pair | undefined {
  if (!isMap(map)) return undefined;
  return map.items.find((item) => isScalar(item.key) && String(item.key.value) === key) as Pair | undefined;
}

function keyedEntry(seq: Node, keyField: string, key: string): Node | undefined {
  if (!isSeq(seq)) return undefined;
  return seq.items.find((item) => {
    const pair = isMap(item) ? pairOf(item as Node, keyField) : undefined;
    return isScalar(pair?.value) && String(pair.value.value) === key;
  }) as Node | undefined;
}

function pulledEntry(list: unknown, keyField: string, key: string): unknown {
  if (!Array.isArray(list)) return undefined;
  return list.find((item: unknown) => typeof item === 'object' && item !== null && String((item as Record<string, unknown>)[keyField]) === key);
}

function pulledField(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
}

/** The state of one `pull --into`: the files, where objects are declared, and what was done. */
class PullInto {
  readonly files: EditableFile[];
  readonly declarations: Declaration[];
  readonly pulled: Map<string, PulledObject>;
  readonly edits: string[] = [];
  readonly notes: string[] = [];
  readonly written: { kind: string; key: string }[] = [];
  readonly #removed = new Map<EditableSeq, number>();
  /** New top-level objects for the new-objects file, by kind, in the order found. */
  readonly additions = new Map<KindEntry, unknown[]>();
  /** Children for parents' declarations, by parent and list. */
  readonly #children = new Map<string, { parent: Declaration; field: readonly string[]; values: unknown[] }>();

  constructor(readonly options: PullIntoOptions) {
    this.files = options.files.map((file) => new EditableFile(file.path, file.text));
    this.declarations = declarationsOf(this.files);
    this.pulled = pulledObjectsOf(options.pulled);
  }

  declared(kind: string, key: string, source?: PlanStep['source']): Declaration | undefined {
    const same = this.declarations.filter((entry) => entry.kind.kind === kind && entry.key === key);
    const loose = same.length > 0 ? same : this.declarations.filter((entry) => entry.kind.kind === kind && entry.key.trim().toLowerCase() === key.trim().toLowerCase());
    return loose.find((entry) => entry.file.path === source?.file) ?? loose[0];
  }

  /** A field change of an update: the declared value takes the live one (or goes, when the live object lacks it). */
  change(step: PlanStep, declaration: Declaration, live: PulledObject, change: PlanChange): void {
    const what = `${step.kind} ${JSON.stringify(step.key)} ${change.path}`;
    if (change.sensitive === true) {
      this.notes.push(`${what}: a secret, which monsync never writes into a tree; left as it is (change the value where the reference points)`);
      return;
    }
    let node: Node = declaration.node;
    let value: unknown = live.value;
    let holder: { map: Node; pair: Pair } | { seq: Node; item: Node } | undefined;
    const parents: Node[] = [...declaration.parents];
    const fields: string[] = [];
    const segments = segmentsOf(change.path);
    for (const [index, segment] of segments.entries()) {
      const set = declaration.kind.setFields.find((spec) => spec.key !== undefined && spec.path.join('/') === fields.join('/'));
      let next: Node | undefined;
      if (isSeq(node) && set?.key !== undefined) {
        next = keyedEntry(node, set.key, segment);
        value = pulledEntry(value, set.key, segment);
        holder = next === undefined ? undefined : { seq: node, item: next };
      } else {
        const pair = pairOf(node, segment);
        next = (pair?.value ?? undefined) as Node | undefined;
        value = pulledField(value, segment);
        fields.push(segment);
        holder = pair === undefined ? undefined : { map: node, pair };
      }
      if (isAlias(next)) {
        this.notes.push(`${what}: written as the alias *${next.source} in ${declaration.file.path}, a value shared with its anchor; left as it is (edit it by hand)`);
        return;
      }
      if (next === undefined) {
        if (value !== undefined && index === segments.length - 1) this.#add(what, declaration.file, node, segment, value, parents);
        else if (value !== undefined) this.notes.push(`${what}: not found in ${declaration.file.path}; left as it is`);
        return;
      }
      parents.push(node);
      node = next;
    }
    if (holdsSecretReference(value) || holdsSecretReference(nodeValue(node))) {
      this.notes.push(`${what}: holds a secret reference; left as it is`);
      return;
    }
    if (value === undefined && holder !== undefined) {
      if ('pair' in holder) declaration.file.removePair(holder.map as EditableMap, holder.pair);
      else declaration.file.removeItem(holder.seq as EditableSeq, holder.item, undefined, false);
    } else declaration.file.replace(node, value, parents);
    this.edits.push(`~ ${what}`);
  }

  #add(what: string, file: EditableFile, at: Node, key: string, value: unknown, parents: readonly Node[]): void {
    if (holdsSecretReference(value)) {
      this.notes.push(`${what}: holds a secret, which monsync never writes into a tree; left out`);
      return;
    }
    if (isSeq(at)) file.appendItem(at as EditableSeq, value, parents);
    else if (isMap(at)) file.appendPair(at as EditableMap, key, value, parents);
    else return;
    this.edits.push(`~ ${what}`);
  }

  /** Removes a declaration the live account no longer has (with its children, which are inside it). */
  remove(declaration: Declaration): void {
    const removed = (this.#removed.get(declaration.seq) ?? 0) + 1;
    this.#removed.set(declaration.seq, removed);
    declaration.file.removeItem(declaration.seq, declaration.node, declaration.owner, removed === declaration.seq.items.length);
  }

  /** A live child object the tree lacks goes into its parent's declaration (written by `writeChildren`). */
  addChild(parent: Declaration, live: PulledObject): string {
    const id = `${parent.file.path}\u0000${String(rangeStart(parent.node))}\u0000${live.field.join('/')}`;
    const pending = this.#children.get(id) ?? { parent, field: live.field, values: [] };
    pending.values.push(live.value);
    this.#children.set(id, pending);
    return parent.file.path;
  }

  /**
   * The children added, list by list: appended to the list when the parent's declaration has it, or written as the
   * fields it lacks below the deepest one it has (several children of one list in one edit, so that no field is
   * written twice).
   */
  writeChildren(): void {
    for (const { parent, field, values } of this.#children.values()) {
      let depth = field.length;
      while (depth > 0 && nodeAt(parent.node, field.slice(0, depth)) === undefined) depth -= 1;
      const found = depth === 0 ? undefined : nodeAt(parent.node, field.slice(0, depth));
      const parents = [...parent.parents, parent.node, ...(found?.parents ?? [])];
      if (found !== undefined && depth === field.length && isSeq(found.node)) {
        for (const value of values) parent.file.appendItem(found.node as EditableSeq, value, parents);
        continue;
      }
      const [first = '', ...rest] = field.slice(depth);
      const nested = rest.reduceRight<unknown>((inner, segment) => ({ [segment]: inner }), values);
      const map = found?.node ?? parent.node;
      if (isMap(map)) parent.file.appendPair(map as EditableMap, first, nested, found === undefined ? parent.parents : parents);
      else this.notes.push(`${parent.kind.title.one} ${JSON.stringify(parent.key)}: ${field.join('.')} is not a list or a mapping in ${parent.file.path}; its new entries were left out`);
    }
  }
}

function rangeStart(node: Node): number {
  return node.range?.[0] ?? -1;
}

/** The steps an in-place pull answers: updates, creates and deletes, without those of a deduplication. */
function answerable(plan: Plan): PlanStep[] {
  return plan.steps.filter((step) => step.action !== 'ensure' && step.reason?.startsWith(DUPLICATE_REASON) !== true);
}

function applySteps(state: PullInto, steps: readonly PlanStep[]): void {
  const removedKeys = new Set(steps.filter((step) => step.action === 'create').map((step) => pulledId(step.kind, step.key)));
  const addedKeys = new Set(steps.filter((step) => step.action === 'delete').map((step) => pulledId(step.kind, step.key)));
  const within = (kind: KindEntry, key: string, set: ReadonlySet<string>): boolean => {
    const parent = kind.parent === undefined ? undefined : kindEntry(kind.parent);
    if (parent === undefined) return false;
    return [...set].some((id) => id.startsWith(`${parent.kind}\u0000`) && key.startsWith(`${id.slice(parent.kind.length + 1)}/`));
  };
  for (const step of steps) {
    const kind = kindEntry(step.kind);
    if (kind === undefined) continue;
    const label = `${kind.title.one} ${JSON.stringify(step.key)}`;
    if (step.action === 'update') {
      const declaration = state.declared(step.kind, step.key, step.source);
      const live = state.pulled.get(pulledId(step.kind, step.key));
      if (declaration === undefined || live === undefined) {
        state.notes.push(`${label}: changed in the live account, but ${declaration === undefined ? 'its declaration was not found' : 'it could not be read back'}; left as it is`);
        continue;
      }
      for (const change of step.changes) state.change(step, declaration, live, change);
    } else if (step.action === 'create') {
      if (within(kind, step.key, removedKeys)) continue;
      const declaration = state.declared(step.kind, step.key, step.source);
      if (declaration === undefined) state.notes.push(`${label}: gone from the live account, but its declaration was not found; left as it is`);
      else {
        state.remove(declaration);
        state.edits.push(`- ${label} (${declaration.file.path})`);
      }
    } else if (step.action === 'delete') {
      if (within(kind, step.key, addedKeys)) continue;
      addLive(state, kind, step, label);
    }
  }
}

function addLive(state: PullInto, kind: KindEntry, step: PlanStep, label: string): void {
  const live = state.pulled.get(pulledId(step.kind, step.key));
  if (live === undefined) {
    state.notes.push(`${label}: only in the live account, but it could not be read back in config form; left out`);
    return;
  }
  state.written.push({ kind: step.kind, key: step.key });
  if (kind.parent === undefined) {
    const list = state.additions.get(kind) ?? [];
    list.push(live.value);
    state.additions.set(kind, list);
    state.edits.push(`+ ${label} (${state.options.newObjectsFile})`);
    return;
  }
  const parent = live.parentKey === undefined ? undefined : state.declared(kind.parent, live.parentKey);
  if (parent === undefined) {
    state.notes.push(`${label}: only in the live account, and its parent is declared nowhere; left out`);
    return;
  }
  state.edits.push(`+ ${label} (${state.addChild(parent, live)})`);
}

/** The new top-level objects written to the new-objects file: appended to its lists, or a new file. */
function writeAdditions(state: PullInto): { path: string; text: string; created: boolean } | undefined {
  if (state.additions.size === 0) return undefined;
  const path = state.options.newObjectsFile;
  const existing = state.files.find((file) => file.path === path);
  if (existing === undefined) {
    const data: Record<string, unknown> = {};
    for (const [kind, values] of state.additions) {
      const head = kind.path.slice(0, -1).reduce<Record<string, unknown>>((map, segment) => (map[segment] ??= {}) as Record<string, unknown>, data);
      head[kind.path[kind.path.length - 1] ?? ''] = values;
    }
    const text = toYaml(data, ['Objects made in the live account outside git, written by `monsync pull --into`.', 'Move them to the files where they belong, or keep them here.']);
    return { path, text, created: true };
  }
  const root = existing.documents[0]?.contents as Node | null | undefined;
  // Lists the file has first: an entry appended to its last list then comes before a field added after it.
  const ordered = [...state.additions].sort(([a], [b]) => Number(nodeAt(root, b.path) !== undefined) - Number(nodeAt(root, a.path) !== undefined));
  for (const [kind, values] of ordered) {
    let depth = kind.path.length;
    while (depth > 0 && nodeAt(root, kind.path.slice(0, depth)) === undefined) depth -= 1;
    const found = depth === 0 ? undefined : nodeAt(root, kind.path.slice(0, depth));
    const rest = kind.path.slice(depth);
    if (found !== undefined && rest.length === 0 && isSeq(found.node)) {
      for (const value of values) existing.appendItem(found.node as EditableSeq, value, found.parents);
      continue;
    }
    const [first = '', ...deeper] = rest;
    const nested = deeper.reduceRight<unknown>((inner, segment) => ({ [segment]: inner }), values);
    const map = found?.node ?? root;
    if (isMap(map)) existing.appendPair(map as EditableMap, first, nested, found === undefined ? [] : [...found.parents]);
    else existing.appendText(toYaml({ [first]: nested }).trimEnd().split('\n'));
  }
  return undefined;
}

/**
 * What the objects written hold beyond the published definition (a field or value the service added after this
 * release) goes into monsync.yaml's `allowUnknown`, so the edited tree validates strictly and a reviewer sees it.
 */
function allowWhatWasWritten(state: PullInto, created: { text: string } | undefined): void {
  const settings = state.files.find((file) => file.path === SETTINGS_FILE);
  const edited = state.files.filter((file) => file.changed && file !== settings);
  if (settings === undefined || (edited.length === 0 && created === undefined)) return;
  const added = allowWritten(settings, edited.map((file) => file.text), [...edited.map((file) => file.result()), ...(created === undefined ? [] : [created.text])]);
  for (const line of added) state.edits.push(`~ ${SETTINGS_FILE} ${line}`);
  if (added.length > 0) {
    state.notes.push(`${SETTINGS_FILE}: allowUnknown now lets through what the objects written hold beyond the published definition of this release of monsync (the service added it since); review it`);
  }
}

/** Writes the live account's differences from the tree into the tree's files, in place (see the module comment). */
export function pullInto(options: PullIntoOptions): PullIntoResult {
  const state = new PullInto(options);
  const byGuid = options.alertDefinitionsByGuid;
  const rewritten = byGuid === undefined ? new Map<string, string>() : rewriteOlderAlertDefinitions(state.files, byGuid, state.edits, state.notes);
  for (const name of rewritten.values()) state.written.push({ kind: ALERT_DEFINITION_KIND.kind, key: name });
  // An older entry's key is its GUID: the rewrite wrote its live values, so its steps are answered.
  const answered = (step: PlanStep) => [...rewritten.keys()].some((guid) => step.key.toLowerCase() === guid || step.key.toLowerCase().startsWith(`${guid}/`));
  applySteps(state, answerable(options.plan).filter((step) => !answered(step)));
  state.writeChildren();
  const created = writeAdditions(state);
  allowWhatWasWritten(state, created);
  const files = state.files.filter((file) => file.changed).map((file) => ({ path: file.path, text: file.result(), created: false }));
  if (created !== undefined) files.push(created);
  for (const unmanaged of options.plan.unmanaged) {
    const kind = kindEntry(unmanaged.kind);
    state.notes.push(`${kind?.title.one ?? unmanaged.kind} ${JSON.stringify(unmanaged.key)} is only in the live account and unmanaged (prune: false); left out`);
  }
  return { files, edits: state.edits, notes: state.notes, written: state.written };
}
