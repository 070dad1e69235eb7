/**
 * What makes a plan one that must not be applied, whatever the safety override says: a step that deletes or retires
 * a protected object, and a policy finding of severity error. `monsync plan` exits 1 on such a plan, and `applyPlan`
 * refuses it before its first write.
 */
import type { Plan, PlanStep, PolicyFinding } from './types.js';
import { plainText } from '../render/escape.js';
import { sourcePlace, stepTitle } from '../render/format.js';

export function protectedSteps(plan: Pick<Plan, 'steps'>): PlanStep[] {
  return plan.steps.filter((step) => step.protectedBy !== undefined);
}

export function policyErrors(plan: Pick<Plan, 'policy'>): PolicyFinding[] {
  return (plan.policy ?? []).filter((finding) => finding.severity === 'error');
}

/** `file:line:col: ` of a finding, or nothing. */
function at(finding: { file?: string | undefined; line?: number | undefined; column?: number | undefined }): string {
  return finding.file === undefined ? '' : `${sourcePlace({ file: finding.file, line: finding.line ?? 1, column: finding.column ?? 1 })}: `;
}

/** One line per refused step: what it would do and the rule that protects the object. */
export function protectedLines(plan: Pick<Plan, 'steps'>): string[] {
  return protectedSteps(plan).map((step) => {
    const by = step.protectedBy;
    const what = step.removal === 'deactivate' ? 'retire' : 'delete';
    return `  ${by?.source === undefined ? '' : at(by.source)}${what} ${stepTitle(step)} refused: protected by ${plainText(by?.rule ?? 'protect')}`;
  });
}

/** One line per policy finding: position, severity, rule, message and fix. */
export function policyLines(findings: readonly PolicyFinding[]): string[] {
  return findings.map((f) => `  ${at(f)}${f.severity} ${plainText(f.rule)}: ${plainText(f.message)} (fix: ${plainText(f.fix)})`);
}

/** Why the plan must not be applied, as lines for people; empty when it may be. */
export function refusalLines(plan: Pick<Plan, 'steps' | 'policy'>): string[] {
  const lines: string[] = [];
  const steps = protectedLines(plan);
  if (steps.length > 0) {
    lines.push(`the plan deletes or retires ${steps.length === 1 ? 'a protected object' : `${steps.length} protected objects`} (protect in monsync.yaml or protect: true), which no option allows:`, ...steps);
    lines.push('  To delete it, first remove its protection in a reviewed change; to keep it, declare it again.');
  }
  const errors = policyErrors(plan);
  if (errors.length > 0) lines.push(`the plan breaks ${errors.length === 1 ? 'a policy rule' : `policy rules ${errors.length} times`} of severity error:`, ...policyLines(errors));
  return lines;
}
