import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as core from '@actions/core';
import { hasChanges, renderJson, type ApplyReport, type Plan } from '@monsync/reconciler';

/** The plan JSON (the plan contract) under the runner's temp folder, one file per config folder. */
export function writePlanFile(plan: Plan, tempDir: string, label: string, command: string): string {
  const slug = label === '.' ? 'root' : label.replace(/[^A-Za-z0-9._-]+/g, '_');
  const dir = join(tempDir, 'monsync');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${command}-${slug}.json`);
  writeFileSync(path, renderJson(plan));
  return path;
}

/** `has-changes`, `summary` (the plan's counts, and apply's done/failed/skipped) and `plan-file`. */
export function setPlanOutputs(plan: Plan, planFile: string, report?: ApplyReport): void {
  core.setOutput('has-changes', hasChanges(plan) ? 'true' : 'false');
  const counts = report === undefined ? plan.summary : { ...plan.summary, done: report.done.length, failed: report.failed.length, skipped: report.skipped.length };
  core.setOutput('summary', JSON.stringify(counts));
  core.setOutput('plan-file', planFile);
}
