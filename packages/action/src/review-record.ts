/**
 * The reviewed-plan record: what the plan job showed on a pull request, as digests (the plan's `digest` per step and
 * `planDigest`, of the normalized change), and the head commit it was made for. The plan job writes it into its
 * sticky comment, on a hidden line, and into a file for the workflow to upload; apply on merge reads the comment.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Plan, PlanStep } from '@monsync/reconciler';

export const RECORD_VERSION = 1;

/** One reviewed step: enough to match a fresh step by digest, and to say which step it was. */
export interface ReviewedStep {
  kind: string;
  key: string;
  action: string;
  digest: string;
}

export interface ReviewRecord {
  version: typeof RECORD_VERSION;
  /** The config folder, as the markers name it. */
  config: string;
  /** The pull request's head commit the plan was made for. */
  head: string;
  planDigest: string;
  /**
   * Absent when the steps did not fit the comment: apply then accepts the plan only whole, when its `planDigest`
   * is the reviewed one.
   */
  steps?: ReviewedStep[];
}

/** The longest record line the comment holds (its plan gets the rest of the 65,000 characters). */
export const RECORD_BUDGET = 30_000;
const PREFIX = '<!-- monsync:reviewed ';
const SUFFIX = ' -->';

export function recordOf(plan: Plan, config: string, head: string): ReviewRecord {
  return {
    version: RECORD_VERSION,
    config,
    head,
    planDigest: plan.planDigest ?? '',
    steps: plan.steps.map((step) => ({ kind: step.kind, key: step.key, action: step.action, digest: step.digest ?? '' })),
  };
}

function encode(record: ReviewRecord): string {
  // gzip, then base64: short, and never holding `--` or `>`, which would end the HTML comment.
  return `${PREFIX}${gzipSync(JSON.stringify(record)).toString('base64')}${SUFFIX}`;
}

/**
 * The hidden line for the comment. A plan too large for the budget keeps only its `planDigest` (and says so in the
 * record), so that its comment still fits.
 */
export function recordLine(record: ReviewRecord): string {
  const line = encode(record);
  if (line.length <= RECORD_BUDGET) return line;
  const { steps: _steps, ...whole } = record;
  return encode(whole);
}

function isRecord(value: unknown): value is ReviewRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  const stepsOk =
    r['steps'] === undefined ||
    (Array.isArray(r['steps']) && r['steps'].every((s: unknown) => typeof s === 'object' && s !== null && typeof (s as Record<string, unknown>)['digest'] === 'string'));
  return r['version'] === RECORD_VERSION && typeof r['config'] === 'string' && typeof r['head'] === 'string' && typeof r['planDigest'] === 'string' && stepsOk;
}

/** The record on the last record line of a comment body, or undefined when there is none it can read. */
export function readRecord(body: string): ReviewRecord | undefined {
  const lines = body.split('\n').filter((line) => line.startsWith(PREFIX) && line.endsWith(SUFFIX));
  const last = lines.at(-1);
  if (last === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(gunzipSync(Buffer.from(last.slice(PREFIX.length, -SUFFIX.length), 'base64')).toString('utf8'));
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Why a step of the plan made at merge is not applied. */
export type HoldReason =
  | { why: 'new' }
  | { why: 'changed' }
  | { why: 'waits'; on: string }
  /** The record holds only the whole plan's digest, and the plan made now differs from it. */
  | { why: 'unreviewable' };

export interface HeldStep {
  step: PlanStep;
  reason: HoldReason;
}

export interface RecordComparison {
  /** Steps with a reviewed digest, and none of whose dependencies is held. */
  reviewed: PlanStep[];
  held: HeldStep[];
  /** Reviewed steps the plan made now no longer has (already done, or undone by another change). */
  gone: ReviewedStep[];
}

const slot = (s: { kind: string; key: string; action: string }): string => `${s.kind}\u0000${s.key}\u0000${s.action}`;

/**
 * Compares the plan made at merge with the reviewed record, step by step: a step whose digest was reviewed is
 * applied; a step that is new or changed since the review is held, and so is every step that depends on a held one
 * (it would fail, or write over what is held). Digests are counted, so two identical reviewed steps cover two.
 */
export function compareWithRecord(record: ReviewRecord, plan: Plan): RecordComparison {
  if (record.steps === undefined) {
    if (plan.planDigest === record.planDigest) return { reviewed: [...plan.steps], held: [], gone: [] };
    return { reviewed: [], held: plan.steps.map((step) => ({ step, reason: { why: 'unreviewable' } })), gone: [] };
  }
  const left = new Map<string, number>();
  for (const step of record.steps) left.set(step.digest, (left.get(step.digest) ?? 0) + 1);
  const reviewedSlots = new Set(record.steps.map(slot));
  const held = new Map<string, HoldReason>();
  const matched: PlanStep[] = [];
  for (const step of plan.steps) {
    const count = left.get(step.digest ?? '') ?? 0;
    if (step.digest !== undefined && count > 0) {
      left.set(step.digest, count - 1);
      matched.push(step);
    } else held.set(step.id, { why: reviewedSlots.has(slot(step)) ? 'changed' : 'new' });
  }
  // Until nothing more is held: a dependency may come after its dependant in a plan's order (deletes run in reverse).
  for (let more = true; more; ) {
    more = false;
    for (const step of matched) {
      if (held.has(step.id)) continue;
      const on = step.dependsOn.find((id) => held.has(id));
      if (on !== undefined) {
        held.set(step.id, { why: 'waits', on });
        more = true;
      }
    }
  }
  const gone: ReviewedStep[] = [];
  const unused = new Map(left);
  for (const step of record.steps) {
    const count = unused.get(step.digest) ?? 0;
    if (count > 0) {
      unused.set(step.digest, count - 1);
      gone.push(step);
    }
  }
  return {
    reviewed: plan.steps.filter((step) => !held.has(step.id)),
    held: plan.steps.filter((step) => held.has(step.id)).map((step) => ({ step, reason: held.get(step.id) ?? { why: 'new' } })),
    gone,
  };
}

/** The plan with only `steps` (in its order), and its counts to match. */
export function planOf(plan: Plan, steps: readonly PlanStep[]): Plan {
  const keep = new Set(steps.map((step) => step.id));
  const kept = plan.steps.filter((step) => keep.has(step.id));
  const summary = { ...plan.summary, create: 0, update: 0, delete: 0, ensure: 0 };
  for (const step of kept) summary[step.action] += 1;
  return { ...plan, steps: kept, summary };
}
