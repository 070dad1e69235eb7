import * as core from '@actions/core';
import { applyCommand } from './commands/apply.js';
import type { CommandRun } from './commands/context.js';
import { driftCommand } from './commands/drift.js';
import { planCommand } from './commands/plan.js';
import { annotatePlanProblems } from './annotations.js';
import { configFolder, type ConfigFolder } from './config-folder.js';
import { failureMessage } from './failure.js';
import { readContext } from './github-context.js';
import { readCredentials, readInputs } from './inputs.js';
import { writeJobSummary } from './job-summary.js';
import { Masker } from './masking.js';
import { markdownText } from '@monsync/reconciler';

const COMMANDS: Record<CommandRun['inputs']['command'], (run: CommandRun) => Promise<void>> = { plan: planCommand, apply: applyCommand, drift: driftCommand };

export { failureMessage } from './failure.js';

/**
 * The action: reads its inputs (`INPUT_*`) and the workflow run (`GITHUB_*`), and runs plan, apply or drift. Every
 * credential is masked before anything is printed, and every secret of the tree once it is loaded. Never throws:
 * a failure marks the step failed with a redacted one-line message.
 */
export async function run(): Promise<void> {
  const masker = new Masker();
  let folder: ConfigFolder | undefined;
  let workspace = '';
  try {
    const credentials = readCredentials();
    masker.add(credentials.apiPassword);
    masker.add(credentials.fingerprintKey);
    masker.add(credentials.githubToken);
    const inputs = readInputs(credentials);
    const context = readContext();
    workspace = context.workspace;
    folder = configFolder(inputs.config, context.workspace);
    await COMMANDS[inputs.command]({ inputs, context, folder, masker });
  } catch (error) {
    // Secrets of the tree are masked while the command runs: the redaction uses every value known by now.
    const message = masker.redact()(failureMessage(error));
    if (folder !== undefined) annotatePlanProblems(error, folder.dir, workspace);
    core.setFailed(message);
    // The run's page shows the job summary first: a failure (a refused login, an unreachable API) says so there too.
    const command = core.getInput('command') || 'run';
    const quoted = message.split('\n').map((line) => `> ${markdownText(line)}`).join('\n');
    await writeJobSummary(`## monsync ${markdownText(command)}: failed\n\n${quoted}\n`, masker.redact()).catch(() => false);
  }
}
