export type MigrationErrorCode =
  | 'MIGRATE_INPUT_NOT_FOUND'
  | 'MIGRATE_INPUT_NOT_A_DIRECTORY'
  | 'MIGRATE_OUT_EXISTS'
  | 'MIGRATE_OUT_NOT_YAML';

/** Bad input to the migration as a whole (the per-monitor findings are problems in the result, not throws). */
export class MigrationError extends Error {
  readonly code: MigrationErrorCode;

  constructor(code: MigrationErrorCode, message: string) {
    super(message);
    this.name = 'MigrationError';
    this.code = code;
  }
}
