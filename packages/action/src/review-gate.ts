/**
 * Apply on merge applies what was reviewed: the merged pull request's reviewed-plan record (in the plan comment the
 * plan job wrote, found by marker and author) decides, step by step, what the plan made at merge may write.
 */
import type { Plan } from '@monsync/reconciler';
import { ownComments } from './comment-upsert.js';
import { GitHubContextError } from './errors.js';
import type { GitHub } from './github-api.js';
import { repoOf, type GitHubContext } from './github-context.js';
import type { Unreviewed } from './inputs.js';
import { planMarker } from './markers.js';
import { compareWithRecord, planOf, readRecord, type HeldStep, type ReviewRecord, type ReviewedStep } from './review-record.js';

export interface MergedPullRequest {
  number: number;
  /** The head commit when it was merged (not the merge commit): the commit its last plan must have been made for. */
  headSha: string;
}

/**
 * The pull request merged as this commit: the commit's pull requests, preferring the one whose merge commit it is.
 * Undefined when the push was not a merge of a pull request.
 */
export async function mergedPullRequest(gh: GitHub, context: GitHubContext): Promise<MergedPullRequest | undefined> {
  if (context.sha === '') throw new GitHubContextError('GITHUB_SHA is not set: apply comments on the pull request merged as that commit');
  const { owner, repo } = repoOf(context);
  const pulls = await gh.paginate(gh.rest.repos.listPullRequestsAssociatedWithCommit, { owner, repo, commit_sha: context.sha, per_page: 100 });
  const merged = pulls.filter((pr) => pr.merged_at !== null && pr.merged_at !== undefined);
  const found = merged.find((pr) => pr.merge_commit_sha === context.sha) ?? merged[0];
  return found === undefined ? undefined : { number: found.number, headSha: found.head.sha };
}

/** What the review of the merged pull request allows. */
export type Review =
  /** The record of the pull request's last plan, made for its merged head. */
  | { kind: 'record'; record: ReviewRecord; pr: MergedPullRequest }
  /** No usable record: `why` says what is missing. */
  | { kind: 'none'; why: string; pr: MergedPullRequest | undefined };

/** The latest reviewed-plan record of the merged pull request, checked against its merged head. */
export async function readReview(gh: GitHub, context: GitHubContext, label: string, author: string): Promise<Review> {
  const pr = await mergedPullRequest(gh, context);
  if (pr === undefined) return { kind: 'none', why: `commit ${context.sha.slice(0, 7)} is not the merge of a pull request, so no plan of it was reviewed`, pr };
  const comments = await ownComments(gh, { ...repoOf(context), issueNumber: pr.number, marker: planMarker(label), author });
  const record = comments
    .map((comment) => readRecord(comment.body))
    .filter((r): r is ReviewRecord => r !== undefined)
    .at(-1);
  if (record === undefined) {
    return {
      kind: 'none',
      why: `pull request #${pr.number} has no reviewed-plan record of ${label} by ${author} (its plan comment is missing, its last plan failed, or it was written by an older monsync or another token)`,
      pr,
    };
  }
  if (record.head !== pr.headSha) {
    return {
      kind: 'none',
      why: `the plan comment of pull request #${pr.number} was made for commit ${record.head.slice(0, 7)}, but the pull request was merged at ${pr.headSha.slice(0, 7)}: its last push was never planned`,
      pr,
    };
  }
  return { kind: 'record', record, pr };
}

/** What the plan made at merge may write. */
export interface Gate {
  /** The plan to apply: the reviewed steps, or every step with `unreviewed: apply`. */
  apply: Plan;
  /** Steps not applied, and why. */
  held: HeldStep[];
  /** Steps applied although nobody reviewed them (`unreviewed: apply`). */
  unreviewedApplied: HeldStep[];
  /** Reviewed steps the plan made now no longer has. */
  gone: ReviewedStep[];
}

/** Splits the plan made at merge (under the apply lock) by the review. */
export function gateOf(review: Review, plan: Plan, unreviewed: Unreviewed): Gate {
  if (review.kind === 'none') {
    const all = plan.steps.map((step) => ({ step, reason: { why: 'unreviewable' as const } }));
    return unreviewed === 'apply' ? { apply: plan, held: [], unreviewedApplied: all, gone: [] } : { apply: planOf(plan, []), held: all, unreviewedApplied: [], gone: [] };
  }
  const compared = compareWithRecord(review.record, plan);
  if (unreviewed === 'apply') return { apply: plan, held: [], unreviewedApplied: compared.held, gone: compared.gone };
  return { apply: planOf(plan, compared.reviewed), held: compared.held, unreviewedApplied: [], gone: compared.gone };
}
