import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { markdownLength, type Plan } from '@monsync/reconciler';
import { describe, expect, it } from 'vitest';
import { FORK_NOTICE } from '../src/commands/plan.js';
import { planMarker } from '../src/markers.js';
import {
  API_PASSWORD,
  apiInputs,
  demoWorkspace,
  FakeThread,
  FINGERPRINT_KEY,
  GITHUB_TOKEN,
  PUSH_EVENT,
  writeFile,
  pullRequestEvent,
  runAction,
  TREE_SECRETS,
  useHarness,
  expectNoSecrets,
  expectCommentRun,
  expectPlanRun,
  demoFiles,
} from './harness.js';

const harness = useHarness();
const scope = () => harness.scope();

describe('plan on a pull request', () => {
  it('creates the plan comment on the first run, with the plan, the per-folder marker and the run link', async () => {
    const workspace = demoWorkspace();
    const thread = new FakeThread(7);
    thread.addOther(2);
    const s = scope();
    expectPlanRun(s, thread);
    thread.expectCreate(s);
    const result = await runAction({ workspace, inputs: { command: 'plan', config: 'configs', ...apiInputs(harness.emulator.url) }, event: pullRequestEvent(7) });
    expect(result.failure).toBeUndefined();
    expect(result.failed).toBe(false);
    expect(s.isDone()).toBe(true);
    const [body = ''] = thread.sentBodies;
    expect(body.split('\n')[0]).toBe('<!-- monsync:plan config=configs -->');
    expect(body).toContain('## monsync plan: configs');
    expect(body).toMatch(/\*\*\d+ to create, \d+ to update, 1 to delete/);
    expect(body).toMatch(/> \*\*This plan deletes 1 object:\*\*\n> - delete[^\n]* monitor "Old status page"\n/);
    expect(body).toContain('[workflow run](https://github.com/acme/monitoring/actions/runs/4242)');
    expect(result.outputs['comment-url']).toBe(thread.withMarker(planMarker('configs'))[0]?.html_url);
    expect(result.outputs['has-changes']).toBe('true');
    const summary = JSON.parse(result.outputs['summary'] ?? '{}') as Plan['summary'];
    expect(summary.delete).toBe(1);
    const saved = JSON.parse(readFileSync(result.outputs['plan-file'] ?? '', 'utf8')) as Plan;
    expect(saved.summary).toEqual(summary);
    expect(result.summary).toContain('## monsync plan: configs');
    expectNoSecrets(result, thread.sentBodies);
  });
});

const PLAN = (extra: Record<string, string> = {}) => ({ command: 'plan', config: 'configs', ...apiInputs(harness.emulator.url), ...extra });

function fenceLines(markdown: string): number {
  return markdown.split('\n').filter((line) => /^`{3,}/.test(line)).length;
}

describe('one comment per config folder', () => {
  it('updates the same comment on every later run: one comment after three runs', async () => {
    const workspace = demoWorkspace();
    const thread = new FakeThread(7);
    const marker = planMarker('configs');
    for (let i = 0; i < 3; i += 1) {
      const s = scope();
      expectPlanRun(s, thread);
      const mine = thread.withMarker(marker)[0];
      if (mine === undefined) thread.expectCreate(s);
      else thread.expectUpdate(s, mine.id);
      const result = await runAction({ workspace, inputs: PLAN(), event: pullRequestEvent(7) });
      expect(result.failure).toBeUndefined();
      expect(s.isDone()).toBe(true);
      expect(thread.withMarker(marker)).toHaveLength(1);
    }
    expect(thread.sentBodies).toHaveLength(3);
    expect(thread.comments).toHaveLength(1);
  });

  it('finds its comment on the second page of a long conversation', async () => {
    const workspace = demoWorkspace();
    const thread = new FakeThread(8);
    thread.addOther(100);
    const old = thread.add(`${planMarker('configs')}\n## monsync plan: configs\n\nan older plan\n`);
    thread.addOther(3);
    const s = scope();
    expectPlanRun(s, thread);
    thread.expectUpdate(s, old.id);
    const result = await runAction({ workspace, inputs: PLAN(), event: pullRequestEvent(8) });
    expect(result.failure).toBeUndefined();
    expect(s.isDone()).toBe(true);
    expect(thread.withMarker(planMarker('configs'))).toHaveLength(1);
    expect(thread.comments.find((c) => c.id === old.id)?.body).toContain('to delete');
    expect(result.outputs['comment-url']).toBe(old.html_url);
  });

  it('keeps the oldest when racing runs left two, and deletes the other', async () => {
    const workspace = demoWorkspace();
    const thread = new FakeThread(9);
    const first = thread.add(`${planMarker('configs')}\nrun 1\n`);
    const second = thread.add(`${planMarker('configs')}\nrun 2\n`);
    const s = scope();
    expectPlanRun(s, thread);
    thread.expectUpdate(s, first.id);
    thread.expectDelete(s, second.id);
    const result = await runAction({ workspace, inputs: PLAN(), event: pullRequestEvent(9) });
    expect(result.failure).toBeUndefined();
    expect(s.isDone()).toBe(true);
    expect(thread.withMarker(planMarker('configs')).map((c) => c.id)).toEqual([first.id]);
  });

  it('keeps two comments for two config folders, each updated by its own runs', async () => {
    const workspace = demoWorkspace({ second: true });
    const thread = new FakeThread(10);
    for (let round = 0; round < 2; round += 1) {
      for (const config of ['configs', 'accounts/eu']) {
        const s = scope();
        expectPlanRun(s, thread, demoFiles(config));
        const mine = thread.withMarker(planMarker(config))[0];
        if (mine === undefined) thread.expectCreate(s);
        else thread.expectUpdate(s, mine.id);
        const result = await runAction({ workspace, inputs: PLAN({ config }), event: pullRequestEvent(10) });
        expect(result.failure).toBeUndefined();
        expect(s.isDone()).toBe(true);
      }
    }
    expect(thread.comments).toHaveLength(2);
    expect(thread.withMarker('<!-- monsync:plan config=configs -->')).toHaveLength(1);
    expect(thread.withMarker('<!-- monsync:plan config=accounts/eu -->')).toHaveLength(1);
    expect(thread.withMarker('<!-- monsync:plan config=accounts/eu -->')[0]?.body).toContain('## monsync plan: accounts/eu');
  });

  it('says so in the comment when the account matches the configuration', async () => {
    const workspace = demoWorkspace();
    rmSync(join(workspace, 'configs', 'alert-definitions.yaml'));
    const thread = new FakeThread(11);
    let s = scope();
    expectPlanRun(s, thread);
    thread.expectCreate(s);
    const before = await runAction({ workspace, inputs: PLAN(), event: pullRequestEvent(11) });
    expect(before.outputs['has-changes']).toBe('true');
    expect(s.isDone()).toBe(true);
    const applied = await runAction({ workspace, inputs: { ...PLAN(), command: 'apply', comment: 'false', unreviewed: 'apply', 'github-token': '' }, event: PUSH_EVENT });
    expect(applied.failure).toBeUndefined();
    s = scope();
    expectPlanRun(s, thread);
    thread.expectUpdate(s, thread.comments[0]?.id ?? 0);
    const after = await runAction({ workspace, inputs: PLAN(), event: pullRequestEvent(11) });
    expect(s.isDone()).toBe(true);
    expect(after.outputs['has-changes']).toBe('false');
    expect(thread.comments).toHaveLength(1);
    expect(thread.comments[0]?.body).toContain('**No changes:** this pull request changes nothing in the account.');
  });
});

describe('the comment body', () => {
  it('stays within 65,000 characters for a plan too large for it: details cut with a note, fences balanced, the summary and plan file whole', async () => {
    const workspace = demoWorkspace();
    const monitors = Array.from({ length: 1500 }, (_, i) => {
      const name = `Bulk monitor ${String(i).padStart(4, '0')}`;
      return `  - Name: ${name}\n    MonitorType: Https\n    Url: https://bulk.example.com/${i}/health\n    CheckInterval: 5\n    ErrorConditions:\n      - { ErrorConditionType: HttpStatus, Value: "200" }\n`;
    });
    writeFile(workspace, 'configs/monitors/bulk.yaml', `monitors:\n${monitors.join('')}`);
    const thread = new FakeThread(12);
    const s = scope();
    expectPlanRun(s, thread, [...demoFiles(), 'configs/monitors/bulk.yaml']);
    thread.expectCreate(s);
    const result = await runAction({ workspace, inputs: PLAN(), event: pullRequestEvent(12) });
    expect(result.failure).toBeUndefined();
    expect(s.isDone()).toBe(true);
    const body = thread.sentBodies[0] ?? '';
    expect(markdownLength(body)).toBeLessThanOrEqual(65_000);
    expect(markdownLength(body)).toBeGreaterThan(50_000);
    expect(body).toMatch(/of 1,5\d\d steps.* are not shown: this comment is limited to 65,000 characters\. The full plan: the \[job summary\]\(https:\/\/github\.com\/acme\/monitoring\/actions\/runs\/4242\), the artifact `monsync-plan-configs` of the \[workflow run\]\(https:\/\/github\.com\/acme\/monitoring\/actions\/runs\/4242\) \(plan file and text\), and the `plan-file` output/);
    expect(fenceLines(body) % 2).toBe(0);
    expect(body).toContain('> **This plan deletes 1 object:**');
    expect(body.trimEnd().endsWith('</sub>')).toBe(true);
    expect(result.summary).toContain('Bulk monitor 1499');
    expect(fenceLines(result.summary) % 2).toBe(0);
    const saved = JSON.parse(readFileSync(result.outputs['plan-file'] ?? '', 'utf8')) as Plan;
    expect(saved.steps.filter((step) => step.key.startsWith('Bulk monitor')).length).toBe(1500);
  });
});

describe('pull requests from forks', () => {
  it('skips the plan with a notice, not a failure, when the fork run has no credentials', async () => {
    const workspace = demoWorkspace();
    const result = await runAction({ workspace, inputs: { command: 'plan', config: 'configs', 'github-token': GITHUB_TOKEN }, event: pullRequestEvent(13, { fork: true }) });
    expect(result.failed).toBe(false);
    expect(result.commands.filter((c) => c.command === 'notice').map((c) => c.message)).toEqual([FORK_NOTICE]);
    expect(harness.emulator.control.requestLog().entries).toEqual([]);
    expectNoSecrets(result, [], [GITHUB_TOKEN]);
  });

  it('plans as usual for a fork run that was given credentials, and warns when its read-only token cannot comment', async () => {
    const thread = new FakeThread(14);
    const s = scope();
    expectPlanRun(s, thread);
    s.post('/repos/acme/monitoring/issues/14/comments').reply(403, { message: 'Resource not accessible by integration' });
    const result = await runAction({ workspace: demoWorkspace(), inputs: PLAN(), event: pullRequestEvent(14, { fork: true }) });
    expect(s.isDone()).toBe(true);
    expect(result.failure).toBeUndefined();
    expect(result.outputs['has-changes']).toBe('true');
    expect(result.summary).toContain('## monsync plan: configs');
    expect(result.commands.filter((c) => c.command === 'warning').map((c) => c.message)).toContain(
      'the token of a fork pull request cannot comment: the plan is in the job summary and the plan-file output',
    );
  });
});

describe('validation', () => {
  it('annotates each finding on its file, line and column, lists them in the comment, fails, and sends nothing to the API', async () => {
    const workspace = demoWorkspace();
    writeFile(workspace, 'configs/monitors/broken.yaml', 'monitors:\n  - Name: Broken\n    MonitorType: DNS\n    IsActive: maybe\n  - Name: Broken too\n    MonitorType: DNS\n    checkFrequency: 5\n');
    const thread = new FakeThread(15);
    const s = scope();
    expectCommentRun(s, thread);
    thread.expectCreate(s);
    const result = await runAction({ workspace, inputs: PLAN(), event: pullRequestEvent(15) });
    expect(result.failed).toBe(true);
    expect(s.isDone()).toBe(true);
    const annotations = result.commands.filter((c) => c.command === 'error' && c.properties['file'] !== undefined);
    expect(annotations.map((c) => [c.properties['file'], c.properties['line'], c.properties['col'], c.properties['title']])).toEqual([
      ['configs/monitors/broken.yaml', '4', '15', 'monsync TYPE_MISMATCH'],
      ['configs/monitors/broken.yaml', '7', '5', 'monsync UNKNOWN_FIELD'],
    ]);
    expect(annotations[0]?.message).toBe('TYPE_MISMATCH: `IsActive` must be true or false, not a string (write true or false without quotes (YAML 1.2: yes/no/on/off are strings))');
    expect(result.failure).toBe('configs: the configuration has 2 errors (annotated on their lines); nothing was sent to the API');
    const body = thread.sentBodies[0] ?? '';
    expect(body.split('\n')[0]).toBe(planMarker('configs'));
    // The demo tree's policy warning (configs/monsync.yaml) is listed with the errors.
    expect(body).toContain('**The configuration has 2 errors and 1 warning; nothing was sent to the API.**');
    expect(body).toContain('| `configs/monitors/broken.yaml:4:15` | error | `TYPE_MISMATCH` |');
    expect(body).toContain('| `configs/monitors/broken.yaml:7:5` | error | `UNKNOWN_FIELD` |');
    expect(result.summary).toContain('`configs/monitors/broken.yaml:4:15`');
    expect(harness.emulator.control.requestLog().entries).toEqual([]);
    expectNoSecrets(result, thread.sentBodies, [API_PASSWORD, GITHUB_TOKEN, FINGERPRINT_KEY]);
  });
});

describe('secrets that cannot be read', () => {
  it('are annotated by variable name, never by value, where a step would send them, and nothing is written', async () => {
    const workspace = demoWorkspace();
    // A new item sends its password on create: unset, that step is refused at the reference. (An existing item's
    // password is only compared, so an unset one is a warning, not a failure.)
    writeFile(workspace, 'configs/vault-new.yaml', 'vault:\n  sections:\n    - Name: Canary\n      items:\n        - Name: new-login\n          VaultItemType: CredentialSet\n          UserName: robot\n          Password: { fromEnv: DEMO_NEW_PASSWORD }\n');
    const thread = new FakeThread(23);
    const s = scope();
    expectCommentRun(s, thread);
    thread.expectCreate(s);
    const result = await runAction({ workspace, inputs: PLAN(), event: pullRequestEvent(23), env: { DEMO_NEW_PASSWORD: undefined } });
    expect(s.isDone()).toBe(true);
    expect(result.failed).toBe(true);
    expect(result.failure).toContain('vault-new.yaml:8:21: env DEMO_NEW_PASSWORD cannot be read, and this plan sends its value');
    const annotations = result.commands.filter((c) => c.command === 'error' && c.properties['file'] !== undefined);
    expect(annotations.map((c) => [c.properties['file'], c.properties['line'], c.properties['col'], c.properties['title']])).toEqual([['configs/vault-new.yaml', '8', '21', 'monsync SECRET_UNAVAILABLE']]);
    expect(annotations[0]?.message).toContain('env DEMO_NEW_PASSWORD cannot be read, and this plan sends its value');
    expect(harness.emulator.control.requestLog().entries.filter((e) => e.method !== 'GET')).toEqual([]);
    const others = Object.entries(TREE_SECRETS).filter(([name]) => name !== 'DEMO_SHOP_PASSWORD').map(([, value]) => value);
    expectNoSecrets(result, thread.sentBodies, [API_PASSWORD, GITHUB_TOKEN, FINGERPRINT_KEY, ...others]);
  });
});

describe('unsafe plans, inputs and failures', () => {
  it('calls out an unsafe plan at the top of the comment and fails the check, unless allow-unsafe', async () => {
    const workspace = demoWorkspace();
    const settings = readFileSync(join(workspace, 'configs/monsync.yaml'), 'utf8').replace('maxDeletePercent: 30', 'maxDeletePercent: 0').replace('minDeleteCount: 3', 'minDeleteCount: 1');
    writeFile(workspace, 'configs/monsync.yaml', settings);
    const thread = new FakeThread(16);
    let s = scope();
    expectPlanRun(s, thread);
    thread.expectCreate(s);
    const refused = await runAction({ workspace, inputs: PLAN(), event: pullRequestEvent(16) });
    expect(s.isDone()).toBe(true);
    expect(refused.failed).toBe(true);
    expect(refused.failure).toMatch(/^the plan is unsafe \(over the safety thresholds of monsync\.yaml\):\n {2}monitor: deletes 1 of \d+ \([\d.]+%\), over 0% and at least 1 \(safety\.maxDeletePercent, safety\.minDeleteCount\)\nReview the plan\. If it is what you want: the input allow-unsafe: true accepts it/);
    const body = thread.sentBodies[0] ?? '';
    const caution = body.indexOf('> **Unsafe plan:**');
    expect(caution).toBeGreaterThan(0);
    expect(caution).toBeLessThan(body.indexOf('<details>'));
    s = scope();
    expectPlanRun(s, thread);
    thread.expectUpdate(s, thread.comments[0]?.id ?? 0);
    const allowed = await runAction({ workspace, inputs: PLAN({ 'allow-unsafe': 'true' }), event: pullRequestEvent(16) });
    expect(s.isDone()).toBe(true);
    expect(allowed.failed).toBe(false);
    expect(allowed.commands.some((c) => c.command === 'warning' && c.message.startsWith('the plan is unsafe'))).toBe(true);
  });

  it('writes no comment with comment: false, and still the job summary and outputs', async () => {
    const result = await runAction({ workspace: demoWorkspace(), inputs: PLAN({ comment: 'false' }), event: pullRequestEvent(17) });
    expect(result.failure).toBeUndefined();
    expect(result.summary).toContain('## monsync plan: configs');
    expect(result.outputs['has-changes']).toBe('true');
    expect(result.outputs['comment-url']).toBeUndefined();
  });

  it('names every bad input at once, and no API or GitHub request is made', async () => {
    const result = await runAction({
      workspace: demoWorkspace(),
      inputs: { ...PLAN(), command: 'plna', comment: 'yes', parallelism: '0', 'api-url': `https://demo:${API_PASSWORD}@api.example.com/v4` },
      event: pullRequestEvent(18),
    });
    expect(result.failed).toBe(true);
    expect(result.failure).toBe(
      "the step's inputs have 4 problems:\n" +
        '- input command: "plna" is not one of plan, apply, drift (did you mean plan?)\n' +
        '- input comment: "yes" is not true or false; write comment: \'true\' or comment: \'false\'\n' +
        '- input parallelism: "0" is not a whole number from 1 to 64\n' +
        '- input api-url must not contain a user name or password: https://api.example.com/v4 (shown without them); put them in input api-username and input api-password',
    );
    expect(harness.emulator.control.requestLog().entries).toEqual([]);
    expectNoSecrets(result, [], [API_PASSWORD, GITHUB_TOKEN]);
  });

  it('fails with the names of the empty API inputs on a pull request of the repository itself', async () => {
    const result = await runAction({ workspace: demoWorkspace(), inputs: { command: 'plan', config: 'configs', 'api-url': harness.emulator.url }, event: pullRequestEvent(19) });
    expect(result.failed).toBe(true);
    expect(result.failure).toMatch(/^inputs api-username, api-password are empty: pass the Monitoring API URL and the API account from repository secrets/);
  });

  it('fails with a clear message when the config folder is not there', async () => {
    const result = await runAction({ workspace: demoWorkspace(), inputs: PLAN({ config: 'monitoring' }), event: pullRequestEvent(20) });
    expect(result.failed).toBe(true);
    expect(result.failure).toBe('input config: "monitoring" is not a folder of the checkout; give the folder that holds monsync.yaml, relative to the repository root');
  });

  it('reports a refused API login without the password', async () => {
    const wrong = 'CANARY-7f3a9c-wrong-password';
    const result = await runAction({ workspace: demoWorkspace(), inputs: PLAN({ 'api-password': wrong }), event: pullRequestEvent(21) });
    expect(result.failed).toBe(true);
    expect(result.failure).toBe(
      'LIVE_READ_FAILED: reading monitors from the service failed, so no plan was made (a failed listing is never read as empty): GET /Monitor failed with 401 Unauthorized: Invalid API credentials. ' +
        "Check the api-username and api-password inputs: the API account's user name and password (not a web login), for the service api-url names.",
    );
    expect(result.commands.filter((c) => c.command === 'add-mask').map((c) => c.message)).toContain(wrong);
    expect(result.lines.filter((line) => !line.startsWith('::add-mask::')).join('\n')).not.toContain(wrong);
    expect(result.stdout).not.toMatch(/\n\s+at /);
    // The run's page shows the failure in the job summary too, not an empty one.
    expect(result.summary).toContain('## monsync plan: failed\n\n> LIVE\\_READ\\_FAILED');
    expect(result.summary).toContain('401 Unauthorized');
    expect(result.summary).not.toContain(wrong);
  });

  it('reports a GitHub refusal with its status and request, without the token', async () => {
    const thread = new FakeThread(22);
    const s = scope();
    expectPlanRun(s, thread);
    s.post(`/repos/acme/monitoring/issues/22/comments`).reply(403, { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest' });
    const result = await runAction({ workspace: demoWorkspace(), inputs: PLAN(), event: pullRequestEvent(22) });
    expect(s.isDone()).toBe(true);
    expect(result.failed).toBe(true);
    expect(result.failure).toBe(
      'GitHub API request failed with 403 (POST https://api.github.com/repos/acme/monitoring/issues/22/comments): Resource not accessible by integration - https://docs.github.com/rest; check the workflow permissions (pull-requests: write for plan and apply, issues: write for drift)',
    );
    expectNoSecrets(result);
  });
});

describe('the config input and the workspace', () => {
  /** A config tree outside the checkout, next to it: what `..` or a link would reach. */
  function outsideTree(): string {
    const outside = mkdtempSync(join(tmpdir(), 'monsync-action-outside-'));
    writeFile(outside, 'monsync.yaml', 'apiVersion: monsync/v1\nmanage:\n  monitors: { prune: true }\n');
    return outside;
  }

  it.each<[string, (workspace: string, outside: string) => string, string]>([
    ['a path up and out with ..', (workspace, outside) => join('..', basename(outside)), 'is outside the checkout'],
    ['a path that climbs out and back in elsewhere', (workspace, outside) => `configs/../../${basename(outside)}`, 'is outside the checkout'],
    ['an absolute path elsewhere on the runner', (workspace, outside) => outside, 'is outside the checkout'],
    [
      'a link inside the checkout to a folder outside it',
      (workspace, outside) => {
        symlinkSync(outside, join(workspace, 'linked'));
        return 'linked';
      },
      'is a symbolic link (or passes through one) to a folder outside the checkout',
    ],
  ])('refuses %s before anything is read or sent, naming no absolute path', async (_, configOf, why) => {
    const workspace = demoWorkspace();
    const outside = outsideTree();
    // Both next to each other in the same temporary folder, so that `..` reaches the other.
    expect(dirname(outside)).toBe(dirname(workspace));
    const config = configOf(workspace, outside);
    const result = await runAction({ workspace, inputs: PLAN({ config }), event: pullRequestEvent(22) });
    expect(result.failed).toBe(true);
    expect(result.failure).toMatch(new RegExp(`^input config: ${JSON.stringify(config).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} ${why.replace(/[()]/g, '\\$&')}; give `));
    const shownAbsolute = (text: string): boolean => text.includes(workspace) || (config !== outside && text.includes(outside));
    expect(shownAbsolute(result.stdout)).toBe(false);
    expect(shownAbsolute(result.summary)).toBe(false);
    expect(harness.emulator.control.requestLog().entries).toEqual([]);
  });

  it('follows a link that stays inside the checkout, and names the folder by its path in the repository', async () => {
    const workspace = demoWorkspace();
    symlinkSync(join(workspace, 'configs'), join(workspace, 'monitoring'));
    const thread = new FakeThread(23);
    const s = scope();
    expectPlanRun(s, thread);
    thread.expectCreate(s);
    const result = await runAction({ workspace, inputs: PLAN({ config: './monitoring/../monitoring/' }), event: pullRequestEvent(23) });
    expect(result.failure).toBeUndefined();
    const [body = ''] = thread.sentBodies;
    expect(body.split('\n')[0]).toBe('<!-- monsync:plan config=monitoring -->');
    expect(body).toContain('## monsync plan: monitoring');
    expect(body).not.toContain(workspace);
    expect(result.stdout).not.toContain(`${workspace}/`);
  });
});
