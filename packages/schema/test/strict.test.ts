import { describe, expect, it } from 'vitest';
import { diagnosticLine, loadConfigTexts, type Diagnostic } from '../src/index.js';

const SETTINGS = 'apiVersion: monsync/v1\nmanage:\n  monitors: { prune: false }\n';

/** The diagnostic lines of a tree of monsync.yaml (settings + `extra`) and one monitors file. */
function lines(monitors: string, extra = ''): string[] {
  const { diagnostics } = loadConfigTexts('/tree', [
    { file: 'monsync.yaml', text: `${SETTINGS}${extra}` },
    { file: 'monitors.yaml', text: monitors },
  ]);
  return diagnostics.map((d: Diagnostic) => `${diagnosticLine(d)}${d.hint === undefined ? '' : ` | ${d.hint}`}`);
}

const monitor = (fields: string) => `monitors:\n  - Name: Shop\n${fields}`;

describe('strict by default: unknown API fields', () => {
  it('refuses a misspelt field of a monitor at its key, naming the field meant', () => {
    expect(lines(monitor('    MonitorType: Https\n    CheckIntervall: 3\n'))).toEqual([
      "monitors.yaml:4:5 error UNKNOWN_API_FIELD unknown field `CheckIntervall`: the service's published definition of Monitor has no such field; did you mean `CheckInterval`? | rename it to CheckInterval; if the service really added `CheckIntervall` after this release, let it through in monsync.yaml: allowUnknown: { fields: { monitor: [CheckIntervall] } }",
    ]);
  });

  it('accepts the fields the published definition lists beyond the schema (Url, Port, Notes, SelectedCheckpoints)', () => {
    expect(lines(monitor('    MonitorType: Https\n    Url: https://shop.example.com/\n    Port: 443\n    Notes: x\n    SelectedCheckpoints: { Regions: [1] }\n'))).toEqual([]);
  });

  it('checks nested published objects too (an error condition), and names the old spelling with its migration', () => {
    const found = lines(monitor('    ErrorConditions:\n      - { ErrorConditionType: HttpStatus, Value: "200", Efect: Error }\n    CheckFrequency: 5\n'));
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^monitors\.yaml:4:57 error UNKNOWN_API_FIELD unknown field `Efect`: the service's published definition of ErrorCondition has no such field; did you mean `Effect`\?/);
    expect(found[1]).toMatch(/^monitors\.yaml:5:5 warning RENAMED_FIELD `CheckFrequency` is the v3 API name; the service calls it `CheckInterval`/);
  });

  it('refuses an unknown field of every published kind, an SLA for one', () => {
    const { diagnostics } = loadConfigTexts('/tree', [
      { file: 'monsync.yaml', text: 'apiVersion: monsync/v1\nmanage:\n  slas: {}\n' },
      { file: 'slas.yaml', text: 'slas:\n  - { Description: Gold, UptimeErorThreshold: 99 }\n' },
    ]);
    expect(diagnostics.map((d) => [d.code, d.line, d.column, d.message.endsWith('did you mean `UptimeErrorThreshold`?')])).toEqual([['UNKNOWN_API_FIELD', 2, 26, true]]);
  });

  it('lets a field the service added after this release through when monsync.yaml allows it for that object', () => {
    const allow = 'allowUnknown:\n  fields:\n    monitor: [NewField]\n';
    expect(lines(monitor('    NewField: 1\n'), allow)).toEqual([]);
    // Allowed for a monitor, not for its error conditions.
    expect(lines(monitor('    ErrorConditions:\n      - { ErrorConditionType: HttpStatus, Value: "200", NewField: 1 }\n'), allow)).toEqual([
      expect.stringMatching(/^monitors\.yaml:4:57 error UNKNOWN_API_FIELD unknown field `NewField`/),
    ]);
  });

  it('refuses an allowUnknown naming no published object, and a field that is not PascalCase', () => {
    expect(lines(monitor(''), 'allowUnknown:\n  fields:\n    monitors: [NewField]\n    sla: [newField]\n')).toEqual([
      expect.stringMatching(/^monsync\.yaml:6:5 error UNKNOWN_FIELD unknown field `monitors` in fields; did you mean `monitor`\?/),
      expect.stringMatching(/^monsync\.yaml:7:11 error INVALID_FORMAT /),
    ]);
  });
});

describe('strict by default: enum values', () => {
  it.each([
    ['MonitorType: Htps', 'Https'],
    ['MonitorType: HTTPS', 'Https'],
    ['MonitorType: https', 'Https'],
    ['HttpMethod: GET', 'Get'],
  ])('refuses %s, naming %s', (field, meant) => {
    const [name = '', value = ''] = field.split(': ');
    const found = lines(monitor(`    ${field}\n`));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(new RegExp(`^monitors\\.yaml:3:${7 + name.length} error INVALID_ENUM \`${name}\` must be one of .* \\(got \`${value}\`\\); did you mean \`${meant}\`\\? \\| write \`${meant}\`; if the service added \`${value}\` after this release of monsync, let it through in monsync\\.yaml: allowUnknown: \\{ values: \\{ ${name}: \\[${value}\\] \\} \\}$`));
  });

  it('names no value when none is close, and still lists them', () => {
    expect(lines(monitor('    MonitorType: Website\n'))).toEqual([
      expect.stringMatching(/^monitors\.yaml:3:18 error INVALID_ENUM `MonitorType` must be one of Http, Https, .* \(got `Website`\) \| use one of the values listed; if the service added/),
    ]);
  });

  it('refuses a MonitorMode outside the published three, a near miss or a wrong case naming the one meant', () => {
    expect(lines(monitor('    MonitorMode: Prodution\n'))).toEqual([
      'monitors.yaml:3:18 error INVALID_ENUM `MonitorMode` must be one of Development, Staging, Production (got `Prodution`); did you mean `Production`? | write `Production`; if the service added `Prodution` after this release of monsync, let it through in monsync.yaml: allowUnknown: { values: { MonitorMode: [Prodution] } }',
    ]);
    expect(lines(monitor('    MonitorMode: production\n'))).toEqual([expect.stringMatching(/did you mean `Production`\?/)]);
    expect(lines(monitor('    MonitorMode: Default\n'))).toEqual([expect.stringMatching(/^monitors\.yaml:3:18 error INVALID_ENUM `MonitorMode` must be one of Development, Staging, Production \(got `Default`\) \| use one of the values listed/)]);
  });

  it('lets a value the service added after this release through when monsync.yaml allows it, exactly as written', () => {
    const allow = 'allowUnknown:\n  values:\n    MonitorType: [NewType]\n';
    expect(lines(monitor('    MonitorType: NewType\n'), allow)).toEqual([]);
    expect(lines(monitor('    MonitorType: newtype\n'), allow)).toEqual([expect.stringMatching(/error INVALID_ENUM `MonitorType` must be one of/)]);
  });

  it('keeps allowUnknown in monsync.yaml', () => {
    const { diagnostics } = loadConfigTexts('/tree', [
      { file: 'monsync.yaml', text: SETTINGS },
      { file: 'monitors.yaml', text: `allowUnknown: { values: { MonitorType: [NewType] } }\n${monitor('    MonitorType: NewType\n')}` },
    ]);
    expect(diagnostics.map((d) => d.code)).toEqual(['SETTINGS_OUTSIDE_ROOT', 'INVALID_ENUM']);
  });
});

describe('strict by default: alert definitions, their escalation levels and level integrations', () => {
  const alerts = (level: string, integration = '') =>
    loadConfigTexts('/tree', [
      { file: 'monsync.yaml', text: 'apiVersion: monsync/v1\nmanage:\n  alertDefinitions: { prune: false }\n' },
      {
        file: 'alerts.yaml',
        text: `alertDefinitions:\n  - AlertName: Web\n    IsActive: true\n    escalationLevels:\n      - Id: 1\n${level}        integrations:\n          - integration: Email\n${integration}`,
      },
    ]).diagnostics.map((d) => `${diagnosticLine(d)}${d.hint === undefined ? '' : ` | ${d.hint}`}`);

  it('accepts the fields alert-definitions.md lists', () => {
    expect(alerts('        EscalationMode: AlertOnErrorDuration\n        ThresholdMinutes: 5\n        NumberOfReminders: 2\n        ReminderDelay: 10\n        IncludeTraceRoute: true\n', '            SendOkAlerts: false\n')).toEqual([]);
  });

  it('refuses a misspelt level field and a misspelt integration setting, naming the one meant and its allowUnknown key', () => {
    expect(alerts('        ThresholdMinute: 5\n', '            SendOkAlert: false\n')).toEqual([
      "alerts.yaml:6:9 error UNKNOWN_API_FIELD unknown field `ThresholdMinute`: the service's published definition of EscalationLevel has no such field; did you mean `ThresholdMinutes`? | rename it to ThresholdMinutes; if the service really added `ThresholdMinute` after this release, let it through in monsync.yaml: allowUnknown: { fields: { escalationLevel: [ThresholdMinute] } }",
      "alerts.yaml:9:13 error UNKNOWN_API_FIELD unknown field `SendOkAlert`: the service's published definition of EscalationLevelIntegration has no such field; did you mean `SendOkAlerts`? | rename it to SendOkAlerts; if the service really added `SendOkAlert` after this release, let it through in monsync.yaml: allowUnknown: { fields: { escalationLevelIntegration: [SendOkAlert] } }",
    ]);
  });

  it('refuses an EscalationMode outside the published two, suggesting the one equal ignoring case', () => {
    expect(alerts('        EscalationMode: alertonerrorcount\n')).toEqual([expect.stringMatching(/^alerts\.yaml:6:25 error INVALID_ENUM `EscalationMode` must be one of AlertOnErrorCount, AlertOnErrorDuration \(got `alertonerrorcount`\); did you mean `AlertOnErrorCount`\?/)]);
  });

  it('refuses an unknown field of the definition itself', () => {
    const { diagnostics } = loadConfigTexts('/tree', [
      { file: 'monsync.yaml', text: 'apiVersion: monsync/v1\nmanage:\n  alertDefinitions: { prune: false }\n' },
      { file: 'alerts.yaml', text: 'alertDefinitions:\n  - { AlertName: Web, IsActiv: true }\n' },
    ]);
    expect(diagnostics.map((d) => `${d.code} ${d.line}:${d.column} ${d.message.endsWith('did you mean `IsActive`?')}`)).toEqual(['UNKNOWN_API_FIELD 2:23 true']);
  });
});

describe('strict by default: open lists of the service', () => {
  const group = (authorizations: string, extra = '') =>
    loadConfigTexts('/tree', [
      { file: 'monsync.yaml', text: `apiVersion: monsync/v1\nmanage:\n  operatorGroups: { prune: false }\n${extra}` },
      { file: 'groups.yaml', text: `operatorGroups:\n  - { Description: Ops, authorizations: [${authorizations}] }\n` },
    ]).diagnostics.map((d) => `${d.code} ${d.line}:${d.column} ${d.message}`);

  it('refuses a near miss of an operator group authorization type and lets a far one through (the list grows)', () => {
    expect(group('AllowInfa')).toEqual(['INVALID_ENUM 2:42 `authorizations: AllowInfa` is not one of ShareDashboards, AllowInfra, TechnicalContact, FinancialOperator, BasicOperator, CreateAlertDefinition, CreateIntegration, CreatePrivateLocations, ManageMonitorTemplates; did you mean `AllowInfra`?']);
    expect(group('ManageRumWebsites')).toEqual([]);
    expect(group('AllowInfa', 'allowUnknown: { values: { authorizations: [AllowInfa] } }\n')).toEqual([]);
  });
});
