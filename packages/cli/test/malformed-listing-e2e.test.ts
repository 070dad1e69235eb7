/**
 * A service answering a listing with an entry that is not of its shape (null, a number, an object without its GUID
 * or key) stops plan and apply with the listing, the entry's position and what was expected: nothing is planned from
 * it, least of all a delete, and no stack trace is printed, not even with --verbose.
 */
import type { ScriptedFault } from '@monsync/emulator';
import { describe, expect, it } from 'vitest';
import { monsync, tempTree, useEmulator } from './helpers.js';

const suite = useEmulator({
  seed: 'demo',
  start: { retryAfterSeconds: 0 },
  operator: 'admin@example.com',
  env: {
    DEMO_SHOP_PASSWORD: 'CANARY-malformed-shop-password',
    DEMO_SHOP_OTP_SECRET: 'CANARYMALFORMEDOTP',
    DEMO_CLIENT_CERT_PFX_BASE64: Buffer.from('CANARY-malformed-pfx').toString('base64'),
    DEMO_CLIENT_CERT_PASSWORD: 'CANARY-malformed-pfx-password',
  },
  eachTest: { faultsOff: true, reset: true, clearLog: true },
});

/** The next answer to `route` is `body`, whatever the account holds. */
function answerWith(route: string, body: unknown): void {
  const fault: ScriptedFault = { route, count: 1, kind: 'answer', body };
  suite.emulator.control.setFaults({ scripted: [fault] });
}

const writes = (): string[] =>
  suite.emulator.control
    .requestLog()
    .entries.filter((entry) => entry.method !== 'GET')
    .map((entry) => `${entry.method} ${entry.path}`);

describe('a malformed listing entry from the service', () => {
  it.each<[string, unknown[], string]>([
    ['null', [null], '(batch 1, index 0): null;'],
    ['numbers', [1, 2], '(batch 1, index 0): an integer;'],
    ['a monitor without its MonitorGuid', [{ Name: 'Shop checkout' }], '(batch 1, index 0): an object without MonitorGuid;'],
    ['a monitor whose MonitorGuid is a number', [{ MonitorGuid: 7, Name: 'Shop checkout' }], '(batch 1, index 0): an object whose MonitorGuid is an integer;'],
  ])('in GET /Monitor (%s): apply stops before any write, with the listing, the position and what was expected', async (_, body, position) => {
    answerWith('GET /Monitor', body);
    const { code, out, err } = await monsync(['apply', '--config', 'configs', '--auto-approve', '--allow-deletes', '--verbose'], { env: suite.env });
    expect(code, err).toBe(1);
    expect(err).toContain(`error MALFORMED_LISTING: GET /Monitor answered an entry that is not a monitor ${position} expected an object with MonitorGuid (a non-empty string) and Name (a string). No plan was made`);
    expect(err).not.toMatch(/\n\s+at /);
    expect(out).not.toMatch(/delete|create|update/);
    expect(writes()).toEqual([]);
  });

  it.each<[string, string, unknown[], string]>([
    ['members of a monitor group', 'GET /MonitorGroup/{monitorGroupGuid}/Member', [{ MonitorGuid: null }], 'a member of a monitor group (batch 1, index 0): an object whose MonitorGuid is null;'],
    ['vault items', 'GET /VaultItem', [{ Name: 'shop-login' }], 'a vault item (batch 1, index 0): an object without VaultItemGuid;'],
    ['SLAs', 'GET /Sla', [[]], 'an SLA (batch 1, index 0): an array;'],
    ['exclusion periods', 'GET /Sla/{slaGuid}/ExclusionPeriod', [{ Description: 'x' }], 'an SLA exclusion period (batch 1, index 0): an object without ExclusionPeriodId;'],
    ['scheduled reports', 'GET /ScheduledReport', ['report'], 'a scheduled report (batch 1, index 0): a string;'],
    ['operators', 'GET /Operator', [{ OperatorGuid: 'x', Email: null }], 'an operator (batch 1, index 0): an object whose Email is null;'],
    ['operator groups', 'GET /OperatorGroup', [true], 'an operator group (batch 1, index 0): a boolean;'],
    ['members of an operator group', 'GET /OperatorGroup/{operatorGroupGuid}/Member', [''], 'a member of an operator group (batch 1, index 0): an empty string;'],
    ['duty schedules', 'GET /Operator/{operatorGuid}/DutySchedule', [{ ScheduleMode: 'Daily' }], 'a duty schedule (batch 1, index 0): an object without Id;'],
    ['time zones', 'GET /Timezone', [null], 'a time zone (batch 1, index 0): null;'],
  ])('in the listing of %s: plan stops with the listing and the position, exit 1', async (_, route, body, expected) => {
    answerWith(route, body);
    const { code, err } = await monsync(['plan', '--config', 'configs', '--verbose'], { env: suite.env });
    expect(code, err).toBe(1);
    expect(err).toMatch(new RegExp(`error MALFORMED_LISTING: GET /\\S+ answered an entry that is not ${expected.replace(/[()]/g, '\\$&')} expected `));
    expect(err).not.toMatch(/\n\s+at /);
    expect(writes()).toEqual([]);
  });

  it('in the listing of access to a vault section whose access is declared: plan stops, exit 1', async () => {
    const tree = tempTree({
      'monsync.yaml': 'apiVersion: monsync/v1\napiOperator: admin@example.com\nmanage:\n  vault: { prune: false }\n  operators: { prune: false }\n',
      'people.yaml': 'operators:\n  - Email: admin@example.com\n',
      'vault.yaml': 'vault:\n  sections:\n    - Name: Web\n      access:\n        - { operator: admin@example.com, level: change }\n',
    });
    answerWith('GET /VaultSection/{vaultSectionGuid}/Authorization', [{ AuthorizationType: 'ViewVaultSection', OperatorGuid: null }]);
    const { code, err } = await monsync(['plan', '--config', tree], { env: suite.env });
    expect(code, err).toBe(1);
    expect(err).toMatch(
      /error MALFORMED_LISTING: GET \/VaultSection\/[^/]+\/Authorization answered an entry that is not a vault section authorization \(batch 1, index 0\): an object with neither OperatorGuid nor OperatorGroupGuid; expected an object with AuthorizationType \(a string\) and OperatorGuid or OperatorGroupGuid \(a non-empty string\)\. No plan was made/,
    );
    expect(writes()).toEqual([]);
  });
});
