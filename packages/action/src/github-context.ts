import { existsSync, readFileSync } from 'node:fs';
import { GitHubContextError } from './errors.js';

/** The parts of the event payload the action reads. */
export interface EventPayload {
  number?: number;
  pull_request?: {
    number?: number;
    html_url?: string;
    head?: { sha?: string; repo?: { full_name?: string } | null };
    base?: { repo?: { full_name?: string } | null };
  };
  repository?: { full_name?: string; default_branch?: string };
}

export interface PullRequestRef {
  number: number;
  /** The head repository is another repository than the base one (its runs get no secrets and a read-only token). */
  fork: boolean;
  /** The pull request's head commit (not GITHUB_SHA, which is the test merge commit): what a plan was made for. */
  headSha: string;
}

/** What the workflow run says about itself, read from the runner's variables only. */
export interface GitHubContext {
  eventName: string;
  /** `owner/name`, from GITHUB_REPOSITORY; empty when unset. */
  repository: string;
  sha: string;
  apiUrl: string;
  serverUrl: string;
  runId: string;
  /** The checkout (the repository root): config folders and annotation paths are relative to it. */
  workspace: string;
  /** Where temporary files go: RUNNER_TEMP, or the workspace. */
  tempDir: string;
  payload: EventPayload;
  /** Set on pull request events. */
  pullRequest: PullRequestRef | undefined;
}

function readPayload(path: string | undefined): EventPayload {
  if (path === undefined || path === '' || !existsSync(path)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new GitHubContextError(`GITHUB_EVENT_PATH ${path}: the event payload is not JSON (${(error as Error).message})`);
  }
  return typeof parsed === 'object' && parsed !== null ? (parsed as EventPayload) : {};
}

function pullRequestOf(payload: EventPayload, repository: string): PullRequestRef | undefined {
  const pr = payload.pull_request;
  const number = pr?.number ?? payload.number;
  if (pr === undefined || typeof number !== 'number') return undefined;
  const base = pr.base?.repo?.full_name ?? payload.repository?.full_name ?? repository;
  // A deleted fork leaves no head repository: it is not the base repository either.
  const head = pr.head?.repo?.full_name;
  return { number, fork: head === undefined || head.toLowerCase() !== base.toLowerCase(), headSha: pr.head?.sha ?? '' };
}

export function readContext(env: Readonly<Record<string, string | undefined>> = process.env): GitHubContext {
  const value = (name: string) => env[name]?.trim() ?? '';
  const payload = readPayload(env['GITHUB_EVENT_PATH']);
  const repository = value('GITHUB_REPOSITORY') || payload.repository?.full_name || '';
  const workspace = value('GITHUB_WORKSPACE') || process.cwd();
  return {
    eventName: value('GITHUB_EVENT_NAME'),
    repository,
    sha: value('GITHUB_SHA'),
    apiUrl: (value('GITHUB_API_URL') || 'https://api.github.com').replace(/\/+$/, ''),
    serverUrl: (value('GITHUB_SERVER_URL') || 'https://github.com').replace(/\/+$/, ''),
    runId: value('GITHUB_RUN_ID'),
    workspace,
    tempDir: value('RUNNER_TEMP') || workspace,
    payload,
    pullRequest: pullRequestOf(payload, repository),
  };
}

/** `owner` and `repo` for REST calls; the repository is needed as soon as the action talks to GitHub. */
export function repoOf(context: GitHubContext): { owner: string; repo: string } {
  const [owner, repo, extra] = context.repository.split('/');
  if (owner === undefined || owner === '' || repo === undefined || repo === '' || extra !== undefined) {
    throw new GitHubContextError(`GITHUB_REPOSITORY is ${JSON.stringify(context.repository)}, not owner/name: run the action in a GitHub Actions workflow, or set it`);
  }
  return { owner, repo };
}

/** A link to this workflow run, when the run is known. */
export function runUrl(context: GitHubContext): string | undefined {
  if (context.runId === '' || context.repository === '') return undefined;
  return `${context.serverUrl}/${context.repository}/actions/runs/${context.runId}`;
}
