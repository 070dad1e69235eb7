import * as core from '@actions/core';
import { readAndPlan, renderText, type Plan, type PlanSession } from '@monsync/reconciler';
import { footerLine, type BodyContext } from '../bodies.js';
import { ActionInputError } from '../errors.js';
import { runUrl, type GitHubContext } from '../github-context.js';
import { gitHubClient, type GitHub } from '../github-api.js';
import { missingApiInputs, type ActionInputs } from '../inputs.js';
import { logInert } from '../log.js';
import { artifactName } from '../outputs.js';
import type { CommandRun } from './context.js';

/** The three API inputs are needed from here on; a clear message names each one that is empty. */
export function requireApiInputs(inputs: ActionInputs): void {
  const missing = missingApiInputs(inputs);
  if (missing.length > 0) {
    throw new ActionInputError(
      `input${missing.length > 1 ? 's' : ''} ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} empty: pass the Monitoring API URL and the API account from repository secrets, e.g. api-password: \${{ secrets.MONSYNC_API_PASSWORD }}`,
    );
  }
}

/**
 * Reads the live account (apply re-reads after an unclear failure) and plans, through the pipeline the CLI uses
 * (`readAndPlan`); the text plan goes to the log.
 */
export async function planNow(session: PlanSession, how: 'plan' | 'apply'): Promise<Plan> {
  core.info('reading live account...');
  const { plan } = await readAndPlan(session, { rereadOnUnclear: how === 'apply' });
  logInert(renderText(plan, { color: false }));
  return plan;
}

/** The GitHub client, or undefined (with a warning saying what is lost) when there is no token. */
export function gitHubOrWarn(inputs: ActionInputs, context: GitHubContext, what: string): GitHub | undefined {
  if (inputs.githubToken === '') {
    core.warning(`no github-token (and no GITHUB_TOKEN): ${what} is skipped; the result is in the job summary`);
    return undefined;
  }
  return gitHubClient(inputs.githubToken, context.apiUrl);
}

/** Body settings for a comment or issue (65,000 characters) or for the job summary (1 MB, no marker). */
export function bodyContext(run: CommandRun, marker: string, budget: number, planFile: string | undefined): BodyContext {
  const link = runUrl(run.context);
  const where = link === undefined ? 'the job summary' : `the [job summary](${link})`;
  const artifact = planFile === undefined ? '' : `, the artifact \`${artifactName(planFile)}\` of ${link === undefined ? 'the workflow run' : `the [workflow run](${link})`} (plan file and text)`;
  const hint = planFile === undefined ? `${where}.` : `${where}${artifact}, and the \`plan-file\` output of the step (JSON).`;
  return { marker, label: run.folder.label, footer: footerLine(run.context.sha, link), fullPlanHint: hint, budget };
}
