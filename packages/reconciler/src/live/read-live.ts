/**
 * readLive: the fewest requests that describe the managed part of the account. A loop over the kind modules in
 * scope, each listed as its `read` says: one listing per kind (the monitor listing follows its cursors), per-parent
 * listings (group members, SLA exclusion periods) all started at once and bounded by the client's own concurrency
 * limit, and never one GET per object.
 */
import { VAULT_SECTION_KIND } from '@monsync/schema';
import type { KindModule, PerParentRead } from '../kinds/contract.js';
import { KINDS, kindModule } from '../kinds/index.js';
import { idOf } from '../kinds/shared.js';
import { LiveReadError } from '../plan/errors.js';
import type { StepKind } from '../plan/types.js';
import { readSelf } from './self.js';
import { emptySnapshot, namedParent } from './snapshot.js';
import type { ApiObject, LiveClient, LiveScope, LiveSnapshot, Listing } from './types.js';

/** Every item of a listing; `what` names the listing in an error. */
export async function all(what: string, listing: () => Listing<ApiObject>): Promise<ApiObject[]> {
  try {
    return await listing().toArray();
  } catch (error) {
    throw new LiveReadError(what, error);
  }
}

/**
 * A counting semaphore for the per-parent listings. They are queued by the hundred; in the client's FIFO limiter
 * they would make every page of the monitor cursor chain (the read's critical path: each page needs the one before)
 * wait behind all of them. Holding them to one slot fewer than the client's limit keeps a slot for the chain, and
 * the slot comes back when the chain ends: with people (a schedule listing per operator, two per operator group)
 * hundreds of listings are still queued then, and a slot left idle would stretch them by 1/parallelism. A slot is
 * taken without a promise when one is free: a read makes a thousand of these listings.
 */
class FanOut {
  #width: number;
  #active = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(width: number) {
    this.#width = width;
  }

  /** A slot now when one is free (true); otherwise `wait()`. */
  take(): boolean {
    if (this.#active >= this.#width) return false;
    this.#active += 1;
    return true;
  }

  /** A slot once one is free, in arrival order (counted as taken by whoever frees it). */
  wait(): Promise<void> {
    return new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  release(): void {
    this.#active -= 1;
    this.#start();
  }

  /** One more listing at once from now on: a cursor chain is done and gives its slot back. */
  widen(): void {
    this.#width += 1;
    this.#start();
  }

  #start(): void {
    if (this.#active >= this.#width) return;
    const next = this.#waiting.shift();
    if (next === undefined) return;
    this.#active += 1;
    next();
  }
}

function isForbidden(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { status?: unknown }).status === 403;
}

/** One read: each top-level listing is requested once, however many kinds need it (a parent and its children). */
class Reader {
  readonly snapshot = emptySnapshot();
  readonly #lists = new Map<StepKind, Promise<ApiObject[]>>();
  /** Each listing as the service answered it, the kind's own objects included (`read.own`). */
  readonly #raw = new Map<StepKind, Promise<ApiObject[]>>();
  readonly #perParentLists = new Map<StepKind, Promise<void>>();
  readonly #perParent: FanOut;
  /** Whether the per-parent listings were held back a slot for a chain (given back when it ends). */
  readonly #reserved: boolean;

  constructor(
    readonly client: LiveClient,
    chains: number,
    readonly parents?: LiveScope['parents'],
  ) {
    const parallelism = client.parallelism ?? 8;
    this.#perParent = new FanOut(Math.max(1, parallelism - chains));
    this.#reserved = chains > 0 && parallelism - chains >= 1;
  }

  /** The listing of a top-level kind, kept in the snapshot. */
  list(mod: KindModule): Promise<ApiObject[]> {
    let started = this.#lists.get(mod.kind);
    const list = mod.read?.list;
    if (started === undefined && list !== undefined) {
      const own = mod.read?.own;
      const raw = all(mod.title.many, () => list(this.client));
      this.#raw.set(mod.kind, raw);
      started = raw.then((items) => (this.snapshot.lists[mod.kind] = own === undefined ? items : items.filter((item) => !own(item))));
      if (mod.read?.cursorChain === true && this.#reserved) {
        // The chain's slot goes to the per-parent listings once the chain is done, whether it succeeded or not.
        started.then(
          () => this.#perParent.widen(),
          () => this.#perParent.widen(),
        );
      }
      this.#lists.set(mod.kind, started);
    }
    return started ?? Promise.resolve([]);
  }

  /** A child kind's listings, one per parent object; the parent's listing first. Each kind is listed once. */
  listPerParent(mod: KindModule): Promise<void> {
    let started = this.#perParentLists.get(mod.kind);
    if (started === undefined) {
      started = this.#listPerParent(mod);
      this.#perParentLists.set(mod.kind, started);
    }
    return started;
  }

  /**
   * The objects of a parent kind with their ids: a top-level kind's listing (ids from its GUID field), or the
   * children of a child kind (an alert definition's escalation levels), each known by `<parent id>/<own key>`.
   */
  async #parents(parentMod: KindModule): Promise<{ objects: ApiObject[]; ids: string[] }> {
    if (parentMod.read?.perParent === undefined) {
      const objects = await this.list(parentMod);
      return { objects, ids: objects.map((parent) => idOf(parent, parentMod.guidField)) };
    }
    await this.listPerParent(parentMod);
    const objects: ApiObject[] = [];
    const ids: string[] = [];
    const field = parentMod.keyField ?? parentMod.guidField;
    for (const [grandparent, children] of Object.entries(this.snapshot.perParent[parentMod.kind] ?? {})) {
      for (const child of children) {
        objects.push(child);
        ids.push(`${grandparent}/${idOf(child, field)}`);
      }
    }
    return { objects, ids };
  }

  async #listPerParent(mod: KindModule): Promise<void> {
    const spec = mod.read?.perParent;
    if (spec === undefined) return;
    const all = await this.#parents(kindModule(spec.parent));
    const named = this.#named(mod, spec);
    const kept = all.objects.map((parent, i) => ({ parent, id: all.ids[i] as string })).filter(({ parent }) => (spec.of?.(parent) ?? true) && (named?.(parent) ?? true));
    const parents = kept.map(({ parent }) => parent);
    const ids = kept.map(({ id }) => id);
    const lists = await Promise.all(parents.map((parent, i) => this.#children(spec, parent, ids[i] as string)));
    const byParent: Record<string, ApiObject[]> = {};
    ids.forEach((id, i) => {
      byParent[id] = lists[i] ?? [];
    });
    this.snapshot.perParent[mod.kind] = byParent;
  }

  /** Whether a parent is one the scope names for this kind (`LiveScope.parents`), by key or GUID; undefined: every parent. */
  #named(mod: KindModule, spec: PerParentRead): ((parent: ApiObject) => boolean) | undefined {
    const names = this.parents?.[mod.kind];
    if (names === undefined) return undefined;
    const parentMod = kindModule(spec.parent);
    return namedParent(names, parentMod.guidField, parentMod.keyField);
  }

  /** One parent's children, as kept; the listing names the parent only when it fails (hundreds succeed). */
  async #children(spec: PerParentRead, parent: ApiObject, id: string): Promise<ApiObject[]> {
    if (!this.#perParent.take()) await this.#perParent.wait();
    let held = true;
    // The slot goes to the next listing as soon as this one's answer is in, before it is parsed: the next request
    // then goes out first, and every slot spends less of each round trip idle.
    const release = (): void => {
      if (!held) return;
      held = false;
      this.#perParent.release();
    };
    let children: ApiObject[];
    try {
      children = await spec.list(this.client, id).toArray({ answered: release });
    } catch (error) {
      throw new LiveReadError(spec.what(parent, id), error);
    } finally {
      release();
    }
    return spec.keep === undefined ? children : children.map(spec.keep);
  }

  /**
   * The record of the API account's operator (`live/self.ts`), from the vault-section listing when it is read
   * anyway. Not readable (no right to the vault, a failed request), the operator stays unknown and the plan says so.
   */
  async self(sectionsRead: boolean): Promise<void> {
    try {
      const sections = sectionsRead ? await this.list(kindModule(VAULT_SECTION_KIND.kind)).then(() => this.#raw.get(VAULT_SECTION_KIND.kind) ?? []) : await this.client.vaultSections.list().toArray();
      this.snapshot.self = await readSelf(this.client.vaultSections, sections);
    } catch {
      // Unknown, as without the record.
    }
  }

  /** Operators, to name who changed what: the operator kind's own listing when it is read anyway. */
  async operators(listing: KindModule | undefined): Promise<void> {
    if (listing !== undefined) {
      this.snapshot.operators = await this.list(listing);
      return;
    }
    try {
      this.snapshot.operators = await this.client.operators.list().toArray();
    } catch (error) {
      // Operators only name who changed an object; without the right to read them, drift shows operator ids.
      if (isForbidden(error)) return;
      throw new LiveReadError('operators', error);
    }
  }
}

export async function readLive(client: LiveClient, scope: LiveScope): Promise<LiveSnapshot> {
  const wanted = KINDS.filter((mod) => mod.read !== undefined && scope.kinds.includes(mod.kind));
  // The critical path first: a cursor chain (monitors) starts before anything can queue in front of it.
  const chains = wanted.filter((mod) => mod.read?.cursorChain === true);
  const reader = new Reader(client, chains.length > 0 ? 1 : 0, scope.parents);
  const byKind = new Map<StepKind, Promise<unknown>>();
  for (const mod of [...chains, ...wanted.filter((mod) => mod.read?.cursorChain !== true)]) {
    byKind.set(mod.kind, mod.read?.perParent === undefined ? reader.list(mod) : reader.listPerParent(mod));
  }
  const tasks: Promise<unknown>[] = [...byKind.values()];
  if (scope.operators) tasks.push(reader.operators(wanted.find((mod) => mod.read?.operators === true)));
  const phones = client.outgoingPhoneNumbers;
  if (scope.outgoingPhoneNumbers === true && phones !== undefined) {
    tasks.push(all('outgoing phone numbers', () => phones.list()).then((numbers) => (reader.snapshot.outgoingPhoneNumbers = numbers)));
  }
  if (scope.self === true) tasks.push(reader.self(scope.kinds.includes(VAULT_SECTION_KIND.kind)));
  const integrations = client.integrations;
  if (scope.integrations === true && integrations !== undefined) {
    tasks.push(all('integrations', () => integrations.list()).then((listed) => (reader.snapshot.integrations = listed)));
  }
  if (wanted.some((mod) => mod.read?.timezones === true)) {
    tasks.push(all('time zones', () => client.timezones.list()).then((zones) => (reader.snapshot.timezones = zones)));
  }
  const snapshot = reader.snapshot;
  // A check that names what it reads runs once that is in, while the rest of the read goes on; the others at the end.
  const atEnd: KindModule[] = [];
  for (const mod of wanted) {
    const check = mod.read?.check;
    if (check === undefined) continue;
    const reads = mod.read?.checkReads;
    if (reads === undefined) {
      atEnd.push(mod);
      continue;
    }
    const inputs = [mod.kind, ...reads].flatMap((kind) => byKind.get(kind) ?? []);
    tasks.push(Promise.all(inputs).then(() => check(snapshot, scope)));
  }
  await Promise.all(tasks);
  for (const mod of atEnd) mod.read?.check?.(snapshot, scope);
  snapshot.read = [...scope.kinds];
  return snapshot;
}
