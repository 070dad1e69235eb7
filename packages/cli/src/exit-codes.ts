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

/**
 * What each exit code means, in the one wording `monsync --help`, README.md and the CLI's README use (a test holds
 * the READMEs to it). Commands say in their own help what each code means for them.
 */
export const EXIT_CODE_MEANINGS: Readonly<Record<ExitCode, string>> = {
  0: 'success; for plan, no changes (or changes, without --detailed-exitcode)',
  1: 'an error: bad arguments, an invalid tree, a missing secret, an API failure, a plan refused by a guardrail; migrate --check with work to do',
  2: 'plan --detailed-exitcode: the plan has creates, updates or deletes (ensure steps do not count)',
  3: 'the plan is unsafe (past the safety thresholds, refused without --allow-unsafe), stale (the account or the tree changed since it was made), or not the reviewed one (apply --expect-digest); nothing was applied',
};
