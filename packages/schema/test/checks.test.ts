import { describe, expect, it } from 'vitest';
import { checkDutySchedule, checkExclusionPeriod, checkReportSchedule, checkSlaThresholds, isRealTimestamp, likelyMeant } from '../src/index.js';

const codes = (findings: { code: string; field?: string }[]) => findings.map((f) => `${f.code}${f.field !== undefined ? ` ${f.field}` : ''}`);

describe('duty schedules (per ScheduleMode)', () => {
  it('accept exactly the fields of each mode', () => {
    expect(checkDutySchedule({ ScheduleMode: 'OneTime', StartDateTime: '2026-01-01T08:00:00', EndDateTime: '2026-01-02T08:00:00' })).toEqual([]);
    expect(checkDutySchedule({ ScheduleMode: 'Daily', StartTime: '08:00', EndTime: '17:00' })).toEqual([]);
    expect(checkDutySchedule({ ScheduleMode: 'Weekly', StartTime: '08:00', EndTime: '17:00', WeekDay: 'Friday' })).toEqual([]);
    expect(checkDutySchedule({ ScheduleMode: 'Monthly', StartTime: '08:00', EndTime: '17:00', MonthDay: 1 })).toEqual([]);
  });

  it('report missing and foreign fields by name', () => {
    expect(codes(checkDutySchedule({ ScheduleMode: 'Weekly', StartTime: '08:00', EndTime: '17:00', MonthDay: 3 }))).toEqual([
      'SCHEDULE_FIELD_MISSING',
      'SCHEDULE_FIELD_UNEXPECTED MonthDay',
    ]);
    expect(codes(checkDutySchedule({ ScheduleMode: 'OneTime', StartTime: '08:00', StartDateTime: '2026-01-01T08:00:00' }))).toEqual([
      'SCHEDULE_FIELD_MISSING',
      'SCHEDULE_FIELD_UNEXPECTED StartTime',
    ]);
    expect(checkDutySchedule({ ScheduleMode: 'Daily' }).map((f) => f.message)).toEqual(['ScheduleMode Daily needs `StartTime`', 'ScheduleMode Daily needs `EndTime`']);
  });

  it('require a OneTime period to end after it starts, on real dates', () => {
    expect(codes(checkDutySchedule({ ScheduleMode: 'OneTime', StartDateTime: '2026-01-02T08:00:00', EndDateTime: '2026-01-01T08:00:00' }))).toEqual(['EXCLUSION_PERIOD_ORDER EndDateTime']);
    expect(codes(checkDutySchedule({ ScheduleMode: 'OneTime', StartDateTime: '2026-04-31T08:00:00', EndDateTime: '2026-05-01T08:00:00' }))).toEqual(['INVALID_TIMESTAMP StartDateTime']);
  });
});

describe('report schedules (per ScheduleType)', () => {
  it('need the day field of their type and refuse the others', () => {
    expect(checkReportSchedule({ ScheduleType: 'Weekly', Time: '08:00:00', WeekDay: 'Monday' })).toEqual([]);
    expect(checkReportSchedule({ ScheduleType: 'Quarterly', Time: '08:00:00', QuarterStartMonth: 2, MonthDay: 15 })).toEqual([]);
    expect(codes(checkReportSchedule({ ScheduleType: 'Monthly', Time: '08:00:00', WeekDay: 'Monday' }))).toEqual(['SCHEDULE_FIELD_MISSING', 'SCHEDULE_FIELD_UNEXPECTED WeekDay']);
    expect(codes(checkReportSchedule({ ScheduleType: 'Daily' }))).toEqual(['SCHEDULE_FIELD_MISSING']);
  });

  it('leave unknown types and non-objects to the schema', () => {
    expect(checkReportSchedule({ ScheduleType: 'Hourly' })).toEqual([]);
    expect(checkReportSchedule('Daily')).toEqual([]);
  });
});

describe('SLAs and exclusion periods', () => {
  it('require the warning threshold to be at least the error threshold', () => {
    expect(checkSlaThresholds({ UptimeErrorThreshold: 99, UptimeWarningThreshold: 99 })).toEqual([]);
    expect(codes(checkSlaThresholds({ UptimeErrorThreshold: 99.9, UptimeWarningThreshold: 99.5 }))).toEqual(['SLA_THRESHOLD_ORDER UptimeWarningThreshold']);
  });

  it('require From before Until', () => {
    expect(checkExclusionPeriod({ From: '2026-11-27T00:00:00', Until: '2026-11-27T00:00:01' })).toEqual([]);
    expect(codes(checkExclusionPeriod({ From: '2026-11-27T00:00:01', Until: '2026-11-27T00:00:00' }))).toEqual(['EXCLUSION_PERIOD_ORDER Until']);
  });

  it('know which timestamps are real', () => {
    expect(isRealTimestamp('2028-02-29T23:59:59')).toBe(true);
    expect(isRealTimestamp('2027-02-29T00:00:00')).toBe(false);
    expect(isRealTimestamp('2026-13-01T00:00:00')).toBe(false);
    expect(isRealTimestamp('2026-01-01T24:00:00')).toBe(false);
    expect(isRealTimestamp('2026-01-01T00:00:00Z')).toBe(false);
  });
});

describe('likelyMeant', () => {
  it('finds case-insensitive matches and small misspellings, not unrelated words', () => {
    expect(likelyMeant('errorConditions', ['ErrorConditions', 'Name'])).toBe('ErrorConditions');
    expect(likelyMeant('Descripton', ['Description', 'members'])).toBe('Description');
    expect(likelyMeant('Efect', ['Effect', 'Value'])).toBe('Effect');
    expect(likelyMeant('Port', ['Name', 'Key'])).toBeUndefined();
    expect(likelyMeant('Notes', ['Name', 'Value', 'Key'])).toBeUndefined();
  });
});
