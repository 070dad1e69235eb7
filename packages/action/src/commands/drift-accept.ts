import * as core from '@actions/core';
import { plainText, pulledTree, pullInto, type LiveSnapshot, type Plan } from '@monsync/reconciler';
import { readConfigTree, hasErrors, isPolicyFinding, loadConfigTexts } from '@monsync/schema';
import { acceptBranch, closeAcceptPullRequest, openOrUpdateAcceptPullRequest, pushAcceptBranch, type AcceptTarget } from '../accept-pr.js';
import { acceptBody } from '../bodies.js';
import type { GitHub } from '../github-api.js';
import { repoOf } from '../github-context.js';
import { tokenLogin } from '../identity.js';
import { acceptMarker } from '../markers.js';
import type { CommandRun } from './context.js';

/** Where objects made in the account outside git go in the tree (as `monsync pull --into` does by default). */
export const NEW_OBJECTS_FILE = 'new-objects.yaml';

/** The folder's branch and pull request, owned by the login the token writes as. */
export async function acceptTarget(run: CommandRun, gh: GitHub): Promise<AcceptTarget> {
  const { context, folder } = run;
  const base = context.payload.repository?.default_branch ?? 'main';
  return { ...repoOf(context), branch: acceptBranch(folder.label), base, marker: acceptMarker(folder.label), author: await tokenLogin(gh, run.inputs.githubLogin) };
}

/**
 * Writes the live account into the tree (`pullInto`, on the same read as the drift plan), pushes it to the folder's
 * branch and opens or updates the one "Accept live changes" pull request. Returns it, or why there is none.
 */
export async function offerAcceptPullRequest(run: CommandRun, gh: GitHub, plan: Plan, live: LiveSnapshot, footer: string): Promise<{ number: number; url: string } | { reason: string }> {
  const { folder, context, masker } = run;
  const files = readConfigTree(folder.dir).texts.map(({ file, text }) => ({ path: file, text }));
  const pulled = pulledTree(live);
  const edited = pullInto({ files, plan, pulled: pulled.data, newObjectsFile: NEW_OBJECTS_FILE });
  if (edited.files.length === 0) {
    return { reason: 'nothing of it can be written into git by monsync (a secret the API never returns, or an object it cannot place); change the tree by hand, or run monsync pull --into locally to see why.' };
  }
  const texts = new Map(files.map((file) => [file.path, file.text]));
  for (const file of edited.files) texts.set(file.path, file.text);
  const reloaded = loadConfigTexts(folder.dir, [...texts].map(([file, text]) => ({ file, text })), { env: process.env, resolveSecrets: false });
  // The account may break the team's policy: the pull request's plan says so; it is no reason to withhold the pull request.
  const faults = reloaded.diagnostics.filter((d) => !isPolicyFinding(d));
  if (hasErrors(faults)) {
    const first = faults.find((d) => d.severity === 'error');
    core.warning(`drift-pr: the live account written into ${folder.label} would not validate (${plainText(first?.file ?? '')}:${first?.line ?? ''}: ${plainText(first?.message ?? '')}); no pull request`);
    return { reason: 'the changes could not be written into the tree as a valid configuration (see the workflow run); change the tree by hand.' };
  }
  const target = await acceptTarget(run, gh);
  const inRepo = (path: string) => (folder.label === '.' ? path : `${folder.label}/${path}`);
  const message = `Accept live changes into ${folder.label}\n\nWritten by the monsync drift job from the live account:\n${edited.edits.map((edit) => `${edit}\n`).join('')}`;
  const redact = masker.redact();
  const pushed = await pushAcceptBranch(gh, target, context.sha, edited.files.map((file) => ({ path: inRepo(file.path), text: file.text })), redact(message));
  const pr = await openOrUpdateAcceptPullRequest(gh, target, redact(acceptBody(target.marker, folder.label, edited.edits, [...edited.notes, ...pulled.notes], footer)));
  core.info(`drift-pr: branch ${target.branch} ${pushed ? 'pushed' : 'already up to date'}; pull request #${pr.number} ${pr.action}: ${pr.url}`);
  return pr;
}

/** `offerAcceptPullRequest`, where a refused GitHub request (no `contents: write`) is a warning: the issue still tells of the drift. */
export async function offerOrExplain(run: CommandRun, gh: GitHub, plan: Plan, live: LiveSnapshot, footer: string): Promise<{ number: number; url: string } | { reason: string }> {
  try {
    return await offerAcceptPullRequest(run, gh, plan, live, footer);
  } catch (error) {
    const code = (error as { status?: unknown }).status;
    const message = run.masker.redact()(plainText(error instanceof Error ? error.message : String(error)));
    core.warning(`drift-pr: the "Accept live changes" pull request could not be pushed or opened (${typeof code === 'number' ? `HTTP ${code}: ` : ''}${message}); the workflow needs permissions contents: write and pull-requests: write`);
    return { reason: 'the drift job could not push its pull request this time (see the warning in the workflow run); run `monsync pull --into` locally instead.' };
  }
}

/** No drift: an open "Accept live changes" pull request describes nothing any more. */
export async function closeStaleAcceptPullRequest(run: CommandRun, gh: GitHub, footer: string): Promise<void> {
  const comment = `**Git and the live account agree again** (the changes were reverted by an apply, or are in git already). Closing.\n${footer}`;
  const closed = await closeAcceptPullRequest(gh, await acceptTarget(run, gh), comment);
  if (closed !== undefined) core.info(`drift-pr: pull request #${closed.number} closed: ${closed.url}`);
}
