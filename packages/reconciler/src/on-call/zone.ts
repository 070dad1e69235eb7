/**
 * Time zones for the on-call preview. The service names an operator's zone by a `TimeZoneId` whose record
 * (`GET /Timezone`) gives only a description, a standard offset and whether daylight saving applies, not the rules
 * of when it does. The preview needs those rules (an Amsterdam night shift moves by an hour in UTC twice a year), so a
 * record is matched to an IANA zone by the places its description names, checked against the record's offsets; a
 * record that matches none keeps its standard offset all year, and says so.
 */

/** A zone the preview converts wall-clock times in. */
export interface Zone {
  /** IANA name (`Europe/Amsterdam`), `UTC`, or a fixed offset (`UTC+05:30`). */
  readonly name: string;
  /** Minutes east of UTC at this instant. */
  offsetAt(utcMs: number): number;
  /** Set when the zone's daylight-saving rules are unknown and its standard offset is used all year. */
  readonly approximate?: string;
}

/** A `GET /Timezone` record, as the client reads it. */
export interface TimezoneRecord {
  TimezoneId: number;
  Description?: string;
  OffsetFromUtc?: number;
  HasDaylightSaving?: boolean;
  DaylightSavingOffset?: number;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

export const UTC: Zone = { name: 'UTC', offsetAt: () => 0 };

export function fixedZone(offsetMinutes: number, approximate?: string): Zone {
  if (offsetMinutes === 0 && approximate === undefined) return UTC;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const name = `UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  return approximate === undefined ? { name, offsetAt: () => offsetMinutes } : { name, offsetAt: () => offsetMinutes, approximate };
}

const ianaCache = new Map<string, Zone>();

/** An IANA zone; offsets are read from the runtime's time-zone data (Node's ICU) and cached per hour. */
export function ianaZone(name: string): Zone {
  const cached = ianaCache.get(name);
  if (cached !== undefined) return cached;
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: name,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  });
  const byHour = new Map<number, number>();
  const offsetAt = (utcMs: number): number => {
    // Every zone in use changes offset on a quarter hour, so the offset at the start of a quarter holds for all of it.
    const quarter = Math.floor(utcMs / (15 * MINUTE));
    const hit = byHour.get(quarter);
    if (hit !== undefined) return hit;
    const parts: Record<string, number> = {};
    for (const part of format.formatToParts(new Date(quarter * 15 * MINUTE))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
    const local = Date.UTC(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0);
    const offset = Math.round((local - quarter * 15 * MINUTE) / MINUTE);
    byHour.set(quarter, offset);
    return offset;
  };
  const zone: Zone = { name, offsetAt };
  ianaCache.set(name, zone);
  return zone;
}

/** Zones whose descriptions name a region rather than places (the descriptions Windows time zones carry). */
const REGION_ZONES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bEastern Time \(US/i, 'America/New_York'],
  [/\bCentral Time \(US/i, 'America/Chicago'],
  [/\bMountain Time \(US/i, 'America/Denver'],
  [/\bPacific Time \(US/i, 'America/Los_Angeles'],
  [/\bAtlantic Time \(Canada/i, 'America/Halifax'],
  [/\bAlaska\b/i, 'America/Anchorage'],
  [/\bHawaii\b/i, 'Pacific/Honolulu'],
  [/\bCoordinated Universal Time\b/i, 'UTC'],
];

let placeIndex: Map<string, string> | undefined;

const REGIONS = ['Europe', 'America', 'Asia', 'Africa', 'Australia', 'Pacific', 'Atlantic', 'Indian'];

/**
 * The IANA zone of a place (`amsterdam` -> `Europe/Amsterdam`, `new delhi` -> none): from the runtime's list, or a
 * name it accepts but lists under an older one (`Asia/Kolkata`, listed as `Asia/Calcutta`).
 */
function zoneOfPlace(place: string): string | undefined {
  if (placeIndex === undefined) {
    placeIndex = new Map();
    for (const name of Intl.supportedValuesOf('timeZone')) {
      const key = name.slice(name.lastIndexOf('/') + 1).replace(/_/g, ' ').toLowerCase();
      if (!placeIndex.has(key)) placeIndex.set(key, name);
    }
  }
  const listed = placeIndex.get(place);
  if (listed !== undefined) return listed;
  const tail = place.replace(/(^|\s)\S/g, (c) => c.toUpperCase()).replace(/ /g, '_');
  for (const region of REGIONS) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: `${region}/${tail}` });
      return `${region}/${tail}`;
    } catch {
      // Not a zone of this region.
    }
  }
  return undefined;
}

/** Whether an IANA zone has the record's standard offset and daylight saving (checked over one year). */
function agrees(zone: Zone, record: TimezoneRecord, year: number): boolean {
  const offsets = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((month) => zone.offsetAt(Date.UTC(year, month, 15)));
  const standard = Math.min(...offsets);
  const saving = Math.max(...offsets) - standard;
  if (record.OffsetFromUtc !== undefined && standard !== record.OffsetFromUtc) return false;
  if (record.HasDaylightSaving === true) return saving === (record.DaylightSavingOffset ?? saving) && saving > 0;
  return saving === 0;
}

/**
 * The zone of a `GET /Timezone` record: the IANA zone of the first place its description names whose offsets agree
 * with the record (`(UTC+01:00) Amsterdam, Berlin, ...` -> `Europe/Amsterdam`), a region's zone for descriptions like
 * `Eastern Time (US & Canada)`, else the record's standard offset all year (`approximate` says why).
 */
export function zoneOfRecord(record: TimezoneRecord, year: number): Zone {
  const description = record.Description ?? '';
  const names = description
    .replace(/^\s*\([^)]*\)\s*/, '')
    .split(',')
    .map((place) => place.trim().toLowerCase())
    .filter((place) => place !== '');
  // Places are looked up one at a time, in order, up to the first that agrees: a place that names no zone
  // (`edinburgh`) costs a failed Intl lookup per region, and places after the first that agrees are never used.
  const places = function* (): Generator<string | undefined> {
    for (const name of names) yield zoneOfPlace(name);
    for (const [pattern, zone] of REGION_ZONES) if (pattern.test(description)) yield zone;
  };
  for (const candidate of places()) {
    if (candidate === undefined) continue;
    const zone = candidate === 'UTC' ? UTC : ianaZone(candidate);
    if (agrees(zone, record, year)) return zone;
  }
  const offset = record.OffsetFromUtc ?? 0;
  if (record.HasDaylightSaving !== true) return fixedZone(offset);
  return fixedZone(offset, `time zone ${record.TimezoneId} ("${description}") names no place whose daylight-saving rules are known: its standard offset is used all year`);
}

/** Wall-clock fields of an instant in a zone, as a UTC-based number (`Date.UTC` of the local fields). */
export function toLocal(zone: Zone, utcMs: number): number {
  return utcMs + zone.offsetAt(utcMs) * MINUTE;
}

/**
 * The instant of a wall-clock time (`Date.UTC` of the local fields), resolved as Temporal's `compatible` does: a time
 * a daylight-saving change skips is read with the offset before the change (02:30 on the March change in Amsterdam is
 * 03:30 summer time); a time it repeats is the earlier of the two.
 */
export function fromLocal(zone: Zone, localMs: number): number {
  const before = zone.offsetAt(localMs - DAY);
  const after = zone.offsetAt(localMs + DAY);
  const valid = [...new Set([before, after])].map((offset) => localMs - offset * MINUTE).filter((utc) => toLocal(zone, utc) === localMs);
  if (valid.length > 0) return Math.min(...valid);
  return localMs - before * MINUTE;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
