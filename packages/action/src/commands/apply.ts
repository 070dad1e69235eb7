import * as core from '@actions/core';
import { hostname } from 'node:os';
import {
  acquireApplyLock,
  applyPlan,
  refusalLines,
  DEFAULT_PARALLELISM,
  describeHolder,
  lockOwner,
  plainText,
  recordSelfAfterApply,
  SELF_SECTION_NAME,
  stepTitle,
  unsafeAdvice,
  violationLines,
  type ApplyReport,
  type Plan,
  type PlanSession,
  type StepEvent,
} from '@monsync/reconciler';
import { ACTION_OVERRIDE, applyBody, applyHeadline, COMMENT_BUDGET, HOW_TO_APPLY_UNREVIEWED, holdReasonText, SUMMARY_BUDGET, type ApplyOutcome, type ReviewNote } from '../bodies.js';
import { upsertComment } from '../comment-upsert.js';
import { failureMessage } from '../failure.js';
import type { GitHub } from '../github-api.js';
import { repoOf } from '../github-context.js';
import { tokenLogin } from '../identity.js';
import { writeJobSummary } from '../job-summary.js';
import { applyMarker } from '../markers.js';
import { setPlanOutputs, writeArtifactFiles, writePlanFile } from '../outputs.js';
import { gateOf, readReview, type Gate, type Review } from '../review-gate.js';
import { actionSession, loadTree } from '../tree.js';
import type { CommandRun } from './context.js';
import { bodyContext, gitHubOrWarn, planNow, requireApiInputs } from './shared.js';

const SIGN: Record<string, string> = { create: '+', update: '~', delete: '-', ensure: '=' };

/** One log line per finished step and per create tried again, as `monsync apply` prints in CI. */
export function logStep(event: StepEvent): void {
  const name = stepTitle(event.step);
  if (event.type === 'done') core.info(`  ${SIGN[event.step.action] ?? ''} ${name}: ${event.step.action} done${event.result.note === undefined ? '' : ` [${plainText(event.result.note)}]`}`);
  else if (event.type === 'failed') core.info(`  ! ${name}: ${event.step.action} failed: ${plainText(event.result.message)}`);
  else if (event.type === 'skipped') core.info(`  ! ${name}: ${event.step.action} skipped, it waits for ${plainText(event.result.waitedFor)}, which failed`);
  // A create sent again (after 429, or after an unclear outcome when a lookup did not find the object): the client's
  // own retries never repeat a POST, so without this line the log would show one attempt.
  else if (event.type === 'retry') core.info(`  ${name}: ${event.step.action} tried again, attempt ${event.attempt} (${plainText(event.reason)})`);
}

/** The GitHub side of an apply: the client and its login, and what the review of the merged pull request allows. */
interface ReviewContext {
  gh: GitHub | undefined;
  author: string;
  review: Review;
}

async function reviewContext(run: CommandRun): Promise<ReviewContext> {
  const gh = gitHubOrWarn(run.inputs, run.context, 'reading the reviewed plan and the comment on the merged pull request');
  if (gh === undefined) return { gh, author: '', review: { kind: 'none', why: 'there is no github-token to read the reviewed plan on the pull request with', pr: undefined } };
  const author = await tokenLogin(gh, run.inputs.githubLogin);
  return { gh, author, review: await readReview(gh, run.context, run.folder.label, author) };
}

async function commentResult(run: CommandRun, github: ReviewContext, body: string): Promise<void> {
  const pr = github.review.pr;
  if (!run.inputs.comment || github.gh === undefined) return;
  if (pr === undefined) {
    core.info(`no merged pull request found for commit ${run.context.sha.slice(0, 7)}: the result is in the job summary only`);
    return;
  }
  const target = { ...repoOf(run.context), issueNumber: pr.number, marker: applyMarker(run.folder.label), author: github.author };
  const result = await upsertComment(github.gh, target, run.masker.redact()(body));
  core.info(`apply comment ${result.action} on pull request #${pr.number}: ${result.url}`);
  core.setOutput('comment-url', result.url);
}

async function report(run: CommandRun, github: ReviewContext, outcome: ApplyOutcome, planFile: string): Promise<void> {
  await writeJobSummary(applyBody(outcome, bodyContext(run, '', SUMMARY_BUDGET, planFile)), run.masker.redact());
  try {
    await commentResult(run, github, applyBody(outcome, bodyContext(run, applyMarker(run.folder.label), COMMENT_BUDGET, planFile)));
  } catch (error) {
    // The account is already changed and the job summary says how: failing the step now would read as a failed
    // apply, and a rerun for a comment would apply again. The step's outcome stays the apply's own.
    core.warning(`the result is in the job summary, but the comment on the merged pull request could not be written: ${run.masker.redact()(failureMessage(error))}`);
  }
}

interface LockedOutcome {
  plan: Plan;
  gate: Gate;
  applied?: ApplyReport;
  refused: boolean;
}

/**
 * With no operator named (the `operators` input, MONSYNC_OPERATOR, `apiOperator:`), after an apply that did its
 * work (or had none to do): has the service record which operator the API account acts for (`recordSelf`), so that later plan
 * comments tell monsync's own changes from others'.
 */
async function rememberSelf(session: PlanSession): Promise<void> {
  const recorded = await recordSelfAfterApply(session);
  if (recorded === undefined) return;
  if ('failed' in recorded) {
    core.warning(`monsync could not have the service record which operator the API account acts for (${recorded.failed}); name it with the operators input or apiOperator: in monsync.yaml, so that plans tell its own changes from others'`);
  } else if (recorded.created) {
    core.info(`The API account acts for operator ${recorded.operator}: recorded in the vault section "${SELF_SECTION_NAME}" (its creator).`);
  }
}

/**
 * Applies under the apply lock (unless the `lock` input is false): waits while another apply holds it, naming it,
 * then reads the account again, since the other apply may have changed it, and applies of the plan made now what
 * the review allows. The workflow's `concurrency` group keeps two runs of one repository apart; the lock also keeps
 * out a laptop.
 */
async function applyUnderLock(run: CommandRun, session: PlanSession, planned: Plan, review: Review): Promise<LockedOutcome> {
  const { inputs } = run;
  const go = async (plan: Plan): Promise<LockedOutcome> => {
    const gate = gateOf(review, plan, inputs.unreviewed);
    if (gate.apply.steps.length === 0) {
      await rememberSelf(session);
      return { plan, gate, refused: false };
    }
    const applied = await applyPlan(gate.apply, session.client, { parallelism: inputs.parallelism, secrets: { desired: session.desired, key: session.key }, onStep: logStep });
    if (applied.ok) await rememberSelf(session);
    return { plan, gate, applied, refused: false };
  };
  if (!inputs.lock) return go(planned);
  let shown: string | undefined;
  const lock = await acquireApplyLock(session.client, {
    owner: lockOwner(process.env, { host: hostname() }),
    onWait: (holder) => {
      if (shown !== holder.guid) core.info(`waiting for the apply lock, held by ${describeHolder(holder)}`);
      shown = holder.guid;
    },
    onRenewFailed: (error) => core.warning(`renewing the apply lock's lease failed (${failureMessage(error)}); trying again later`),
  });
  try {
    const plan = await planNow(session, 'apply');
    if (plan.liveDigest !== planned.liveDigest) core.info('the live account changed since the plan was made (another apply wrote to it first): applying the plan made now under the apply lock');
    if (!plan.safe && !inputs.allowUnsafe) return { plan, gate: gateOf(review, plan, inputs.unreviewed), refused: true };
    return await go(plan);
  } finally {
    try {
      await lock.release();
    } catch (error) {
      core.warning(failureMessage(error));
    }
  }
}

/** The step's failure when steps were held: what, why, and how to apply them on purpose. */
function heldFailure(gate: Gate, review: Review): string {
  const why = review.kind === 'none' ? `${review.why}. ` : '';
  const lines = gate.held.slice(0, 20).map((h) => `  ${h.step.kind} "${h.step.key}" (${h.step.action}): ${holdReasonText(h)}`);
  const more = gate.held.length > 20 ? `\n  … ${gate.held.length - 20} more (listed on the pull request and in the job summary)` : '';
  return (
    `apply held ${gate.held.length} step${gate.held.length === 1 ? '' : 's'} nobody reviewed: ${why}they were not applied${gate.apply.steps.length > 0 ? ' (the reviewed steps were)' : ''}:\n${lines.join('\n')}${more}\n` +
    `${HOW_TO_APPLY_UNREVIEWED}`
  );
}

/**
 * apply, on a push to the default branch: plan again, and apply of it what was reviewed on the merged pull request
 * (steps new or changed since its plan comment are held, unless unreviewed: apply); refuse an unsafe plan unless
 * allow-unsafe; report what was done, held, failed and skipped in the job summary and on the merged pull request.
 */
export async function applyCommand(run: CommandRun): Promise<void> {
  const { inputs, context, folder, masker } = run;
  const tree = await loadTree(folder, inputs, masker, context.workspace);
  if (tree.errors > 0) {
    core.setFailed(`${folder.label}: the configuration has ${tree.errors} error${tree.errors === 1 ? '' : 's'} (annotated on their lines); nothing was applied`);
    return;
  }
  requireApiInputs(inputs);
  const github = await reviewContext(run);
  const session = actionSession(tree.desired, inputs, masker, Math.max(DEFAULT_PARALLELISM, inputs.parallelism));
  let outcome: LockedOutcome | undefined;
  let plan: Plan;
  let planFile: string;
  try {
    plan = await planNow(session, 'apply');
    planFile = writePlanFile(plan, context.tempDir, folder.label, 'apply');
    writeArtifactFiles(plan, planFile, folder.label, 'apply');
    if (plan.steps.length === 0) {
      core.info('Nothing to apply: the account matches the configuration.');
    } else if (refusalLines(plan).length > 0) {
      // Before the apply lock is taken: a refused plan writes nothing at all, allow-unsafe or not.
      setPlanOutputs(plan, planFile);
      await report(run, github, { kind: 'refused', plan }, planFile);
      core.setFailed(`apply refused, nothing was changed (allow-unsafe does not change this):\n${refusalLines(plan).join('\n')}`);
      return;
    } else if (!plan.safe && !inputs.allowUnsafe) {
      outcome = { plan, gate: gateOf(github.review, plan, inputs.unreviewed), refused: true };
    } else if (github.review.kind === 'none' && inputs.unreviewed === 'hold') {
      // Nothing reviewed: nothing is written, and the lock is not taken.
      outcome = { plan, gate: gateOf(github.review, plan, 'hold'), refused: false };
    } else {
      outcome = await applyUnderLock(run, session, plan, github.review);
      plan = outcome.plan;
      if (outcome.applied !== undefined) core.info(applyHeadline(outcome.applied));
    }
  } finally {
    await session.close();
  }
  await finish(run, github, plan, planFile, outcome);
}

/** Outputs, job summary, comment, and the step's outcome. */
async function finish(run: CommandRun, github: ReviewContext, plan: Plan, planFile: string, outcome: LockedOutcome | undefined): Promise<void> {
  setPlanOutputs(plan, planFile, outcome?.applied);
  if (outcome?.refused === true) {
    await report(run, github, { kind: 'refused', plan }, planFile);
    core.setFailed(`apply refused: the plan is unsafe (over the safety thresholds of monsync.yaml); nothing was changed:\n${violationLines(plan.violations).join('\n')}\n${unsafeAdvice(plan.violations, ACTION_OVERRIDE)}`);
    return;
  }
  const review = reviewNote(github.review, outcome?.gate);
  if (outcome === undefined || (outcome.applied === undefined && outcome.gate.held.length === 0)) {
    await report(run, github, { kind: 'nothing', plan, review }, planFile);
    return;
  }
  const applied = outcome.applied;
  await report(run, github, applied === undefined ? { kind: 'held', plan, review } : { kind: 'applied', plan, report: applied, review }, planFile);
  if (applied !== undefined && !applied.ok) {
    core.setFailed(`${applyHeadline(applied)} Run the workflow again once the cause is fixed: what is done stays done.`);
  } else if (outcome.gate.held.length > 0) {
    core.setFailed(heldFailure(outcome.gate, github.review));
  } else if (outcome.gate.unreviewedApplied.length > 0) {
    core.warning(`unreviewed: apply: ${outcome.gate.unreviewedApplied.length} step(s) nobody reviewed were applied on purpose`);
  }
}

function reviewNote(review: Review, gate: Gate | undefined): ReviewNote {
  return { why: review.kind === 'none' ? review.why : undefined, pr: review.pr?.number, held: gate?.held ?? [], unreviewedApplied: gate?.unreviewedApplied ?? [], gone: gate?.gone ?? [] };
}
