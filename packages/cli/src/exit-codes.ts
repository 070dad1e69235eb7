/** Exit codes of every command (docs/architecture.md, Apply). */
export const ExitCode = {
  /** Success; for `plan`, also "no changes". */
  Ok: 0,
  /** Any error: bad arguments, invalid config, an API failure. */
  Error: 1,
  /** `plan --detailed-exitcode` only: the plan has changes. */
  Changes: 2,
  /** The plan is unsafe (safety thresholds) or a saved plan is stale. */
  UnsafeOrStale: 3,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
