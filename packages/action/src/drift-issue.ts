import type { GitHub } from './github-api.js';
import { checkWrittenAs, sameLogin } from './identity.js';
import { carriesMarker } from './markers.js';

export const DRIFT_TITLE = 'monsync drift';

export interface DriftIssueTarget {
  owner: string;
  repo: string;
  marker: string;
  /** The login the token writes as (`tokenLogin`): an issue anyone else opened is never the action's. */
  author: string;
}

export interface IssueRef {
  number: number;
  url: string;
}

/**
 * The open drift issue of this folder: opened by the action's own login, titled "monsync drift" and starting with its
 * marker, on any page of open issues. An issue someone else opened with the same title and marker (a copy, a quote) is
 * never edited or closed.
 */
export async function findDriftIssue(gh: GitHub, target: DriftIssueTarget): Promise<IssueRef | undefined> {
  const issues = await gh.paginate(gh.rest.issues.listForRepo, { owner: target.owner, repo: target.repo, state: 'open', per_page: 100 });
  const found = issues
    .filter((issue) => issue.pull_request === undefined && sameLogin(issue.user?.login, target.author) && issue.title === DRIFT_TITLE && carriesMarker(issue.body, target.marker))
    .sort((a, b) => a.number - b.number)[0];
  return found === undefined ? undefined : { number: found.number, url: found.html_url };
}

/** Opens the issue, or replaces the body of the open one: one issue however many scheduled runs find drift. */
export async function openOrUpdateDriftIssue(gh: GitHub, target: DriftIssueTarget, body: string): Promise<IssueRef & { action: 'opened' | 'updated' }> {
  const existing = await findDriftIssue(gh, target);
  if (existing === undefined) {
    const created = await gh.rest.issues.create({ owner: target.owner, repo: target.repo, title: DRIFT_TITLE, body });
    checkWrittenAs(target.author, created.data.user?.login, 'drift issue');
    return { number: created.data.number, url: created.data.html_url, action: 'opened' };
  }
  await gh.rest.issues.update({ owner: target.owner, repo: target.repo, issue_number: existing.number, body });
  return { ...existing, action: 'updated' };
}

/** Says why in a comment and closes the open issue, if there is one. */
export async function closeDriftIssue(gh: GitHub, target: DriftIssueTarget, comment: string): Promise<IssueRef | undefined> {
  const existing = await findDriftIssue(gh, target);
  if (existing === undefined) return undefined;
  await gh.rest.issues.createComment({ owner: target.owner, repo: target.repo, issue_number: existing.number, body: comment });
  await gh.rest.issues.update({ owner: target.owner, repo: target.repo, issue_number: existing.number, state: 'closed', state_reason: 'completed' });
  return existing;
}
