/**
 * The plan comment on a pull request, section by section:
 *
 *   marker, title
 *   the pull request's own changes (the reconciler's Markdown: unsafe banner, deletions and retirements by name,
 *     table, steps per kind, drift, unmanaged, warnings), or one line when it changes nothing in the account
 *   each section of COMMENT_SECTIONS, in order (steps the pull request did not cause, ...)
 *   the hidden reviewed-plan record
 *   footer (commit, run)
 *
 * To add a section, add a function to COMMENT_SECTIONS: it gets the plan view and the room left, and returns
 * Markdown (empty to leave the section out). Sections get room in order after the pull request's own changes.
 */
import { markdownText, hasChanges, markdownLength, pluralCount as plural, renderMarkdown, renderPolicySection, renderStepList, type Plan, type PlanStep } from '@monsync/reconciler';
import { ACTION_OVERRIDE, type BodyContext } from './bodies.js';
import { planOf } from './review-record.js';

/** The plan as the comment shows it: the steps the pull request caused, and those it did not. */
export interface PlanView {
  plan: Plan;
  /** The steps of objects declared in files the pull request does not change; empty when that is not known. */
  notFromPullRequest: readonly PlanStep[];
  /** Whether the pull request's files were known (else every step counts as the pull request's). */
  split: boolean;
}

export interface PlanCommentContext extends BodyContext {
  /** The hidden reviewed-plan record line; empty for the job summary. */
  record: string;
}

/** A section after the pull request's own changes: Markdown within `room` bytes, or '' for none. */
export type CommentSection = (view: PlanView, room: number, context: PlanCommentContext) => string;

/** Share of the budget the sections may take before the pull request's own changes are rendered. */
const SECTION_SHARE = 0.3;

/**
 * Steps of objects whose declarations the pull request does not touch: drift (the account differs from what the
 * default branch declares), or changes merged but not applied yet. Collapsed, so they never mix with the
 * pull request's own changes.
 */
export const notFromPullRequestSection: CommentSection = (view, room, context) => {
  const steps = view.notFromPullRequest;
  if (steps.length === 0) return '';
  const open =
    `<details><summary><b>Not from this pull request</b>: ${plural(steps.length, 'step')} for objects declared in files it does not change</summary>\n\n` +
    'The account differs from these declarations on the default branch: drift (changed in the account outside git), or a change merged but not applied yet. ' +
    'An apply after merging makes them too; each was changed last by the operator named in its `drift:` line, when the service records one.\n\n';
  const close = '\n</details>\n\n';
  const list = renderStepList(steps, room - markdownLength(open + close), (count) => `\n… ${plural(count, 'more step')}: ${context.fullPlanHint}`);
  return `${open}${list}${close}`;
};

/** The sections after the pull request's own changes, in order. */
export const COMMENT_SECTIONS: readonly CommentSection[] = [notFromPullRequestSection];

/** Which steps are not the pull request's: declared (with a source) in a file outside `changedFiles`. */
export function viewOf(plan: Plan, changedFiles: ReadonlySet<string> | undefined, folder: string): PlanView {
  if (changedFiles === undefined) return { plan, notFromPullRequest: [], split: false };
  // A change to the settings (manage, prune, ignore, safety) can change any object without touching its file.
  const settings = folder === '.' ? 'monsync.yaml' : `${folder}/monsync.yaml`;
  if (changedFiles.has(settings)) return { plan, notFromPullRequest: [], split: true };
  const inRepo = (file: string) => (folder === '.' ? file : `${folder}/${file}`);
  // An ensure step is in every plan (alert definitions cannot be read back): not drift, so it stays with the rest.
  const others = plan.steps.filter((step) => (step.action === 'create' || step.action === 'update') && step.source !== undefined && !changedFiles.has(inRepo(step.source.file)));
  return { plan, notFromPullRequest: others, split: true };
}

function head(context: PlanCommentContext, title: string): string {
  return `${context.marker === '' ? '' : `${context.marker}\n`}## ${markdownText(title)}\n\n`;
}

/** The plan comment: see the top of this file for its layout. */
export function planComment(view: PlanView, context: PlanCommentContext, title = `monsync plan: ${context.label}`): string {
  const record = context.record === '' ? '' : `\n${context.record}\n`;
  const fixed = markdownLength(record) + markdownLength(context.footer) + 2;
  let sections = '';
  let room = Math.floor((context.budget - fixed) * SECTION_SHARE);
  for (const section of COMMENT_SECTIONS) {
    const text = section(view, room, context);
    sections += text;
    room -= markdownLength(text);
  }
  const own = view.notFromPullRequest.length === 0 ? view.plan : planOf(view.plan, view.plan.steps.filter((step) => !view.notFromPullRequest.includes(step)));
  const ownBudget = context.budget - fixed - markdownLength(sections);
  let body: string;
  if (!hasChanges(own) && own.violations.length === 0 && own.warnings.length === 0) {
    const others = view.notFromPullRequest.length > 0 ? ' The account differs from files it does not change: see below.' : '';
    const line = `${head(context, title)}**No changes:** this pull request changes nothing in the account.${others}\n\n`;
    // Policy findings (the account's among them) change nothing, but reviewers must see them: an error fails the check.
    const more = (count: number) => `\n… ${plural(count, 'more finding')}: ${context.fullPlanHint}\n`;
    body = `${line}${renderPolicySection(own, ownBudget - markdownLength(line), more)}`;
  } else {
    body = renderMarkdown(own, { marker: context.marker, title, budget: ownBudget, limit: context.budget, fullPlanHint: context.fullPlanHint, override: ACTION_OVERRIDE }).replace(/^\n/, '');
  }
  return `${body}${sections}${record}${context.footer}`.replace(/\n{3,}/g, '\n\n');
}
