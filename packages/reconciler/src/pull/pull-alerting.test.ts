import { describe, expect, it } from 'vitest';
import { pulledTree, type PulledSnapshot } from './pull-tree.js';

type ApiObject = Record<string, unknown>;

const LEVEL = { EscalationMode: 'AlertOnErrorCount', ThresholdErrorCount: 1, ThresholdMinutes: 15, IsActive: true, Message: '', NumberOfReminders: 0, ReminderDelay: 30, IncludeTraceRoute: false, Hash: 'h' };

/** An account with one definition covering a monitor and a group, whose level 1 reaches an operator and a group. */
function account(overrides: { perParent?: Record<string, Record<string, ApiObject[]>>; definitions?: ApiObject[]; integrations?: ApiObject[] } = {}): PulledSnapshot {
  return {
    lists: {
      monitor: [{ MonitorGuid: 'm-1', Name: 'Status page' }],
      monitorGroup: [
        { MonitorGroupGuid: 'g-all', Description: 'All Monitors', IsAll: true },
        { MonitorGroupGuid: 'g-1', Description: 'Shop' },
      ],
      operator: [{ OperatorGuid: 'o-1', Email: 'sam@example.com' }],
      operatorGroup: [
        { OperatorGroupGuid: 'og-everyone', Description: 'Everyone', IsEveryone: true },
        { OperatorGroupGuid: 'og-1', Description: 'Night shift' },
      ],
      alertDefinition: overrides.definitions ?? [{ AlertDefinitionGuid: 'd-1', AlertName: 'Shop on-call', IsActive: true, Hash: 'h' }],
    },
    perParent: {
      alertDefinitionMember: { 'd-1': [{ MonitorGuid: 'm-1' }, { MonitorGroupGuid: 'g-1' }] },
      escalationLevel: { 'd-1': [{ Id: 2, ...LEVEL, IsActive: false }, { Id: 1, ...LEVEL }] },
      escalationLevelMember: { 'd-1/1': [{ OperatorGroupGuid: 'og-1' }, { OperatorGuid: 'o-1' }], 'd-1/2': [] },
      escalationLevelIntegration: { 'd-1/1': [{ IntegrationGuid: 'i-2', ExtraEmailAddresses: ['a@example.com'] }, { IntegrationGuid: 'i-1', VariableValues: { channel: '#shop' } }], 'd-1/2': [] },
      ...overrides.perParent,
    },
    integrations: overrides.integrations ?? [
      { IntegrationGuid: 'i-1', Name: 'Ops chat', Type: 'Slack' },
      { IntegrationGuid: 'i-2', Name: 'Email', Type: 'Email' },
    ],
  };
}

const data = (snapshot: PulledSnapshot) => pulledTree(snapshot).data['alertDefinitions'] as ApiObject[];

describe('pull: alert definitions', () => {
  it('names what a definition covers and whom each level reaches, levels by Id, integrations by name, read-only fields and empty text left out', () => {
    const tree = pulledTree(account());
    expect(tree.data['alertDefinitions']).toEqual([
      {
        AlertName: 'Shop on-call',
        IsActive: true,
        members: { monitorGroups: ['Shop'], monitors: ['Status page'] },
        escalationLevels: [
          {
            Id: 1,
            EscalationMode: 'AlertOnErrorCount',
            ThresholdErrorCount: 1,
            ThresholdMinutes: 15,
            IsActive: true,
            NumberOfReminders: 0,
            ReminderDelay: 30,
            IncludeTraceRoute: false,
            members: { operators: ['sam@example.com'], operatorGroups: ['Night shift'] },
            integrations: [
              { integration: 'Email', ExtraEmailAddresses: ['a@example.com'] },
              { integration: 'Ops chat', VariableValues: { channel: '#shop' } },
            ],
          },
          { Id: 2, EscalationMode: 'AlertOnErrorCount', ThresholdErrorCount: 1, ThresholdMinutes: 15, IsActive: false, NumberOfReminders: 0, ReminderDelay: 30, IncludeTraceRoute: false, members: {}, integrations: [] },
        ],
      },
    ]);
    expect(tree.unread.map(({ where, fields }) => `${where}: ${fields.join(', ')}`)).toEqual([
      'alert definition "Shop on-call", level 1, integration "Email": IsActive, SendOkAlerts, SendReminderAlerts',
      'alert definition "Shop on-call", level 1, integration "Ops chat": IsActive, SendOkAlerts, SendReminderAlerts',
    ]);
    expect(tree.files.find((file) => file.path === 'alert-definitions.yaml')?.content).not.toMatch(/SendOkAlerts:|SendReminderAlerts:|Hash|d-1/);
    expect(tree.files.find((file) => file.path === 'monsync.yaml')?.content).toContain('alertDefinitions: { prune: false }');
    expect(tree.alertDefinitionsByGuid.get('d-1')).toBe((tree.data['alertDefinitions'] as ApiObject[])[0]);
  });

  it('never invents a write-only setting, even when an answer carries one', () => {
    const snapshot = account({ perParent: { escalationLevelIntegration: { 'd-1/1': [{ IntegrationGuid: 'i-1', IsActive: false, SendOkAlerts: true, SendReminderAlerts: false }], 'd-1/2': [] } } });
    const levels = data(snapshot)[0]?.['escalationLevels'] as ApiObject[];
    expect(levels[0]?.['integrations']).toEqual([{ integration: 'Ops chat' }]);
  });

  it('leaves out a list a tree cannot declare whole (a member it cannot name, the All Monitors group, Everyone), with a note: written without it, the list would remove it', () => {
    const snapshot = account({
      perParent: {
        alertDefinitionMember: { 'd-1': [{ MonitorGroupGuid: 'g-all' }, { MonitorGuid: 'm-1' }] },
        escalationLevelMember: { 'd-1/1': [{ OperatorGroupGuid: 'og-everyone' }], 'd-1/2': [{ OperatorGuid: 'not-listed' }] },
      },
    });
    const tree = pulledTree(snapshot);
    const [definition] = tree.data['alertDefinitions'] as ApiObject[];
    expect(definition).not.toHaveProperty('members');
    const levels = definition?.['escalationLevels'] as ApiObject[];
    expect(levels.map((level) => 'members' in level)).toEqual([false, false]);
    expect(tree.notes).toEqual([
      'alert definition "Shop on-call": a member (g-all) is not one a tree can name; its members are left out of the tree',
      'alert definition "Shop on-call", level 1: a member (og-everyone) is not one a tree can name; its members are left out of the tree',
      'alert definition "Shop on-call", level 2: a member (not-listed) is not one a tree can name; its members are left out of the tree',
    ]);
  });

  it('leaves out the integrations of a level when one has no name of its own, and definitions whose name is shared (the service ignores case)', () => {
    const tree = pulledTree(
      account({
        definitions: [
          { AlertDefinitionGuid: 'd-1', AlertName: 'Shop on-call', IsActive: true },
          { AlertDefinitionGuid: 'd-2', AlertName: 'Pager', IsActive: true },
          { AlertDefinitionGuid: 'd-3', AlertName: 'pager', IsActive: false },
        ],
        integrations: [
          { IntegrationGuid: 'i-1', Name: 'Ops chat', Type: 'Slack' },
          { IntegrationGuid: 'i-2', Name: 'ops chat', Type: 'Slack' },
        ],
      }),
    );
    expect((tree.data['alertDefinitions'] as ApiObject[]).map((d) => d['AlertName'])).toEqual(['Shop on-call']);
    const levels = (tree.data['alertDefinitions'] as ApiObject[])[0]?.['escalationLevels'] as ApiObject[];
    expect(levels[0]).not.toHaveProperty('integrations');
    expect(tree.unread).toEqual([]);
    expect(tree.notes).toContain('2 live alert definitions are named "pager" (the service ignores case): a tree names each once, so they are left out; rename all but one in the web app');
    expect(tree.notes).toContain(
      'alert definition "Shop on-call", level 1: 2 integrations are named "ops chat", so a tree cannot name it; the level\'s integrations are left out of the tree (rename it in the web app)',
    );
  });

  it('writes no member, level or integration list whose listing was not read (pull --into reads them only where it needs them)', () => {
    const snapshot: PulledSnapshot = { lists: account().lists, perParent: { escalationLevel: { 'd-1': [{ Id: 1, ...LEVEL }] } } };
    expect(data(snapshot)).toEqual([{ AlertName: 'Shop on-call', IsActive: true, escalationLevels: [{ Id: 1, EscalationMode: 'AlertOnErrorCount', ThresholdErrorCount: 1, ThresholdMinutes: 15, IsActive: true, NumberOfReminders: 0, ReminderDelay: 30, IncludeTraceRoute: false }] }]);
  });
});
