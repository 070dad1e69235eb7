/**
 * The error paths and edge cases a team meets (injected API
 * faults during apply and a rerun that converges, GitHub 5xx, a folder name full of Markdown and HTML, a tree with
 * thousands of validation findings).
 */
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { markdownLength } from '@monsync/reconciler';
import { afterEach, describe, expect, it } from 'vitest';
import { applyMarker, planMarker } from '../src/markers.js';
import { apiInputs, demoWorkspace, expectNoSecrets, FakeThread, pullRequestEvent, PUSH_EVENT, REPOSITORY, runAction, useHarness, writeFile, expectCommentRun, expectPlanRun, demoFiles, planOnPullRequest, expectApplyRun, expectWorkflowTokenIdentity, expectPullFiles } from './harness.js';

const harness = useHarness();
const PLAN = (extra: Record<string, string> = {}) => ({ command: 'plan', config: 'configs', ...apiInputs(harness.emulator.url), ...extra });
const APPLY = (extra: Record<string, string> = {}) => ({ command: 'apply', config: 'configs', ...apiInputs(harness.emulator.url), ...extra });

afterEach(() => {
  harness.emulator.control.setFaults({ rate: 0, scripted: [] });
});

describe('apply against an API that fails the vault writes', () => {
  it('fails the step, skips what waits for the failed write, leaks no secret, and a rerun once the API is back converges', async () => {
    harness.emulator.control.setFaults({ scripted: [{ route: 'POST /VaultItem', count: 50, kind: '500' }] });
    const thread = new FakeThread(70);
    const workspace = demoWorkspace();
    expect((await planOnPullRequest(harness, thread, workspace)).failure).toBeUndefined();
    harness.emulator.control.clearLog();
    const s = harness.scope();
    expectApplyRun(s, thread);
    const failed = await runAction({ workspace, inputs: APPLY(), event: PUSH_EVENT });
    expect(s.isDone()).toBe(true);
    expect(failed.failed).toBe(true);
    expect(failed.failure).toMatch(/^Apply finished with failures: .*, 1 failed, 1 skipped/);
    const body = thread.sentBodies.at(-1) ?? '';
    expect(body.split('\n')[0]).toBe(applyMarker('configs'));
    expect(body).toContain('- vaultItem "Web/shop-otp" (create): POST /VaultItem failed with 500 Internal Server Error');
    expect(body).toContain('- monitor "Shop checkout" (update): waits for vaultItem:Web/shop-otp');
    const writes = harness.emulator.control.requestLog().entries.filter((e) => e.method !== 'GET' && e.path.includes('b3c74bca'));
    expect(writes).toEqual([]);
    expectNoSecrets(failed, [body, readFileSync(failed.outputs['plan-file'] ?? '', 'utf8')]);

    harness.emulator.control.setFaults({ scripted: [] });
    // The rerun applies the reviewed steps that failed: they are still the reviewed ones.
    const again = harness.scope();
    expectApplyRun(again, thread, undefined, { comment: false });
    const rerun = await runAction({ workspace, inputs: APPLY({ comment: 'false' }), event: PUSH_EVENT });
    expect(again.isDone()).toBe(true);
    expect(rerun.failure).toBeUndefined();
    expect(JSON.parse(rerun.outputs['summary'] ?? '{}')).toMatchObject({ create: 1, delete: 0, failed: 0, skipped: 0 });
    const settled = await runAction({ workspace, inputs: PLAN({ comment: 'false' }), event: pullRequestEvent(70) });
    expect(settled.failure).toBeUndefined();
    expect(settled.outputs['has-changes']).toBe('false');
  }, 60_000);
});

describe('GitHub failing', () => {
  it('fails the plan step with the status and request when listing comments answers 500, without the token', async () => {
    const s = harness.scope();
    expectWorkflowTokenIdentity(s);
    expectPullFiles(s, 71, demoFiles());
    s.get(`/repos/${REPOSITORY}/issues/71/comments`).query({ per_page: '100' }).reply(500, { message: 'Server Error' });
    const result = await runAction({ workspace: demoWorkspace(), inputs: PLAN(), event: pullRequestEvent(71) });
    expect(s.isDone()).toBe(true);
    expect(result.failed).toBe(true);
    expect(result.failure).toBe(`GitHub API request failed with 500 (GET https://api.github.com/repos/${REPOSITORY}/issues/71/comments): Server Error`);
    expectNoSecrets(result);
  });
});

describe('a config folder named with Markdown and HTML characters', () => {
  it('keeps one comment, with an encoded marker and an escaped title', async () => {
    const workspace = demoWorkspace();
    const folder = 'team `eu` | <b>&co -->';
    cpSync(join(workspace, 'configs'), join(workspace, folder), { recursive: true });
    const thread = new FakeThread(72);
    for (let round = 0; round < 2; round += 1) {
      const s = harness.scope();
      expectPlanRun(s, thread, demoFiles(folder));
      const mine = thread.withMarker(planMarker(folder))[0];
      if (mine === undefined) thread.expectCreate(s);
      else thread.expectUpdate(s, mine.id);
      const result = await runAction({ workspace, inputs: PLAN({ config: folder }), event: pullRequestEvent(72) });
      expect(result.failure).toBeUndefined();
      expect(s.isDone()).toBe(true);
    }
    expect(thread.comments).toHaveLength(1);
    const [first = '', second = ''] = (thread.comments[0]?.body ?? '').split('\n');
    expect(first).toBe('<!-- monsync:plan config=team%20%60eu%60%20%7C%20%3Cb%3E%26co%20--%3E -->');
    expect(second).toBe('## monsync plan: team \\`eu\\` \\| &lt;b&gt;&amp;co --&gt;');
  });
});

describe('a tree with thousands of validation findings', () => {
  it('lists what fits in the comment, under 65,000 characters, and says how many more there are', async () => {
    const workspace = demoWorkspace();
    const monitors = Array.from({ length: 3000 }, (_, i) => `  - Name: M${i}\n    MonitorType: DNS\n    IsActive: maybe\n`).join('');
    writeFile(workspace, 'configs/monitors/bulk.yaml', `monitors:\n${monitors}`);
    const thread = new FakeThread(73);
    const s = harness.scope();
    expectCommentRun(s, thread);
    thread.expectCreate(s);
    const result = await runAction({ workspace, inputs: PLAN(), event: pullRequestEvent(73) });
    expect(s.isDone()).toBe(true);
    expect(result.failed).toBe(true);
    const body = thread.sentBodies[0] ?? '';
    expect(markdownLength(body)).toBeLessThanOrEqual(65_000);
    expect(body).toMatch(/> [\d,]+ more findings not shown: this comment is limited to 65,000 characters; see the annotations and the job log\./);
    expect(body.trimEnd().endsWith('</sub>')).toBe(true);
    expect(result.summary).toContain('`configs/monitors/bulk.yaml:9001:15`');
    expect(harness.emulator.control.requestLog().entries).toEqual([]);
  }, 60_000);
});
