import type { StepKind } from '../plan/types.js';
import type { ApiObject, LiveSnapshot } from './types.js';

export function emptySnapshot(): LiveSnapshot {
  return { read: [], lists: {}, perParent: {}, operators: null };
}

/** A top-level kind's listing; empty when it was not read (`snapshot.read` tells the two apart). */
export function listed(snapshot: Pick<LiveSnapshot, 'lists'>, kind: StepKind): ApiObject[] {
  return snapshot.lists[kind] ?? [];
}

/** A child kind's listings per parent GUID; empty when they were not read. */
export function listedPerParent(snapshot: Pick<LiveSnapshot, 'perParent'>, kind: StepKind): Record<string, ApiObject[]> {
  return snapshot.perParent[kind] ?? {};
}

/**
 * Whether a parent object is one a scope names (`LiveScope.parents`: keys and GUIDs in lower case), by its GUID or
 * its key field: the parents whose children a per-parent kind is listed under.
 */
export function namedParent(names: readonly string[], guidField: string, keyField: string | undefined): (parent: ApiObject) => boolean {
  const set = new Set(names);
  const text = (parent: ApiObject, field: string): string => {
    const value = parent[field];
    return typeof value === 'string' || typeof value === 'number' ? String(value).toLowerCase() : '';
  };
  return (parent) => set.has(text(parent, guidField)) || (keyField !== undefined && set.has(text(parent, keyField)));
}
