import * as core from '@actions/core';
import { hasChanges, unsafeAdvice, violationLines } from '@monsync/reconciler';
import { repoPath } from '../annotations.js';
import { ACTION_OVERRIDE, COMMENT_BUDGET, planBody, planFailedBody, SUMMARY_BUDGET, validationBody } from '../bodies.js';
import { upsertComment } from '../comment-upsert.js';
import { failureMessage } from '../failure.js';
import { repoOf } from '../github-context.js';
import { writeJobSummary } from '../job-summary.js';
import { planMarker } from '../markers.js';
import { missingApiInputs } from '../inputs.js';
import { setPlanOutputs, writePlanFile } from '../outputs.js';
import { actionSession, loadTree } from '../tree.js';
import type { CommandRun } from './context.js';
import { bodyContext, gitHubOrWarn, planNow, requireApiInputs } from './shared.js';

export const FORK_NOTICE = 'no credentials on fork pull requests: plan skipped';

/**
 * Comments `body` on the pull request under the folder's marker, when there is a pull request, a token and `comment`;
 * redacted with every masked value, since the runner masks only the log.
 */
async function commentOnPullRequest(run: CommandRun, body: string): Promise<void> {
  const pr = run.context.pullRequest;
  if (!run.inputs.comment || pr === undefined) return;
  const gh = gitHubOrWarn(run.inputs, run.context, 'the pull request comment');
  if (gh === undefined) return;
  let result;
  try {
    result = await upsertComment(gh, { ...repoOf(run.context), issueNumber: pr.number, marker: planMarker(run.folder.label) }, run.masker.redact()(body));
  } catch (error) {
    // A fork's run gets a read-only token whatever the workflow asks for: the plan stands without its comment.
    if (pr.fork && (error as { status?: unknown }).status === 403) {
      core.warning('the token of a fork pull request cannot comment: the plan is in the job summary and the plan-file output');
      return;
    }
    throw error;
  }
  core.info(`plan comment ${result.action}: ${result.url}${result.removed > 0 ? ` (${result.removed} older copies removed)` : ''}`);
  core.setOutput('comment-url', result.url);
}

/**
 * The plan failed: the comment must not go on showing an earlier plan as if it were this commit's. A failure to
 * comment is only warned about, so that the step fails with the plan's own message.
 */
async function commentPlanFailure(run: CommandRun, error: unknown): Promise<void> {
  const redact = run.masker.redact();
  const body = planFailedBody(redact(failureMessage(error)), run.context.sha, bodyContext(run, planMarker(run.folder.label), COMMENT_BUDGET, undefined));
  try {
    await commentOnPullRequest(run, body);
  } catch (commentError) {
    core.warning(`the pull request comment could not say that the plan failed: ${redact(failureMessage(commentError))}`);
  }
}

/**
 * plan, on pull requests: validate (annotations; the comment lists the findings; the step fails), then plan against
 * the account, keep one comment per config folder up to date, and put the whole plan in the job summary and the
 * plan file. A fork's run has no secrets: it is skipped with a notice, not failed.
 */
export async function planCommand(run: CommandRun): Promise<void> {
  const { inputs, context, folder, masker } = run;
  if (context.pullRequest?.fork === true && missingApiInputs(inputs).length > 0) {
    core.notice(FORK_NOTICE);
    return;
  }
  const tree = await loadTree(folder, inputs, masker, context.workspace);
  if (tree.errors > 0) {
    const paths = (d: Parameters<typeof repoPath>[0]) => repoPath(d, folder.dir, context.workspace);
    await writeJobSummary(validationBody(tree.diagnostics, paths, bodyContext(run, '', SUMMARY_BUDGET, undefined)), masker.redact());
    await commentOnPullRequest(run, validationBody(tree.diagnostics, paths, bodyContext(run, planMarker(folder.label), COMMENT_BUDGET, undefined)));
    core.setFailed(`${folder.label}: the configuration has ${tree.errors} error${tree.errors === 1 ? '' : 's'} (annotated on their lines); nothing was sent to the API`);
    return;
  }
  requireApiInputs(inputs);
  const session = actionSession(tree.desired, inputs, masker);
  let plan;
  try {
    try {
      plan = await planNow(session, 'plan');
    } finally {
      await session.close();
    }
  } catch (error) {
    await commentPlanFailure(run, error);
    throw error;
  }
  const planFile = writePlanFile(plan, context.tempDir, folder.label, 'plan');
  core.info(`plan saved to ${planFile}`);
  setPlanOutputs(plan, planFile);
  await writeJobSummary(planBody(plan, bodyContext(run, '', SUMMARY_BUDGET, planFile)), masker.redact());
  await commentOnPullRequest(run, planBody(plan, bodyContext(run, planMarker(folder.label), COMMENT_BUDGET, planFile)));
  if (!plan.safe) {
    const text = `the plan is unsafe (over the safety thresholds of monsync.yaml):\n${violationLines(plan.violations).join('\n')}\n${unsafeAdvice(plan.violations, ACTION_OVERRIDE)}`;
    // The apply of this change would be refused: the pull request says so now, unless the apply step allows it.
    if (inputs.allowDeletes) core.warning(text);
    else core.setFailed(text);
  } else if (!hasChanges(plan)) {
    core.info('no changes: the account matches the configuration');
  }
}
