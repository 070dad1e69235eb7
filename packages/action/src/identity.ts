import * as core from '@actions/core';
import type { GitHub } from './github-api.js';

/** The login of the workflow token (GITHUB_TOKEN), the last resort when GitHub will not say who a token is. */
export const WORKFLOW_TOKEN_LOGIN = 'github-actions[bot]';

const VIEWER_QUERY = 'query { viewer { login __typename } }';

function status(error: unknown): unknown {
  return (error as { status?: unknown }).status;
}

/**
 * An installation token (the workflow token, or a GitHub App's from actions/create-github-app-token) is refused GET
 * /user and GET /app, but GraphQL's `viewer` answers it with the bot it writes as: `github-actions[bot]`, or
 * `<app-slug>[bot]`. A Bot's login is given with the suffix REST shows on comments, added when missing.
 */
async function viewerLogin(gh: GitHub): Promise<string | undefined> {
  try {
    const { viewer } = await gh.graphql<{ viewer?: { login?: unknown; __typename?: unknown } }>(VIEWER_QUERY);
    if (typeof viewer?.login !== 'string' || viewer.login === '') return undefined;
    return viewer.__typename === 'Bot' && !viewer.login.endsWith('[bot]') ? `${viewer.login}[bot]` : viewer.login;
  } catch (error) {
    core.debug(`GraphQL viewer did not answer (${error instanceof Error ? error.message : String(error)})`);
    return undefined;
  }
}

async function askGitHub(gh: GitHub): Promise<string> {
  try {
    const { data } = await gh.rest.users.getAuthenticated();
    return data.login;
  } catch (error) {
    if (status(error) !== 403 && status(error) !== 404) throw error;
  }
  const viewer = await viewerLogin(gh);
  if (viewer !== undefined) return viewer;
  core.debug(`the token's login is unknown: assuming ${WORKFLOW_TOKEN_LOGIN}; set the input github-login when the token is another's`);
  return WORKFLOW_TOKEN_LOGIN;
}

const known = new WeakMap<GitHub, Promise<string>>();

/**
 * The login the token writes comments, issues and pull requests as: the input `github-login` when given, else GET
 * /user (a personal token), else GraphQL's `viewer` (an installation token: the workflow token's
 * `github-actions[bot]`, a GitHub App's `<app-slug>[bot]`), else `github-actions[bot]`. What the action wrote is its
 * own only when it carries the action's marker *and* this author, so a person's comment or issue that quotes the
 * marker is never edited, closed, deleted or read as a reviewed-plan record. Asked once per client.
 */
export function tokenLogin(gh: GitHub, configured = ''): Promise<string> {
  if (configured.trim() !== '') return Promise.resolve(configured.trim());
  let login = known.get(gh);
  if (login === undefined) {
    login = askGitHub(gh);
    known.set(gh, login);
  }
  return login;
}

/** GitHub logins ignore case: `My-App[bot]` given as the input is the `my-app[bot]` on comments. */
export function sameLogin(login: string | undefined, author: string): boolean {
  return login !== undefined && login.toLowerCase() === author.toLowerCase();
}

/**
 * After a create, GitHub names the author: when it is not the login the action looks for, the next run would not
 * find what this one wrote and would write another. Said once, with the fix.
 */
export function checkWrittenAs(expected: string, written: string | undefined, what: string): void {
  if (written === undefined || written === '' || sameLogin(written, expected)) return;
  core.warning(
    `the ${what} was written as ${written}, but the action looks for its own as ${expected}: the next run will not find it and will write another. ` +
      `Set the input github-login: '${written}' (a GitHub App token writes as <app-slug>[bot]).`,
  );
}
