/**
 * Text the action did not write (an operator's name and a monitor's name from the service, a file name of the tree,
 * the service's error message) through `run()` as a runner would: the exact lines of the comment, the job summary
 * and the log. Nothing forges a line of the plan, opens HTML or a heading, or reaches the log as a workflow command.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureMessage } from '../src/main.js';
import {
  apiInputs,
  demoFiles,
  demoWorkspace,
  expectCommentRun,
  expectDriftRun,
  expectPlanRun,
  FakeIssues,
  FakeThread,
  parseCommands,
  pullRequestEvent,
  runAction,
  SCHEDULE_EVENT,
  useHarness,
  writeFile,
  type ActionResult,
} from './harness.js';

const harness = useHarness();

/** Sam's FullName, as anyone with web-app access can set it. */
const OPERATOR = 'Sam\n+     Url: "https://evil"\n::warning ::forged \u001b]52;c;ZXZpbA==\u0007\u001b[2K <img src=x onerror=alert(1)> \u202Eabc\u200B';
const SHOWN_OPERATOR = 'Sam\\n+     Url: "https://evil"\\n::warning ::forged \\u001b]52;c;ZXZpbA==\\u0007\\u001b[2K <img src=x onerror=alert(1)> \\u202eabc\\u200b';
/** A monitor Sam made in the web app. */
const NAME = '::stop-commands::tok\n- delete monitor "Shop homepage"\n```\n## heading <!-- monsync:plan -->';
const SHOWN_NAME = '"::stop-commands::tok\\n- delete monitor \\"Shop homepage\\"\\n```\\n## heading <!-- monsync:plan -->"';
/** A file of the tree (a name may hold anything but a slash). */
const FILE = '::error ::x\n<img src=x onerror=alert(1)> ## `y`.yaml';
const SHOWN_FILE = '::error ::x\\n<img src=x onerror=alert(1)> ## `y`.yaml';

/** Lines of stdout outside the `::stop-commands::` blocks, where the runner obeys commands. */
function obeyed(result: ActionResult): string[] {
  const out: string[] = [];
  let token: string | undefined;
  for (const line of result.lines) {
    if (token !== undefined) {
      if (line === `::${token}::`) token = undefined;
      continue;
    }
    const stop = /^::stop-commands::(.+)$/.exec(line);
    if (stop !== null) token = stop[1];
    else out.push(line);
  }
  expect(token).toBeUndefined();
  return out;
}

/** The runner's commands from what it obeys: only monsync's own (masks, its warnings), none from outside text. */
function expectOnlyOwnCommands(result: ActionResult): void {
  const lines = obeyed(result);
  expect(lines.filter((line) => /^\s*::/.test(line) && !/^::(add-mask|warning|error|notice|debug)::/.test(line) && !/^::(warning|error) [^:]*::/.test(line))).toEqual([]);
  expect(lines.filter((line) => line.includes('##['))).toEqual([]);
  // monsync's own commands may quote outside text in their message, escaped: no raw control or bidi character.
  for (const command of parseCommands(lines)) expect(command.message).not.toMatch(/[\p{Cc}\p{Cf}](?<!\n)/u);
}

async function hostileAccount(): Promise<void> {
  const state = harness.emulator.control.dump();
  const sam = state.operators.find((operator) => operator['Email'] === 'sam.ops@example.com');
  if (sam === undefined) throw new Error('the demo account has no Sam');
  sam['FullName'] = OPERATOR;
  await harness.emulator.control.load(state);
  const made = await harness.emulator.control.actAs('sam.ops@example.com', { method: 'POST', path: '/Monitor', body: { Name: NAME, MonitorType: 'Https', Url: 'https://made-in-the-web-app.example.com/' } });
  expect(made.status).toBeLessThan(300);
}

describe('hostile text in what the plan command writes', () => {
  it('keeps names, operators and file names to their lines in the comment, the job summary and the log', async () => {
    await hostileAccount();
    const workspace = demoWorkspace();
    writeFile(workspace, `configs/monitors/${FILE}`, 'monitors:\n  - Name: Hostile file\n    MonitorType: Https\n    Url: https://hostile.example.com/\n    CheckInterval: 5\n    ErrorConditions:\n      - { ErrorConditionType: HttpStatus, Value: "200" }\n');
    const thread = new FakeThread(7);
    const s = harness.scope();
    expectPlanRun(s, thread, [...demoFiles(), `configs/monitors/${FILE}`]);
    thread.expectCreate(s);
    const result = await runAction({ workspace, inputs: { command: 'plan', config: 'configs', ...apiInputs(harness.emulator.url) }, event: pullRequestEvent(7) });
    expect(s.isDone()).toBe(true);
    const [body = ''] = thread.sentBodies;

    for (const markdown of [body, result.summary]) {
      const lines = markdown.split('\n');
      expect(lines).toContain(`+ create monitor "Hostile file"  (monitors/${SHOWN_FILE}:2:5)`);
      expect(lines).toContain(`- delete monitor ${SHOWN_NAME} [${guidOf(markdown)}]`);
      expect(lines).toContain(`#     drift: changed outside git by ${SHOWN_OPERATOR} at 2026-01-12T16:42:00`);
      expect(lines).toContain(
        '| monitor "Blog" | Sam\\\\n+     Url: "https://evil"\\\\n::warning ::forged \\\\u001b\\]52;c;ZXZpbA==\\\\u0007\\\\u001b\\[2K &lt;img src=x onerror=alert(1)&gt; \\\\u202eabc\\\\u200b | 2026-01-12T16:42:00 | sets back IsActive |',
      );
      expect(lines).toContain('> - delete (retire where the service refuses) monitor "::stop-commands::tok\\\\n- delete monitor \\\\"Shop homepage\\\\"\\\\n\\`\\`\\`\\\\n## heading &lt;!-- monsync:plan --&gt;"');
      // Outside the diff blocks, no HTML of theirs, and the only HTML comment is the action's own marker.
      const prose = lines.filter((line, i) => !insideFence(lines, i));
      expect(prose.filter((line) => line.includes('<img') || line.includes('<!-- monsync:plan -->'))).toEqual([]);
      expect(prose.filter((line) => /^\s*#{1,6} /.test(line)).every((line) => !line.includes('heading'))).toBe(true);
    }
    expect(body.split('\n')[0]).toBe('<!-- monsync:plan config=configs -->');

    // The log: the plan inside a stop-commands block, each outside text escaped on its line.
    const block = result.lines.slice(result.lines.findIndex((line) => line.startsWith('::stop-commands::')));
    expect(block).toContain(`  - delete monitor ${SHOWN_NAME} [${guidOf(body)}]`);
    expect(block).toContain(`      drift: changed outside git by ${SHOWN_OPERATOR} at 2026-01-12T16:42:00`);
    expect(block).toContain(`  + create monitor "Hostile file"  (monitors/${SHOWN_FILE}:2:5)`);
    expectOnlyOwnCommands(result);
  });

  it('keeps an alert definition name to its lines in the comment, the job summary (paging preview included) and the log', async () => {
    const ALERT = 'Pager\n+ create alertDefinition "x"\n::warning ::forged \u001b]52;c;ZXZpbA==\u0007 `tick` <b>bold</b> \u202Eabc';
    const shown = 'Pager\\n+ create alertDefinition \\"x\\"\\n::warning ::forged \\u001b]52;c;ZXZpbA==\\u0007 `tick` <b>bold</b> \\u202eabc';
    const code = 'Pager\\n+ create alertDefinition "x"\\n::warning ::forged \\u001b]52;c;ZXZpbA==\\u0007 `tick` <b>bold</b> \\u202eabc';
    const workspace = demoWorkspace();
    const file = 'configs/hostile-alerts.yaml';
    writeFile(workspace, file, `alertDefinitions:\n  - AlertName: ${JSON.stringify(ALERT)}\n    IsActive: true\n    members: { monitors: [Status page] }\n    escalationLevels:\n      - { Id: 1, EscalationMode: AlertOnErrorCount, ThresholdErrorCount: 1, IsActive: true }\n`);
    const thread = new FakeThread(10);
    const s = harness.scope();
    expectPlanRun(s, thread, [...demoFiles(), file]);
    thread.expectCreate(s);
    const result = await runAction({ workspace, inputs: { command: 'plan', config: 'configs', ...apiInputs(harness.emulator.url) }, event: pullRequestEvent(10) });
    expect(s.isDone()).toBe(true);
    const [body = ''] = thread.sentBodies;
    for (const markdown of [body, result.summary]) {
      const lines = markdown.split('\n');
      expect(lines).toContain(`+ create alertDefinition "${shown}"  (hostile-alerts.yaml:2:5)`);
      expect(lines).toContain(`> \`\`${code}\`\` reaches nobody at any active level.`);
      expect(lines).toContain(`#### Alert definition \`\`${code}\`\`: created`);
      const prose = lines.filter((line, i) => !insideFence(lines, i));
      expect(prose.filter((line) => /^\s*(::|<b>)/.test(line) || /[\p{Cc}\p{Cf}]/u.test(line))).toEqual([]);
    }
    const block = result.lines.slice(result.lines.findIndex((line) => line.startsWith('::stop-commands::')));
    expect(block).toContain(`  + create alertDefinition "${shown}"  (hostile-alerts.yaml:2:5)`);
    expect(block).toContain(`  alert definition "${shown}" (created, active)`);
    expectOnlyOwnCommands(result);
  });

  it('shows a file name that fails validation as text in the comment, and as a log-safe annotation', async () => {
    const workspace = demoWorkspace();
    writeFile(workspace, `configs/monitors/${FILE}`, 'monitors:\n  - Name: [unclosed\n');
    const thread = new FakeThread(8);
    const s = harness.scope();
    expectCommentRun(s, thread);
    thread.expectCreate(s);
    const result = await runAction({ workspace, inputs: { command: 'plan', config: 'configs', ...apiInputs(harness.emulator.url) }, event: pullRequestEvent(8) });
    expect(result.failed).toBe(true);
    const [body = ''] = thread.sentBodies;
    const row = body.split('\n').find((line) => line.startsWith('| `'));
    expect(row).toBe('| ``configs/monitors/::error ::x\\n<img src=x onerror=alert(1)> ## `y`.yaml:3:1`` | error | `YAML_SYNTAX` | Flow sequence in block collection must be sufficiently indented and end with a \\] <br>nothing else in this file is checked until it parses |');
    expect(body.split('\n').filter((line) => /^\s*(<img|::|#+ )/.test(line))).toEqual(['## monsync plan: configs']);
    const annotation = result.commands.find((command) => command.command === 'error' && command.properties['file'] !== undefined);
    // The runner places the annotation on the file by its real name (core escapes the property); the text is escaped.
    expect(annotation?.properties['file']).toBe(`configs/monitors/${FILE}`);
    expect(annotation?.message).not.toMatch(/\p{Cc}/u);
    expectOnlyOwnCommands(result);
  });
});

describe('hostile text in the drift issue', () => {
  it('names the operator on one line of text, and keeps the plan\'s lines to themselves', async () => {
    await hostileAccount();
    const issues = new FakeIssues();
    const s = harness.scope();
    expectDriftRun(s, issues);
    issues.expectCreate(s);
    const result = await runAction({ workspace: demoWorkspace(), inputs: { command: 'drift', config: 'configs', ...apiInputs(harness.emulator.url) }, event: SCHEDULE_EVENT });
    expect(s.isDone()).toBe(true);
    const body = issues.issues.find((issue) => issue.title === 'monsync drift')?.body ?? '';
    const lines = body.split('\n');
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^- \*\*Sam\\\\n\+ {5}Url: "https:\/\/evil"\\\\n::warning ::forged \\\\u001b\\]52;c;ZXZpbA==\\\\u0007\\\\u001b\\\[2K &lt;img src=x onerror=alert\(1\)&gt; \\\\u202eabc\\\\u200b\*\*: 3 objects changed outside git, last at \S+$/,
      ),
    );
    expect(lines).toContain(`#     drift: changed outside git by ${SHOWN_OPERATOR} at 2026-01-12T16:42:00`);
    const prose = lines.filter((line, i) => !insideFence(lines, i));
    expect(prose.filter((line) => /^\s*(<img|<!--|::)/.test(line))).toEqual(['<!-- monsync:drift config=configs -->']);
    expect(prose.filter((line) => /^\s*#+ /.test(line) && /heading|evil|forged|Sam/.test(line))).toEqual([]);
    expectOnlyOwnCommands(result);
  });
});

/** The GUID of the hostile monitor, as its delete line shows it. */
function guidOf(markdown: string): string {
  const match = /- delete monitor "::stop-commands[^\n]*\[([0-9a-f-]{36})\]/.exec(markdown);
  return match?.[1] ?? 'no delete line';
}

function insideFence(lines: readonly string[], index: number): boolean {
  let inside = false;
  for (let i = 0; i < index; i += 1) if (/^`{3,}/.test(lines[i] ?? '')) inside = !inside;
  return inside && !/^`{3,}/.test(lines[index] ?? '');
}

describe('a hostile error message from the service', () => {
  const MESSAGE = 'refused\n::error ::forged\n## heading <img src=x> \u001b[2J`tick`';
  // A service that refuses every request with MESSAGE as its ErrorDescription.
  const server = createServer((_request, response) => response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ ErrorDescription: MESSAGE })));
  let url = '';
  beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve(void (url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v4`)))));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is one escaped line in the failure, the comment that says the plan failed, and the job summary', async () => {
    const thread = new FakeThread(9);
    const s = harness.scope();
    expectCommentRun(s, thread);
    thread.expectCreate(s);
    const result = await runAction({ workspace: demoWorkspace(), inputs: { command: 'plan', config: 'configs', ...apiInputs(url) }, event: pullRequestEvent(9) });
    expect(result.failed).toBe(true);
    const shown = 'refused\\n::error ::forged\\n## heading <img src=x> \\u001b[2J`tick`';
    expect(result.failure).toMatch(new RegExp(`^LIVE_READ_FAILED: reading \\w+ from the service failed, .*: GET /\\S+ failed with 400 Bad Request: ${escapeRegExp(shown)}$`));
    const quote = 'refused\\\\n::error ::forged\\\\n## heading &lt;img src=x&gt; \\\\u001b\\[2J\\`tick\\`';
    const [body = ''] = thread.sentBodies;
    expect(body.split('\n').filter((line) => line.startsWith('> ') && line.includes('refused'))).toEqual([expect.stringMatching(new RegExp(`${escapeRegExp(quote)}$`))]);
    expect(result.summary.split('\n').filter((line) => line.startsWith('> '))).toEqual([expect.stringMatching(new RegExp(`${escapeRegExp(quote)}$`))]);
    expectOnlyOwnCommands(result);
  });

  it('is escaped by failureMessage wherever the action reports an error', () => {
    expect(failureMessage(new Error('a\n::warning::b\u001b[1A'))).toBe('a\n\\u003a:warning::b\\u001b[1A');
    expect(failureMessage('x\ny')).toBe('x\\ny');
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
