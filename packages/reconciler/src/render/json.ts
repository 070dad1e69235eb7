import type { Plan } from '../plan/types.js';

/** The plan document (docs/architecture.md, The plan; `schemas/plan.schema.json`): two-space JSON, key order as built, final newline. */
export function renderJson(plan: Plan): string {
  return `${JSON.stringify(plan, null, 2)}\n`;
}
