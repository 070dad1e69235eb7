import { DEFAULT_WRITE_ATTEMPTS, isApiError, isUnclearOutcome, NotFoundError } from '@monsync/client';
import { OPERATOR_GROUP_KIND, OPERATOR_KIND, VAULT_ACCESS_KIND, VAULT_SECTION_KIND, type VaultAccessConfig } from '@monsync/schema';
import type { DesiredState } from '../desired.js';
import { listedPerParent } from '../live/snapshot.js';
import type { ApiObject, WriteClient } from '../live/types.js';
import { desiredEntry, liveEntry, placeholder, type KeyRef, type KindModule, type LiveEntry, type Resolver } from './contract.js';
import { levelRank, selfRoutes, type SelfRoutes } from './self-routes.js';
import { bodyString, idOf, splitCompound } from './shared.js';
import { principalOf } from './vault-principal.js';

const SECTION = VAULT_SECTION_KIND.kind;
const OPERATOR = OPERATOR_KIND.kind;
const GROUP = OPERATOR_GROUP_KIND.kind;

const VIEW = 'ViewVaultSection';
const CHANGE = 'ChangeVaultSection';
/** What a declared level means in authorization types: `change` is both Change and View. */
const TYPES_OF_LEVEL: Readonly<Record<string, readonly string[]>> = { view: [VIEW], change: [CHANGE, VIEW] };

/** The level the authorizations of one operator or group add up to; Change without View is shown as such. */
export function levelOf(types: ReadonlySet<string>): string {
  if (types.has(CHANGE)) return types.has(VIEW) ? 'change' : 'change (without view)';
  return types.has(VIEW) ? 'view' : 'none';
}

/** `operator:<guid>` or `group:<guid>` of a step's body (`resolve` writes one of the two fields). */
function principalOfBody(body: ApiObject): string {
  return typeof body.OperatorGroupGuid === 'string' ? `group:${bodyString(body, 'OperatorGroupGuid')}` : `${OPERATOR}:${bodyString(body, 'OperatorGuid')}`;
}

function declaredAccess(state: DesiredState): { section: string; access: VaultAccessConfig; source: Parameters<typeof desiredEntry>[3] }[] {
  return state.vaultSections.flatMap(({ value, source }) => {
    const access = (value as { access?: unknown }).access;
    return Array.isArray(access) ? (access as VaultAccessConfig[]).map((a) => ({ section: value.Name, access: a, source })) : [];
  });
}

/**
 * Access to a vault section (`access:` of the section): one entry per operator or group, with `level` view or
 * change. For sections that declare `access` the list is authoritative, with one exception: the API account's own
 * operator keeps the View and Change the service gave it as the section's creator unless `access` names it (so the
 * plan never fights the service, and monsync never takes away its own access). Step GUID:
 * `<sectionGuid>/operator:<operatorGuid>` or `<sectionGuid>/group:<groupGuid>`. Writes speak the published form
 * (`{AuthorizationType, OperatorGuid | OperatorGroupGuid}`); reads take the spec's too.
 */
export const vaultAccessKind: KindModule = {
  ...VAULT_ACCESS_KIND,
  serverDefaults: {},
  parents: [SECTION, OPERATOR, GROUP],
  ownedBy: [SECTION, OPERATOR, GROUP],
  builtFrom: [SECTION, 'vaultAccess', OPERATOR, GROUP],
  authoritative: true,
  system: (entry) => entry.fields.self === true,
  keptWhy: (entry) => (typeof entry.fields.kept === 'string' ? entry.fields.kept : undefined),
  // A declared level below the live one is not written when the access is the API account's way in (self-routes.ts).
  heldWhy: ({ desired, live }) => (typeof live.fields.held === 'string' && levelRank(desired.fields.level) < levelRank(live.fields.level) ? live.fields.held : undefined),
  // A section declaring `access: []` manages its access too (nobody but the API account's operator keeps any).
  readWhen: (desired) => desired.vaultSections.some(({ value }) => Array.isArray((value as { access?: unknown }).access)),
  read: {
    perParent: {
      parent: SECTION,
      list: (client, sectionGuid) => client.vaultSections.authorizations.list(sectionGuid),
      what: (section) => `access to vault section "${idOf(section, 'Name')}" (${idOf(section, 'VaultSectionGuid')})`,
    },
  },

  desired(state) {
    return declaredAccess(state).map(({ section, access, source }) => {
      const [who, name, ref]: [string, string, KeyRef] =
        OPERATOR in access ? [OPERATOR, access.operator, { kind: OPERATOR, key: access.operator }] : ['group', access.group, { kind: GROUP, key: access.group }];
      return desiredEntry('vaultAccess', `${section}/${who}:${name}`, { level: access.level }, source, [{ kind: SECTION, key: section }, ref]);
    });
  },

  live(snapshot, resolver, desired) {
    const entries: LiveEntry[] = [];
    const lists = listedPerParent(snapshot, 'vaultAccess');
    const routes = selfRoutes(snapshot, desired, resolver);
    for (const sectionGuid of Object.keys(lists)) {
      const section = resolver.desiredOf(SECTION, sectionGuid);
      if (section?.manages?.includes('vaultAccess') !== true) continue;
      entries.push(...accessOfSection(sectionGuid, section.key, lists[sectionGuid] ?? [], resolver, routes));
    }
    return entries;
  },

  createExtras(entry, resolver) {
    const [section, principal] = entry.refs;
    const guidOr = (kind: string, key: string): string => resolver.guidOf(kind as typeof SECTION, key) ?? placeholder(kind as typeof SECTION, key);
    return {
      VaultSectionGuid: guidOr(SECTION, section?.key ?? ''),
      [principal?.kind === GROUP ? 'OperatorGroupGuid' : 'OperatorGuid']: guidOr(principal?.kind ?? OPERATOR, principal?.key ?? ''),
    };
  },

  requests: {
    async create(client, _step, body) {
      const section = bodyString(body, 'VaultSectionGuid');
      const principal = principalOfBody(body);
      // An unclear outcome goes to apply, which looks for the access by key (`find`) and says so.
      await converge(client, section, principal, String(body.level), 'throw');
      return `${section}/${principal}`;
    },
    async update(client, step, body) {
      const [section, principal] = splitCompound(step.guid);
      await converge(client, section, principal, String(body.level), 'look');
    },
    async delete(client, step) {
      const [section, principal] = splitCompound(step.guid);
      await converge(client, section, principal, 'none', 'throw');
    },
    async find(client, _step, body) {
      const section = bodyString(body, 'VaultSectionGuid');
      const principal = principalOfBody(body);
      const held = await heldBy(client, section, principal);
      return held.length > 0 ? `${section}/${principal}` : undefined;
    },
  },
};

function accessOfSection(sectionGuid: string, sectionKey: string, authorizations: readonly ApiObject[], resolver: Resolver, routes: SelfRoutes): LiveEntry[] {
  const types = new Map<string, Set<string>>();
  for (const authorization of authorizations) {
    const principal = principalOf(authorization);
    if (principal === undefined) continue;
    const id = `${principal.who}:${principal.guid}`;
    const set = types.get(id) ?? new Set<string>();
    set.add(idOf(authorization, 'AuthorizationType'));
    types.set(id, set);
  }
  const entries: LiveEntry[] = [];
  for (const [id, held] of types) {
    const [who, guid] = splitCompound(id.replace(':', '/'));
    const kind = who === 'group' ? GROUP : OPERATOR;
    const name = resolver.keyOf(kind, guid) ?? guid;
    const key = `${sectionKey}/${who}:${name}`;
    const fields: ApiObject = { level: levelOf(held) };
    // The API account's own access (the service gives the creator View and Change): managed only when declared.
    if (who === OPERATOR && resolver.isSelf(guid)) fields.self = true;
    // Kept when the tree leaves it out, held at its level when the tree lowers it: the API account's way in.
    const route = routes.access(sectionGuid, id);
    const kept = resolver.knowsSelf() ? route : UNKNOWN_SELF_KEEPS;
    if (kept !== undefined) fields.kept = kept;
    if (route !== undefined) fields.held = route;
    entries.push(liveEntry('vaultAccess', key, `${sectionGuid}/${id}`, fields, [{ kind: SECTION, guid: sectionGuid }, { kind, guid }]));
  }
  return entries;
}

/** While the API account's operator is unknown, any access may be its way into the section: none is removed. */
const UNKNOWN_SELF_KEEPS =
  'monsync cannot tell which operator the API account acts for, and this access may be how it reads the section (name it with `apiOperator:` in monsync.yaml)';

/** The authorizations `principal` (`operator:<guid>` / `group:<guid>`) holds on the section. */
async function heldBy(client: WriteClient, sectionGuid: string, principal: string): Promise<ApiObject[]> {
  const listed = await client.vaultSections.authorizations.list(sectionGuid).toArray();
  return listed.filter((a) => {
    const p = principalOf(a);
    return p !== undefined && `${p.who}:${p.guid}`.toLowerCase() === principal.toLowerCase();
  });
}

/**
 * Brings one principal's authorizations on a section to `level` (`none` removes them): lists them, posts what is
 * missing (Change first: the service adds View with it) and deletes what is too much. Safe to repeat. `unclear`:
 * what a POST with an unclear outcome does (see `grant`).
 */
async function converge(client: WriteClient, sectionGuid: string, principal: string, level: string, unclear: 'throw' | 'look'): Promise<void> {
  const wanted = TYPES_OF_LEVEL[level] ?? [];
  const held = await heldBy(client, sectionGuid, principal);
  const types = new Set(held.map((a) => idOf(a, 'AuthorizationType')));
  const [who, guid] = splitCompound(principal.replace(':', '/'));
  const field = who === 'group' ? 'OperatorGroupGuid' : 'OperatorGuid';
  for (const type of wanted) {
    if (types.has(type)) continue;
    if (type === VIEW && wanted.includes(CHANGE) && !types.has(CHANGE)) {
      // Posted with Change just before: the service adds View itself; look before posting it.
      const again = await heldBy(client, sectionGuid, principal);
      if (again.some((a) => idOf(a, 'AuthorizationType') === VIEW)) continue;
    }
    const body = { AuthorizationType: type, [field]: guid };
    if (unclear === 'look') await grant(client, sectionGuid, principal, body);
    else await client.vaultSections.authorizations.create(sectionGuid, body);
  }
  for (const authorization of held) {
    if (wanted.includes(idOf(authorization, 'AuthorizationType'))) continue;
    try {
      await client.vaultSections.authorizations.delete(sectionGuid, idOf(authorization, 'AuthorizationId'));
    } catch (error) {
      // Gone already (a retry of a DELETE whose answer was lost): the others are still to go, so go on.
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
}

/**
 * One POST of an authorization for an update step, which the client never sends again on its own. After an unclear
 * outcome (5xx, reset, timeout) the section's authorizations are listed: held, it is done; not held, it is sent
 * again, until the sends reach the client's attempts (as apply does for a create, through `find`). Without this, a
 * change of level would fail on any lost answer, where every other kind's update is a PUT the client retries.
 */
async function grant(client: WriteClient, sectionGuid: string, principal: string, body: { [field: string]: string; AuthorizationType: string }): Promise<void> {
  const limit = Math.max(1, client.maxAttempts ?? DEFAULT_WRITE_ATTEMPTS);
  for (let sent = 0; ; ) {
    try {
      await client.vaultSections.authorizations.create(sectionGuid, body);
      return;
    } catch (error) {
      if (!isUnclearOutcome(error)) throw error;
      sent += isApiError(error) ? Math.max(1, error.attempts) : 1;
      const held = await heldBy(client, sectionGuid, principal);
      if (held.some((a) => idOf(a, 'AuthorizationType') === body.AuthorizationType)) return;
      if (sent >= limit) throw error;
    }
  }
}
