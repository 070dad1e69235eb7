/**
 * Terraform-like text: `+` create, `~` update, `-` delete, `=` ensure, field changes as `before -> after`, and a
 * summary line. Colour only when asked: the caller decides from the TTY and `NO_COLOR`. Every text from outside
 * goes through the terminal rules of `escape.ts`: this text reaches terminals and Actions logs.
 */
import type { Plan, PlanStep } from '../plan/types.js';
import { onCallTextLines } from './on-call.js';
import { pagingTextLines } from './paging.js';
import { protectedSteps } from '../plan/refusals.js';
import { actionWord, CHANGE_SYMBOL, driftLine, ensureLine, findingPlace, formatChange, guidTag, protectedLine, removalLine, sourcePlace, stepTitle, summaryLine, SYMBOL } from './format.js';
import { plainText, shownValue } from './escape.js';

export interface TextOptions {
  color?: boolean;
}

const CODES = { green: 32, yellow: 33, red: 31, cyan: 36, dim: 2, bold: 1, magenta: 35 } as const;
type Colour = keyof typeof CODES;

const ACTION_COLOUR: Record<PlanStep['action'], Colour> = { create: 'green', update: 'yellow', delete: 'red', ensure: 'cyan' };
const OP_COLOUR = { add: 'green', remove: 'red', replace: 'yellow' } as const;

export function renderText(plan: Plan, options: TextOptions = {}): string {
  const paint = (colour: Colour, text: string): string => (options.color === true ? `\u001b[${CODES[colour]}m${text}\u001b[0m` : text);
  const lines: string[] = [];

  if (plan.steps.length === 0) {
    lines.push(paint('bold', 'No changes.') + ' The account matches the configuration.');
  } else {
    lines.push(paint('bold', 'monsync will perform these steps, in this order:'));
    for (const step of plan.steps) {
      lines.push('');
      const where = step.source === undefined ? '' : `  ${paint('dim', `(${sourcePlace(step.source)})`)}`;
      const tag = guidTag(step);
      const guid = tag === '' ? '' : ` ${paint('dim', tag)}`;
      lines.push(`  ${paint(ACTION_COLOUR[step.action], `${SYMBOL[step.action]} ${actionWord(step)}`)} ${stepTitle(step)}${guid}${where}`);
      if (step.action === 'ensure') lines.push(`      ${paint('cyan', '=')} ${ensureLine(step)}`);
      for (const change of step.changes) lines.push(`      ${paint(OP_COLOUR[change.op], CHANGE_SYMBOL[change.op])} ${formatChange(change)}`);
      if (step.reason !== undefined) lines.push(`      ${paint('dim', `reason: ${plainText(step.reason)}`)}`);
      const removal = removalLine(step);
      if (removal !== undefined) lines.push(`      ${paint('dim', removal)}`);
      const drift = driftLine(step);
      if (drift !== undefined) lines.push(`      ${paint('magenta', `drift: ${drift}`)}`);
      const refused = protectedLine(step);
      if (refused !== undefined) lines.push(`      ${paint('red', refused)}`);
      if (step.dependsOn.length > 0) lines.push(`      ${paint('dim', `after: ${afterList(step.dependsOn)}`)}`);
    }
  }

  lines.push(...onCallTextLines(plan.onCall, paint));
  lines.push(...pagingTextLines(plan.paging, paint));
  if (plan.unmanaged.length > 0) {
    lines.push('', paint('bold', 'Unmanaged (in the account, declared by no file, prune is off):'));
    for (const u of plan.unmanaged) lines.push(`  ? ${u.kind} ${shownValue(u.key)} ${paint('dim', `[${plainText(u.guid)}]`)}`);
  }
  if (plan.warnings.length > 0) {
    lines.push('', paint('bold', 'Warnings:'));
    for (const w of plan.warnings) lines.push(`  ${paint('yellow', '!')} ${w.code}: ${plainText(w.message)}`);
  }
  if (plan.policy !== undefined && plan.policy.length > 0) {
    lines.push('', paint('bold', 'Policy:'));
    for (const f of plan.policy) {
      const where = findingPlace(f);
      lines.push(`  ${paint(f.severity === 'error' ? 'red' : 'yellow', f.severity === 'error' ? '✗' : '!')} ${plainText(f.rule)}: ${plainText(f.message)}${where === undefined ? '' : `  ${paint('dim', `(${where})`)}`}`);
      lines.push(`      ${paint('dim', `fix: ${plainText(f.fix)}`)}`);
    }
  }
  const refused = protectedSteps(plan).length;
  const policyErrors = (plan.policy ?? []).filter((f) => f.severity === 'error').length;
  if (refused + policyErrors > 0) {
    const why = [refused > 0 ? `it deletes or retires ${refused} protected object${refused === 1 ? '' : 's'}` : '', policyErrors > 0 ? `it breaks ${policyErrors} policy rule${policyErrors === 1 ? '' : 's'} of severity error` : ''];
    lines.push('', paint('red', paint('bold', `REFUSED PLAN: ${why.filter((w) => w !== '').join(' and ')}; apply writes nothing, not even with --allow-unsafe.`)));
  }
  if (!plan.safe) {
    lines.push('', paint('red', paint('bold', 'UNSAFE PLAN (over the safety thresholds): apply refuses it without --allow-unsafe.')));
    for (const v of plan.violations) lines.push(`  ${paint('red', '!')} ${plainText(v.message)}`);
  }
  lines.push('', `${paint('bold', 'Plan:')} ${summaryLine(plan)}.`);
  // The digest `monsync apply --expect-digest` takes: a reviewer of the text plan can pin what gets applied.
  if (plan.steps.length > 0 && plan.planDigest !== undefined) lines.push(`${paint('bold', 'Plan digest:')} ${plan.planDigest} (pass it to monsync apply --expect-digest to apply this plan and no other)`);
  return `${lines.join('\n')}\n`;
}

const SHOWN_DEPENDENCIES = 5;

/** A delete waits for every create of its kind, which can be many: the text names a few (the JSON holds all). */
function afterList(ids: readonly string[]): string {
  const shown = ids.slice(0, SHOWN_DEPENDENCIES).map(plainText).join(', ');
  return ids.length <= SHOWN_DEPENDENCIES ? shown : `${shown} and ${ids.length - SHOWN_DEPENDENCIES} more`;
}
