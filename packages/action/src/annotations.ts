import { join, relative, sep } from 'node:path';
import * as core from '@actions/core';
import { plainText, type PlanProblem, type PolicyFinding } from '@monsync/reconciler';
import { policyRule, type Diagnostic } from '@monsync/schema';

/** A diagnostic's file relative to the repository root, as annotations and the comment name it. */
export function repoPath(diagnostic: Diagnostic, configDir: string, workspace: string): string {
  const rel = relative(workspace, join(configDir, diagnostic.file));
  return rel.split(sep).join('/');
}

/**
 * The text of an annotation: the code, the message and the hint (the position is in the annotation's properties),
 * escaped as for the log: they may quote config values and file names.
 */
export function annotationText(diagnostic: Diagnostic): string {
  return `${diagnostic.code}: ${plainText(diagnostic.message)}${diagnostic.hint === undefined ? '' : ` (${plainText(diagnostic.hint)})`}`;
}

/** One file annotation per diagnostic: errors as errors, warnings as warnings. */
export function annotate(diagnostics: readonly Diagnostic[], configDir: string, workspace: string): void {
  for (const d of diagnostics) {
    const properties: core.AnnotationProperties = { title: `monsync ${d.code}`, file: repoPath(d, configDir, workspace), startLine: d.line, startColumn: d.column };
    // Columns belong to one line: a range over several lines keeps its start only.
    if (d.endColumn !== undefined && d.endColumn > d.column && (d.endLine === undefined || d.endLine === d.line)) properties.endColumn = d.endColumn;
    if (d.severity === 'error') core.error(annotationText(d), properties);
    else core.warning(annotationText(d), properties);
  }
}

/**
 * The plan's policy findings the tree's diagnostics do not hold: those about the whole account (`maxInactiveShare`),
 * annotated on the rule in monsync.yaml, and those about one object that only the plan can check
 * (`alertsReachSomeone`), on the object; on the run when a finding has no position (so no finding goes unseen in the
 * pull request's checks). The other findings about one object came from the tree and were annotated with its diagnostics already.
 */
export function annotateAccountPolicy(findings: readonly PolicyFinding[], configDir: string, workspace: string): void {
  for (const f of findings) {
    if (f.kind !== undefined && policyRule(f.rule)?.scope === 'object') continue;
    const code = f.severity === 'error' ? 'POLICY_ERROR' : 'POLICY_WARNING';
    const d: Diagnostic = { severity: f.severity, code, message: `${f.rule}: ${f.message}`, hint: f.fix, file: f.file ?? '', line: f.line ?? 1, column: f.column ?? 1 };
    if (f.file !== undefined) annotate([d], configDir, workspace);
    else if (f.severity === 'error') core.error(annotationText(d), { title: `monsync ${code}` });
    else core.warning(annotationText(d), { title: `monsync ${code}` });
  }
}

/**
 * The positioned problems of a plan that could not be made (a secret a step would send that cannot be read, a
 * reference only the account can settle), each annotated on its line: the failure message lists them too, but only an
 * annotation shows in the pull request's Files tab.
 */
export function annotatePlanProblems(error: unknown, configDir: string, workspace: string): void {
  const problems = error instanceof Error ? (error as { problems?: unknown }).problems : undefined;
  if (!Array.isArray(problems)) return;
  const positioned = (problems as PlanProblem[]).filter((p) => typeof p.file === 'string' && typeof p.line === 'number');
  annotate(
    positioned.map((p) => ({ severity: 'error', code: p.code, message: p.message, file: p.file ?? '', line: p.line ?? 1, column: p.col ?? 1 })),
    configDir,
    workspace,
  );
}
