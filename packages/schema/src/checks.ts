/** Checks that JSON Schema cannot express, usable on their own (the loader positions their findings). */
import type { DiagnosticCode } from './diagnostics.js';

export interface Finding {
  code: DiagnosticCode;
  message: string;
  /** Field the finding is about; absent when it is about the object as a whole. */
  field?: string;
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;

/** True for a v4 timestamp that names a real instant (`2026-02-30T00:00:00` is not one). */
export function isRealTimestamp(value: string): boolean {
  const m = TIMESTAMP.exec(value);
  if (m === null) return false;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  if (hour > 23 || minute > 59 || second > 59 || month < 1 || month > 12 || day < 1) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

interface FieldRule {
  required: readonly string[];
  /** Known schedule fields allowed besides the required ones. */
  optional: readonly string[];
}

const REPORT_SCHEDULE_FIELDS = ['Time', 'WeekDay', 'MonthDay', 'QuarterStartMonth'] as const;
/** The spec names the day field of Weekly and Monthly and the month of Quarterly; for Quarterly and Yearly the day field is not shown. */
const REPORT_RULES: Record<string, FieldRule> = {
  Daily: { required: ['Time'], optional: [] },
  Weekly: { required: ['Time', 'WeekDay'], optional: [] },
  Monthly: { required: ['Time', 'MonthDay'], optional: [] },
  Quarterly: { required: ['Time', 'QuarterStartMonth'], optional: ['MonthDay'] },
  Yearly: { required: ['Time'], optional: ['MonthDay'] },
};

const DUTY_SCHEDULE_FIELDS = ['StartDateTime', 'EndDateTime', 'WeekDay', 'MonthDay', 'StartTime', 'EndTime'] as const;
/** "Only the fields relevant to the mode are sent." (spec, Operator duty schedule) */
const DUTY_RULES: Record<string, FieldRule> = {
  OneTime: { required: ['StartDateTime', 'EndDateTime'], optional: [] },
  Daily: { required: ['StartTime', 'EndTime'], optional: [] },
  Weekly: { required: ['StartTime', 'EndTime', 'WeekDay'], optional: [] },
  Monthly: { required: ['StartTime', 'EndTime', 'MonthDay'], optional: [] },
};

function checkFields(value: Record<string, unknown>, typeField: string, rules: Record<string, FieldRule>, fields: readonly string[]): Finding[] {
  const type = value[typeField];
  if (typeof type !== 'string') return [];
  const rule = rules[type];
  if (rule === undefined) return []; // an unknown type is reported by the schema
  const findings: Finding[] = [];
  for (const field of rule.required) {
    if (value[field] === undefined || value[field] === null) {
      findings.push({ code: 'SCHEDULE_FIELD_MISSING', message: `${typeField} ${type} needs \`${field}\`` });
    }
  }
  for (const field of fields) {
    if (Object.hasOwn(value, field) && !rule.required.includes(field) && !rule.optional.includes(field)) {
      findings.push({ code: 'SCHEDULE_FIELD_UNEXPECTED', message: `\`${field}\` is not used with ${typeField} ${type}; remove it`, field });
    }
  }
  return findings;
}

/** Fields of a scheduled report's `Schedule` per `ScheduleType`. */
export function checkReportSchedule(schedule: unknown): Finding[] {
  if (schedule === null || typeof schedule !== 'object' || Array.isArray(schedule)) return [];
  return checkFields(schedule as Record<string, unknown>, 'ScheduleType', REPORT_RULES, REPORT_SCHEDULE_FIELDS);
}

/** Fields of an operator duty schedule per `ScheduleMode`, and a OneTime period that ends after it starts. */
export function checkDutySchedule(schedule: unknown): Finding[] {
  if (schedule === null || typeof schedule !== 'object' || Array.isArray(schedule)) return [];
  const value = schedule as Record<string, unknown>;
  const findings = checkFields(value, 'ScheduleMode', DUTY_RULES, DUTY_SCHEDULE_FIELDS);
  for (const field of ['StartDateTime', 'EndDateTime']) {
    const v = value[field];
    if (typeof v === 'string' && TIMESTAMP.test(v) && !isRealTimestamp(v)) {
      findings.push({ code: 'INVALID_TIMESTAMP', message: `\`${field}\` ${v} is not a real date and time`, field });
    }
  }
  const { StartDateTime: start, EndDateTime: end } = value;
  if (value.ScheduleMode === 'OneTime' && typeof start === 'string' && typeof end === 'string' && isRealTimestamp(start) && isRealTimestamp(end) && start >= end) {
    findings.push({ code: 'EXCLUSION_PERIOD_ORDER', message: `the schedule must end after it starts (EndDateTime ${end} is not after StartDateTime ${start})`, field: 'EndDateTime' });
  }
  return findings;
}

/** SLA thresholds: UptimeWarningThreshold >= UptimeErrorThreshold (ranges are checked by the schema). */
export function checkSlaThresholds(sla: unknown): Finding[] {
  if (sla === null || typeof sla !== 'object') return [];
  const { UptimeErrorThreshold: error, UptimeWarningThreshold: warning } = sla as Record<string, unknown>;
  const percent = (v: unknown): v is number => typeof v === 'number' && v >= 0 && v <= 100;
  // Out-of-range values are reported by the schema; comparing them would only add noise.
  if (percent(error) && percent(warning) && warning < error) {
    return [
      {
        code: 'SLA_THRESHOLD_ORDER',
        message: `UptimeWarningThreshold (${warning}) must be at least UptimeErrorThreshold (${error}): a warning shows before an error`,
        field: 'UptimeWarningThreshold',
      },
    ];
  }
  return [];
}

/** A RUM website counts the part after `#` as a page only as a single-page application (the vendor's provider). */
export function checkRumWebsite(site: unknown): Finding[] {
  if (site === null || typeof site !== 'object') return [];
  const { IsSpa: spa, IncludeUrlFragment: fragment } = site as Record<string, unknown>;
  if (fragment !== true || spa === true) return [];
  return [{ code: 'RUM_FRAGMENT_WITHOUT_SPA', message: 'IncludeUrlFragment: true needs IsSpa: true: the service counts URL fragments as pages only of a single-page application', field: 'IncludeUrlFragment' }];
}

/** An exclusion period: real timestamps, `From` before `Until`. */
export function checkExclusionPeriod(period: unknown): Finding[] {
  if (period === null || typeof period !== 'object') return [];
  const { From: from, Until: until } = period as Record<string, unknown>;
  const findings: Finding[] = [];
  for (const [field, v] of [
    ['From', from],
    ['Until', until],
  ] as const) {
    if (typeof v === 'string' && TIMESTAMP.test(v) && !isRealTimestamp(v)) {
      findings.push({ code: 'INVALID_TIMESTAMP', message: `\`${field}\` ${v} is not a real date and time`, field });
    }
  }
  if (typeof from === 'string' && typeof until === 'string' && isRealTimestamp(from) && isRealTimestamp(until) && from >= until) {
    // Same fixed-width format: string order is time order.
    findings.push({ code: 'EXCLUSION_PERIOD_ORDER', message: `the period must end after it starts (Until ${until} is not after From ${from})`, field: 'Until' });
  }
  return findings;
}
