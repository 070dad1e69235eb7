import { renderText, type Plan } from '@monsync/reconciler';

export type PlanFormat = 'text' | 'markdown' | 'json';

/** The plan JSON as saved by `--out` and printed by `--format json`: stable key order, one trailing newline. */
export function planJson(plan: Plan): string {
  return `${JSON.stringify(plan, null, 2)}\n`;
}

export function renderPlan(plan: Plan, format: PlanFormat, options: { color: boolean; planFile?: string }): string {
  if (format === 'json') return planJson(plan);
  if (format === 'markdown') throw new Error('markdown rendering is not available yet');
  return renderText(plan, { color: options.color });
}
