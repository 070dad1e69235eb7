import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyMarker } from '../src/markers.js';
import {
  apiInputs,
  demoWorkspace,
  expectApplyRun,
  expectCommitPulls,
  expectNoSecrets,
  expectWorkflowTokenIdentity,
  FakeThread,
  mergedPull,
  planOnPullRequest,
  pullRequestEvent,
  PUSH_EVENT,
  REPOSITORY,
  runAction,
  useHarness,
  writeFile,
} from './harness.js';

const harness = useHarness();

const APPLY = (extra: Record<string, string> = {}) => ({ command: 'apply', config: 'configs', ...apiInputs(harness.emulator.url), ...extra });
const MERGED = (number: number) => mergedPull(number);

/** The plan job's run on the pull request, whose comment carries the record the apply reads. */
async function reviewed(thread: FakeThread, workspace: string, env?: Record<string, string>): Promise<void> {
  const result = await planOnPullRequest(harness, thread, workspace, env === undefined ? {} : { env });
  expect(result.failure).toBeUndefined();
}

function writes(): string[] {
  return harness.emulator.control
    .requestLog()
    .entries.filter((entry) => entry.method !== 'GET')
    .map((entry) => `${entry.method} ${entry.path}`);
}

describe('apply on a push to the default branch', () => {
  it('applies, comments the result on the merged pull request and writes done, failed and skipped to the job summary', async () => {
    const thread = new FakeThread(31);
    const workspace = demoWorkspace();
    await reviewed(thread, workspace);
    const s = harness.scope();
    // An older pull request that also contains the commit comes first; the merge commit's own is chosen.
    expectApplyRun(s, thread, [{ ...MERGED(12), merge_commit_sha: 'f'.repeat(40) }, MERGED(31)]);
    const result = await runAction({ workspace, inputs: APPLY(), event: PUSH_EVENT });
    expect(result.failure).toBeUndefined();
    expect(s.isDone()).toBe(true);
    expect(writes().length).toBeGreaterThan(0);
    const body = thread.sentBodies.at(-1) ?? '';
    expect(body.split('\n')[0]).toBe(applyMarker('configs'));
    expect(body).toContain('## monsync apply: configs');
    expect(body).toMatch(/\*\*Apply complete: (\d+) of \1 steps done \(\d+ created, \d+ updated, 1 deleted\), 0 failed, 0 skipped, in [\d.]+s\.\*\*/);
    expect(body).toContain('- monitor "Old status page": deleted\n');
    expect(body).toMatch(/- monitor "Status page": created \(`[0-9a-f-]{36}`\)\n/);
    expect(body).toContain('### The plan applied');
    expect(result.summary).toMatch(/\*\*Apply complete: /);
    expect(result.outputs['comment-url']).toBe(thread.comments.at(-1)?.html_url);
    const counts = JSON.parse(result.outputs['summary'] ?? '{}') as Record<string, number>;
    expect(counts).toMatchObject({ delete: 1, failed: 0, skipped: 0 });
    expect(counts['done']).toBeGreaterThan(0);
    expectNoSecrets(result, thread.sentBodies);

    // The account now matches: a plan of the same tree has no changes.
    const after = await runAction({ workspace, inputs: { ...APPLY(), command: 'plan', comment: 'false' }, event: pullRequestEvent(32) });
    expect(after.outputs['has-changes']).toBe('false');
  });

  it('refuses an unsafe plan without allow-unsafe: the step fails, nothing is written, the comment says why; allow-deletes (deprecated) still accepts it', async () => {
    const workspace = demoWorkspace();
    writeFile(workspace, 'configs/monsync.yaml', readFileSync(join(workspace, 'configs/monsync.yaml'), 'utf8').replace('maxDeletePercent: 30', 'maxDeletePercent: 0').replace('minDeleteCount: 3', 'minDeleteCount: 1'));
    const thread = new FakeThread(33);
    // The plan job fails the check for an unsafe plan; its comment still records what was reviewed.
    expect((await planOnPullRequest(harness, thread, workspace)).failure).toMatch(/^the plan is unsafe/);
    let s = harness.scope();
    expectApplyRun(s, thread);
    const refused = await runAction({ workspace, inputs: APPLY(), event: PUSH_EVENT });
    expect(s.isDone()).toBe(true);
    expect(refused.failed).toBe(true);
    expect(refused.failure).toMatch(/^apply refused: the plan is unsafe \(over the safety thresholds of monsync\.yaml\); nothing was changed:\n {2}monitor: deletes 1 of/);
    expect(writes()).toEqual([]);
    const body = thread.sentBodies.at(-1) ?? '';
    expect(body).toContain('> **Apply refused: the plan is unsafe** (over the safety thresholds of monsync.yaml); nothing was changed.');
    expect(body).toContain('### The refused plan');
    expect(refused.summary).toContain('Apply refused: the plan is unsafe');

    s = harness.scope();
    expectApplyRun(s, thread);
    const allowed = await runAction({ workspace, inputs: APPLY({ 'allow-deletes': 'true' }), event: PUSH_EVENT });
    expect(s.isDone()).toBe(true);
    expect(allowed.failure).toBeUndefined();
    expect(allowed.commands).toContainEqual(expect.objectContaining({ command: 'warning', message: expect.stringMatching(/^input allow-deletes is deprecated and will be removed in the next release; write allow-unsafe instead/) }));
    expect(writes()).toContain('DELETE /v4/Monitor/baac971a-778e-4a77-8d05-7786b0135239');
    expect(thread.comments).toHaveLength(2);
    expect(thread.comments.at(-1)?.body).toContain('**Apply complete: ');
  });

  it('fails the step when a step fails, listing the failed step and the one it held back', async () => {
    const badOtp = 'CANARY-7f3a9c-not-base32';
    const thread = new FakeThread(34);
    const workspace = demoWorkspace();
    await reviewed(thread, workspace, { DEMO_SHOP_OTP_SECRET: badOtp });
    const s = harness.scope();
    expectApplyRun(s, thread);
    const result = await runAction({ workspace, inputs: APPLY(), event: PUSH_EVENT, env: { DEMO_SHOP_OTP_SECRET: badOtp } });
    expect(s.isDone()).toBe(true);
    expect(result.failed).toBe(true);
    expect(result.failure).toMatch(/^Apply finished with failures: \d+ of \d+ steps done .*, 1 failed, 1 skipped, in [\d.]+s\. Run the workflow again once the cause is fixed: what is done stays done\.$/);
    const body = thread.sentBodies.at(-1) ?? '';
    expect(body).toMatch(/### Failed\n\n- vaultItem "Web\/shop-otp" \(create\): POST \/VaultItem failed with 400 Bad Request: Value is not a valid Base32 secret/);
    expect(body).toContain('### Skipped: a step they depend on failed\n\n- monitor "Shop checkout" (update): waits for vaultItem:Web/shop-otp');
    expect(result.summary).toContain('### Failed');
    const counts = JSON.parse(result.outputs['summary'] ?? '{}') as Record<string, number>;
    expect(counts).toMatchObject({ failed: 1, skipped: 1 });
    for (const text of [body, result.summary, result.lines.filter((line) => !line.startsWith('::add-mask::')).join('\n')]) expect(text).not.toContain(badOtp);
  });

  it('applies nothing when no merged pull request holds the commit (nothing was reviewed), and everything with unreviewed: apply', async () => {
    let s = harness.scope();
    expectWorkflowTokenIdentity(s);
    expectCommitPulls(s, [{ ...MERGED(35), merged_at: null }]);
    const workspace = demoWorkspace();
    const held = await runAction({ workspace, inputs: APPLY(), event: PUSH_EVENT });
    expect(s.isDone()).toBe(true);
    expect(held.failed).toBe(true);
    expect(held.failure).toMatch(/^apply held \d+ steps nobody reviewed: commit 5f0c9b1 is not the merge of a pull request, so no plan of it was reviewed\. they were not applied:\n/);
    expect(held.failure).toContain('unreviewed: apply');
    expect(writes()).toEqual([]);
    expect(held.summary).toContain('held, not applied:** commit 5f0c9b1 is not the merge of a pull request');
    expect(held.lines).toContain('no merged pull request found for commit 5f0c9b1: the result is in the job summary only');

    s = harness.scope();
    expectWorkflowTokenIdentity(s);
    expectCommitPulls(s, [{ ...MERGED(35), merged_at: null }]);
    const result = await runAction({ workspace, inputs: APPLY({ unreviewed: 'apply' }), event: { ...PUSH_EVENT, name: 'workflow_dispatch' } });
    expect(s.isDone()).toBe(true);
    expect(result.failure).toBeUndefined();
    expect(result.summary).toMatch(/\*\*Apply complete: /);
    expect(result.summary).toContain('nobody reviewed applied on purpose** (unreviewed: apply)');
    expect(result.outputs['comment-url']).toBeUndefined();
  });

  it('keeps a successful apply green when GitHub refuses the comment: a warning names the failure, the summary has the result', async () => {
    const thread = new FakeThread(37);
    const workspace = demoWorkspace();
    await reviewed(thread, workspace);
    const s = harness.scope();
    expectApplyRun(s, thread, [MERGED(37)], { comment: false });
    s.get(`/repos/${REPOSITORY}/issues/37/comments`).query(true).reply(502, { message: 'Server Error' });
    const result = await runAction({ workspace, inputs: APPLY(), event: PUSH_EVENT });
    expect(s.isDone()).toBe(true);
    expect(result.failure).toBeUndefined();
    expect(writes().length).toBeGreaterThan(0);
    expect(result.summary).toMatch(/\*\*Apply complete: /);
    const warning = result.lines.find((line) => line.startsWith('::warning::'));
    expect(warning).toContain('the comment on the merged pull request could not be written: GitHub API request failed with 502');
    expect(result.outputs['comment-url']).toBeUndefined();
    expectNoSecrets(result, []);
  });

  it('says there is nothing to apply when the account already matches', async () => {
    const workspace = demoWorkspace();
    rmSync(join(workspace, 'configs', 'alert-definitions.yaml'));
    const thread = new FakeThread(36);
    await reviewed(thread, workspace);
    let s = harness.scope();
    expectApplyRun(s, thread, [MERGED(36)], { comment: false });
    const first = await runAction({ workspace, inputs: APPLY({ comment: 'false' }), event: PUSH_EVENT });
    expect(first.failure).toBeUndefined();
    expect(s.isDone()).toBe(true);
    s = harness.scope();
    expectApplyRun(s, thread);
    const second = await runAction({ workspace, inputs: APPLY(), event: PUSH_EVENT });
    expect(s.isDone()).toBe(true);
    expect(second.failure).toBeUndefined();
    expect(second.outputs['has-changes']).toBe('false');
    expect(thread.sentBodies.at(-1)).toContain('**Nothing to apply:** the account matches the configuration.');
    expect(second.summary).toContain('**Nothing to apply:**');
  });

  it('takes the apply lock: a lock left behind by an apply that stopped fails the step naming it, and lock: false applies without it', async () => {
    const planted = await harness.emulator.control.actAs('admin@example.com', {
      method: 'POST',
      path: '/Sla',
      body: { Description: 'monsync:lock id=gone since=2026-01-01T00:00:00Z expires=2026-01-01T00:10:00Z host=laptop-9 user=sam' },
    });
    expect(planted.status).toBeLessThan(300);
    harness.emulator.control.clearLog();
    const workspace = demoWorkspace();
    const stopped = await runAction({ workspace, inputs: APPLY({ comment: 'false', unreviewed: 'apply', 'github-token': '' }), event: PUSH_EVENT });
    expect(stopped.failed).toBe(true);
    expect(stopped.failure).toContain('the apply lock is held by sam@laptop-9 since 2026-01-01T00:00:00Z (lease until 2026-01-01T00:10:00Z), and its lease has run out');
    expect(stopped.failure).toContain('monsync unlock ');
    expect(writes()).toEqual([]);

    const applied = await runAction({ workspace, inputs: APPLY({ comment: 'false', lock: 'false', unreviewed: 'apply', 'github-token': '' }), event: PUSH_EVENT });
    expect(applied.failure).toBeUndefined();
    expect(writes().some((write) => write.startsWith('POST /v4/Monitor'))).toBe(true);
    // Invisible to the plan, the lock left behind is neither pruned nor touched.
    const listed = await harness.emulator.control.actAs('admin@example.com', { method: 'GET', path: '/Sla' });
    expect(JSON.stringify(listed.body)).toContain('monsync:lock id=gone');
  });

  it('holds the apply lock only while it writes, and leaves none behind', async () => {
    const workspace = demoWorkspace();
    const result = await runAction({ workspace, inputs: APPLY({ comment: 'false', unreviewed: 'apply', 'github-token': '' }), event: PUSH_EVENT });
    expect(result.failure).toBeUndefined();
    const slaWrites = writes().filter((write) => /^(POST|DELETE) \/v4\/Sla(\/[^/]+)?$/.test(write));
    expect(slaWrites[0]).toBe('POST /v4/Sla');
    expect(slaWrites.at(-1)).toMatch(/^DELETE \/v4\/Sla\//);
    const listed = await harness.emulator.control.actAs('admin@example.com', { method: 'GET', path: '/Sla' });
    expect(JSON.stringify(listed.body)).not.toContain('monsync:lock');
  });
});
