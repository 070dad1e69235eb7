import * as core from '@actions/core';
import { Octokit } from '@octokit/rest';
import { ACTION_USER_AGENT } from './version.js';

export type GitHub = Octokit;

/**
 * The REST client. It uses Node's global fetch (not @actions/github's own undici), so that GITHUB_API_URL, a proxy
 * set up by the runner and test doubles on fetch all apply. Octokit's own request lines go to the debug log: a
 * refusal the action expects (GET /user with the workflow token) is no error, and every failure that matters is
 * reported by the action itself, redacted.
 */
export function gitHubClient(token: string, baseUrl: string): GitHub {
  const debug = (message: string): void => core.debug(message);
  return new Octokit({ auth: token, baseUrl, userAgent: ACTION_USER_AGENT, log: { debug, info: debug, warn: (message: string) => core.warning(message), error: debug } });
}
