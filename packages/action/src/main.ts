import * as core from '@actions/core';
import { isApiError } from '@monsync/client';
import { applyCommand } from './commands/apply.js';
import type { CommandRun } from './commands/context.js';
import { driftCommand } from './commands/drift.js';
import { planCommand } from './commands/plan.js';
import { configFolder } from './config-folder.js';
import { ActionInputError, GitHubContextError } from './errors.js';
import { readContext } from './github-context.js';
import { readCredentials, readInputs } from './inputs.js';
import { Masker } from './masking.js';

const COMMANDS: Record<CommandRun['inputs']['command'], (run: CommandRun) => Promise<void>> = { plan: planCommand, apply: applyCommand, drift: driftCommand };

/** A GitHub REST failure as thrown by Octokit: status and request, never its headers (the token is in them). */
interface OctokitRequestError extends Error {
  status: number;
  request?: { method?: string; url?: string };
}

function isOctokitError(error: unknown): error is OctokitRequestError {
  return error instanceof Error && error.name === 'HttpError' && typeof (error as { status?: unknown }).status === 'number';
}

/** One line for the log: the error's code and message, never a stack (it may hold values of the failed call). */
export function failureMessage(error: unknown): string {
  if (isOctokitError(error)) {
    const where = error.request?.url === undefined ? '' : ` (${error.request.method ?? 'GET'} ${error.request.url.split('?')[0] ?? ''})`;
    const hint = error.status === 403 || error.status === 404 ? '; check the workflow permissions (pull-requests: write for plan and apply, issues: write for drift)' : '';
    return `GitHub API request failed with ${error.status}${where}: ${error.message}${hint}`;
  }
  // The action's own errors say all there is in their message.
  if (error instanceof ActionInputError || error instanceof GitHubContextError) return error.message;
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const label = typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code) ? `${code}: ` : '';
    return `${isApiError(error) ? 'Monitoring API: ' : ''}${label}${error.message}`;
  }
  return String(error);
}

/**
 * The action: reads its inputs (`INPUT_*`) and the workflow run (`GITHUB_*`), and runs plan, apply or drift. Every
 * credential is masked before anything is printed, and every secret of the tree once it is loaded. Never throws:
 * a failure marks the step failed with a redacted one-line message.
 */
export async function run(): Promise<void> {
  const masker = new Masker();
  try {
    const credentials = readCredentials();
    masker.add(credentials.apiPassword);
    masker.add(credentials.fingerprintKey);
    masker.add(credentials.githubToken);
    const inputs = readInputs(credentials);
    const context = readContext();
    const folder = configFolder(inputs.config, context.workspace);
    await COMMANDS[inputs.command]({ inputs, context, folder, masker });
  } catch (error) {
    // Secrets of the tree are masked while the command runs: the redaction uses every value known by now.
    core.setFailed(masker.redact()(failureMessage(error)));
  }
}
