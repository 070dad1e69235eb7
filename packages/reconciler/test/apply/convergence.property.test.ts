/**
 * Convergence: for a random config tree and a random live account, one apply leaves nothing to plan, and a second
 * apply sends no write at all (the emulator's request log). Every kind takes part: monitors and their groups, the
 * vault, SLAs, reports, people (operators with duty schedules, operator groups with members, authorizations and
 * duty schedules, vault access; generators shared with the duty-schedule property, `people-trees.ts`), and alert
 * definitions by name with their levels, level members, level integrations and covered monitors and groups
 * (`alert-trees.ts`), which are then read back and compared with the tree, and RUM websites. One emulator serves every run, reset in
 * between. `MONSYNC_PROPERTY_RUNS` sets the number of runs (default 200; e.g. 2000 for a
 * long run).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MonitoringClient } from '@monsync/client';
import { SEEDED } from '@monsync/emulator';
import { ALERT_DEFINITION_KIND, KIND_ENTRIES, RUM_WEBSITE_KIND, VAULT_ACCESS_KIND } from '@monsync/schema';
import type { DesiredState } from '../../src/desired.js';
import { aGroup, aMonitor, anItem, anSla, aPeriod, aReport, aRumWebsite, aSection, desiredState, secret } from '../../src/test-utils/index.js';
import { expectConvergesInOneApply, useEmulatorHarness, type Harness } from './harness.js';
import { addChatIntegration, alertsDesiredArb, alertsLiveArb, buildAlertsDesired, buildAlertsLive, expectAlertingMatches } from './alert-trees.js';
import { buildPeopleDesired, buildPeopleLive, grantLiveAccess, OPERATOR_GROUPS, PEOPLE, peopleDesiredArb, peopleLiveArb, unique, type PeopleGuids } from './people-trees.js';

const RUNS = Number(process.env.MONSYNC_PROPERTY_RUNS ?? 200);

const MONITORS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
const GROUPS = ['Shop', 'Backend', 'Edge'];
const SECTIONS = ['Web', 'Api'];
/** The section whose access both sides draw. */
const ACCESS_SECTION = 'Web';
const ITEMS = ['login', 'token', 'cert'];
const SLAS = ['Gold', 'Silver'];
const PERIODS = ['Black Friday', 'Cyber Monday'];
const REPORTS = ['weekly', 'daily'];
const CONDITIONS = ['HttpStatus', 'LoadTimeLimit1', 'TotalMaxBytes'];
const WEBSITES = ['Shop', 'Docs'];
/** A RUM website's Url and flags, drawn alike on both sides: IncludeUrlFragment only with IsSpa, as the service takes it. */
const websiteFields = fc.record({ Url: fc.constantFrom('https://shop.example.com', 'https://www.example.com'), IsSpa: fc.boolean(), fragment: fc.boolean() });
const websiteOf = (description: string, f: { Url: string; IsSpa: boolean; fragment: boolean }) => ({ Description: description, Url: f.Url, IsSpa: f.IsSpa, IncludeUrlFragment: f.IsSpa && f.fragment });

/** The people kinds, from the registry: those of the operators and operatorGroups sections, and vault access. */
const PEOPLE_KINDS = new Set<string>(KIND_ENTRIES.filter((e) => e.section === 'operators' || e.section === 'operatorGroups' || e.kind === VAULT_ACCESS_KIND.kind).map((e) => e.kind));
/** The alerting kinds: definitions, their levels, covered monitors, level members and level integrations. */
const ALERTING_KINDS = new Set<string>(KIND_ENTRIES.filter((e) => e.section === ALERT_DEFINITION_KIND.section).map((e) => e.kind));
/** What alert definitions may name: the API account's operator besides the people drawn. */
const ALERT_NAMES = { monitors: MONITORS, monitorGroups: GROUPS, operators: [SEEDED.admin.email, ...PEOPLE], operatorGroups: OPERATOR_GROUPS };

const subset = <T>(values: readonly T[]) => fc.subarray([...values]);
const schedule = fc.constantFrom(
  { ScheduleType: 'Weekly', Time: '08:00:00', WeekDay: 'Monday' },
  { ScheduleType: 'Daily', Time: '06:30:00' },
  { ScheduleType: 'Monthly', Time: '07:00:00', MonthDay: 1 },
);

/** Field values both sides draw from, so that equal, changed and absent objects all happen often. */
const monitorFields = fc.record({
  IsActive: fc.boolean(),
  conditions: subset(CONDITIONS),
  value: fc.constantFrom('200', '4', '300'),
  UserAgent: fc.constantFrom('ChromeLatest', 'FirefoxLatest'),
});

const desiredArb = fc.record({
  prune: fc.record({ monitors: fc.boolean(), monitorGroups: fc.boolean(), vault: fc.boolean(), slas: fc.boolean(), scheduledReports: fc.boolean(), rumWebsites: fc.boolean() }),
  monitors: fc.array(fc.tuple(fc.constantFrom(...MONITORS), monitorFields, fc.option(fc.tuple(fc.constantFrom(...SECTIONS), fc.constantFrom(...ITEMS)), { nil: undefined })), { maxLength: 5 }),
  groups: fc.array(fc.tuple(fc.constantFrom(...GROUPS), fc.option(subset(MONITORS), { nil: undefined })), { maxLength: 3 }),
  sections: fc.array(fc.tuple(fc.constantFrom(...SECTIONS), fc.array(fc.tuple(fc.constantFrom(...ITEMS), fc.constantFrom('robot', 'bot'), fc.constantFrom('CANARY-prop-1', 'CANARY-prop-2')), { maxLength: 3 })), { maxLength: 2 }),
  slas: fc.array(fc.tuple(fc.constantFrom(...SLAS), fc.constantFrom(98, 99, 99.5), fc.option(subset(PERIODS), { nil: undefined })), { maxLength: 2 }),
  reports: fc.array(fc.tuple(fc.constantFrom(...REPORTS), fc.constantFrom('PDFAttachment', 'ExcelAttachment'), schedule), { maxLength: 2 }),
  websites: fc.array(fc.tuple(fc.constantFrom(...WEBSITES), websiteFields), { maxLength: 2 }),
  people: peopleDesiredArb,
  alerts: alertsDesiredArb(ALERT_NAMES),
});

const liveArb = fc.record({
  monitors: fc.array(fc.tuple(fc.constantFrom(...MONITORS), monitorFields), { maxLength: 5 }),
  groups: fc.array(fc.tuple(fc.constantFrom(...GROUPS), subset(MONITORS)), { maxLength: 3 }),
  sections: fc.array(fc.tuple(fc.constantFrom(...SECTIONS), fc.array(fc.tuple(fc.constantFrom(...ITEMS), fc.constantFrom('robot', 'bot')), { maxLength: 3 })), { maxLength: 2 }),
  slas: fc.array(fc.tuple(fc.constantFrom(...SLAS), fc.constantFrom(98, 99, 99.5), subset(PERIODS)), { maxLength: 2 }),
  reports: fc.array(fc.tuple(fc.constantFrom(...REPORTS), fc.constantFrom('PDFAttachment', 'ExcelAttachment'), schedule, fc.boolean()), { maxLength: 2 }),
  websites: fc.array(fc.tuple(fc.constantFrom(...WEBSITES), websiteFields), { maxLength: 2 }),
  people: peopleLiveArb,
  alerts: alertsLiveArb(ALERT_NAMES),
});

type DesiredInput = typeof desiredArb extends fc.Arbitrary<infer T> ? T : never;
type LiveInput = typeof liveArb extends fc.Arbitrary<infer T> ? T : never;

const periodOf = (name: string, i: number) => ({ Description: name, From: `2026-11-2${i}T00:00:00`, Until: `2026-11-2${i}T12:00:00` });
const conditionsOf = (f: { conditions: string[]; value: string }) => f.conditions.map((t) => ({ ErrorConditionType: t, Value: f.value }));

function buildDesired(input: DesiredInput): DesiredState {
  const people = buildPeopleDesired(input.people);
  // The Web section declares the access drawn (when drawn): its list is authoritative.
  const sections = unique(input.sections).map(([name, items]) =>
    aSection(
      { Name: name, ...(name === ACCESS_SECTION && people.access !== undefined ? { access: people.access } : {}) } as never,
      unique(items).map(([item, user, password]) => anItem({ Name: item, UserName: user, Password: secret(password, `PW_${name}_${item}`) })),
    ),
  );
  const declaredItems = new Set(unique(input.sections).flatMap(([name, items]) => items.map(([item]) => `${name}/${item}`)));
  const monitors = unique(input.monitors).map(([name, f, ref]) => {
    const vault = ref === undefined ? undefined : `${ref[0]}/${ref[1]}`;
    const variables = vault !== undefined && declaredItems.has(vault) ? [{ Key: 'login', Value: { vault } }] : [{ Key: 'path', Value: `/${name}` }];
    return aMonitor({ Name: name, IsActive: f.IsActive, UserAgent: f.UserAgent, ErrorConditions: conditionsOf(f), PredefinedVariables: variables });
  });
  const names = new Set(monitors.map((m) => m.value.Name));
  const groups = unique(input.groups).map(([description, members]) => aGroup({ Description: description, ...(members === undefined ? {} : { members: members.filter((m) => names.has(m)) }) }));
  const slas = unique(input.slas).map(([description, threshold, periods]) =>
    anSla({ Description: description, UptimeErrorThreshold: threshold, ...(periods === undefined ? {} : { exclusionPeriods: periods.map((p) => aPeriod(periodOf(p, PERIODS.indexOf(p)))) }) }),
  );
  const reports = unique(input.reports).map(([key, fileType, sched]) => aReport({ key, FileType: fileType, Schedule: sched }));
  const alerts = buildAlertsDesired(input.alerts, {
    monitors: [...names],
    monitorGroups: groups.map((g) => g.value.Description),
    operators: people.operators.map((o) => o.value.Email),
    operatorGroups: people.operatorGroups.map((g) => g.value.Description),
  });
  const manage = { ...Object.fromEntries(Object.entries(input.prune).map(([kind, prune]) => [kind, { prune }])), ...people.manage, ...alerts.manage };
  return desiredState({
    manage,
    safety: { maxDeletePercent: 100, maxUpdatePercent: 100 },
    vaultSections: sections,
    monitors,
    monitorGroups: groups,
    slas,
    scheduledReports: reports,
    rumWebsites: unique(input.websites).map(([description, f]) => aRumWebsite(websiteOf(description, f))),
    operators: people.operators,
    operatorGroups: people.operatorGroups,
    alertDefinitions: alerts.alertDefinitions,
  });
}

/** Creates the live account through the API, as another tool (or a person) would have. */
async function buildLive(client: MonitoringClient, input: LiveInput): Promise<void> {
  const people = await buildPeopleLive(client, input.people);
  const monitors = await buildLiveMonitors(client, input);
  await buildLiveVault(client, input, people);
  await buildLiveSlasAndReports(client, input);
  const operators = new Map([[SEEDED.admin.email, SEEDED.admin.guid], ...people.operators]);
  await buildAlertsLive(client, input.alerts, { ...monitors, operators, operatorGroups: people.groups });
}

/** Monitors and groups; their GUIDs by Name and Description. */
async function buildLiveMonitors(client: MonitoringClient, input: LiveInput): Promise<{ monitors: Map<string, string>; monitorGroups: Map<string, string> }> {
  const monitorGuids = new Map<string, string>();
  const groupGuids = new Map<string, string>();
  for (const [name, f] of unique(input.monitors)) {
    const created = await client.monitors.create({ Name: name, MonitorType: 'Https', IsActive: f.IsActive, UserAgent: f.UserAgent, ErrorConditions: conditionsOf(f) } as never);
    monitorGuids.set(name, String(created.MonitorGuid));
  }
  for (const [description, members] of unique(input.groups)) {
    const group = await client.monitorGroups.create({ Description: description } as never);
    groupGuids.set(description, String(group.MonitorGroupGuid));
    for (const m of members) {
      const guid = monitorGuids.get(m);
      if (guid !== undefined) await client.monitorGroups.addMember(String(group.MonitorGroupGuid), guid);
    }
  }
  return { monitors: monitorGuids, monitorGroups: groupGuids };
}

/** Sections with their items; Web is given the access drawn, besides its creator's. */
async function buildLiveVault(client: MonitoringClient, input: LiveInput, people: PeopleGuids): Promise<void> {
  for (const [name, items] of unique(input.sections)) {
    const section = await client.vaultSections.create({ Name: name } as never);
    if (name === ACCESS_SECTION) await grantLiveAccess(client, String(section.VaultSectionGuid), input.people.access, people);
    for (const [item, user] of unique(items)) {
      await client.vaultItems.create({ VaultSectionGuid: section.VaultSectionGuid, Name: item, VaultItemType: 'CredentialSet', UserName: user, Password: 'set-by-hand' } as never);
    }
  }
}

async function buildLiveSlasAndReports(client: MonitoringClient, input: LiveInput): Promise<void> {
  for (const [description, threshold, periods] of unique(input.slas)) {
    await client.slas.create({ Description: description, UptimeErrorThreshold: threshold, UptimeWarningThreshold: 99.9 } as never);
    const sla = (await client.slas.list().toArray()).find((s) => s.Description === description);
    for (const p of periods) await client.slas.exclusionPeriods.create(String(sla?.SlaGuid), periodOf(p, PERIODS.indexOf(p)) as never);
  }
  for (const [description, f] of unique(input.websites)) await client.rumWebsites.create(websiteOf(description, f));
  for (const [key, fileType, sched, marked] of unique(input.reports)) {
    await client.scheduledReports.create({
      DashboardGuid: 'b1d2c3e4-0000-4000-8000-000000000001',
      FileType: fileType,
      IsActive: true,
      Schedule: sched,
      InternalNotes: marked ? `monsync:key=${key}` : 'made by hand',
      Recipients: { ExtraEmailAddresses: ['ops@example.com'] },
    } as never);
  }
}

let h: Harness;
useEmulatorHarness((harness) => (h = harness));

describe('convergence (property)', () => {
  it(`one apply converges a random tree and account, and a second apply writes nothing (${RUNS} runs)`, { timeout: 900_000 }, async () => {
    let nonEmptyPlans = 0;
    let peoplePlans = 0;
    let websitePlans = 0;
    const alerting = { plans: 0, creates: 0, updates: 0, deletes: 0 };
    await fc.assert(
      fc.asyncProperty(desiredArb, liveArb, async (desiredInput, liveInput) => {
        await h.emulator.control.reset('empty');
        await addChatIntegration(h);
        await buildLive(h.client, liveInput);
        const desired = buildDesired(desiredInput);
        const plan = await expectConvergesInOneApply(h, desired);
        await expectAlertingMatches(h.client, desired);
        if (plan.steps.length > 0) nonEmptyPlans += 1;
        if (plan.steps.some((s) => PEOPLE_KINDS.has(s.kind))) peoplePlans += 1;
        if (plan.steps.some((s) => s.kind === RUM_WEBSITE_KIND.kind)) websitePlans += 1;
        const alertSteps = plan.steps.filter((s) => ALERTING_KINDS.has(s.kind));
        if (alertSteps.length > 0) alerting.plans += 1;
        for (const action of ['create', 'update', 'delete'] as const) if (alertSteps.some((s) => s.action === action)) alerting[`${action}s`] += 1;
      }),
      { numRuns: RUNS },
    );
    // The generators must reach real work, not only trees that already match, and people and alerting among it:
    // alerting steps that add, change and remove.
    expect(nonEmptyPlans).toBeGreaterThan(RUNS / 2);
    expect(peoplePlans).toBeGreaterThan(RUNS / 3);
    expect(websitePlans).toBeGreaterThan(RUNS / 4);
    expect(alerting.plans, JSON.stringify(alerting)).toBeGreaterThan(RUNS / 3);
    for (const action of ['creates', 'updates', 'deletes'] as const) expect(alerting[action], JSON.stringify(alerting)).toBeGreaterThan(RUNS / 10);
  });
});
