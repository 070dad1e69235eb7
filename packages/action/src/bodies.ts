/**
 * The Markdown the action writes: pull request comments, the drift issue and the job summary. Every body has a
 * size budget: GitHub refuses comment and issue bodies over 65,536 characters and step summaries over 1 MiB.
 */
import {
  markdownCode,
  markdownText,
  formatCount as n,
  markdownLength,
  pluralCount as plural,
  renderMarkdown,
  stepTitle,
  unsafeAdvice,
  violationLines,
  type ApplyReport,
  type Plan,
  type PlanStep,
  type StepRef,
} from '@monsync/reconciler';
import type { Diagnostic } from '@monsync/schema';
import type { HeldStep, ReviewedStep } from './review-record.js';

export const COMMENT_BUDGET = 65_000;
/** GitHub's step summary limit is 1 MiB; what is left is headroom for what other steps write. */
export const SUMMARY_BUDGET = 1_000_000;

/** How the action accepts an unsafe plan, in the wording of `unsafeAdvice`. */
export const ACTION_OVERRIDE = { name: 'the input allow-unsafe: true', example: 'set it on the apply step' };

export interface BodyContext {
  /** The hidden first line; empty for the job summary, which nobody searches. */
  marker: string;
  /** The config folder, relative to the repository root. */
  label: string;
  /** Closing line: commit and run. */
  footer: string;
  /** Where the whole plan is when a body is cut. */
  fullPlanHint: string;
  budget: number;
}

const PAST: Record<PlanStep['action'], string> = { create: 'created', update: 'updated', delete: 'deleted', ensure: 'ensured' };

/** `monitor "Shop homepage"`, safe inside Markdown. */
function stepName(step: Pick<StepRef, 'kind' | 'key'>): string {
  return markdownText(stepTitle(step));
}

/** `commit abc1234 · workflow run` under each body, so a reader knows which push and run it speaks for. */
export function footerLine(sha: string, runLink: string | undefined): string {
  const parts = ['monsync'];
  if (sha !== '') parts.push(`commit \`${sha.slice(0, 7)}\``);
  if (runLink !== undefined) parts.push(`[workflow run](${runLink})`);
  return `\n<sub>${parts.join(' · ')}</sub>\n`;
}

/** Whole lines while they fit in `budget` bytes, then one line saying how many more there are. */
export function boundedLines(lines: readonly string[], budget: number, more: (count: number) => string): string {
  let out = '';
  let used = 0;
  for (const [i, line] of lines.entries()) {
    const size = markdownLength(line) + 1;
    const rest = lines.length - i;
    if (used + size + markdownLength(more(rest)) + 1 > budget) return `${out}${more(rest)}\n`;
    out += `${line}\n`;
    used += size;
  }
  return out;
}

function head(marker: string, title: string): string {
  return `${marker === '' ? '' : `${marker}\n`}## ${markdownText(title)}\n\n`;
}

/** The plan as a comment (or summary): the reconciler's renderer, the footer inside the budget. */
export function planBody(plan: Plan, context: BodyContext, title = `monsync plan: ${context.label}`): string {
  return renderMarkdown(plan, { marker: context.marker, title, budget: context.budget, fullPlanHint: context.fullPlanHint, footer: context.footer, override: ACTION_OVERRIDE }).replace(/^\n/, '');
}

/** Validation failed: what is wrong, where, and that nothing was sent. */
export function validationBody(diagnostics: readonly Diagnostic[], paths: (d: Diagnostic) => string, context: BodyContext): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  const top =
    head(context.marker, `monsync plan: ${context.label}`) +
    `> [!CAUTION]\n> **The configuration has ${plural(errors, 'error')}${warnings > 0 ? ` and ${plural(warnings, 'warning')}` : ''}; nothing was sent to the API.** ` +
    'Each is annotated on its line in the Files tab.\n\n| Where | Severity | Code | Message |\n|---|---|---|---|\n';
  const rows = diagnostics.map(
    (d) => `| ${markdownCode(`${paths(d)}:${d.line}:${d.column}`, { inTable: true })} | ${d.severity} | \`${d.code}\` | ${markdownText(d.message)}${d.hint === undefined ? '' : ` <br>${markdownText(d.hint)}`} |`,
  );
  const room = context.budget - markdownLength(top) - markdownLength(context.footer);
  const list = boundedLines(rows, room, (count) => `\n> [!NOTE]\n> ${plural(count, 'more finding')} not shown: this comment is limited to ${n(context.budget)} characters; see the annotations and the job log.`);
  return `${top}${list}${context.footer}`;
}

/** Longest failure message a comment quotes; the whole one is in the job log. */
const FAILURE_QUOTE_LIMIT = 4_000;

/**
 * The plan failed (the API refused the login, a listing failed, ...): the comment says so in place of the plan it
 * showed before, which no longer describes the pull request. `message` must already be redacted.
 */
export function planFailedBody(message: string, sha: string, context: BodyContext): string {
  const at = sha === '' ? '' : ` at commit \`${sha.slice(0, 7)}\``;
  const quoted = message.length > FAILURE_QUOTE_LIMIT ? `${message.slice(0, FAILURE_QUOTE_LIMIT)}… (the whole message is in the job log)` : message;
  return (
    head(context.marker, `monsync plan: ${context.label}`) +
    `> [!CAUTION]\n> **The plan failed${at}; no plan was made.** A plan shown here before is out of date. Fix the cause and run the workflow again.\n>\n` +
    `> ${markdownText(quoted)}\n${context.footer}`
  );
}

/** What the review of the merged pull request did to an apply. */
export interface ReviewNote {
  /** Why there was no usable reviewed-plan record, if there was none. */
  why: string | undefined;
  pr: number | undefined;
  held: readonly HeldStep[];
  /** Applied on purpose with `unreviewed: apply`. */
  unreviewedApplied: readonly HeldStep[];
  /** Reviewed steps the plan made at merge no longer has. */
  gone: readonly ReviewedStep[];
}

export type ApplyOutcome =
  | { kind: 'nothing'; plan: Plan; review?: ReviewNote }
  | { kind: 'refused'; plan: Plan }
  /** Steps were held and nothing else was to be applied. */
  | { kind: 'held'; plan: Plan; review: ReviewNote }
  | { kind: 'applied'; plan: Plan; report: ApplyReport; review?: ReviewNote };

export const HOW_TO_APPLY_UNREVIEWED =
  'To apply them on purpose, run the apply workflow again (Actions tab, "Run workflow") with unreviewed: apply; or open a pull request whose plan shows them, and merge it once reviewed.';

/** Why a step was held, for people. */
export function holdReasonText(held: HeldStep): string {
  const { step, reason } = held;
  const drift = step.drift === undefined ? '' : `; changed outside git by ${step.drift.operatorName ?? step.drift.lastModifiedByOperatorId ?? 'another operator'}${step.drift.lastModifiedDate === undefined ? '' : ` at ${step.drift.lastModifiedDate}`}`;
  switch (reason.why) {
    case 'new':
      return `new since the review: the reviewed plan had no such step${drift}`;
    case 'changed':
      return `changed since the review: it would write other values than the reviewed plan showed${drift}`;
    case 'waits':
      return `waits for ${reason.on}, which is held`;
    case 'unreviewable':
      return `not reviewed${drift}`;
  }
}

/** The review's part of an apply comment: what was held and why, what went through unreviewed, and how to apply held steps. */
function reviewSection(note: ReviewNote | undefined, applied: boolean, budget: number): string {
  if (note === undefined) return '';
  let out = '';
  const cut = (count: number) => `- … ${plural(count, 'more step')}: see the job summary`;
  const line = (h: HeldStep) => `- ${stepName(h.step)} (${h.step.action}): ${markdownText(holdReasonText(h))}`;
  if (note.held.length > 0) {
    const pr = note.pr === undefined ? 'on the pull request' : `on pull request #${note.pr}`;
    const why = note.why === undefined ? `they were not in the plan reviewed ${pr}` : markdownText(note.why);
    out +=
      `> [!CAUTION]\n> **${plural(note.held.length, 'step')} held, not applied:** ${why}.${applied ? ' The reviewed steps were applied.' : ' Nothing was applied.'}\n>\n` +
      `> ${markdownText(HOW_TO_APPLY_UNREVIEWED)}\n\n### Held\n\n${boundedLines(note.held.map(line), Math.floor(budget * 0.15), cut)}\n`;
  }
  if (note.unreviewedApplied.length > 0) {
    out += `> [!WARNING]\n> **${plural(note.unreviewedApplied.length, 'step')} nobody reviewed applied on purpose** (unreviewed: apply)${note.why === undefined ? '' : `: ${markdownText(note.why)}`}.\n\n`;
    out += `<details><summary>Applied without review</summary>\n\n${boundedLines(note.unreviewedApplied.map(line), Math.floor(budget * 0.05), cut)}\n</details>\n\n`;
  }
  if (note.gone.length > 0) out += `${plural(note.gone.length, 'reviewed step')} no longer planned at merge (already in place): nothing to do for ${note.gone.length === 1 ? 'it' : 'them'}.\n\n`;
  return out;
}

function reportCounts(steps: readonly StepRef[]): string {
  const by = { create: 0, update: 0, delete: 0, ensure: 0 };
  for (const step of steps) by[step.action] += 1;
  const parts = (['create', 'update', 'delete', 'ensure'] as const).filter((a) => by[a] > 0).map((a) => `${n(by[a])} ${PAST[a]}`);
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

export function applyHeadline(report: ApplyReport): string {
  const state = report.ok ? 'Apply complete' : report.failed.length > 0 ? 'Apply finished with failures' : 'Apply stopped';
  return (
    `${state}: ${n(report.done.length)} of ${n(report.total)} steps done${reportCounts(report.done)}, ${n(report.failed.length)} failed, ` +
    `${n(report.skipped.length)} skipped${report.notRun.length > 0 ? `, ${n(report.notRun.length)} not run` : ''}, in ${(report.durationMs / 1000).toFixed(1)}s.`
  );
}

/** Apply's result: nothing to do, refused as unsafe, or done / failed / skipped step by step; then the plan it ran. */
export function applyBody(outcome: ApplyOutcome, context: BodyContext): string {
  const title = `monsync apply: ${context.label}`;
  if (outcome.kind === 'nothing') {
    return `${head(context.marker, title)}**Nothing to apply:** the account matches the configuration.\n\n${reviewSection(outcome.review, false, context.budget)}${context.footer}`;
  }
  let intro = '';
  if (outcome.kind === 'held') {
    intro = `${reviewSection(outcome.review, false, context.budget)}### The plan made at merge (not applied)\n`;
  } else if (outcome.kind === 'refused') {
    const plan = outcome.plan;
    intro =
      '> [!CAUTION]\n> **Apply refused: the plan is unsafe** (over the safety thresholds of monsync.yaml); nothing was changed.\n' +
      violationLines(plan.violations).map((line) => `> - ${markdownText(line.trim())}\n`).join('') +
      `>\n> ${markdownText(unsafeAdvice(plan.violations, ACTION_OVERRIDE))}\n\n### The refused plan\n`;
  } else {
    const { report } = outcome;
    intro = `**${applyHeadline(report)}**\n\n${reviewSection(outcome.review, true, context.budget)}`;
    if (!report.ok) intro += 'Run the workflow again once the cause is fixed: what is done stays done, and only the rest is planned.\n\n';
    const failed = report.failed.map((f) => `- ${stepName(f)} (${f.action}): ${markdownText(f.message)}`);
    const skipped = report.skipped.map((k) => `- ${stepName(k)} (${k.action}): waits for ${markdownText(k.waitedFor)}${k.via === undefined ? '' : ` through ${markdownText(k.via)}`}`);
    const done = report.done.map((d) => `- ${stepName(d)}: ${PAST[d.action]}${d.guid !== undefined && d.action === 'create' ? ` (${markdownCode(d.guid)})` : ''}${d.note === undefined ? '' : ` [${markdownText(d.note)}]`}`);
    const cut = (what: string) => (count: number) => `- … ${plural(count, `more ${what}`)}: ${context.fullPlanHint}`;
    // Failures matter most: they get room first, then skips, then what was done; the plan gets what is left.
    const share = context.budget - markdownLength(head(context.marker, title)) - markdownLength(context.footer);
    if (failed.length > 0) intro += `### Failed\n\n${boundedLines(failed, Math.floor(share * 0.3), cut('failed step'))}\n`;
    if (skipped.length > 0) intro += `### Skipped: a step they depend on failed\n\n${boundedLines(skipped, Math.floor(share * 0.15), cut('skipped step'))}\n`;
    if (done.length > 0) {
      const open = `<details><summary>Done: ${plural(done.length, 'step')}</summary>\n\n`;
      const close = '\n</details>\n';
      intro += `${open}${boundedLines(done, Math.floor(share * 0.25) - markdownLength(open + close), cut('step'))}${close}`;
    }
    intro += (outcome.review?.held.length ?? 0) > 0 ? '\n### The plan made at merge (held steps included, not applied)\n' : '\n### The plan applied\n';
  }
  return renderMarkdown(outcome.plan, { marker: context.marker, title, intro, budget: context.budget, fullPlanHint: context.fullPlanHint, footer: context.footer, override: ACTION_OVERRIDE }).replace(/^\n/, '');
}

/** Who changed what outside git, one line per operator, from the plan's drift entries. */
export function operatorLines(plan: Plan): string[] {
  const byOperator = new Map<string, { count: number; last: string | undefined }>();
  for (const step of plan.steps) {
    if (step.drift === undefined) continue;
    const who = step.drift.operatorName ?? (step.drift.lastModifiedByOperatorId === undefined ? 'another operator' : `operator ${step.drift.lastModifiedByOperatorId}`);
    const entry = byOperator.get(who) ?? { count: 0, last: undefined };
    entry.count += 1;
    const at = step.drift.lastModifiedDate;
    if (at !== undefined && (entry.last === undefined || at > entry.last)) entry.last = at;
    byOperator.set(who, entry);
  }
  return [...byOperator.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([who, { count, last }]) => `- **${markdownText(who)}**: ${plural(count, 'object')} changed outside git${last === undefined ? '' : `, last at ${markdownText(last)}`}`);
}

/**
 * Objects the tree declares that the account lacks. The service keeps no record of a delete, so these cannot be
 * attributed like changed objects; they are drift all the same (or a merge not applied yet) and named, not only counted.
 */
function goneLines(plan: Plan): string {
  const gone = plan.steps.filter((step) => step.action === 'create').map((step) => `- ${markdownText(stepTitle(step))}`);
  if (gone.length === 0) return '';
  const heading = '### Declared in git, missing from the account\n\nDeleted outside git (the service does not record by whom), or merged and not applied yet; an apply creates them again.\n\n';
  return `${heading}${boundedLines(gone, 4_000, (count) => `- … ${plural(count, 'more object')}`)}\n`;
}

/** The drift issue: what differs between git and the account, who changed it outside git, and the plan that would undo it. */
export function driftBody(plan: Plan, context: BodyContext & { sha: string; answers?: string }): string {
  let intro =
    `The live account differs from ${markdownCode(context.label)}${context.sha === '' ? '' : ` at commit \`${context.sha.slice(0, 7)}\``}: an apply would make the changes below. ` +
    'Either apply the configuration again, or bring the changes made in the account into git. Each scheduled run updates this issue, and closes it once the drift is gone.\n\n';
  if (context.answers !== undefined) intro += context.answers;
  const operators = operatorLines(plan);
  if (operators.length > 0) {
    intro += `### Changed outside git\n\n${boundedLines(operators, 8_000, (count) => `- … ${plural(count, 'more operator')}`)}\n`;
  } else {
    intro += 'No object records a change by another operator: the configuration changed, or the account was changed by the API account itself.\n\n';
  }
  intro += goneLines(plan);
  intro += '### Plan\n';
  return renderMarkdown(plan, { marker: context.marker, title: `monsync drift: ${context.label}`, intro, budget: context.budget, fullPlanHint: context.fullPlanHint, footer: context.footer, override: ACTION_OVERRIDE }).replace(
    /^\n/,
    '',
  );
}

export function driftGoneComment(label: string, sha: string, footer: string): string {
  return `**Drift is gone:** the live account matches ${markdownCode(label)}${sha === '' ? '' : ` at commit \`${sha.slice(0, 7)}\``}. Closing.\n${footer}`;
}

/** The drift issue's two answers when the drift job keeps an "Accept live changes" pull request (input drift-pr). */
export function driftAnswers(label: string, accept: { number: number; url: string } | { reason: string }): string {
  // Reverting drift writes steps no pull request reviewed: apply holds them unless asked on purpose.
  const revert = `- **Keep git:** run the apply workflow again with unreviewed: apply (Actions tab, "Run workflow"); it puts the account back as ${markdownCode(label)} says.`;
  const keep =
    'number' in accept
      ? `- **Keep the account's changes:** review and merge [#${accept.number} Accept live changes](${accept.url}), which writes them into ${markdownCode(label)}.`
      : `- **Keep the account's changes:** ${accept.reason}`;
  return `### Two ways to answer\n\n${revert}\n${keep}\n\nEither way, the next drift run closes this issue once git and the account agree.\n\n`;
}

/** The body of the "Accept live changes" pull request: what it writes into the tree, and what it leaves. */
export function acceptBody(marker: string, label: string, edits: readonly string[], notes: readonly string[], footer: string): string {
  const list = (lines: readonly string[]) => boundedLines(lines.map((line) => `- ${markdownText(line)}`), 20_000, (count) => `- … ${plural(count, 'more')}`);
  let body = `${marker}\n## Accept live changes: ${markdownCode(label)}\n\n`;
  body +=
    `The live account was changed outside git. Merging this pull request writes those changes into ${markdownCode(label)} (only the lines that differ; ` +
    'comments and layout stay), so git and the account agree again and the next drift run closes the drift issue. ' +
    'To undo the changes in the account instead, run the apply workflow again with unreviewed: apply; this pull request is then closed by the next drift run.\n\n';
  body += `### Written into the tree\n\n${list(edits)}\n`;
  if (notes.length > 0) body += `### Left as they are\n\n${list(notes)}\n`;
  return `${body}${footer}`;
}
