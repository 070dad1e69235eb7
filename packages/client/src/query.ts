/**
 * Query rules checked before sending, so a mistake costs no request and gets a message saying how to fix it.
 */
import { PresetPeriods } from './enums.js';
import { valueRename } from './wire/renames.js';
import { InvalidQueryError } from './errors.js';
import type { HttpMethod } from './transport.js';

const PRESETS = new Set<string>(Object.values(PresetPeriods));
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

export interface QueryContext {
  method: HttpMethod;
  route: string;
  path: string;
}

export function invalid(ctx: QueryContext, problem: string): InvalidQueryError {
  return new InvalidQueryError({
    method: ctx.method,
    path: ctx.path,
    route: ctx.route,
    status: 0,
    message: `${ctx.method} ${ctx.path}: ${problem} (request not sent)`,
  });
}

/** `Take` is a whole number 1..100 (the spec says 0..100 in one place and 1..100 in another; 0 returns nothing). */
export function checkTake(ctx: QueryContext, take: unknown): void {
  if (take === undefined) return;
  if (typeof take !== 'number' || !Number.isInteger(take) || take < 1 || take > 100) {
    throw invalid(ctx, `Take must be a whole number from 1 to 100, got ${JSON.stringify(take)}`);
  }
}

/**
 * `Start`/`End` are used together and never with `PresetPeriod`; `PresetPeriod` must be a known value.
 * Returns the query with Dates written in the format the endpoint expects.
 */
export function checkPeriod<Q extends { Start?: string | Date; End?: string | Date; PresetPeriod?: string }>(
  ctx: QueryContext,
  query: Q,
  format: 'day' | 'datetime',
): Omit<Q, 'Start' | 'End'> & { Start?: string; End?: string } {
  const { Start, End, PresetPeriod } = query;
  if ((Start === undefined) !== (End === undefined)) {
    throw invalid(ctx, `Start and End are used together: ${Start === undefined ? 'add Start' : 'add End'} or remove ${Start === undefined ? 'End' : 'Start'}`);
  }
  if (Start !== undefined && PresetPeriod !== undefined) {
    throw invalid(ctx, 'PresetPeriod cannot be combined with Start/End: use one or the other');
  }
  // The spec's `Previous Day` is accepted and sent as the service spells it (`PreviousDay`).
  const preset = valueRename('query', 'PresetPeriod', PresetPeriod)?.to ?? PresetPeriod;
  if (preset !== undefined && !PRESETS.has(preset)) {
    throw invalid(ctx, `unknown PresetPeriod ${JSON.stringify(PresetPeriod)}; use one of PresetPeriods (e.g. "Last24Hours", "PreviousDay")`);
  }
  const out: Record<string, unknown> = { ...query };
  if (preset !== undefined) out.PresetPeriod = preset;
  if (Start !== undefined && End !== undefined) {
    const start = writeDate(ctx, 'Start', Start, format);
    const end = writeDate(ctx, 'End', End, format);
    if (start > end) throw invalid(ctx, `Start (${start}) is after End (${end})`);
    out.Start = start;
    out.End = end;
  }
  return out as Omit<Q, 'Start' | 'End'> & { Start?: string; End?: string };
}

function writeDate(ctx: QueryContext, name: string, value: string | Date, format: 'day' | 'datetime'): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw invalid(ctx, `${name} is an invalid Date`);
    const iso = value.toISOString();
    return format === 'day' ? iso.slice(0, 10) : iso.slice(0, 19);
  }
  const pattern = format === 'day' ? DAY : DATETIME;
  if (typeof value !== 'string' || !pattern.test(value)) {
    const expected = format === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM-DDTHH:MM:SS (no zone, no milliseconds)';
    throw invalid(ctx, `${name} must be ${expected}, got ${JSON.stringify(value)}`);
  }
  return value;
}
