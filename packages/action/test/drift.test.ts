import { seedGuid } from '@monsync/emulator';
import { describe, expect, it } from 'vitest';
import { DRIFT_TITLE } from '../src/drift-issue.js';
import { driftMarker } from '../src/markers.js';
import { apiInputs, demoWorkspace, expectNoSecrets, expectDriftRun, FakeIssues, PUSH_EVENT, runAction, SCHEDULE_EVENT, useHarness } from './harness.js';

const harness = useHarness();

const DRIFT = (extra: Record<string, string> = {}) => ({ command: 'drift', config: 'configs', ...apiInputs(harness.emulator.url), ...extra });

describe('drift on a schedule', () => {
  it('opens one "monsync drift" issue naming who changed what outside git, and updates it on later runs', async () => {
    const workspace = demoWorkspace();
    const issues = new FakeIssues();
    // Look-alikes that are not ours: a pull request and an issue someone opened by hand with the same title.
    issues.add(DRIFT_TITLE, 'a pull request', { pullRequest: true });
    issues.add(DRIFT_TITLE, 'opened by hand, without the marker', { author: 'someone' });
    let s = harness.scope();
    expectDriftRun(s, issues);
    issues.expectCreate(s);
    const first = await runAction({ workspace, inputs: DRIFT(), event: SCHEDULE_EVENT });
    expect(first.failure).toBeUndefined();
    expect(s.isDone()).toBe(true);
    const ours = issues.issues.filter((issue) => issue.body.includes(driftMarker('configs')));
    expect(ours).toHaveLength(1);
    const issue = ours[0];
    if (issue === undefined) throw new Error('no drift issue');
    expect(issue.title).toBe('monsync drift');
    expect(issue.body.split('\n')[0]).toBe(driftMarker('configs'));
    expect(issue.body).toContain('## monsync drift: configs');
    expect(issue.body).toContain('### Changed outside git\n\n- **Sam Ops**: 2 objects changed outside git, last at 2026-01-14T09:05:00');
    expect(issue.body).toContain('| monitor "Blog" | Sam Ops | 2026-01-12T16:42:00 |');
    expect(issue.body).toContain('| monitor "Database primary" | Sam Ops | 2026-01-14T09:05:00 |');
    expect(first.outputs['comment-url']).toBe(issue.html_url);
    expect(first.outputs['has-changes']).toBe('true');
    expect(first.commands.some((c) => c.command === 'warning' && c.message.startsWith(`drift: the live account differs from configs; issue #${issue.number} opened`))).toBe(true);
    expectNoSecrets(first, [issue.body]);

    // Later runs: the issue sits behind a page of other open issues, and is updated in place.
    for (let i = 0; i < 100; i += 1) issues.add(`bug ${i}`, 'something else');
    issues.issues.push(issues.issues.splice(issues.issues.indexOf(issue), 1)[0] ?? issue);
    for (let run = 0; run < 2; run += 1) {
      s = harness.scope();
      expectDriftRun(s, issues);
      issues.expectUpdate(s, issue.number);
      const again = await runAction({ workspace, inputs: DRIFT(), event: SCHEDULE_EVENT });
      expect(again.failure).toBeUndefined();
      expect(s.isDone()).toBe(true);
    }
    expect(issues.issues.filter((i) => i.body.includes(driftMarker('configs')))).toHaveLength(1);
  });

  it('closes the issue with a comment once the drift is gone, and opens a new one when someone changes the account again', async () => {
    const workspace = demoWorkspace();
    const issues = new FakeIssues();
    let s = harness.scope();
    expectDriftRun(s, issues);
    issues.expectCreate(s);
    await runAction({ workspace, inputs: DRIFT(), event: SCHEDULE_EVENT });
    expect(s.isDone()).toBe(true);
    const issue = issues.titled(DRIFT_TITLE)[0];
    if (issue === undefined) throw new Error('no drift issue');

    const applied = await runAction({ workspace, inputs: { ...DRIFT(), command: 'apply', comment: 'false', unreviewed: 'apply', 'github-token': '' }, event: PUSH_EVENT });
    expect(applied.failure).toBeUndefined();

    s = harness.scope();
    expectDriftRun(s, issues);
    issues.expectComment(s, issue.number);
    issues.expectUpdate(s, issue.number);
    const gone = await runAction({ workspace, inputs: DRIFT(), event: SCHEDULE_EVENT });
    expect(gone.failure).toBeUndefined();
    expect(s.isDone()).toBe(true);
    expect(issue.state).toBe('closed');
    expect(issue.comments[0]).toMatch(/^\*\*Drift is gone:\*\* the live account matches `configs` at commit `5f0c9b1`\. Closing\./);
    expect(gone.outputs['has-changes']).toBe('false');

    // Quiet runs with nothing open only look.
    s = harness.scope();
    expectDriftRun(s, issues);
    const quiet = await runAction({ workspace, inputs: DRIFT(), event: SCHEDULE_EVENT });
    expect(quiet.failure).toBeUndefined();
    expect(s.isDone()).toBe(true);

    const edit = await harness.emulator.control.actAs('sam.ops@example.com', { method: 'PATCH', path: `/Monitor/${seedGuid('monitor:Shop homepage')}`, body: { CheckInterval: 15 } });
    expect(edit.status).toBeLessThan(300);
    s = harness.scope();
    expectDriftRun(s, issues);
    issues.expectCreate(s);
    const again = await runAction({ workspace, inputs: DRIFT(), event: SCHEDULE_EVENT });
    expect(again.failure).toBeUndefined();
    expect(s.isDone()).toBe(true);
    const reopened = issues.titled(DRIFT_TITLE);
    expect(reopened).toHaveLength(1);
    expect(reopened[0]?.number).not.toBe(issue.number);
    expect(reopened[0]?.body).toContain('- **Sam Ops**: 1 object changed outside git');
    expect(reopened[0]?.body).toMatch(/\| monitor "Shop homepage" \| Sam Ops \| \d{4}-\d\d-\d\dT/);
  });
});
