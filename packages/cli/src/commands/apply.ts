import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import {
  applyPlan,
  checkedClientOptions,
  compareSavedPlan,
  expectedPlan,
  planPipeline,
  planTarget,
  readAndPlan,
  refusalLines,
  stepDifferences,
  targetMismatch,
  type FreshPlan,
  type ReadAndPlanOptions,
  type StepDifference,
  DEFAULT_PARALLELISM,
  MAX_PARALLELISM,
  openSession as openPlanSession,
  renderText,
  resolveSecrets,
  SecretChangedError,
  unsafeAdvice,
  violationLines,
  DEFAULT_LOCK_TIMEOUT_MS,
  DUPLICATE_REASON,
  recordSelfAfterApply,
  SELF_SECTION_NAME,
  ROTATION_REASON,
  type ApplyLock,
  type ApplyReport,
  type Plan,
  type PlanSession,
  type PlanStep,
  type StepEvent,
} from '@monsync/reconciler';
import { parseDuration, takeApplyLock } from '../apply-lock.js';
import { interruptedExitCode } from '../interrupt.js';
import { KIND_ENTRIES, OUTPUT_FORMAT_VERSION, type ApplyOutcome, type ApplyResult } from '@monsync/schema';
import { readPlanFile } from '../plan-file.js';
import { booleanOption, jsonOption, listOption, stringOption } from '../args.js';
import { ALLOW_UNSAFE_OPTIONS, allowUnsafe } from '../allow-unsafe.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { resolveConfigDir } from '../config-dir.js';
import { UsageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { isInteractive, jsonDocument, style, useColor, type CliIo, type Style } from '../io.js';
import { displayPath, loadTree } from '../load.js';
import { plainLines, plainText, shownValue } from '@monsync/reconciler/escape';
import { ROTATE_OPTION, TARGET_OPTION } from './plan.js';
import { parseTarget } from '../targets.js';
import { combineHooks, hookRelay, readProgress, readUnder, verboseHooks, type RequestHooks } from '../request-log.js';

/** A terminal `io` may bring its own way to ask (tests do); otherwise the question goes to the process's terminal. */
export interface PromptingIo extends CliIo {
  prompt?(question: string): Promise<string>;
}

/** Each kind's name for people, from the kind registry. */
const TITLES = new Map<string, string>(KIND_ENTRIES.map((entry) => [entry.kind, entry.title.one]));

const PAST: Record<PlanStep['action'], string> = { create: 'created', update: 'updated', delete: 'deleted', ensure: 'ensured' };
const SIGN: Record<PlanStep['action'], string> = { create: '+', update: '~', delete: '-', ensure: '=' };

function label(step: { kind: PlanStep['kind']; key: string }): string {
  // Escaped as the plan shows it: a key from the live account may hold a newline or a terminal escape.
  return `${TITLES.get(step.kind) ?? step.kind} ${shownValue(step.key)}`;
}

function changeSteps(plan: Plan): PlanStep[] {
  return plan.steps.filter((s) => s.action !== 'ensure');
}

function parseParallelism(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_PARALLELISM;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > MAX_PARALLELISM) {
    throw new UsageError(`option --parallelism: '${raw}' is not a whole number from 1 to ${MAX_PARALLELISM}`, 'apply');
  }
  return n;
}

/** Who changed the object outside git, from the fresh step's drift. */
function changedBy(step: PlanStep): string {
  const drift = step.drift;
  if (drift === undefined) return '';
  const name = drift.operatorName ?? drift.lastModifiedByOperatorId;
  return ` (changed outside git${name === undefined ? '' : ` by ${name}`}${drift.lastModifiedDate === undefined ? '' : ` at ${drift.lastModifiedDate}`})`;
}

/** One line per step that differs between a saved plan and one made now (`compareSavedPlan`). */
export function differenceLines(differences: readonly StepDifference[]): string[] {
  return differences.map(({ change, step }) => {
    if (change === 'new') return `${label(step)}: now needs a ${step.action} the saved plan does not hold${changedBy(step)}`;
    if (change === 'differs') return `${label(step)}: its ${step.action} differs from the saved plan's${changedBy(step)}`;
    return `${label(step)}: the saved ${step.action} is no longer needed, or no longer possible`;
  });
}

export async function ask(io: PromptingIo, question: string): Promise<string> {
  if (io.prompt !== undefined) return io.prompt(question);
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}

/** On a terminal one rewritten line (done/total, in flight, failures); elsewhere one line per finished step. */
function applyDisplay(io: CliIo, s: Style, total: number) {
  const live = isInteractive(io);
  let drawn = false;
  let last = 0;
  const line = (e: StepEvent) => {
    const p = e.progress;
    return `applying: ${p.done}/${total} done, ${p.inFlight} in flight${p.failed > 0 ? s.red(`, ${p.failed} failed`) : ''}${p.skipped > 0 ? s.yellow(`, ${p.skipped} skipped`) : ''}`;
  };
  const clear = () => {
    if (drawn) io.stderr.write('\r\u001b[K');
    drawn = false;
  };
  const stepLine = (e: StepEvent): string | undefined => {
    if (e.type === 'done') {
      const guid = e.step.action === 'create' && e.result.guid !== undefined ? ` (${plainText(e.result.guid)})` : '';
      const note = e.result.note === undefined ? '' : s.dim(` [${plainText(e.result.note)}]`);
      return `  ${SIGN[e.step.action]} ${label(e.step)} ${PAST[e.step.action]}${guid}${note}`;
    }
    if (e.type === 'failed') return s.red(`  ! ${label(e.step)}: ${e.step.action} failed: ${plainText(e.result.message)}`);
    if (e.type === 'skipped') return s.yellow(`  ! ${label(e.step)}: ${e.step.action} skipped, it waits for ${plainText(e.result.waitedFor)}, which failed`);
    if (e.type === 'retry') return s.dim(`  ${label(e.step)}: ${e.step.action} tried again (${plainText(e.reason)})`);
    return undefined;
  };
  return {
    onStep(e: StepEvent) {
      if (!live) {
        const text = stepLine(e);
        if (text !== undefined) io.stderr.write(`${text}\n`);
        return;
      }
      // Failures stay on screen above the live line; successes only move the counter.
      if (e.type === 'failed' || e.type === 'skipped') {
        clear();
        io.stderr.write(`${stepLine(e) ?? ''}\n`);
      }
      const now = Date.now();
      if (now - last < 80 && e.type !== 'failed' && e.progress.done !== total) return;
      last = now;
      io.stderr.write(`\r\u001b[K${line(e)}`);
      drawn = true;
    },
    done: clear,
  };
}

function counts(steps: readonly { action: PlanStep['action'] }[]): string {
  const by = { create: 0, update: 0, delete: 0, ensure: 0 };
  for (const step of steps) by[step.action] += 1;
  const parts = (['create', 'update', 'delete', 'ensure'] as const).filter((a) => by[a] > 0).map((a) => `${by[a]} ${PAST[a]}`);
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

/** Steps a summary names one by one before it only counts the rest. */
const MAX_LISTED = 20;

/** The apply's outcome: counts, then what failed, was skipped, was still under way or never ran. */
function summary(report: ApplyReport, s: Style, stopped: boolean): string {
  const seconds = (report.durationMs / 1000).toFixed(1);
  const head = report.ok ? s.green('Apply complete') : s.red(report.failed.length > 0 && !stopped ? 'Apply finished with failures' : 'Apply stopped');
  const lines = [
    `${head}: ${report.done.length} of ${report.total} steps done${counts(report.done)}, ${report.failed.length} failed, ${report.skipped.length} skipped${report.notRun.length > 0 ? `, ${report.notRun.length} not run` : ''}, in ${seconds}s.`,
  ];
  if (report.failed.length > 0) {
    lines.push('Failed:');
    for (const f of report.failed) lines.push(`  ${label(f)} (${f.action}): ${plainText(f.message)}`);
  }
  if (report.skipped.length > 0) {
    lines.push('Skipped, because a step they depend on failed:');
    for (const k of report.skipped) lines.push(`  ${label(k)} (${k.action}): waited for ${plainText(k.waitedFor)}${k.via === undefined ? '' : ` through ${plainText(k.via)}`}`);
  }
  const unsettled = report.unsettled ?? [];
  if (unsettled.length > 0) {
    lines.push(`Still under way when the apply stopped waiting, outcome unknown (a plan shows what they did):`);
    lines.push(...listed(unsettled));
  }
  if (report.notRun.length > 0) {
    lines.push(`Not run: ${report.notRun.length} step${report.notRun.length === 1 ? '' : 's'} (the apply was stopped):`);
    lines.push(...listed(report.notRun));
  }
  if (stopped) lines.push('Run monsync apply again to finish: what is done stays done, and only the rest is planned.');
  else if (!report.ok) lines.push('Run monsync apply again once the cause is fixed: what is done stays done, and only the rest is planned.');
  return `${lines.join('\n')}\n`;
}

/** Steps as lines, at most `MAX_LISTED` and then how many more. */
function listed(steps: readonly { action: PlanStep['action']; kind: PlanStep['kind']; key: string }[]): string[] {
  const lines = steps.slice(0, MAX_LISTED).map((step) => `  ${SIGN[step.action]} ${label(step)} (${step.action})`);
  if (steps.length > MAX_LISTED) lines.push(`  ... and ${steps.length - MAX_LISTED} more`);
  return lines;
}

interface Session extends PlanSession {
  configDir: string;
  /** Request hooks in effect: reading progress while reading, only `--verbose` while applying. */
  setHooks(hooks: RequestHooks | undefined): void;
  /** Plans keep the oldest of live objects sharing a key and delete the others (`--dedupe`, or a saved plan made so). */
  dedupe: boolean;
  /** `--rotate` patterns, and the objects a saved plan rotates. */
  rotate: readonly string[];
  /** `--target` patterns: every plan of the run (under the lock, --verify) is narrowed the same way. */
  targets: readonly string[];
  /** What the run did, for `--json`. */
  record: Recorded;
}

/** What `--json` reports, filled in as the run goes. */
interface Recorded {
  plan?: Plan;
  report?: ApplyReport;
  remaining?: number;
  cancelled?: boolean;
}

/**
 * Apply's run of the pipeline (`planPipeline`): the tree loaded, the session opened (kept open to apply), the account
 * read (again where a listing's outcome was unclear) and planned. Undefined when the tree has errors.
 */
async function openAndPlan(context: CommandContext, flags: ApplyFlags, saved: Plan | undefined): Promise<{ session: Session; fresh: FreshPlan } | undefined> {
  const { io, global } = context;
  const dir = resolveConfigDir(io.cwd, global.config);
  const verbose = global.verbose ? verboseHooks(io) : undefined;
  const relay = hookRelay();
  relay.listen(verbose);
  // A saved plan made with plan --dedupe is checked against a fresh plan made the same way.
  const dedupe = flags.dedupe || (saved?.steps.some((step) => step.reason?.startsWith(DUPLICATE_REASON) === true) ?? false);
  // A saved plan made with --rotate is checked against a fresh plan rotating the same objects.
  const rotate = [...flags.rotate, ...(saved?.steps.filter((step) => step.reason?.includes(ROTATION_REASON) === true).map((step) => `${step.kind}:${step.key}`) ?? [])];
  const result = await planPipeline<Session>(
    {
      load: async () => (await loadTree(dir, io, { needSecrets: true })).desired,
      open: (desired) => ({
        ...openPlanSession(desired, {
          client: checkedClientOptions(io.env, { parallelism: Math.max(DEFAULT_PARALLELISM, flags.parallelism), ...relay.client }),
          fingerprintKey: io.env['MONSYNC_FINGERPRINT_KEY'],
          operator: io.env['MONSYNC_OPERATOR'],
          onWarning: (message) => void io.stderr.write(`warning: ${plainText(message)}\n`),
        }),
        configDir: dir,
        setHooks: (extra) => relay.listen(combineHooks(extra, verbose)),
        dedupe,
        rotate,
        targets: flags.targets,
        record: {},
      }),
    },
    readOptions(io, 'reading live account', dedupe, rotate, flags.targets),
  );
  return result === undefined ? undefined : { session: result.session, fresh: result };
}

/** How apply reads: again where a listing's outcome was unclear, with progress; a failed read closes the session, finally. */
function readOptions(io: CliIo, what: string, dedupe: boolean, rotate: readonly string[], targets: readonly string[]): ReadAndPlanOptions<Session> {
  return {
    rereadOnUnclear: true,
    dedupe,
    rotate,
    ...(targets.length > 0 ? { targets } : {}),
    around: async (read, session) => {
      const progress = readProgress(io, what);
      session.setHooks(progress);
      try {
        return await readUnder(progress, what, read, session.close);
      } finally {
        session.setHooks(undefined);
      }
    },
  };
}

/** The account read and planned again on the open session (under the lock, and to verify). */
function planNow(io: CliIo, session: Session, what: string): Promise<FreshPlan> {
  return readAndPlan(session, readOptions(io, what, session.dedupe, session.rotate, session.targets));
}

/** A secret that changed since planning explains a changed config digest more precisely than "the config changed". */
function changedSecret(saved: Plan, session: Session): SecretChangedError | undefined {
  try {
    resolveSecrets(saved, { desired: session.desired, key: session.key });
  } catch (error) {
    if (error instanceof SecretChangedError) return error;
  }
  return undefined;
}

/** What `run` needs of the command line. */
interface ApplyFlags {
  planFile: string | undefined;
  parallelism: number;
  autoApprove: boolean;
  allowUnsafe: boolean;
  replan: boolean;
  verify: boolean;
  noLock: boolean;
  dedupe: boolean;
  rotate: string[];
  targets: string[];
  lockTimeoutMs: number;
  /** `--expect-digest`: the `planDigest` of the plan that was reviewed; any other plan is refused. */
  expectDigest: string | undefined;
}

function applyFlags(values: CommandContext['values'], positionals: readonly string[], io: CommandContext['io']): ApplyFlags {
  const raw = stringOption(values, 'lock-timeout');
  const noLock = booleanOption(values, 'no-lock');
  if (noLock && raw !== undefined) throw new UsageError('--lock-timeout and --no-lock cannot be used together: without the lock there is nothing to wait for', 'apply');
  const flags: ApplyFlags = {
    planFile: positionals[0],
    parallelism: parseParallelism(stringOption(values, 'parallelism')),
    autoApprove: booleanOption(values, 'auto-approve'),
    allowUnsafe: allowUnsafe(values, io),
    replan: booleanOption(values, 'replan'),
    verify: booleanOption(values, 'verify'),
    noLock,
    dedupe: booleanOption(values, 'dedupe'),
    rotate: listOption(values, 'rotate'),
    targets: listOption(values, 'target'),
    lockTimeoutMs: raw === undefined ? DEFAULT_LOCK_TIMEOUT_MS : parseDuration(raw, '--lock-timeout', 'apply'),
    expectDigest: stringOption(values, 'expect-digest')?.trim().toLowerCase(),
  };
  if (flags.expectDigest !== undefined && !/^[0-9a-f]{64}$/.test(flags.expectDigest)) {
    throw new UsageError(`--expect-digest ${JSON.stringify(flags.expectDigest)} is not a plan digest: pass the 64 hex digits of planDigest from monsync plan (its last line, or --format json)`, 'apply');
  }
  for (const target of flags.targets) parseTarget(target, 'apply');
  if (flags.targets.length > 0 && flags.planFile !== undefined) {
    throw new UsageError('--target narrows a plan made now; a saved plan is applied as it was made (make it with monsync plan --target ... --out FILE)', 'apply');
  }
  if (flags.replan && flags.planFile === undefined) throw new UsageError('--replan applies to a saved plan: monsync apply PLANFILE --replan', 'apply');
  return flags;
}

/**
 * A saved plan made against another service or with another API account is refused before anything is read: its
 * digests may match another account in the same state, and planning again (`--replan`) would not make it the plan
 * that was reviewed. Exit 1: the environment is wrong, not the plan stale. Credentials that cannot be read are left to
 * the session, which names every missing variable.
 */
function targetRefusal(io: CliIo, s: Style, planFile: string, saved: Plan): number | undefined {
  if (saved.target === undefined) return undefined;
  let options: ReturnType<typeof checkedClientOptions>;
  try {
    options = checkedClientOptions(io.env);
  } catch {
    return undefined;
  }
  const why = targetMismatch(saved.target, planTarget(options.baseUrl, options.username));
  if (why === undefined) return undefined;
  const shown = displayPath(io.cwd, resolve(io.cwd, planFile));
  io.stderr.write(
    s.red(`apply refused: ${shown} is a plan for another target: ${why}.`) +
      `
Check MONSYNC_API_URL and MONSYNC_API_USERNAME, or make and review a plan for this account (monsync plan --out ${shown}). Nothing was read or changed.
`,
  );
  return ExitCode.Error;
}

/**
 * The plan to apply: the fresh one, or the saved one when the config tree and the account are unchanged since it
 * was made and its steps match a fresh plan. An exit code when apply refuses.
 */
function choosePlan(io: CliIo, s: Style, session: Session, flags: ApplyFlags, saved: Plan | undefined, fresh: FreshPlan): Plan | number {
  const planFile = flags.planFile;
  if (saved === undefined || planFile === undefined) return fresh.plan;
  const shown = displayPath(io.cwd, resolve(io.cwd, planFile));
  const instead = (why: string) => {
    io.stderr.write(s.yellow(`${why} since ${shown} was made; applying a fresh plan instead (--replan):`) + '\n');
    return fresh.plan;
  };
  const refuse = (why: string, detail: string) => {
    io.stderr.write(s.red(`apply refused: ${why}`) + `\n${detail}Make and review a new plan (monsync plan --out ${shown}), or run monsync apply ${shown} --replan.\n`);
    return ExitCode.UnsafeOrStale;
  };
  const configLabel = displayPath(io.cwd, session.configDir);
  const comparison = compareSavedPlan(saved, fresh);
  switch (comparison.status) {
    case 'current':
      return saved;
    case 'config-changed': {
      // Terraform refuses a saved plan whose configuration changed: the file no longer says what the tree says.
      const secret = changedSecret(saved, session);
      if (flags.replan) return instead(secret === undefined ? `the config tree ${configLabel} changed` : 'a secret changed');
      if (secret !== undefined) {
        io.stderr.write(s.red(`apply refused: ${plainLines(secret.message)}`) + '\n');
        return ExitCode.UnsafeOrStale;
      }
      return refuse(`the config tree ${configLabel} changed since ${shown} was made (or the plan was made from another tree), so it is not the plan that was reviewed.`, '');
    }
    case 'live-changed':
      if (flags.replan) return instead('the live account changed');
      return refuse(`the live account changed since ${shown} was made, so it is not the plan that was reviewed. What changed:`, `${changedLines(differenceLines(comparison.differences))}\n`);
    case 'steps-differ': {
      if (flags.replan) return instead('the steps of the file do not match a fresh plan');
      const differences = differenceLines(comparison.differences);
      const detail = differences.length > 0 ? differences.map((line) => `  ${line}`).join('\n') : '  its summary or safety check (safe, violations)';
      return refuse(
        `the steps of ${shown} do not match a fresh plan of the same config tree and live account: the file was edited after planning, or made by another version of monsync. What differs:`,
        `${detail}\n`,
      );
    }
  }
}

/**
 * `--expect-digest`: the plan about to be applied must be the reviewed one, compared by its normalized change (the
 * order of steps, GUIDs and read times do not count). Exit 3 otherwise, as for a stale saved plan.
 */
function digestRefusal(io: CliIo, s: Style, flags: ApplyFlags, plan: Plan): number | undefined {
  if (flags.expectDigest === undefined || plan.planDigest === flags.expectDigest) return undefined;
  io.stderr.write(
    s.red(`apply refused: the plan made now (planDigest ${plan.planDigest ?? 'none'}) is not the reviewed one (--expect-digest ${flags.expectDigest}); nothing was changed.`) +
      '\nThe config tree or the live account changed since that plan was made: review what a plan shows now (monsync plan; --format json carries its digests) and apply with its digest.\n',
  );
  return ExitCode.UnsafeOrStale;
}

function changedLines(changed: readonly string[]): string {
  return changed.length > 0 ? changed.map((line) => `  ${line}`).join('\n') : '  objects or fields the plan does not touch (for instance a field the config leaves undeclared)';
}

/** Shows the plan and lets it through, or says why not: nothing to do (exit 0), unsafe (exit 3), not confirmed (exit 1). */
async function review(io: PromptingIo, s: Style, session: Session, flags: ApplyFlags, plan: Plan): Promise<number | undefined> {
  session.record.plan = plan;
  io.stdout.write(renderText(plan, { color: useColor(io) }));
  if (plan.steps.length === 0) {
    io.stdout.write('Nothing to apply: the account matches the config.\n');
    // A first apply of a pulled tree changes nothing, and is where monsync learns who it is.
    await rememberSelf(io, s, session);
    return ExitCode.Ok;
  }
  const refused = refusalLines(plan);
  if (refused.length > 0) {
    io.stderr.write(s.red('apply refused, nothing was changed (no option allows this, not --allow-unsafe either):') + `\n${refused.join('\n')}\n`);
    return ExitCode.Error;
  }
  if (!plan.safe && !flags.allowUnsafe) {
    const lines = violationLines(plan.violations);
    io.stderr.write(s.red('apply refused: the plan is unsafe (over the safety thresholds of monsync.yaml):') + `\n${lines.join('\n')}\n${unsafeAdvice(plan.violations)}\n`);
    return ExitCode.UnsafeOrStale;
  }
  if (!flags.autoApprove) {
    const changes = changeSteps(plan).length;
    const answer = await ask(io, `\nApply ${changes} change${changes === 1 ? '' : 's'}${counts(plan.steps)} to ${session.apiUrl}?\nOnly 'yes' is accepted: `);
    if (answer.trim() !== 'yes') {
      session.record.cancelled = true;
      io.stderr.write('Apply cancelled; nothing was changed.\n');
      return ExitCode.Error;
    }
  }
  return undefined;
}

/**
 * Under the lock the account is read again: another apply may have written between the plan and the lock (the
 * plan was made without it, so that a refused or cancelled apply writes nothing). Unchanged, the reviewed plan
 * goes ahead; changed, a saved plan is refused as stale, and otherwise the plan made now is shown and reviewed.
 */
async function recheckUnderLock(io: PromptingIo, s: Style, session: Session, flags: ApplyFlags, saved: Plan | undefined, plan: Plan): Promise<Plan | number> {
  const fresh = await planNow(io, session, 'reading live account under the apply lock');
  if (fresh.plan.liveDigest === plan.liveDigest && fresh.plan.configDigest === plan.configDigest) return plan;
  if (saved !== undefined && flags.planFile !== undefined && !flags.replan) {
    const shown = displayPath(io.cwd, resolve(io.cwd, flags.planFile));
    io.stderr.write(
      s.red(`apply refused: the live account changed since ${shown} was made (another apply wrote to it before this one took the apply lock), so it is not the plan that was reviewed. What changed:`) +
        `\n${changedLines(differenceLines(stepDifferences(saved, expectedPlan(saved, fresh))))}\nMake and review a new plan (monsync plan --out ${shown}), or run monsync apply ${shown} --replan.\n`,
    );
    return ExitCode.UnsafeOrStale;
  }
  io.stderr.write(s.yellow('the live account changed since the plan was made (another apply wrote to it before this one took the apply lock); the plan made now:') + '\n');
  const refused = await review(io, s, session, flags, fresh.plan);
  return refused ?? fresh.plan;
}

/** How long a stopped apply waits for the requests under way before it releases the lock and exits. */
export const SETTLE_MS = 10_000;

/** Applies the plan, prints the summary and, with --verify, plans again. */
async function execute(io: PromptingIo, s: Style, session: Session, flags: ApplyFlags, plan: Plan): Promise<number> {
  const display = applyDisplay(io, s, plan.steps.length);
  const signal = stopSignal(io);
  let report: ApplyReport;
  try {
    report = await applyPlan(plan, session.client, {
      parallelism: flags.parallelism,
      secrets: { desired: session.desired, key: session.key },
      onStep: display.onStep,
      ...(signal === undefined ? {} : { signal, settleMs: SETTLE_MS }),
    });
  } catch (error) {
    if (error instanceof SecretChangedError) {
      io.stderr.write(s.red(`apply refused: ${plainLines(error.message)}`) + '\n');
      return ExitCode.UnsafeOrStale;
    }
    throw error;
  } finally {
    display.done();
  }
  session.record.plan = plan;
  session.record.report = report;
  const interrupted = interruptedExitCode(io);
  io.stdout.write(summary(report, s, interrupted !== undefined || signal?.aborted === true));
  if (interrupted !== undefined) return interrupted;
  if (!report.ok) return ExitCode.Error;
  await rememberSelf(io, s, session);
  if (!flags.verify) return ExitCode.Ok;
  const after = (await planNow(io, session, 'verifying: reading live account')).plan;
  const remaining = changeSteps(after);
  session.record.remaining = remaining.length;
  if (remaining.length > 0) {
    io.stdout.write(renderText(after, { color: useColor(io) }));
    io.stderr.write(s.red(`verify failed: ${remaining.length} change${remaining.length === 1 ? '' : 's'} remain after apply: ${remaining.map((r) => `${r.action} ${label(r)}`).join(', ')}`) + '\n');
    return ExitCode.Error;
  }
  io.stdout.write(s.green('Verified: a new plan shows no changes.') + '\n');
  return ExitCode.Ok;
}

/**
 * With no operator named, after an apply that did its work (or had none to do): has the service record which operator the API
 * account acts for (`recordSelf`), so the next plans tell monsync's own changes from others'. Said once, when made.
 */
async function rememberSelf(io: CliIo, s: Style, session: Session): Promise<void> {
  const recorded = await recordSelfAfterApply(session);
  if (recorded === undefined) return;
  if ('failed' in recorded) {
    io.stderr.write(
      s.yellow(`warning: monsync could not have the service record which operator the API account acts for (${recorded.failed}); name it with apiOperator: <Email or OperatorGuid> in monsync.yaml, so that plans tell its own changes from others'`) + '\n',
    );
  } else if (recorded.created) {
    io.stderr.write(`The API account acts for operator ${recorded.operator}: recorded in the vault section "${SELF_SECTION_NAME}" (its creator), so plans tell monsync's own changes from others'.\n`);
  }
}

/** Gives the lock back; a lock left behind is said loudly, with the command that removes it, and fails the run. */
async function release(io: CliIo, s: Style, lock: ApplyLock): Promise<boolean> {
  try {
    await lock.release();
    return true;
  } catch (error) {
    io.stderr.write(s.red(`monsync apply: ${plainText(error instanceof Error ? error.message : String(error))}`) + '\n');
    return false;
  }
}

/** The signal that stops an apply: Ctrl-C or SIGTERM (`io.interrupts`), or the caller's (`io.signal`). */
function stopSignal(io: CliIo): AbortSignal | undefined {
  return io.interrupts?.signal ?? io.signal;
}

/**
 * Runs the writing part of apply with Ctrl-C and SIGTERM caught (`interrupt.ts`): the first stops it between steps
 * and it releases the lock; a second exits at once, saying the lock is left and how to break it.
 */
function guarded(io: CliIo, flags: ApplyFlags, work: (held: { lock?: ApplyLock }) => Promise<number>): Promise<number> {
  const held: { lock?: ApplyLock } = {};
  if (io.interrupts === undefined) return work(held);
  const stopping = `starting no new step, letting the requests under way finish (at most ${SETTLE_MS / 1000}s)${flags.noLock ? '' : ', then releasing the apply lock'}`;
  const leftBehind = (): string => {
    if (flags.noLock) return 'Requests under way may still be carried out: run monsync plan to see what was done.';
    const lock = held.lock;
    if (lock === undefined) return 'The lock object this apply was announcing may be left in the account: monsync unlock --force removes it.';
    return `The apply lock ${lock.guid} is left in the account (lease until ${lock.record.expires}), so the next apply waits for it: break it with monsync unlock ${lock.guid} --force.`;
  };
  return io.interrupts.guard({ stopping, leftBehind }, () => work(held));
}

/** Takes the apply lock, applies under it and releases it, stopped or not. */
async function underLock(io: PromptingIo, s: Style, session: Session, flags: ApplyFlags, saved: Plan | undefined, chosen: Plan, held: { lock?: ApplyLock }): Promise<number> {
  const signal = stopSignal(io);
  try {
    held.lock = await takeApplyLock(io, s, session.client, flags.lockTimeoutMs, signal);
  } catch (error) {
    const interrupted = interruptedExitCode(io);
    if (interrupted === undefined) throw error;
    io.stderr.write(`Apply stopped while taking the apply lock: nothing was changed${error instanceof Error ? ` (${error.message})` : ''}.\n`);
    return interrupted;
  }
  const lock = held.lock;
  let code: number = ExitCode.Error;
  try {
    if (signal?.aborted === true) {
      io.stderr.write('Apply stopped once it held the apply lock, before any change: nothing was changed.\n');
      code = interruptedExitCode(io) ?? ExitCode.Error;
    } else {
      const plan = await recheckUnderLock(io, s, session, flags, saved, chosen);
      code = typeof plan === 'number' ? plan : (digestRefusal(io, s, flags, plan) ?? (await execute(io, s, session, flags, plan)));
    }
  } finally {
    const released = await release(io, s, lock);
    if (!released && code === ExitCode.Ok) code = ExitCode.Error;
    if (released && interruptedExitCode(io) !== undefined) io.stderr.write(`The apply lock was released: the next apply starts at once.\n`);
  }
  return code;
}

/** What apply --json prints (schemas/apply.schema.json), from the exit code and what the run recorded. */
function applyResult(code: number, record: Recorded): ApplyResult {
  const outcome: ApplyOutcome =
    code === ExitCode.Ok
      ? record.report === undefined
        ? 'no-changes'
        : 'applied'
      : record.cancelled === true
        ? 'cancelled'
        : record.report !== undefined && (!record.report.ok || (record.remaining ?? 0) > 0 || code === ExitCode.Error)
          ? 'failed'
          : 'refused';
  const { plan, report, remaining } = record;
  return {
    formatVersion: OUTPUT_FORMAT_VERSION,
    outcome,
    exitCode: code,
    ...(plan?.planDigest !== undefined ? { planDigest: plan.planDigest } : {}),
    ...(plan !== undefined ? { summary: plan.summary } : {}),
    ...(report !== undefined ? { report: { ok: report.ok, total: report.total, durationMs: Math.round(report.durationMs), done: report.done, failed: report.failed.map(({ serviceMessage: _said, ...failed }) => failed), skipped: report.skipped, notRun: report.notRun.length } } : {}),
    ...(remaining !== undefined ? { remaining } : {}),
  };
}

/** One apply; `record` is undefined when it stopped before a plan (an invalid tree). */
async function applyRun(context: CommandContext): Promise<{ code: number; record?: Recorded }> {
  const { io, values, positionals } = context;
  const s = style(useColor(io));
  const flags = applyFlags(values, positionals, io);
  if (!io.isTTY && !flags.autoApprove) {
    io.stderr.write(s.red('monsync apply: not on a terminal, so there is nobody to confirm; review the plan (monsync plan) and pass --auto-approve to apply without asking.') + '\n');
    return { code: ExitCode.Error };
  }
  const saved = flags.planFile === undefined ? undefined : await readPlanFile(io, flags.planFile);
  const wrongTarget = saved === undefined || flags.planFile === undefined ? undefined : targetRefusal(io, s, flags.planFile, saved);
  if (wrongTarget !== undefined) return { code: wrongTarget };

  const opened = await openAndPlan(context, flags, saved);
  if (opened === undefined) return { code: ExitCode.Error };
  const { session, fresh } = opened;
  session.record.plan = saved ?? fresh.plan;
  const done = (code: number) => ({ code, record: session.record });
  try {
    const chosen = choosePlan(io, s, session, flags, saved, fresh);
    if (typeof chosen === 'number') return done(chosen);
    const refused = digestRefusal(io, s, flags, chosen) ?? (await review(io, s, session, flags, chosen));
    if (refused !== undefined) return done(refused);
    return done(await guarded(io, flags, (held) => (flags.noLock ? execute(io, s, session, flags, chosen) : underLock(io, s, session, flags, saved, chosen, held))));
  } finally {
    // Requests a stopped apply gave up waiting for would hold the connections' closing: the process ends anyway.
    await (interruptedExitCode(io) === undefined ? session.close() : Promise.race([session.close(), new Promise((settled) => setTimeout(settled, 1_000).unref())]));
  }
}

export const applyCommand: CommandSpec = {
  name: 'apply',
  summary: 'apply a plan to the live account: plan now, or a plan saved with plan --out',
  usage: 'apply [PLANFILE] [--auto-approve] [--allow-unsafe] [--target kind:key ...] [--expect-digest HEX] [--parallelism N] [--verify] [--replan] [--dedupe] [--rotate kind:key ...] [--lock-timeout DURATION | --no-lock] [--json]',
  description:
    'Without PLANFILE, plans (as monsync plan does), shows the plan, asks for confirmation and applies it. With\n' +
    'PLANFILE (from monsync plan --out), reads the config tree and the live account again and refuses with exit 3\n' +
    'when either changed since the plan was made (naming what changed in the account), or when the file\'s steps do\n' +
    'not match a fresh plan of the same tree and account (an edited file); --replan shows and applies a fresh plan\n' +
    'instead. A saved plan records the API URL and (hashed) API account it was made with, and is refused with exit 1,\n' +
    '--replan or not, when MONSYNC_API_URL or MONSYNC_API_USERNAME name another. Secrets are read again from their\n' +
    'sources and must match the fingerprints in the plan. An unsafe plan\n' +
    '(safety thresholds) is refused without --allow-unsafe; a plan that deletes or retires a protected object\n' +    '(protect:) or breaks a policy rule of severity error is refused whatever the options (exit 1). On a terminal apply\n' +
    'asks before changing anything; elsewhere --auto-approve is required. --target narrows the plan as plan --target\n' +
    'does (the matching steps and the steps they depend on); a narrowed plan that would leave a live object referring to\n' +
    'one it deletes is refused (TARGET_ORPHANS), naming the targets to add. --expect-digest refuses (exit 3) unless the plan about to be applied has\n' +
    'that planDigest (the last line of monsync plan, or its --format json): the normalized change, so step order, GUIDs and read times do not count.\n' +
    'Before its first write apply takes the apply lock, an SLA named "monsync apply lock (do not edit) ..." in the\n' +
    'account that records who holds it (host, user, MONSYNC_OPERATOR, CI run) and since when, so two applies never\n' +
    'write at once. While another apply holds it, apply waits (--lock-timeout) naming the holder, then reads the\n' +
    'account again: when the other apply changed it, a saved plan is refused as stale and a fresh one is shown\n' +
    'instead. Ctrl-C or SIGTERM stops apply between steps: it starts no new step, waits up to 10s for the requests\n' +
    'under way, releases the lock, lists what was done and what was not, and exits 130 (143 for SIGTERM); a second\n' +
    'Ctrl-C exits at once and leaves the lock, saying how to break it. A lock left by an apply that crashed is broken\n' +
    'with monsync unlock. Plans never take the lock, and plans, pulls and safety counts never see it.\n' +
    'Independent steps run in parallel; a failed step skips the steps that depend on it, and running apply again\n' +
    'finishes the job without duplicating anything.\n' +
    'Environment: MONSYNC_API_URL, MONSYNC_API_USERNAME, MONSYNC_API_PASSWORD (required); MONSYNC_OPERATOR;\n' +
    'MONSYNC_FINGERPRINT_KEY (as for monsync plan).\n' +
    'With --json, stdout is one JSON document (schemas/apply.schema.json): the outcome (applied, no-changes, refused,\n' +
    'cancelled, failed), the exit code, the plan\'s digest and summary, and the report of every step; the plan and the\n' +
    'progress go to stderr.\n' +
    'Exit codes: 0 applied (or nothing to do), 1 error, a refused plan, a step failed, or the lock is held; 3 plan unsafe,\n' +
    'stale, not the expected digest, or a secret changed; 130 stopped by Ctrl-C, 143 by SIGTERM.',
  options: {
    'auto-approve': { type: 'boolean', description: 'apply without asking (required when not on a terminal, e.g. in CI)' },
    ...ALLOW_UNSAFE_OPTIONS,
    target: TARGET_OPTION,
    'expect-digest': { type: 'string', value: 'HEX', description: 'apply only a plan whose planDigest (the last line of monsync plan) is HEX, the one reviewed; otherwise exit 3' },
    parallelism: { type: 'string', value: 'N', description: `steps run at once, 1 to ${MAX_PARALLELISM} (default ${DEFAULT_PARALLELISM})` },
    verify: { type: 'boolean', description: 'plan again after applying and fail (exit 1) if anything remains to change' },
    replan: { type: 'boolean', description: 'with PLANFILE: when the config tree or the live account changed since the plan, show and apply a fresh plan instead of refusing' },
    'lock-timeout': { type: 'string', value: 'DURATION', description: `how long to wait while another apply holds the apply lock, e.g. 30s, 10m; 0 fails at once (default ${DEFAULT_LOCK_TIMEOUT_MS / 60_000}m)` },
    dedupe: { type: 'boolean', description: 'plan as monsync plan --dedupe does: where live objects share a declared key, keep the oldest and delete (or retire) the others' },
    rotate: ROTATE_OPTION,
    'no-lock': { type: 'boolean', description: 'apply without the apply lock (when the API account may not create SLAs); nothing then stops two applies from duplicating objects' },
    json: jsonOption('apply'),
  },
  positionals: { min: 0, max: 1, names: 'PLANFILE', complete: 'file' },
  examples: ['monsync apply --auto-approve --verify', 'monsync apply --target "monitor:Shop *"', 'monsync plan --out plan.json && monsync apply plan.json --auto-approve', 'monsync apply --auto-approve --lock-timeout 15m'],
  async run(context) {
    if (!booleanOption(context.values, 'json')) return (await applyRun(context)).code;
    // With --json everything for people (the plan, progress, the summary) goes to stderr: stdout is one JSON document.
    const human: PromptingIo = { ...context.io, stdout: context.io.stderr };
    const { code, record } = await applyRun({ ...context, io: human });
    if (record !== undefined) context.io.stdout.write(jsonDocument(applyResult(code, record)));
    return code;
  },
};
