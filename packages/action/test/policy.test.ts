/**
 * Policy rules about the whole account (`maxInactiveShare`): checked by plan on the account as the plan would leave
 * it, so they belong to no declaration. Their findings are annotated on the rule in monsync.yaml and listed in the
 * plan comment's Policy section, like the findings about one object.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { annotateAccountPolicy } from '../src/annotations.js';
import { apiInputs, demoWorkspace, FakeThread, parseCommands, planOnPullRequest, PUSH_EVENT, runAction, useHarness, writeFile } from './harness.js';

const harness = useHarness();

const RULE = 'maxInactiveShare';
const FIX = 'activate or remove inactive monitors, or raise the percentage';

// A paused monitor, within the demo tree's rules for Https monitors (an interval and an HttpStatus condition).
const PAUSED = 'monitors:\n  - Name: Paused checkout probe\n    MonitorType: Https\n    Url: https://shop.example.com/probe\n    CheckInterval: 5\n    IsActive: false\n    ErrorConditions:\n      - { ErrorConditionType: HttpStatus, Value: "200" }\n';

/**
 * The demo tree with a paused monitor and an account-wide rule that allows none (`percent: 0`); returns the rule's
 * line and column in monsync.yaml.
 */
function withAccountRule(workspace: string, severity: 'warning' | 'error'): { line: string; col: string } {
  writeFile(workspace, 'configs/monitors/paused.yaml', PAUSED);
  const path = join(workspace, 'configs', 'monsync.yaml');
  const text = readFileSync(path, 'utf8');
  const entry = `  ${RULE}: { percent: 0, severity: ${severity} }\n`;
  writeFile(workspace, 'configs/monsync.yaml', `${text}${entry}`);
  return { line: String(text.split('\n').length), col: String(entry.indexOf(RULE) + 1) };
}

function accountAnnotations(result: { commands: { command: string; properties: Record<string, string>; message: string }[] }) {
  return result.commands.filter((c) => (c.command === 'warning' || c.command === 'error') && c.message.includes(`${RULE}:`));
}

describe('a policy rule about the whole account, on a pull request', () => {
  it('is a warning annotation on the rule in monsync.yaml and a finding in the comment, and fails nothing', async () => {
    const workspace = demoWorkspace();
    const at = withAccountRule(workspace, 'warning');
    const thread = new FakeThread(80);
    const result = await planOnPullRequest(harness, thread, workspace);
    expect(result.failure).toBeUndefined();
    const [annotation, ...more] = accountAnnotations(result);
    expect(more).toEqual([]);
    expect(annotation?.command).toBe('warning');
    expect(annotation?.properties).toEqual({ title: 'monsync POLICY_WARNING', file: 'configs/monsync.yaml', line: at.line, col: at.col });
    expect(annotation?.message).toMatch(new RegExp(`^POLICY_WARNING: ${RULE}: \\d+ of \\d+ monitors \\([\\d.]+%\\) would be inactive after this plan, over the policy's 0% \\(${FIX}\\)$`));
    const body = thread.comments[0]?.body ?? '';
    // The demo tree's own warnings (checkInterval of the Blog, alertsReachSomeone of Shop on-call) are the others.
    expect(body).toContain('### Policy: 0 errors, 3 warnings');
    expect(body).toMatch(new RegExp(`- \\*\\*warning\\*\\* \`${RULE}\` account \\(\`monsync.yaml:${at.line}:${at.col}\`\\): \\d+ of \\d+ monitors`));
  });

  it('of severity error, is an error annotation, a refused plan in the comment, and fails the step naming the rule', async () => {
    const workspace = demoWorkspace();
    const at = withAccountRule(workspace, 'error');
    const thread = new FakeThread(81);
    const result = await planOnPullRequest(harness, thread, workspace);
    const [annotation, ...more] = accountAnnotations(result).filter((c) => c.properties['file'] !== undefined);
    expect(more).toEqual([]);
    expect(annotation?.command).toBe('error');
    expect(annotation?.properties).toEqual({ title: 'monsync POLICY_ERROR', file: 'configs/monsync.yaml', line: at.line, col: at.col });
    expect(annotation?.message).toMatch(new RegExp(`^POLICY_ERROR: ${RULE}: `));
    const body = thread.comments[0]?.body ?? '';
    expect(body).toContain('> **Refused plan:** apply writes nothing');
    expect(body).toContain('### Policy: 1 error, 2 warnings');
    expect(body).toMatch(new RegExp(`- \\*\\*error\\*\\* \`${RULE}\` account \\(\`monsync.yaml:${at.line}:${at.col}\`\\): `));
    expect(result.failed).toBe(true);
    expect(result.failure).toContain('the plan is refused (apply would write nothing):');
    expect(result.failure).toContain(`monsync.yaml:${at.line}:${at.col}: error ${RULE}: `);
  });

  it('is listed below the one line of a pull request that changes nothing in the account', async () => {
    const workspace = demoWorkspace();
    withAccountRule(workspace, 'warning');
    // The account as the tree says: the pull request (a README change) causes no step.
    const settled = await runAction({ workspace, inputs: { command: 'apply', config: 'configs', ...apiInputs(harness.emulator.url), comment: 'false', unreviewed: 'apply', 'github-token': '' }, event: PUSH_EVENT });
    expect(settled.failure).toBeUndefined();
    const thread = new FakeThread(82);
    const result = await planOnPullRequest(harness, thread, workspace, { files: ['README.md'] });
    expect(result.failure).toBeUndefined();
    const body = thread.comments[0]?.body ?? '';
    const [line, policy = ''] = body.split('### Policy: ');
    expect(line).toContain('**No changes:** this pull request changes nothing in the account.');
    expect(policy).toMatch(/^0 errors, 3 warnings\n/);
    expect(policy).toContain(`\`${RULE}\` account`);
    expect(accountAnnotations(result)).toHaveLength(1);
  });
});

describe('a rule about one object that only the plan checks, on a pull request', () => {
  it('is annotated on the declaration it is about (alertsReachSomeone: the demo tree\'s Shop on-call, at its level 1)', async () => {
    const workspace = demoWorkspace();
    const result = await planOnPullRequest(harness, new FakeThread(83), workspace);
    expect(result.failure).toBeUndefined();
    const found = result.commands.filter((c) => c.command === 'warning' && c.message.includes('alertsReachSomeone:'));
    expect(found.map((c) => [c.properties['file'], c.properties['line']])).toEqual([['configs/alert-definitions.yaml', '27']]);
    expect(found[0]?.message).toMatch(/^POLICY_WARNING: alertsReachSomeone: alert definition `Shop on-call` escalation level 1 \(its first active one\) has none of its 2 operators on duty in \d+ hours/);
  });
});

describe('an account-wide finding without a position', () => {
  it('is still annotated, on the run rather than on a file', () => {
    const lines: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(...String(chunk).split(/\r?\n/).filter((line) => line !== ''));
      return true;
    });
    try {
      annotateAccountPolicy([{ rule: RULE, severity: 'error', message: "3 of 4 monitors (75%) would be inactive after this plan, over the policy's 50%", fix: FIX }], '/ws/configs', '/ws');
    } finally {
      spy.mockRestore();
    }
    expect(parseCommands(lines)).toEqual([
      { command: 'error', properties: { title: 'monsync POLICY_ERROR' }, message: `POLICY_ERROR: ${RULE}: 3 of 4 monitors (75%) would be inactive after this plan, over the policy's 50% (${FIX})` },
    ]);
  });
});
