/**
 * The action as a team uses it: each test pins a behaviour found that way (a comment or issue of
 * someone else that quotes the marker, a stale plan comment after a failed plan, an apply workflow that a manual run
 * could point at any branch, input messages without their fix, plan files of two folders overwriting each other).
 */
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DRIFT_TITLE } from '../src/drift-issue.js';
import { driftMarker, planMarker } from '../src/markers.js';
import {
  API_PASSWORD,
  apiInputs,
  TREE_SECRETS,
  writeFile,
  demoWorkspace,
  expectNoSecrets,
  expectDriftRun,
  FakeIssues,
  FakeThread,
  pullRequestEvent,
  PUSH_EVENT,
  REPO_ROOT,
  runAction,
  SCHEDULE_EVENT,
  useHarness,
  expectCommentRun,
  expectPlanRun,
  expectInstallationTokenIdentity,
  expectPullFiles,
  demoFiles,
} from './harness.js';

const harness = useHarness();
const PLAN = (extra: Record<string, string> = {}) => ({ command: 'plan', config: 'configs', ...apiInputs(harness.emulator.url), ...extra });

afterEach(() => {
  harness.emulator.control.setFaults({ rate: 0, scripted: [] });
});

describe('comments of other people that quote the marker', () => {
  it('leaves a reviewer comment that mentions the marker untouched and creates its own comment', async () => {
    const thread = new FakeThread(60);
    const human = thread.add(`How does the bot find its comment again? By \`${planMarker('configs')}\`, I think.`, 'alice');
    const s = harness.scope();
    expectPlanRun(s, thread);
    thread.expectCreate(s);
    const result = await runAction({ workspace: demoWorkspace(), inputs: PLAN(), event: pullRequestEvent(60) });
    expect(result.failure).toBeUndefined();
    expect(s.isDone()).toBe(true);
    expect(thread.comments.find((c) => c.id === human.id)?.body).toMatch(/^How does the bot find its comment again\?/);
    expect(thread.comments).toHaveLength(2);
    expect(thread.comments[1]?.body.split('\n')[0]).toBe(planMarker('configs'));
  });

  it('updates its own comment and never deletes an older comment of someone else holding the marker further down', async () => {
    const thread = new FakeThread(61);
    const quoted = thread.add(`> ${planMarker('configs')}\n> ## monsync plan: configs\n\nWhy does this delete the old status page?`, 'bob');
    const mine = thread.add(`${planMarker('configs')}\n## monsync plan: configs\n\nan older plan\n`);
    const s = harness.scope();
    expectPlanRun(s, thread);
    thread.expectUpdate(s, mine.id);
    const result = await runAction({ workspace: demoWorkspace(), inputs: PLAN(), event: pullRequestEvent(61) });
    expect(result.failure).toBeUndefined();
    expect(s.isDone()).toBe(true);
    expect(thread.deleted).toEqual([]);
    expect(thread.comments.find((c) => c.id === quoted.id)?.body).toContain('Why does this delete the old status page?');
    expect(thread.comments.find((c) => c.id === mine.id)?.body).toContain('to delete');
  });

  it('does not take over a "monsync drift" issue that only quotes the marker in its text', async () => {
    const issues = new FakeIssues();
    const handmade = issues.add(DRIFT_TITLE, `Opened by hand. The bot's issues start with ${driftMarker('configs')}; where is it?`, { author: 'carol' });
    const s = harness.scope();
    expectDriftRun(s, issues);
    issues.expectCreate(s);
    const result = await runAction({ workspace: demoWorkspace(), inputs: { ...PLAN(), command: 'drift' }, event: SCHEDULE_EVENT });
    expect(result.failure).toBeUndefined();
    expect(s.isDone()).toBe(true);
    expect(handmade.body).toMatch(/^Opened by hand\./);
    expect(issues.titled(DRIFT_TITLE)).toHaveLength(2);
  });
});

describe('a "monsync drift" issue someone else opened with the marker as its first line', () => {
  it('is never edited or closed: the action opens, updates and closes only the issue it opened itself', async () => {
    const workspace = demoWorkspace();
    const issues = new FakeIssues();
    // A copy of the bot's issue, opened by a person: same title, the marker as its first line.
    const copy = issues.add(DRIFT_TITLE, `${driftMarker('configs')}\n## monsync drift: configs\n\ncopied from the bot's issue`, { author: 'mallory' });
    let s = harness.scope();
    expectDriftRun(s, issues);
    issues.expectCreate(s);
    const first = await runAction({ workspace, inputs: { ...PLAN(), command: 'drift' }, event: SCHEDULE_EVENT });
    expect(first.failure).toBeUndefined();
    expect(s.isDone()).toBe(true);
    const own = issues.titled(DRIFT_TITLE).find((issue) => issue.number !== copy.number);
    if (own === undefined) throw new Error('the action opened no issue of its own');
    expect(own.user.login).toBe('github-actions[bot]');
    expect(first.outputs['comment-url']).toBe(own.html_url);

    // Drift gone: only its own issue gets the comment and is closed (an interceptor for the copy would be unused).
    const applied = await runAction({ workspace, inputs: { ...PLAN(), command: 'apply', comment: 'false', unreviewed: 'apply', 'github-token': '' }, event: PUSH_EVENT });
    expect(applied.failure).toBeUndefined();
    s = harness.scope();
    expectDriftRun(s, issues);
    issues.expectComment(s, own.number);
    issues.expectUpdate(s, own.number);
    const gone = await runAction({ workspace, inputs: { ...PLAN(), command: 'drift' }, event: SCHEDULE_EVENT });
    expect(gone.failure).toBeUndefined();
    expect(s.isDone()).toBe(true);
    expect(own.state).toBe('closed');
    expect(copy).toMatchObject({ state: 'open', comments: [], body: `${driftMarker('configs')}\n## monsync drift: configs\n\ncopied from the bot's issue` });
  });
});

describe('a GitHub App token (github-token from actions/create-github-app-token)', () => {
  const APP_BOT = 'monsync-deployer[bot]';

  it("finds its own plan comment and drift issue by the app's bot login, which GraphQL's viewer names, and leaves github-actions[bot]'s alone", async () => {
    const workspace = demoWorkspace();
    const thread = new FakeThread(70, APP_BOT);
    // Written before the workflow switched to the app's token: another author, so not the app's to edit.
    const earlier = thread.add(`${planMarker('configs')}\n## monsync plan: configs\n\nan older plan`, 'github-actions[bot]');
    for (let run = 0; run < 2; run += 1) {
      const s = harness.scope();
      expectInstallationTokenIdentity(s, APP_BOT);
      expectPullFiles(s, 70, demoFiles());
      thread.expectList(s);
      const mine = thread.comments.find((c) => c.user.login === APP_BOT);
      if (mine === undefined) thread.expectCreate(s);
      else thread.expectUpdate(s, mine.id);
      const result = await runAction({ workspace, inputs: PLAN(), event: pullRequestEvent(70) });
      expect(result.failure).toBeUndefined();
      expect(s.isDone()).toBe(true);
      expect(result.commands.filter((c) => c.command === 'warning' && c.message.includes('github-login'))).toEqual([]);
    }
    expect(thread.comments.map((c) => c.user.login)).toEqual(['github-actions[bot]', APP_BOT]);
    expect(earlier.body).toContain('an older plan');
    expect(thread.deleted).toEqual([]);

    const issues = new FakeIssues(APP_BOT);
    issues.add(DRIFT_TITLE, `${driftMarker('configs')}\n## monsync drift: configs\n\nfrom the workflow token`, { author: 'github-actions[bot]' });
    for (let run = 0; run < 2; run += 1) {
      const s = harness.scope();
      expectInstallationTokenIdentity(s, APP_BOT);
      issues.expectListOpen(s);
      const mine = issues.issues.find((issue) => issue.user.login === APP_BOT);
      if (mine === undefined) issues.expectCreate(s);
      else issues.expectUpdate(s, mine.number);
      const result = await runAction({ workspace, inputs: { ...PLAN(), command: 'drift' }, event: SCHEDULE_EVENT });
      expect(result.failure).toBeUndefined();
      expect(s.isDone()).toBe(true);
    }
    expect(issues.titled(DRIFT_TITLE).map((issue) => issue.user.login)).toEqual(['github-actions[bot]', APP_BOT]);
  });

  it('takes the login from the github-login input without asking GitHub who the token is', async () => {
    const thread = new FakeThread(71, APP_BOT);
    const s = harness.scope();
    expectPullFiles(s, 71, demoFiles());
    thread.expectList(s);
    thread.expectCreate(s);
    const result = await runAction({ workspace: demoWorkspace(), inputs: PLAN({ 'github-login': APP_BOT }), event: pullRequestEvent(71) });
    expect(result.failure).toBeUndefined();
    expect(s.isDone()).toBe(true);
    expect(thread.comments.map((c) => c.user.login)).toEqual([APP_BOT]);
  });

  it('warns with the fix when GitHub names no login and the comment is written as another than the one looked for', async () => {
    const thread = new FakeThread(72, APP_BOT);
    const s = harness.scope();
    s.get('/user').reply(403, { message: 'Resource not accessible by integration' });
    s.post('/graphql').reply(403, { message: 'Resource not accessible by integration' });
    expectPullFiles(s, 72, demoFiles());
    thread.expectList(s);
    thread.expectCreate(s);
    const result = await runAction({ workspace: demoWorkspace(), inputs: PLAN(), event: pullRequestEvent(72) });
    expect(result.failure).toBeUndefined();
    expect(s.isDone()).toBe(true);
    const warning = result.commands.find((c) => c.command === 'warning' && c.message.includes('github-login'));
    expect(warning?.message).toBe(
      `the comment was written as ${APP_BOT}, but the action looks for its own as github-actions[bot]: the next run will not find it and will write another. Set the input github-login: '${APP_BOT}' (a GitHub App token writes as <app-slug>[bot]).`,
    );
  });
});

describe('a plan that fails after an earlier plan was commented', () => {
  it('replaces the earlier plan in the comment with the failure, so that no reviewer reads an outdated plan', async () => {
    const workspace = demoWorkspace();
    const thread = new FakeThread(62);
    let s = harness.scope();
    expectPlanRun(s, thread);
    thread.expectCreate(s);
    const first = await runAction({ workspace, inputs: PLAN(), event: pullRequestEvent(62) });
    expect(first.failure).toBeUndefined();
    expect(s.isDone()).toBe(true);
    const mine = thread.comments[0];
    if (mine === undefined) throw new Error('no comment');

    harness.emulator.control.setFaults({ scripted: [{ route: 'GET /Monitor', count: 50, kind: '500' }] });
    s = harness.scope();
    expectCommentRun(s, thread);
    thread.expectUpdate(s, mine.id);
    const second = await runAction({ workspace, inputs: PLAN(), event: pullRequestEvent(62), sha: 'abcdef0123456789abcdef0123456789abcdef01' });
    expect(s.isDone()).toBe(true);
    expect(second.failed).toBe(true);
    expect(second.failure).toMatch(/^LIVE_READ_FAILED: /);
    expect(thread.comments).toHaveLength(1);
    const body = mine.body;
    expect(body.split('\n')[0]).toBe(planMarker('configs'));
    expect(body).toContain('**The plan failed at commit `abcdef0`; no plan was made.**');
    expect(body).toContain('GET /Monitor failed with 500');
    expect(body).not.toContain('to delete');
    expect(body).toContain('commit `abcdef0`');
    expectNoSecrets(second, thread.sentBodies);
  }, 60_000);

  it('keeps the message of the failed plan when the comment cannot be written either', async () => {
    const thread = new FakeThread(63);
    thread.add(`${planMarker('configs')}\n## monsync plan: configs\n\nan older plan\n`);
    harness.emulator.control.setFaults({ scripted: [{ route: 'GET /Monitor', count: 50, kind: '500' }] });
    const s = harness.scope();
    expectCommentRun(s, thread);
    s.patch(`/repos/acme/monitoring/issues/comments/${thread.comments[0]?.id ?? 0}`).reply(502, { message: 'Bad Gateway' });
    const result = await runAction({ workspace: demoWorkspace(), inputs: PLAN(), event: pullRequestEvent(63) });
    expect(s.isDone()).toBe(true);
    expect(result.failed).toBe(true);
    expect(result.failure).toMatch(/^LIVE_READ_FAILED: /);
    expect(result.commands.some((c) => c.command === 'warning' && c.message.startsWith('the pull request comment could not say that the plan failed: GitHub API request failed with 502'))).toBe(true);
  }, 60_000);

  it('writes a refused login into the comment without the password', async () => {
    const wrong = 'CANARY-7f3a9c-wrong-password';
    const thread = new FakeThread(64);
    const s = harness.scope();
    expectCommentRun(s, thread);
    thread.expectCreate(s);
    const result = await runAction({ workspace: demoWorkspace(), inputs: PLAN({ 'api-password': wrong }), event: pullRequestEvent(64) });
    expect(s.isDone()).toBe(true);
    expect(result.failed).toBe(true);
    const body = thread.sentBodies[0] ?? '';
    expect(body).toContain('401 Unauthorized');
    expect(body).not.toContain(wrong);
    expect(body).not.toContain(API_PASSWORD);
  });
});

describe('bodies written through the API', () => {
  it('are redacted with the masked values, as the log is: a secret value that also sits in a plain field (here a URL) reaches neither comment nor summary', async () => {
    const workspace = demoWorkspace();
    const shop = readFileSync(join(workspace, 'configs/monitors/shop.yaml'), 'utf8').replace('Url: https://shop.example.com/ ', `Url: https://shop.example.com/?key=${TREE_SECRETS.DEMO_SHOP_PASSWORD} `);
    writeFile(workspace, 'configs/monitors/shop.yaml', shop);
    const thread = new FakeThread(67);
    const s = harness.scope();
    expectPlanRun(s, thread);
    thread.expectCreate(s);
    const result = await runAction({ workspace, inputs: PLAN(), event: pullRequestEvent(67) });
    expect(s.isDone()).toBe(true);
    expect(result.failure).toBeUndefined();
    const body = thread.sentBodies[0] ?? '';
    expect(body).toContain('https://shop.example.com/?key=[redacted]');
    expect(body).not.toContain(TREE_SECRETS.DEMO_SHOP_PASSWORD);
    expect(result.summary).not.toContain(TREE_SECRETS.DEMO_SHOP_PASSWORD);
  });
});

describe('input messages', () => {
  it('say how to write a boolean input', async () => {
    const result = await runAction({ workspace: demoWorkspace(), inputs: PLAN({ 'allow-unsafe': 'yes' }), event: pullRequestEvent(65) });
    expect(result.failed).toBe(true);
    expect(result.failure).toBe(`input allow-unsafe: "yes" is not true or false; write allow-unsafe: 'true' or allow-unsafe: 'false'`);
  });
});

describe('the plan file', () => {
  it('is a different file for two config folders whose names differ only in punctuation', async () => {
    const workspace = demoWorkspace();
    for (const folder of ['accounts/eu', 'accounts_eu', 'accounts eu']) cpSync(join(workspace, 'configs'), join(workspace, folder), { recursive: true });
    const files: string[] = [];
    for (const config of ['accounts/eu', 'accounts_eu', 'accounts eu', 'configs']) {
      const result = await runAction({ workspace, inputs: PLAN({ config, comment: 'false' }), event: pullRequestEvent(66) });
      expect(result.failure).toBeUndefined();
      files.push(result.outputs['plan-file'] ?? '');
    }
    expect(new Set(files.map((file) => file.split('/').at(-1))).size).toBe(4);
    expect(files[3]?.endsWith('/monsync/plan-configs.json')).toBe(true);
  });
});

describe('the apply example workflow', () => {
  it('applies only the default branch, also when started by hand (workflow_dispatch lets anyone with write access pick a branch)', () => {
    const flow = parse(readFileSync(join(REPO_ROOT, '.github/examples/monsync-apply.yml'), 'utf8')) as { on: Record<string, unknown>; jobs: Record<string, { if?: string }> };
    expect(Object.keys(flow.on)).toContain('workflow_dispatch');
    for (const job of Object.values(flow.jobs)) expect(job.if).toBe("github.ref == 'refs/heads/main'");
  });
});

