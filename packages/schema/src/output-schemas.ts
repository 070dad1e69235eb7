/**
 * What `--json` prints on stdout for the commands whose result is not a plan (`plan --json` and `show --json` print
 * the plan JSON, `schemas/plan.schema.json`): `monsync validate --json` and `monsync apply --json`. The CLI builds
 * its output from these types, and `schemas/validate.schema.json` and `schemas/apply.schema.json` come from the
 * same objects, so a script reading the output can check it.
 */
import { Type, type Static } from '@sinclair/typebox';
import { PLAN_ACTIONS, PLAN_STEP_KINDS, PlanSummarySchema } from './plan-schema.js';
import { ClosedObject, StringEnum, def } from './schema-builder.js';

/** Version of the `--json` output formats: a renamed or removed field is a new version; an added optional one is not. */
export const OUTPUT_FORMAT_VERSION = 1;

const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const DiagnosticSchema = def(
  'Diagnostic',
  ClosedObject(
    {
      severity: StringEnum(['error', 'warning'] as const, { description: '`error` fails validation (exit 1); `warning` does not.' }),
      code: Type.String({ pattern: '^[A-Z][A-Z0-9_]+$', description: 'SCREAMING_SNAKE code (the schema package README lists them).' }),
      message: Type.String({ description: 'What is wrong, and how to fix it.' }),
      file: Type.String({ description: 'File, as the user would write it (relative to the working directory when inside it).' }),
      line: Type.Integer({ minimum: 1, description: '1-based line.' }),
      column: Type.Integer({ minimum: 1, description: '1-based column.' }),
      endLine: Type.Optional(Type.Integer({ minimum: 1 })),
      endColumn: Type.Optional(Type.Integer({ minimum: 1 })),
      hint: Type.Optional(Type.String({ description: 'What to do about it, when there is more to say.' })),
      rule: Type.Optional(Type.String({ description: 'Policy findings: the name of the rule (`policy:` in monsync.yaml).' })),
    },
    { description: 'One problem found in the config tree. The line of a literal secret is never quoted: messages name positions, not values.' },
  ),
);

export const ValidateResultSchema = ClosedObject(
  {
    formatVersion: Type.Literal(OUTPUT_FORMAT_VERSION, { description: 'Version of this format.' }),
    valid: Type.Boolean({ description: 'True when the tree has no error (warnings allowed): exit 0.' }),
    config: Type.String({ description: 'The config folder, as the user would write it.' }),
    errors: Count('Diagnostics of severity error.'),
    warnings: Count('Diagnostics of severity warning.'),
    declared: Type.Optional(
      Type.Record(Type.String(), Type.Integer({ minimum: 0 }), { description: 'Objects declared per kind (the kind names of plan steps); absent when the tree has errors.' }),
    ),
    diagnostics: Type.Array(DiagnosticSchema, { description: 'Every problem, in file and position order.' }),
  },
  { title: 'monsync validate --json', description: 'The result of `monsync validate --json`.' },
);

const StepRefProperties = {
  id: Type.String({ minLength: 1, description: 'The plan step id.' }),
  action: StringEnum(PLAN_ACTIONS),
  kind: StringEnum(PLAN_STEP_KINDS),
  key: Type.String({ description: 'Natural key of the object.' }),
  guid: Type.Optional(Type.String({ description: 'GUID or id of the object, when known (after a create: the new one).' })),
};

export const ApplyReportSchema = def(
  'ApplyReport',
  ClosedObject(
    {
      ok: Type.Boolean({ description: 'True when every step is done.' }),
      total: Count('Steps in the plan applied.'),
      durationMs: Count('Wall time of the writes, in milliseconds.'),
      done: Type.Array(ClosedObject({ ...StepRefProperties, note: Type.Optional(Type.String({ description: 'How it ended when not plainly, e.g. `already deleted`.' })) }), {
        description: 'Steps carried out.',
      }),
      failed: Type.Array(
        ClosedObject({
          ...StepRefProperties,
          message: Type.String({ description: 'What failed, with the service\'s words; secrets redacted.' }),
          code: Type.Optional(Type.String({ description: 'SCREAMING_SNAKE code of the error.' })),
          status: Type.Optional(Type.Integer({ minimum: 0, description: 'HTTP status; 0 when no response came.' })),
        }),
        { description: 'Steps that failed.' },
      ),
      skipped: Type.Array(
        ClosedObject({
          ...StepRefProperties,
          waitedFor: Type.String({ description: 'The failed step it waited for.' }),
          via: Type.Optional(Type.String({ description: 'The dependency through which it waited, when not `waitedFor` itself.' })),
        }),
        { description: 'Steps not run because a step they depend on failed.' },
      ),
      notRun: Count('Steps never started because the apply was stopped.'),
    },
    { description: 'What the writes did.' },
  ),
);

export const APPLY_OUTCOMES = ['applied', 'no-changes', 'refused', 'cancelled', 'failed'] as const;

export const ApplyResultSchema = ClosedObject(
  {
    formatVersion: Type.Literal(OUTPUT_FORMAT_VERSION, { description: 'Version of this format.' }),
    outcome: StringEnum(APPLY_OUTCOMES, {
      description:
        '`applied`: every step done (and verified, with --verify); `no-changes`: the account matched the config; `refused`: nothing was written ' +
        '(unsafe, stale, not the expected digest, or a guardrail; a lock held past --lock-timeout is an error); `cancelled`: not confirmed; `failed`: a step failed, or --verify found changes left.',
    }),
    exitCode: Type.Integer({ minimum: 0, description: 'The exit code of the run.' }),
    planDigest: Type.Optional(Type.String({ pattern: '^[0-9a-f]{64}$', description: 'planDigest of the plan applied (or refused).' })),
    summary: Type.Optional(PlanSummarySchema),
    report: Type.Optional(ApplyReportSchema),
    remaining: Type.Optional(Count('With --verify: changes a new plan still shows after the apply (0 when verified).')),
  },
  {
    title: 'monsync apply --json',
    description: 'The result of `monsync apply --json`; the plan shown and the progress go to stderr. An error before a plan (bad arguments, an invalid tree, an API failure) prints nothing on stdout, exit 1.',
  },
);

export const PULL_COMMANDS = ['pull', 'pull --into', 'import'] as const;

export const PullResultSchema = ClosedObject(
  {
    formatVersion: Type.Literal(OUTPUT_FORMAT_VERSION, { description: 'Version of this format.' }),
    command: StringEnum(PULL_COMMANDS, { description: 'What wrote the tree: a new one (`pull --out`), the account\'s changes into one (`pull --into`), chosen objects (`import`).' }),
    config: Type.String({ description: 'The tree written to, as the user would write it.' }),
    files: Type.Array(ClosedObject({ path: Type.String({ description: 'Relative to the tree.' }), created: Type.Boolean({ description: 'True for a new file.' }) }), {
      description: 'Files written.',
    }),
    edits: Type.Array(Type.String(), { description: 'What was changed, one line each (`~ monitor "Blog" /IsActive`, `+ monitor "Status page" (new-objects.yaml)`).' }),
    notes: Type.Array(Type.String(), { description: 'What was left as it is, and why.' }),
    secrets: Type.Array(ClosedObject({ env: Type.String({ description: 'The variable a `{ fromEnv }` placeholder names.' }), where: Type.String({ description: 'File and field of the placeholder.' }) }), {
      description: 'Placeholders written for secrets the API never returns: set these variables before planning. Names only, never values.',
    }),
    remaining: Type.Array(Type.String(), { description: 'Steps a plan of the written tree still shows against the same read (what pull cannot write); empty when it plans no changes.' }),
    unread: Type.Optional(
      Type.Array(ClosedObject({ where: Type.String({ description: 'File and object the settings belong to.' }), fields: Type.Array(Type.String(), { description: 'The settings left out.' }) }), {
        description:
          "Settings the API never returns, so pull could not read them and left them out of the tree rather than invent them (an attached integration's IsActive, SendOkAlerts, SendReminderAlerts): declare them to choose, they are sent on attach and with --rotate.",
      }),
    ),
  },
  { title: 'monsync pull --json', description: 'The result of `monsync pull --json` (`--out` or `--into`) and `monsync import --json`; what is printed for people goes to stderr.' },
);

const Position = {
  file: Type.String({ description: 'File, as the user would write it (relative to the working directory when inside it).' }),
  line: Type.Integer({ minimum: 1, description: '1-based line, in the file before the rewrite.' }),
  column: Type.Integer({ minimum: 1, description: '1-based column.' }),
};

export const MIGRATE_MODES = ['rewrite', 'check', 'from-json'] as const;

export const MigrateResultSchema = ClosedObject(
  {
    formatVersion: Type.Literal(OUTPUT_FORMAT_VERSION, { description: 'Version of this format.' }),
    mode: StringEnum(MIGRATE_MODES, { description: '`rewrite`: the tree was rewritten in place; `check`: nothing written (exit 1 when something would change); `from-json`: API exports converted into a new file.' }),
    ok: Type.Boolean({ description: 'True when the run exits 0.' }),
    filesChanged: Type.Array(Type.String(), { description: 'Files rewritten (with --check: that would be; with --from-json: the file written).' }),
    changes: Type.Array(
      ClosedObject({
        ...Position,
        monitor: Type.String({ description: 'The monitor\'s Name, or `monitors[<index>]`.' }),
        removed: Type.Array(Type.String(), { description: 'Removed fields taken out, in source order.' }),
        added: Type.Array(Type.Record(Type.String(), Type.String()), { description: 'ErrorConditions entries added in their place (API field names).' }),
      }),
      { description: 'Monitors moved off the removed fields.' },
    ),
    renames: Type.Array(
      ClosedObject({
        ...Position,
        kind: Type.String({ description: 'Kind of the object (`monitor`, `sla`, ...).' }),
        object: Type.String({ description: 'Its Name, Description or key.' }),
        what: StringEnum(['field', 'value'] as const),
        field: Type.String({ description: 'The field renamed, or whose value is renamed.' }),
        from: Type.String(),
        to: Type.String(),
        converted: Type.Optional(ClosedObject({ from: Type.Number(), to: Type.Number() }, { description: 'The number, when the two spellings count in different units.' })),
      }),
      { description: 'Spec or v3 spellings rewritten to the service\'s.' },
    ),
    problems: Type.Array(
      ClosedObject({
        ...Position,
        severity: StringEnum(['error', 'warning', 'info'] as const),
        code: Type.String({ pattern: '^[A-Z][A-Z0-9_]+$' }),
        message: Type.String(),
      }),
      { description: 'What could not be migrated, or needs a look.' },
    ),
    secrets: Type.Array(ClosedObject({ env: Type.String({ description: 'The variable a `{ fromEnv }` placeholder names.' }), where: Type.String({ description: 'File and field of the placeholder.' }) }), {
      description: 'With --from-json: placeholders written for secrets the export held (names only, never values).',
    }),
  },
  { title: 'monsync migrate --json', description: 'The result of `monsync migrate --json` (with --check or --from-json too).' },
);

export const UNLOCK_OUTCOMES = ['broken', 'none-held', 'refused', 'cancelled'] as const;

export const UnlockResultSchema = ClosedObject(
  {
    formatVersion: Type.Literal(OUTPUT_FORMAT_VERSION, { description: 'Version of this format.' }),
    outcome: StringEnum(UNLOCK_OUTCOMES, {
      description: '`broken`: the lock is gone (exit 0); `none-held`: there was none (exit 0); `refused`: not on a terminal and no --force (exit 1); `cancelled`: not confirmed (exit 1).',
    }),
    lock: Type.Optional(
      ClosedObject({
        guid: Type.String({ description: 'The lock\'s SLA GUID.' }),
        holder: Type.String({ description: 'Who held it, as `user@host since <time> (lease until <time>)`.' }),
        leaseRunning: Type.Boolean({ description: 'True when its lease had not run out: that apply may have been running.' }),
      }),
    ),
  },
  { title: 'monsync unlock --json', description: 'The result of `monsync unlock --json`. An error (no credentials, several locks and none named) prints nothing on stdout, exit 1.' },
);

export const InitResultSchema = ClosedObject(
  {
    formatVersion: Type.Literal(OUTPUT_FORMAT_VERSION, { description: 'Version of this format.' }),
    config: Type.String({ description: 'The config folder, as the user would write it.' }),
    fromLive: Type.Boolean({ description: 'True when the account was pulled into the folder.' }),
    kinds: Type.Array(Type.String(), { description: 'Kinds the new monsync.yaml manages (empty with --from-live: the pulled one says).' }),
    files: Type.Array(Type.String(), { description: 'Files written by init itself (a pulled tree\'s files are reported by pull on stderr).' }),
    gitignoreLinesAdded: Count('Lines added to .gitignore.'),
  },
  { title: 'monsync init --json', description: 'The result of `monsync init --json`; the next steps go to stderr. An error prints nothing on stdout, exit 1.' },
);

export type ValidateResult = Static<typeof ValidateResultSchema>;
export type MigrateResult = Static<typeof MigrateResultSchema>;
export type UnlockResult = Static<typeof UnlockResultSchema>;
export type InitResult = Static<typeof InitResultSchema>;
export type PullResult = Static<typeof PullResultSchema>;
export type ApplyResult = Static<typeof ApplyResultSchema>;
export type ApplyOutcome = (typeof APPLY_OUTCOMES)[number];
