import type { WireKind } from '@monsync/client/wire';
import type { MigrationProblemCode } from './codes.js';

/** One `ErrorConditions` entry written by the migration (field names are the API's, sent verbatim). */
export interface MigrationErrorCondition {
  ErrorConditionType: string;
  Value?: string;
  Percentage?: string;
  Effect?: 'Error' | 'Indicate';
}

export type MigrationSeverity = 'error' | 'warning' | 'info';

export interface MigrationLocation {
  file: string;
  line: number;
  column: number;
}

/** Shaped like the loader's diagnostics so the CLI can print both the same way. */
export interface MigrationProblem extends MigrationLocation {
  severity: MigrationSeverity;
  /** SCREAMING_SNAKE, stable: scripts and tests match on it (see MIGRATION_PROBLEM_CODES). */
  code: MigrationProblemCode;
  message: string;
  /** Other places the message refers to (e.g. the existing entry a conflict is with). */
  related?: MigrationLocation[];
}

/** One monitor rewritten (or, in check mode, that would be rewritten). Positions refer to the file before the rewrite. */
export interface MigrationChange extends MigrationLocation {
  /** The monitor's `Name`, or `monitors[<index>]` when it has none. */
  monitor: string;
  /** Removed fields taken out of the monitor, in source order. */
  removed: string[];
  /** Entries added to `ErrorConditions` (empty when every removed field was dropped or already present). */
  added: MigrationErrorCondition[];
}

/**
 * One field or value renamed from the spec's (or the v3 API's) spelling to the service's published one
 * (`@monsync/client/wire`, FIELD_RENAMES and VALUE_RENAMES). Positions refer to the file before the rewrite.
 */
export interface MigrationRename extends MigrationLocation {
  kind: WireKind;
  /** The object's `Name`, `Description` or `key`, or `<list>[<index>]`. */
  object: string;
  what: 'field' | 'value';
  /** The field renamed, or the field whose value is renamed. */
  field: string;
  from: string;
  to: string;
  /** The number, when the two fields count in different units. */
  converted?: { from: number; to: number };
}

export interface MigrationResult {
  changes: MigrationChange[];
  /** Spellings rewritten to the published ones. */
  renames: MigrationRename[];
  problems: MigrationProblem[];
  /** Files rewritten on disk; in check or dry-run mode, the files that would be. */
  filesChanged: string[];
}

export interface MigrateOptions {
  /** Report only: nothing is written, and `migrationExitCode` gives 1 when anything would change. */
  check?: boolean;
  /** Defaults to true unless `check` is set; false gives a dry run. */
  write?: boolean;
}
