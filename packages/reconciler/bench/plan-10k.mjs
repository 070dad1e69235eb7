#!/usr/bin/env node
/* global performance */
/**
 * Benchmark plan-10k (issue 5): figures, not assertions.
 *
 * The emulator runs in a child process (`--latency 10`), and a second child builds the account, loads it through
 * the control API (`PUT /__emulator/state`) and hands back the config tree, so this process's peak RSS is what a
 * `monsync plan` holds: the client, the tree, the snapshot and the plan. The account: 10,000 monitors, 500 groups
 * of 20, 200 vault items in 5 sections (each with its access declared), 100 SLAs with 3 exclusion periods each,
 * 50 reports, and people: 500 operators with 2 duty schedules of their own, in 50 operator groups of 10, each
 * group with 2 authorizations and a duty schedule copied onto its members; and alerting: 200 alert definitions (besides
 * the account's default one) covering the monitor groups between them, each with its 3 escalation levels set, reaching
 * operators and operator groups, and one integration attached per level (e-mail, SMS, a chat channel). Then:
 *   0. the seeding child reads the account once with its own client, so the emulator is warm as a running service
 *      is (compiled code, full caches) while this process stays as cold as a fresh `monsync plan`;
 *   1. readLive with the client's default parallelism: requests against the minimum; wall time against the
 *      lower bound (the sequential monitor cursor chain, and the per-parent reads at the client's parallelism) as
 *      the median of --rounds reads (default 5), each in a fresh process as `monsync plan` makes it, taken in turns
 *      with the machine's floor (bare undici and a bare node:http server, the same requests, bodies and latency,
 *      `lib/http-floor.mjs`), with the host's CPU steal during each read;
 *   2. assemblePlan CPU time (process.cpuUsage) for a tree equal to the account but for 1% changed monitors, 1%
 *      renamed operators and one group's duty schedule moved by an hour (so the on-call preview has work);
 *   3. the same read while the service answers 429 to 10% of requests (the emulator's fault injection, Retry-After 0 so
 *      the figure is the client's own cost, not the wait a service asks for): requests against the minimum plus the
 *      rejected ones (each refused request is sent again, nothing else is), and the wall time against requests x
 *      latency / parallelism (the client halves its parallelism on a 429 and regains it gradually);
 *   4. the same account read one GET per object at parallelism 10, as a typical provider's refresh does (memberships and
 *      alerting as the vendor's provider refreshes them: a member list per membership), with the kinds that have account-wide listings and alerting also shown apart.
 *
 * `--scale N` plans N monitors in N/20 groups of 20 instead (the vault, SLAs and reports stay as they are), and
 * prints the growth against the same run at 10,000: `pnpm bench --scale 100000` (opt-in, not in CI) is what a
 * large account costs. At a scale the per-object comparison is skipped (N GETs say nothing new).
 *
 * Needs built packages: `pnpm build` (or `npx tsc -p tsconfig.build.json` in emulator, client and reconciler).
 * `--shape published` reads GET /Monitor as one bare array (the published profile) instead of cursor pages (strict),
 * with the floor and the minimum made for that shape: one listing of every monitor, then the same per-parent lists.
 *
 * Usage: node packages/reconciler/bench/plan-10k.mjs [--shape paged|published] [--latency MS] [--rounds N] [--scale N] [--alert-definitions N] [--skip-per-object] [--skip-rate-limited]
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startEmulatorProcess, control, childCpuMs, machineCpu, stealShare } from './lib/emulator-process.mjs';
import { measureHttpFloor } from './lib/http-floor.mjs';
import { createClient } from '@monsync/client';
import { ALERT_DEFINITION_KIND, DEFAULT_SAFETY, KIND_ENTRIES } from '@monsync/schema';
import { assemblePlan, liveScope, readLive, renderMarkdown } from '../dist/index.js';

const args = process.argv.slice(2);
const LATENCY = Number(args[args.indexOf('--latency') + 1] ?? 10) || 10;
const SCALE = args.includes('--scale') ? Number(args[args.indexOf('--scale') + 1]) : undefined;
if (SCALE !== undefined && !(Number.isInteger(SCALE) && SCALE >= 20)) {
  console.error('plan-10k: --scale takes a whole number of monitors, at least 20 (for example --scale 100000)');
  process.exit(2);
}
const SKIP_PER_OBJECT = args.includes('--skip-per-object') || SCALE !== undefined;
const SKIP_RATE_LIMITED = args.includes('--skip-rate-limited');
/**
 * How GET /Monitor answers: `paged` by cursor, 100 a page, as the spec says (the strict profile); `published` as one
 * bare array of every monitor, as the service's published definition does (the published profile).
 */
const SHAPE = args.includes('--shape') ? args[args.indexOf('--shape') + 1] : 'paged';
if (SHAPE !== 'paged' && SHAPE !== 'published') {
  console.error('plan-10k: --shape takes paged or published');
  process.exit(2);
}
const RATE_LIMITED_SHARE = 0.1;
const ROUNDS = Number(args[args.indexOf('--rounds') + 1] ?? 5) || 5;
/** People: the same at every --scale (an account's staff does not grow with its monitors). */
const PEOPLE = { operators: 500, operatorGroups: 50, ownSchedules: 2, groupAuthorizations: ['BasicOperator', 'CreateAlertDefinition'] };
/**
 * Alerting: the same at every --scale too (an account's paths do not grow with its monitors; each covers more groups).
 * `--alert-definitions 0` leaves them out (the account keeps only its default definition): the baseline of an A/B of
 * what alerting adds to the plan, measured beside a default run.
 */
const ALERT_DEFINITIONS = args.includes('--alert-definitions') ? Number(args[args.indexOf('--alert-definitions') + 1]) : 200;
if (!(Number.isInteger(ALERT_DEFINITIONS) && ALERT_DEFINITIONS >= 0)) {
  console.error('plan-10k: --alert-definitions takes a whole number of definitions (0 leaves alerting out)');
  process.exit(2);
}
const ALERTING = { alertDefinitions: ALERT_DEFINITIONS, levels: 3 };
const SIZES = { monitors: SCALE ?? 10_000, groups: Math.floor((SCALE ?? 10_000) / 20), groupSize: 20, sections: 5, items: 200, slas: 100, periodsPerSla: 3, reports: 50, ...PEOPLE, ...ALERTING };
const PAGE = 100;

const guid = (kind, i) => {
  const hex = (i + 1).toString(16).padStart(12, '0');
  const tag = { monitor: '1', group: '2', section: '3', item: '4', sla: '5', report: '6', operator: '7', operatorGroup: '8', authorization: '9', alertDefinition: 'a', integration: 'b' }[kind];
  return `${tag}0000000-0000-4000-8000-${hex}`;
};

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const hour = (h) => `${String(h % 24).padStart(2, '0')}:00`;
/** Operator i's own duty schedules, and group g's (moved an hour later in the tree when `moved`). */
const ownSchedules = (i) => Array.from({ length: SIZES.ownSchedules }, (_, k) => ({ ScheduleMode: 'Weekly', WeekDay: DAYS[(i + k) % 7], StartTime: '09:00', EndTime: '17:00' }));
const groupSchedule = (g, moved = false) => ({ ScheduleMode: 'Daily', StartTime: hour(g + (moved ? 1 : 0)), EndTime: hour(g + 8) });
const operatorEmail = (i) => `operator-${String(i).padStart(3, '0')}@example.com`;
const groupSize = () => SIZES.operators / SIZES.operatorGroups;

/** People as the service stores them: operators, groups with members and authorizations, each group's schedule as a copy on every member. */
function peopleAccount(state) {
  let scheduleId = state.counters.dutyScheduleId;
  const addSchedule = (operatorGuid, content) => {
    scheduleId += 1;
    state.dutySchedules.push({ ownerKind: 'operator', ownerGuid: operatorGuid, fields: { Id: scheduleId, ...content } });
  };
  for (let i = 0; i < SIZES.operators; i += 1) {
    const OperatorGuid = guid('operator', i);
    const Email = operatorEmail(i);
    state.operators.push({
      OperatorGuid, Email, UserName: Email, Password: 'not-read', FullName: `Operator ${i}`, MobilePhone: '', OutgoingPhoneNumber: '', BackupEmail: '', IsOnDuty: true,
      CultureName: 'en-US', TimeZoneId: 1 + (i % 7), SmsProvider: 'UseAccountSetting', UseNumericSender: false, PhoneProvider: 'UseAccountSetting', AllowNativeLogin: true, AllowSingleSignon: false,
    });
    for (const content of ownSchedules(i)) addSchedule(OperatorGuid, content);
  }
  for (let g = 0; g < SIZES.operatorGroups; g += 1) {
    const members = Array.from({ length: groupSize() }, (_, k) => guid('operator', g * groupSize() + k));
    const authorizations = SIZES.groupAuthorizations.map((AuthorizationType, a) => ({ AuthorizationId: guid('authorization', g * 10 + a), AuthorizationType }));
    state.operatorGroups.push({ fields: { OperatorGroupGuid: guid('operatorGroup', g), Description: `team ${g}`, IsEveryone: false, IsAdministratorsGroup: false }, members, authorizations });
    for (const member of members) addSchedule(member, groupSchedule(g));
  }
  state.counters.dutyScheduleId = scheduleId;
}

/** The people part of the tree, as `pull` writes it: 1% of the operators renamed, group 0's schedule an hour later. */
function peopleTree(state, source) {
  const emails = new Map(state.operators.map((o) => [o.OperatorGuid, o.Email]));
  const operators = Array.from({ length: SIZES.operators }, (_, i) => ({
    value: { Email: operatorEmail(i), FullName: i % 100 === 0 ? `Operator ${i} (renamed)` : `Operator ${i}`, TimeZoneId: 1 + (i % 7), dutySchedules: ownSchedules(i) },
    source,
  }));
  const operatorGroups = state.operatorGroups
    .filter((g) => g.fields.IsEveryone !== true && g.fields.IsAdministratorsGroup !== true)
    .map(({ fields, members, authorizations }, g) => ({
      value: { Description: fields.Description, members: members.map((m) => emails.get(m)), authorizations: authorizations.map((a) => a.AuthorizationType), dutySchedules: [groupSchedule(g, g === 0)] },
      source,
    }));
  return { operators, operatorGroups };
}

/** A chat integration set up in the web app, taking a channel per level; Email and SMS are the account's predefined ones. */
const CHAT = { Name: 'Ops chat channel', Type: 'Slack' };
const alertName = (d) => `alerts ${String(d).padStart(3, '0')}`;
/** The monitor groups definition d covers: every group exactly once, shared out in turn (2 or 3 each at 10,000 monitors). */
const coveredGroups = (d) => Array.from({ length: Math.max(0, Math.ceil((SIZES.groups - d) / SIZES.alertDefinitions)) }, (_, k) => d + k * SIZES.alertDefinitions);

/**
 * Level `id` of definition d, as `pull` writes it: every field of the level (a complete PATCH leaves them all set),
 * whom it reaches (level 1 a team, level 2 an operator and the next team, level 3 two operators) and its one
 * integration (e-mail with an extra address, SMS, a chat channel with the definition's own channel).
 */
function alertLevel(d, id) {
  const fields = {
    EscalationMode: id === 1 ? 'AlertOnErrorCount' : 'AlertOnErrorDuration',
    ThresholdErrorCount: 2,
    ThresholdMinutes: 15 * id,
    IsActive: id < 3 || d % 2 === 0,
    Message: `${alertName(d)}: level ${id}`,
    NumberOfReminders: id - 1,
    ReminderDelay: 30,
    IncludeTraceRoute: id === 1,
  };
  const team = (k) => `team ${(d + k) % SIZES.operatorGroups}`;
  const operator = (k) => operatorEmail((d * 7 + k) % SIZES.operators);
  const members = [{ operatorGroups: [team(0)] }, { operators: [operator(0)], operatorGroups: [team(1)] }, { operators: [operator(1), operator(2)] }][id - 1];
  const integration = [{ integration: 'Email', ExtraEmailAddresses: [`alerts-${d}@example.com`] }, { integration: 'SMS' }, { integration: CHAT.Name, VariableValues: { channel: `#alerts-${d}` } }][id - 1];
  return { fields, members, integration };
}

/** Alert definitions as the service stores them: levels with their members and attached integrations, covered groups. */
function alertingAccount(state) {
  state.integrations.push({ IntegrationGuid: guid('integration', 0), ...CHAT, AllowsEscalationLevelVariables: true });
  const integrations = new Map(state.integrations.map((i) => [i.Name, i.IntegrationGuid]));
  const operators = new Map(state.operators.map((o) => [o.Email, o.OperatorGuid]));
  const teams = new Map(state.operatorGroups.map((g) => [g.fields.Description, g.fields.OperatorGroupGuid]));
  for (let d = 0; d < SIZES.alertDefinitions; d += 1) {
    const escalationLevels = Array.from({ length: SIZES.levels }, (_, k) => {
      const { fields, members, integration } = alertLevel(d, k + 1);
      const { integration: name, ...settings } = integration;
      return {
        Id: k + 1,
        fields,
        members: [...(members.operators ?? []).map((email) => ({ OperatorGuid: operators.get(email) })), ...(members.operatorGroups ?? []).map((team) => ({ OperatorGroupGuid: teams.get(team) }))],
        // The write-only settings as the attaching POST sent them: kept by the service, never returned.
        integrations: [{ IntegrationGuid: integrations.get(name), ...settings, IsActive: true, SendOkAlerts: true, SendReminderAlerts: true }],
      };
    });
    const members = coveredGroups(d).map((g) => ({ MonitorGroupGuid: guid('group', g) }));
    state.alertDefinitions.push({ fields: { AlertDefinitionGuid: guid('alertDefinition', d), AlertName: alertName(d), IsActive: true }, escalationLevels, members, authorizations: [] });
  }
}

/** The alerting part of the tree, as `pull` writes it (the write-only settings left out: they are never compared). */
function alertingTree(source) {
  return Array.from({ length: SIZES.alertDefinitions }, (_, d) => ({
    value: {
      AlertName: alertName(d),
      IsActive: true,
      members: { monitorGroups: coveredGroups(d).map((g) => `group ${g}`) },
      escalationLevels: Array.from({ length: SIZES.levels }, (_, k) => {
        const { fields, members, integration } = alertLevel(d, k + 1);
        return { value: { Id: k + 1, ...fields, members, integrations: [{ value: integration, source }] }, source };
      }),
    },
    source,
  }));
}

/** The account: every object as the service stores it. */
function account(state) {
  const admin = state.operators[0].OperatorGuid;
  const administrators = state.operatorGroups.find((g) => g.fields.IsAdministratorsGroup === true).fields.OperatorGroupGuid;
  const at = '2026-01-01T00:00:00';
  peopleAccount(state);
  for (let i = 0; i < SIZES.monitors; i += 1) {
    const fields = {
      MonitorGuid: guid('monitor', i),
      Name: `monitor ${String(i).padStart(5, '0')}`,
      MonitorType: 'Https',
      MonitorMode: 'Production',
      IsActive: true,
      GenerateAlert: true,
      UserAgent: 'ChromeLatest',
      Url: `https://site-${i}.example.com/`,
      CheckInterval: 5,
      ErrorConditions: [
        { ErrorConditionType: 'HttpStatus', Value: '200' },
        { ErrorConditionType: 'LoadTimeLimit1', Value: '4', Effect: 'Error' },
      ],
      PredefinedVariables: i % 50 === 0 ? [{ Key: 'login', Value: `{{vault:${guid('item', i % SIZES.items)}}}` }] : [],
      CreatedDate: at,
      LastModifiedDate: at,
      LastModifiedByOperatorId: admin,
    };
    state.monitors.push({ seq: i + 1, fields });
  }
  state.counters.monitorSeq = SIZES.monitors;
  for (let g = 0; g < SIZES.groups; g += 1) {
    const members = Array.from({ length: SIZES.groupSize }, (_, k) => guid('monitor', g * SIZES.groupSize + k));
    state.monitorGroups.push({ fields: { MonitorGroupGuid: guid('group', g), Description: `group ${g}`, IsAll: false, IsQuotaUnlimited: false }, members });
  }
  for (let s = 0; s < SIZES.sections; s += 1) {
    const section = guid('section', s);
    state.vaultSections.push({ VaultSectionGuid: section, Name: `section ${s}` });
    ['ViewVaultSection', 'ChangeVaultSection'].forEach((type, t) => {
      state.vaultAuthorizations.push({ AuthorizationId: guid('section', 1000 + 2 * s + t), ContextId: section, AuthorizationType: type, OperatorGuid: null, OperatorGroupId: administrators });
    });
  }
  for (let i = 0; i < SIZES.items; i += 1) {
    state.vaultItems.push({
      VaultItemGuid: guid('item', i),
      Name: `item ${i}`,
      VaultSectionGuid: guid('section', i % SIZES.sections),
      VaultItemType: 'CredentialSet',
      Value: '',
      IsSensitive: true,
      Notes: `notes ${i}`,
      UserName: `user-${i}`,
      Password: 'not-read',
    });
  }
  let period = 0;
  for (let i = 0; i < SIZES.slas; i += 1) {
    const exclusionPeriods = Array.from({ length: SIZES.periodsPerSla }, (_, k) => {
      period += 1;
      return { ExclusionPeriodId: period, Hash: `p${period}`, Description: `freeze ${k}`, From: `2026-0${k + 1}-01T00:00:00`, Until: `2026-0${k + 1}-02T00:00:00` };
    });
    state.slas.push({ fields: { SlaGuid: guid('sla', i), Hash: `s${i}`, Description: `sla ${i}`, UptimeErrorThreshold: 99, UptimeWarningThreshold: 99.5, LoadTimeErrorThreshold: 4, OperatorReponseTimeThreshold: 15 }, exclusionPeriods });
  }
  state.counters.exclusionPeriodId = period;
  alertingAccount(state);
  for (let i = 0; i < SIZES.reports; i += 1) {
    state.scheduledReports.push({
      ScheduledReportGuid: guid('report', i),
      Hash: `r${i}`,
      DashboardGuid: guid('report', 1000 + i),
      FileType: 'PDFAttachment',
      IsActive: true,
      Schedule: { ScheduleType: 'Weekly', Time: '08:00:00', WeekDay: 'Monday' },
      SelectedPeriod: 'PreviousDay',
      InternalNotes: `monsync:key=report-${i}`,
      Notes: '',
      Recipients: { Operators: [admin], OperatorGroups: [], ExtraEmailAddresses: [`team-${i}@example.com`] },
    });
  }
  return state;
}

/** The tree: what `monsync pull` would write for this account, with 1% of the monitors switched off. */
function tree(state) {
  const source = { file: 'bench.yaml', line: 1, column: 1 };
  const readOnly = new Set(['MonitorGuid', 'CreatedDate', 'LastModifiedDate', 'LastModifiedByOperatorId']);
  const monitors = state.monitors.map(({ fields }, i) => {
    const value = Object.fromEntries(Object.entries(fields).filter(([k]) => !readOnly.has(k)));
    if (i % 100 === 0) value.IsActive = false;
    const ref = value.PredefinedVariables[0];
    if (ref !== undefined) {
      const item = state.vaultItems.find((v) => ref.Value.includes(v.VaultItemGuid));
      const section = state.vaultSections.find((s) => s.VaultSectionGuid === item.VaultSectionGuid);
      value.PredefinedVariables = [{ Key: 'login', Value: { vault: `${section.Name}/${item.Name}` } }];
    }
    return { value, source };
  });
  const names = new Map(state.monitors.map(({ fields }) => [fields.MonitorGuid, fields.Name]));
  return {
    root: '/bench',
    settings: {
      apiVersion: 'monsync/v1',
      manage: {
        monitors: { prune: false },
        monitorGroups: { prune: false },
        vault: { prune: false },
        slas: { prune: false },
        scheduledReports: { prune: false },
        operators: { prune: false },
        operatorGroups: { prune: false },
        alertDefinitions: { prune: false },
      },
      ignore: [],
      safety: DEFAULT_SAFETY,
    },
    monitors,
    // The account's own All Monitors group is no declaration: `pull` leaves it out.
    monitorGroups: state.monitorGroups.filter(({ fields }) => fields.IsAll !== true).map(({ fields, members }) => ({ value: { Description: fields.Description, members: members.map((m) => names.get(m)) }, source })),
    vaultSections: state.vaultSections.map((s) => ({
      value: {
        Name: s.Name,
        access: [{ group: 'Administrators', level: 'change' }],
        items: state.vaultItems
          .filter((i) => i.VaultSectionGuid === s.VaultSectionGuid)
          .map((i) => ({ value: { Name: i.Name, VaultItemType: i.VaultItemType, UserName: i.UserName, Notes: i.Notes }, source })),
      },
      source,
    })),
    slas: state.slas.map(({ fields, exclusionPeriods }) => ({
      value: {
        Description: fields.Description,
        UptimeErrorThreshold: fields.UptimeErrorThreshold,
        UptimeWarningThreshold: fields.UptimeWarningThreshold,
        exclusionPeriods: exclusionPeriods.map((p) => ({ value: { Description: p.Description, From: p.From, Until: p.Until }, source })),
      },
      source,
    })),
    scheduledReports: state.scheduledReports.map((r, i) => ({
      value: { key: `report-${i}`, DashboardGuid: r.DashboardGuid, FileType: r.FileType, Schedule: r.Schedule, Recipients: { ExtraEmailAddresses: r.Recipients.ExtraEmailAddresses } },
      source,
    })),
    alertDefinitions: alertingTree(source),
    ...peopleTree(state, source),
  };
}

const ms = (n) => `${n.toFixed(0)} ms`;

/** The kinds of the alertDefinitions section: the tree declares the account's alerting exactly as it is. */
const ALERTING_KINDS = new Set(KIND_ENTRIES.filter((e) => e.section === ALERT_DEFINITION_KIND.section).map((e) => e.kind));
/**
 * The plan's steps by action and kind. The tree differs from the account only where the bench changed it (monitors
 * switched off, operators renamed, one group's schedule moved): a step of an alerting kind means the bench's data
 * is wrong, so it stops rather than measure a plan nobody would make.
 */
function stepsOf(plan) {
  const counts = new Map();
  for (const step of plan.steps) counts.set(`${step.action} ${step.kind}`, (counts.get(`${step.action} ${step.kind}`) ?? 0) + 1);
  const alerting = plan.steps.filter((step) => ALERTING_KINDS.has(step.kind));
  if (alerting.length > 0) {
    console.error(`plan-10k: the tree's alert definitions should match the account's, but the plan has ${alerting.length} steps for them: ${alerting.slice(0, 5).map((step) => step.id).join(', ')}`);
    process.exit(1);
  }
  return [...counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([what, n]) => `${n} ${what}`).join(', ');
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (args[0] === '--seed') {
  // Child mode: load the account into the emulator whose control API is given, print the tree.
  const base = args[1];
  const state = account(await control(base, 'GET', '/state'));
  await control(base, 'PUT', '/state', state);
  // A service in production is warm: its code is compiled and its caches are full. One read from this child (its
  // own client, so the measured process stays cold, as `monsync plan` starts) brings the emulator to that state,
  // so the figures below are the client's read of a running service, not the emulator's start-up.
  const warm = createClient({ baseUrl: base.replace(/\/__emulator$/, '/v4'), username: 'demo', password: 'demo-password' });
  const desiredTree = tree(state);
  await readLive(warm, liveScope(desiredTree));
  await warm.close();
  // A pipe is written asynchronously: exit only once the tree is flushed.
  // The live operators, groups and sections (the account's own besides the bench's) decide the per-parent listings.
  // So do the live alert definitions (the bench's and the account's default one) and their levels.
  const counts = {
    operators: state.operators.length,
    operatorGroups: state.operatorGroups.filter((g) => g.fields.IsEveryone !== true).length,
    sections: state.vaultSections.length,
    alertDefinitions: state.alertDefinitions.length,
    escalationLevels: state.alertDefinitions.reduce((sum, d) => sum + d.escalationLevels.length, 0),
  };
  process.stdout.write(JSON.stringify({ desired: desiredTree, self: state.operators[0].OperatorGuid, counts }), () => process.exit(0));
  await new Promise(() => {});
}

if (args[0] === '--read') {
  // Child mode: one read in a fresh process, as a `monsync plan` makes it; prints its wall and CPU time.
  const [, url, file] = args;
  const { desired, self } = JSON.parse(readFileSync(file, 'utf8'));
  const client = createClient({ baseUrl: url, username: 'demo', password: 'demo-password' });
  await Promise.all(Array.from({ length: client.parallelism }, () => client.operators.list().toArray()));
  const scope = liveScope(desired);
  const machineStart = machineCpu();
  const cpuStart = process.cpuUsage();
  const t0 = performance.now();
  const snapshot = await readLive(client, scope);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpuStart);
  const steal = stealShare(machineStart, machineCpu());
  // What the read alone peaked at: the listings as they arrived (a bare listing of every monitor among them).
  const readRssMb = process.resourceUsage().maxRSS / 1024;
  // Then the plan, once, as `monsync plan` makes it: its first call's CPU and the peak RSS of the whole process.
  const planStart = process.cpuUsage();
  const planT0 = performance.now();
  const plan = assemblePlan(desired, snapshot, { selfOperatorGuid: self });
  const planWallMs = performance.now() - planT0;
  const planCpu = process.cpuUsage(planStart);
  const planRssMb = process.resourceUsage().maxRSS / 1024;
  stepsOf(plan);
  console.log(JSON.stringify({ wallMs, cpuMs: (cpu.user + cpu.system) / 1000, steal, readRssMb, planCpuMs: (planCpu.user + planCpu.system) / 1000, planWallMs, planRssMb, updates: plan.summary.update }));
  await client.close();
  process.exit(0);
}

const emulator = await startEmulatorProcess(LATENCY, { profile: SHAPE === 'paged' ? 'strict' : 'published' });
try {
  const seeded = await promisify(execFile)(process.execPath, [fileURLToPath(import.meta.url), '--seed', emulator.control, ...(SCALE === undefined ? [] : ['--scale', String(SCALE)]), '--alert-definitions', String(ALERT_DEFINITIONS)], { maxBuffer: 256 * 1024 * 1024 });
  const { desired, self, counts } = JSON.parse(seeded.stdout);
  const client = createClient({ baseUrl: emulator.url, username: 'demo', password: 'demo-password' });
  const parallelism = client.parallelism;

  // Warm the connection pool so the measured read is the steady state, not TCP setup.
  await Promise.all(Array.from({ length: parallelism }, () => client.operators.list().toArray()));
  await control(emulator.control, 'DELETE', '/log');

  const scope = liveScope(desired);
  const t0 = performance.now();
  const snapshot = await readLive(client, scope);
  const readWall = performance.now() - t0;
  const log = await control(emulator.control, 'GET', '/log');

  // Paged, the monitors come in a chain of pages, each asked for with the cursor of the one before; published, in one
  // listing of them all.
  const monitorPages = SHAPE === 'paged' ? Math.ceil(SIZES.monitors / PAGE) : 1;
  const someGroup = snapshot.lists.monitorGroup.find((g) => g.IsAll !== true).MonitorGroupGuid;
  const someOperator = guid('operator', 0);
  const someTeam = guid('operatorGroup', 0);
  // The bench's first definition, or the account's default one when `--alert-definitions 0` leaves them out.
  const someDefinition = snapshot.lists.alertDefinition.find((d) => d.AlertDefinitionGuid === guid('alertDefinition', 0))?.AlertDefinitionGuid ?? snapshot.lists.alertDefinition[0].AlertDefinitionGuid;
  const someLevel = `/AlertDefinition/${someDefinition}/EscalationLevel`;
  // The least a complete read can be: one listing per kind (monitors by pages), and one listing per parent object
  // where the API has nothing wider (no account-wide duty schedule, member or authorization listing; an alert
  // definition's levels, and each level's members and integrations, only per definition and per level). Everyone's
  // members are every operator and its authorizations cannot change, so it is not listed. Each per-parent kind
  // with one of its listings, whose body the floor below answers.
  // With `--alert-definitions 0` the tree declares no definition: only the default one's levels are read, none of
  // its members or integrations, nor the account's integrations.
  const declaresAlerting = SIZES.alertDefinitions > 0;
  const LISTINGS = ['monitor groups', 'vault sections', 'vault items', 'SLAs', 'reports', 'operators', 'operator groups', 'time zones', 'alert definitions', ...(declaresAlerting ? ['integrations'] : [])];
  const perParentLists = [
    [SIZES.groups, 'monitor group member lists', `/MonitorGroup/${someGroup}/Member`],
    [SIZES.slas, 'SLA period lists', `/SLA/${snapshot.lists.sla[0].SlaGuid}/ExclusionPeriod`],
    [counts.operators, 'duty schedule lists (one per operator)', `/Operator/${someOperator}/DutySchedule`],
    [counts.operatorGroups, 'operator group member lists', `/OperatorGroup/${someTeam}/Member`],
    [counts.operatorGroups, 'operator group authorization lists', `/OperatorGroup/${someTeam}/Authorization`],
    [counts.sections, 'vault section access lists', `/VaultSection/${snapshot.lists.vaultSection[0].VaultSectionGuid}/Authorization`],
    [counts.alertDefinitions, 'escalation level lists (one per alert definition)', someLevel],
    ...(declaresAlerting
      ? [
          [counts.alertDefinitions, 'alert definition member lists', `/AlertDefinition/${someDefinition}/Member`],
          [counts.escalationLevels, 'escalation level member lists', `${someLevel}/1/Member`],
          [counts.escalationLevels, 'escalation level integration lists', `${someLevel}/1/Integration`],
        ]
      : []),
  ];
  const perParent = perParentLists.reduce((sum, [n]) => sum + n, 0);
  const minimum = monitorPages + LISTINGS.length + perParent;
  const chain = monitorPages * LATENCY;
  const parents = (1 + Math.ceil(perParent / parallelism)) * LATENCY;
  const everything = Math.ceil(minimum / parallelism) * LATENCY;
  const lowerBound = Math.max(chain, parents, everything);

  // Rounds of a read in a fresh process beside the machine's floor, taken in turns so that both see the same
  // machine: one read on a shared virtual machine says little; the median of several says what a plan costs.
  const raw = async (path) => {
    const res = await globalThis.fetch(`${emulator.url}${path}`, { headers: { authorization: `Basic ${Buffer.from('demo:demo-password').toString('base64')}` } });
    return res.text();
  };
  // Real bodies for the floor: the first monitor page, and one listing of each per-parent kind.
  const floorOptions = {
    latency: LATENCY,
    parallelism,
    // The first page, or the whole bare listing: the floor parses what the client parses.
    chain: { count: monitorPages, body: await raw('/Monitor') },
    perParent: await Promise.all(perParentLists.map(async ([count, , path]) => ({ count, body: await raw(path) }))),
  };
  const dir = mkdtempSync(join(tmpdir(), 'monsync-plan-10k-'));
  const desiredFile = join(dir, 'desired.json');
  writeFileSync(desiredFile, JSON.stringify({ desired, self }));
  const rounds = [];
  try {
    for (let i = 0; i < ROUNDS; i += 1) {
      const floor = await measureHttpFloor(floorOptions);
      const emulatorBefore = childCpuMs(emulator.child.pid);
      const { stdout } = await promisify(execFile)(process.execPath, [fileURLToPath(import.meta.url), '--read', emulator.url, desiredFile]);
      rounds.push({ ...JSON.parse(stdout), emulatorCpuMs: childCpuMs(emulator.child.pid) - emulatorBefore, floor });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // The same read again in this process, now that its code is compiled: the steady state of a process that reads
  // more than once, beside the first read above, which is what a fresh `monsync plan` pays.
  const t3 = performance.now();
  await readLive(client, scope);
  const readWarm = performance.now() - t3;

  // The same read with no injected latency: what is left is the emulator's own processing (one thread) and
  // the client's, which the lower bound above leaves out.
  await control(emulator.control, 'PUT', '/latency', { ms: 0 });
  const t2 = performance.now();
  await readLive(client, scope);
  const readNoLatency = performance.now() - t2;
  await control(emulator.control, 'PUT', '/latency', { ms: LATENCY });

  const cpu = [];
  let plan;
  for (let i = 0; i < 5; i += 1) {
    const before = process.cpuUsage();
    plan = assemblePlan(desired, snapshot, { selfOperatorGuid: self });
    const used = process.cpuUsage(before);
    cpu.push((used.user + used.system) / 1000);
  }
  // Peak RSS of what `monsync plan` holds (before the per-object comparison below adds its own copies).
  const planRss = process.resourceUsage().maxRSS / 1024;
  // `monsync plan` also passes its clock: the on-call preview and "who gets paged" (group 0's moved schedule and the
  // renamed operators change the paths of the definitions reaching them). Measured once the code is warm.
  const previewStart = process.cpuUsage();
  const previewed = assemblePlan(desired, snapshot, { selfOperatorGuid: self, now: Date.parse('2026-11-30T09:00:00Z') });
  const previewUsed = process.cpuUsage(previewStart);
  const markdownStart = process.cpuUsage();
  const markdown = renderMarkdown(plan);
  const markdownCpu = process.cpuUsage(markdownStart);

  console.log(
    `plan-10k: ${SIZES.monitors} monitors, ${SIZES.groups} groups of ${SIZES.groupSize}, ${SIZES.items} vault items in ${SIZES.sections} sections, ${SIZES.slas} SLAs x ${SIZES.periodsPerSla} periods, ${SIZES.reports} reports; ` +
      `${SIZES.operators} operators with ${SIZES.ownSchedules} duty schedules each, in ${SIZES.operatorGroups} operator groups of ${groupSize()} with ${SIZES.groupAuthorizations.length} authorizations and a duty schedule each; ` +
      `${SIZES.alertDefinitions} alert definitions covering the groups, ${SIZES.levels} escalation levels each with members and an integration; ` +
      `latency ${LATENCY} ms; client parallelism ${parallelism}; GET /Monitor ${SHAPE === 'paged' ? `paged by cursor, ${PAGE} a page (strict profile)` : 'one bare array (published profile)'}`,
  );
  console.log('');
  console.log(
    `readLive requests      ${log.total} (minimum ${minimum}: ${SHAPE === 'paged' ? `${monitorPages} monitor pages` : '1 bare monitor listing'} + ${perParentLists.map(([n, what]) => `${n} ${what}`).join(' + ')} + ${LISTINGS.length} listings)  ratio ${(log.total / minimum).toFixed(2)}`,
  );
  const fresh = rounds.map((r) => r.wallMs);
  const floorCold = rounds.map((r) => r.floor.cold.wallMs);
  const range = (xs) => `${Math.min(...xs).toFixed(0)}-${ms(Math.max(...xs))}`;
  const steals = rounds.map((r) => r.steal).filter((x) => x !== undefined);
  console.log(
    `readLive wall          median ${ms(median(fresh))} of ${ROUNDS} reads, each in a fresh process (${range(fresh)}); lower bound ${ms(lowerBound)} = max(${SHAPE === 'paged' ? 'cursor chain' : 'bare listing'} ${monitorPages} x ${LATENCY} ms, ` +
      `per-parent 1 + ${perParent}/${parallelism} x ${LATENCY} ms, all ${minimum}/${parallelism} x ${LATENCY} ms)  ratio ${(median(fresh) / lowerBound).toFixed(2)}`,
  );
  console.log(`                       CPU per read: client median ${ms(median(rounds.map((r) => r.cpuMs)))}, emulator median ${ms(median(rounds.map((r) => r.emulatorCpuMs)))} (its share of the two cores is not the client's to use)`);
  console.log(`                       in this process: ${ms(readWall)} (ratio ${(readWall / lowerBound).toFixed(2)}), then ${ms(readWarm)} once its code is compiled (ratio ${(readWarm / lowerBound).toFixed(2)})`);
  console.log(
    `machine floor          median ${ms(median(floorCold))} (${range(floorCold)})  ratio ${(median(floorCold) / lowerBound).toFixed(2)}: bare undici to a bare node:http server, the same requests, bodies and latency, ` +
      `from a fresh process (then ${ms(median(rounds.map((r) => r.floor.warm.wallMs)))} once compiled); no client beats it on this machine. readLive is ${(median(fresh) / median(floorCold)).toFixed(2)}x the floor`,
  );
  if (steals.length > 0) {
    console.log(`host steal             ${steals.map((x) => `${(x * 100).toFixed(0)}%`).join(', ')} of the machine's CPU time went to other guests during the reads (wall figures stretch with it; CPU figures do not)`);
  }
  console.log(`readLive at latency 0  ${ms(readNoLatency)} (service and client processing alone: the part of the wall time no latency explains)`);
  console.log(`assemblePlan CPU       first ${ms(cpu[0])}, median of 5 ${ms(median(cpu))}  (${plan.summary.update} updates, ${plan.summary.unchanged} unchanged; steps: ${stepsOf(plan)})`);
  console.log(
    `  with the previews    ${ms((previewUsed.user + previewUsed.system) / 1000)} (its clock given, as \`monsync plan\` does: the on-call preview, and who gets paged for ${previewed.paging?.definitions.length ?? 0} definitions${previewed.paging?.omitted === undefined ? '' : ` + ${previewed.paging.omitted} counted`})`,
  );
  const freshPlanCpu = median(rounds.map((r) => r.planCpuMs));
  const freshRss = median(rounds.map((r) => r.planRssMb));
  // CPU counts V8's background threads too (the optimising compiler, concurrent marking): wall is what a user waits.
  const freshPlanWall = median(rounds.map((r) => r.planWallMs));
  console.log(
    `fresh monsync plan     assemblePlan first call median ${ms(freshPlanCpu)} CPU (${ms(freshPlanWall)} wall), peak RSS median ${freshRss.toFixed(0)} MB (a fresh process: the tree, one read, one plan, as \`monsync plan\` holds them; ` +
      `${median(rounds.map((r) => r.readRssMb)).toFixed(0)} MB when the read was done)`,
  );
  console.log(`renderMarkdown CPU     ${ms((markdownCpu.user + markdownCpu.system) / 1000)} (${markdown.length.toLocaleString('en-US')} characters)`);

  if (!SKIP_RATE_LIMITED) {
    // A fresh client, so its limiter starts at full parallelism as a `monsync plan` does.
    let lowest = Infinity;
    const hooks = createClient({ baseUrl: emulator.url, username: 'demo', password: 'demo-password', onRetry: (e) => void (lowest = Math.min(lowest, e.parallelism)) });
    await Promise.all(Array.from({ length: hooks.parallelism }, () => hooks.operators.list().toArray()));
    await control(emulator.control, 'PUT', '/faults', { rate: RATE_LIMITED_SHARE, seed: 7, kinds: ['429'], retryAfterSeconds: 0 });
    await control(emulator.control, 'DELETE', '/log');
    const t4 = performance.now();
    await readLive(hooks, scope);
    const limitedWall = performance.now() - t4;
    await control(emulator.control, 'PUT', '/faults', { rate: 0 });
    const limitedLog = await control(emulator.control, 'GET', '/log');
    await hooks.close();
    const rejected = limitedLog.entries.filter((e) => e.status === 429).length;
    const bound = (limitedLog.total * LATENCY) / parallelism;
    console.log(
      `rate-limited read      429 on ${(RATE_LIMITED_SHARE * 100).toFixed(0)}% of requests (Retry-After 0): ${limitedLog.total} requests (minimum ${minimum} + ${rejected} rejected = ${minimum + rejected}, ` +
        `ratio ${(limitedLog.total / (minimum + rejected)).toFixed(2)}); wall ${ms(limitedWall)}, lower bound ${ms(bound)} = ${limitedLog.total} x ${LATENCY} ms / ${parallelism}, ` +
        `ratio ${(limitedWall / bound).toFixed(2)}; parallelism went down to ${lowest}`,
    );
  }

  if (!SKIP_PER_OBJECT) {
    const perObject = createClient({ baseUrl: emulator.url, username: 'demo', password: 'demo-password', parallelism: 10 });
    await Promise.all(Array.from({ length: 10 }, () => perObject.operators.list().toArray()));
    // Group memberships as the vendor's provider refreshes them (at 091cb7a, provider/): one resource per membership,
    // whose Read lists the group's members to find itself (monitorgroup_membership_resource.go Read:
    // GetGroupMemberships; operatorgroup_membership_resource.go Read: GetMemberships), so one list per membership.
    const membersOf = (kind, parent) => {
      const byParent = snapshot.perParent[kind];
      if (byParent === undefined) throw new Error(`plan-10k: the snapshot has no ${kind} lists to count memberships from`);
      return byParent[parent] ?? [];
    };
    const listingKinds = [
      ...snapshot.lists.monitor.map((m) => () => perObject.monitors.get(m.MonitorGuid)),
      ...snapshot.lists.monitorGroup.filter((g) => g.IsAll !== true).flatMap((g) => [
        () => perObject.monitorGroups.get(g.MonitorGroupGuid),
        ...membersOf('groupMembership', g.MonitorGroupGuid).map(() => () => perObject.monitorGroups.members(g.MonitorGroupGuid).toArray()),
      ]),
      ...snapshot.lists.vaultSection.map((s) => () => perObject.vaultSections.get(s.VaultSectionGuid)),
      ...snapshot.lists.vaultItem.map((i) => () => perObject.vaultItems.get(i.VaultItemGuid)),
      ...snapshot.lists.sla.flatMap((sla) => [
        () => perObject.slas.get(sla.SlaGuid),
        ...(snapshot.perParent.slaExclusionPeriod?.[sla.SlaGuid] ?? []).map((p) => () => perObject.slas.exclusionPeriods.get(sla.SlaGuid, p.ExclusionPeriodId)),
      ]),
      ...snapshot.lists.scheduledReport.map((r) => () => perObject.scheduledReports.get(r.ScheduledReportGuid)),
      // Duty schedules have no GET of one: a per-object refresh lists each operator's, as readLive does.
      ...snapshot.lists.operator.flatMap((o) => [() => perObject.operators.get(o.OperatorGuid), () => perObject.operators.dutySchedules.list(o.OperatorGuid).toArray()]),
      ...snapshot.lists.operatorGroup.filter((g) => g.IsEveryone !== true).flatMap((g) => [
        () => perObject.operatorGroups.get(g.OperatorGroupGuid),
        ...membersOf('operatorGroupMember', g.OperatorGroupGuid).map(() => () => perObject.operatorGroups.members(g.OperatorGroupGuid).toArray()),
        () => perObject.operatorGroups.authorizations.list(g.OperatorGroupGuid).toArray(),
      ]),
    ];
    // Alerting as the vendor's provider refreshes it (ITRS-Group/terraform-provider-itrs-uptrends at 091cb7a, provider/):
    // alertdefinition_resource.go Read: GET {g} and GET {g}/EscalationLevel per definition; the monitor and monitor
    // group membership resources' Read (alertdefinition_monitor_membership_resource.go,
    // alertdefinition_monitorgroup_membership_resource.go): GET {g}/Member once per membership, to find it in the list;
    // the operator and operator group membership resources' Read (alertdefinition_operator_membership_resource.go,
    // alertdefinition_operatorgroup_membership_resource.go): GET {g}/EscalationLevel/{n}/Member once per membership;
    // escalation_level_integration_resource.go Read: GET {g}/EscalationLevel/{n}/Integration/{integrationGuid} once per
    // attached integration (route 16; it never lists a level's integrations). Every resource is refreshed on its own.
    const alertingKinds = snapshot.lists.alertDefinition.flatMap((d) => {
      const definition = perObject.alertDefinitions;
      const guid = d.AlertDefinitionGuid;
      const levels = snapshot.perParent.escalationLevel?.[guid] ?? [];
      const covered = snapshot.perParent.alertDefinitionMember?.[guid] ?? [];
      return [
        () => definition.get(guid),
        () => definition.escalationLevels.list(guid).toArray(),
        ...covered.map(() => () => definition.members.list(guid).toArray()),
        ...levels.flatMap((l) => [
          ...(snapshot.perParent.escalationLevelMember?.[`${guid}/${l.Id}`] ?? []).map(() => () => definition.escalationLevels.members.list(guid, l.Id).toArray()),
          ...(snapshot.perParent.escalationLevelIntegration?.[`${guid}/${l.Id}`] ?? []).map((i) => () => definition.integrations.get(guid, l.Id, i.IntegrationGuid)),
        ]),
      ];
    });
    /** One part's GETs at parallelism 10: its wall time and requests. */
    const timed = async (gets) => {
      await control(emulator.control, 'DELETE', '/log');
      const start = performance.now();
      await Promise.all(gets.map((get) => get()));
      const wall = performance.now() - start;
      return { wall, requests: (await control(emulator.control, 'GET', '/log')).total };
    };
    const listingPart = await timed(listingKinds);
    const alertingPart = await timed(alertingKinds);
    await perObject.close();
    // readLive of the same parts, both with compiled code (after the reads above): the kinds with account-wide
    // listings alone, and the whole account; alerting is the difference (it has no account-wide listing of members,
    // levels or integrations, so both sides spend a request per definition or level there).
    const listingDesired = { ...desired, alertDefinitions: [], settings: { ...desired.settings, manage: Object.fromEntries(Object.entries(desired.settings.manage).filter(([k]) => k !== 'alertDefinitions')) } };
    const readPart = async (scopeOf) => {
      await control(emulator.control, 'DELETE', '/log');
      const start = performance.now();
      await readLive(client, scopeOf);
      const wall = performance.now() - start;
      return { wall, requests: (await control(emulator.control, 'GET', '/log')).total };
    };
    const listedAlone = await readPart(liveScope(listingDesired));
    const listedAll = await readPart(scope);
    const listedAlerting = { wall: Math.max(1, listedAll.wall - listedAlone.wall), requests: listedAll.requests - listedAlone.requests };
    const perObjectWall = listingPart.wall + alertingPart.wall;
    const perObjectRequests = listingPart.requests + alertingPart.requests;
    const x = (a, b) => `${(a / b).toFixed(1)}x`;
    console.log(
      `one GET per object     ${perObjectRequests} requests at parallelism 10, ${ms(perObjectWall)} (memberships and alerting as the vendor's provider refreshes them: a member list per membership)  listing is ${x(perObjectWall, readWall)} faster`,
    );
    console.log(
      `  kinds with listings  ${listingPart.requests} requests, ${ms(listingPart.wall)} against readLive's ${listedAlone.requests} requests, ${ms(listedAlone.wall)}: listing is ${x(listingPart.wall, listedAlone.wall)} faster`,
    );
    console.log(
      `  alerting             ${alertingPart.requests} requests, ${ms(alertingPart.wall)} against readLive's ${listedAlerting.requests} (whole account ${ms(listedAll.wall)} less the above): ${x(alertingPart.wall, listedAlerting.wall)} ` +
        '(no account-wide listing of levels, members or integrations exists: readLive lists them per definition and per level, the provider reads them per membership and per attachment)',
    );
  }
  console.log(`peak RSS               ${planRss.toFixed(0)} MB in this process through planning (the seeded tree as text and parsed, three reads, five plans; the emulator runs in its own process)`);
  // One line for scripts/bench.mjs --scale, which prints the growth between two sizes.
  const figures = {
    monitors: SIZES.monitors,
    shape: SHAPE,
    requests: log.total,
    minimum,
    readLiveMs: median(fresh),
    floorMs: median(floorCold),
    lowerBoundMs: lowerBound,
    planFirstMs: freshPlanCpu,
    planFirstWallMs: freshPlanWall,
    planMedianMs: median(cpu),
    rssMb: freshRss,
  };
  console.log(`figures ${JSON.stringify(figures)}`);
  console.log('');
  // A large account has targets of its own: its read is held to the machine's floor, its memory to twice the 10k target.
  console.log(
    SCALE === undefined
      ? 'targets: requests = minimum; readLive <= 1.05 x the machine floor; assemblePlan <= 1 s; RSS <= 300 MB; >= 5x faster than one GET per object'
      : `targets: requests = minimum; readLive <= 1.05 x the machine floor; assemblePlan first call <= 1 s CPU; peak RSS of a fresh plan <= ${SHAPE === 'published' ? 450 : 600} MB`,
  );
  await client.close();
} finally {
  emulator.child.kill('SIGTERM');
}
