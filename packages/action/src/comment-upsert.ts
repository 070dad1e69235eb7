import type { GitHub } from './github-api.js';
import { checkWrittenAs, sameLogin } from './identity.js';
import { carriesMarker } from './markers.js';

/** The comments of the thread that carry `marker` as their first line and were written by `author`, oldest first. */
export async function ownComments(gh: GitHub, target: UpsertTarget): Promise<OwnComment[]> {
  const { owner, repo, issueNumber, marker, author } = target;
  const comments = await gh.paginate(gh.rest.issues.listComments, { owner, repo, issue_number: issueNumber, per_page: 100 });
  return comments
    .filter((comment) => sameLogin(comment.user?.login, author) && carriesMarker(comment.body, marker))
    .sort((a, b) => a.id - b.id)
    .map((comment) => ({ id: comment.id, body: comment.body ?? '', url: comment.html_url }));
}

export interface UpsertTarget {
  owner: string;
  repo: string;
  issueNumber: number;
  /** The hidden first line the comment is found by. */
  marker: string;
  /** The login the token comments as (`tokenLogin`): a comment by anyone else is never the action's. */
  author: string;
}

export interface OwnComment {
  id: number;
  body: string;
  url: string;
}

export interface UpsertResult {
  url: string;
  action: 'created' | 'updated';
  /** Older copies of the comment that were deleted (left by runs that raced each other). */
  removed: number;
}

/**
 * Creates the comment that carries `marker`, or updates it. Every page of comments is read, since a busy pull
 * request pushes the comment past the first page; when runs raced and left several, the oldest is kept and updated
 * and the others are deleted, so that there is one however many runs there were.
 */
export async function upsertComment(gh: GitHub, target: UpsertTarget, body: string): Promise<UpsertResult> {
  const { owner, repo, issueNumber } = target;
  const [first, ...extra] = await ownComments(gh, target);
  if (first === undefined) {
    const created = await gh.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body });
    checkWrittenAs(target.author, created.data.user?.login, 'comment');
    return { url: created.data.html_url, action: 'created', removed: 0 };
  }
  const updated = await gh.rest.issues.updateComment({ owner, repo, comment_id: first.id, body });
  for (const copy of extra) await gh.rest.issues.deleteComment({ owner, repo, comment_id: copy.id });
  return { url: updated.data.html_url, action: 'updated', removed: extra.length };
}
