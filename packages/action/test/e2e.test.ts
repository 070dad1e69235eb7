import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { profileFromEnv, startEmulator, type RunningEmulator } from '@monsync/emulator';
import { liveScope, openSession, readLive } from '@monsync/reconciler';
import { hasErrors, loadConfig } from '@monsync/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitHubMock, type GitHubMock, type MockComment } from './e2e-fixtures/github-mock.js';
import { REPO_ROOT, runBundledAction, runnerInputs, type ActionRun } from './e2e-fixtures/local-action.js';
import { demoFiles } from './harness.js';

// Each run starts local-action (tsx compiling its TypeScript) and the bundle in a child process: a budget against
// hangs on a small, shared CI machine, not a performance assertion.
const RUN_BUDGET_MS = 300_000;

const REPOSITORY = 'acme/monitoring';
const PR = 7;
const API_PASSWORD = 'CANARY-7f3a9c-e2e-api-password';
const GITHUB_TOKEN = 'ghs_CANARY7f3a9cE2eWorkflowToken';
const FINGERPRINT_KEY = 'CANARY-7f3a9c-e2e-fingerprint-key';
const SECRETS = {
  DEMO_SHOP_PASSWORD: 'CANARY-7f3a9c-e2e-shop-password',
  DEMO_SHOP_OTP_SECRET: 'CANARY7F3A9CEEOTPSECRET',
  DEMO_CLIENT_CERT_PFX_BASE64: Buffer.from('CANARY-7f3a9c-e2e-pfx-bytes').toString('base64'),
  DEMO_CLIENT_CERT_PASSWORD: 'CANARY-7f3a9c-e2e-pfx-password',
};
const CREDENTIALS = [API_PASSWORD, GITHUB_TOKEN, FINGERPRINT_KEY];
const CANARIES = [...CREDENTIALS, ...Object.values(SECRETS), 'CANARY-7f3a9c-e2e-pfx-bytes'];
const ADDED_MONITOR = 'E2E added monitor';

/** The hidden line the plan comment of the folder `configs` is found by. */
const MARKER = '<!-- monsync:plan config=configs -->';

let emulator: RunningEmulator;
let github: GitHubMock;
let workspace: string;
let runnerTemp: string;
const runs: ActionRun[] = [];

/** The step's environment on a pull_request run; a fork's run gets no secrets, so its credential inputs are empty. */
function stepEnv(options: { fork?: boolean } = {}): Record<string, string> {
  const fork = options.fork === true;
  const eventPath = join(runnerTemp, fork ? 'event-fork.json' : 'event.json');
  const head = { ref: 'change-monitors', sha: 'b'.repeat(40), repo: { full_name: fork ? 'contributor/monitoring' : REPOSITORY, fork } };
  const base = { ref: 'main', sha: 'a'.repeat(40), repo: { full_name: REPOSITORY, fork: false } };
  writeFileSync(
    eventPath,
    JSON.stringify({
      action: 'synchronize',
      number: PR,
      pull_request: { number: PR, state: 'open', html_url: `https://github.test/${REPOSITORY}/pull/${PR}`, head, base },
      repository: { full_name: REPOSITORY, name: 'monitoring', owner: { login: 'acme' }, default_branch: 'main' },
      sender: { login: 'octocat' },
    }),
  );
  return {
    ...runnerInputs(
      fork
        ? { command: 'plan', config: 'configs', 'api-url': '', 'api-username': '', 'api-password': '', 'fingerprint-key': '' }
        : { command: 'plan', config: 'configs', 'api-url': emulator.url, 'api-username': 'demo', 'api-password': API_PASSWORD, 'fingerprint-key': FINGERPRINT_KEY },
      GITHUB_TOKEN,
    ),
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: REPOSITORY,
    GITHUB_REPOSITORY_OWNER: 'acme',
    GITHUB_API_URL: github.url,
    GITHUB_SERVER_URL: 'https://github.test',
    GITHUB_GRAPHQL_URL: `${github.url}/graphql`,
    GITHUB_SHA: 'c'.repeat(40),
    GITHUB_REF: `refs/pull/${PR}/merge`,
    GITHUB_HEAD_REF: 'change-monitors',
    GITHUB_BASE_REF: 'main',
    GITHUB_WORKSPACE: workspace,
    GITHUB_RUN_ID: '4242',
    GITHUB_RUN_NUMBER: '12',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_JOB: 'plan',
    GITHUB_WORKFLOW: 'monsync plan',
    GITHUB_ACTOR: 'octocat',
    RUNNER_OS: 'Linux',
    // The step's env: the fromEnv names of the tree (empty on a fork's run, as secrets are).
    ...(fork ? Object.fromEntries(Object.keys(SECRETS).map((name) => [name, ''])) : SECRETS),
  };
}

/**
 * Leaves the demo account as an apply of configs/ would have: its vault items carry the fingerprint markers of the
 * current secrets (the seed has none, so every item would plan an update and the plan would be over the update
 * threshold). The markers come from a plan made in-process with the step's key, written as the administrator.
 */
async function stageFingerprints(): Promise<void> {
  const { desired, diagnostics } = await loadConfig(join(REPO_ROOT, 'configs'), { resolveSecrets: true, env: SECRETS });
  if (hasErrors(diagnostics)) throw new Error(`configs/ does not load: ${diagnostics.map((d) => d.message).join('; ')}`);
  const session = openSession(desired, { client: { baseUrl: emulator.url, username: 'demo', password: API_PASSWORD }, fingerprintKey: FINGERPRINT_KEY });
  try {
    const plan = session.plan(await readLive(session.client, liveScope(desired)));
    for (const step of plan.steps) {
      const notes = step.desired?.['Notes'];
      if (step.kind !== 'vaultItem' || step.action !== 'update' || typeof notes !== 'string' || step.guid === undefined) continue;
      const result = await emulator.control.actAs('admin@example.com', { method: 'PATCH', path: `/VaultItem/${step.guid}`, body: { Notes: notes } });
      if (result.status >= 300) throw new Error(`staging PATCH /VaultItem/${step.guid} answered ${result.status}`);
    }
  } finally {
    await session.close();
  }
}

const markerComments = (): MockComment[] => github.comments(PR).filter((comment) => comment.body.includes(MARKER));
// A GraphQL query (who the token is) is sent as a POST but writes nothing.
const writes = (method: string): string[] => github.requests.filter((request) => request.method === method && request.url !== '/graphql').map((request) => request.url);

function explain(run: ActionRun | undefined): string {
  if (run === undefined) return 'the action did not run';
  return `exit ${String(run.code)}\n--- stdout (tail)\n${run.stdout.slice(-4000)}\n--- stderr (tail)\n${run.stderr.slice(-4000)}\n--- unmatched GitHub requests: ${github.unmatched().join(', ')}`;
}

describe('the bundled action run by @github/local-action: plan on a pull request against the emulator', () => {
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, profile: profileFromEnv(), seed: 'demo', password: API_PASSWORD, retryAfterSeconds: 0 });
    await stageFingerprints();
    github = await startGitHubMock(REPOSITORY);
    workspace = mkdtempSync(join(tmpdir(), 'monsync-action-e2e-workspace-'));
    runnerTemp = mkdtempSync(join(tmpdir(), 'monsync-action-e2e-runner-'));
    cpSync(join(REPO_ROOT, 'configs'), join(workspace, 'configs'), { recursive: true });
    // Comments that are not the plan: a person's, and another tool's, which the action must leave alone.
    github.addComment(PR, 'Looks good to me, but check the shop timeouts.', 'octocat');
    github.addComment(PR, '<!-- other-tool:report -->\nCoverage 87%', 'other-bot[bot]');
    // The pull request changes every file of the tree (and the one the second run adds): every step is its own.
    github.setPullFiles(PR, [...demoFiles(), 'configs/monitors/e2e.yaml']);
  });

  afterAll(async () => {
    await github?.close();
    await emulator?.close();
    for (const dir of [workspace, runnerTemp]) if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('the first run creates one comment holding the marker and the plan summary, and sets the outputs', { timeout: RUN_BUDGET_MS }, async () => {
    const run = await runBundledAction(stepEnv(), { runnerTemp });
    runs.push(run);
    expect(run.code, explain(run)).toBe(0);
    expect(github.unmatched(), explain(run)).toEqual([]);
    expect(writes('POST')).toEqual([`/repos/${REPOSITORY}/issues/${PR}/comments`]);
    expect(writes('PATCH')).toEqual([]);
    const [comment, ...others] = markerComments();
    expect(others).toEqual([]);
    expect(github.comments(PR)).toHaveLength(3);

    const summary = JSON.parse(run.outputs['summary'] ?? 'null') as Record<string, number>;
    expect(Object.keys(summary)).toEqual(expect.arrayContaining(['create', 'update', 'delete']));
    expect(run.outputs['has-changes']).toBe('true');
    expect(run.outputs['comment-url']).toBe(comment?.html_url);
    const planFile = run.outputs['plan-file'] ?? '';
    expect(existsSync(planFile), `plan-file ${planFile}`).toBe(true);
    const plan = JSON.parse(readFileSync(planFile, 'utf8')) as { summary: Record<string, number> };
    expect(summary).toEqual(plan.summary);
    // The comment and the job summary state the plan's counts; the deletion is called out before the details.
    const counts = `${String(summary['create'])} to create, ${String(summary['update'])} to update, ${String(summary['delete'])} to delete`;
    expect(comment?.body).toContain(counts);
    expect(run.summary).toContain(counts);
    const body = comment?.body ?? '';
    expect(body.indexOf('deletes 1 object')).toBeGreaterThan(-1);
    expect(body.indexOf('deletes 1 object')).toBeLessThan(body.indexOf('<details>'));
    expect(run.summary).toContain('delete monitor "Old status page"');
  });

  it('the second run, after the tree changed, updates that same comment instead of adding one', { timeout: RUN_BUDGET_MS }, async () => {
    const [first] = markerComments();
    expect(first, 'the first run left no plan comment').toBeDefined();
    writeFileSync(
      join(workspace, 'configs', 'monitors', 'e2e.yaml'),
      // Within the demo tree's policy for Https monitors (configs/monsync.yaml): an interval and an HttpStatus condition.
      `monitors:\n  - Name: ${ADDED_MONITOR}\n    MonitorType: Https\n    Url: https://shop.example.com/e2e\n    CheckInterval: 5\n    ErrorConditions:\n      - { ErrorConditionType: HttpStatus, Value: "200" }\n`,
    );
    const run = await runBundledAction(stepEnv(), { runnerTemp });
    runs.push(run);
    expect(run.code, explain(run)).toBe(0);
    expect(github.unmatched(), explain(run)).toEqual([]);
    expect(writes('POST')).toHaveLength(1);
    expect(writes('PATCH')).toEqual([`/repos/${REPOSITORY}/issues/comments/${String(first?.id)}`]);
    const comments = markerComments();
    expect(comments.map((comment) => comment.id)).toEqual([first?.id]);
    expect(comments[0]?.body).toContain(ADDED_MONITOR);
    expect(github.comments(PR)).toHaveLength(3);
    expect(run.outputs['comment-url']).toBe(first?.html_url);
  });

  it('a fork pull request without secrets gets the notice and no failure, and nothing is sent anywhere', { timeout: RUN_BUDGET_MS }, async () => {
    const before = { github: github.requests.length, api: emulator.control.requestLog().total };
    const run = await runBundledAction(stepEnv({ fork: true }), { runnerTemp });
    expect(run.code, explain(run)).toBe(0);
    expect(run.stdout.split(/\r?\n/)).toContain('::notice::no credentials on fork pull requests: plan skipped');
    expect(run.stdout).not.toMatch(/^::error/m);
    expect(github.requests.length - before.github).toBe(0);
    expect(emulator.control.requestLog().total - before.api).toBe(0);
    expect(run.outputs).toEqual({});
  });

  it('masks every credential and secret value, and none reaches the log, the comments, the summary or the plan file', () => {
    expect(runs).toHaveLength(2);
    for (const [index, run] of runs.entries()) {
      const lines = run.stdout.split(/\r?\n/);
      // What the action printed (local-action prints its banner and tables before): masks first, then the rest.
      const own = lines.slice(lines.findIndex((line) => line.includes('Running Action')) + 1).filter((line) => line.trim() !== '' && !/^=+$/.test(line.trim()));
      const firstOther = own.findIndex((line) => !line.startsWith('::add-mask::'));
      expect(firstOther, `run ${index + 1}: the action printed no mask first`).toBeGreaterThan(0);
      expect(own.slice(firstOther).filter((line) => line.startsWith('::add-mask::')), `run ${index + 1}: masks after other output`).toEqual([]);
      // `::add-mask::VALUE` is how core.setSecret tells the runner to mask a value: the one place it may appear.
      const masked = new Set(lines.filter((line) => line.startsWith('::add-mask::')).map((line) => line.slice('::add-mask::'.length)));
      for (const value of [...CREDENTIALS, ...Object.values(SECRETS)]) {
        expect(masked.has(value), `run ${index + 1}: ${value.slice(0, 12)}... is registered with core.setSecret`).toBe(true);
      }
      const logged = [...lines.filter((line) => !line.startsWith('::add-mask::')), run.stderr].join('\n');
      const texts = {
        log: logged,
        summary: run.summary,
        outputs: JSON.stringify(run.outputs),
        'plan file': readFileSync(run.outputs['plan-file'] ?? '', 'utf8'),
        'GitHub request bodies': github.requests.map((request) => request.body).join('\n'),
        comments: github.comments(PR).map((comment) => comment.body).join('\n'),
      };
      for (const [where, text] of Object.entries(texts)) {
        for (const canary of CANARIES) expect(text.includes(canary), `run ${index + 1}: ${where} contains ${canary.slice(0, 12)}...`).toBe(false);
      }
    }
  });
});
