/**
 * What an operator's and an operator group's `authorizations:` have in common: a list of authorization types under
 * the parent, authoritative where the parent declares it. The service takes the type in the path (`POST`/`DELETE
 * .../Authorization/{type}`, no body) and lists type names, so the type is the whole identity: step GUID
 * `<parentGuid>/<type>`, key `<parent key>/<type>`. Each kind module spreads what `typeAuthorizationKind` builds and
 * adds its own rules (an operator's `AccountAdministrator`, the API account's own `AccountAccess`).
 */
import type { NamedKindEntry } from '@monsync/schema';
import type { DesiredState, SourceRef } from '../desired.js';
import { listedPerParent } from '../live/snapshot.js';
import type { ApiObject, LiveClient, LiveSnapshot, Listing, WriteClient } from '../live/types.js';
import type { StepKind } from '../plan/types.js';
import { desiredEntry, liveEntry, placeholder, type KindModule, type LiveEntry, type PerParentRead, type Resolver } from './contract.js';
import { bodyString, idOf, splitCompound } from './shared.js';

/** One parent that declares `authorizations:`, with the types it lists. */
export interface DeclaredTypes {
  key: string;
  types: readonly string[];
  source: SourceRef;
}

export interface TypeAuthorizationSpec {
  entry: NamedKindEntry & { kind: StepKind };
  parent: StepKind;
  /** The parent's GUID field, which a create body carries. */
  guidField: string;
  declared(state: DesiredState): DeclaredTypes[];
  /** The listing, and what of it the plan reads. */
  read: Pick<PerParentRead, 'of' | 'what' | 'only'> & { list(client: LiveClient | WriteClient, parentGuid: string): Listing<ApiObject> };
  add(client: WriteClient, parentGuid: string, type: string): Promise<unknown>;
  remove(client: WriteClient, parentGuid: string, type: string): Promise<unknown>;
}

/** The type an authorization names: a listed name made `{AuthorizationType}` by the client, or a legacy object. */
export const typeOf = (authorization: ApiObject): string => idOf(authorization, 'AuthorizationType');

/** The live authorizations of every parent that declares the list: `{ AuthorizationType }`, keyed by the parent's key. */
export function liveTypeAuthorizations(spec: TypeAuthorizationSpec, snapshot: LiveSnapshot, resolver: Resolver): LiveEntry[] {
  const { kind } = spec.entry;
  const entries: LiveEntry[] = [];
  const lists = listedPerParent(snapshot, kind);
  for (const parentGuid of Object.keys(lists)) {
    const parent = resolver.desiredOf(spec.parent, parentGuid);
    if (parent?.manages?.includes(kind) !== true) continue;
    for (const authorization of lists[parentGuid] ?? []) {
      const type = typeOf(authorization);
      entries.push(liveEntry(kind, `${parent.key}/${type}`, `${parentGuid}/${type}`, { AuthorizationType: type }, [{ kind: spec.parent, guid: parentGuid }]));
    }
  }
  return entries;
}

export function typeAuthorizationKind(spec: TypeAuthorizationSpec): KindModule {
  const { kind } = spec.entry;
  return {
    ...spec.entry,
    serverDefaults: {},
    relation: true,
    parents: [spec.parent],
    ownedBy: [spec.parent],
    builtFrom: [spec.parent, kind],
    read: {
      perParent: {
        ...spec.read,
        parent: spec.parent,
        list: (client, parentGuid) => spec.read.list(client, parentGuid),
        keep: (authorization) => ({ AuthorizationType: typeOf(authorization) }),
      },
    },
    diff: () => [],

    desired(state) {
      return spec.declared(state).flatMap(({ key, types, source }) =>
        types.map((type) => desiredEntry(kind, `${key}/${type}`, { AuthorizationType: type }, source, [{ kind: spec.parent, key }])),
      );
    },

    live: (snapshot, resolver) => liveTypeAuthorizations(spec, snapshot, resolver),

    createExtras(entry, resolver) {
      const parent = entry.refs[0]?.key ?? '';
      return { [spec.guidField]: resolver.guidOf(spec.parent, parent) ?? placeholder(spec.parent, parent) };
    },

    requests: {
      async create(client, _step, body) {
        const parent = bodyString(body, spec.guidField);
        const type = bodyString(body, 'AuthorizationType');
        await spec.add(client, parent, type);
        return `${parent}/${type}`;
      },
      update() {
        return Promise.reject(new Error(`an ${spec.entry.title.one} has nothing to update`));
      },
      async delete(client, step) {
        const [parent, type] = splitCompound(step.guid);
        await spec.remove(client, parent, type);
      },
      async find(client, _step, body) {
        const parent = bodyString(body, spec.guidField);
        const type = bodyString(body, 'AuthorizationType');
        const listed = await spec.read.list(client, parent).toArray();
        return listed.some((a) => typeOf(a) === type) ? `${parent}/${type}` : undefined;
      },
    },
  };
}
