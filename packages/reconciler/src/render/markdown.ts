/**
 * Markdown for pull-request comments: the summary table first, unsafe plans and deletions called out at the top,
 * one collapsible section per kind, a drift section, and a hidden marker line that lets a bot find and update
 * its own comment. The whole comment stays within a size budget (GitHub refuses bodies over 65,536 characters).
 */
import type { Plan, PlanStep, StepKind } from '../plan/types.js';
import { actionWord, driftAuthor, driftLine, ensureLine, findingPlace, formatCount as count, formatPath, formatValue, formatValues, guidTag, protectedLine, removalLine, sourcePlace, stepTitle, summaryLine } from './format.js';
import { markdownCode, markdownText as escapeMarkdown, plainText } from './escape.js';
import { policyErrors, protectedSteps } from '../plan/refusals.js';
import { SENSITIVE } from '../plan/types.js';
import { KINDS } from '../kinds/index.js';
import { onCallMarkdown } from './on-call.js';
import { pagingMarkdown } from './paging.js';
import { unsafeAdvice, violationLines, type OverrideWording } from '../run/safety.js';

export const MARKDOWN_MARKER = '<!-- monsync:plan -->';
export const DEFAULT_MARKDOWN_BUDGET = 65_000;

export interface MarkdownOptions {
  /** Maximum size, measured by `markdownLength`; 65,000 by default. */
  budget?: number;
  /** Where the full plan is when the comment is cut: Markdown, e.g. a link to the CI artifact (kept as written). */
  fullPlanHint?: string;
  /** First heading; `monsync plan` by default. */
  title?: string;
  /**
   * The hidden first line a bot finds its comment by; `MARKDOWN_MARKER` by default. A bot that comments once per
   * config folder names the folder in it, so that two trees never update each other's comment.
   */
  marker?: string;
  /** Markdown right under the heading (e.g. an apply's result above the plan it ran), inside the budget and never cut. */
  intro?: string;
  /** Markdown closing the body (e.g. which commit and CI run it speaks for), inside the budget and never cut. */
  footer?: string;
  /**
   * How the reader accepts an unsafe plan where it is not the CLI's `--allow-unsafe` (the action's input
   * `allow-unsafe`): the banner then names it, and the advice of `unsafeAdvice` replaces the CLI's.
   */
  override?: OverrideWording;
  /** The limit the note of a cut body names: the whole comment's, when this rendering is one part of it; `budget` by default. */
  limit?: number;
}

/**
 * Size as counted against the budget: UTF-8 bytes. A byte count is never below the count in code points (what
 * GitHub's validation counts) nor in UTF-16 units (a JavaScript string's length), so a comment within the budget
 * fits whichever of them the limit is enforced in; names in any script (`監視`, emoji) are counted safely.
 */
export function markdownLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Kinds in plan order, as the tables and sections list them. */
const KIND_ORDER: readonly StepKind[] = KINDS.map((mod) => mod.kind);

const ACTIONS = ['create', 'update', 'delete', 'ensure'] as const;
const MAX_CHANGES_PER_STEP = 50;

/** Lines of one step inside a ```diff block: `+` green, `-` red, `!` (update) orange, as tfcmt does. */
function stepLines(step: PlanStep): string[] {
  const head = { create: '+', update: '!', delete: '-', ensure: '=' }[step.action];
  const where = step.source === undefined ? '' : `  (${sourcePlace(step.source)})`;
  const tag = guidTag(step);
  const lines = [`${head} ${actionWord(step)} ${stepTitle(step)}${tag === '' ? '' : ` ${tag}`}${where}`];
  if (step.action === 'ensure') lines.push(`=     ${ensureLine(step)}`);
  const shown = step.changes.slice(0, MAX_CHANGES_PER_STEP);
  for (const change of shown) {
    const path = formatPath(change.path);
    if (change.sensitive === true) {
      lines.push(`!     ${path}: ${SENSITIVE}`);
    } else if (change.op === 'add') {
      lines.push(`+     ${path}: ${formatValue(change.after)}`);
    } else if (change.op === 'remove') {
      lines.push(`-     ${path}: ${formatValue(change.before)}`);
    } else {
      const [before, after] = formatValues(change.before, change.after);
      lines.push(`-     ${path}: ${before}`, `+     ${path}: ${after}`);
    }
  }
  if (step.changes.length > shown.length) lines.push(`#     … ${count(step.changes.length - shown.length)} more field changes`);
  if (step.reason !== undefined) lines.push(`#     reason: ${plainText(step.reason)}`);
  const removal = removalLine(step);
  if (removal !== undefined) lines.push(`#     ${removal}`);
  const drift = driftLine(step);
  if (drift !== undefined) lines.push(`#     drift: ${drift}`);
  const refused = protectedLine(step);
  if (refused !== undefined) lines.push(`#     ${refused}`);
  return lines;
}

function fenceFor(lines: readonly string[]): string {
  let longest = 0;
  for (const line of lines) for (const run of line.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}

interface Section {
  open: string;
  close: string;
  /** Each block is kept or cut whole. */
  blocks: string[];
  /** What a cut block counts as in the note. */
  unit: 'step' | 'drift' | 'unmanaged' | 'warning' | 'onCall' | 'paging' | 'policy';
}

/**
 * The caution block of an unsafe plan. Vault items monsync never applied carry no fingerprint marker, so their
 * secrets cannot be compared and each plans one update: on a first plan that alone can pass the update thresholds,
 * and the reader is told so rather than left to find a change they did not make.
 */
function unsafeBanner(plan: Plan, override: OverrideWording | undefined): string[] {
  const out = ['> [!CAUTION]', `> **Unsafe plan:** apply refuses it without ${override === undefined ? '`--allow-unsafe`' : escapeMarkdown(override.name)}.`];
  if (override === undefined) for (const v of plan.violations) out.push(`> - ${escapeMarkdown(v.message)}`);
  else out.push(...violationLines(plan.violations).map((line) => `> - ${escapeMarkdown(line.trim())}`), '>', `> ${escapeMarkdown(unsafeAdvice(plan.violations, override))}`);
  const unmarked = plan.steps.filter((step) => step.action === 'update' && step.reason?.includes('no fingerprint marker') === true);
  const kinds = new Set<string>(unmarked.map((step) => step.kind));
  if (unmarked.length > 0 && plan.violations.some((v) => v.action === 'update' && kinds.has(v.kind))) {
    out.push(
      '>',
      `> ${count(unmarked.length)} of the updates ${unmarked.length === 1 ? 'is' : 'are'} there only because ${unmarked.length === 1 ? 'that vault item carries' : 'those vault items carry'} no monsync fingerprint marker yet ` +
        '(monsync never applied them): the API never returns secrets, so they cannot be compared and are written once. After that apply they plan no change.',
    );
  }
  out.push('');
  return out;
}

/** Most deletions and retirements named at the top; the rest are in the steps below and the full plan. */
const MAX_REMOVALS_NAMED = 100;

/**
 * Deletions and retirements first, each named by kind and key: what a reviewer must not miss. A delete that may be
 * a retirement (`removal: auto`) says so.
 */
function removalBlock(plan: Plan): string[] {
  const removals = plan.steps.filter((s) => s.action === 'delete');
  if (removals.length === 0) return [];
  const retired = removals.filter((s) => s.removal === 'deactivate').length;
  const deleted = removals.length - retired;
  const what = [deleted > 0 ? `deletes ${count(deleted)} object${deleted === 1 ? '' : 's'}` : '', retired > 0 ? `retires ${count(retired)}${deleted > 0 ? '' : ` object${retired === 1 ? '' : 's'}`}` : '']
    .filter((part) => part !== '')
    .join(' and ');
  const out = ['> [!WARNING]', `> **This plan ${what}:**`];
  for (const step of removals.slice(0, MAX_REMOVALS_NAMED)) {
    const verb = step.removal === 'auto' ? 'delete (retire where the service refuses)' : actionWord(step);
    out.push(`> - ${verb} ${escapeMarkdown(stepTitle(step))}`);
  }
  if (removals.length > MAX_REMOVALS_NAMED) out.push(`> - … ${count(removals.length - MAX_REMOVALS_NAMED)} more: see the steps below`);
  out.push('');
  return out;
}

function kindTable(plan: Plan): string[] {
  const perKind = new Map<StepKind, Record<(typeof ACTIONS)[number], number>>();
  for (const step of plan.steps) {
    const row = perKind.get(step.kind) ?? { create: 0, update: 0, delete: 0, ensure: 0 };
    row[step.action] += 1;
    perKind.set(step.kind, row);
  }
  if (perKind.size === 0) return [];
  const out = ['| Kind | Create | Update | Delete | Ensure |', '|---|---:|---:|---:|---:|'];
  for (const kind of KIND_ORDER) {
    const row = perKind.get(kind);
    if (row !== undefined) out.push(`| ${kind} | ${count(row.create)} | ${count(row.update)} | ${count(row.delete)} | ${count(row.ensure)} |`);
  }
  out.push(`| **Total** | **${count(plan.summary.create)}** | **${count(plan.summary.update)}** | **${count(plan.summary.delete)}** | **${count(plan.summary.ensure)}** |`, '');
  return out;
}

function header(plan: Plan, title: string, marker: string, intro: string | undefined, override?: OverrideWording): string {
  const out: string[] = [marker, `## ${escapeMarkdown(title)}`, ''];
  if (intro !== undefined && intro !== '') out.push(intro.replace(/^\n+|\n+$/g, ''), '');
  const changes = plan.summary.create + plan.summary.update + plan.summary.delete;
  out.push(changes === 0 && plan.summary.ensure === 0 ? '**No changes.** The account matches the configuration.' : `**${summaryLine(plan)}**`, '');
  // What must not be missed comes first: an unsafe plan, then every deletion and retirement by name.
  out.push(...refusedBanner(plan));
  if (!plan.safe) out.push(...unsafeBanner(plan, override));
  out.push(...removalBlock(plan), ...kindTable(plan));
  return `${out.join('\n')}\n`;
}

/**
 * Objects changed (or made) outside git. The service records who changed an object last, not which field: the
 * attribution is per object, and the fields listed are the ones the plan would set back.
 */
function driftSection(drifted: readonly PlanStep[]): Section {
  return {
    open:
      '### Drift: changed outside git\n\nWho changed each object is recorded **per object** (the service keeps who changed it last, not which field); ' +
      'the fields are those this plan sets back.\n\n| Object | Changed by | At | This plan |\n|---|---|---|---|\n',
    close: '\n',
    blocks: drifted.map((s) => {
      const who = s.drift === undefined ? 'unknown' : driftAuthor(s.drift);
      return `| ${escapeMarkdown(stepTitle(s))} | ${escapeMarkdown(who)} | ${escapeMarkdown(s.drift?.lastModifiedDate ?? '')} | ${escapeMarkdown(driftWhat(s))} |\n`;
    }),
    unit: 'drift',
  };
}

function driftWhat(step: PlanStep): string {
  if (step.action === 'delete') return `${actionWord(step)}s it: no file declares it`;
  const fields = step.changes.map((c) => formatPath(c.path));
  const shown = fields.slice(0, 8).join(', ');
  return `sets back ${shown}${fields.length > 8 ? ` and ${count(fields.length - 8)} more` : ''}`;
}

/** The caution block of a plan no option lets through: protected objects deleted, policy errors. */
function refusedBanner(plan: Plan): string[] {
  const steps = protectedSteps(plan);
  const errors = policyErrors(plan);
  if (steps.length + errors.length === 0) return [];
  const out = ['> [!CAUTION]', '> **Refused plan:** apply writes nothing, whatever allows deletes.'];
  for (const step of steps) out.push(`> - ${escapeMarkdown(stepTitle(step))} would be ${step.removal === 'deactivate' ? 'retired' : 'deleted'}, but it is protected by ${markdownCode(step.protectedBy?.rule ?? '')}`);
  if (steps.length > 0) out.push('>', '> To delete a protected object, first remove its protection in a reviewed change; to keep it, declare it again.');
  if (errors.length > 0) out.push(`> - ${count(errors.length)} policy finding${errors.length === 1 ? '' : 's'} of severity error (see Policy below)`);
  out.push('');
  return out;
}

/** The policy's findings, first of the sections so that no budget cut hides them. */
function policySection(plan: Pick<Plan, 'policy'>): Section[] {
  const findings = plan.policy ?? [];
  if (findings.length === 0) return [];
  const blocks = findings.map((f) => {
    const where = findingPlace(f);
    const what = f.kind === undefined ? 'account' : escapeMarkdown(stepTitle({ kind: f.kind, key: f.key ?? '' }));
    return `- **${f.severity}** ${markdownCode(f.rule)} ${what}${where === undefined ? '' : ` (${markdownCode(where)})`}: ${escapeMarkdown(f.message)}. Fix: ${escapeMarkdown(f.fix)}.\n`;
  });
  const errors = findings.filter((f) => f.severity === 'error').length;
  return [{ open: `### Policy: ${count(errors)} error${errors === 1 ? '' : 's'}, ${count(findings.length - errors)} warning${findings.length - errors === 1 ? '' : 's'}\n\n`, close: '\n', blocks, unit: 'policy' }];
}

function sections(plan: Plan): Section[] {
  const out: Section[] = [...policySection(plan)];
  for (const kind of KIND_ORDER) {
    const steps = plan.steps.filter((s) => s.kind === kind);
    if (steps.length === 0) continue;
    const tally = ACTIONS.map((a) => [a, steps.filter((s) => s.action === a).length] as const)
      .filter(([, n]) => n > 0)
      .map(([a, n]) => `${count(n)} ${a}`)
      .join(', ');
    const blocks = steps.map((s) => `${stepLines(s).join('\n')}\n`);
    const fence = fenceFor(blocks);
    out.push({ open: `<details><summary><b>${kind}</b>: ${tally}</summary>\n\n${fence}diff\n`, close: `${fence}\n\n</details>\n\n`, blocks, unit: 'step' });
  }
  const onCall = onCallMarkdown(plan.onCall, escapeMarkdown);
  if (onCall !== undefined) out.push({ ...onCall, unit: 'onCall' });
  const paging = pagingMarkdown(plan.paging, escapeMarkdown);
  if (paging !== undefined) out.push({ ...paging, unit: 'paging' });
  const drifted = plan.steps.filter((s) => s.drift !== undefined);
  if (drifted.length > 0) out.push(driftSection(drifted));
  if (plan.unmanaged.length > 0) {
    out.push({
      open: `<details><summary><b>Unmanaged</b>: ${count(plan.unmanaged.length)} in the account, declared by no file (prune is off)</summary>\n\n`,
      close: '\n</details>\n\n',
      blocks: plan.unmanaged.map((u) => `- ${escapeMarkdown(stepTitle(u))} (${escapeMarkdown(u.guid)})\n`),
      unit: 'unmanaged',
    });
  }
  if (plan.warnings.length > 0) {
    out.push({ open: '### Warnings\n\n', close: '\n', blocks: plan.warnings.map((w) => `- \`${w.code}\` ${escapeMarkdown(w.message)}\n`), unit: 'warning' });
  }
  return out;
}

function note(omitted: Record<Section['unit'], number>, totalSteps: number, budget: number, hint: string | undefined): string {
  const parts: string[] = [];
  if (omitted.step > 0) parts.push(`${count(omitted.step)} of ${count(totalSteps)} steps`);
  if (omitted.drift > 0) parts.push(`${count(omitted.drift)} drift entries`);
  if (omitted.unmanaged > 0) parts.push(`${count(omitted.unmanaged)} unmanaged objects`);
  if (omitted.warning > 0) parts.push(`${count(omitted.warning)} warnings`);
  if (omitted.onCall > 0) parts.push(`${count(omitted.onCall)} on-call grids`);
  if (omitted.paging > 0) parts.push(`${count(omitted.paging)} escalation paths`);
  if (omitted.policy > 0) parts.push(`${count(omitted.policy)} policy findings`);
  const where = hint === undefined || hint === '' ? 'Run `monsync plan` to see the full plan.' : `The full plan: ${hint.replace(/\s*\r?\n\s*/g, ' ')}`;
  return `> [!NOTE]\n> ${parts.join(', ')} are not shown: this comment is limited to ${count(budget)} characters. ${where}\n\n`;
}

export function renderMarkdown(plan: Plan, options: MarkdownOptions = {}): string {
  const budget = options.budget ?? DEFAULT_MARKDOWN_BUDGET;
  const head = header(plan, options.title ?? 'monsync plan', options.marker ?? MARKDOWN_MARKER, options.intro, options.override);
  const all = sections(plan);
  const limit = options.limit ?? budget;
  const worstNote = note({ step: plan.steps.length, drift: plan.steps.length, unmanaged: plan.unmanaged.length, warning: plan.warnings.length, onCall: plan.onCall?.subjects.length ?? 0, paging: plan.paging?.definitions.length ?? 0, policy: plan.policy?.length ?? 0 }, plan.steps.length, limit, options.fullPlanHint);
  const footer = options.footer === undefined || options.footer === '' ? '' : `\n${options.footer.replace(/^\n+|\n+$/g, '')}\n`;
  const room = budget - markdownLength(head) - markdownLength(worstNote) - markdownLength(footer);

  const omitted: Record<Section['unit'], number> = { step: 0, drift: 0, unmanaged: 0, warning: 0, onCall: 0, paging: 0, policy: 0 };
  let used = 0;
  let body = '';
  let full = true;
  for (const section of all) {
    const frame = markdownLength(section.open) + markdownLength(section.close);
    let kept = '';
    let keptSize = 0;
    let cut = 0;
    for (const [i, block] of section.blocks.entries()) {
      const size = markdownLength(block);
      if (!full || used + frame + keptSize + size > room) {
        full = false;
        cut = section.blocks.length - i;
        break;
      }
      kept += block;
      keptSize += size;
    }
    omitted[section.unit] += cut;
    if (keptSize > 0) {
      body += section.open + kept + section.close;
      used += frame + keptSize;
    }
  }
  const cutNote = full ? '' : note(omitted, plan.steps.length, limit, options.fullPlanHint);
  return `${head}${cutNote}${body}${footer}`.replace(/\n{3,}/g, '\n\n').replace(/\n*$/, '\n');
}

/**
 * The Policy section alone, for a comment that shows no steps (a pull request that changes nothing in the account):
 * whole findings while they fit in `budget` (UTF-8 bytes), then `more(count)` for the rest; '' without findings.
 */
export function renderPolicySection(plan: Pick<Plan, 'policy'>, budget: number, more: (count: number) => string): string {
  const [section] = policySection(plan);
  if (section === undefined) return '';
  const shown = blocksThatFit(section.blocks, markdownLength(section.open + section.close), budget, more);
  const rest = section.blocks.length - shown;
  return `${section.open}${section.blocks.slice(0, shown).join('')}${rest > 0 ? more(rest) : ''}${section.close}`;
}

/**
 * How many of `blocks`, from the first, fit whole in `budget` (UTF-8 bytes) beside `frame` bytes, with room left for
 * `more(count)` of the blocks left out.
 */
function blocksThatFit(blocks: readonly string[], frame: number, budget: number, more: (count: number) => string): number {
  let used = frame;
  for (const [i, block] of blocks.entries()) {
    const size = markdownLength(block);
    if (used + size + markdownLength(more(blocks.length - i)) > budget) return i;
    used += size;
  }
  return blocks.length;
}

/**
 * Steps as one ```diff block, as the plan shows them: whole steps while they fit in `budget` (UTF-8 bytes), then
 * `more(count)` (Markdown, outside the block) for the rest. For a section of its own, such as steps a pull request
 * did not cause.
 */
export function renderStepList(steps: readonly PlanStep[], budget: number, more: (count: number) => string): string {
  const blocks = steps.map((s) => `${stepLines(s).join('\n')}\n`);
  const fence = fenceFor(blocks);
  const shown = blocksThatFit(blocks, markdownLength(`${fence}diff\n${fence}\n`), budget, more);
  const body = blocks.slice(0, shown).join('');
  const fenced = body === '' ? '' : `${fence}diff\n${body}${fence}\n`;
  return shown < blocks.length ? `${fenced}${more(blocks.length - shown)}\n` : fenced;
}
