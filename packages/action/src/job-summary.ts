import * as core from '@actions/core';
import type { Redactor } from '@monsync/reconciler';

/**
 * Appends to the job summary, redacted with every masked value: the runner masks the log, not this file, which
 * GitHub shows on the run's page. Outside a runner (no GITHUB_STEP_SUMMARY) there is none to write, which is not an
 * error of the step: the plan is in the log and the plan file.
 */
export async function writeJobSummary(markdown: string, redact: Redactor): Promise<boolean> {
  const path = process.env['GITHUB_STEP_SUMMARY'];
  if (path === undefined || path === '') {
    core.info('no GITHUB_STEP_SUMMARY: the job summary is skipped');
    return false;
  }
  await core.summary.addRaw(redact(markdown), true).write();
  return true;
}
