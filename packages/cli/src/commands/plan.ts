import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { checkedClientOptions, hasChanges, openSession, planPipeline, refusalLines, unsafeAdvice, violationLines, type Plan } from '@monsync/reconciler';
import { booleanOption, listOption, stringOption } from '../args.js';
import { ALLOW_UNSAFE_OPTIONS, allowUnsafe } from '../allow-unsafe.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { resolveConfigDir } from '../config-dir.js';
import { ExitCode } from '../exit-codes.js';
import { style, useColor } from '../io.js';
import { displayPath, loadTree } from '../load.js';
import { plainText } from '@monsync/reconciler/escape';
import { PLAN_FORMAT_OPTIONS, planFormat, planJson, renderPlan } from '../renderers.js';
import { combineHooks, hookRelay, readProgress, readUnder, verboseHooks } from '../request-log.js';
import { parseTarget } from '../targets.js';

/** `--rotate`, for plan and apply alike. */
export const ROTATE_OPTION = {
  type: 'string',
  multiple: true,
  value: 'KIND:KEY',
  description:
    'send the write-once fields of the matching objects again (globs * and ?): an operator\'s Password and the settings the service does not return (CultureName, UseNumericSender, AllowNativeLogin, AllowSingleSignon), e.g. "operator:sam@example.com"',
} as const;

/** `--target`, for plan and apply alike. */
export const TARGET_OPTION = {
  type: 'string',
  multiple: true,
  value: 'KIND:KEY',
  description: 'only the matching steps (globs * and ?) and the steps they depend on, e.g. "monitor:Shop *" or "groupMembership:Shop/*"',
} as const;

/** `monsync plan`'s run of the pipeline (`planPipeline`): findings on stderr, progress while reading, the client closed after it. */
export async function computePlan(context: CommandContext, targets: readonly string[], dedupe = false, rotate: readonly string[] = []): Promise<{ plan: Plan } | { exitCode: number }> {
  const { io, global } = context;
  for (const target of targets) parseTarget(target);
  const dir = resolveConfigDir(io.cwd, global.config);
  // Credentials, then secrets, then the client, before the read is announced: a missing variable fails fast and offline.
  const relay = hookRelay();
  const result = await planPipeline(
    {
      load: async () => (await loadTree(dir, io, { needSecrets: true, policyErrorsBlock: false })).desired,
      open: (desired) =>
        openSession(desired, {
          client: checkedClientOptions(io.env, relay.client),
          fingerprintKey: io.env['MONSYNC_FINGERPRINT_KEY'],
          operator: io.env['MONSYNC_OPERATOR'],
          onWarning: (message) => void io.stderr.write(`warning: ${plainText(message)}\n`),
        }),
    },
    {
      targets,
      dedupe,
      rotate,
      around: (read, session) => {
        const progress = readProgress(io, 'reading live account');
        relay.listen(combineHooks(progress, global.verbose ? verboseHooks(io) : undefined));
        return readUnder(progress, 'reading live account', read, session.close);
      },
    },
  );
  if (result === undefined) return { exitCode: ExitCode.Error };
  await result.session.close();
  return { plan: result.plan };
}

export const planCommand: CommandSpec = {
  name: 'plan',
  summary: 'compare the config tree with the live account and show what apply would change',
  usage: 'plan [--format text|markdown|json | --json] [--out FILE] [--detailed-exitcode] [--allow-unsafe] [--target kind:key ...] [--dedupe] [--rotate kind:key ...]',
  description:
    'Validates the tree (any error: exit 1, no API request), reads the live account, and prints the plan:\n' +
    '+ create, ~ update (field before -> after), - delete, = ensure, plus drift made outside git and unmanaged\n' +
    'objects. Secret values never appear: they show as (sensitive).\n' +
    'Two live objects with one declared key are an error (DUPLICATE_LIVE_KEY) listing them; --dedupe plans keeping\n' +
    'the oldest (by CreatedDate where the kind has it) and deleting the others (monitors: by their removal strategy),\n' +
    'under the usual safety thresholds; apply the saved plan, or run monsync apply --dedupe.\n' +
    'Environment: MONSYNC_API_URL, MONSYNC_API_USERNAME, MONSYNC_API_PASSWORD (required); MONSYNC_OPERATOR (GUIDs or\n' +
    'e-mails of the API accounts\' operators, comma-separated: their own changes are not drift); MONSYNC_FINGERPRINT_KEY (key of the\n' +
    'secret fingerprints; derived from the API credentials when unset).\n' +
    'Policy rules (policy: in monsync.yaml) are checked on the tree and on the account after the plan; a plan that\n' +
    'deletes or retires a protected object (protect:) or breaks a rule of severity error is shown, then refused (exit 1).\n' +
    'Exit codes: 0 ok, 1 error (also a refused plan), 2 changes present (with --detailed-exitcode), 3 plan unsafe (safety\n' +
    'thresholds; with --allow-unsafe the plan is shown as unsafe and exits as a safe one would).',
  options: {
    ...PLAN_FORMAT_OPTIONS,
    out: { type: 'string', value: 'FILE', description: 'also save the plan as JSON to FILE (for review, or for `monsync apply FILE`)' },
    'detailed-exitcode': { type: 'boolean', description: 'exit 2 when the plan has changes (create, update or delete), 0 when it has none' },
    target: TARGET_OPTION,
    dedupe: { type: 'boolean', description: 'where live objects share a declared key, keep the oldest and delete (or retire) the others, instead of failing' },
    rotate: ROTATE_OPTION,
    ...ALLOW_UNSAFE_OPTIONS,
  },
  examples: ['monsync plan --format markdown --out plan.json --detailed-exitcode > plan.md', 'monsync plan --target "monitor:Shop *"', 'monsync plan --dedupe --out plan.json'],
  async run(context) {
    const { io, values } = context;
    const accepted = allowUnsafe(values, io);
    const format = planFormat(values, 'plan');
    const out = stringOption(values, 'out');
    const result = await computePlan(context, listOption(values, 'target'), booleanOption(values, 'dedupe'), listOption(values, 'rotate'));
    if ('exitCode' in result) return result.exitCode;
    const { plan } = result;
    let planFile: string | undefined;
    if (out !== undefined) {
      const path = resolve(io.cwd, out);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, planJson(plan));
      planFile = displayPath(io.cwd, path);
    }
    io.stdout.write(renderPlan(plan, format, { color: useColor(io), ...(planFile !== undefined ? { planFile } : {}) }));
    const s = style(useColor(io));
    if (planFile !== undefined) io.stderr.write(`plan saved to ${planFile}\n`);
    const refused = refusalLines(plan);
    if (refused.length > 0) {
      // Not the overridable "unsafe" (3): no option makes this plan appliable, so it is an error.
      io.stderr.write(`${s.red('plan refused: apply would write nothing, not even with --allow-unsafe:')}\n${refused.join('\n')}\n`);
      return ExitCode.Error;
    }
    if (!plan.safe && accepted) {
      io.stderr.write(s.yellow('plan is unsafe (over the safety thresholds of monsync.yaml), accepted with --allow-unsafe:') + `\n${violationLines(plan.violations).join('\n')}\napply it with --allow-unsafe too.\n`);
    } else if (!plan.safe) {
      io.stderr.write(s.red('plan is unsafe (over the safety thresholds of monsync.yaml):') + `\n${violationLines(plan.violations).join('\n')}\n${unsafeAdvice(plan.violations)}\n`);
      return ExitCode.UnsafeOrStale;
    }
    return booleanOption(values, 'detailed-exitcode') && hasChanges(plan) ? ExitCode.Changes : ExitCode.Ok;
  },
};
