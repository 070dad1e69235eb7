import { badRequest } from './errors.js';
import { DAY_MS, HOUR_MS } from './time.js';

/**
 * As the service spells them: `PreviousDay` with no space, and `All` (the published definition's PresetPeriod rows
 * contradict the spec's "Previous Day", and the running service follows the published sources).
 */
export const PRESET_PERIODS = [
  'CurrentDay', 'CurrentWeek', 'CurrentMonth', 'CurrentQuarter', 'CurrentYear',
  'PreviousDay', 'PreviousWeek', 'PreviousMonth', 'PreviousQuarter', 'PreviousYear',
  'Last2Hours', 'Last6Hours', 'Last12Hours', 'Last24Hours', 'Last48Hours',
  'Last7Days', 'Last30Days', 'Last60Days', 'Last90Days', 'Last365Days',
  'Last3Months', 'Last6Months', 'Last12Months', 'Last24Months', 'All',
] as const;

/** A report's `SelectedPeriod`: every preset and the `...Excl` variants (published `PresetPeriodTypeWithExclusive`). */
export const SELECTED_PERIODS: readonly string[] = [
  ...PRESET_PERIODS,
  ...['Last2Hours', 'Last6Hours', 'Last12Hours', 'Last24Hours', 'Last48Hours', 'Last7Days', 'Last30Days', 'Last60Days', 'Last90Days', 'Last365Days', 'Last3Months', 'Last6Months', 'Last12Months', 'Last24Months'].map((p) => `${p}Excl`),
];

/** How far back `All` reaches: the simulated history is generated, so "everything" needs a start. */
const ALL_MONTHS = 24;

export interface Range {
  from: number;
  to: number;
  /** Statistics interval the preset implies (custom ranges pick one by length). */
  unit?: 'hour' | 'day' | 'month';
}

export function presetUnit(name: string): 'hour' | 'day' | 'month' {
  if (/Hours$|Day$/.test(name)) return 'hour';
  if (/Days$|Week$|Month$/.test(name) && name !== 'Last365Days') return 'day';
  return 'month';
}

const utc = (y: number, m: number, d = 1): number => Date.UTC(y, m, d);

function startOfDay(t: number): number {
  return Math.floor(t / DAY_MS) * DAY_MS;
}

function startOfWeek(t: number): number {
  const day = startOfDay(t);
  const dow = (new Date(day).getUTCDay() + 6) % 7; // Monday = 0
  return day - dow * DAY_MS;
}

/**
 * Resolves a preset in UTC. `Previous...` and `Last...` cover whole elapsed units only: the current hour,
 * day or month is excluded. `Current...` runs from the start of the unit to now.
 */
export function resolvePreset(raw: string, now: Date): Range {
  const range = resolveBounds(raw, now);
  return { ...range, unit: presetUnit(range.name) };
}

function resolveBounds(raw: string, now: Date): Range & { name: string } {
  const name = PRESET_PERIODS.find((p) => p.toLowerCase() === raw.toLowerCase());
  if (!name) {
    const hint = /\s/.test(raw) ? ` The service spells it without a space: "${raw.replace(/\s+/g, '')}".` : '';
    throw badRequest(`PresetPeriod "${raw}" is not one of: ${PRESET_PERIODS.join(', ')}.${hint}`);
  }
  const t = now.getTime();
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const q = Math.floor(m / 3) * 3;
  const today = startOfDay(t);
  const thisHour = Math.floor(t / HOUR_MS) * HOUR_MS;
  let match: RegExpMatchArray | null;
  switch (name) {
    case 'CurrentDay':
      return { from: today, to: t, name };
    case 'CurrentWeek':
      return { from: startOfWeek(t), to: t, name };
    case 'CurrentMonth':
      return { from: utc(y, m), to: t, name };
    case 'CurrentQuarter':
      return { from: utc(y, q), to: t, name };
    case 'CurrentYear':
      return { from: utc(y, 0), to: t, name };
    case 'All':
      return { from: utc(y, m - ALL_MONTHS), to: t, name };
    case 'PreviousDay':
      return { from: today - DAY_MS, to: today, name };
    case 'PreviousWeek':
      return { from: startOfWeek(t) - 7 * DAY_MS, to: startOfWeek(t), name };
    case 'PreviousMonth':
      return { from: utc(y, m - 1), to: utc(y, m), name };
    case 'PreviousQuarter':
      return { from: utc(y, q - 3), to: utc(y, q), name };
    case 'PreviousYear':
      return { from: utc(y - 1, 0), to: utc(y, 0), name };
  }
  if ((match = /^Last(\d+)Hours$/.exec(name))) return { from: thisHour - Number(match[1]) * HOUR_MS, to: thisHour, name };
  if ((match = /^Last(\d+)Days$/.exec(name))) return { from: today - Number(match[1]) * DAY_MS, to: today, name };
  if ((match = /^Last(\d+)Months$/.exec(name))) return { from: utc(y, m - Number(match[1])), to: utc(y, m), name };
  throw badRequest(`PresetPeriod "${raw}" is not supported.`);
}
