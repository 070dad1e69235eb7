import * as core from '@actions/core';
import { hostname } from 'node:os';
import {
  acquireApplyLock,
  applyPlan,
  DEFAULT_PARALLELISM,
  describeHolder,
  lockOwner,
  unsafeAdvice,
  violationLines,
  type ApplyReport,
  type Plan,
  type PlanSession,
  type StepEvent,
} from '@monsync/reconciler';
import { ACTION_OVERRIDE, applyBody, applyHeadline, COMMENT_BUDGET, SUMMARY_BUDGET, type ApplyOutcome } from '../bodies.js';
import { upsertComment } from '../comment-upsert.js';
import { GitHubContextError } from '../errors.js';
import { failureMessage } from '../failure.js';
import type { GitHub } from '../github-api.js';
import { repoOf, type GitHubContext } from '../github-context.js';
import { writeJobSummary } from '../job-summary.js';
import { applyMarker } from '../markers.js';
import { setPlanOutputs, writePlanFile } from '../outputs.js';
import { actionSession, loadTree } from '../tree.js';
import type { CommandRun } from './context.js';
import { bodyContext, gitHubOrWarn, planNow, requireApiInputs } from './shared.js';

const SIGN: Record<string, string> = { create: '+', update: '~', delete: '-', ensure: '=' };

/** One log line per finished step and per create tried again, as `monsync apply` prints in CI. */
export function logStep(event: StepEvent): void {
  const name = `${event.step.kind} ${JSON.stringify(event.step.key)}`;
  if (event.type === 'done') core.info(`  ${SIGN[event.step.action] ?? ''} ${name}: ${event.step.action} done${event.result.note === undefined ? '' : ` [${event.result.note}]`}`);
  else if (event.type === 'failed') core.info(`  ! ${name}: ${event.step.action} failed: ${event.result.message}`);
  else if (event.type === 'skipped') core.info(`  ! ${name}: ${event.step.action} skipped, it waits for ${event.result.waitedFor}, which failed`);
  // A create sent again (after 429, or after an unclear outcome when a lookup did not find the object): the client's
  // own retries never repeat a POST, so without this line the log would show one attempt.
  else if (event.type === 'retry') core.info(`  ${name}: ${event.step.action} tried again, attempt ${event.attempt} (${event.reason})`);
}

/**
 * The pull request merged as this commit: the commit's pull requests, preferring the one whose merge commit it is.
 * Undefined when the push was not a merge of a pull request.
 */
export async function mergedPullRequest(gh: GitHub, context: GitHubContext): Promise<number | undefined> {
  if (context.sha === '') throw new GitHubContextError('GITHUB_SHA is not set: apply comments on the pull request merged as that commit');
  const { owner, repo } = repoOf(context);
  const pulls = await gh.paginate(gh.rest.repos.listPullRequestsAssociatedWithCommit, { owner, repo, commit_sha: context.sha, per_page: 100 });
  const merged = pulls.filter((pr) => pr.merged_at !== null && pr.merged_at !== undefined);
  const exact = merged.find((pr) => pr.merge_commit_sha === context.sha);
  return (exact ?? merged[0])?.number;
}

async function commentResult(run: CommandRun, body: string): Promise<void> {
  if (!run.inputs.comment) return;
  const gh = gitHubOrWarn(run.inputs, run.context, 'the comment on the merged pull request');
  if (gh === undefined) return;
  const number = await mergedPullRequest(gh, run.context);
  if (number === undefined) {
    core.info(`no merged pull request found for commit ${run.context.sha.slice(0, 7)}: the result is in the job summary only`);
    return;
  }
  const result = await upsertComment(gh, { ...repoOf(run.context), issueNumber: number, marker: applyMarker(run.folder.label) }, run.masker.redact()(body));
  core.info(`apply comment ${result.action} on pull request #${number}: ${result.url}`);
  core.setOutput('comment-url', result.url);
}

async function report(run: CommandRun, outcome: ApplyOutcome, planFile: string): Promise<void> {
  await writeJobSummary(applyBody(outcome, bodyContext(run, '', SUMMARY_BUDGET, planFile)), run.masker.redact());
  try {
    await commentResult(run, applyBody(outcome, bodyContext(run, applyMarker(run.folder.label), COMMENT_BUDGET, planFile)));
  } catch (error) {
    // The account is already changed and the job summary says how: failing the step now would read as a failed
    // apply, and a rerun for a comment would apply again. The step's outcome stays the apply's own.
    core.warning(`the result is in the job summary, but the comment on the merged pull request could not be written: ${run.masker.redact()(failureMessage(error))}`);
  }
}

/**
 * Applies under the apply lock (unless the `lock` input is false): waits while another apply holds it, naming it,
 * then reads the account again, since the other apply may have changed it, and applies the plan made now. The
 * workflow's `concurrency` group keeps two runs of one repository apart; the lock also keeps out a laptop.
 */
async function applyUnderLock(run: CommandRun, session: PlanSession, planned: Plan): Promise<{ plan: Plan; applied?: ApplyReport; refused: boolean }> {
  const { inputs } = run;
  const go = (plan: Plan) => applyPlan(plan, session.client, { parallelism: inputs.parallelism, secrets: { desired: session.desired, key: session.key }, onStep: logStep });
  if (!inputs.lock) return { plan: planned, applied: await go(planned), refused: false };
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
    if (plan.steps.length === 0) return { plan, refused: false };
    if (!plan.safe && !inputs.allowDeletes) return { plan, refused: true };
    return { plan, applied: await go(plan), refused: false };
  } finally {
    try {
      await lock.release();
    } catch (error) {
      core.warning(failureMessage(error));
    }
  }
}

/**
 * apply, on a push to the default branch: plan again, refuse an unsafe plan unless allow-deletes, apply without
 * asking, and report what was done, what failed and what was skipped in the job summary and on the merged pull request.
 */
export async function applyCommand(run: CommandRun): Promise<void> {
  const { inputs, context, folder, masker } = run;
  const tree = await loadTree(folder, inputs, masker, context.workspace);
  if (tree.errors > 0) {
    core.setFailed(`${folder.label}: the configuration has ${tree.errors} error${tree.errors === 1 ? '' : 's'} (annotated on their lines); nothing was applied`);
    return;
  }
  requireApiInputs(inputs);
  const session = actionSession(tree.desired, inputs, masker, Math.max(DEFAULT_PARALLELISM, inputs.parallelism));
  let plan: Plan;
  let applied: ApplyReport | undefined;
  let planFile: string;
  try {
    plan = await planNow(session, 'apply');
    planFile = writePlanFile(plan, context.tempDir, folder.label, 'apply');
    if (plan.steps.length === 0) {
      core.info('Nothing to apply: the account matches the configuration.');
    } else if (!plan.safe && !inputs.allowDeletes) {
      setPlanOutputs(plan, planFile);
      await report(run, { kind: 'refused', plan }, planFile);
      core.setFailed(`apply refused: the plan is unsafe (over the safety thresholds of monsync.yaml); nothing was changed:\n${violationLines(plan.violations).join('\n')}\n${unsafeAdvice(plan.violations, ACTION_OVERRIDE)}`);
      return;
    } else {
      const outcome = await applyUnderLock(run, session, plan);
      plan = outcome.plan;
      if (outcome.refused) {
        setPlanOutputs(plan, planFile);
        await report(run, { kind: 'refused', plan }, planFile);
        core.setFailed(`apply refused: the plan made under the apply lock is unsafe (over the safety thresholds of monsync.yaml); nothing was changed:\n${violationLines(plan.violations).join('\n')}\n${unsafeAdvice(plan.violations, ACTION_OVERRIDE)}`);
        return;
      }
      applied = outcome.applied;
      if (applied !== undefined) core.info(applyHeadline(applied));
    }
  } finally {
    await session.close();
  }
  setPlanOutputs(plan, planFile, applied);
  await report(run, applied === undefined ? { kind: 'nothing', plan } : { kind: 'applied', plan, report: applied }, planFile);
  if (applied !== undefined && !applied.ok) {
    core.setFailed(`${applyHeadline(applied)} Run the workflow again once the cause is fixed: what is done stays done.`);
  }
}
