import type { WireKind } from '@monsync/client/wire';
import { MONITOR_KIND, SCHEDULED_REPORT_KIND, SLA_KIND } from './kinds.js';
import type { PathSegment } from './yaml-source.js';

/** The config's lists whose entries are API objects with renamed fields or values, by the wire kind of their entries. */
export const WIRE_KIND_OF_LIST: Readonly<Record<string, WireKind>> = Object.fromEntries(
  [MONITOR_KIND, SLA_KIND, SCHEDULED_REPORT_KIND].map((entry) => [entry.path[0], entry.kind]),
);

/** The wire kind of the object holding the last segment of `path`, when it is a top-level field of such an entry. */
export function wireKindAt(path: readonly PathSegment[]): WireKind | undefined {
  if (path.length !== 3 || typeof path[0] !== 'string' || typeof path[1] !== 'number') return undefined;
  return Object.hasOwn(WIRE_KIND_OF_LIST, path[0]) ? WIRE_KIND_OF_LIST[path[0]] : undefined;
}
