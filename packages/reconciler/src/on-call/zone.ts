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

/**
 * An IANA zone; offsets are read from the runtime's time-zone data (Node's ICU). A name the runtime does not list (an
 * alias like `Asia/Calcutta`, a name in other letter case, or no zone at all) is checked by `Intl.DateTimeFormat`,
 * which throws a `RangeError` for no zone.
 */
export function ianaZone(name: string): Zone {
  const cached = ianaCache.get(name);
  if (cached !== undefined) return cached;
  const zone = !tzSwitchWorks()
    ? intlZone(name)
    : readZone(name, listedZones().has(name) ? name : new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone);
  ianaCache.set(name, zone);
  return zone;
}

let listed: ReadonlySet<string> | undefined;

function listedZones(): ReadonlySet<string> {
  listed ??= new Set(Intl.supportedValuesOf('timeZone'));
  return listed;
}

const QUARTER = 15 * MINUTE;
const SIX_HOURS = 24;
const QUARTERS_A_WEEK = (7 * DAY) / QUARTER;

/**
 * A zone whose offsets are read with `TZ` set to `tz`, a week at a time, and cached per quarter hour. Not checked:
 * a name ICU does not know reads as UTC all year.
 *
 * Read through `Date#getTimezoneOffset`, not an `Intl.DateTimeFormat`: the first `DateTimeFormat` of a process makes V8
 * list the locales it has date formats for, 17-26 ms of CPU of every `monsync plan` that previews on-call, while a `TZ`
 * switch reads the zone's rules alone (about 25 µs; Node tells V8 of every change of `process.env.TZ`).
 */
function readZone(name: string, tz: string): Zone {
  const byQuarter = new Map<number, number>();
  const read = (quarters: Iterable<number>): void =>
    withTz(tz, () => {
      for (const q of quarters) if (!byQuarter.has(q)) byQuarter.set(q, 0 - Math.round(new Date(q * QUARTER).getTimezoneOffset()));
    });
  const offsetAt = (utcMs: number): number => {
    // Every zone in use changes offset on a quarter hour, so the offset at the start of a quarter holds for all of it.
    const quarter = Math.floor(utcMs / QUARTER);
    const hit = byQuarter.get(quarter);
    if (hit !== undefined) return hit;
    // A week's offsets read every six hours; only a six hours whose ends differ (a change of offset) is then read
    // quarter by quarter. No zone of the tz database changes offset twice within six hours.
    const first = Math.floor(quarter / QUARTERS_A_WEEK) * QUARTERS_A_WEEK;
    const probes = Array.from({ length: QUARTERS_A_WEEK / SIX_HOURS + 1 }, (_, i) => first + i * SIX_HOURS);
    read(probes);
    const changes: number[] = [];
    for (const start of probes.slice(0, -1)) {
      const offset = byQuarter.get(start);
      if (offset !== undefined && offset === byQuarter.get(start + SIX_HOURS)) for (let q = start + 1; q < start + SIX_HOURS; q += 1) byQuarter.set(q, offset);
      else for (let q = start + 1; q < start + SIX_HOURS; q += 1) changes.push(q);
    }
    if (changes.length > 0) read(changes);
    return byQuarter.get(quarter) ?? 0;
  };
  const zone: Zone = { name, offsetAt };
  // A `TZ` switch costs more than the reads it serves: instants wanted together are read in one.
  readAhead.set(zone, (instants) => read(instants.map((utcMs) => Math.floor(utcMs / QUARTER))));
  return zone;
}

const readAhead = new WeakMap<Zone, (instants: readonly number[]) => void>();

let tzWorks: boolean | undefined;
let tzSwitching = false;

/**
 * Whether the on-call preview may read zone offsets by switching `process.env.TZ` for a moment (see readZone) rather
 * than through Intl, whose first date format costs 17-26 ms of CPU. Off by default: `TZ` is the whole process's, and
 * while it is switched, local time read by any other thread of the process (a worker of a program that embeds this
 * library) is in that zone. Only a program that owns its process turns it on: the monsync command and the action.
 */
export function readZonesBySwitchingTz(enabled: boolean): void {
  if (enabled === tzSwitching) return;
  tzSwitching = enabled;
  // Zones already read stay right, but each reading mode is kept to the zones it read itself.
  ianaCache.clear();
}

/**
 * Whether zones are read with `TZ` switched: allowed (readZonesBySwitchingTz), and setting `process.env.TZ` changes the zone `Date` reads local time in (Node documents zone names in `TZ`, and
 * tests them on Linux and macOS); where it does not, zones are read with Intl as before.
 */
function tzSwitchWorks(): boolean {
  if (!tzSwitching) return false;
  const reads = (tz: string, utcMs: number, minutes: number): boolean => {
    let offset = NaN;
    withTz(tz, () => (offset = -new Date(utcMs).getTimezoneOffset()));
    return offset === minutes;
  };
  tzWorks ??= reads('Asia/Kolkata', 0, 330) && reads('America/New_York', 0, -300);
  return tzWorks;
}

/** A zone read with an `Intl.DateTimeFormat` (where `TZ` cannot be switched), its offsets cached per quarter hour. */
function intlZone(name: string): Zone {
  const format = new Intl.DateTimeFormat('en-US', { timeZone: name, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' });
  const byQuarter = new Map<number, number>();
  const offsetAt = (utcMs: number): number => {
    const quarter = Math.floor(utcMs / QUARTER);
    const hit = byQuarter.get(quarter);
    if (hit !== undefined) return hit;
    const parts: Record<string, number> = {};
    for (const part of format.formatToParts(new Date(quarter * QUARTER))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
    const local = Date.UTC(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0);
    const offset = Math.round((local - quarter * QUARTER) / MINUTE);
    byQuarter.set(quarter, offset);
    return offset;
  };
  return { name, offsetAt };
}

/** Runs `read` with the process's local time zone set to `tz`, then puts `TZ` back as it was (unset included). */
function withTz(tz: string, read: () => void): void {
  const before = process.env['TZ'];
  process.env['TZ'] = tz;
  try {
    read();
  } finally {
    if (before === undefined) delete process.env['TZ'];
    else process.env['TZ'] = before;
  }
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
 * The IANA zone of a place that agrees with the record (`amsterdam` -> `Europe/Amsterdam`, `new delhi` -> none): from
 * the runtime's list, or a name in the first region whose zone of that name agrees, one the runtime accepts but lists
 * under an older name (`Asia/Kolkata`, listed as `Asia/Calcutta`).
 *
 * A region's name is read without asking Intl whether it is a zone (see readZone), so the first region whose name
 * agrees is taken, not the first whose name is a zone (they differ only if a place's name were a zone in two regions).
 */
function zoneOfPlace(place: string, record: TimezoneRecord, year: number): Zone | undefined {
  if (placeIndex === undefined) {
    placeIndex = new Map();
    for (const name of listedZones()) {
      const key = name.slice(name.lastIndexOf('/') + 1).replace(/_/g, ' ').toLowerCase();
      if (!placeIndex.has(key)) placeIndex.set(key, name);
    }
  }
  const listedName = placeIndex.get(place);
  if (listedName !== undefined) {
    const zone = ianaZone(listedName);
    return agrees(zone, record, year) ? zone : undefined;
  }
  const tail = place.replace(/(^|\s)\S/g, (c) => c.toUpperCase()).replace(/ /g, '_');
  for (const region of REGIONS) {
    const name = `${region}/${tail}`;
    // ICU takes a `TZ` with digits or commas for a POSIX rule, not a zone name, and may fall back to the machine's
    // zone: such a name, or any where `TZ` cannot be switched, is looked up as before, the first region's that is a zone.
    if (!tzSwitchWorks() || /[\d,]/.test(name)) {
      if (!isZone(name)) continue;
      const zone = ianaZone(name);
      return agrees(zone, record, year) ? zone : undefined;
    }
    const zone = ianaCache.get(name) ?? readZone(name, name);
    if (!agrees(zone, record, year)) continue;
    // A name ICU does not know reads as UTC at every instant, while every zone of these regions either keeps an offset
    // today or kept local mean time in 1800 (checked over the 406 Node 20 lists): one reading UTC in both is no zone
    // (`Europe/Coordinated_Universal_Time`), and Intl, whose first use costs the 17-26 ms, is not asked.
    if (utcAllYear(zone, year) && zone.offsetAt(LOCAL_MEAN_TIME) === 0) continue;
    ianaCache.set(name, zone);
    return zone;
  }
  return undefined;
}

const LOCAL_MEAN_TIME = Date.UTC(1800, 0, 1);

function utcAllYear(zone: Zone, year: number): boolean {
  return [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].every((month) => zone.offsetAt(Date.UTC(year, month, 15)) === 0);
}

function isZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Whether an IANA zone has the record's standard offset and daylight saving (checked over one year). */
function agrees(zone: Zone, record: TimezoneRecord, year: number): boolean {
  const instants = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((month) => Date.UTC(year, month, 15));
  readAhead.get(zone)?.(instants);
  const offsets = instants.map((at) => zone.offsetAt(at));
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
  // (`edinburgh`) costs a read per region, and places after the first that agrees are never used.
  for (const name of names) {
    const zone = zoneOfPlace(name, record, year);
    if (zone !== undefined) return zone;
  }
  for (const [pattern, name] of REGION_ZONES) {
    if (!pattern.test(description)) continue;
    const zone = name === 'UTC' ? UTC : ianaZone(name);
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
