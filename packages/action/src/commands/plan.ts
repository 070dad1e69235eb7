import * as core from '@actions/core';
import { hasChanges, refusalLines, unsafeAdvice, violationLines, type Plan } from '@monsync/reconciler';
import { annotateAccountPolicy, repoPath } from '../annotations.js';
import { ACTION_OVERRIDE, COMMENT_BUDGET, planFailedBody, SUMMARY_BUDGET, validationBody } from '../bodies.js';
import { ownComments, upsertComment } from '../comment-upsert.js';
import { failureMessage } from '../failure.js';
import type { GitHub } from '../github-api.js';
import { repoOf } from '../github-context.js';
import { tokenLogin } from '../identity.js';
import { writeJobSummary } from '../job-summary.js';
import { planMarker } from '../markers.js';
import { missingApiInputs } from '../inputs.js';
import { setPlanOutputs, writeArtifactFiles, writePlanFile } from '../outputs.js';
import { planComment, viewOf, type PlanView } from '../plan-comment.js';
import { recordLine, recordOf } from '../review-record.js';
import { actionSession, loadTree } from '../tree.js';
import type { CommandRun } from './context.js';
import { bodyContext, gitHubOrWarn, planNow, requireApiInputs } from './shared.js';

export const FORK_NOTICE = 'no credentials on fork pull requests: plan skipped';

/**
 * Comments `body` on the pull request under the folder's marker, when there is a pull request, a token and `comment`;
 * redacted with every masked value, since the runner masks only the log.
 */
async function commentOnPullRequest(run: CommandRun, body: string | ((gh: GitHub) => Promise<string | undefined>)): Promise<void> {
  const pr = run.context.pullRequest;
  if (!run.inputs.comment || pr === undefined) return;
  const gh = gitHubOrWarn(run.inputs, run.context, 'the pull request comment');
  if (gh === undefined) return;
  let result;
  try {
    const text = typeof body === 'string' ? body : await body(gh);
    if (text === undefined) return;
    const target = { ...repoOf(run.context), issueNumber: pr.number, marker: planMarker(run.folder.label), author: await tokenLogin(gh, run.inputs.githubLogin) };
    result = await upsertComment(gh, target, run.masker.redact()(text));
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

/** The paths (from the repository root) the pull request changes, renames included; undefined when GitHub will not say. */
async function changedFiles(gh: GitHub, run: CommandRun, number: number): Promise<Set<string> | undefined> {
  try {
    const files = await gh.paginate(gh.rest.pulls.listFiles, { ...repoOf(run.context), pull_number: number, per_page: 100 });
    return new Set(files.flatMap((file) => (file.previous_filename === undefined ? [file.filename] : [file.filename, file.previous_filename])));
  } catch (error) {
    core.warning(`the files of the pull request could not be listed (${run.masker.redact()(failureMessage(error))}): the comment shows every step as the pull request's`);
    return undefined;
  }
}

/**
 * The comment for a plan: the pull request's own changes apart from the steps it did not cause, with the
 * reviewed-plan record. Undefined (no comment) when the pull request changes nothing, `comment-unchanged` is false
 * and there is no comment to bring up to date.
 */
function planCommentFor(run: CommandRun, plan: Plan, record: string, planFile: string): (gh: GitHub) => Promise<string | undefined> {
  return async (gh) => {
    const pr = run.context.pullRequest;
    if (pr === undefined) return undefined;
    const view: PlanView = viewOf(plan, await changedFiles(gh, run, pr.number), run.folder.label);
    const own = view.plan.steps.filter((step) => !view.notFromPullRequest.includes(step) && step.action !== 'ensure');
    if (!run.inputs.commentUnchanged && own.length === 0 && plan.safe) {
      const target = { ...repoOf(run.context), issueNumber: pr.number, marker: planMarker(run.folder.label), author: await tokenLogin(gh, run.inputs.githubLogin) };
      // An earlier comment must not go on showing changes the pull request no longer makes.
      if ((await ownComments(gh, target)).length === 0) {
        core.info('no changes from this pull request, and comment-unchanged is false: no comment');
        return undefined;
      }
    }
    return planComment(view, { ...bodyContext(run, planMarker(run.folder.label), COMMENT_BUDGET, planFile), record });
  };
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
  // Policy findings do not stop the plan: the comment shows them with the plan they belong to, and the step fails after.
  if (tree.errors - tree.policyErrors > 0) {
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
  // The pull request's head, not GITHUB_SHA (the test merge commit): apply on merge compares it with the merged head.
  const record = recordOf(plan, folder.label, context.pullRequest?.headSha ?? context.sha);
  writeArtifactFiles(plan, planFile, folder.label, 'plan', record);
  await writeJobSummary(planComment(viewOf(plan, undefined, folder.label), { ...bodyContext(run, '', SUMMARY_BUDGET, planFile), record: '' }), masker.redact());
  await commentOnPullRequest(run, planCommentFor(run, plan, recordLine(record), planFile));
  annotateAccountPolicy(plan.policy ?? [], folder.dir, context.workspace);
  const refused = refusalLines(plan);
  if (refused.length > 0) {
    // No input lets such a plan through, allow-unsafe included: the pull request must say so now.
    core.setFailed(`the plan is refused (apply would write nothing):\n${refused.join('\n')}`);
  } else if (!plan.safe) {
    const text = `the plan is unsafe (over the safety thresholds of monsync.yaml):\n${violationLines(plan.violations).join('\n')}\n${unsafeAdvice(plan.violations, ACTION_OVERRIDE)}`;
    // The apply of this change would be refused: the pull request says so now, unless the apply step allows it.
    if (inputs.allowUnsafe) core.warning(text);
    else core.setFailed(text);
  } else if (!hasChanges(plan)) {
    core.info('no changes: the account matches the configuration');
  }
}
