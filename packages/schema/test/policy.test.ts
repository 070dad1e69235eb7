import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { POLICY_RULES, configJsonSchema, diagnosticLine, loadConfigTexts, type Diagnostic } from '../src/index.js';

const NOW = new Date('2026-11-25T12:00:00Z');
const SETTINGS = 'apiVersion: monsync/v1\nmanage:\n  monitors: { prune: true }\n  monitorGroups: { prune: true }\n  vault: {}\n  slas: {}\n';

/** Loads monsync.yaml (settings plus `extra`) and monitors.yaml; the clock is fixed. */
function load(extra: string, monitors: string, options: { now?: Date; groups?: string } = {}) {
  const texts = [
    { file: 'monsync.yaml', text: `${SETTINGS}${extra}` },
    { file: 'monitors.yaml', text: `monitors:\n${monitors}` },
    ...(options.groups === undefined ? [] : [{ file: 'groups.yaml', text: `monitorGroups:\n${options.groups}` }]),
  ];
  return loadConfigTexts('/tmp/policy-test', texts, { now: options.now ?? NOW });
}

const lines = (diagnostics: readonly Diagnostic[], codes: readonly string[]) => diagnostics.filter((d) => codes.includes(d.code)).map(diagnosticLine);
const POLICY_CODES = ['POLICY_ERROR', 'POLICY_WARNING', 'INVALID_POLICY', 'INVALID_WAIVER', 'WAIVER_EXPIRED', 'UNUSED_WAIVER'];

describe('policy rules on the tree', () => {
  it('checkInterval fires above max and below min at the interval, on a missing interval at the name, and not within limits or outside its selection', () => {
    const { diagnostics, desired } = load(
      'policy:\n  checkInterval:\n    - { monitorType: Https, min: 2, max: 5 }\n',
      [
        '  - { Name: slow, MonitorType: Https, CheckInterval: 10 }',
        '  - { Name: fast, MonitorType: Https, CheckInterval: 1 }',
        '  - { Name: unset, MonitorType: Https }',
        '  - { Name: fine, MonitorType: Https, CheckInterval: 5 }',
        '  - { Name: seconds, MonitorType: Https, CheckIntervalSeconds: 120 }',
        '  - { Name: other type, MonitorType: DNS, CheckInterval: 60 }',
      ].join('\n') + '\n',
    );
    expect(lines(diagnostics, POLICY_CODES)).toEqual([
      'monitors.yaml:2:54 error POLICY_ERROR checkInterval: monitor `slow` checks every 10 minutes, less often than the policy asks (2 to 5 minutes for Https monitors)',
      'monitors.yaml:3:54 error POLICY_ERROR checkInterval: monitor `fast` checks every 1 minutes, more often than the policy allows (2 to 5 minutes for Https monitors)',
      "monitors.yaml:4:13 error POLICY_ERROR checkInterval: monitor `unset` has no CheckInterval, so the service's default applies; the policy wants 2 to 5 minutes for Https monitors",
    ]);
    expect(desired.policy?.map((f) => [f.rule, f.key, f.severity, f.line])).toEqual([
      ['checkInterval', 'slow', 'error', 2],
      ['checkInterval', 'fast', 'error', 3],
      ['checkInterval', 'unset', 'error', 4],
    ]);
    expect(diagnostics.find((d) => d.code === 'POLICY_ERROR')?.hint).toContain('policyWaivers: [{ rule: checkInterval');
  });

  it('selects by MonitorType ignoring case, so `https` (let through by allowUnknown, or read from an account) never escapes a rule written for Https', () => {
    const { diagnostics } = load(
      'allowUnknown: { values: { MonitorType: [https, HTTPS] } }\npolicy:\n  checkInterval:\n    - { monitorType: Https, max: 5 }\n',
      '  - { Name: lower, MonitorType: https, CheckInterval: 10 }\n  - { Name: upper, MonitorType: HTTPS, CheckInterval: 10 }\n  - { Name: dns, MonitorType: DNS, CheckInterval: 10 }\n',
    );
    expect(diagnostics.filter((d) => !POLICY_CODES.includes(d.code))).toEqual([]);
    expect(lines(diagnostics, POLICY_CODES)).toEqual([
      'monitors.yaml:2:55 error POLICY_ERROR checkInterval: monitor `lower` checks every 10 minutes, less often than the policy asks (at most 5 minutes for Https monitors)',
      'monitors.yaml:3:55 error POLICY_ERROR checkInterval: monitor `upper` checks every 10 minutes, less often than the policy asks (at most 5 minutes for Https monitors)',
    ]);
  });

  it('compares enum values as the service does, ignoring case: a rule for `https` selects Https monitors, and a condition type in another case counts', () => {
    const { diagnostics } = load(
      'allowUnknown: { values: { ErrorConditionType: [httpstatus] } }\npolicy:\n  requiredErrorConditions:\n    - { monitorType: https, types: [HttpStatus] }\n',
      [
        '  - { Name: lower, MonitorType: Https, ErrorConditions: [{ ErrorConditionType: httpstatus, Value: "200" }] }',
        '  - { Name: none, MonitorType: Https, ErrorConditions: [{ ErrorConditionType: TotalMinBytes, Value: "1" }] }',
        '  - { Name: dns, MonitorType: DNS }',
        '',
      ].join('\n'),
    );
    expect(diagnostics.filter((d) => !POLICY_CODES.includes(d.code))).toEqual([]);
    expect(lines(diagnostics, POLICY_CODES)).toEqual([
      'monitors.yaml:3:56 error POLICY_ERROR requiredErrorConditions: monitor `none` lacks ErrorConditions of type HttpStatus (required for https monitors)',
    ]);
  });

  it("refuses a rule's monitorType that is no published MonitorType, at its value, naming the closest: such a rule would select nothing", () => {
    const { diagnostics, desired } = load(
      'policy:\n  checkInterval:\n    - { monitorType: Htps, max: 5 }\n    - { monitorType: Telepathy, max: 5 }\n  requiredErrorConditions:\n    - { monitorType: DSN, types: [HttpStatus] }\n',
      '  - { Name: shop, MonitorType: Https, CheckInterval: 10 }\n',
    );
    const refused = diagnostics.filter((d) => d.code === 'INVALID_ENUM');
    expect(refused.map(diagnosticLine)).toEqual([
      'monsync.yaml:9:22 error INVALID_ENUM `monitorType: Htps` is no MonitorType the service publishes, so this rule would select no monitor; did you mean `Https`?',
      expect.stringMatching(/^monsync\.yaml:10:22 error INVALID_ENUM `monitorType: Telepathy` is no MonitorType the service publishes, so this rule would select no monitor; write one of Http, Https, .*DNS/),
      'monsync.yaml:12:22 error INVALID_ENUM `monitorType: DSN` is no MonitorType the service publishes, so this rule would select no monitor; did you mean `DNS`?',
    ]);
    expect(refused[0]?.hint).toBe("write `Https`; if the service added `Htps` after this release of monsync, let it through in monsync.yaml: allowUnknown: { values: { MonitorType: [Htps] } }");
    // A refused entry checks nothing: its rule is not run on a guess.
    expect(desired.settings.policy).toEqual([]);
  });

  it("takes a rule's monitorType in any case, and one allowUnknown lets through", () => {
    const { diagnostics } = load(
      'allowUnknown: { values: { MonitorType: [Quantum] } }\npolicy:\n  checkInterval:\n    - { monitorType: HTTPS, max: 5 }\n    - { monitorType: Quantum, max: 5 }\n',
      '  - { Name: shop, MonitorType: Https, CheckInterval: 10 }\n  - { Name: qubit, MonitorType: Quantum, CheckInterval: 10 }\n',
    );
    expect(diagnostics.filter((d) => !POLICY_CODES.includes(d.code))).toEqual([]);
    expect(lines(diagnostics, POLICY_CODES).map((line) => line.split(' error ')[1]?.split(',')[0])).toEqual(['POLICY_ERROR checkInterval: monitor `shop` checks every 10 minutes', 'POLICY_ERROR checkInterval: monitor `qubit` checks every 10 minutes']);
  });

  it('checkInterval selects by name glob, and a warning severity makes warnings', () => {
    const { diagnostics } = load('policy:\n  checkInterval:\n    - { name: "checkout-*", max: 1, severity: warning }\n', '  - { Name: checkout-eu, CheckInterval: 5 }\n  - { Name: home, CheckInterval: 5 }\n');
    expect(lines(diagnostics, POLICY_CODES)).toEqual([
      'monitors.yaml:2:41 warning POLICY_WARNING checkInterval: monitor `checkout-eu` checks every 5 minutes, less often than the policy asks (at most 1 minutes for monitors named checkout-*)',
    ]);
  });

  it('requiredErrorConditions names the missing types, at ErrorConditions when the monitor has some', () => {
    const { diagnostics } = load(
      'policy:\n  requiredErrorConditions:\n    - { monitorType: Https, types: [HttpStatus, TotalMinBytes] }\n',
      '  - Name: partial\n    MonitorType: Https\n    ErrorConditions:\n      - { ErrorConditionType: HttpStatus, Value: "200" }\n  - { Name: none, MonitorType: Https }\n  - Name: complete\n    MonitorType: Https\n    ErrorConditions: [{ ErrorConditionType: HttpStatus, Value: "200" }, { ErrorConditionType: TotalMinBytes, Value: "2" }]\n',
    );
    expect(lines(diagnostics, POLICY_CODES)).toEqual([
      'monitors.yaml:5:7 error POLICY_ERROR requiredErrorConditions: monitor `partial` lacks ErrorConditions of type TotalMinBytes (required for Https monitors)',
      'monitors.yaml:6:13 error POLICY_ERROR requiredErrorConditions: monitor `none` lacks ErrorConditions of type HttpStatus, TotalMinBytes (required for Https monitors)',
    ]);
  });

  it('monitorInGroup counts the members of declared groups; an empty entry means severity error', () => {
    const { diagnostics } = load('policy:\n  monitorInGroup:\n', '  - { Name: grouped }\n  - { Name: loose }\n', { groups: '  - { Description: Shop, members: [grouped] }\n' });
    expect(lines(diagnostics, POLICY_CODES)).toEqual(['monitors.yaml:3:13 error POLICY_ERROR monitorInGroup: monitor `loose` is in no monitor group']);
  });

  it('activeMonitorsAlert: active monitors need GenerateAlert: true; inactive ones do not', () => {
    const { diagnostics } = load(
      'policy:\n  activeMonitorsAlert: { severity: warning }\n',
      '  - { Name: silent, GenerateAlert: false }\n  - { Name: unsaid }\n  - { Name: paused, IsActive: false }\n  - { Name: loud, GenerateAlert: true }\n',
    );
    expect(lines(diagnostics, POLICY_CODES)).toEqual([
      'monitors.yaml:2:36 warning POLICY_WARNING activeMonitorsAlert: monitor `silent` is active but has GenerateAlert: false, so its errors alert nobody',
      'monitors.yaml:3:13 warning POLICY_WARNING activeMonitorsAlert: monitor `unsaid` is active but does not declare GenerateAlert: true, so its errors alert nobody',
    ]);
  });

  it('namePattern checks the name as written, of its kind only (a vault item its own Name)', () => {
    const { diagnostics } = loadConfigTexts(
      '/tmp/policy-test',
      [
        { file: 'monsync.yaml', text: `${SETTINGS}policy:\n  namePattern:\n    - { kind: monitor, pattern: "^[a-z-]+$" }\n    - { kind: vaultItem, pattern: "^[a-z]+$" }\n` },
        { file: 'monitors.yaml', text: 'monitors:\n  - { Name: Shop Home }\n  - { Name: shop-home }\n' },
        { file: 'vault.yaml', text: 'vault:\n  sections:\n    - Name: Web\n      items:\n        - { Name: login, VaultItemType: CredentialSet, UserName: u }\n        - { Name: Login2, VaultItemType: CredentialSet, UserName: u }\n' },
      ],
      { now: NOW },
    );
    expect(lines(diagnostics, POLICY_CODES)).toEqual([
      'monitors.yaml:2:13 error POLICY_ERROR namePattern: monitor `Shop Home` does not match the name pattern /^[a-z-]+$/',
      'vault.yaml:6:19 error POLICY_ERROR namePattern: vault item `Web/Login2` does not match the name pattern /^[a-z]+$/',
    ]);
  });

  it('forbiddenFields points at each forbidden field', () => {
    const { diagnostics } = load('policy:\n  forbiddenFields:\n    - { kind: monitor, fields: [CheckIntervalSeconds, UserAgent] }\n', '  - Name: a\n    UserAgent: EdgeLatest\n  - { Name: b }\n');
    expect(lines(diagnostics, POLICY_CODES)).toEqual(['monitors.yaml:3:16 error POLICY_ERROR forbiddenFields: monitor `a` sets UserAgent, which the policy forbids for monitors']);
  });

  it('maxInactiveShare is not checked by validate (it is about the account after the plan)', () => {
    const { diagnostics } = load('policy:\n  maxInactiveShare: { percent: 0 }\n', '  - { Name: off, IsActive: false }\n');
    expect(lines(diagnostics, POLICY_CODES)).toEqual([]);
  });

  it('rejects parameters no rule can use, at the parameter', () => {
    const { diagnostics } = load(
      'policy:\n  namePattern:\n    - { kind: monitor, pattern: "([a-z" }\n  checkInterval:\n    - { min: 10, max: 5 }\n    - { monitorType: Https }\n  maxInactiveShare:\n',
      '  - { Name: a }\n',
    );
    expect(lines(diagnostics, POLICY_CODES)).toEqual([
      expect.stringMatching(/^monsync\.yaml:9:33 error INVALID_POLICY namePattern: `\(\[a-z` is not a valid regular expression/),
      'monsync.yaml:11:23 error INVALID_POLICY checkInterval: max 5 is below min 10, so no interval could pass',
      'monsync.yaml:12:7 error INVALID_POLICY checkInterval: give `min`, `max` or both; without them the rule checks nothing',
      'monsync.yaml:13:3 error INVALID_POLICY maxInactiveShare needs `percent`',
    ]);
  });

  it('an unknown rule under policy is a schema error naming the likely rule', () => {
    const { diagnostics } = load('policy:\n  checkIntervals: []\n', '  - { Name: a }\n');
    expect(diagnostics.filter((d) => d.severity === 'error').map(diagnosticLine)).toEqual([expect.stringMatching(/^monsync\.yaml:8:3 error UNKNOWN_FIELD .*checkInterval/)]);
  });
});

describe('policy waivers', () => {
  const POLICY = 'policy:\n  monitorInGroup: {}\n  maxInactiveShare: { percent: 50 }\n';
  const withWaivers = (waivers: string) => load(POLICY, `  - Name: loose\n    policyWaivers:\n${waivers}`);

  it('a valid waiver silences its rule for its object only, and is never sent (not in the declared fields)', () => {
    const { diagnostics, desired } = load(POLICY, '  - Name: loose\n    policyWaivers:\n      - { rule: monitorInGroup, reason: "retired next sprint", until: 2027-03-01 }\n  - { Name: other }\n');
    expect(lines(diagnostics, POLICY_CODES)).toEqual(['monitors.yaml:5:13 error POLICY_ERROR monitorInGroup: monitor `other` is in no monitor group']);
    expect(Object.keys(desired.monitors[0]?.value ?? {})).toEqual(['Name']);
  });

  it('holds through its last day (UTC) and is an error the day after', () => {
    const waiver = '      - { rule: monitorInGroup, reason: "legacy", until: 2026-11-25 }\n';
    expect(lines(load(POLICY, `  - Name: loose\n    policyWaivers:\n${waiver}`).diagnostics, POLICY_CODES)).toEqual([]);
    const dayAfter = load(POLICY, `  - Name: loose\n    policyWaivers:\n${waiver}`, { now: new Date('2026-11-26T00:00:00Z') }).diagnostics;
    expect(lines(dayAfter, POLICY_CODES)).toEqual([
      'monitors.yaml:2:11 error POLICY_ERROR monitorInGroup: monitor `loose` is in no monitor group',
      'monitors.yaml:4:58 error WAIVER_EXPIRED the waiver of `monitorInGroup` ended on 2026-11-25 (today is 2026-11-26 UTC)',
    ]);
  });

  it('without a reason is an error at the waiver; a blank reason at the reason', () => {
    const missing = withWaivers('      - { rule: monitorInGroup }\n').diagnostics;
    expect(missing.filter((d) => d.severity === 'error').map(diagnosticLine)).toEqual([
      'monitors.yaml:2:11 error POLICY_ERROR monitorInGroup: monitor `loose` is in no monitor group',
      'monitors.yaml:4:9 error MISSING_FIELD policyWaivers[0] is missing the required field `reason`',
    ]);
    expect(lines(withWaivers('      - { rule: monitorInGroup, reason: "  " }\n').diagnostics, ['INVALID_WAIVER'])).toEqual(['monitors.yaml:4:41 error INVALID_WAIVER the waiver of `monitorInGroup` has a blank reason']);
  });

  it('for an unknown rule, an account rule, or a rule that does not check the kind, is an error at the rule', () => {
    const { diagnostics } = withWaivers(
      '      - { rule: monitorInGrup, reason: "typo" }\n      - { rule: maxInactiveShare, reason: "x" }\n      - { rule: namePattern, reason: "x" }\n',
    );
    expect(lines(diagnostics, ['INVALID_WAIVER', 'UNUSED_WAIVER'])).toEqual([
      'monitors.yaml:4:17 error INVALID_WAIVER the waiver names no policy rule `monitorInGrup`; did you mean `monitorInGroup`?',
      'monitors.yaml:5:17 error INVALID_WAIVER `maxInactiveShare` is about the whole account, so no object can be excused from it',
      'monitors.yaml:6:17 warning UNUSED_WAIVER the waiver of `namePattern` silences nothing: `namePattern` is not in policy: of monsync.yaml',
    ]);
    const group = loadConfigTexts(
      '/tmp/policy-test',
      [
        { file: 'monsync.yaml', text: `${SETTINGS}policy:\n  monitorInGroup: {}\n` },
        { file: 'groups.yaml', text: 'monitorGroups:\n  - Description: Shop\n    policyWaivers: [{ rule: checkInterval, reason: "x" }]\n' },
      ],
      { now: NOW },
    );
    expect(lines(group.diagnostics, ['INVALID_WAIVER'])).toEqual(['groups.yaml:3:29 error INVALID_WAIVER `checkInterval` does not check monitor groups, so this waiver would silence nothing']);
  });

  it('an until that is not a real day is an error; one that silences nothing is a warning', () => {
    expect(lines(withWaivers('      - { rule: monitorInGroup, reason: "x", until: 2027-02-30 }\n').diagnostics, ['INVALID_WAIVER'])).toEqual(['monitors.yaml:4:53 error INVALID_WAIVER `until` 2027-02-30 is not a real day']);
    const kept = load(POLICY, '  - Name: grouped\n    policyWaivers: [{ rule: monitorInGroup, reason: "x" }]\n', { groups: '  - { Description: G, members: [grouped] }\n' });
    expect(lines(kept.diagnostics, POLICY_CODES)).toEqual(['monitors.yaml:3:29 warning UNUSED_WAIVER the waiver of `monitorInGroup` silences nothing: the object keeps the rule']);
  });
});

describe('alertsReachSomeone, a rule the plan checks', () => {
  const alerting = (policy: string, definitions: string, monitors = '') =>
    loadConfigTexts(
      '/tmp/policy-test',
      [
        { file: 'monsync.yaml', text: `${SETTINGS}  alertDefinitions: {}\n${policy}` },
        { file: 'alerts.yaml', text: `alertDefinitions:\n${definitions}` },
        ...(monitors === '' ? [] : [{ file: 'monitors.yaml', text: `monitors:\n${monitors}` }]),
      ],
      { now: NOW },
    );

  it('is not checked by validate; a waiver of an alert definition is handed to the plan with its position, not called unused', () => {
    const { diagnostics, desired } = alerting(
      'policy:\n  alertsReachSomeone: { severity: warning }\n',
      '  - AlertName: Shop on-call\n    IsActive: true\n    policyWaivers: [{ rule: alertsReachSomeone, reason: "the shop team pages by phone tree" }]\n  - { AlertName: Quiet, IsActive: true }\n',
    );
    expect(lines(diagnostics, POLICY_CODES)).toEqual([]);
    expect(desired.policy ?? []).toEqual([]);
    expect(desired.planWaivers).toEqual([{ rule: 'alertsReachSomeone', kind: 'alertDefinition', key: 'Shop on-call', file: 'alerts.yaml', line: 4, column: 29 }]);
    expect(desired.settings.policy?.map((e) => [e.rule, e.severity])).toEqual([['alertsReachSomeone', 'warning']]);
  });

  it('a waiver of it on a monitor is an error; one while the rule is not in policy: silences nothing', () => {
    const onMonitor = alerting('policy:\n  alertsReachSomeone: {}\n', '  - { AlertName: Quiet }\n', '  - Name: Blog\n    policyWaivers: [{ rule: alertsReachSomeone, reason: "x" }]\n');
    expect(lines(onMonitor.diagnostics, ['INVALID_WAIVER'])).toEqual(['monitors.yaml:3:29 error INVALID_WAIVER `alertsReachSomeone` does not check monitors, so this waiver would silence nothing']);
    const unused = alerting('', '  - AlertName: Quiet\n    policyWaivers: [{ rule: alertsReachSomeone, reason: "x" }]\n');
    expect(lines(unused.diagnostics, ['UNUSED_WAIVER'])).toEqual(['alerts.yaml:3:29 warning UNUSED_WAIVER the waiver of `alertsReachSomeone` silences nothing: `alertsReachSomeone` is not in policy: of monsync.yaml']);
    expect(unused.desired.planWaivers).toBeUndefined();
  });
});

describe('protect', () => {
  it('reads patterns of monsync.yaml and protect: true of declarations, with positions; protect is never a field', () => {
    const { diagnostics, desired } = loadConfigTexts('/tmp/policy-test', [
      { file: 'monsync.yaml', text: `${SETTINGS}protect: ["monitor:prod-*", "vaultSection:payments"]\n` },
      { file: 'monitors.yaml', text: 'monitors:\n  - Name: db\n    protect: true\n' },
      { file: 'vault.yaml', text: 'vault:\n  sections:\n    - Name: Web\n      items:\n        - { Name: login, VaultItemType: CredentialSet, UserName: u, protect: true }\n' },
    ]);
    expect(diagnostics.filter((d) => d.severity === 'error').map(diagnosticLine)).toEqual([]);
    expect(desired.protection).toEqual([
      { kind: 'monitor', rule: 'monitor:prod-*', glob: 'prod-*', source: { file: 'monsync.yaml', line: 7, column: 11 } },
      { kind: 'vaultSection', rule: 'vaultSection:payments', glob: 'payments', source: { file: 'monsync.yaml', line: 7, column: 29 } },
      { kind: 'monitor', rule: 'protect: true', key: 'db', source: { file: 'monitors.yaml', line: 3, column: 5 } },
      { kind: 'vaultItem', rule: 'protect: true', key: 'Web/login', source: { file: 'vault.yaml', line: 5, column: 69 } },
    ]);
    expect(desired.monitors[0]?.value).toEqual({ Name: 'db' });
    expect(desired.settings.protect).toEqual(['monitor:prod-*', 'vaultSection:payments']);
  });

  it('a pattern that is not kind:glob, and protect outside monsync.yaml, are errors', () => {
    const { diagnostics } = loadConfigTexts('/tmp/policy-test', [
      { file: 'monsync.yaml', text: `${SETTINGS}protect: ["monitors:prod-*"]\n` },
      { file: 'monitors.yaml', text: 'protect: ["monitor:x"]\nmonitors: []\n' },
    ]);
    expect(diagnostics.filter((d) => d.severity === 'error').map(diagnosticLine)).toEqual([
      'monitors.yaml:1:1 error SETTINGS_OUTSIDE_ROOT `protect` belongs in monsync.yaml at the root of the config folder',
      'monsync.yaml:7:11 error INVALID_IGNORE_PATTERN protect pattern `monitors:prod-*` must be kind:glob with a singular kind',
    ]);
  });
});

describe('the rules, for people and editors', () => {
  it('the config JSON Schema describes every rule and its parameters, and offers rule names in waivers', () => {
    const defs = configJsonSchema().$defs as Record<string, { properties?: Record<string, unknown> }>;
    const policy = defs.Policy?.properties ?? {};
    expect(Object.keys(policy)).toEqual(POLICY_RULES.map((rule) => rule.name));
    for (const rule of POLICY_RULES) expect(JSON.stringify(policy[rule.name]), rule.name).toContain(rule.summary.slice(0, 40));
    expect(JSON.stringify(defs.PolicyWaiver)).toContain(JSON.stringify(POLICY_RULES.map((rule) => rule.name)));
    expect(Object.keys(defs.Monitor?.properties ?? {})).toEqual(expect.arrayContaining(['protect', 'policyWaivers']));
    expect(Object.keys(defs.VaultItem?.properties ?? {})).toEqual(expect.arrayContaining(['protect', 'policyWaivers']));
  });

  it('the README lists every rule with what it checks', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const rule of POLICY_RULES) expect(readme).toContain(`| \`${rule.name}\` | ${rule.multiple ? 'list' : 'mapping'} |`);
    for (const rule of POLICY_RULES) expect(readme).toContain(rule.summary);
  });
});
