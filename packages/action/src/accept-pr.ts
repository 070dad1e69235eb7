/**
 * The "Accept live changes" pull request of the drift job (input `drift-pr`): a branch whose one commit, on top of the
 * checked-out commit, holds the live account written into the tree (`pullInto`), and one open pull request for it per
 * config folder. The commit is made with the git data API (a tree with the changed files' contents, a commit, the
 * branch ref), so the runner needs no git and no write credentials of its own.
 */
import type { GitHub } from './github-api.js';
import { checkWrittenAs, sameLogin } from './identity.js';
import { carriesMarker } from './markers.js';

export const ACCEPT_TITLE = 'Accept live changes';

export interface AcceptTarget {
  owner: string;
  repo: string;
  /** The branch the action owns and moves: `monsync/accept-live-changes[-<folder>]`. */
  branch: string;
  /** The branch the pull request goes into: the repository's default branch. */
  base: string;
  marker: string;
  /** The login the token writes as (`tokenLogin`): a pull request anyone else opened is never the action's. */
  author: string;
}

export interface AcceptPullRequest {
  number: number;
  url: string;
  action: 'opened' | 'updated' | 'unchanged';
}

/** The branch of a config folder: one per folder, so two trees of one repository never share a pull request. */
export function acceptBranch(label: string): string {
  if (label === '.') return 'monsync/accept-live-changes';
  const slug = label.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/\.{2,}/g, '.').replace(/^[-.]+|[-.]+$/g, '');
  return `monsync/accept-live-changes-${slug === '' ? 'tree' : slug}`;
}

function status(error: unknown): number | undefined {
  const value = (error as { status?: unknown }).status;
  return typeof value === 'number' ? value : undefined;
}

/** The commit the branch points at, or undefined when there is no such branch (a listing: no 404 in the log). */
async function branchHead(gh: GitHub, target: AcceptTarget): Promise<string | undefined> {
  const ref = `refs/heads/${target.branch}`;
  // Matching is by prefix: `...-configs` would also list `...-configs-eu`; only the exact ref counts.
  const refs = await gh.rest.git.listMatchingRefs({ owner: target.owner, repo: target.repo, ref: `heads/${target.branch}` });
  return refs.data.find((entry) => entry.ref === ref)?.object.sha;
}

/**
 * Points the branch at a commit with `files` (paths from the repository root) changed on top of `baseSha`. When the
 * branch already holds exactly that (same parent, same tree), nothing is written: a daily run with the same drift
 * leaves the pull request and its reviews alone.
 */
export async function pushAcceptBranch(gh: GitHub, target: AcceptTarget, baseSha: string, files: readonly { path: string; text: string }[], message: string): Promise<boolean> {
  const { owner, repo } = target;
  const base = await gh.rest.git.getCommit({ owner, repo, commit_sha: baseSha });
  const tree = await gh.rest.git.createTree({
    owner,
    repo,
    base_tree: base.data.tree.sha,
    tree: files.map((file) => ({ path: file.path, mode: '100644' as const, type: 'blob' as const, content: file.text })),
  });
  const head = await branchHead(gh, target);
  if (head !== undefined) {
    const current = await gh.rest.git.getCommit({ owner, repo, commit_sha: head });
    if (current.data.tree.sha === tree.data.sha && current.data.parents.map((parent) => parent.sha).join() === baseSha) return false;
  }
  const commit = await gh.rest.git.createCommit({ owner, repo, message, tree: tree.data.sha, parents: [baseSha] });
  // The branch is the action's own: each run rebuilds it on the latest default branch, so it moves by force.
  if (head === undefined) await gh.rest.git.createRef({ owner, repo, ref: `refs/heads/${target.branch}`, sha: commit.data.sha });
  else await gh.rest.git.updateRef({ owner, repo, ref: `heads/${target.branch}`, sha: commit.data.sha, force: true });
  return true;
}

/** The open pull request of the branch that the action opened (its author, and its body starts with the marker). */
export async function findAcceptPullRequest(gh: GitHub, target: AcceptTarget): Promise<{ number: number; url: string; body: string } | undefined> {
  const open = await gh.paginate(gh.rest.pulls.list, { owner: target.owner, repo: target.repo, state: 'open', head: `${target.owner}:${target.branch}`, per_page: 100 });
  const found = open.filter((pull) => sameLogin(pull.user?.login, target.author) && carriesMarker(pull.body, target.marker)).sort((a, b) => a.number - b.number)[0];
  return found === undefined ? undefined : { number: found.number, url: found.html_url, body: found.body ?? '' };
}

/** Opens the pull request, or updates the body of the open one. */
export async function openOrUpdateAcceptPullRequest(gh: GitHub, target: AcceptTarget, body: string): Promise<AcceptPullRequest> {
  const existing = await findAcceptPullRequest(gh, target);
  if (existing === undefined) {
    const created = await gh.rest.pulls.create({ owner: target.owner, repo: target.repo, title: ACCEPT_TITLE, head: target.branch, base: target.base, body });
    checkWrittenAs(target.author, created.data.user?.login, 'pull request');
    return { number: created.data.number, url: created.data.html_url, action: 'opened' };
  }
  if (existing.body === body) return { ...existing, action: 'unchanged' };
  await gh.rest.pulls.update({ owner: target.owner, repo: target.repo, pull_number: existing.number, body });
  return { number: existing.number, url: existing.url, action: 'updated' };
}

/** Once git and the account agree again, an open pull request is out of date: closed with a comment, its branch deleted. */
export async function closeAcceptPullRequest(gh: GitHub, target: AcceptTarget, comment: string): Promise<{ number: number; url: string } | undefined> {
  const existing = await findAcceptPullRequest(gh, target);
  if (existing === undefined) return undefined;
  const { owner, repo } = target;
  await gh.rest.issues.createComment({ owner, repo, issue_number: existing.number, body: comment });
  await gh.rest.pulls.update({ owner, repo, pull_number: existing.number, state: 'closed' });
  try {
    await gh.rest.git.deleteRef({ owner, repo, ref: `heads/${target.branch}` });
  } catch (error) {
    // Already gone (deleted by hand, or by "delete branch" on a closed pull request): nothing left to tidy.
    if (status(error) !== 404 && status(error) !== 422) throw error;
  }
  return { number: existing.number, url: existing.url };
}
