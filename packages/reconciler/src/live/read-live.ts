/**
 * readLive: the fewest requests that describe the managed part of the account. One listing per kind (the
 * monitor listing follows its cursors), per-parent listings (group members, SLA exclusion periods) all started
 * at once and bounded by the client's own concurrency limit, and never one GET per object.
 */
import { isLockObject } from '../lock/record.js';
import { LiveReadError } from '../plan/errors.js';
import type { ApiObject, LiveClient, LiveScope, LiveSnapshot, Listing } from './types.js';
import type { StepKind } from '../plan/types.js';

async function all(what: string, listing: () => Listing<ApiObject>): Promise<ApiObject[]> {
  try {
    return await listing().toArray();
  } catch (error) {
    throw new LiveReadError(what, error);
  }
}

/**
 * A counting semaphore for the per-parent listings. They are queued by the hundred; in the client's FIFO limiter
 * they would make every page of the monitor cursor chain (the read's critical path: each page needs the one before)
 * wait behind all of them. Holding them to one slot fewer than the client's limit keeps a slot for the chain.
 */
function fanOut(width: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= width) await new Promise<void>((resolve) => waiting.push(resolve));
    else active += 1;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  };
}

function text(object: ApiObject, field: string): string {
  const value = object[field];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

function isForbidden(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { status?: unknown }).status === 403;
}

export function emptySnapshot(): LiveSnapshot {
  return {
    read: [],
    monitors: [],
    monitorGroups: [],
    groupMembers: {},
    vaultSections: [],
    vaultItems: [],
    slas: [],
    exclusionPeriods: {},
    scheduledReports: [],
    operators: null,
  };
}

export async function readLive(client: LiveClient, scope: LiveScope): Promise<LiveSnapshot> {
  const want = (kind: StepKind): boolean => scope.kinds.includes(kind);
  const snapshot = emptySnapshot();
  const tasks: Promise<void>[] = [];
  const perParent = fanOut(Math.max(1, (client.parallelism ?? 8) - (want('monitor') ? 1 : 0)));

  if (want('monitor')) {
    tasks.push(all('monitors', () => client.monitors.list()).then((items) => void (snapshot.monitors = items)));
  }
  if (want('monitorGroup') || want('groupMembership')) {
    tasks.push(
      all('monitor groups', () => client.monitorGroups.list()).then(async (groups) => {
        snapshot.monitorGroups = groups;
        if (!want('groupMembership')) return;
        // The All Monitors group holds every monitor and its membership cannot change: nothing to read there.
        const parents = groups.filter((g) => g.IsAll !== true);
        const members = await Promise.all(
          parents.map((g) =>
            perParent(() => all(`members of monitor group "${text(g, 'Description')}" (${text(g, 'MonitorGroupGuid')})`, () => client.monitorGroups.members(text(g, 'MonitorGroupGuid')))),
          ),
        );
        parents.forEach((g, i) => {
          snapshot.groupMembers[text(g, 'MonitorGroupGuid')] = (members[i] ?? []).map((m) => text(m, 'MonitorGuid'));
        });
      }),
    );
  }
  if (want('vaultSection')) {
    tasks.push(all('vault sections', () => client.vaultSections.list()).then((items) => void (snapshot.vaultSections = items)));
  }
  if (want('vaultItem')) {
    tasks.push(all('vault items', () => client.vaultItems.list()).then((items) => void (snapshot.vaultItems = items)));
  }
  if (want('sla') || want('slaExclusionPeriod')) {
    tasks.push(
      all('SLAs', () => client.slas.list()).then(async (listed) => {
        // The apply lock is an SLA (lock/apply-lock.ts): no plan, pull or safety count may see it.
        const slas = listed.filter((s) => !isLockObject(s));
        snapshot.slas = slas;
        if (!want('slaExclusionPeriod')) return;
        const periods = await Promise.all(
          slas.map((s) =>
            perParent(() => all(`exclusion periods of SLA "${text(s, 'Description')}" (${text(s, 'SlaGuid')})`, () => client.slas.exclusionPeriods.list(text(s, 'SlaGuid')))),
          ),
        );
        slas.forEach((s, i) => {
          snapshot.exclusionPeriods[text(s, 'SlaGuid')] = periods[i] ?? [];
        });
      }),
    );
  }
  if (want('scheduledReport')) {
    tasks.push(all('scheduled reports', () => client.scheduledReports.list()).then((items) => void (snapshot.scheduledReports = items)));
  }
  if (scope.operators) {
    tasks.push(
      client.operators
        .list()
        .toArray()
        .then(
          (items) => void (snapshot.operators = items),
          (error: unknown) => {
            // Operators only name who changed an object; without the right to read them, drift shows operator ids.
            if (isForbidden(error)) return;
            throw new LiveReadError('operators', error);
          },
        ),
    );
  }

  await Promise.all(tasks);
  if (want('monitor')) checkMonitorsWhole(snapshot, want('groupMembership'));
  snapshot.read = [...scope.kinds];
  return snapshot;
}

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
  const restricted = new Set(NON_ADMINISTRATOR_MONITOR_FIELDS);
  if (snapshot.monitors.length > 0 && snapshot.monitors.every((m) => Object.keys(m).every((field) => restricted.has(field)))) {
    throw new LiveReadError('monitors', undefined, {
      code: 'LIVE_RESTRICTED',
      message:
        `the API account reads monitors with only the fields a non-administrator gets (${NON_ADMINISTRATOR_MONITOR_FIELDS.join(', ')}; no LastModifiedDate, ` +
        'CreatedDate, settings or variables): it is not an account administrator, so it sees only the monitors it has view-data permission on, ' +
        'and a plan would create monitors that exist and miss every setting. No plan was made; use the API account of an account administrator',
    });
  }
  if (!membersRead) return;
  // Member GUIDs come from the same service as the listing, so they nearly always match as they are; the
  // case-insensitive set is built only for one that does not (this runs on the read's critical path, at its end).
  const exact = new Set(snapshot.monitors.map((m) => text(m, 'MonitorGuid')));
  let lower: Set<string> | undefined;
  const isListed = (guid: string): boolean => exact.has(guid) || (lower ??= new Set([...exact].map((g) => g.toLowerCase()))).has(guid.toLowerCase());
  const shown: string[] = [];
  let groups = 0;
  const missing = new Set<string>();
  for (const group of snapshot.monitorGroups) {
    const groupGuid = text(group, 'MonitorGroupGuid');
    const absent = (snapshot.groupMembers[groupGuid] ?? []).filter((guid) => !isListed(guid));
    if (absent.length === 0) continue;
    for (const guid of absent) missing.add(guid.toLowerCase());
    groups += 1;
    if (shown.length < SHOWN_MISSING) shown.push(`monitor group "${text(group, 'Description')}" (${groupGuid}) has member ${absent.slice(0, 2).join(', ')}${absent.length > 2 ? ` and ${absent.length - 2} more` : ''}`);
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
