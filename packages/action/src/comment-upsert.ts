import type { GitHub } from './github-api.js';
import { carriesMarker } from './markers.js';

export interface UpsertTarget {
  owner: string;
  repo: string;
  issueNumber: number;
  /** The hidden first line the comment is found by. */
  marker: string;
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
  const { owner, repo, issueNumber, marker } = target;
  const comments = await gh.paginate(gh.rest.issues.listComments, { owner, repo, issue_number: issueNumber, per_page: 100 });
  const mine = comments.filter((comment) => carriesMarker(comment.body, marker)).sort((a, b) => a.id - b.id);
  const [first, ...extra] = mine;
  if (first === undefined) {
    const created = await gh.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body });
    return { url: created.data.html_url, action: 'created', removed: 0 };
  }
  const updated = await gh.rest.issues.updateComment({ owner, repo, comment_id: first.id, body });
  for (const copy of extra) await gh.rest.issues.deleteComment({ owner, repo, comment_id: copy.id });
  return { url: updated.data.html_url, action: 'updated', removed: extra.length };
}
