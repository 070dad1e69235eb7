import { GROUP_MEMBERSHIP_KIND, MONITOR_GROUP_KIND, MONITOR_KIND, VAULT_ITEM_KIND } from '@monsync/schema';
import { isVaultRef } from '../desired.js';
import { listed, listedPerParent } from '../live/snapshot.js';
import type { ApiObject, LiveSnapshot, WriteClient } from '../live/types.js';
import { LiveReadError } from '../plan/errors.js';
import type { PlanStep } from '../plan/types.js';
import { isPlainObject } from '../plan/values.js';
import { describeSecretRefs } from './monitor-secret-refs.js';
import { desiredEntry, liveEntry, NO_REFS, str, type GuidRef, type KeyRef, type KindModule, type Resolver } from './contract.js';
import { apiFields, findOne, idOf, pinned, requireGuid } from './shared.js';
import { withLiveOmissions } from './write-body.js';

const VAULT_IN_VALUE = /\{\{vault:([^}]+)\}\}/g;
const VAULT_ITEM = VAULT_ITEM_KIND.kind;

const NO_VARIABLES: readonly unknown[] = [];

function variables(fields: ApiObject): readonly unknown[] {
  const value = fields.PredefinedVariables;
  return Array.isArray(value) ? value : NO_VARIABLES;
}

/** The vault item a declared variable's value names (`{ vault: 'Section/Item' }`), if it names one. */
function vaultKeyOf(variable: unknown): string | undefined {
  return isPlainObject(variable) && isVaultRef(variable.Value) ? variable.Value.vault : undefined;
}

/**
 * Whether any variable's value is a `{ vault: ... }` reference. A loop, not `some` with an arrow: this runs for every
 * monitor of every plan, and nearly all of them hold none (a closure per call is garbage at account scale).
 */
function holdsVaultRef(list: readonly unknown[]): boolean {
  for (let i = 0; i < list.length; i += 1) if (vaultKeyOf(list[i]) !== undefined) return true;
  return false;
}

/**
 * The key of a monitor's variables as a keyed set (`Key`): `variablesSame` compares them by it, as the generic
 * comparison of sets does; undefined would leave every comparison to the generic one.
 */
const VARIABLE_KEY = MONITOR_KIND.setFields.find((set) => set.path.length === 1 && set.path[0] === 'PredefinedVariables')?.key;

/** Whether a live variable's value is the text `resolve` writes for a vault reference: `{{vault:<target>}}`, built for no comparison. */
function isVaultText(value: unknown, target: string): boolean {
  return typeof value === 'string' && value.length === target.length + 10 && value.startsWith('{{vault:') && value.startsWith(target, 8) && value.endsWith('}}');
}

/**
 * `resolvedSame` of `PredefinedVariables`, for the usual case only: the declared variables in the live order and with
 * distinct keys, each holding the live scalars, a vault reference the live `{{vault:<guid>}}` text. That is what the
 * generic comparison of the resolved copy finds equal first (`sameInOrder`). Anything else (another order, a
 * placeholder, a missing variable) is "not proven", left to the full comparison.
 */
function variablesSame(declared: unknown, live: unknown, resolver: Resolver): boolean {
  if (VARIABLE_KEY === undefined || !Array.isArray(declared) || !Array.isArray(live) || declared.length !== live.length) return false;
  for (let i = 0; i < declared.length; i += 1) {
    const variable: unknown = declared[i];
    const candidate: unknown = live[i];
    if (!isPlainObject(variable) || !isPlainObject(candidate)) return false;
    const key = variable[VARIABLE_KEY];
    if (typeof key !== 'string' || candidate[VARIABLE_KEY] !== key) return false;
    for (let j = 0; j < i; j += 1) if ((declared[j] as ApiObject)[VARIABLE_KEY] === key) return false;
    for (const field in variable) {
      const value = variable[field];
      const current = candidate[field];
      if (value === current && (typeof value !== 'object' || value === null)) continue;
      const vault = field === 'Value' ? vaultKeyOf(variable) : undefined;
      if (vault === undefined || !isVaultText(current, resolver.guidOf(VAULT_ITEM, vault) ?? vault)) return false;
    }
  }
  return true;
}

// Matching builds an entry for each of 100,000 monitors at account scale, most without variables: the loops below
// go by index (a for...of allocates for each step until it is optimised), and such a monitor gets `NO_REFS`.

/** Vault GUIDs (or keys, in placeholders) a monitor's variables refer to. */
export function vaultReferencesIn(fields: ApiObject): string[] {
  const found: string[] = [];
  const list = variables(fields);
  for (let i = 0; i < list.length; i += 1) {
    const variable = list[i];
    if (!isPlainObject(variable)) continue;
    const value = variable.Value;
    if (isVaultRef(value)) found.push(value.vault);
    else if (typeof value === 'string') for (const match of value.matchAll(VAULT_IN_VALUE)) if (match[1] !== undefined) found.push(match[1]);
  }
  return found;
}

function vaultGuidRefs(fields: ApiObject): readonly GuidRef[] {
  if (variables(fields).length === 0) return NO_REFS;
  return vaultReferencesIn(fields).map((guid) => ({ kind: VAULT_ITEM, guid }));
}

/** The vault items a declaration's variables name, by key (`{ vault: 'Section/Item' }`). */
function vaultKeyRefs(fields: ApiObject): readonly KeyRef[] {
  const list = variables(fields);
  let refs: KeyRef[] | undefined;
  for (let i = 0; i < list.length; i += 1) {
    const key = vaultKeyOf(list[i]);
    if (key !== undefined) (refs ??= []).push({ kind: VAULT_ITEM, key });
  }
  return refs ?? NO_REFS;
}

/**
 * A pruned monitor's DELETE that the service refused: `delete` is the removal strategy, so nothing else is tried.
 * The message names the strategies that work on such a service.
 */
export class MonitorDeleteRefusedError extends Error {
  readonly code = 'MONITOR_DELETE_REFUSED';
  constructor(key: string, guid: string, status: number) {
    super(
      `the service refused DELETE /Monitor/${guid} (${status}) for monitor ${JSON.stringify(key)}, and manage.monitors.removal is "delete". ` +
        'Set removal to "auto" (delete where the service allows it, retire where it refuses) or "deactivate" (always retire: IsActive and ' +
        'GenerateAlert off, marked monsync:retired= in Notes) in monsync.yaml, or delete the monitor in the web app',
    );
    this.name = 'MonitorDeleteRefusedError';
  }
}

function statusOf(error: unknown): number | undefined {
  const status = typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined;
  return typeof status === 'number' ? status : undefined;
}

/**
 * The status of a DELETE the service refused as a route it does not have: 405, or 404 for a monitor a GET still
 * finds (a service without the route may answer 404 for it). `undefined` for any other failure, a 404 of a monitor
 * that is gone included.
 */
async function deleteRefused(client: WriteClient, guid: string, error: unknown): Promise<number | undefined> {
  const status = statusOf(error);
  if (status === 405) return 405;
  if (status !== 404) return undefined;
  try {
    await client.monitors.get(guid);
    return 404;
  } catch (lookup) {
    if (statusOf(lookup) === 404) return undefined;
    throw lookup;
  }
}

function retireBodyOf(step: PlanStep): ApiObject {
  if (step.desired === undefined) throw new Error(`step ${step.id} retires a monitor but carries no body; make the plan again with this version of monsync`);
  return step.desired;
}

export const monitorKind: KindModule = {
  ...MONITOR_KIND,
  serverDefaults: {
    IsActive: true,
    GenerateAlert: true,
    ErrorConditions: [],
    PredefinedVariables: [],
    UserAgent: 'ChromeLatest',
    MonitorMode: 'Production',
  },
  builtFrom: ['monitor'],
  // The service never returns a password or token, and returns a variable's value in clear: a fingerprint in Notes
  // is how a rotated secret plans an update (as vault items do), and its references are how pull writes them back.
  marker: { field: 'Notes', name: 'fp', refs: describeSecretRefs },
  // The type of a monitor is chosen once, at creation; the service has no default for it.
  requiredOnCreate: ['MonitorType'],
  read: {
    list: (client) => client.monitors.list(),
    cursorChain: true,
    check: (snapshot, scope) => checkMonitorsWhole(snapshot, scope.kinds.includes(GROUP_MEMBERSHIP_KIND.kind)),
    // Ten thousand members checked after the last listing would be the read's last work: they are checked as soon as
    // the member listings are in, while the people's listings (queued after them) are still under way.
    checkReads: [MONITOR_GROUP_KIND.kind, GROUP_MEMBERSHIP_KIND.kind],
  },
  // The spec lists no DELETE /Monitor/{guid}: where the service refuses it, a pruned monitor is retired instead.
  // Retired, it also lets go of its PredefinedVariables: a {{vault:...}} reference would keep the service from deleting
  // the vault item (400 "in use"), which is pruned in the same apply when the monitor was its last user, and a retired
  // monitor has no use for credentials. Revived, it gets the variables its declaration has.
  retire: { field: 'Notes', retired: { IsActive: false, GenerateAlert: false, PredefinedVariables: [] }, revived: { IsActive: true, GenerateAlert: true } },
  references: {
    field: 'PredefinedVariables',
    kinds: [VAULT_ITEM],
    // PATCH replaces the whole list, so the list sent is all that stays: the declared entries, each keeping the live
    // fields it leaves out (a variable declared without its Value keeps the live reference). An omitted list leaves
    // the live one alone.
    after(live, declared) {
      if (!('PredefinedVariables' in declared)) return live.refs;
      return vaultReferencesIn(withLiveOmissions(declared, live.fields, monitorKind)).map((guid) => ({ kind: VAULT_ITEM, guid }));
    },
  },

  desired(state) {
    return state.monitors.map(({ value, source }) => {
      const fields = apiFields(value);
      const guid = pinned(value, 'MonitorGuid');
      return desiredEntry('monitor', value.Name, fields, source, vaultKeyRefs(fields), guid === undefined ? undefined : { pinnedGuid: guid });
    });
  },

  live(snapshot) {
    return listed(snapshot, 'monitor').map((fields) => liveEntry('monitor', str(fields, 'Name') ?? '', idOf(fields, 'MonitorGuid'), fields, vaultGuidRefs(fields)));
  },

  /** `{ vault: 'Section/Item' }` becomes `{{vault:<guid>}}`, or `{{vault:Section/Item}}` when the item is created in this plan. */
  resolve(entry, resolver) {
    const list = entry.fields.PredefinedVariables;
    if (!Array.isArray(list) || !holdsVaultRef(list)) return entry.fields;
    const resolved = list.map((variable: unknown) => {
      if (!isPlainObject(variable) || !isVaultRef(variable.Value)) return variable;
      const guid = resolver.guidOf(VAULT_ITEM, variable.Value.vault);
      return { ...variable, Value: `{{vault:${guid ?? variable.Value.vault}}}` };
    });
    return { ...entry.fields, PredefinedVariables: resolved };
  },

  resolvedSame: { fields: ['PredefinedVariables'], same: (_field, declared, live, resolver) => variablesSame(declared, live, resolver) },

  lastModified(live) {
    // Properties set, not spread: this runs for each monitor an update is planned for, mostly in code not yet optimised.
    const modified: { date?: string; operatorId?: string } = {};
    const date = str(live.fields, 'LastModifiedDate');
    const operatorId = str(live.fields, 'LastModifiedByOperatorId');
    if (date !== undefined) modified.date = date;
    if (operatorId !== undefined) modified.operatorId = operatorId;
    return modified;
  },

  requests: {
    async create(client, _step, body) {
      const created = await client.monitors.create(body);
      return idOf(created, 'MonitorGuid');
    },
    async update(client, step, body) {
      await client.monitors.patch(requireGuid(step.guid, step.id), body);
    },
    async delete(client, step) {
      const guid = requireGuid(step.guid, step.id);
      if (step.removal === 'deactivate') {
        await client.monitors.patch(guid, retireBodyOf(step));
        return 'retired (removal: deactivate)';
      }
      try {
        await client.monitors.delete(guid);
        return undefined;
      } catch (error) {
        // A step without a strategy (from a plan made before strategies existed) is a plain delete.
        const refused = step.removal === undefined ? undefined : await deleteRefused(client, guid, error);
        if (refused === undefined) throw error;
        if (step.removal !== 'auto') throw new MonitorDeleteRefusedError(step.key, guid, refused);
        await client.monitors.patch(guid, retireBodyOf(step));
        return `retired: the service refused DELETE (${refused})`;
      }
    },
    find(client, step) {
      return findOne(client.monitors.list(), (m) => m.Name === step.key, 'MonitorGuid');
    },
  },
};

/** What the spec guarantees a non-administrator with view-data permission reading a monitor, and nothing more. */
export const NON_ADMINISTRATOR_MONITOR_FIELDS: readonly string[] = ['MonitorGuid', 'Name', 'MonitorType', 'MonitorMode', 'IsActive', 'GenerateAlert'];

const SHOWN_MISSING = 3;

/**
 * A monitor listing that is not the whole account must never be planned from: every monitor it lacks would be
 * created again, and its memberships deleted. Two cheap signs, from data already read: monitors carrying only the
 * fields a non-administrator gets (such an account sees only the monitors it may view), and group member
 * listings naming monitors the monitor listing did not return (the listing was cut short, or is partial).
 */
function checkMonitorsWhole(snapshot: LiveSnapshot, membersRead: boolean): void {
  const monitors = listed(snapshot, 'monitor');
  const restricted = new Set(NON_ADMINISTRATOR_MONITOR_FIELDS);
  if (monitors.length > 0 && monitors.every((m) => Object.keys(m).every((field) => restricted.has(field)))) {
    throw new LiveReadError('monitors', undefined, {
      code: 'LIVE_RESTRICTED',
      message:
        `the API account reads monitors with only the fields a non-administrator gets (${NON_ADMINISTRATOR_MONITOR_FIELDS.join(', ')}; no LastModifiedDate, ` +
        'CreatedDate, settings or variables): it is not an account administrator, so it sees only the monitors it has view-data permission on, ' +
        'and a plan would create monitors that exist and miss every setting. No plan was made; use the API account of an account administrator',
    });
  }
  if (membersRead) checkMembersListed(snapshot, monitors);
}

function checkMembersListed(snapshot: LiveSnapshot, monitors: readonly ApiObject[]): void {
  const members = listedPerParent(snapshot, GROUP_MEMBERSHIP_KIND.kind);
  // Member GUIDs come from the same service as the listing, so they nearly always match as they are; the
  // case-insensitive set is built only for one that does not (this runs on the read's critical path, at its end).
  const exact = new Set(monitors.map((m) => idOf(m, 'MonitorGuid')));
  let lower: Set<string> | undefined;
  const isListedLoosely = (guid: string): boolean => (lower ??= new Set([...exact].map((g) => g.toLowerCase()))).has(guid.toLowerCase());
  const shown: string[] = [];
  let groups = 0;
  const missing = new Set<string>();
  for (const group of listed(snapshot, MONITOR_GROUP_KIND.kind)) {
    const groupGuid = idOf(group, 'MonitorGroupGuid');
    // A loop, not map/filter: ten thousand members are checked and nearly all are listed.
    const absent: string[] = [];
    for (const member of members[groupGuid] ?? []) {
      const guid = idOf(member, 'MonitorGuid');
      if (!exact.has(guid) && !isListedLoosely(guid)) absent.push(guid);
    }
    if (absent.length === 0) continue;
    for (const guid of absent) missing.add(guid.toLowerCase());
    groups += 1;
    if (shown.length < SHOWN_MISSING) shown.push(`monitor group "${idOf(group, 'Description')}" (${groupGuid}) has member ${absent.slice(0, 2).join(', ')}${absent.length > 2 ? ` and ${absent.length - 2} more` : ''}`);
  }
  if (missing.size === 0) return;
  if (groups > shown.length) shown.push(`and ${groups - shown.length} more groups`);
  throw new LiveReadError('monitors', undefined, {
    code: 'LIVE_INCOMPLETE',
    message:
      `the monitor listing is incomplete: group member listings name ${missing.size} monitor${missing.size === 1 ? '' : 's'} that GET /Monitor did not return (${shown.join('; ')}). ` +
      'Either the API account cannot see the whole account (it is not an account administrator), or the listing was cut short (a later page came back empty). ' +
      'A plan from it would create monitors that exist and delete their memberships, so no plan was made; use the API account of an account administrator and run again',
  });
}
