/**
 * Phase 6 of `assemblePlan`, policy: the findings of the tree's policy rules (made by the loader, with their
 * positions) and those of the rules about the account (`scope: 'account'` in the schema's policy/rules.ts),
 * checked on the monitors the account would hold once the plan is applied.
 */
import { ALERT_DEFINITION_KIND, alertsReachSomeone, checkAccountPolicy, MONITOR_KIND, type AccountMonitor, type PlanWaiver, type PolicyRuleEntry } from '@monsync/schema';
import type { DesiredState } from '../../desired.js';
import type { LiveSnapshot } from '../../live/types.js';
import type { PlanPeople } from '../../on-call/of-plan.js';
import { alertPathOf, pathsAfterPlan } from '../../paging/of-plan.js';
import type { PlanStep, PlanWarning, PolicyFinding } from '../types.js';
import type { KindState, Resolution } from './state.js';

const MONITOR = MONITOR_KIND.kind;

/**
 * Monitors after the plan: declared ones as declared (a field left out keeps its live value), live ones the plan
 * keeps as they are; deleted and retired ones are gone. Undefined when monitors are not managed.
 */
export function monitorsAfterPlan(states: readonly KindState[], steps: readonly PlanStep[], resolution: Resolution): AccountMonitor[] | undefined {
  const state = states.find((s) => s.mod.kind === MONITOR);
  if (state === undefined || !state.managed) return undefined;
  const removed = new Set(steps.filter((s) => s.kind === MONITOR && s.action === 'delete' && s.guid !== undefined).map((s) => s.guid));
  const inPlay = new Set(state.live);
  const declared = new Map(state.pairs.map((pair) => [pair.live.guid, pair.desired]));
  const monitors: AccountMonitor[] = [];
  for (const entry of state.allLive) {
    // Retired monitors that stay retired (neither in play nor ignored) are gone as far as anyone is concerned.
    if (removed.has(entry.guid) || (!inPlay.has(entry) && !resolution.isIgnoredGuid(MONITOR, entry.guid))) continue;
    const desired = declared.get(entry.guid);
    const active = desired !== undefined && 'IsActive' in desired.fields ? desired.fields.IsActive : entry.fields.IsActive;
    monitors.push({ key: entry.key, active: active !== false });
  }
  for (const create of state.creates) monitors.push({ key: create.key, active: create.fields.IsActive !== false });
  return monitors;
}

/**
 * `alertsReachSomeone` over every declared alert definition as the account would hold it after the plan; a valid
 * waiver of the definition silences it, and one that silences nothing is said as a warning.
 */
function reachFindings(desired: DesiredState, live: LiveSnapshot, people: PlanPeople): Reach {
  const entry = (desired.settings.policy ?? []).find((e) => e.rule === alertsReachSomeone.name);
  if (entry === undefined || desired.settings.manage[ALERT_DEFINITION_KIND.section] === undefined) return { findings: [], warnings: [], waived: [] };
  const declared = desired.alertDefinitions.filter((d) => typeof d.value.AlertName === 'string');
  const paths = pathsAfterPlan(live, people.steps, people.now, declared.map((d) => d.value.AlertName ?? ''), people);
  const waivers = (desired.planWaivers ?? []).filter((w) => w.rule === alertsReachSomeone.name && w.kind === ALERT_DEFINITION_KIND.kind);
  const used = new Set<(typeof waivers)[number]>();
  const findings: PolicyFinding[] = [];
  for (const { value, source } of declared) {
    const key = value.AlertName ?? '';
    const path = paths.get(key);
    if (path === undefined) continue;
    for (const found of alertsReachSomeone.check(alertPathOf(path), entry.params as never)) {
      const waiver = waivers.find((w) => w.key === key);
      if (waiver !== undefined) {
        used.add(waiver);
        continue;
      }
      const level = found.field === undefined ? undefined : value.escalationLevels?.find((l) => found.message.startsWith(`escalation level ${l.value.Id} `));
      const at = level?.source ?? source;
      findings.push({ rule: alertsReachSomeone.name, severity: entry.severity, message: `${ALERT_DEFINITION_KIND.title.one} \`${key}\` ${found.message}`, fix: alertsReachSomeone.fix, kind: ALERT_DEFINITION_KIND.kind, key, file: at.file, line: at.line, column: at.column });
    }
  }
  const warnings = waivers
    .filter((w) => !used.has(w) && paths.has(w.key))
    .map((w) => ({ code: 'UNUSED_WAIVER', message: `${w.file}:${w.line}:${w.column}: the waiver of \`${w.rule}\` silences nothing: ${ALERT_DEFINITION_KIND.title.one} \`${w.key}\` keeps the rule after this plan; remove the waiver`, kind: w.kind, key: w.key }));
  return { findings, warnings, waived: [...used] };
}

/** What `alertsReachSomeone` found, the waivers that silence nothing, and those that silenced a finding (the paging preview marks them). */
interface Reach {
  findings: PolicyFinding[];
  warnings: PlanWarning[];
  waived: PlanWaiver[];
}

/** The plan's `policy` section: the tree's findings, then the account's and those only the account shows; warnings of waivers that silence nothing. */
export function policyFindings(
  desired: DesiredState,
  states: readonly KindState[],
  steps: readonly PlanStep[],
  resolution: Resolution,
  live: LiveSnapshot,
  people: PlanPeople,
): Reach {
  const entries: readonly PolicyRuleEntry[] = desired.settings.policy ?? [];
  const findings = [...(desired.policy ?? [])];
  const monitors = entries.length === 0 ? undefined : monitorsAfterPlan(states, steps, resolution);
  if (monitors !== undefined) findings.push(...checkAccountPolicy(entries, monitors));
  const reach = reachFindings(desired, live, people);
  findings.push(...reach.findings);
  return { findings, warnings: reach.warnings, waived: reach.waived };
}
