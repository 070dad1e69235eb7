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
