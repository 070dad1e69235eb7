import { connectionProblemOf, isApiError } from '@monsync/client';
import { errorText, plainLines, plainText } from '@monsync/reconciler';
import { ActionInputError, GitHubContextError } from './errors.js';

/** A GitHub REST failure as thrown by Octokit: status and request, never its headers (the token is in them). */
interface OctokitRequestError extends Error {
  status: number;
  request?: { method?: string; url?: string };
}

function isOctokitError(error: unknown): error is OctokitRequestError {
  return error instanceof Error && error.name === 'HttpError' && typeof (error as { status?: unknown }).status === 'number';
}

/** What to check when the service refused the login or could not be reached, in the words of the action's inputs. */
function connectionHint(error: Error): string {
  const problem = connectionProblemOf(error);
  if (problem === 'credentials') return 'Check the api-username and api-password inputs: the API account\'s user name and password (not a web login), for the service api-url names.';
  if (problem === 'unreachable') return 'Check the api-url input (the API root, e.g. https://api.example.com/v4) and that the service is reachable from the runner.';
  return '';
}

/** The message, then the hint as a sentence of its own. */
function withHint(message: string, hint: string): string {
  if (hint === '') return message;
  return `${message}${/[.!?]$/.test(message) ? '' : '.'} ${hint}`;
}

/**
 * One line for the log: the error's code and message, never a stack (it may hold values of the failed call). Text
 * from outside (a service's or GitHub's answer) is escaped as for a terminal: it never spans lines.
 */
export function failureMessage(error: unknown): string {
  if (isOctokitError(error)) {
    const where = error.request?.url === undefined ? '' : ` (${error.request.method ?? 'GET'} ${error.request.url.split('?')[0] ?? ''})`;
    const hint = error.status === 403 || error.status === 404 ? '; check the workflow permissions (pull-requests: write for plan and apply, issues: write for drift)' : '';
    return `GitHub API request failed with ${error.status}${plainText(where)}: ${plainText(error.message)}${hint}`;
  }
  // The action's own errors say all there is in their message.
  if (error instanceof ActionInputError || error instanceof GitHubContextError) return plainLines(error.message);
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const label = typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code) ? `${code}: ` : '';
    return withHint(`${isApiError(error) ? 'Monitoring API: ' : ''}${label}${errorText(error)}`, connectionHint(error));
  }
  return plainText(String(error));
}
