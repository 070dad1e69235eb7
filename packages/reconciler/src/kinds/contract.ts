/**
 * One contract per resource kind, in the shape of Pulumi's dynamic provider (`sdk/nodejs/dynamic/index.ts`:
 * check, diff, create, read, update, delete): the declarative facts come from the kind registry of the schema
 * package (`packages/schema/src/kinds.ts`), and each module here adds the behaviour. Adding a kind means adding its
 * registry entry and one module listed in `kinds/index.ts`, never touching the engine (docs/architecture.md,
 * "How to add a kind").
 */
import type { NamedKindEntry } from '@monsync/schema';
import type { DesiredState, SecretValue, SourceRef } from '../desired.js';
import type { ApiObject, LiveClient, LiveScope, LiveSnapshot, Listing, WriteClient } from '../live/types.js';
import type { PlanChange, PlanStep, StepKind } from '../plan/types.js';

/** A reference from one object to another, by the other's kind and natural key (desired side) or GUID (live side). */
export interface KeyRef {
  kind: StepKind;
  key: string;
}

export interface GuidRef {
  kind: StepKind;
  guid: string;
}

/** One declared object, as the engine sees it. */
export interface DesiredEntry {
  kind: StepKind;
  key: string;
  /** The object's own `...Guid` written in the config: pins identity (adoption, rename). */
  pinnedGuid?: string;
  /** API fields as declared (PascalCase only). May hold secrets (`SecretValue`) and vault references. */
  fields: ApiObject;
  source: SourceRef;
  /** Objects this one needs to exist first (parent section, SLA, group, monitor, referenced vault items). */
  refs: readonly KeyRef[];
  /** Child kinds whose live objects under this one are reconciled (a group declaring `members`). */
  manages?: StepKind[];
}

/** One live object, as the engine sees it. */
export interface LiveEntry {
  kind: StepKind;
  /** Natural key; for children it is built from the parent's resolved key (so a parent rename is no child churn). */
  key: string;
  /** Step GUID: the object's GUID, or `<parentGuid>/<id>` for children. */
  guid: string;
  fields: ApiObject;
  /** Objects this one references or belongs to; deletes wait for the steps that drop these references. */
  refs: readonly GuidRef[];
}

/** Set-like arrays: compared as sets, by `key` for arrays of objects, by value for arrays of scalars. */
export type { KindSetField as SetField } from '@monsync/schema';

/**
 * Where a kind's objects hold references to other objects by GUID in an ordinary field (monitors: vault items in
 * `PredefinedVariables`). The engine needs it to tell whether an update drops a reference before the referenced
 * object is deleted (the service refuses to delete an object in use).
 */
export interface ReferenceSpec {
  /** The field holding the references, named in messages. */
  field: string;
  /** Kinds referenced: when one of them is pruned, this kind is read even if not managed, to see what keeps it in use. */
  kinds: readonly StepKind[];
  /** References the object keeps after an update declaring `declared` (resolved fields); an update not declaring `field` keeps the live ones. */
  after(live: LiveEntry, declared: ApiObject): readonly GuidRef[];
}

/** A marker line monsync keeps at the end of a text field (docs/architecture.md, "Markers"). */
export interface MarkerSpec {
  field: string;
  /** `fp`: fingerprint of the object's secrets; `key`: the config key (objects with no name in the API). */
  name: 'fp' | 'key';
  /** Text after an `fp` marker's fingerprint recording where each secret comes from (monitors: kinds/monitor-secret-refs.ts). */
  refs?: (fields: ApiObject, secrets: readonly { pointer: string; secret: SecretValue }[]) => string;
}

/**
 * Kinds whose objects can be retired rather than deleted (monitors, where the service may refuse DELETE): a retired
 * object keeps existing, switched off and marked with a `monsync:retired=<strategy>` line in a text field. The
 * engine plans nothing for it afterwards, and revives it (the same object) when the config declares its key again.
 */
export interface RetireSpec {
  /** The text field holding the marker line. */
  field: string;
  /** Fields a retired object is given, besides the marker. */
  retired: Readonly<ApiObject>;
  /** What revival restores where the config is silent (the service's defaults). */
  revived: Readonly<ApiObject>;
}

/**
 * A relation declared as lists of member keys under its parent (`members` of a monitor group; the monitors and groups
 * an alert definition covers; the operators and groups an escalation level reaches): its entry keys are `<parent
 * key>/<member key>` (`<parent key>/<member kind>:<member key>` where a parent lists members of several kinds) and its
 * step GUIDs built the same way from GUIDs, and its entries refer to the parent and the member (and the parent's
 * parents) only. What `desired` and `live` build one entry at a time, as lists: when each parent's declared lists are
 * what is live, the kind is matched list by list (phases/match-sets.ts) and no entry is built.
 */
export interface MemberSets {
  parent: StepKind;
  /**
   * How many `/` a parent key holds by construction (a level's `<AlertName>/<Id>`: 1; none when unset). A parent key
   * with more could make two parents' entry keys one, so such a tree is matched entry by entry.
   */
  parentSlashes?: number;
  /** The parents that declare lists, each with the member keys declared by member kind (in the order `desired` builds entries). */
  declared(state: DesiredState): { parent: string; members: readonly DeclaredMembers[] }[];
  /** The listed members per parent GUID, as `live` reads them (`listedPerParent`). */
  listed(snapshot: LiveSnapshot): Record<string, readonly ApiObject[]>;
  /** A listed member's kind; undefined for one `live` leaves out (then the kind is matched entry by entry). */
  memberKind(member: ApiObject): StepKind | undefined;
  /** A listed member's GUID. */
  memberGuid(member: ApiObject): string;
}

/** The keys a parent declares of one member kind. */
export interface DeclaredMembers {
  kind: StepKind;
  keys: readonly unknown[];
}

/** Lookups across kinds, filled by the engine kind after kind in dependency order. */
export interface Resolver {
  /** Final key of a live object: the desired key when matched (renames), else its live key. */
  keyOf(kind: StepKind, guid: string): string | undefined;
  /** Live GUID behind a desired key, when the object exists. */
  guidOf(kind: StepKind, key: string): string | undefined;
  /** The desired entry matched to a live GUID. */
  desiredOf(kind: StepKind, guid: string): DesiredEntry | undefined;
  /** Whether the plan creates this object (so references to it are placeholders and dependencies). */
  isCreated(kind: StepKind, key: string): boolean;
  /** Whether an operator GUID is the API account's own operator (known from `PlanOptions.selfOperatorGuids`). */
  isSelf(operatorGuid: string): boolean;
  /** Whether the API account's operator is known at all (`isSelf` is then false for every other operator). */
  knowsSelf(): boolean;
}

/** What apply needs to perform a step; ids come from the step (`guid`) or from placeholders resolved by apply. */
export interface KindRequests {
  /** Returns the new object's step GUID (learning it by re-listing when the service answers 204). */
  create(client: WriteClient, step: PlanStep, body: ApiObject): Promise<string>;
  update(client: WriteClient, step: PlanStep, body: ApiObject): Promise<void>;
  /** Resolves to a note when the object was not plainly deleted (a monitor retired instead). */
  delete(client: WriteClient, step: PlanStep): Promise<string | undefined | void>;
  /** After a POST with an unclear outcome: the step GUID of the object if it exists, found by re-listing by key. */
  find(client: WriteClient, step: PlanStep, body: ApiObject): Promise<string | undefined>;
}

/**
 * How a child kind is listed: once per object of its parent kind. The parent may itself be a child kind (an
 * escalation level's members are listed per level): its objects are then known by `<parent id>/<own key>`.
 */
export interface PerParentRead {
  parent: StepKind;
  /** Parents whose children are read (the All Monitors group's members are not: that would list the account). */
  of?(parent: ApiObject): boolean;
  list(client: LiveClient, parentGuid: string): Listing<ApiObject>;
  /** The listing, named in a `LiveReadError`; `id` is the parent's id as listed (`<definition>/<level>` for a level). */
  what(parent: ApiObject, id: string): string;
  /** What is kept of each child listed (a membership keeps only the monitor's GUID). */
  keep?(child: ApiObject): ApiObject;
  /**
   * The parents whose children the plan needs, when that is fewer than all (an operator's authorizations: only the
   * operators declaring `authorizations:`): their keys and pinned GUIDs in lower case (`LiveScope.parents`).
   */
  only?(desired: DesiredState): string[];
}

/** How `readLive` lists a kind: one listing of every object, or one per parent object. */
export interface KindRead {
  list?(client: LiveClient): Listing<ApiObject>;
  /** Objects of the kind that are monsync's own (the apply lock, `lock/apply-lock.ts`): never planned, pulled or counted. */
  own?(object: ApiObject): boolean;
  perParent?: PerParentRead;
  /** A long chain of cursor pages (monitors): the read's critical path, so per-parent listings leave it a slot. */
  cursorChain?: boolean;
  /** The operator listing: read once, it also names who changed objects outside git (`LiveSnapshot.operators`). */
  operators?: boolean;
  /** Also list `GET /Timezone` into `LiveSnapshot.timezones` (duty schedules: the on-call preview). */
  timezones?: boolean;
  /** Throws `LiveReadError` when the listings read cannot be planned from (a partial view of the account). */
  check?(snapshot: LiveSnapshot, scope: LiveScope): void;
  /**
   * The other kinds whose listings `check` reads. With it, the check runs as soon as those in scope and this kind's
   * own listing are in, while the rest of the read is under way; without it, after the last listing.
   */
  checkReads?: readonly StepKind[];
}

export interface KindModule extends NamedKindEntry {
  /**
   * How the service tells keys apart where it enforces uniqueness (SLA names: ignoring case and surrounding
   * spaces). Matching uses it, so a change of case is an update of the object, never a create the service
   * refuses (409) next to a delete of the object it was meant to replace. Default: keys compare exactly.
   */
  identity?(key: string): string;
  /** Values the service fills for omitted fields; a live object lacking one is read as having the default. */
  serverDefaults: Readonly<ApiObject>;
  /** Fields that cannot change after creation: a difference is a warning, never an update. */
  immutableFields?: readonly string[];
  /** Fields a create must carry (the service has no default for them); a declaration matching a live object may omit them. */
  requiredOnCreate?: readonly string[];
  /**
   * Updates replace the whole object (PUT): a field the body leaves out is cleared. The update body then carries
   * the live fields the config leaves out (read-only ones aside), so that only the planned changes are written.
   */
  updateReplaces?: boolean;
  marker?: MarkerSpec;
  /**
   * Fields written once: sent on create, never compared with what is live (the service does not return them), and
   * sent again on update only for objects the plan is asked to rotate (`PlanOptions.rotate`).
   */
  writeOnce?: readonly string[];
  /** Undeclared live objects are deleted whatever `prune` says (they are listed only under a parent that declares the list). */
  authoritative?: boolean;
  /** System objects (the Administrators group): planned when declared, never deleted nor listed as unmanaged. */
  system?(live: LiveEntry): boolean;
  /**
   * Why an undeclared live object that would be deleted is kept instead (the plan warns with it), or undefined: an
   * access that may be the API account's own way to read what the tree manages (no self lock-out).
   */
  keptWhy?(live: LiveEntry): string | undefined;
  /**
   * Why a declared change of a live object is not made (the object stays as it is and the plan warns with it), or
   * undefined: an access the tree lowers that is the API account's way into a section it manages.
   */
  heldWhy?(pair: { desired: DesiredEntry; live: LiveEntry }): string | undefined;
  /** Why an undeclared live object is deleted, when the plan should say (what a new object was given and the tree leaves out). */
  deleteReason?(live: LiveEntry): string | undefined;
  /** Read only when this returns true (a section's `access` is read only when some section declares it). */
  readWhen?(desired: DesiredState): boolean;
  /** Objects of this kind may be retired instead of deleted (`manage.<kind>.removal`). */
  retire?: RetireSpec;
  /** References held in an ordinary field, which updates can drop (parent references are immutable and need none). */
  references?: ReferenceSpec;
  /** Relations (memberships) have nothing to update, only create and delete; a declared list of them is authoritative. */
  relation?: boolean;
  /** A relation declared as a list under its parent (a group's `members`): matched one list at a time when it can be (phases/match-sets.ts). */
  memberSets?: MemberSets;
  /** Kinds with no read (alert definitions): every declaration is re-asserted as an `ensure` step. */
  ensureOnly?: boolean;
  /** Kinds of this object's parents: ignoring a parent ignores its children too. */
  parents?: readonly StepKind[];
  /** Deleting an object of one of these kinds removes this one too, so no separate delete is planned. */
  ownedBy?: readonly StepKind[];
  /** Kinds whose listings this kind's live entries are built from (`liveScope` asks for them); none for kinds with no read. */
  builtFrom: readonly StepKind[];
  /** How `readLive` lists this kind; none for kinds with no read. */
  read?: KindRead;
  /**
   * A reason the listing cannot be matched to declarations (reports without the `InternalNotes` their key marker is
   * in, which only administrators see), or undefined. Asked when the kind is managed, declared and listed.
   */
  unmatchable?(listed: readonly ApiObject[]): string | undefined;
  desired(state: DesiredState): DesiredEntry[];
  /**
   * Live objects of this kind in the managed scope (e.g. members only of groups that declare `members`). The desired
   * state is there for kinds whose scope the declarations of other kinds decide (duty schedules: the groups).
   */
  live(snapshot: LiveSnapshot, resolver: Resolver, desired: DesiredState): LiveEntry[];
  /** Replaces references in declared fields by GUIDs or placeholders (`{{vault:Section/Item}}`). */
  resolve?(entry: DesiredEntry, resolver: Resolver): ApiObject;
  /**
   * The fields `resolve` may rewrite (it keeps every key and leaves the other values as they are, secrets included),
   * and whether the declared value of one, once resolved, is the live one as the generic comparison finds it, decided
   * without building the resolved copy (of each declaration that holds a reference) or walking the field as the generic
   * comparison does: most pairs at account scale are unchanged. `false` only means "not proven": the full comparison
   * decides then.
   */
  resolvedSame?: { fields: readonly string[]; same(field: string, declared: unknown, live: unknown, resolver: Resolver): boolean };
  /**
   * The changes of a matched pair, where the generic comparison of declared fields does not apply (a membership that
   * exists is all there is to it); an empty list is no update.
   */
  diff?(pair: { desired: DesiredEntry; live: LiveEntry }): PlanChange[];
  /**
   * Another form a placeholder for an object created in the same plan takes inside declared values, and what it
   * becomes once apply learns the GUID: `{{vault:Section/Item}}` in a monitor variable -> `{{vault:<guid>}}`.
   */
  inlinePlaceholder?: { of(key: string): string; resolved(guid: string): string };
  /** Fields added to a create body (parent GUIDs). */
  createExtras?(entry: DesiredEntry, resolver: Resolver): ApiObject;
  /** Optional live metadata for drift attribution. */
  lastModified?(live: LiveEntry): { date?: string; operatorId?: string };
  requests: KindRequests;
}

/**
 * Every kind builds its entries with these two functions, so that entries of all kinds share one object shape (the
 * optional fields come last and only when set). The engine's loops run over the entries of every kind in turn, and
 * an entry of a shape an optimised loop has not seen makes V8 discard and recompile it: at account scale that
 * recompiling was a tenth of the plan's CPU time.
 */
export function desiredEntry(
  kind: StepKind,
  key: string,
  fields: ApiObject,
  source: SourceRef,
  refs: readonly KeyRef[],
  optional?: { pinnedGuid?: string | undefined; manages?: StepKind[] | undefined },
): DesiredEntry {
  const entry: DesiredEntry = { kind, key, fields, source, refs };
  if (optional?.pinnedGuid !== undefined) entry.pinnedGuid = optional.pinnedGuid;
  if (optional?.manages !== undefined) entry.manages = optional.manages;
  return entry;
}

export function liveEntry(kind: StepKind, key: string, guid: string, fields: ApiObject, refs: readonly GuidRef[]): LiveEntry {
  return { kind, key, guid, fields, refs };
}

/** The references of an object that has none: one list for all of them (most monitors, at account scale). */
export const NO_REFS: readonly never[] = [];

/** Placeholder for the GUID of an object created earlier in the same plan; apply substitutes it. */
export function placeholder(kind: StepKind, key: string): string {
  return `{{${kind}:${key}}}`;
}

/** The key a placeholder of `kind` names (`{{operator:sam@example.com}}` -> `sam@example.com`), or undefined. */
export function placeholderKey(kind: StepKind, guid: string): string | undefined {
  const start = `{{${kind}:`;
  return guid.startsWith(start) && guid.endsWith('}}') ? guid.slice(start.length, -2) : undefined;
}

export function str(object: ApiObject, field: string): string | undefined {
  const value = object[field];
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}
