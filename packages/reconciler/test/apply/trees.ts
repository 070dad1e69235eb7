/** Config trees shared by the apply tests, and the checks they make on the account afterwards. */
import type { DesiredState } from '../../src/desired.js';
import { splitMarker } from '../../src/plan/markers.js';
import { SEEDED } from '@monsync/emulator';
import { aGroup, aMonitor, anItem, anOperator, anOperatorGroup, anSla, aPeriod, aReport, aRumWebsite, aSection, desiredState, secret } from '../../src/test-utils/index.js';
import type { Harness } from './harness.js';
import { alertDuplicates, CHAT, declaredDefinition } from './alert-trees.js';
import { peopleDuplicates } from './people-trees.js';

export const PRUNE_ALL = { monitors: { prune: true }, monitorGroups: { prune: true }, vault: { prune: true }, slas: { prune: true }, scheduledReports: { prune: true }, rumWebsites: { prune: true } };
/** Also operators and groups: a tree with this declares the seeded operators (`seededOperators`), or pruning would delete the API account's. */
export const PRUNE_ALL_WITH_PEOPLE = { ...PRUNE_ALL, operators: { prune: true }, operatorGroups: { prune: true } };
const NO_LIMITS = { maxDeletePercent: 100, maxUpdatePercent: 100 };

/** The operators every emulator account starts with (the API account's and a viewer's): declared, so pruning keeps them. */
export const seededOperators = () => [anOperator({ Email: SEEDED.admin.email }), anOperator({ Email: SEEDED.viewer.email })];

/**
 * The people of the fleet: operators with their own duty schedules and authorizations, a group with members,
 * authorizations and a duty schedule (copied onto each member), access to the Web section. `variant` 1 renames and
 * reschedules one operator and changes its authorizations, deletes another (and the group it alone was in), creates a
 * third (whose list leaves out the AccountAccess the service gives it), changes the group's members, authorizations
 * and schedule, and changes the section's access.
 */
function fleetPeople(variant: 0 | 1, secretValue: string) {
  const operators = [
    ...seededOperators(),
    anOperator({
      Email: 'ann@example.com',
      FullName: variant === 0 ? 'Ann' : 'Ann B.',
      TimeZoneId: 3,
      dutySchedules: [{ ScheduleMode: 'Daily', StartTime: `0${8 + variant}:00`, EndTime: '17:00' }],
      authorizations: variant === 0 ? ['AccountAccess', 'TechnicalContact'] : ['AccountAccess', 'ShareDashboards'],
    } as never),
    variant === 0
      ? anOperator({ Email: 'bob@example.com', dutySchedules: [{ ScheduleMode: 'Weekly', WeekDay: 'Saturday', StartTime: '00:00', EndTime: '00:00' }] } as never)
      : anOperator({ Email: 'cat@example.com', FullName: 'Cat', Password: secret(`${secretValue}-cat`, 'CAT_PASSWORD'), authorizations: ['AllowInfra'] } as never),
  ];
  const night = anOperatorGroup({
    Description: 'Night shift',
    members: ['ann@example.com', variant === 0 ? 'bob@example.com' : 'cat@example.com'],
    authorizations: variant === 0 ? ['AllowInfra'] : ['AllowInfra', 'FinancialOperator'],
    dutySchedules: [{ ScheduleMode: 'Daily', StartTime: `2${2 + variant}:00`, EndTime: `0${6 + variant}:00` }],
  } as never);
  const weekend = anOperatorGroup({ Description: 'Weekend', members: ['bob@example.com'], authorizations: ['BasicOperator'] } as never);
  const access = variant === 0 ? [{ group: 'Night shift', level: 'view' }, { operator: 'ann@example.com', level: 'change' }] : [{ group: 'Night shift', level: 'change' }];
  return { operators, operatorGroups: variant === 0 ? [night, weekend] : [night], access };
}

/**
 * The fleet's alert definitions, levels reaching people only when the fleet has people. `variant` 1 changes the first
 * (deactivated, a threshold, a message, covered groups and monitors, level members, an integration's addresses, an
 * integration attached and one detached), deletes the second and the account's default one (adopted by variant 0),
 * and creates a third; a monitor one of them covers is deleted, and an operator and a group a level reaches.
 */
function fleetAlerts(variant: 0 | 1, withPeople: boolean) {
  const reach = (operators: string[], operatorGroups: string[]) => (withPeople ? { members: { operators, operatorGroups } } : {});
  const shop = declaredDefinition('Shop on-call', variant === 0, { monitorGroups: variant === 0 ? ['Shop'] : ['Shop', 'Edge'], monitors: variant === 0 ? ['monitor-1', 'monitor-13'] : ['monitor-1'] }, [
    {
      Id: 1,
      fields: { EscalationMode: 'AlertOnErrorCount', ThresholdErrorCount: 2 + 3 * variant, IsActive: true },
      ...reach(variant === 0 ? ['ann@example.com'] : ['ann@example.com', 'cat@example.com'], variant === 0 ? ['Night shift'] : []),
      integrations:
        variant === 0
          ? [{ integration: 'Email', ExtraEmailAddresses: ['oncall@example.com'] }]
          : [{ integration: 'Email', ExtraEmailAddresses: ['ops@example.com', 'oncall@example.com'] }, { integration: CHAT.Name, VariableValues: { channel: '#shop' } }],
    },
    {
      Id: 2,
      fields: { EscalationMode: 'AlertOnErrorDuration', ThresholdMinutes: 30, IsActive: true, Message: variant === 0 ? 'Shop is down' : 'Shop is still down' },
      ...reach(variant === 0 ? ['bob@example.com'] : ['cat@example.com'], []),
      integrations: variant === 0 ? [{ integration: 'Phone' }] : [],
    },
  ]);
  const second =
    variant === 0
      ? declaredDefinition('Backend pager', true, { monitors: [], monitorGroups: ['Backend'] }, [{ Id: 1, fields: { EscalationMode: 'AlertOnErrorCount', ThresholdErrorCount: 1, IsActive: true }, integrations: [{ integration: 'SMS' }] }])
      : declaredDefinition('Night pager', true, { monitors: ['renamed-5'], monitorGroups: [] }, [{ Id: 1, fields: { EscalationMode: 'AlertOnErrorCount', ThresholdErrorCount: 3, IsActive: true }, ...reach([], ['Night shift']), integrations: [{ integration: 'SMS' }] }]);
  const adopted = declaredDefinition('Default alerting', false, undefined, [{ Id: 3, fields: { IsActive: true, ThresholdErrorCount: 9 }, ...reach([], ['Weekend']) }]);
  return variant === 0 ? [shop, second, adopted] : [shop, second];
}

/**
 * A mid-sized account: every kind, vault references, memberships, people (unless `people: false`), alert definitions
 * (with `alerting: true`); `variant` changes fields, renames and drops some.
 */
export function fleet(variant: 0 | 1, options: { people?: boolean; alerting?: boolean } = {}): DesiredState {
  const secretValue = 'CANARY-fleet-4d1e';
  const people = options.people === false ? undefined : fleetPeople(variant, secretValue);
  const sections = ['Web', 'Api'].map((name) =>
    aSection({ Name: name, ...(name === 'Web' && people !== undefined ? { access: people.access } : {}) } as never, [0, 1, 2].filter((i) => variant === 0 || i !== 2).map((i) => anItem({ Name: `login-${i}`, UserName: `robot-${i}-${variant}`, Password: secret(`${secretValue}-${name}-${i}`) }))),
  );
  const monitors = Array.from({ length: 14 }, (_, i) => {
    const name = variant === 1 && i % 5 === 0 ? `renamed-${i}` : `monitor-${i}`;
    const vault = i % 3 === 0 ? [{ Key: 'login', Value: { vault: `${i % 2 === 0 ? 'Web' : 'Api'}/login-${variant === 1 ? 1 : (i / 3) % 3}` } }] : [];
    return aMonitor({ Name: name, IsActive: variant === 1 ? i % 2 === 0 : true, PredefinedVariables: vault, ErrorConditions: [{ ErrorConditionType: 'HttpStatus', Value: String(200 + (variant * i) % 3) }] });
  }).filter((_, i) => variant === 0 || i !== 13);
  const names = monitors.map((m) => m.value.Name);
  const groups = ['Shop', 'Backend', 'Edge'].map((d, g) => aGroup({ Description: d, members: names.filter((_, i) => (i + g + variant) % 3 === 0) }));
  const slas = [
    anSla({ Description: 'Gold', UptimeErrorThreshold: 99 - variant, exclusionPeriods: [aPeriod(), aPeriod({ Description: 'Cyber Monday', From: '2026-11-30T00:00:00', Until: '2026-12-01T00:00:00' })] }),
    anSla({ Description: variant === 0 ? 'Silver' : 'Bronze', exclusionPeriods: variant === 0 ? [aPeriod()] : [] }),
  ];
  const reports = [aReport(), aReport({ key: variant === 0 ? 'daily' : 'monthly', Schedule: { ScheduleType: 'Daily', Time: `0${6 + variant}:00:00` } })];
  // Variant 1 counts the storefront's URL fragments as pages, deletes Docs and creates Blog.
  const rumWebsites = [aRumWebsite({ IncludeUrlFragment: variant === 1 }), aRumWebsite(variant === 0 ? { Description: 'Docs', Url: 'https://docs.example.com', IsSpa: false } : { Description: 'Blog', Url: 'https://blog.example.com', IsSpa: false })];
  return desiredState({
    manage: { ...(people === undefined ? PRUNE_ALL : PRUNE_ALL_WITH_PEOPLE), ...(options.alerting === true ? { alertDefinitions: { prune: true } } : {}) },
    safety: NO_LIMITS,
    vaultSections: sections,
    monitors,
    monitorGroups: groups,
    slas,
    scheduledReports: reports,
    rumWebsites,
    alertDefinitions: options.alerting === true ? fleetAlerts(variant, people !== undefined) : [],
    ...(people === undefined ? {} : { operators: people.operators, operatorGroups: people.operatorGroups }),
  });
}

/** Keys that appear more than once among the live objects of each kind (a duplicate is what apply must never make). */
export async function duplicates(h: Harness): Promise<string[]> {
  const counts = new Map<string, number>();
  const add = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  const c = h.client;
  for (const m of await c.monitors.list().toArray()) add(`monitor:${String(m.Name)}`);
  for (const g of await c.monitorGroups.list().toArray()) add(`monitorGroup:${String(g.Description)}`);
  const sections = await c.vaultSections.list().toArray();
  for (const s of sections) add(`vaultSection:${String(s.Name)}`);
  for (const i of await c.vaultItems.list().toArray()) add(`vaultItem:${String(i.VaultSectionGuid)}/${String(i.Name)}`);
  for (const s of await c.slas.list().toArray()) {
    add(`sla:${String(s.Description)}`);
    for (const p of await c.slas.exclusionPeriods.list(String(s.SlaGuid)).toArray()) add(`period:${String(s.Description)}/${String(p.Description)}`);
  }
  for (const r of await c.scheduledReports.list().toArray()) add(`report:${splitMarker(r.InternalNotes, 'key').marker ?? String(r.ScheduledReportGuid)}`);
  for (const w of await c.rumWebsites.list().toArray()) add(`rumWebsite:${String(w.Description)}`);
  await peopleDuplicates(c, add);
  await alertDuplicates(c, add);
  return [...counts].filter(([, n]) => n > 1).map(([k, n]) => `${k} x${n}`);
}
