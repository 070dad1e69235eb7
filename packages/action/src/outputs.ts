import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import * as core from '@actions/core';
import { hasChanges, renderJson, renderText, type ApplyReport, type Plan } from '@monsync/reconciler';
import type { ReviewRecord } from './review-record.js';

/**
 * The file name part for a config folder: the folder itself when it is a plain name, else a readable form plus a short
 * hash of the folder, so that `accounts/eu`, `accounts_eu` and `accounts eu` (one job may plan all three) never
 * share a file.
 */
export function planFileSlug(label: string): string {
  if (/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(label)) return label;
  const readable = label === '.' ? 'root' : label.replace(/[^A-Za-z0-9._-]+/g, '_');
  return `${readable}-${createHash('sha256').update(label).digest('hex').slice(0, 8)}`;
}

/** The plan JSON (the plan contract) under the runner's temp folder, one file per config folder. */
export function writePlanFile(plan: Plan, tempDir: string, label: string, command: string): string {
  const slug = planFileSlug(label);
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

/** The name the example workflows upload the plan's files under: `monsync-plan-configs`, one per command and folder. */
export function artifactName(planFile: string): string {
  return `monsync-${basename(planFile, '.json')}`;
}

/**
 * Beside the plan file: the plan as text (what the log shows) and the reviewed-plan record as JSON, for the workflow to
 * upload as an artifact. A JavaScript action cannot upload artifacts without the artifact client (@actions/artifact
 * and its runtime token), so the action names the files and the artifact in its outputs and the workflow uploads
 * them with actions/upload-artifact; the comment is the record apply on merge reads.
 */
export function writeArtifactFiles(plan: Plan, planFile: string, label: string, command: string, record?: ReviewRecord): void {
  const dir = dirname(planFile);
  const text = join(dir, `${command}-${planFileSlug(label)}.txt`);
  writeFileSync(text, renderText(plan, { color: false }));
  const paths = [planFile, text];
  if (record !== undefined) {
    const recordFile = join(dir, `reviewed-${planFileSlug(label)}.json`);
    writeFileSync(recordFile, `${JSON.stringify(record, null, 2)}\n`);
    core.setOutput('record-file', recordFile);
    paths.push(recordFile);
  }
  core.setOutput('plan-digest', plan.planDigest ?? '');
  core.setOutput('artifact-name', artifactName(planFile));
  core.setOutput('artifact-paths', paths.join('\n'));
}
