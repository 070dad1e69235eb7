/**
 * Scenario: drift -> accept pull request -> plan empty. The account is changed in the web app; the drift job (input
 * drift-pr) opens the issue and the "Accept live changes" pull request; merging it (its commit's files written into
 * the checkout) makes the next drift run find nothing and close the issue. The account's state is read from the
 * emulator's request log: the drift runs and the acceptance write nothing to it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acceptBranch, ACCEPT_TITLE } from '../src/accept-pr.js';
import { DRIFT_TITLE } from '../src/drift-issue.js';
import { acceptMarker } from '../src/markers.js';
import { FakeGit } from './fake-git.js';
import { apiInputs, demoWorkspace, expectNoSecrets, expectDriftRun, FakeIssues, PUSH_EVENT, runAction, SCHEDULE_EVENT, SHA, useHarness, writeFile } from './harness.js';

const harness = useHarness();
const BRANCH = acceptBranch('configs');

const DRIFT = (extra: Record<string, string> = {}) => ({ command: 'drift', config: 'configs', 'drift-pr': 'true', ...apiInputs(harness.emulator.url), ...extra });

/** The workspace's tree applied: git and the account agree before the web app is used. */
async function agreeingWorkspace(): Promise<string> {
  const workspace = demoWorkspace();
  const applied = await runAction({ workspace, inputs: { ...DRIFT(), command: 'apply', comment: 'false', unreviewed: 'apply', 'github-token': '' }, event: PUSH_EVENT });
  expect(applied.failure).toBeUndefined();
  return workspace;
}

async function webApp(method: string, path: string, body?: unknown): Promise<unknown> {
  const result = await harness.emulator.control.actAs('sam.ops@example.com', { method, path, ...(body === undefined ? {} : { body }) });
  expect(result.status, `${method} ${path}`).toBeLessThan(300);
  return result.body;
}

async function monitorGuid(name: string): Promise<string> {
  const listed = await webApp('GET', '/Monitor');
  const rows = (Array.isArray(listed) ? listed : ((listed as { Items?: unknown[] }).Items ?? [])) as Record<string, unknown>[];
  const guid = rows.find((row) => row['Name'] === name)?.['MonitorGuid'];
  if (typeof guid !== 'string') throw new Error(`no live monitor ${name}`);
  return guid;
}

/** Three edits as people make them in the web app: a changed field, a new monitor, a deleted monitor. */
async function editInWebApp(): Promise<void> {
  await webApp('PATCH', `/Monitor/${await monitorGuid('Shop homepage')}`, { CheckInterval: 10 });
  // Within the demo tree's policy for Https monitors (configs/monsync.yaml), so that the accepted tree plans cleanly.
  await webApp('POST', '/Monitor', { Name: 'Checkout latency', MonitorType: 'Https', Url: 'https://shop.example.com/checkout', CheckInterval: 5, ErrorConditions: [{ ErrorConditionType: 'HttpStatus', Value: '200' }] });
  await webApp('DELETE', `/Monitor/${await monitorGuid('Mail relay')}`);
}

function writesToAccount(): string[] {
  return harness.emulator.control
    .requestLog()
    .entries.filter((entry) => entry.method !== 'GET')
    .map((entry) => `${entry.method} ${entry.path}`);
}

/** The first drift run with drift-pr: the pull request (branch pushed first), then the issue that links it. */
async function firstDriftRun(workspace: string, issues: FakeIssues, git: FakeGit) {
  const s = harness.scope();
  git.expectFirstPush(s, BRANCH);
  git.expectListPulls(s, BRANCH);
  git.expectCreatePull(s);
  expectDriftRun(s, issues);
  issues.expectCreate(s);
  const result = await runAction({ workspace, inputs: DRIFT(), event: SCHEDULE_EVENT });
  expect(result.failure).toBeUndefined();
  expect(s.isDone()).toBe(true);
  return result;
}

describe('drift answered both ways (drift-pr)', () => {
  it('drift -> accept pull request -> plan empty: the pull request holds only the changed lines, and merging it closes the issue', async () => {
    const workspace = await agreeingWorkspace();
    await editInWebApp();
    harness.emulator.control.clearLog();
    const issues = new FakeIssues();
    const git = new FakeGit();

    const first = await firstDriftRun(workspace, issues, git);
    expect(writesToAccount()).toEqual([]);
    const [pull] = git.pulls;
    if (pull === undefined) throw new Error('no pull request');
    expect(pull).toMatchObject({ title: ACCEPT_TITLE, head: BRANCH, base: 'main', state: 'open' });
    expect(pull.body.split('\n')[0]).toBe(acceptMarker('configs'));
    expect(pull.body).toContain('- \\~ monitor "Shop homepage" /CheckInterval');
    const commit = git.commits.get(git.refs.get(`heads/${BRANCH}`) ?? '');
    expect(commit?.parents).toEqual([SHA]);
    const files = git.changedFiles(BRANCH);
    expect([...files.keys()].sort()).toEqual(['configs/groups.yaml', 'configs/monitors/platform.yaml', 'configs/monitors/shop.yaml', 'configs/new-objects.yaml']);
    const shop = files.get('configs/monitors/shop.yaml') ?? '';
    expect(shop).toBe(readFileSync(join(workspace, 'configs/monitors/shop.yaml'), 'utf8').replace('CheckInterval: 5                    #', 'CheckInterval: 10                   #'));

    const [issue] = issues.titled(DRIFT_TITLE);
    if (issue === undefined) throw new Error('no drift issue');
    expect(issue.body).toContain('### Two ways to answer');
    // Each web-app edit is named: the changed and the made monitor with who did it, the deleted one as missing.
    expect(issue.body).toContain('| monitor "Shop homepage" | Sam Ops |');
    expect(issue.body).toContain('| monitor "Checkout latency" | Sam Ops |');
    expect(issue.body).toContain('### Declared in git, missing from the account\n\nDeleted outside git (the service does not record by whom), or merged and not applied yet; an apply creates them again.\n\n- monitor "Mail relay"\n- groupMembership "Platform/Mail relay"\n');
    expect(issue.body).toContain('- **Keep git:** run the apply workflow again');
    expect(issue.body).toContain(`review and merge [#${pull.number} Accept live changes](${pull.html_url})`);
    expectNoSecrets(first, [issue.body, pull.body, ...files.values()]);

    // Merged: the checkout of the default branch now holds the pull request's files.
    for (const [path, text] of files) writeFile(workspace, path, text);
    harness.emulator.control.clearLog();
    const s = harness.scope();
    expectDriftRun(s, issues);
    issues.expectComment(s, issue.number);
    issues.expectUpdate(s, issue.number);
    pull.state = 'closed';
    git.expectListPulls(s, BRANCH);
    const after = await runAction({ workspace, inputs: DRIFT(), event: SCHEDULE_EVENT });
    expect(after.failure).toBeUndefined();
    expect(s.isDone()).toBe(true);
    expect(after.outputs['has-changes']).toBe('false');
    expect(issue.state).toBe('closed');
    expect(writesToAccount()).toEqual([]);
  });

  it('leaves the branch and the pull request alone on a later run with the same drift, and keeps one of each', async () => {
    const workspace = await agreeingWorkspace();
    await editInWebApp();
    const issues = new FakeIssues();
    const git = new FakeGit();
    await firstDriftRun(workspace, issues, git);
    const head = git.refs.get(`heads/${BRANCH}`);
    const [issue] = issues.titled(DRIFT_TITLE);
    if (issue === undefined) throw new Error('no drift issue');

    const s = harness.scope();
    git.expectSamePush(s, BRANCH);
    git.expectListPulls(s, BRANCH);
    expectDriftRun(s, issues);
    issues.expectUpdate(s, issue.number);
    const again = await runAction({ workspace, inputs: DRIFT(), event: SCHEDULE_EVENT });
    expect(again.failure).toBeUndefined();
    expect(s.isDone()).toBe(true);
    expect(git.refs.get(`heads/${BRANCH}`)).toBe(head);
    expect(git.pulls).toHaveLength(1);
  });

  it('closes the pull request and deletes its branch when the account is reverted by an apply instead', async () => {
    const workspace = await agreeingWorkspace();
    await editInWebApp();
    const issues = new FakeIssues();
    const git = new FakeGit();
    await firstDriftRun(workspace, issues, git);
    const [pull] = git.pulls;
    const [issue] = issues.titled(DRIFT_TITLE);
    if (pull === undefined || issue === undefined) throw new Error('no pull request or issue');

    const reverted = await runAction({ workspace, inputs: { ...DRIFT(), command: 'apply', comment: 'false', unreviewed: 'apply', 'github-token': '' }, event: PUSH_EVENT });
    expect(reverted.failure).toBeUndefined();
    const s = harness.scope();
    expectDriftRun(s, issues);
    issues.expectComment(s, issue.number);
    issues.expectUpdate(s, issue.number);
    git.expectListPulls(s, BRANCH);
    git.expectPullComment(s, pull.number);
    git.expectUpdatePull(s, pull.number);
    git.expectDeleteRef(s, BRANCH);
    const after = await runAction({ workspace, inputs: DRIFT(), event: SCHEDULE_EVENT });
    expect(after.failure).toBeUndefined();
    expect(s.isDone()).toBe(true);
    expect(issue.state).toBe('closed');
    expect(pull.state).toBe('closed');
    expect(pull.comments[0]).toMatch(/^\*\*Git and the live account agree again\*\*/);
    expect(git.refs.has(`heads/${BRANCH}`)).toBe(false);
  });

  it("never updates a pull request someone else opened from the action's branch with its marker: it opens its own", async () => {
    const workspace = await agreeingWorkspace();
    await editInWebApp();
    const issues = new FakeIssues();
    const git = new FakeGit();
    const body = `${acceptMarker('configs')}\nAccept live changes, copied by hand`;
    git.pulls.push({ number: 499, title: ACCEPT_TITLE, head: BRANCH, base: 'main', body, state: 'open', html_url: `https://github.com/acme/monitoring/pull/499`, comments: [], user: { login: 'mallory' } });
    await firstDriftRun(workspace, issues, git);
    expect(git.pulls.map((pull) => [pull.number, pull.user.login, pull.state])).toEqual([
      [499, 'mallory', 'open'],
      [501, 'github-actions[bot]', 'open'],
    ]);
    expect(git.pulls[0]?.body).toBe(body);
    expect(issues.titled(DRIFT_TITLE)[0]?.body).toContain('[#501 Accept live changes]');
  });

  it('without drift-pr, opens no branch or pull request (only the issue)', async () => {
    const workspace = await agreeingWorkspace();
    await editInWebApp();
    const issues = new FakeIssues();
    const s = harness.scope();
    expectDriftRun(s, issues);
    issues.expectCreate(s);
    const result = await runAction({ workspace, inputs: DRIFT({ 'drift-pr': 'false' }), event: SCHEDULE_EVENT });
    expect(result.failure).toBeUndefined();
    expect(s.isDone()).toBe(true);
    expect(issues.titled(DRIFT_TITLE)[0]?.body).not.toContain('Two ways to answer');
  });

  it('still reports the drift when the token may not push (no contents: write): a warning, and the issue says why there is no pull request', async () => {
    const workspace = await agreeingWorkspace();
    await editInWebApp();
    const issues = new FakeIssues();
    const s = harness.scope();
    s.get(`/repos/acme/monitoring/git/commits/${SHA}`).reply(403, { message: 'Resource not accessible by integration' });
    expectDriftRun(s, issues);
    issues.expectCreate(s);
    const result = await runAction({ workspace, inputs: DRIFT(), event: SCHEDULE_EVENT });
    expect(result.failure).toBeUndefined();
    expect(s.isDone()).toBe(true);
    const warning = result.commands.find((c) => c.command === 'warning' && c.message.startsWith('drift-pr:'));
    expect(warning?.message).toMatch(/HTTP 403: .*contents: write and pull-requests: write$/);
    expect(issues.titled(DRIFT_TITLE)[0]?.body).toContain("- **Keep the account's changes:** the drift job could not push its pull request this time");
  });
});
