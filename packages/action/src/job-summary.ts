import * as core from '@actions/core';

/**
 * Appends to the job summary. Outside a runner (no GITHUB_STEP_SUMMARY) there is none to write, which is not an
 * error of the step: the plan is in the log and the plan file.
 */
export async function writeJobSummary(markdown: string): Promise<boolean> {
  const path = process.env['GITHUB_STEP_SUMMARY'];
  if (path === undefined || path === '') {
    core.info('no GITHUB_STEP_SUMMARY: the job summary is skipped');
    return false;
  }
  await core.summary.addRaw(markdown, true).write();
  return true;
}
