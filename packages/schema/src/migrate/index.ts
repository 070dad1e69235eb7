// The migration off the monitor fields the service removed on 2025-08-27 (`monsync migrate`).
export { migrateConfig, MAX_CONFIG_FILE_BYTES } from './migrate-config.js';
export { importLegacyJson, type ImportedSecret, type ImportLegacyJsonOptions, type ImportLegacyJsonResult } from './import-legacy-json.js';
export { migrationExitCode, formatMigrationReport } from './report.js';
export { MigrationError, type MigrationErrorCode } from './errors.js';
export { MIGRATION_PROBLEM_CODES, type MigrationProblemCode } from './codes.js';
export { LEGACY_ERROR_CONDITION_FIELDS, READ_ONLY_MONITOR_FIELDS, type LegacyFieldMapping } from './legacy-fields.js';
export type {
  MigrateOptions,
  MigrationChange,
  MigrationErrorCondition,
  MigrationLocation,
  MigrationProblem,
  MigrationRename,
  MigrationResult,
  MigrationSeverity,
} from './types.js';
