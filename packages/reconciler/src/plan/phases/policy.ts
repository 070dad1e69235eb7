/**
 * Phase 6 of `assemblePlan`, policy: the findings of the tree's policy rules (made by the loader, with their
 * positions) and those of the rules about the account (`scope: 'account'` in the schema's policy/rules.ts),
 * checked on the monitors the account would hold once the plan is applied.
 */
import { checkAccountPolicy, MONITOR_KIND, type AccountMonitor, type PolicyRuleEntry } from '@monsync/schema';
import type { DesiredState } from '../../desired.js';
import type { PlanStep, PolicyFinding } from '../types.js';
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

/** The plan's `policy` section: the tree's findings, then the account's. */
export function policyFindings(desired: DesiredState, states: readonly KindState[], steps: readonly PlanStep[], resolution: Resolution): PolicyFinding[] {
  const entries: readonly PolicyRuleEntry[] = desired.settings.policy ?? [];
  const findings = [...(desired.policy ?? [])];
  const monitors = entries.length === 0 ? undefined : monitorsAfterPlan(states, steps, resolution);
  if (monitors !== undefined) findings.push(...checkAccountPolicy(entries, monitors));
  return findings;
}
