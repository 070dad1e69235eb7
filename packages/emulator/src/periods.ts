import { badRequest } from './errors.js';
import { DAY_MS, HOUR_MS } from './time.js';

export const PRESET_PERIODS = [
  'CurrentDay', 'CurrentWeek', 'CurrentMonth', 'CurrentQuarter', 'CurrentYear',
  'Previous Day', 'Previous Week', 'Previous Month', 'Previous Quarter', 'Previous Year',
  'Last2Hours', 'Last6Hours', 'Last12Hours', 'Last24Hours', 'Last48Hours',
  'Last7Days', 'Last30Days', 'Last60Days', 'Last90Days', 'Last365Days',
  'Last3Months', 'Last6Months', 'Last12Months', 'Last24Months',
] as const;

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
  const name = PRESET_PERIODS.find((p) => p.replace(/\s/g, '').toLowerCase() === raw.replace(/\s/g, '').toLowerCase());
  if (!name) throw badRequest(`PresetPeriod "${raw}" is not one of: ${PRESET_PERIODS.join(', ')}.`);
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
    case 'Previous Day':
      return { from: today - DAY_MS, to: today, name };
    case 'Previous Week':
      return { from: startOfWeek(t) - 7 * DAY_MS, to: startOfWeek(t), name };
    case 'Previous Month':
      return { from: utc(y, m - 1), to: utc(y, m), name };
    case 'Previous Quarter':
      return { from: utc(y, q - 3), to: utc(y, q), name };
    case 'Previous Year':
      return { from: utc(y - 1, 0), to: utc(y, 0), name };
  }
  if ((match = /^Last(\d+)Hours$/.exec(name))) return { from: thisHour - Number(match[1]) * HOUR_MS, to: thisHour, name };
  if ((match = /^Last(\d+)Days$/.exec(name))) return { from: today - Number(match[1]) * DAY_MS, to: today, name };
  if ((match = /^Last(\d+)Months$/.exec(name))) return { from: utc(y, m - Number(match[1])), to: utc(y, m), name };
  throw badRequest(`PresetPeriod "${raw}" is not supported.`);
}
