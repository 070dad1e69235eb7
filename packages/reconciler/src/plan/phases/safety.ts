/**
 * Phase 6 of `assemblePlan`, safety: whether a plan looks like an accident (a deleted folder, a bad merge, a
 * template applied to everything) rather than an edit. See docs/architecture.md, "Safety". Per kind, a plan is
 * unsafe when its deletes (updates) are
 * - more than `maxDeletePercent` (`maxUpdatePercent`) of the kind's live objects AND at least `minDeleteCount`
 *   (`minUpdateCount`) of them (rule `share`): one edit in a small account is a share, not an accident;
 * - every live object of an object kind that had 2 or more (rule `every`), unless `maxDeletePercent` is 100;
 * and when the deletes of objects of every kind together pass the share and the count (rule `together`): a removed
 * file or folder holding a few objects of each kind. Relation rows (memberships, accesses, schedule copies: rows
 * with no identifier of their own) are edits of their parent, weighed with `safety.relations` and never added to
 * the objects. Children that go with a deleted parent (a group's memberships) are part of that one delete.
 */
import type { SafetyLimits, SafetySettings } from '@monsync/schema';
import type { KindModule } from '../../kinds/contract.js';
import type { PlanStep, PlanViolation, StepKind } from '../types.js';
import type { KindState } from './state.js';

type Counted = 'delete' | 'update';

function percentOf(count: number, total: number): number {
  return Math.round((count / total) * 1000) / 10;
}

/** A row linking two objects: no identifier of its own, or a relation module (docs/architecture.md, "Safety"). */
export function isRelationRow(mod: Pick<KindModule, 'guidField' | 'relation'>): boolean {
  return mod.relation === true || mod.guidField === '';
}

interface Tally {
  delete: number;
  update: number;
}

/** Deletes and updates per kind, in one pass over the steps (100,000 of them at account scale). */
function tally(steps: readonly PlanStep[]): Map<StepKind, Tally> {
  const counts = new Map<StepKind, Tally>();
  for (const step of steps) {
    if (step.action !== 'delete' && step.action !== 'update') continue;
    let entry = counts.get(step.kind);
    if (entry === undefined) {
      entry = { delete: 0, update: 0 };
      counts.set(step.kind, entry);
    }
    entry[step.action] += 1;
  }
  return counts;
}

interface Measured {
  kind: string;
  title: string;
  action: Counted;
  count: number;
  total: number;
  limits: SafetyLimits;
  /** `safety.` or `safety.relations.`: where the limits are set. */
  prefix: string;
}

const LIMIT_FIELD = { delete: 'maxDeletePercent', update: 'maxUpdatePercent' } as const;
const COUNT_FIELD = { delete: 'minDeleteCount', update: 'minUpdateCount' } as const;
const VERB = { delete: 'deletes', update: 'updates' } as const;

function violation(m: Measured, rule: NonNullable<PlanViolation['rule']>): PlanViolation {
  const limit = m.limits[LIMIT_FIELD[m.action]];
  const minCount = m.limits[COUNT_FIELD[m.action]];
  const percent = percentOf(m.count, m.total);
  const setting = `${m.prefix}${LIMIT_FIELD[m.action]}`;
  const what =
    rule === 'every'
      ? `plan deletes every one of the ${m.total} live ${m.title}`
      : `plan ${VERB[m.action]} ${m.count} of ${m.total} live ${m.title} (${percent}%), over ${limit}% and at least ${minCount} (${setting}, ${m.prefix}${COUNT_FIELD[m.action]})`;
  return {
    kind: m.kind,
    action: m.action,
    count: m.count,
    total: m.total,
    percent,
    limit,
    rule,
    minCount,
    setting,
    message: `${what}; review it, then apply with --allow-unsafe, or raise ${setting} in monsync.yaml`,
  };
}

/** The rule `share` and, for object kinds' deletes, `every`; undefined when neither applies. */
function judged(m: Measured, relation: boolean): PlanViolation | undefined {
  const limit = m.limits[LIMIT_FIELD[m.action]];
  if (m.count >= m.limits[COUNT_FIELD[m.action]] && (m.count / m.total) * 100 > limit) return violation(m, 'share');
  if (m.action === 'delete' && !relation && m.count === m.total && m.total >= 2 && limit < 100) return violation(m, 'every');
  return undefined;
}

export function safetyViolations(states: readonly KindState[], steps: readonly PlanStep[], safety: SafetySettings): PlanViolation[] {
  const violations: PlanViolation[] = [];
  const counts = tally(steps);
  const objects = { count: 0, total: 0, flagged: false };
  for (const state of states) {
    const { mod } = state;
    // A kind matched as sets (match-sets.ts) has one live object per declaration, counted without building them.
    const total = state.sets?.paired ?? state.live.length;
    if (!state.managed || mod.ensureOnly === true || total === 0) continue;
    const relation = isRelationRow(mod);
    const planned = counts.get(mod.kind) ?? { delete: 0, update: 0 };
    const base = { kind: mod.kind, title: mod.title.many, total, limits: relation ? safety.relations : safety, prefix: relation ? 'safety.relations.' : 'safety.' };
    for (const [action, count] of [['delete', planned.delete], ['update', planned.update]] as const) {
      if (count === 0) continue;
      const found = judged({ ...base, action, count }, relation);
      if (found !== undefined) violations.push(found);
      if (found !== undefined && action === 'delete' && !relation) objects.flagged = true;
    }
    if (relation) continue;
    objects.count += planned.delete;
    objects.total += total;
  }
  const together: Measured = { kind: '*', title: 'objects of all kinds together', action: 'delete', count: objects.count, total: objects.total, limits: safety, prefix: 'safety.' };
  // Where one kind is already over, the sum says nothing more.
  if (!objects.flagged && objects.count >= safety.minDeleteCount && (objects.count / objects.total) * 100 > safety.maxDeletePercent) violations.push(violation(together, 'together'));
  return violations;
}
