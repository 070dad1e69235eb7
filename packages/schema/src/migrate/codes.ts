/**
 * Every problem code the migration reports, with what it means. Stable: scripts and CI match on them.
 * `error` codes leave the monitor (or file) unchanged; `info` codes describe a rewrite that was done.
 */
export const MIGRATION_PROBLEM_CODES = {
  MIGRATE_CONFLICT: 'error: an existing ErrorConditions entry of the same type holds a different value',
  MIGRATE_FLAG_WITHOUT_VALUE: 'error: an AlertOn... flag (or ExpectedHttpStatusCodeSpecified: true) without its value',
  MIGRATE_VALUE_WITHOUT_FLAG: 'error: a limit without its AlertOn... flag (or a status code without ...Specified)',
  MIGRATE_INVALID_FLAG: 'error: the flag is not true or false',
  MIGRATE_INVALID_VALUE: 'error: the limit is not a number',
  MIGRATE_ERROR_CONDITIONS_NOT_A_LIST: 'error: the monitor has ErrorConditions, but not as a list',
  MIGRATE_RENAME_CONFLICT: 'error: an object has both the spec spelling of a field and the published one',
  MIGRATE_YAML_ALIAS: 'error: a removed field uses a YAML anchor or alias',
  MIGRATE_YAML_ERROR: 'error: the file is not valid YAML (or has duplicate keys)',
  MIGRATE_FILE_TOO_LARGE: 'error: the file is over the 5 MB limit of config files',
  MIGRATE_SYMLINKED_FILE: 'error: a symlinked config file uses removed fields; migrate does not write through links',
  MIGRATE_REWRITE_FAILED: 'error: the rewritten text did not verify; the file was left unchanged',
  MIGRATE_JSON_ERROR: 'error: an export file is not valid JSON',
  MIGRATE_JSON_SHAPE: 'error: an export holds something other than monitor objects',
  MIGRATE_JSON_NO_MONITORS: 'error: the export holds no monitor',
  MIGRATE_NO_ROOT_FILE: 'warning: the folder has no monsync.yaml',
  MIGRATE_HTTP_STATUS_UNSPECIFIED: 'info: ExpectedHttpStatusCodeSpecified was false; both fields dropped, no HttpStatus added',
  MIGRATE_EMPTY_FIELDS_DROPPED: 'info: removed fields with no value were dropped',
  MIGRATE_PERCENTAGE_NOT_SET: 'info: PageElementMaxSizeWithPercentage got no Percentage (the removed fields had none)',
  MIGRATE_COMMENT_DROPPED: 'info: a comment on a removed field that got no ErrorConditions entry was removed with it',
  MIGRATE_PERCENTAGE_COPIED: 'info: FailedObjectPercentage became both Value and Percentage',
  MIGRATE_UNPUBLISHED_FIELD_DROPPED: 'info: a v3 monitor field the published v4 definition has no place for (Tags) was removed; the note names its value',
} as const;

export type MigrationProblemCode = keyof typeof MIGRATION_PROBLEM_CODES;
