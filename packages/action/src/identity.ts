import type { GitHub } from './github-api.js';

/** The login of the workflow token (GITHUB_TOKEN), which cannot ask GitHub who it is. */
export const WORKFLOW_TOKEN_LOGIN = 'github-actions[bot]';

/**
 * The login the token comments as: GET /user for a personal token; a workflow or app installation token is refused
 * there (403, "Resource not accessible by integration"), and the workflow token comments as github-actions[bot].
 * Comments are the action's own only when they carry its marker and this author, so a person's comment that quotes
 * the marker is never edited, deleted or read as a reviewed-plan record.
 */
export async function tokenLogin(gh: GitHub): Promise<string> {
  try {
    const { data } = await gh.rest.users.getAuthenticated();
    return data.login;
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    if (status === 403 || status === 404) return WORKFLOW_TOKEN_LOGIN;
    throw error;
  }
}
