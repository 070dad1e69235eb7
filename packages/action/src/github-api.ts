import { Octokit } from '@octokit/rest';
import { ACTION_USER_AGENT } from './version.js';

export type GitHub = Octokit;

/**
 * The REST client. It uses Node's global fetch (not @actions/github's own undici), so that GITHUB_API_URL, a proxy
 * set up by the runner and test doubles on fetch all apply.
 */
export function gitHubClient(token: string, baseUrl: string): GitHub {
  return new Octokit({ auth: token, baseUrl, userAgent: ACTION_USER_AGENT });
}
