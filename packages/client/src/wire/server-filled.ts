/**
 * What the service fills in by itself, so that a plan never turns it into a change:
 * - fields of an object the config leaves out are not compared at all (IsActive, GenerateAlert, MonitorMode,
 *   UserAgent, CheckInterval, Hash, Credits, SelectedCheckpoints, ...: whatever the service returns);
 * - entries of a keyed list the service adds when they are missing. The reconciler leaves a live entry listed
 *   here alone while the config does not declare its key (no removal is planned, and an update keeps it), and
 *   manages it like any other entry once the config declares it.
 */
export interface ServerAddedEntries {
  readonly kind: 'monitor';
  /** The list field, and the field that keys its entries. */
  readonly field: string;
  readonly key: string;
  readonly values: readonly string[];
  readonly source: string;
}

export const SERVER_ADDED_ENTRIES: readonly ServerAddedEntries[] = [
  // The service returns both load-time conditions on every monitor, adding them when a write leaves them out.
  { kind: 'monitor', field: 'ErrorConditions', key: 'ErrorConditionType', values: ['LoadTimeLimit1', 'LoadTimeLimit2'], source: 'P26' },
];

/** The keys the service adds to `field` of `kind` (empty when none). */
export function serverAddedKeys(kind: string, field: string): readonly string[] {
  return SERVER_ADDED_ENTRIES.find((entry) => entry.kind === kind && entry.field === field)?.values ?? [];
}
