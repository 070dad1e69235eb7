/**
 * Scenarios of a repository's life, end to end: the plan job on a pull request writes its comment (and in it the
 * reviewed-plan record) with the action's own code, then apply on merge reads that record, against the emulator;
 * GitHub is nock. The account's state is asserted from the emulator's request log: a held step means zero writes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRecord } from '../src/review-record.js';
import {
  apiInputs,
  demoFiles,
  demoWorkspace,
  expectApplyRun,
  expectNoSecrets,
  expectPlanRun,
  FakeThread,
  HEAD_SHA,
  mergedPull,
  planOnPullRequest,
  pullRequestEvent,
  PUSH_EVENT,
  runAction,
  SHA,
  useHarness,
  writeFile,
} from './harness.js';

const harness = useHarness();

const APPLY = (extra: Record<string, string> = {}) => ({ command: 'apply', config: 'configs', ...apiInputs(harness.emulator.url), ...extra });

function writes(): string[] {
  return harness.emulator.control
    .requestLog()
    .entries.filter((entry) => entry.method !== 'GET')
    .map((entry) => `${entry.method} ${entry.path}`);
}

/** Writes other than the apply lock's own SLA. */
function stepWrites(): string[] {
  return writes().filter((write) => !/^(POST \/v4\/Sla|DELETE \/v4\/Sla\/[^/]+)$/.test(write));
}

async function monitorGuid(name: string): Promise<string> {
  const listed = await harness.emulator.control.actAs('admin@example.com', { method: 'GET', path: '/Monitor' });
  const found = (listed.body as { MonitorGuid: string; Name: string }[]).find((m) => m.Name === name);
  if (found === undefined) throw new Error(`no monitor ${name}`);
  return found.MonitorGuid;
}

async function monitorNames(): Promise<string[]> {
  const listed = await harness.emulator.control.actAs('admin@example.com', { method: 'GET', path: '/Monitor' });
  return (listed.body as { Name: string }[]).map((m) => m.Name);
}

/** The account as main's tree has it: applied on purpose, without GitHub (the base every pull request starts from). */
async function settle(workspace: string): Promise<void> {
  const result = await runAction({ workspace, inputs: APPLY({ comment: 'false', unreviewed: 'apply', 'github-token': '' }), event: PUSH_EVENT });
  expect(result.failure).toBeUndefined();
  harness.emulator.control.clearLog();
}

// Within the demo tree's policy for Https monitors (configs/monsync.yaml): an interval and an HttpStatus condition.
const newMonitor = (name: string) => `monitors:\n  - Name: ${name}\n    MonitorType: Https\n    Url: https://shop.example.com/${name.replace(/\W+/g, '-')}\n    CheckInterval: 5\n    ErrorConditions:\n      - { ErrorConditionType: HttpStatus, Value: "200" }\n`;

describe('apply on merge applies what was reviewed', () => {
  it('review -> merge: every reviewed step is applied, from the record the plan job wrote', async () => {
    const workspace = demoWorkspace();
    const thread = new FakeThread(41);
    const plan = await planOnPullRequest(harness, thread, workspace);
    expect(plan.failure).toBeUndefined();
    const record = readRecord(thread.comments[0]?.body ?? '');
    expect(record?.head).toBe(HEAD_SHA);
    expect(record?.planDigest).toBe(plan.outputs['plan-digest']);
    // The artifact files: the record as JSON is the one in the comment.
    expect(JSON.parse(readFileSync(plan.outputs['record-file'] ?? '', 'utf8'))).toEqual(record);
    expect(plan.outputs['artifact-name']).toBe('monsync-plan-configs');
    expect(plan.outputs['artifact-paths']?.split('\n')).toHaveLength(3);
    harness.emulator.control.clearLog();

    const s = harness.scope();
    expectApplyRun(s, thread);
    const applied = await runAction({ workspace, inputs: APPLY(), event: PUSH_EVENT });
    expect(s.isDone()).toBe(true);
    expect(applied.failure).toBeUndefined();
    expect(stepWrites()).toContain('POST /v4/Monitor');
    expect(await monitorNames()).toContain('Status page');
    const body = thread.sentBodies.at(-1) ?? '';
    expect(body).toMatch(/\*\*Apply complete: (\d+) of \1 steps done/);
    expect(body).not.toContain('held');
    expectNoSecrets(applied, thread.sentBodies);
  });

  it('review -> drift -> merge: the step drift changed is held (zero writes to it), the rest applied, and the comment says how to push it through', async () => {
    const workspace = demoWorkspace();
    const thread = new FakeThread(42);
    expect((await planOnPullRequest(harness, thread, workspace)).failure).toBeUndefined();
    // After the review, an on-call engineer changes a monitor the reviewed plan updates, in the web app.
    const shop = await monitorGuid('Shop homepage');
    const edited = await harness.emulator.control.actAs('admin@example.com', { method: 'PATCH', path: `/Monitor/${shop}`, body: { CheckInterval: 15 } });
    expect(edited.status).toBeLessThan(300);
    harness.emulator.control.clearLog();

    const s = harness.scope();
    expectApplyRun(s, thread);
    const held = await runAction({ workspace, inputs: APPLY(), event: PUSH_EVENT });
    expect(s.isDone()).toBe(true);
    expect(held.failed).toBe(true);
    expect(held.failure).toMatch(/^apply held 1 step nobody reviewed: they were not applied \(the reviewed steps were\):\n {2}monitor "Shop homepage" \(update\): changed since the review/);
    expect(held.failure).toContain('with unreviewed: apply');
    expect(writes().filter((write) => write.includes(shop))).toEqual([]);
    expect(stepWrites()).toContain('POST /v4/Monitor');
    const body = thread.sentBodies.at(-1) ?? '';
    expect(body).toContain('**1 step held, not applied:** they were not in the plan reviewed on pull request #42. The reviewed steps were applied.');
    expect(body).toContain('- monitor "Shop homepage" (update): changed since the review');
    expect(body).toContain('unreviewed: apply');
    expect(body).toContain('### The plan made at merge (held steps included, not applied)');

    // A maintainer pushes it through on purpose: workflow_dispatch with unreviewed: apply.
    harness.emulator.control.clearLog();
    const again = harness.scope();
    expectApplyRun(again, thread);
    const pushed = await runAction({ workspace, inputs: APPLY({ unreviewed: 'apply' }), event: { ...PUSH_EVENT, name: 'workflow_dispatch' } });
    expect(again.isDone()).toBe(true);
    expect(pushed.failure).toBeUndefined();
    expect(writes().filter((write) => write.includes(shop))).toHaveLength(1);
    expect(thread.sentBodies.at(-1)).toContain('nobody reviewed applied on purpose** (unreviewed: apply)');
  });

  it('two pull requests merged back to back: each applies its own reviewed steps', async () => {
    const base = demoWorkspace();
    await settle(base);
    const treeA = demoWorkspace();
    writeFile(treeA, 'configs/monitors/a.yaml', newMonitor('From pull request A'));
    const treeB = demoWorkspace();
    writeFile(treeB, 'configs/monitors/b.yaml', newMonitor('From pull request B'));
    const prA = new FakeThread(43);
    const prB = new FakeThread(44);
    const headA = 'aaaa'.repeat(10);
    const headB = 'bbbb'.repeat(10);
    // Both reviewed against the same account, before either merged.
    expect((await planOnPullRequest(harness, prA, treeA, { head: headA, files: ['configs/monitors/a.yaml'] })).failure).toBeUndefined();
    expect((await planOnPullRequest(harness, prB, treeB, { head: headB, files: ['configs/monitors/b.yaml'] })).failure).toBeUndefined();
    harness.emulator.control.clearLog();

    const mergeA = 'a0'.repeat(20);
    let s = harness.scope();
    expectApplyRun(s, prA, [mergedPull(43, headA, mergeA)], { sha: mergeA });
    const appliedA = await runAction({ workspace: treeA, inputs: APPLY(), event: PUSH_EVENT, sha: mergeA });
    expect(s.isDone()).toBe(true);
    expect(appliedA.failure).toBeUndefined();
    expect(stepWrites().filter((write) => write.startsWith('POST /v4/Monitor'))).toEqual(['POST /v4/Monitor']);

    // main now holds both trees' monitors.
    const main = demoWorkspace();
    writeFile(main, 'configs/monitors/a.yaml', newMonitor('From pull request A'));
    writeFile(main, 'configs/monitors/b.yaml', newMonitor('From pull request B'));
    harness.emulator.control.clearLog();
    s = harness.scope();
    expectApplyRun(s, prB, [mergedPull(44, headB, SHA)]);
    const appliedB = await runAction({ workspace: main, inputs: APPLY(), event: PUSH_EVENT });
    expect(s.isDone()).toBe(true);
    expect(appliedB.failure).toBeUndefined();
    expect(stepWrites().filter((write) => write.startsWith('POST /v4/Monitor'))).toEqual(['POST /v4/Monitor']);
    expect(await monitorNames()).toEqual(expect.arrayContaining(['From pull request A', 'From pull request B']));
    expect(prB.sentBodies.at(-1)).toMatch(/\*\*Apply complete: (\d+) of \1 steps done \(1 created\)/);
  });

  it('a pull request pushed to after its plan: apply refuses and writes nothing', async () => {
    const workspace = demoWorkspace();
    const thread = new FakeThread(45);
    expect((await planOnPullRequest(harness, thread, workspace, { head: HEAD_SHA })).failure).toBeUndefined();
    harness.emulator.control.clearLog();
    const pushedLater = 'c0ffee'.padEnd(40, '0');
    const s = harness.scope();
    expectApplyRun(s, thread, [mergedPull(45, pushedLater)]);
    const refused = await runAction({ workspace, inputs: APPLY(), event: PUSH_EVENT });
    expect(s.isDone()).toBe(true);
    expect(refused.failed).toBe(true);
    expect(refused.failure).toContain(
      `the plan comment of pull request #45 was made for commit ${HEAD_SHA.slice(0, 7)}, but the pull request was merged at c0ffee0: its last push was never planned.`,
    );
    expect(writes()).toEqual([]);
    expect(thread.sentBodies.at(-1)).toContain('Nothing was applied.');
    expect(thread.sentBodies.at(-1)).toContain('### The plan made at merge (not applied)');
  });

  it('never reads a record from a comment someone else wrote, even one that starts with the marker', async () => {
    const workspace = demoWorkspace();
    const thread = new FakeThread(46);
    expect((await planOnPullRequest(harness, thread, workspace)).failure).toBeUndefined();
    // Someone copies the bot's comment (record line and all) as their own; the bot's own comment is gone.
    const copied = thread.comments[0]?.body ?? '';
    thread.comments.splice(0, thread.comments.length);
    thread.add(copied, 'mallory');
    harness.emulator.control.clearLog();
    const s = harness.scope();
    expectApplyRun(s, thread);
    const refused = await runAction({ workspace, inputs: APPLY(), event: PUSH_EVENT });
    expect(s.isDone()).toBe(true);
    expect(refused.failure).toContain('pull request #46 has no reviewed-plan record of configs by github-actions[bot]');
    expect(writes()).toEqual([]);
    // The copy is left alone: the apply comment is a new one.
    expect(thread.comments[0]?.body).toBe(copied);
    expect(thread.comments).toHaveLength(2);
  });

  it('the plan comment keeps steps of files the pull request does not change apart, collapsed', async () => {
    const workspace = demoWorkspace();
    await settle(workspace);
    writeFile(workspace, 'configs/monitors/a.yaml', newMonitor('From this pull request'));
    // Drift the pull request did not cause: a monitor changed in the web app.
    const shop = await monitorGuid('Shop homepage');
    expect((await harness.emulator.control.actAs('admin@example.com', { method: 'PATCH', path: `/Monitor/${shop}`, body: { CheckInterval: 15 } })).status).toBeLessThan(300);
    const thread = new FakeThread(47);
    expect((await planOnPullRequest(harness, thread, workspace, { files: ['configs/monitors/a.yaml'] })).failure).toBeUndefined();
    const body = thread.comments[0]?.body ?? '';
    const [own = '', others = ''] = body.split('<details><summary><b>Not from this pull request</b>');
    expect(own).toContain('+ create monitor "From this pull request"');
    expect(own).not.toContain('Shop homepage');
    expect(others).toMatch(/^: 1 step for objects declared in files it does not change<\/summary>/);
    expect(others).toContain('! update monitor "Shop homepage"');

    // Nothing of its own: one line, and the drift still apart.
    const unchanged = demoWorkspace();
    const quiet = new FakeThread(48);
    expect((await planOnPullRequest(harness, quiet, unchanged, { files: ['README.md'] })).failure).toBeUndefined();
    const line = quiet.comments[0]?.body.split('\n')[3];
    expect(line).toBe('**No changes:** this pull request changes nothing in the account. The account differs from files it does not change: see below.');
    expect(demoFiles()).toContain('configs/monitors/shop.yaml');
  });
});

describe('a pull request that changes nothing in the account', () => {
  it('gets no comment with comment-unchanged: false, and one line by default (with the policy findings below it)', async () => {
    const workspace = demoWorkspace();
    await settle(workspace);
    const thread = new FakeThread(50);
    const s = harness.scope();
    expectPlanRun(s, thread);
    const silent = await runAction({ workspace, inputs: { command: 'plan', config: 'configs', 'comment-unchanged': 'false', ...apiInputs(harness.emulator.url) }, event: pullRequestEvent(50) });
    expect(s.isDone()).toBe(true);
    expect(silent.failure).toBeUndefined();
    expect(thread.comments).toEqual([]);
    expect(silent.lines).toContain('no changes from this pull request, and comment-unchanged is false: no comment');

    expect((await planOnPullRequest(harness, thread, workspace)).failure).toBeUndefined();
    const body = thread.comments[0]?.body ?? '';
    // The demo tree's policy warnings (the Blog's interval; the hours Shop on-call pages nobody) change nothing, and are still for reviewers to see.
    expect(body.split('\n').filter((line) => line !== '' && !line.startsWith('<!--') && !line.startsWith('<sub>'))).toEqual([
      '## monsync plan: configs',
      '**No changes:** this pull request changes nothing in the account.',
      '### Policy: 0 errors, 2 warnings',
      expect.stringMatching(/^- \*\*warning\*\* `checkInterval` monitor "Blog" \(`monitors\/marketing\.yaml:\d+:\d+`\): /),
      expect.stringMatching(/^- \*\*warning\*\* `alertsReachSomeone` alertDefinition "Shop on-call" \(`alert-definitions\.yaml:\d+:\d+`\): /),
    ]);
  });
});

describe('the reviewed-plan record on disk', () => {
  it('is the JSON the comment carries, in the file the record-file output names', async () => {
    const workspace = demoWorkspace();
    const thread = new FakeThread(49);
    const plan = await planOnPullRequest(harness, thread, workspace);
    const file = plan.outputs['record-file'] ?? '';
    expect(file.endsWith(join('monsync', 'reviewed-configs.json'))).toBe(true);
    const paths = plan.outputs['artifact-paths']?.split('\n') ?? [];
    expect(paths.map((p) => p.split(/[\\/]/).at(-1))).toEqual(['plan-configs.json', 'plan-configs.txt', 'reviewed-configs.json']);
    expect(readFileSync(paths[1] ?? '', 'utf8')).toContain('monitor "Status page"');
  });
});
