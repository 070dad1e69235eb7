/** Config trees shared by the apply tests, and the checks they make on the account afterwards. */
import type { DesiredState } from '../../src/desired.js';
import { splitMarker } from '../../src/plan/markers.js';
import { aGroup, aMonitor, anItem, anSla, aPeriod, aReport, aSection, desiredState, secret } from '../../src/test-utils/index.js';
import type { Harness } from './harness.js';

export const PRUNE_ALL = { monitors: { prune: true }, monitorGroups: { prune: true }, vault: { prune: true }, slas: { prune: true }, scheduledReports: { prune: true } };
const NO_LIMITS = { maxDeletePercent: 100, maxUpdatePercent: 100 };

/** A mid-sized account: every kind, vault references, memberships; `variant` changes fields, renames and drops some. */
export function fleet(variant: 0 | 1, secretValue = 'CANARY-fleet-4d1e'): DesiredState {
  const sections = ['Web', 'Api'].map((name) =>
    aSection({ Name: name }, [0, 1, 2].filter((i) => variant === 0 || i !== 2).map((i) => anItem({ Name: `login-${i}`, UserName: `robot-${i}-${variant}`, Password: secret(`${secretValue}-${name}-${i}`) }))),
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
  return desiredState({ manage: PRUNE_ALL, safety: NO_LIMITS, vaultSections: sections, monitors, monitorGroups: groups, slas, scheduledReports: reports });
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
  return [...counts].filter(([, n]) => n > 1).map(([k, n]) => `${k} x${n}`);
}
