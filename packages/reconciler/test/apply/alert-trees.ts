/**
 * Alert definitions for the apply tests: random definitions by name (with their escalation levels, the members of a
 * level, the integrations attached to a level, and the monitors and groups they cover) on the config side and on the
 * account side, and the check that the account holds what the tree declares, read back through the client. The
 * convergence property and the fault suite draw from these.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { MonitoringClient } from '@monsync/client';
import { SEEDED } from '@monsync/emulator';
import type { AlertDefinitionConfig, Declared, EscalationLevelConfig, EscalationLevelIntegrationConfig } from '@monsync/schema';
import type { DesiredState } from '../../src/desired.js';
import { anAlertDefinition, at } from '../../src/test-utils/index.js';
import type { Harness } from './harness.js';
import { unique } from './people-trees.js';

/** The account's default definition among them, so adopting it happens as often as creating the others. */
export const ALERTS = ['Shop on-call', 'Backend pager', 'Default alerting'];
const DEFAULT_ALERT = 'Default alerting';
const LEVEL_IDS = [1, 2, 3] as const;
/** A chat integration set up in the web app (it takes variables per level); Email, SMS and Phone come with every account. */
export const CHAT = { IntegrationGuid: '7c4a1e20-5b9d-4f0e-8a61-2d3c4b5a6978', Name: 'Ops chat channel', Type: 'Slack', AllowsEscalationLevelVariables: true };
const EXTRA_EMAILS = ['oncall@example.com', 'ops@example.com'];

/** Puts the chat integration in the account (integrations are configured in the web app; the API cannot). */
export async function addChatIntegration(h: Harness): Promise<void> {
  const state = h.emulator.control.dump();
  if (state.integrations.some((i) => i['IntegrationGuid'] === CHAT.IntegrationGuid)) return;
  state.integrations.push({ ...CHAT });
  await h.emulator.control.load(state);
}

/**
 * An attached integration as both sides draw it: only settings its type takes (Phone sends no OK alerts; e-mail
 * addresses are Email's, variables the chat's), so every tree is one `validate` accepts.
 */
const integrationArb = fc.oneof(
  fc.record({ integration: fc.constant('Email'), ExtraEmailAddresses: fc.option(fc.subarray(EXTRA_EMAILS), { nil: undefined }), SendOkAlerts: fc.option(fc.boolean(), { nil: undefined }) }),
  fc.record({ integration: fc.constant('Phone'), SendReminderAlerts: fc.option(fc.boolean(), { nil: undefined }) }),
  fc.record({ integration: fc.constant(CHAT.Name), VariableValues: fc.option(fc.constantFrom({}, { channel: '#shop' }, { channel: '#ops' }), { nil: undefined }) }),
  fc.constant({ integration: 'SMS' }),
);
type IntegrationInput = typeof integrationArb extends fc.Arbitrary<infer T> ? T : never;

/** A level's fields: the threshold its mode reads, and some of the rest. */
const levelFieldsArb = fc.record({
  mode: fc.constantFrom('AlertOnErrorCount', 'AlertOnErrorDuration'),
  threshold: fc.constantFrom(1, 2, 5),
  IsActive: fc.boolean(),
  Message: fc.option(fc.constantFrom('', 'Shop is down', 'Wake the night shift'), { nil: undefined }),
  NumberOfReminders: fc.option(fc.constantFrom(0, 2), { nil: undefined }),
});
type LevelFields = typeof levelFieldsArb extends fc.Arbitrary<infer T> ? T : never;

const people = (operators: readonly string[], groups: readonly string[]) => fc.record({ operators: fc.subarray([...operators]), operatorGroups: fc.subarray([...groups]) });
const covered = (monitors: readonly string[], groups: readonly string[]) => fc.record({ monitors: fc.subarray([...monitors]), monitorGroups: fc.subarray([...groups]) });

/** The names both sides draw from: monitors, monitor groups, operators (by Email) and operator groups. */
export interface AlertNames {
  monitors: readonly string[];
  monitorGroups: readonly string[];
  operators: readonly string[];
  operatorGroups: readonly string[];
}

/** The config side: whether undeclared definitions are pruned, and definitions whose every list is optional. */
export function alertsDesiredArb(names: AlertNames) {
  const level = fc.tuple(
    fc.constantFrom(...LEVEL_IDS),
    levelFieldsArb,
    fc.option(people(names.operators, names.operatorGroups), { nil: undefined }),
    fc.option(fc.array(integrationArb, { maxLength: 2 }), { nil: undefined }),
  );
  const definition = fc.tuple(
    fc.constantFrom(...ALERTS),
    fc.boolean(),
    fc.option(covered(names.monitors, names.monitorGroups), { nil: undefined }),
    fc.option(fc.array(level, { maxLength: 3 }), { nil: undefined }),
  );
  // The default definition is sometimes declared in the older form, `{ AlertDefinitionGuid, IsActive }`.
  return fc.record({ prune: fc.boolean(), definitions: fc.array(definition, { maxLength: 2 }), olderForm: fc.boolean() });
}

/**
 * The account side: definitions (the default one edited, or others created) with levels set, members and
 * integrations; a name may differ from the tree's in case only (the service's names ignore case, so it is adopted).
 */
export function alertsLiveArb(names: AlertNames) {
  const level = fc.tuple(fc.constantFrom(...LEVEL_IDS), levelFieldsArb, people(names.operators, names.operatorGroups), fc.array(integrationArb, { maxLength: 2 }));
  const definition = fc.tuple(fc.constantFrom(...ALERTS, 'shop ON-CALL'), fc.boolean(), covered(names.monitors, names.monitorGroups), fc.array(level, { maxLength: 3 }));
  return fc.array(definition, { maxLength: 2 });
}

export type AlertsDesired = typeof alertsDesiredArb extends (names: AlertNames) => fc.Arbitrary<infer T> ? T : never;
export type AlertsLive = typeof alertsLiveArb extends (names: AlertNames) => fc.Arbitrary<infer T> ? T : never;

/** A level's API fields as drawn: the mode, its threshold field, and the optional ones drawn. */
function levelFields(f: LevelFields): Record<string, unknown> {
  return {
    EscalationMode: f.mode,
    [f.mode === 'AlertOnErrorCount' ? 'ThresholdErrorCount' : 'ThresholdMinutes']: f.mode === 'AlertOnErrorCount' ? f.threshold : f.threshold * 10,
    IsActive: f.IsActive,
    ...(f.Message === undefined ? {} : { Message: f.Message }),
    ...(f.NumberOfReminders === undefined ? {} : { NumberOfReminders: f.NumberOfReminders }),
  };
}

/** The settings an integration declares, undrawn ones left out. */
function linkFields(i: IntegrationInput): Record<string, unknown> {
  return Object.fromEntries(Object.entries(i).filter(([, v]) => v !== undefined));
}

const declared = <T>(value: T, seed: string): Declared<T> => ({ value, source: at('alerts.yaml', seed) });

/** A level as a tree declares it: its API fields, and optionally whom it reaches and the integrations attached. */
export interface LevelDeclaration {
  Id: number;
  fields: Record<string, unknown>;
  members?: { operators: string[]; operatorGroups: string[] };
  integrations?: Record<string, unknown>[];
}

/** An alert definition by name as the loader hands it over: each level and attached integration with its position. */
export function declaredDefinition(name: string, active: boolean, members: { monitors: string[]; monitorGroups: string[] } | undefined, levels: LevelDeclaration[] | undefined): Declared<AlertDefinitionConfig> {
  const value: Record<string, unknown> = { AlertName: name, IsActive: active };
  if (members !== undefined) value['members'] = members;
  if (levels !== undefined) {
    value['escalationLevels'] = levels.map((level) =>
      declared(
        {
          Id: level.Id,
          ...level.fields,
          ...(level.members === undefined ? {} : { members: level.members }),
          ...(level.integrations === undefined ? {} : { integrations: level.integrations.map((link) => declared(link as EscalationLevelIntegrationConfig, `${name}/${level.Id}/${String(link['integration'])}`)) }),
        } as EscalationLevelConfig,
        `${name}/${level.Id}`,
      ),
    );
  }
  return anAlertDefinition(value as never);
}

/**
 * The tree as `validate` accepts it: each definition, level number and integration of a level once, and references
 * only to what the tree declares (`declaredNames`: the monitors, groups, operators and operator groups it holds).
 */
export function buildAlertsDesired(input: AlertsDesired, declaredNames: AlertNames): { manage: { alertDefinitions: { prune: boolean } }; alertDefinitions: Declared<AlertDefinitionConfig>[] } {
  const keep = (list: readonly string[], among: readonly string[]) => list.filter((name) => among.includes(name));
  const alertDefinitions = unique(input.definitions).map(([name, active, members, levels]) =>
    name === DEFAULT_ALERT && input.olderForm
      ? { value: { AlertDefinitionGuid: SEEDED.alertDefinitions.default, IsActive: active } as AlertDefinitionConfig, source: at('alerts.yaml', name) }
      : declaredDefinition(
      name,
      active,
      members === undefined ? undefined : { monitors: keep(members.monitors, declaredNames.monitors), monitorGroups: keep(members.monitorGroups, declaredNames.monitorGroups) },
      levels === undefined
        ? undefined
        : unique(levels).map(([Id, fields, reached, integrations]) => ({
            Id,
            fields: levelFields(fields),
            ...(reached === undefined ? {} : { members: { operators: keep(reached.operators, declaredNames.operators), operatorGroups: keep(reached.operatorGroups, declaredNames.operatorGroups) } }),
            ...(integrations === undefined ? {} : { integrations: unique(integrations.map((i) => [i.integration, i] as const)).map(([, i]) => linkFields(i)) }),
          })),
    ),
  );
  return { manage: { alertDefinitions: { prune: input.prune } }, alertDefinitions };
}

/** The GUIDs the account's builders made, by name (monitors by Name, groups by Description, operators by Email). */
export interface LiveGuids {
  monitors: ReadonlyMap<string, string>;
  monitorGroups: ReadonlyMap<string, string>;
  operators: ReadonlyMap<string, string>;
  operatorGroups: ReadonlyMap<string, string>;
}

/** What attaching sends besides the drawn settings: the write-only ones the service requires, as the type allows. */
function attachBody(i: IntegrationInput, guid: string): Record<string, unknown> {
  const sendsOk = i.integration !== 'Phone';
  const drawn = linkFields(i);
  delete drawn['integration'];
  return { IntegrationGuid: guid, IsActive: true, SendOkAlerts: sendsOk, SendReminderAlerts: true, ...drawn };
}

/** Creates the definitions through the API, as another tool (or a person in the web app) would have; skips what is not there. */
export async function buildAlertsLive(client: MonitoringClient, input: AlertsLive, guids: LiveGuids): Promise<void> {
  const c = client.alertDefinitions;
  const integrations = new Map((await client.integrations.list().toArray()).map((i) => [String(i.Name), String(i.IntegrationGuid)]));
  // One definition of a name, whatever its case: two would be the error of two live objects behind one key.
  for (const [, [name, active, members, levels]] of unique(input.map((d) => [d[0].toLowerCase(), d] as const))) {
    const guid = name === DEFAULT_ALERT ? SEEDED.alertDefinitions.default : String((await c.create({ AlertName: name, IsActive: active })).AlertDefinitionGuid);
    if (name === DEFAULT_ALERT) await c.patch(guid, { IsActive: active });
    for (const m of members.monitors) if (guids.monitors.has(m)) await c.members.addMonitor(guid, guids.monitors.get(m) as string);
    for (const g of members.monitorGroups) if (guids.monitorGroups.has(g)) await c.members.addMonitorGroup(guid, guids.monitorGroups.get(g) as string);
    for (const [id, fields, reached, links] of unique(levels)) {
      const current = await c.escalationLevels.get(guid, id);
      await c.escalationLevels.patch(guid, id, { ...current, ...levelFields(fields), Id: id } as never);
      for (const email of reached.operators) if (guids.operators.has(email)) await c.escalationLevels.members.addOperator(guid, id, guids.operators.get(email) as string);
      for (const group of reached.operatorGroups) if (guids.operatorGroups.has(group)) await c.escalationLevels.members.addOperatorGroup(guid, id, guids.operatorGroups.get(group) as string);
      for (const [, link] of unique(links.map((i) => [i.integration, i] as const))) {
        const integration = integrations.get(link.integration);
        if (integration !== undefined) await c.integrations.link(guid, id, attachBody(link, integration) as never);
      }
    }
  }
}

const sortedNames = (names: Iterable<string>): string[] => [...names].sort();
const emails = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' && value !== '' ? value.split(',').map((e) => e.trim()) : []);

/**
 * The account holds what the tree declares, read back through the client (not through the planner, which could be
 * wrong the same way twice): each declared definition once, with its declared fields, covered monitors and groups,
 * levels with their declared fields, members and integrations (the settings that can be read); with `prune`, no
 * other definition.
 */
export async function expectAlertingMatches(client: MonitoringClient, desired: DesiredState): Promise<void> {
  if (desired.settings.manage.alertDefinitions === undefined) return;
  const c = client.alertDefinitions;
  const live = await c.list().toArray();
  const nameOf = {
    monitor: new Map((await client.monitors.list().toArray()).map((m) => [String(m.MonitorGuid).toLowerCase(), String(m.Name)])),
    group: new Map((await client.monitorGroups.list().toArray()).map((g) => [String(g.MonitorGroupGuid).toLowerCase(), String(g.Description)])),
    operator: new Map((await client.operators.list().toArray()).map((o) => [String(o.OperatorGuid).toLowerCase(), String(o.Email)])),
    team: new Map((await client.operatorGroups.list().toArray()).map((g) => [String(g.OperatorGroupGuid).toLowerCase(), String(g.Description)])),
    integration: new Map((await client.integrations.list().toArray()).map((i) => [String(i.IntegrationGuid).toLowerCase(), String(i.Name)])),
  };
  const named = (map: Map<string, string>, guid: unknown): string => map.get(String(guid).toLowerCase()) ?? `unknown ${String(guid)}`;
  // A definition of the older form is the one its GUID names.
  const declares = (d: (typeof live)[number], value: AlertDefinitionConfig): boolean =>
    value.AlertName === undefined ? String(d.AlertDefinitionGuid).toLowerCase() === String(value.AlertDefinitionGuid).toLowerCase() : d.AlertName === value.AlertName;
  if (desired.settings.manage.alertDefinitions.prune) {
    expect(live.filter((d) => !desired.alertDefinitions.some(({ value }) => declares(d, value))).map((d) => d.AlertName)).toEqual([]);
  }
  for (const { value } of desired.alertDefinitions) {
    const found = live.filter((d) => declares(d, value));
    expect(found, `alert definition ${String(value.AlertName ?? value.AlertDefinitionGuid)}`).toHaveLength(1);
    const guid = String(found[0]?.AlertDefinitionGuid);
    expect(found[0]?.IsActive, `${String(value.AlertName)} IsActive`).toBe(value.IsActive);
    if (value.members !== undefined) {
      const listed = await c.members.list(guid).toArray();
      const names = listed.map((m) => (m.MonitorGuid !== undefined ? `monitor:${named(nameOf.monitor, m.MonitorGuid)}` : `monitorGroup:${named(nameOf.group, m.MonitorGroupGuid)}`));
      const wanted = [...(value.members.monitors ?? []).map((m) => `monitor:${m}`), ...(value.members.monitorGroups ?? []).map((g) => `monitorGroup:${g}`)];
      expect(sortedNames(names), `${String(value.AlertName)} covers`).toEqual(sortedNames(wanted));
    }
    const levels = await c.escalationLevels.list(guid).toArray();
    for (const { value: level } of value.escalationLevels ?? []) {
      const where = `${String(value.AlertName)} level ${level.Id}`;
      const fields = Object.fromEntries(Object.entries(level).filter(([k]) => /^[A-Z]/.test(k)));
      expect(levels.find((l) => l.Id === level.Id), where).toMatchObject(fields);
      if (level.members !== undefined) {
        const listed = await c.escalationLevels.members.list(guid, level.Id).toArray();
        const names = listed.map((m) => (m.OperatorGuid !== undefined ? `operator:${named(nameOf.operator, m.OperatorGuid).toLowerCase()}` : `operatorGroup:${named(nameOf.team, m.OperatorGroupGuid)}`));
        const wanted = [...(level.members.operators ?? []).map((o) => `operator:${o.toLowerCase()}`), ...(level.members.operatorGroups ?? []).map((g) => `operatorGroup:${g}`)];
        expect(sortedNames(names), `${where} reaches`).toEqual(sortedNames(wanted));
      }
      if (level.integrations !== undefined) {
        const links = await c.integrations.list(guid, level.Id).toArray();
        const readable = links.map((l) => ({ integration: named(nameOf.integration, l.IntegrationGuid), emails: sortedNames(emails(l.ExtraEmailAddresses)), variables: l.VariableValues ?? {} }));
        expect(sortedNames(readable.map((l) => l.integration)), `${where} integrations`).toEqual(sortedNames(level.integrations.map((i) => i.value.integration)));
        for (const { value: link } of level.integrations) {
          const got = readable.find((l) => l.integration === link.integration);
          if (link.ExtraEmailAddresses !== undefined) expect(got?.emails, `${where} ${link.integration} ExtraEmailAddresses`).toEqual(sortedNames(link.ExtraEmailAddresses as string[]));
          // As every declared object: the variables listed hold their values; others the attachment has are left
          // as they are (packages/cli/README.md, alert definitions).
          if (link.VariableValues !== undefined) expect(got?.variables, `${where} ${link.integration} VariableValues`).toMatchObject(link.VariableValues);
        }
      }
    }
  }
}

/** Alert definitions by name, and each integration of a level (attached at most once), for the duplicate check. */
export async function alertDuplicates(client: MonitoringClient, add: (key: string) => void): Promise<void> {
  for (const d of await client.alertDefinitions.list().toArray()) {
    add(`alertDefinition:${String(d.AlertName).toLowerCase()}`);
    const guid = String(d.AlertDefinitionGuid);
    for (const level of await client.alertDefinitions.escalationLevels.list(guid).toArray()) {
      for (const link of await client.alertDefinitions.integrations.list(guid, level.Id).toArray()) add(`escalationLevelIntegration:${String(d.AlertName)}/${level.Id}/${String(link.IntegrationGuid)}`);
      for (const m of await client.alertDefinitions.escalationLevels.members.list(guid, level.Id).toArray()) add(`escalationLevelMember:${String(d.AlertName)}/${level.Id}/${String(m.OperatorGuid ?? m.OperatorGroupGuid)}`);
    }
    for (const m of await client.alertDefinitions.members.list(guid).toArray()) add(`alertDefinitionMember:${String(d.AlertName)}/${String(m.MonitorGuid ?? m.MonitorGroupGuid)}`);
  }
}
