import * as core from '@actions/core';
import { hasChanges, readAndPlan, renderText, type LiveSnapshot, type Plan } from '@monsync/reconciler';
import { COMMENT_BUDGET, driftAnswers, driftBody, driftGoneComment, planBody, SUMMARY_BUDGET } from '../bodies.js';
import { closeDriftIssue, openOrUpdateDriftIssue } from '../drift-issue.js';
import { repoOf } from '../github-context.js';
import { tokenLogin } from '../identity.js';
import { writeJobSummary } from '../job-summary.js';
import { driftMarker } from '../markers.js';
import { logInert } from '../log.js';
import { setPlanOutputs, writePlanFile } from '../outputs.js';
import { actionSession, loadTree } from '../tree.js';
import type { CommandRun } from './context.js';
import { closeStaleAcceptPullRequest, offerOrExplain } from './drift-accept.js';
import { bodyContext, gitHubOrWarn, requireApiInputs } from './shared.js';

/**
 * drift, on a schedule: plan the checkout (the default branch) against the account. When they differ, open or update
 * the one "monsync drift" issue of the folder, naming who changed what outside git; when they no longer differ, say
 * so on the issue and close it. Drift is a finding, not a failure of the step. With `drift-pr`, the live account is also
 * written into the tree on a branch with one "Accept live changes" pull request, which the issue offers beside
 * applying again; once git and the account agree, an open one is closed with the issue.
 */
export async function driftCommand(run: CommandRun): Promise<void> {
  const { inputs, context, folder, masker } = run;
  const tree = await loadTree(folder, inputs, masker, context.workspace);
  if (tree.errors > 0) {
    core.setFailed(`${folder.label}: the configuration has ${tree.errors} error${tree.errors === 1 ? '' : 's'} (annotated on their lines); drift was not checked`);
    return;
  }
  requireApiInputs(inputs);
  const session = actionSession(tree.desired, inputs, masker);
  let plan: Plan;
  let live: LiveSnapshot;
  try {
    core.info('reading live account...');
    ({ plan, live } = await readAndPlan(session));
    logInert(renderText(plan, { color: false }));
  } finally {
    await session.close();
  }
  const planFile = writePlanFile(plan, context.tempDir, folder.label, 'drift');
  setPlanOutputs(plan, planFile);
  const drifted = hasChanges(plan);
  const redact = masker.redact();
  await writeJobSummary(planBody(plan, bodyContext(run, '', SUMMARY_BUDGET, planFile), `monsync drift: ${folder.label}`), redact);
  if (!inputs.comment) return;
  const gh = gitHubOrWarn(inputs, context, 'the drift issue');
  if (gh === undefined) return;
  const target = { ...repoOf(context), marker: driftMarker(folder.label), author: await tokenLogin(gh, inputs.githubLogin) };
  const footer = bodyContext(run, '', COMMENT_BUDGET, undefined).footer;
  if (drifted) {
    const answers = inputs.driftPr ? driftAnswers(folder.label, await offerOrExplain(run, gh, plan, live, footer)) : undefined;
    const body = driftBody(plan, { ...bodyContext(run, target.marker, COMMENT_BUDGET, planFile), sha: context.sha, ...(answers === undefined ? {} : { answers }) });
    const issue = await openOrUpdateDriftIssue(gh, target, redact(body));
    core.warning(`drift: the live account differs from ${folder.label}; issue #${issue.number} ${issue.action}: ${issue.url}`);
    core.setOutput('comment-url', issue.url);
  } else {
    const closed = await closeDriftIssue(gh, target, redact(driftGoneComment(folder.label, context.sha, footer)));
    if (inputs.driftPr) await closeStaleAcceptPullRequest(run, gh, footer);
    core.info(closed === undefined ? 'no drift' : `no drift any more: issue #${closed.number} closed`);
    if (closed !== undefined) core.setOutput('comment-url', closed.url);
  }
}
