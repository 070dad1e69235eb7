/**
 * The defaults of `safety:` in monsync.yaml and how written values replace them. The rule that reads them is the
 * reconciler's safety phase (`packages/reconciler/src/plan/phases/safety.ts`; docs/architecture.md, "Safety").
 */
import type { SafetyLimits, SafetySettings } from './types.js';

/**
 * A plan is unsafe past a share AND a count (so one edit in a small account is not), or when it deletes every object
 * of a kind that had several; relation rows are edits of their parent and need a larger count.
 */
export const DEFAULT_SAFETY: Readonly<SafetySettings> = Object.freeze({
  maxDeletePercent: 30,
  maxUpdatePercent: 50,
  minDeleteCount: 3,
  minUpdateCount: 10,
  relations: Object.freeze({ maxDeletePercent: 30, maxUpdatePercent: 50, minDeleteCount: 10, minUpdateCount: 10 }),
});

const SAFETY_PERCENTS = ['maxDeletePercent', 'maxUpdatePercent'] as const;
const SAFETY_COUNTS = ['minDeleteCount', 'minUpdateCount'] as const;

/** The limits written in `safety:` (or its `relations:`) over the defaults; values the schema refuses are left out. */
export function safetyLimits(written: unknown, defaults: Readonly<SafetyLimits>): SafetyLimits {
  const { maxDeletePercent, maxUpdatePercent, minDeleteCount, minUpdateCount } = defaults;
  const limits: SafetyLimits = { maxDeletePercent, maxUpdatePercent, minDeleteCount, minUpdateCount };
  if (written === null || typeof written !== 'object' || Array.isArray(written)) return limits;
  const fields = written as Readonly<Record<string, unknown>>;
  for (const field of SAFETY_PERCENTS) {
    const v = fields[field];
    if (typeof v === 'number' && v >= 0 && v <= 100) limits[field] = v;
  }
  for (const field of SAFETY_COUNTS) {
    const v = fields[field];
    if (typeof v === 'number' && Number.isInteger(v) && v >= 1) limits[field] = v;
  }
  return limits;
}
