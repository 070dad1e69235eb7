import { markdownCode, renderJson, renderMarkdown, renderText, type Plan } from '@monsync/reconciler';
import { stringOption, booleanOption, jsonOption, type OptionSpecs, type ParsedValues } from './args.js';
import { UsageError } from './errors.js';

export type PlanFormat = 'text' | 'markdown' | 'json';

/** The plan JSON, as saved by `--out` and printed by `--format json` (schemas/plan.schema.json). */
export function planJson(plan: Plan): string {
  return renderJson(plan);
}

/** `--format` and `--json`, for every command that prints a plan (plan, show). */
export const PLAN_FORMAT_OPTIONS = {
  format: { type: 'string', value: 'FORMAT', choices: ['text', 'markdown', 'json'], description: 'output on stdout: text (default), markdown (for a PR comment) or json (schemas/plan.schema.json)' },
  json: { ...jsonOption('plan'), description: 'the same as --format json (schemas/plan.schema.json in @monsync/schema)' },
} as const satisfies OptionSpecs;

/** `--format`, where `--json` is `--format json` (as a Terraform user reaches for it). */
export function planFormat(values: ParsedValues, command: string): PlanFormat {
  const format = stringOption(values, 'format') as PlanFormat | undefined;
  if (!booleanOption(values, 'json')) return format ?? 'text';
  if (format !== undefined && format !== 'json') throw new UsageError(`--json is --format json; it cannot go with --format ${format}`, command);
  return 'json';
}

export function renderPlan(plan: Plan, format: PlanFormat, options: { color: boolean; planFile?: string }): string {
  if (format === 'json') return renderJson(plan);
  if (format === 'markdown') {
    // A cut comment says where the whole plan is: the saved plan file, when there is one. The renderer already
    // leads in with "The full plan:", so the hint says only where.
    return renderMarkdown(plan, options.planFile === undefined ? {} : { fullPlanHint: `saved as ${markdownCode(options.planFile)}` });
  }
  return renderText(plan, { color: options.color });
}
