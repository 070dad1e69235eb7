import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromLocal, ianaZone, readZonesBySwitchingTz, toLocal, zoneOfRecord } from './zone.js';

// Zones are read through Intl unless the host allows switching TZ (the monsync command does): both give the same answers.
describe.each([
  ['through Intl', false],
  ['with TZ switched', true],
])('zones read %s', (_how, switching) => {
  beforeAll(() => readZonesBySwitchingTz(switching));
  afterAll(() => readZonesBySwitchingTz(false));

  describe('zoneOfRecord', () => {
    it('matches a record to the IANA zone of the first place it names whose offsets agree', () => {
      const record = { TimezoneId: 3, Description: '(UTC+01:00) Amsterdam, Berlin, Rome, Stockholm, Vienna', OffsetFromUtc: 60, HasDaylightSaving: true, DaylightSavingOffset: 60 };
      expect(zoneOfRecord(record, 2026).name).toBe('Europe/Amsterdam');
    });

    it('skips a place it has no zone for (New Delhi) and takes the next (Kolkata)', () => {
      const record = { TimezoneId: 5, Description: '(UTC+05:30) New Delhi, Chennai, Kolkata, Mumbai', OffsetFromUtc: 330, HasDaylightSaving: false };
      expect(zoneOfRecord(record, 2026).name).toBe('Asia/Kolkata');
    });

    it('matches a region description (Eastern Time) to its zone', () => {
      const record = { TimezoneId: 4, Description: '(UTC-05:00) Eastern Time (US & Canada)', OffsetFromUtc: -300, HasDaylightSaving: true, DaylightSavingOffset: 60 };
      expect(zoneOfRecord(record, 2026).name).toBe('America/New_York');
    });

    it('matches a UTC record without daylight saving to a zone only where the place names one (Timbuktu, not Edinburgh)', () => {
      expect(zoneOfRecord({ TimezoneId: 10, Description: '(UTC+00:00) Edinburgh, Timbuktu', OffsetFromUtc: 0, HasDaylightSaving: false }, 2026).name).toBe('Africa/Timbuktu');
      expect(zoneOfRecord({ TimezoneId: 11, Description: '(UTC+00:00) Edinburgh', OffsetFromUtc: 0, HasDaylightSaving: false }, 2026).name).toBe('UTC');
    });

    it('refuses a place whose offset disagrees with the record', () => {
      const record = { TimezoneId: 9, Description: '(UTC+02:00) Amsterdam', OffsetFromUtc: 120, HasDaylightSaving: false };
      expect(zoneOfRecord(record, 2026).name).toBe('UTC+02:00');
    });

    it('keeps the standard offset all year, and says so, when no place of a zone with daylight saving is known', () => {
      const zone = zoneOfRecord({ TimezoneId: 8, Description: '(UTC+01:00) Nowhere', OffsetFromUtc: 60, HasDaylightSaving: true, DaylightSavingOffset: 60 }, 2026);
      expect(zone.name).toBe('UTC+01:00');
      expect(zone.offsetAt(Date.parse('2026-07-01T00:00:00Z'))).toBe(60);
      expect(zone.approximate).toMatch(/time zone 8 .* standard offset is used all year/);
    });
  });

  describe('fromLocal', () => {
    const amsterdam = ianaZone('Europe/Amsterdam');

    it('reads a wall-clock time the March change skips with the offset before it (02:30 is 03:30 summer time)', () => {
      expect(new Date(fromLocal(amsterdam, Date.UTC(2026, 2, 29, 2, 30))).toISOString()).toBe('2026-03-29T01:30:00.000Z');
    });

    it('reads a wall-clock time the October change repeats as the earlier instant', () => {
      expect(new Date(fromLocal(amsterdam, Date.UTC(2026, 9, 25, 2, 30))).toISOString()).toBe('2026-10-25T00:30:00.000Z');
    });

    it('round-trips every other quarter hour of a year', () => {
      for (let at = Date.UTC(2026, 0, 1); at < Date.UTC(2027, 0, 1); at += 15 * 60_000) {
        const local = toLocal(amsterdam, at);
        const back = fromLocal(amsterdam, local);
        // Only the repeated hour in October maps two instants to one wall-clock time.
        if (back !== at) expect(toLocal(amsterdam, back)).toBe(local);
      }
    });
  });

  describe('ianaZone', () => {
    it('reads summer and winter offsets of a zone with daylight saving', () => {
      const amsterdam = ianaZone('Europe/Amsterdam');
      expect(amsterdam.offsetAt(Date.UTC(2026, 0, 15))).toBe(60);
      expect(amsterdam.offsetAt(Date.UTC(2026, 6, 15))).toBe(120);
    });

    it('changes offset at the quarter hour of the change, not at the start of its day', () => {
      const amsterdam = ianaZone('Europe/Amsterdam');
      expect(amsterdam.offsetAt(Date.UTC(2026, 2, 29, 0, 59))).toBe(60);
      expect(amsterdam.offsetAt(Date.UTC(2026, 2, 29, 1, 0))).toBe(120);
    });

    it('accepts a name the runtime lists under another spelling (an alias, other letter case)', () => {
      expect(ianaZone('Asia/Calcutta').offsetAt(Date.UTC(2026, 0, 1))).toBe(330);
      expect(ianaZone('america/new_york').offsetAt(Date.UTC(2026, 0, 1))).toBe(-300);
    });

    it('refuses a name that is no zone', () => {
      expect(() => ianaZone('Nowhere/Atlantis')).toThrow(RangeError);
    });

    it('leaves the process time zone as it found it', () => {
      const before = process.env['TZ'];
      ianaZone('Australia/Lord_Howe').offsetAt(Date.UTC(2026, 0, 1));
      expect(process.env['TZ']).toBe(before);
    });
  });
});
