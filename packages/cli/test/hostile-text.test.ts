/**
 * Text monsync did not write (an operator's and a monitor's name from the service, a file name of the tree, the
 * service's error message) through `monsync` in-process: the exact lines on stdout and stderr. Nothing reaches the
 * terminal as a control character, forges a line of the plan, or starts a line an Actions runner obeys.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { copyOfDemoConfigs, monsync, useEmulator } from './helpers.js';

const suite = useEmulator({
  seed: 'demo',
  operator: 'admin@example.com',
  env: {
    DEMO_SHOP_PASSWORD: 'CANARY-7f3a9c-shop-password',
    DEMO_SHOP_OTP_SECRET: 'CANARY7F3A9COTPSECRET',
    DEMO_CLIENT_CERT_PFX_BASE64: Buffer.from('CANARY-7f3a9c-pfx-bytes').toString('base64'),
    DEMO_CLIENT_CERT_PASSWORD: 'CANARY-7f3a9c-pfx-password',
  },
  eachTest: { reset: true },
});

/** Sam's FullName, as anyone with web-app access can set it. */
const OPERATOR = 'Sam\n+     Url: "https://evil"\n::warning ::forged \u001b]52;c;ZXZpbA==\u0007\u001b[2K\u001b[1A \u202Eabc\u200B';
const SHOWN_OPERATOR = 'Sam\\n+     Url: "https://evil"\\n::warning ::forged \\u001b]52;c;ZXZpbA==\\u0007\\u001b[2K\\u001b[1A \\u202eabc\\u200b';
/** A monitor Sam made in the web app, and one whose name differs from a declared one by a zero-width space. */
const NAME = '::stop-commands::tok\n  - delete monitor "Shop homepage"\u001b[2K';
const FILE = '::error ::x\n<b>\u001b[31m.yaml';
const SHOWN_FILE = '::error ::x\\n<b>\\u001b[31m.yaml';

/** A raw control, format character (bidi, zero-width) or separator within a line. */
const RAW = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

function expectTerminalSafe(text: string): string[] {
  const lines = text.split('\n');
  expect(lines.filter((line) => RAW.test(line))).toEqual([]);
  expect(lines.filter((line) => /^\s*::/.test(line) || line.includes('##['))).toEqual([]);
  return lines;
}

async function hostileAccount(): Promise<void> {
  const { control } = suite.emulator;
  const state = control.dump();
  const sam = state.operators.find((operator) => operator['Email'] === 'sam.ops@example.com');
  if (sam === undefined) throw new Error('the demo account has no Sam');
  sam['FullName'] = OPERATOR;
  await control.load(state);
  for (const Name of [NAME, 'Shop\u200Bhomepage']) {
    const made = await control.actAs('sam.ops@example.com', { method: 'POST', path: '/Monitor', body: { Name, MonitorType: 'Https', Url: 'https://made-in-the-web-app.example.com/' } });
    expect(made.status).toBeLessThan(300);
  }
}

/** An alert definition's name, as a tree (or a web-app user, for one pulled) may write it. */
const ALERT = 'Pager\n+ create alertDefinition "x"\n::warning ::forged \u001b]52;c;ZXZpbA==\u0007 `tick` <b>bold</b> \u202Eabc';
const SHOWN_ALERT = 'Pager\\n+ create alertDefinition \\"x\\"\\n::warning ::forged \\u001b]52;c;ZXZpbA==\\u0007 `tick` <b>bold</b> \\u202eabc';
/** A definition that pages nobody, so the paging preview, its warning and the policy finding all name it. */
const HOSTILE_ALERTS = `alertDefinitions:\n  - AlertName: ${JSON.stringify(ALERT)}\n    IsActive: true\n    members: { monitors: [Status page] }\n    escalationLevels:\n      - { Id: 1, EscalationMode: AlertOnErrorCount, ThresholdErrorCount: 1, IsActive: true }\n`;

describe('hostile text in what monsync prints', () => {
  it('plan: names, operators and file names escaped on their own lines', async () => {
    await hostileAccount();
    const root = copyOfDemoConfigs();
    writeFileSync(join(root, 'configs', 'monitors', FILE), 'monitors:\n  - Name: Hostile file\n    MonitorType: Https\n    Url: https://hostile.example.com/\n    CheckInterval: 5\n    ErrorConditions:\n      - { ErrorConditionType: HttpStatus, Value: "200" }\n');
    const { code, out, err } = await monsync(['plan', '--config', 'configs'], { cwd: root, env: suite.env });
    expect(err).not.toContain('error');
    expect([ExitCode.Ok, ExitCode.UnsafeOrStale]).toContain(code);
    const lines = expectTerminalSafe(out);
    expect(lines).toContain(`  + create monitor "Hostile file"  (monitors/${SHOWN_FILE}:2:5)`);
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}- delete monitor "::stop-commands::tok\\n {2}- delete monitor \\"Shop homepage\\"\\u001b\[2K" \[[0-9a-f-]{36}\]$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}- delete monitor "Shop\\u200bhomepage" \[[0-9a-f-]{36}\]$/));
    expect(lines).toContain(`      drift: changed outside git by ${SHOWN_OPERATOR} at 2026-01-12T16:42:00`);
    expectTerminalSafe(err);
  });

  it('plan: an alert definition name in the steps, the paging preview and the policy finding, as text and as Markdown', async () => {
    const root = copyOfDemoConfigs();
    writeFileSync(join(root, 'configs', 'hostile-alerts.yaml'), HOSTILE_ALERTS);
    const text = await monsync(['plan', '--config', 'configs'], { cwd: root, env: suite.env });
    expect(text.code, text.err).toBe(ExitCode.Ok);
    const lines = expectTerminalSafe(text.out);
    expect(lines).toContain(`  + create alertDefinition "${SHOWN_ALERT}"  (hostile-alerts.yaml:2:5)`);
    expect(lines).toContain(`      + AlertName: "${SHOWN_ALERT}"`);
    expect(lines).toContain(`  alert definition "${SHOWN_ALERT}" (created, active)`);
    expect(lines).toContainEqual(expect.stringContaining(`! alertsReachSomeone: alert definition \`${SHOWN_ALERT.replaceAll('\\"', '"')}\` reaches no operator at any active escalation level`));
    expectTerminalSafe(text.err);

    const markdown = await monsync(['plan', '--config', 'configs', '--format', 'markdown'], { cwd: root, env: suite.env });
    const md = markdown.out.split('\n');
    const code = 'Pager\\n+ create alertDefinition "x"\\n::warning ::forged \\u001b]52;c;ZXZpbA==\\u0007 `tick` <b>bold</b> \\u202eabc';
    // Inside the diff block: terminal rules, one line; outside: a code span its backticks cannot close, no raw HTML.
    expect(md).toContain(`+ create alertDefinition "${SHOWN_ALERT}"  (hostile-alerts.yaml:2:5)`);
    expect(md).toContain(`> \`\`${code}\`\` reaches nobody at any active level.`);
    expect(md).toContain(`#### Alert definition \`\`${code}\`\`: created`);
    expect(md).toContain(
      '    will_d["Pager#92;n+ create alertDefinition #34;x#34;#92;n::warning ::forged #92;u001b#93;52#59;c#59;ZXZpbA==#92;u0007 #96;tick#96; #60;b#62;bold#60;/b#62; #92;u202eabc<br/>active, covers 0 monitor groups, 1 monitor"]',
    );
    expect(md.filter((line) => /^\s*::/.test(line) || RAW.test(line))).toEqual([]);
  });

  it('validate: a file name and the quoted source line of a diagnostic escaped', async () => {
    const root = copyOfDemoConfigs();
    writeFileSync(join(root, 'configs', 'monitors', FILE), 'monitors:\n  - Name: Hostile file\n    MonitorType: Https\n    fromNowhere: "\u202Egnp.exe"\n');
    const { code, err } = await monsync(['validate', '--config', 'configs'], { cwd: root, env: suite.env });
    expect(code).toBe(ExitCode.Error);
    const lines = expectTerminalSafe(err);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^configs/monitors/${escapeRegExp(SHOWN_FILE)}:4:5: error `)));
    expect(lines).toContain('4 |     fromNowhere: "\\u202egnp.exe"');
  });
});

describe('look-alike keys', () => {
  const monitor = (name: string) => `monitors:\n  - Name: ${name}\n    MonitorType: Https\n    Url: https://look-alike.example.com/\n    CheckInterval: 5\n    ErrorConditions:\n      - { ErrorConditionType: HttpStatus, Value: "200" }\n`;

  it('validate: two declared names that read the same are an error naming both places, the names escaped', async () => {
    const root = copyOfDemoConfigs();
    writeFileSync(join(root, 'configs', 'monitors', 'look-alike.yaml'), monitor('"Shop search API\\u00a0"'));
    const { code, err } = await monsync(['validate', '--config', 'configs'], { cwd: root, env: suite.env });
    expect(code).toBe(ExitCode.Error);
    const lines = expectTerminalSafe(err);
    expect(lines.filter((line) => line.includes('LOOKALIKE_KEY'))).toEqual([
      'configs/monitors/shop.yaml:35:11: error LOOKALIKE_KEY: monitor "Shop search API" reads the same as "Shop search API\\u00a0" at monitors/look-alike.yaml:2:11, but the service keeps them apart ("Shop search API\\u00a0" has a space that is not U+0020 (U+00A0)): a plan would show two of them that nobody can tell apart',
    ]);
  });

  it('plan: a declared name that matches a live one only as a look-alike is created beside it, with a warning naming both', async () => {
    const made = await suite.emulator.control.actAs('sam.ops@example.com', { method: 'POST', path: '/Monitor', body: { Name: 'Look\u200Balike', MonitorType: 'Https', Url: 'https://made-in-the-web-app.example.com/' } });
    expect(made.status).toBeLessThan(300);
    const root = copyOfDemoConfigs();
    writeFileSync(join(root, 'configs', 'monitors', 'look-alike.yaml'), monitor('Lookalike'));
    const { code, out, err } = await monsync(['plan', '--config', 'configs'], { cwd: root, env: suite.env });
    expect(err).not.toContain('error');
    expect([ExitCode.Ok, ExitCode.UnsafeOrStale]).toContain(code);
    const lines = expectTerminalSafe(out);
    expect(lines).toContain('  + create monitor "Lookalike"  (monitors/look-alike.yaml:2:5)');
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}- delete monitor "Look\\u200balike" \[[0-9a-f-]{36}\]$/));
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^ {2}! LOOKALIKE_LIVE_KEY: monitors\/look-alike\.yaml:2:5: monitor "Lookalike" matches no live monitor exactly, but the live monitor "Look\\u200balike" \[[0-9a-f-]{36}\] reads the same \("Look\\u200balike" has an invisible character \(U\+200B\)\): the plan creates a new monitor instead of adopting it, and deletes the live one \(prune\)\. To adopt it, write Name as the service has it \(or pin MonitorGuid: [0-9a-f-]{36}\)$/,
      ),
    );
  });
});

describe('a hostile error message from the service', () => {
  const MESSAGE = 'refused\n::error ::forged\n+ create monitor "x" \u001b]52;c;ZXZpbA==\u0007';
  // A service that refuses every request with MESSAGE as its ErrorDescription.
  const server = createServer((_request, response) => response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ ErrorDescription: MESSAGE })));
  let url = '';
  beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve(void (url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v4`)))));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is printed on one line, escaped', async () => {
    const { code, err } = await monsync(['plan', '--config', 'configs'], { env: { ...suite.env, MONSYNC_API_URL: url } });
    expect(code).toBe(ExitCode.Error);
    const lines = expectTerminalSafe(err);
    expect(lines).toContainEqual(
      expect.stringMatching(/^monsync plan: error LIVE_READ_FAILED: .* failed with 400 Bad Request: refused\\n::error ::forged\\n\+ create monitor "x" \\u001b\]52;c;ZXZpbA==\\u0007$/),
    );
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
