/**
 * Phase 3 of `assemblePlan`, drafts: a create for each declaration with no live object, an update for each pair
 * whose declared fields differ (markers and secret fingerprints included), an ensure for each declaration of a kind
 * with no read. Only declared fields are compared; secrets are compared by fingerprint, never by value.
 */
import { isSecretValue } from '../../desired.js';
import type { DesiredEntry, KindModule, LiveEntry } from '../../kinds/contract.js';
import { withLiveOmissions } from '../../kinds/write-body.js';
import type { ApiObject } from '../../live/types.js';
import { comparable, declaredFieldsSame, diffFields } from '../diff.js';
import { at, planProblem, type PlanProblem } from '../errors.js';
import { splitMarker, withMarker } from '../markers.js';
import { combineFingerprints, findSecrets, hasSecret, replaceSecrets, secretAddress, type SecretAt, type SecretFingerprints } from '../secrets.js';
import { SENSITIVE, type PlanChange, type PlanDrift, type PlanWarning } from '../types.js';
import { canonicalJson, compareStrings, escapePointer, isPlainObject } from '../values.js';
import type { Draft, KindState, Pair, Resolution } from './state.js';

/** The reason of an update `--rotate` planned; apply recognises a saved plan made with it by this. */
export const ROTATION_REASON = 'rotation (--rotate)';

export interface DraftOptions {
  fingerprints?: SecretFingerprints | undefined;
  /** Addresses of secrets whose value could not be read: needed only where a step sends them. */
  unavailable?: ReadonlySet<string> | undefined;
  selfOperatorGuid?: string | undefined;
  selfOperatorGuids?: readonly string[] | undefined;
  /** Operators read, to name who changed an object outside git; `null` when not read. */
  operators: readonly ApiObject[] | null;
  /** Whether the plan rotates an object: its write-once fields (`KindModule.writeOnce`) are sent again. */
  rotates?: ((kind: string, key: string) => boolean) | undefined;
}

export interface Drafted {
  drafts: Draft[];
  /** Declared objects that need no change. */
  unchanged: number;
  problems: PlanProblem[];
  warnings: PlanWarning[];
}

/** What drafting needs of a kind, worked out once per kind. */
interface DraftRules {
  mod: KindModule;
  /** Read-only fields and the GUID field: never written. */
  dropOnWrite: ReadonlySet<string>;
  /** Those, and the fields that cannot change after creation. */
  dropOnUpdate: ReadonlySet<string>;
  /** `dropOnUpdate` as a list, to look for secrets in (`plainlyUnchanged` leaves them out). */
  notCompared: readonly string[];
  /** Read-only fields a declaration may hold by mistake (the GUID field is a pin, not a mistake). */
  readOnlyDeclarable: ReadonlySet<string>;
  immutable: readonly string[];
  markerField: string | undefined;
  /** `dropOnUpdate` and the fields `resolve` rewrites, for a kind that can compare them unresolved (`resolvedSame`). */
  skipUnresolved: ReadonlySet<string> | undefined;
}

function draftRules(mod: KindModule): DraftRules {
  const dropOnWrite = new Set<string>([...mod.readOnlyFields, ...(mod.guidField === '' ? [] : [mod.guidField])]);
  const immutable = mod.immutableFields ?? [];
  const dropOnUpdate = new Set<string>([...dropOnWrite, ...immutable]);
  const readOnlyDeclarable = new Set(mod.readOnlyFields.filter((f) => f !== mod.guidField));
  const skipUnresolved = mod.resolvedSame === undefined ? undefined : new Set([...dropOnUpdate, ...mod.resolvedSame.fields]);
  return { mod, dropOnWrite, dropOnUpdate, notCompared: [...dropOnUpdate], readOnlyDeclarable, immutable, markerField: mod.marker?.field, skipUnresolved };
}

/** The findings of the drafting so far, and what it needs to look up. */
class DraftContext {
  readonly problems: PlanProblem[] = [];
  readonly warnings: PlanWarning[] = [];
  readonly #secretWarned = new Set<DesiredEntry>();

  constructor(
    readonly resolution: Resolution,
    readonly options: DraftOptions,
  ) {}

  /** Whether the value of a secret could not be read (so it can be neither compared nor sent). */
  unavailable(entry: DesiredEntry, pointer: string): boolean {
    return this.options.unavailable?.has(secretAddress(entry.kind, entry.key, pointer)) === true;
  }

  /** The fingerprint of a secret a step sends: one whose value could not be read refuses the plan here. */
  fingerprintOf(entry: DesiredEntry, { pointer, secret }: SecretAt, sending: string): string {
    const found = this.options.fingerprints?.[secretAddress(entry.kind, entry.key, pointer)];
    if (found !== undefined) return found;
    if (this.unavailable(entry, pointer)) {
      const described = secret.describe();
      const hint = described.startsWith('env ') ? `set ${described.slice('env '.length)} in the environment of monsync` : 'the path is relative to the YAML file that names it';
      this.problems.push(planProblem('SECRET_UNAVAILABLE', `${described} cannot be read, and this plan sends its value (${sending} ${entry.kind} "${entry.key}" ${pointer}); ${hint}`, secret.source ?? entry.source));
      return '';
    }
    this.problems.push(
      planProblem('MISSING_FINGERPRINT', `no fingerprint for the secret at ${entry.kind} "${entry.key}" ${pointer}; pass fingerprintDesiredSecrets(desired, key) as options.fingerprints`, entry.source),
    );
    return '';
  }

  /**
   * Warns of the read-only fields a declaration holds, and tells whether it declares any field the comparison leaves
   * out (`notCompared`, read-only ones among them): only then are those searched for secrets. One pass for both, as
   * this runs for every declared object and nearly none declares such a field.
   */
  notComparedDeclared({ mod, notCompared, readOnlyDeclarable }: DraftRules, entry: DesiredEntry): boolean {
    let any = false;
    let declared: string[] | undefined;
    // An indexed loop: an iterator per call is garbage at account scale. `notCompared` lists the read-only fields
    // first, in their order: the warning names them as `readOnlyFields` does.
    for (let i = 0; i < notCompared.length; i += 1) {
      const f = notCompared[i] as string;
      if (!(f in entry.fields)) continue;
      any = true;
      if (readOnlyDeclarable.has(f)) (declared ??= []).push(f);
    }
    if (declared === undefined) return any;
    const them = declared.length === 1 ? 'it' : 'them';
    this.warnings.push({
      code: 'READ_ONLY_FIELD',
      message: `${at(entry.source)}${mod.kind} "${entry.key}" declares read-only ${declared.join(', ')}; the service sets ${them}, so monsync ignores ${them}`,
      kind: mod.kind,
      key: entry.key,
    });
    return any;
  }

  secretsUnread(mod: KindModule, entry: DesiredEntry, unread: readonly SecretAt[]): void {
    const one = unread.length === 1;
    this.warnings.push({
      code: 'SECRET_NOT_SET',
      message: `${at(entry.source)}${mod.kind} "${entry.key}": ${unread.map((s) => s.pointer).join(', ')} not compared: ${unread.map((s) => s.secret.describe()).join(', ')} cannot be read; the account keeps ${one ? 'its value' : 'their values'} (provide ${one ? 'it' : 'them'} to compare and update)`,
      kind: mod.kind,
      key: entry.key,
    });
  }

  secretsUntracked(mod: KindModule, entry: DesiredEntry, all: readonly string[]): void {
    // Write-once secrets (an operator's password) are sent on create and on rotation only: nothing to warn about.
    const pointers = mod.writeOnce === undefined ? all : all.filter((p) => !mod.writeOnce?.some((f) => p === `/${escapePointer(f)}` || p.startsWith(`/${escapePointer(f)}/`)));
    if (pointers.length === 0 || mod.marker?.name === 'fp' || this.#secretWarned.has(entry)) return;
    this.#secretWarned.add(entry);
    const one = pointers.length === 1;
    this.warnings.push({
      code: 'SECRET_NOT_COMPARED',
      message: `${at(entry.source)}${mod.kind} "${entry.key}": ${pointers.join(', ')} cannot be compared (the service never returns ${one ? 'it' : 'them'} and a ${mod.kind} has no field to hold a fingerprint); ${one ? 'it is' : 'they are'} sent on create and with every update`,
      kind: mod.kind,
      key: entry.key,
    });
  }
}

export function draftChanges(states: readonly KindState[], resolution: Resolution, options: DraftOptions): Drafted {
  const context = new DraftContext(resolution, options);
  const drafts: Draft[] = [];
  let unchanged = 0;
  for (const state of states) {
    const { mod } = state;
    if (!state.managed) continue;
    if (mod.ensureOnly === true) {
      for (const entry of state.desired) drafts.push(ensureDraft(mod, entry));
      continue;
    }
    const rules = draftRules(mod);
    for (const entry of state.creates) drafts.push(createDraft(context, rules, entry));
    // A relation that exists is all there is to it: nothing to compare.
    if (mod.relation === true) {
      // Matched as sets (match-sets.ts), its pairs are counted without being built.
      unchanged += state.sets?.paired ?? state.pairs.length;
      continue;
    }
    const { pairs } = state;
    for (let i = 0; i < pairs.length; i += 1) {
      const draft = updateDraft(context, rules, pairs[i] as Pair);
      if (draft === undefined) unchanged += 1;
      else if (mod.heldWhy === undefined || !held(context, mod, draft, pairs[i] as Pair)) drafts.push(draft);
    }
  }
  return { drafts, unchanged, problems: context.problems, warnings: context.warnings };
}

/** An update the kind does not make (`KindModule.heldWhy`): the plan says why instead. */
function held(context: DraftContext, mod: KindModule, draft: Draft, pair: Pair): boolean {
  const why = mod.heldWhy?.(pair);
  if (why === undefined) return false;
  const changes = draft.step.changes.map((c) => `${c.path.slice(1)} ${shownLevel(c.before)} -> ${shownLevel(c.after)}`).join(', ');
  context.warnings.push({ code: 'ACCESS_KEPT', message: `${mod.title.one} "${pair.live.key}" is left as it is although the config changes it (${changes}): ${why}`, kind: mod.kind, key: pair.live.key });
  return true;
}

const shownLevel = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value) ?? 'none');

function ensureDraft(mod: KindModule, entry: DesiredEntry): Draft {
  return {
    step: { action: 'ensure', kind: mod.kind, key: entry.key, guid: entry.key, changes: [], source: entry.source, desired: { ...entry.fields } },
    desiredEntry: entry,
    dependsOn: new Set(),
  };
}

function withoutFields(fields: ApiObject, drop: ReadonlySet<string>): ApiObject {
  const out: ApiObject = {};
  for (const key of Object.keys(fields)) if (!drop.has(key) && fields[key] !== undefined) out[key] = fields[key];
  return out;
}

function withoutSecrets(fields: ApiObject, secretCount: number, replace: (pointer: string) => unknown): ApiObject {
  return secretCount === 0 ? fields : (replaceSecrets(fields, replace) as ApiObject);
}

function createDraft(context: DraftContext, rules: DraftRules, entry: DesiredEntry): Draft {
  const { mod, markerField } = rules;
  context.notComparedDeclared(rules, entry);
  for (const field of mod.requiredOnCreate ?? []) {
    if (entry.fields[field] !== undefined && entry.fields[field] !== null) continue;
    context.problems.push(planProblem('CREATE_FIELD_MISSING', `${mod.kind} "${entry.key}" does not exist yet and declares no ${field}: the service cannot create it without one; add \`${field}:\``, entry.source));
  }
  const resolved = mod.resolve?.(entry, context.resolution) ?? entry.fields;
  const secrets = findSecrets(resolved);
  context.secretsUntracked(mod, entry, secrets.map((s) => s.pointer));
  const fps = secrets.map((s) => ({ pointer: s.pointer, fingerprint: context.fingerprintOf(entry, s, 'creating') }));
  const fpAt = new Map(fps.map((f) => [f.pointer, f.fingerprint]));
  const body = withoutFields(withoutSecrets(resolved, secrets.length, (p) => ({ sensitive: true, fingerprint: fpAt.get(p) ?? '' })), rules.dropOnWrite);
  const shown = withoutFields(resolved, rules.dropOnWrite);
  if (markerField !== undefined && mod.marker !== undefined) {
    const text = typeof resolved[markerField] === 'string' ? (resolved[markerField] as string) : undefined;
    if (mod.marker.name === 'fp' && fps.length > 0) body[markerField] = withMarker(text, 'fp', combineFingerprints(fps) + (mod.marker.refs?.(resolved, secrets) ?? ''));
    if (mod.marker.name === 'key') body[markerField] = withMarker(text, 'key', entry.key);
  }
  return {
    step: { action: 'create', kind: mod.kind, key: entry.key, changes: createChanges(shown), source: entry.source, desired: { ...body, ...mod.createExtras?.(entry, context.resolution) } },
    desiredEntry: entry,
    dependsOn: new Set(),
  };
}

/** `add` operations for a create, one per field; fields holding secrets are opened so only the secret leaves are sensitive. */
export function createChanges(fields: ApiObject): PlanChange[] {
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

/** The live object as the declaration sees it: only the declared fields (server defaults fill gaps), the marker split off. */
interface LiveView {
  fields: ApiObject;
  marker: string | undefined;
  /** The marker field's text without the marker. */
  text: string | undefined;
}

function liveView(rules: DraftRules, resolved: ApiObject, current: LiveEntry): LiveView {
  const { mod, markerField } = rules;
  const fields: ApiObject = {};
  for (const key of Object.keys(resolved)) {
    const value = key in current.fields ? current.fields[key] : mod.serverDefaults[key];
    if (value !== undefined) fields[key] = value;
  }
  if (markerField === undefined || mod.marker === undefined) return { fields, marker: undefined, text: undefined };
  const split = splitMarker(current.fields[markerField], mod.marker.name);
  if (markerField in fields) fields[markerField] = split.text;
  return { fields, marker: split.marker, text: split.text };
}

/** Whether an update sends the object's write-once fields (`KindModule.writeOnce`) again: when the plan rotates it. */
function rotating(context: DraftContext, mod: KindModule, entry: DesiredEntry, resolved: ApiObject): boolean {
  const once = mod.writeOnce;
  return once !== undefined && once.some((f) => f in resolved) && context.options.rotates?.(mod.kind, entry.key) === true;
}

/** The declared fields an update works from: write-once fields are left out, unless the plan rotates the object. */
function updateFields(context: DraftContext, mod: KindModule, entry: DesiredEntry): ApiObject {
  const resolved = mod.resolve?.(entry, context.resolution) ?? entry.fields;
  const once = mod.writeOnce;
  if (once === undefined || !once.some((f) => f in resolved) || rotating(context, mod, entry, resolved)) return resolved;
  return withoutFields(resolved, new Set(once));
}

/** The secrets among the write-once fields of an object the plan rotates, shown as replaced; none otherwise. */
function rotatedChanges(context: DraftContext, mod: KindModule, entry: DesiredEntry, resolved: ApiObject): PlanChange[] {
  const once = mod.writeOnce;
  if (once === undefined || !rotating(context, mod, entry, resolved)) return [];
  return findSecrets(withoutFields(resolved, new Set(Object.keys(resolved).filter((f) => !once.includes(f))))).map(
    (s): PlanChange => ({ op: 'replace', path: s.pointer, before: SENSITIVE, after: SENSITIVE, sensitive: true }),
  );
}

/** An update of a pair, or undefined when the declared fields, markers and fingerprints all match the live object. */
function updateDraft(context: DraftContext, rules: DraftRules, pair: Pair): Draft | undefined {
  const { desired: entry, live: current } = pair;
  // Resolving keeps or drops keys, never adds one: a field not compared that is not declared is not resolved either.
  const uncompared = context.notComparedDeclared(rules, entry);
  if (unchangedUnresolved(context, rules, entry, current, uncompared)) return undefined;
  // The fields alone, no result object: the unchanged pairs, most of them at account scale, then allocate nothing here.
  const resolved = updateFields(context, rules.mod, entry);
  // Unchanged and holding no secret: most pairs at account scale. A declared field holding a secret is never the
  // same as the live one (`sameAsDeclared`), so only the fields `plainlyUnchanged` does not compare are searched.
  if (plainlyUnchanged(rules, entry, current, resolved, rules.dropOnUpdate) && !(uncompared && secretIn(resolved, rules.notCompared))) return undefined;
  const secrets = findSecrets(resolved);
  if (secrets.length > 0) context.secretsUntracked(rules.mod, entry, secrets.map((s) => s.pointer));
  // The rest runs for the few pairs that may differ: a function of its own, so that the optimiser, which compiles
  // this one for the tens of thousands of unchanged pairs, does not compile (and recompile, kind after kind) it too.
  return changedDraft(context, rules, pair, resolved, rotatedChanges(context, rules.mod, entry, resolved), secrets);
}

function secretIn(fields: ApiObject, names: readonly string[]): boolean {
  for (let i = 0; i < names.length; i += 1) if (hasSecret(fields[names[i] as string])) return true;
  return false;
}

/**
 * The common case at account scale, decided without building the live view and the compared copy of
 * `changedDraft`: (nothing secret: a compared field holding one is never the same,) no marker to compare (a fingerprint marker counts only
 * with secrets, and its field only when declared), no immutable field, every declared field equal to the live one.
 */
function plainlyUnchanged(rules: DraftRules, entry: DesiredEntry, current: LiveEntry, resolved: ApiObject, skip: ReadonlySet<string>): boolean {
  const { mod, markerField } = rules;
  const markerFree = markerField === undefined || (mod.marker?.name === 'fp' && !(markerField in resolved));
  if (!markerFree || rules.immutable.length > 0 || (entry.key !== current.key && entry.pinnedGuid !== undefined)) return false;
  return declaredFieldsSame(resolved, current.fields, mod.serverDefaults, skip, mod.setFields);
}

/**
 * The test of `updateDraft` for an unchanged pair (`plainlyUnchanged`, no secret in the fields it leaves out), decided
 * on the declared fields as they are for a kind whose `resolve` rewrites references (a monitor's vault variables): the
 * fields it rewrites by the kind's `resolvedSame`, the others as `plainlyUnchanged` compares them. Most pairs at
 * account scale are unchanged: each is settled here without a resolved copy of a declaration that holds a reference,
 * and a monitor's variables in one loop rather than the generic walk of a keyed set. `false` when not proven: the
 * resolved copy is compared then.
 */
function unchangedUnresolved(context: DraftContext, rules: DraftRules, entry: DesiredEntry, current: LiveEntry, uncompared: boolean): boolean {
  const { mod, skipUnresolved } = rules;
  const resolving = mod.resolvedSame;
  // Write-once fields are compared only as `updateFields` leaves them: a kind with some takes the full path.
  if (resolving === undefined || skipUnresolved === undefined || mod.writeOnce !== undefined) return false;
  // `resolve` keeps every key: the marker field is declared in the fields as they are when it is in the resolved ones.
  if (!plainlyUnchanged(rules, entry, current, entry.fields, skipUnresolved)) return false;
  const { fields } = resolving;
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i] as string;
    const declared = entry.fields[field];
    if (declared === undefined || rules.dropOnUpdate.has(field)) continue;
    // The live view of the field, as `declaredFieldsSame` takes it: the service's default when the object lacks it.
    const live = current.fields[field];
    if (!resolving.same(field, declared, live !== undefined || field in current.fields ? live : mod.serverDefaults[field], context.resolution)) return false;
  }
  // `resolve` replaces references, never secrets: the fields as they are hold the same ones.
  return !(uncompared && secretIn(entry.fields, rules.notCompared));
}

/** `updateDraft` for a pair that may differ: the changes, markers and fingerprints, or undefined when none. */
function changedDraft(context: DraftContext, rules: DraftRules, { desired: entry, live: current }: Pair, resolved: ApiObject, rotated: PlanChange[], secrets: SecretAt[]): Draft | undefined {
  const { mod, markerField } = rules;
  const view = liveView(rules, resolved, current);
  const compared = withoutFields(withoutSecrets(resolved, secrets.length, () => undefined), rules.dropOnUpdate);
  // `diffFields` returns a list of its own: added to, not copied.
  const changes = diffFields(compared, view.fields, mod.setFields);
  if (rotated.length > 0) changes.push(...rotated);
  immutableWarnings(context, rules, entry, resolved, view.fields);
  const reasons: string[] = rotated.length > 0 ? [ROTATION_REASON] : [];
  if (entry.key !== current.key && entry.pinnedGuid !== undefined && mod.marker?.name !== 'key') reasons.push('pinned GUID rename');
  let writeSecrets = false;
  // A secret compared by its fingerprint marker, whose value could not be read, is not compared: the account keeps
  // its value and marker (a secret the step sends regardless is refused by fingerprintOf).
  const unread = mod.marker?.name === 'fp' && rotated.length === 0 ? secrets.filter((s) => context.unavailable(entry, s.pointer)) : [];
  if (unread.length > 0) context.secretsUnread(mod, entry, unread);
  const sending = rotated.length > 0 ? 'rotating' : 'updating';
  const fps = unread.length > 0 ? [] : secrets.map((s) => ({ pointer: s.pointer, fingerprint: context.fingerprintOf(entry, s, sending) }));
  const expected = fps.length > 0 ? combineFingerprints(fps) + (mod.marker?.refs?.(resolved, secrets) ?? '') : undefined;
  if (mod.marker?.name === 'fp' && expected !== undefined && view.marker !== expected) {
    reasons.push(view.marker === undefined ? 'no fingerprint marker' : 'secret changed');
    changes.push(...fps.map((f): PlanChange => ({ op: 'replace', path: f.pointer, before: SENSITIVE, after: SENSITIVE, sensitive: true })));
    writeSecrets = true;
  }
  // An object with no marker yet, pinned by GUID (a report made in the web app, as `pull` writes it), is identified by
  // the pin: the marker alone is no change, and the next update writes it.
  const pinnedUnmarked = view.marker === undefined && entry.pinnedGuid !== undefined;
  if (mod.marker?.name === 'key' && view.marker !== entry.key && !pinnedUnmarked) {
    reasons.push(view.marker === undefined ? 'no key marker' : 'pinned GUID rename');
    changes.push(view.marker === undefined ? { op: 'add', path: '/key', after: entry.key } : { op: 'replace', path: '/key', before: view.marker, after: entry.key });
  }
  if (changes.length === 0) return undefined;
  if (mod.marker?.name !== 'fp' && fps.length > 0) writeSecrets = true;
  const fpAt = new Map(fps.map((f) => [f.pointer, f.fingerprint]));
  // Live plus exactly the changes shown: what the config leaves out is sent as it is live (kinds/write-body.ts).
  const body = withoutFields(
    withoutSecrets(withLiveOmissions(resolved, current.fields, mod), secrets.length, (p) => (writeSecrets ? { sensitive: true, fingerprint: fpAt.get(p) ?? '' } : undefined)),
    rules.dropOnUpdate,
  );
  if (markerField !== undefined && mod.marker !== undefined) {
    const text = markerField in resolved ? (typeof resolved[markerField] === 'string' ? (resolved[markerField] as string) : undefined) : view.text;
    if (mod.marker.name === 'fp' && expected !== undefined) body[markerField] = withMarker(text, 'fp', expected);
    else if (mod.marker.name === 'fp' && unread.length > 0 && view.marker !== undefined) body[markerField] = withMarker(text, 'fp', view.marker);
    if (mod.marker.name === 'key') body[markerField] = withMarker(text, 'key', entry.key);
  }
  const drift = driftOf(mod, current, context.options);
  return {
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
  };
}

/** A declared value of a field that cannot change after creation, differing from the live one: a warning, never an update. */
function immutableWarnings(context: DraftContext, rules: DraftRules, entry: DesiredEntry, resolved: ApiObject, live: ApiObject): void {
  const { mod } = rules;
  for (const field of rules.immutable) {
    if (!(field in resolved)) continue;
    const pair = comparable({ [field]: resolved[field] }, { [field]: live[field] }, mod.setFields);
    if (canonicalJson(pair.desired) === canonicalJson(pair.live)) continue;
    context.warnings.push({
      code: 'IMMUTABLE_FIELD',
      message: `${at(entry.source)}${mod.kind} "${entry.key}": ${field} cannot be changed after creation (live ${JSON.stringify(live[field])}, declared ${JSON.stringify(resolved[field])}); delete the object and declare it anew to change it`,
      kind: mod.kind,
      key: entry.key,
    });
  }
}

/**
 * Operators by GUID (the first listed, as a search of the list finds it), built once per listing: every update of an
 * object changed outside git names its operator, a search of hundreds of operators each otherwise.
 */
const operatorsByGuid = new WeakMap<readonly ApiObject[], ReadonlyMap<unknown, ApiObject>>();

function operatorName(operators: readonly ApiObject[] | null, guid: string): string | undefined {
  if (operators === null) return undefined;
  let byGuid = operatorsByGuid.get(operators);
  if (byGuid === undefined) {
    const built = new Map<unknown, ApiObject>();
    for (const operator of operators) if (!built.has(operator.OperatorGuid)) built.set(operator.OperatorGuid, operator);
    operatorsByGuid.set(operators, (byGuid = built));
  }
  const found = byGuid.get(guid);
  if (found === undefined) return undefined;
  for (const field of ['FullName', 'Email', 'UserName']) {
    const value = found[field];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/** Who changed the live object last, when it was not the API account's own operator. */
export function driftOf(mod: KindModule, current: LiveEntry, options: DraftOptions): PlanDrift | undefined {
  const modified = mod.lastModified?.(current);
  if (modified?.operatorId === undefined || modified.operatorId === '' || modified.operatorId === options.selfOperatorGuid || options.selfOperatorGuids?.includes(modified.operatorId) === true) return undefined;
  // Not knowing its own operator, monsync cannot tell its own changes from anyone's: it labels none (assemble warns).
  if (options.selfOperatorGuid === undefined && (options.selfOperatorGuids?.length ?? 0) === 0) return undefined;
  const name = operatorName(options.operators, modified.operatorId);
  return {
    ...(modified.date === undefined ? {} : { lastModifiedDate: modified.date }),
    lastModifiedByOperatorId: modified.operatorId,
    ...(name === undefined ? {} : { operatorName: name }),
  };
}
