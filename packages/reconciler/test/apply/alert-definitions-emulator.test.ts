/**
 * Alert definitions by name against the emulator, under every profile (`MONSYNC_EMULATOR_PROFILE`): definitions,
 * their escalation levels, the monitors and groups they cover, the operators and groups of each level and the
 * integrations attached to a level are planned and applied like every other kind, and converge in one apply.
 */
import { SEEDED } from '@monsync/emulator';
import { loadConfigTexts } from '@monsync/schema';
import { describe, expect, it } from 'vitest';
import type { DesiredState } from '../../src/desired.js';
import { PlanError } from '../../src/plan/errors.js';
import { applyWith, describeSteps as allSteps, expectConvergesInOneApply, planAgainst, type Harness, useEmulatorHarness, writeRequests } from './harness.js';

let h: Harness;
/** The alerting steps of a plan (the people and monitors the trees name are planned too). */
const describeSteps = (plan: Parameters<typeof allSteps>[0]): string[] => allSteps(plan).filter((s) => /(alertDefinition|escalationLevel)/.test(s));
useEmulatorHarness((harness) => (h = harness));

const SETTINGS = 'apiVersion: monsync/v1\nmanage:\n  monitors: { prune: false }\n  monitorGroups: { prune: false }\n  operators: { prune: false }\n  operatorGroups: { prune: false }\n  alertDefinitions: { prune: false }\n';
const PEOPLE = `
operators:
  - { Email: ${SEEDED.admin.email}, FullName: Demo Administrator }
  - { Email: sam.ops@example.com, FullName: Sam Ops }
  - { Email: nina@example.com, FullName: Nina }
operatorGroups:
  - { Description: Night shift, members: [sam.ops@example.com] }
monitorGroups:
  - { Description: Shop, members: [Status page] }
monitors:
  - { Name: Status page, MonitorType: Https, Url: "https://status.example.com/" }
`;

function tree(alerts: string, extra: Record<string, string> = {}): DesiredState {
  const { desired, diagnostics } = loadConfigTexts('/tmp/alerting-tree', [
    { file: 'monsync.yaml', text: SETTINGS },
    { file: 'people.yaml', text: PEOPLE },
    { file: 'alerts.yaml', text: alerts },
    ...Object.entries(extra).map(([file, text]) => ({ file, text })),
  ]);
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return desired;
}

const SHOP = `alertDefinitions:
  - AlertName: Shop on-call
    IsActive: true
    members: { monitorGroups: [Shop], monitors: [Status page] }
    escalationLevels:
      - Id: 1
        EscalationMode: AlertOnErrorCount
        ThresholdErrorCount: 2
        IsActive: true
        members: { operators: [sam.ops@example.com], operatorGroups: [Night shift] }
        integrations:
          - { integration: Email, ExtraEmailAddresses: [oncall@example.com], IsActive: true, SendOkAlerts: true, SendReminderAlerts: false }
      - { Id: 2, EscalationMode: AlertOnErrorDuration, ThresholdMinutes: 30, IsActive: true, members: { operators: [nina@example.com] } }
`;

async function liveDefinition(name: string): Promise<{ guid: string; levels: Record<string, unknown>[]; members: unknown[]; level1: unknown[]; links: unknown[] }> {
  const c = h.client.alertDefinitions;
  const definition = (await c.list().toArray()).find((d) => d.AlertName === name);
  const guid = String(definition?.AlertDefinitionGuid);
  return {
    guid,
    levels: await c.escalationLevels.list(guid).toArray(),
    members: await c.members.list(guid).toArray(),
    level1: await c.escalationLevels.members.list(guid, 1).toArray(),
    links: await c.integrations.list(guid, 1).toArray(),
  };
}

describe('alert definitions by name, against the emulator', () => {
  it('creates a definition after what it names, then its levels, members and integrations, and converges in one apply', async () => {
    const plan = await expectConvergesInOneApply(h, tree(SHOP));
    const steps = allSteps(plan);
    const at = (id: string) => steps.indexOf(id);
    expect(at('create alertDefinition:Shop on-call')).toBeGreaterThan(at('create monitor:Status page'));
    expect(at('create alertDefinition:Shop on-call')).toBeGreaterThan(at('create operator:nina@example.com'));
    expect(at('create escalationLevel:Shop on-call/1')).toBeGreaterThan(at('create alertDefinition:Shop on-call'));
    expect(steps).toEqual(
      expect.arrayContaining([
        'create alertDefinitionMember:Shop on-call/monitorGroup:Shop',
        'create alertDefinitionMember:Shop on-call/monitor:Status page',
        'create escalationLevelMember:Shop on-call/1/operator:sam.ops@example.com',
        'create escalationLevelMember:Shop on-call/1/operatorGroup:Night shift',
        'create escalationLevelMember:Shop on-call/2/operator:nina@example.com',
        'create escalationLevelIntegration:Shop on-call/1/Email',
      ]),
    );
    const live = await liveDefinition('Shop on-call');
    expect(live.levels[0]).toMatchObject({ Id: 1, EscalationMode: 'AlertOnErrorCount', ThresholdErrorCount: 2, IsActive: true });
    expect(live.levels[1]).toMatchObject({ Id: 2, EscalationMode: 'AlertOnErrorDuration', ThresholdMinutes: 30, IsActive: true });
    expect(live.members).toHaveLength(2);
    expect(live.level1).toHaveLength(2);
    expect(live.links).toEqual([{ IntegrationGuid: SEEDED.integrations.email, ExtraEmailAddresses: ['oncall@example.com'] }]);
  });

  it('adopts the default definition by its name instead of creating a second one', async () => {
    const plan = await planAgainst(h, tree('alertDefinitions:\n  - { AlertName: Default alerting, IsActive: false }\n'));
    expect(describeSteps(plan)).toEqual(['update alertDefinition:Default alerting']);
    await applyWith(h, plan, tree('alertDefinitions:\n  - { AlertName: Default alerting, IsActive: false }\n'));
    expect((await h.client.alertDefinitions.get(SEEDED.alertDefinitions.default)).IsActive).toBe(false);
    expect(await h.client.alertDefinitions.list().toArray()).toHaveLength(1);
  });

  it('sends a level as its complete body, and adds and removes members one by one', async () => {
    await expectConvergesInOneApply(h, tree(SHOP));
    const changed = SHOP.replace('ThresholdErrorCount: 2', 'ThresholdErrorCount: 5').replace('monitors: [Status page]', 'monitors: []').replace('operatorGroups: [Night shift]', 'operatorGroups: []');
    const desired = tree(changed);
    const plan = await planAgainst(h, desired);
    expect(describeSteps(plan)).toEqual([
      'update escalationLevel:Shop on-call/1',
      'delete escalationLevelMember:Shop on-call/1/operatorGroup:Night shift',
      'delete alertDefinitionMember:Shop on-call/monitor:Status page',
    ]);
    const levels = h.client.alertDefinitions.escalationLevels;
    const sent: object[] = [];
    const writer = { ...h.client, alertDefinitions: { ...h.client.alertDefinitions, escalationLevels: { ...levels, patch: (g: string, n: string | number, body: Parameters<typeof levels.patch>[2]) => (sent.push(body), levels.patch(g, n, body)) } } };
    expect((await applyWith({ ...h, writer }, plan, desired)).failed).toEqual([]);
    expect(sent).toHaveLength(1);
    expect(Object.keys(sent[0] ?? {}).sort()).toEqual(['EscalationMode', 'Id', 'IncludeTraceRoute', 'IsActive', 'Message', 'NumberOfReminders', 'ReminderDelay', 'ThresholdErrorCount', 'ThresholdMinutes']);
    expect(describeSteps(await planAgainst(h, desired))).toEqual([]);
  });

  it('never reports the write-only settings of an attached integration as drift, and says they cannot be read back', async () => {
    await expectConvergesInOneApply(h, tree(SHOP));
    const plan = await planAgainst(h, tree(SHOP.replace('SendOkAlerts: true', 'SendOkAlerts: false')));
    expect(describeSteps(plan)).toEqual([]);
    expect(plan.warnings.map((w) => w.code)).toContain('WRITE_ONLY_SETTINGS');
  });

  it('sends every write-only setting a link leaves out, as the type allows (the service requires all three when attaching)', async () => {
    const bare = SHOP.replace('{ integration: Email, ExtraEmailAddresses: [oncall@example.com], IsActive: true, SendOkAlerts: true, SendReminderAlerts: false }', '{ integration: Email }\n          - { integration: Phone, SendReminderAlerts: false }');
    const desired = tree(bare);
    const plan = await planAgainst(h, desired);
    const integrations = h.client.alertDefinitions.integrations;
    const sent: Record<string, unknown>[] = [];
    const link = (g: string, n: string | number, body: Parameters<typeof integrations.link>[2]) => (sent.push({ ...body }), integrations.link(g, n, body));
    const writer = { ...h.client, alertDefinitions: { ...h.client.alertDefinitions, integrations: { ...integrations, link } } };
    expect((await applyWith({ ...h, writer }, plan, desired)).failed).toEqual([]);
    const settings = sent.map(({ IntegrationGuid, IsActive, SendOkAlerts, SendReminderAlerts }) => ({ IntegrationGuid, IsActive, SendOkAlerts, SendReminderAlerts }));
    expect(settings).toHaveLength(2);
    expect(settings).toEqual(
      expect.arrayContaining([
        { IntegrationGuid: SEEDED.integrations.email, IsActive: true, SendOkAlerts: true, SendReminderAlerts: true },
        { IntegrationGuid: SEEDED.integrations.phone, IsActive: true, SendOkAlerts: false, SendReminderAlerts: false },
      ]),
    );
    expect(describeSteps(await planAgainst(h, desired))).toEqual([]);
  });

  it('deletes a pruned definition after its members, in one DELETE', async () => {
    await expectConvergesInOneApply(h, tree(SHOP));
    const desired = tree('alertDefinitions: []\n', { 'monsync.yaml': SETTINGS.replace('alertDefinitions: { prune: false }', 'alertDefinitions: { prune: true }') });
    const plan = await planAgainst(h, { ...desired, settings: { ...desired.settings, safety: { ...desired.settings.safety, maxDeletePercent: 100, maxUpdatePercent: 100 } } });
    expect(describeSteps(plan)).toEqual(['delete alertDefinition:Default alerting', 'delete alertDefinition:Shop on-call']);
  });

  it('refuses, before any write, a level the account does not have, an unknown integration and a setting its type refuses', async () => {
    const bad = SHOP.replace('- { Id: 2,', '- { Id: 4,').replace('integration: Email, ExtraEmailAddresses: [oncall@example.com], IsActive: true, SendOkAlerts: true', 'integration: Phone, ExtraEmailAddresses: [oncall@example.com], IsActive: true, SendOkAlerts: true');
    h.emulator.control.clearLog();
    const error = await planAgainst(h, tree(bad)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlanError);
    const problems = (error as PlanError).problems.map((p) => `${p.code} ${p.file}:${p.line}`);
    expect(problems).toEqual(['INTEGRATION_SETTING_REFUSED alerts.yaml:12', 'INTEGRATION_SETTING_REFUSED alerts.yaml:12', 'UNKNOWN_ESCALATION_LEVEL alerts.yaml:13']);
    expect((error as PlanError).message).toMatch(/refuses SendOkAlerts: a Phone integration sends no OK alerts/);
    const unknown = await planAgainst(h, tree(SHOP.replace('integration: Email', 'integration: Pager'))).catch((e: unknown) => e);
    expect((unknown as PlanError).message).toMatch(/integration "Pager" names no integration of the account/);
    const noMonitor = await planAgainst(h, tree(SHOP.replace('monitors: [Status page]', 'monitors: [Nowhere]'))).catch((e: unknown) => e);
    expect((noMonitor as PlanError).problems[0]).toMatchObject({ code: 'UNRESOLVED_REFERENCE', file: 'alerts.yaml', line: 2 });
    expect(writeRequests(h)).toEqual([]);
  });

  it('keeps applying the older form { AlertDefinitionGuid, IsActive }, as an update of IsActive only', async () => {
    const desired = tree(`alertDefinitions:\n  - { AlertDefinitionGuid: ${SEEDED.alertDefinitions.default}, IsActive: false }\n`);
    const plan = await expectConvergesInOneApply(h, desired);
    expect(describeSteps(plan)).toEqual([`update alertDefinition:${SEEDED.alertDefinitions.default}`]);
    expect((await h.client.alertDefinitions.get(SEEDED.alertDefinitions.default)).IsActive).toBe(false);
  });
});
