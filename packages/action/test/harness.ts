/**
 * Runs the action's `run()` in-process as a runner would: inputs as INPUT_* variables, the workflow run as GITHUB_*
 * variables and an event payload file, outputs and the job summary in files, workflow commands on stdout.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { profileFromEnv, startEmulator, type RunningEmulator } from '@monsync/emulator';
import { liveScope, openSession, readLive } from '@monsync/reconciler';
import { hasErrors, loadConfig } from '@monsync/schema';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from 'vitest';
import { run } from '../src/main.js';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const GITHUB_API = 'https://api.github.com';
export const REPOSITORY = 'acme/monitoring';
export const SHA = '5f0c9b1e2d3a4f5061728394a5b6c7d8e9f00112';
/** The head commit of the pull requests of the tests (SHA is the commit a run is for: a test merge or the merge commit). */
export const HEAD_SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9011223344';

/** Secret values of the demo tree, and the credentials: none may appear in anything the action writes. */
export const TREE_SECRETS = {
  DEMO_SHOP_PASSWORD: 'CANARY-7f3a9c-shop-password',
  DEMO_SHOP_OTP_SECRET: 'CANARYSEVENFTHREEAOTPSECRET',
  DEMO_CLIENT_CERT_PFX_BASE64: Buffer.from('CANARY-7f3a9c-pfx-bytes').toString('base64'),
  DEMO_CLIENT_CERT_PASSWORD: 'CANARY-7f3a9c-pfx-password',
};
export const API_USERNAME = 'demo';
export const API_PASSWORD = 'CANARY-7f3a9c-api-password';
export const GITHUB_TOKEN = 'ghs_CANARY7f3a9cGitHubToken';
export const FINGERPRINT_KEY = 'CANARY-7f3a9c-fingerprint-key';
export const ALL_SECRETS = [...Object.values(TREE_SECRETS), API_PASSWORD, GITHUB_TOKEN, FINGERPRINT_KEY];

/** A checkout holding a copy of the demo tree under `configs/` (and, with `second`, another under `accounts/eu`). */
export function demoWorkspace(options: { second?: boolean } = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'monsync-action-ws-'));
  cpSync(join(REPO_ROOT, 'configs'), join(root, 'configs'), { recursive: true });
  if (options.second === true) cpSync(join(REPO_ROOT, 'configs'), join(root, 'accounts', 'eu'), { recursive: true });
  return root;
}

export function writeFile(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

export function pullRequestEvent(number: number, options: { fork?: boolean; head?: string } = {}): { name: string; payload: object } {
  const head = options.fork === true ? 'contributor/monitoring' : REPOSITORY;
  return {
    name: 'pull_request',
    payload: {
      number,
      pull_request: { number, html_url: `https://github.com/${REPOSITORY}/pull/${number}`, head: { sha: options.head ?? HEAD_SHA, repo: { full_name: head } }, base: { repo: { full_name: REPOSITORY } } },
      repository: { full_name: REPOSITORY, default_branch: 'main' },
    },
  };
}

export const PUSH_EVENT = { name: 'push', payload: { ref: 'refs/heads/main', after: SHA, repository: { full_name: REPOSITORY, default_branch: 'main' } } };
export const SCHEDULE_EVENT = { name: 'schedule', payload: { schedule: '17 6 * * *', repository: { full_name: REPOSITORY, default_branch: 'main' } } };

export interface Command {
  command: string;
  properties: Record<string, string>;
  message: string;
}

export interface ActionResult {
  /** Everything written to stdout, in order. */
  stdout: string;
  lines: string[];
  commands: Command[];
  outputs: Record<string, string>;
  summary: string;
  failed: boolean;
  /** The message of `setFailed` (the last `::error` without a file), if any. */
  failure: string | undefined;
}

// @actions/core keeps the first GITHUB_STEP_SUMMARY path it sees: one file for the whole test file, emptied per run.
const SUMMARY_PATH = join(mkdtempSync(join(tmpdir(), 'monsync-action-summary-')), 'summary.md');

function unescapeData(text: string): string {
  return text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
}

function unescapeProperty(text: string): string {
  return text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');
}

export function parseCommands(lines: readonly string[]): Command[] {
  const out: Command[] = [];
  for (const line of lines) {
    const match = /^::([a-z-]+)(?: ([^:]*))?::(.*)$/.exec(line);
    if (match === null) continue;
    const properties: Record<string, string> = {};
    for (const pair of (match[2] ?? '').split(',')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      properties[pair.slice(0, eq)] = unescapeProperty(pair.slice(eq + 1));
    }
    out.push({ command: match[1] ?? '', properties, message: unescapeData(match[3] ?? '') });
  }
  return out;
}

/** The GITHUB_OUTPUT file: `name<<delimiter`, the value's lines, `delimiter`. */
export function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const match = /^([^<]+)<<(.+)$/.exec(lines[i] ?? '');
    if (match === null) continue;
    const value: string[] = [];
    for (i += 1; i < lines.length && lines[i] !== match[2]; i += 1) value.push(lines[i] ?? '');
    outputs[match[1] ?? ''] = value.join('\n');
  }
  return outputs;
}

export interface RunOptions {
  workspace: string;
  inputs: Record<string, string>;
  event: { name: string; payload: object };
  /** Extra variables (the tree's secrets are set by default). */
  env?: Record<string, string | undefined>;
  sha?: string;
}

const OWN_PREFIXES = ['INPUT_', 'GITHUB_', 'RUNNER_', 'MONSYNC_', 'DEMO_'];

/**
 * Runs the action once with exactly the given inputs and run variables (anything of the test process's own runner,
 * if it runs in GitHub Actions, is hidden), then restores the environment and the exit code.
 */
export async function runAction(options: RunOptions): Promise<ActionResult> {
  const savedEnv = { ...process.env };
  const savedExitCode = process.exitCode;
  const dir = mkdtempSync(join(tmpdir(), 'monsync-action-run-'));
  const eventPath = join(dir, 'event.json');
  const outputPath = join(dir, 'output.txt');
  writeFileSync(eventPath, JSON.stringify(options.event.payload));
  writeFileSync(outputPath, '');
  writeFileSync(SUMMARY_PATH, '');
  for (const key of Object.keys(process.env)) if (OWN_PREFIXES.some((prefix) => key.startsWith(prefix))) delete process.env[key];
  const vars: Record<string, string | undefined> = {
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: options.event.name,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: REPOSITORY,
    GITHUB_SHA: options.sha ?? SHA,
    GITHUB_API_URL: GITHUB_API,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_RUN_ID: '4242',
    GITHUB_WORKSPACE: options.workspace,
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: SUMMARY_PATH,
    RUNNER_TEMP: join(dir, 'runner-temp'),
    MONSYNC_OPERATOR: 'admin@example.com',
    ...TREE_SECRETS,
    ...Object.fromEntries(Object.entries(options.inputs).map(([name, value]) => [`INPUT_${name.toUpperCase()}`, value])),
    ...options.env,
  };
  for (const [key, value] of Object.entries(vars)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  mkdirSync(join(dir, 'runner-temp'), { recursive: true });
  const chunks: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  });
  let failed: boolean;
  try {
    process.exitCode = undefined;
    await run();
    failed = process.exitCode === 1;
  } finally {
    spy.mockRestore();
    for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
    Object.assign(process.env, savedEnv);
    process.exitCode = savedExitCode;
  }
  const stdout = chunks.join('');
  const lines = stdout.split(/\r?\n/).filter((line) => line !== '');
  const commands = parseCommands(lines);
  const failure = commands.filter((c) => c.command === 'error' && c.properties['file'] === undefined).at(-1)?.message;
  return { stdout, lines, commands, outputs: parseOutputs(readFileSync(outputPath, 'utf8')), summary: readFileSync(SUMMARY_PATH, 'utf8'), failed, failure };
}

/** Standard inputs for the emulator at `apiUrl`. */
export function apiInputs(apiUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return { 'api-url': apiUrl, 'api-username': API_USERNAME, 'api-password': API_PASSWORD, 'fingerprint-key': FINGERPRINT_KEY, 'github-token': GITHUB_TOKEN, ...extra };
}

/** A nock scope on the GitHub API that only answers requests made with the step's token. */
export function gitHub(): nock.Scope {
  return nock(GITHUB_API).matchHeader('authorization', `token ${GITHUB_TOKEN}`);
}

export interface FakeComment {
  id: number;
  body: string;
  html_url: string;
  user: { login: string };
}

/**
 * The comments of one issue or pull request as GitHub keeps them. Each `expect*` adds the interceptors of one
 * request to `scope`, answering from and changing this state; request bodies are kept for inspection.
 */
export class FakeThread {
  readonly comments: FakeComment[] = [];
  readonly sentBodies: string[] = [];
  readonly deleted: number[] = [];
  #next = 1000;

  /** `writer`: the login GitHub gives what the step's token writes (the workflow token's, or an app's `<slug>[bot]`). */
  constructor(
    readonly number: number,
    readonly writer = 'github-actions[bot]',
  ) {}

  addOther(count: number, login = 'someone'): void {
    for (let i = 0; i < count; i += 1) this.add(`LGTM ${i}`, login);
  }

  add(body: string, login = 'github-actions[bot]'): FakeComment {
    const id = (this.#next += 1);
    const comment = { id, body, html_url: `https://github.com/${REPOSITORY}/pull/${this.number}#issuecomment-${id}`, user: { login } };
    this.comments.push(comment);
    return comment;
  }

  /** The list, in pages of `pageSize` with Link headers, as the state is now. */
  expectList(scope: nock.Scope, pageSize = 100): void {
    const path = `/repos/${REPOSITORY}/issues/${this.number}/comments`;
    const pages = Math.max(1, Math.ceil(this.comments.length / pageSize));
    const snapshot = [...this.comments];
    for (let page = 1; page <= pages; page += 1) {
      const query: Record<string, string> = page === 1 ? { per_page: '100' } : { per_page: '100', page: String(page) };
      const headers: Record<string, string> = {};
      if (page < pages) headers['link'] = `<${GITHUB_API}${path}?per_page=100&page=${page + 1}>; rel="next", <${GITHUB_API}${path}?per_page=100&page=${pages}>; rel="last"`;
      scope.get(path).query(query).reply(200, snapshot.slice((page - 1) * pageSize, page * pageSize), headers);
    }
  }

  expectCreate(scope: nock.Scope): void {
    scope.post(`/repos/${REPOSITORY}/issues/${this.number}/comments`).reply(201, (_uri, body) => {
      const text = (body as { body: string }).body;
      this.sentBodies.push(text);
      return this.add(text, this.writer);
    });
  }

  expectUpdate(scope: nock.Scope, id: number): void {
    scope.patch(`/repos/${REPOSITORY}/issues/comments/${id}`).reply(200, (_uri, body) => {
      const text = (body as { body: string }).body;
      this.sentBodies.push(text);
      const comment = this.comments.find((c) => c.id === id);
      if (comment === undefined) throw new Error(`no comment ${id}`);
      comment.body = text;
      return comment;
    });
  }

  expectDelete(scope: nock.Scope, id: number): void {
    scope.delete(`/repos/${REPOSITORY}/issues/comments/${id}`).reply(204, () => {
      this.deleted.push(id);
      this.comments.splice(
        this.comments.findIndex((c) => c.id === id),
        1,
      );
      return '';
    });
  }

  withMarker(marker: string): FakeComment[] {
    return this.comments.filter((c) => c.body.includes(marker));
  }
}

/** Lines of stdout that are not `::add-mask::` commands come only after every mask. */
export function masksComeFirst(result: ActionResult): boolean {
  const firstOther = result.lines.findIndex((line) => !line.startsWith('::add-mask::'));
  const lastMask = result.lines.map((line) => line.startsWith('::add-mask::')).lastIndexOf(true);
  return lastMask < firstOther || firstOther === -1;
}

/**
 * Leaves the emulator's demo account as an apply of configs/ would: vault items carry the fingerprint markers of the
 * current secrets (the seed has none, and an item without one always plans an update). The markers come from a plan
 * made with the step's key, written as the administrator through the emulator's control API.
 */
export async function stageFingerprints(emulator: RunningEmulator): Promise<number> {
  const { desired, diagnostics } = await loadConfig(join(REPO_ROOT, 'configs'), { resolveSecrets: true, env: TREE_SECRETS });
  if (hasErrors(diagnostics)) throw new Error(`configs/ does not load: ${diagnostics.map((d) => d.message).join('; ')}`);
  const session = openSession(desired, { client: { baseUrl: emulator.url, username: API_USERNAME, password: API_PASSWORD }, fingerprintKey: FINGERPRINT_KEY });
  let plan;
  try {
    plan = session.plan(await readLive(session.client, liveScope(desired)));
  } finally {
    await session.close();
  }
  let staged = 0;
  for (const step of plan.steps) {
    const notes = step.desired?.['Notes'];
    if (step.kind !== 'vaultItem' || step.action !== 'update' || typeof notes !== 'string' || step.guid === undefined) continue;
    const result = await emulator.control.actAs('admin@example.com', { method: 'PATCH', path: `/VaultItem/${step.guid}`, body: { Notes: notes } });
    if (result.status >= 300) throw new Error(`staging PATCH /VaultItem/${step.guid} answered ${result.status}`);
    staged += 1;
  }
  return staged;
}

export interface Harness {
  /** The emulator serving the demo account, reset (and its vault fingerprints staged) before each test. */
  readonly emulator: RunningEmulator;
  /** A GitHub scope whose every interceptor must have been used by the end of the test. */
  scope(): nock.Scope;
}

/**
 * One emulator per test file, and GitHub behind nock: no request leaves the machine (the emulator is reached by
 * undici, which nock does not see), and a scope with an interceptor left unused fails the test.
 */
export function useHarness(): Harness {
  let emulator: RunningEmulator | undefined;
  const scopes: nock.Scope[] = [];
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, profile: profileFromEnv(), seed: 'demo', password: API_PASSWORD });
    nock.disableNetConnect();
    nock.enableNetConnect('127.0.0.1');
  });
  afterAll(async () => {
    nock.enableNetConnect();
    await emulator?.close();
  });
  beforeEach(async () => {
    if (emulator === undefined) throw new Error('the emulator did not start');
    await emulator.control.reset('demo');
    await stageFingerprints(emulator);
    emulator.control.clearLog();
  });
  afterEach(() => {
    try {
      for (const scope of scopes) expect(scope.pendingMocks()).toEqual([]);
    } finally {
      scopes.length = 0;
      nock.cleanAll();
    }
  });
  return {
    get emulator() {
      if (emulator === undefined) throw new Error('the emulator is started in beforeAll');
      return emulator;
    },
    scope() {
      const scope = gitHub();
      scopes.push(scope);
      return scope;
    },
  };
}

/** The secrets reach stdout only as the masks that hide them, registered before any other line; nowhere else. */
export function expectNoSecrets(result: ActionResult, more: readonly string[] = [], mustMask: readonly string[] = ALL_SECRETS): void {
  expect(masksComeFirst(result)).toBe(true);
  const masked = result.commands.filter((c) => c.command === 'add-mask').map((c) => c.message);
  for (const secret of mustMask) expect(masked).toContain(secret);
  const log = result.lines.filter((line) => !line.startsWith('::add-mask::')).join('\n');
  for (const text of [log, result.summary, JSON.stringify(result.outputs), ...more]) {
    for (const secret of ALL_SECRETS) expect(text).not.toContain(secret);
  }
}

export interface FakeIssue {
  number: number;
  title: string;
  body: string;
  user: { login: string };
  state: 'open' | 'closed';
  html_url: string;
  pull_request?: { url: string };
  comments: string[];
}

/** The issues of the repository as GitHub keeps them; `expect*` add one request's interceptors to a scope. */
export class FakeIssues {
  readonly issues: FakeIssue[] = [];
  #next = 100;

  /** `writer`: the login GitHub gives what the step's token opens (the workflow token's, or an app's `<slug>[bot]`). */
  constructor(readonly writer = 'github-actions[bot]') {}

  add(title: string, body: string, options: { pullRequest?: boolean; state?: 'open' | 'closed'; author?: string } = {}): FakeIssue {
    const number = (this.#next += 1);
    const user = { login: options.author ?? this.writer };
    const issue: FakeIssue = { number, title, body, user, state: options.state ?? 'open', html_url: `https://github.com/${REPOSITORY}/issues/${number}`, comments: [] };
    if (options.pullRequest === true) issue.pull_request = { url: `${GITHUB_API}/repos/${REPOSITORY}/pulls/${number}` };
    this.issues.push(issue);
    return issue;
  }

  titled(title: string, state: 'open' | 'closed' = 'open'): FakeIssue[] {
    return this.issues.filter((issue) => issue.title === title && issue.state === state);
  }

  /** The open issues (pull requests among them, as GitHub lists them), in pages of `pageSize`. */
  expectListOpen(scope: nock.Scope, pageSize = 100): void {
    const path = `/repos/${REPOSITORY}/issues`;
    const open = this.issues.filter((issue) => issue.state === 'open');
    const pages = Math.max(1, Math.ceil(open.length / pageSize));
    for (let page = 1; page <= pages; page += 1) {
      const query: Record<string, string> = page === 1 ? { state: 'open', per_page: '100' } : { state: 'open', per_page: '100', page: String(page) };
      const headers: Record<string, string> = {};
      if (page < pages) headers['link'] = `<${GITHUB_API}${path}?state=open&per_page=100&page=${page + 1}>; rel="next"`;
      scope.get(path).query(query).reply(200, open.slice((page - 1) * pageSize, page * pageSize), headers);
    }
  }

  expectCreate(scope: nock.Scope): void {
    scope.post(`/repos/${REPOSITORY}/issues`).reply(201, (_uri, body) => {
      const { title, body: text } = body as { title: string; body: string };
      return this.add(title, text);
    });
  }

  expectUpdate(scope: nock.Scope, number: number): void {
    scope.patch(`/repos/${REPOSITORY}/issues/${number}`).reply(200, (_uri, body) => {
      const issue = this.issues.find((i) => i.number === number);
      if (issue === undefined) throw new Error(`no issue ${number}`);
      const change = body as { body?: string; state?: 'open' | 'closed'; state_reason?: string };
      if (change.body !== undefined) issue.body = change.body;
      if (change.state !== undefined) issue.state = change.state;
      return issue;
    });
  }

  expectComment(scope: nock.Scope, number: number): void {
    scope.post(`/repos/${REPOSITORY}/issues/${number}/comments`).reply(201, (_uri, body) => {
      const issue = this.issues.find((i) => i.number === number);
      if (issue === undefined) throw new Error(`no issue ${number}`);
      issue.comments.push((body as { body: string }).body);
      return { id: 1, body: (body as { body: string }).body, html_url: `${issue.html_url}#issuecomment-1` };
    });
  }
}

/**
 * Who an installation token is, as GitHub answers: GET /user is refused ("Resource not accessible by integration"),
 * GraphQL's viewer names the bot it writes as (`github-actions[bot]` for the workflow token, `<slug>[bot]` for an app's).
 */
export function expectInstallationTokenIdentity(scope: nock.Scope, login: string): void {
  scope.get('/user').reply(403, { message: 'Resource not accessible by integration' });
  scope.post('/graphql', (body: { query?: string }) => body.query?.includes('viewer') === true).reply(200, { data: { viewer: { login, __typename: 'Bot' } } });
}

/** Who the workflow token is: the action comments as github-actions[bot]. */
export function expectWorkflowTokenIdentity(scope: nock.Scope): void {
  expectInstallationTokenIdentity(scope, 'github-actions[bot]');
}

/** The GitHub requests of a drift run before it writes: who the token is (the issue must be its own), then the open issues. */
export function expectDriftRun(scope: nock.Scope, issues: FakeIssues): void {
  expectWorkflowTokenIdentity(scope);
  issues.expectListOpen(scope);
}

/** GET /user for a personal token: its login. */
export function expectTokenIdentity(scope: nock.Scope, login: string): void {
  scope.get('/user').reply(200, { login, id: 7, type: 'User' });
}

/** The files a pull request changes, as GET /pulls/{n}/files lists them (repository-relative paths). */
export function expectPullFiles(scope: nock.Scope, number: number, files: readonly string[]): void {
  scope
    .get(`/repos/${REPOSITORY}/pulls/${number}/files`)
    .query({ per_page: '100' })
    .reply(
      200,
      files.map((filename) => ({ filename, status: 'modified' })),
    );
}

/** Every YAML file of the demo tree under `folder`, as a pull request that touched them all would list them. */
export function demoFiles(folder = 'configs'): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(REPO_ROOT, 'configs', dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.yaml') ? [join(dir, entry.name)] : [],
    );
  return walk('').map((file) => `${folder}/${file}`);
}

/**
 * The GitHub requests of a plan run that comments: who the token is, the files of the pull request (by default
 * every file of the tree, so every step is the pull request's own) and the comments.
 */
export function expectPlanRun(scope: nock.Scope, thread: FakeThread, files: readonly string[] = demoFiles()): void {
  expectWorkflowTokenIdentity(scope);
  expectPullFiles(scope, thread.number, files);
  thread.expectList(scope);
}

/** The GitHub requests of a run that comments without a plan (validation findings, a failed plan): identity and comments. */
export function expectCommentRun(scope: nock.Scope, thread: FakeThread): void {
  expectWorkflowTokenIdentity(scope);
  thread.expectList(scope);
}

/** A merged pull request as GET /commits/{sha}/pulls lists it: merged as `mergeSha`, from head `headSha`. */
export function mergedPull(number: number, headSha = HEAD_SHA, mergeSha = SHA): object {
  return { number, merged_at: '2026-02-01T10:00:00Z', merge_commit_sha: mergeSha, head: { sha: headSha }, html_url: `https://github.com/${REPOSITORY}/pull/${number}` };
}

/** GitHub's answer to "which pull requests contain this commit". */
export function expectCommitPulls(scope: nock.Scope, pulls: readonly object[], sha = SHA): void {
  scope.get(`/repos/${REPOSITORY}/commits/${sha}/pulls`).query({ per_page: '100' }).reply(200, pulls);
}

/**
 * The GitHub requests of an apply run before it writes: who the token is, the merged pull request, and its comments
 * (where the reviewed-plan record is); then, when it comments, the comments again and the create or update.
 */
export function expectApplyRun(scope: nock.Scope, thread: FakeThread, pulls: readonly object[] = [mergedPull(thread.number)], options: { sha?: string; comment?: boolean } = {}): void {
  expectWorkflowTokenIdentity(scope);
  expectCommitPulls(scope, pulls, options.sha);
  if (pulls.length === 0 || pulls.every((pr) => (pr as { merged_at?: unknown }).merged_at === null)) return;
  thread.expectList(scope);
  if (options.comment === false) return;
  thread.expectList(scope);
  const mine = thread.comments.find((c) => c.body.startsWith('<!-- monsync:apply '));
  if (mine === undefined) thread.expectCreate(scope);
  else thread.expectUpdate(scope, mine.id);
}

/**
 * The plan job on pull request `thread`, as the plan workflow runs it: it writes the plan comment, and in it the
 * reviewed-plan record that apply on merge reads. Every GitHub request it makes must be the expected one.
 */
export async function planOnPullRequest(h: Harness, thread: FakeThread, workspace: string, options: { head?: string; files?: readonly string[]; config?: string; env?: Record<string, string> } = {}): Promise<ActionResult> {
  const config = options.config ?? 'configs';
  const s = h.scope();
  expectPlanRun(s, thread, options.files ?? demoFiles(config));
  const mine = thread.comments.find((c) => c.body.startsWith(`<!-- monsync:plan config=${config} -->`));
  if (mine === undefined) thread.expectCreate(s);
  else thread.expectUpdate(s, mine.id);
  const result = await runAction({ workspace, inputs: { command: 'plan', config, ...apiInputs(h.emulator.url) }, event: pullRequestEvent(thread.number, options.head === undefined ? {} : { head: options.head }), ...(options.env === undefined ? {} : { env: options.env }) });
  expect(s.pendingMocks()).toEqual([]);
  return result;
}
