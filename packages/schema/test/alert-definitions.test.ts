import { describe, expect, it } from 'vitest';
import { diagnosticLine, loadConfigTexts } from '../src/index.js';

const SETTINGS = { file: 'monsync.yaml', text: 'apiVersion: monsync/v1\nmanage:\n  alertDefinitions: { prune: false }\n' };
const load = (text: string) => loadConfigTexts('/tmp/alerts', [SETTINGS, { file: 'alerts.yaml', text }]);
const errors = (text: string) => load(text).diagnostics.filter((d) => d.severity === 'error').map(diagnosticLine);

describe('alert definitions in a tree', () => {
  it('reads the named form: members as written, levels and their integrations as declarations with their positions', () => {
    const { desired, diagnostics } = load(`alertDefinitions:
  - AlertName: Shop on-call
    IsActive: true
    members: { monitorGroups: [Shop], monitors: [Status page] }
    escalationLevels:
      - Id: 1
        EscalationMode: AlertOnErrorCount
        members: { operators: [sam.ops@example.com], operatorGroups: [Night shift] }
        integrations:
          - { integration: Ops chat channel, VariableValues: { channel: "#shop" } }
      - { Id: 2, EscalationMode: AlertOnErrorDuration, ThresholdMinutes: 30 }
`);
    expect(diagnostics).toEqual([]);
    const [definition] = desired.alertDefinitions;
    expect(definition?.value.members).toEqual({ monitorGroups: ['Shop'], monitors: ['Status page'] });
    const [first, second] = definition?.value.escalationLevels ?? [];
    expect(first?.source).toEqual({ file: 'alerts.yaml', line: 6, column: 9 });
    expect(first?.value.members).toEqual({ operators: ['sam.ops@example.com'], operatorGroups: ['Night shift'] });
    expect(first?.value.integrations?.[0]).toEqual({ value: { integration: 'Ops chat channel', VariableValues: { channel: '#shop' } }, source: { file: 'alerts.yaml', line: 10, column: 13 } });
    expect(second?.value).toEqual({ Id: 2, EscalationMode: 'AlertOnErrorDuration', ThresholdMinutes: 30 });
  });

  it('refuses a definition with neither AlertName nor AlertDefinitionGuid, a level twice, and an integration twice in one level', () => {
    expect(errors('alertDefinitions:\n  - { IsActive: true }\n')).toEqual([expect.stringMatching(/^alerts\.yaml:2:5 error MISSING_FIELD an alert definition needs `AlertName`/)]);
    const twice = errors(`alertDefinitions:
  - AlertName: A
    escalationLevels:
      - { Id: 1, integrations: [{ integration: Email }, { integration: Email }] }
      - { Id: 1 }
  - AlertName: B
    escalationLevels:
      - { Id: 1, integrations: [{ integration: Email }] }
`);
    expect(twice).toEqual([
      expect.stringMatching(/^alerts\.yaml:4:72 error DUPLICATE_KEY escalation level integration `A\/1\/Email` is declared twice: here and at alerts\.yaml:4:48/),
      expect.stringMatching(/^alerts\.yaml:5:15 error DUPLICATE_KEY escalation level `A\/1` is declared twice: here and at alerts\.yaml:4:15/),
    ]);
  });

  it('refuses an unknown escalation mode and a level number beyond 4', () => {
    expect(errors('alertDefinitions:\n  - AlertName: A\n    escalationLevels:\n      - { Id: 5, EscalationMode: AlertOnErrors }\n')).toEqual([
      expect.stringMatching(/^alerts\.yaml:4:15 error OUT_OF_RANGE/),
      expect.stringMatching(/^alerts\.yaml:4:34 error INVALID_ENUM/),
    ]);
  });
});
