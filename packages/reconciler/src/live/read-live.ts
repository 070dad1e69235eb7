/**
 * readLive: the fewest requests that describe the managed part of the account. One listing per kind (the
 * monitor listing follows its cursors), per-parent listings (group members, SLA exclusion periods) all started
 * at once and bounded by the client's own concurrency limit, and never one GET per object.
 */
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
          parents.map((g) => all(`members of monitor group "${text(g, 'Description')}" (${text(g, 'MonitorGroupGuid')})`, () => client.monitorGroups.members(text(g, 'MonitorGroupGuid')))),
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
      all('SLAs', () => client.slas.list()).then(async (slas) => {
        snapshot.slas = slas;
        if (!want('slaExclusionPeriod')) return;
        const periods = await Promise.all(
          slas.map((s) => all(`exclusion periods of SLA "${text(s, 'Description')}" (${text(s, 'SlaGuid')})`, () => client.slas.exclusionPeriods.list(text(s, 'SlaGuid')))),
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
  snapshot.read = [...scope.kinds];
  return snapshot;
}
