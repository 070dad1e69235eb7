/**
 * A duty schedule's identity: its content (mode, days and times). Schedules are a set keyed by it, in the config (the
 * loader's duplicate check) and in plans (the reconciler's `dutySchedule` kind), so both use these two functions.
 */

/** The fields that say when a schedule applies. */
export interface DutyScheduleContent {
  ScheduleMode: string;
  StartTime?: string;
  EndTime?: string;
  WeekDay?: string;
  MonthDay?: number;
  StartDateTime?: string;
  EndDateTime?: string;
}

const TIME = /^(\d{2}):(\d{2})/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::(\d{2}))?/;

function time(value: unknown): string | undefined {
  const match = typeof value === 'string' ? TIME.exec(value) : null;
  return match === null ? undefined : `${match[1]}:${match[2]}`;
}

function dateTime(value: unknown): string | undefined {
  const match = typeof value === 'string' ? DATE_TIME.exec(value) : null;
  return match === null ? undefined : `${match[1]}T${match[2]}:${match[3] ?? '00'}`;
}

/** A schedule's content as sent and compared: the fields of its mode, times as `HH:mm`, date-times to the second. */
export function dutyContent(schedule: object): DutyScheduleContent {
  const fields = schedule as Readonly<Record<string, unknown>>;
  const mode = typeof fields.ScheduleMode === 'string' ? fields.ScheduleMode : '';
  const out: DutyScheduleContent = { ScheduleMode: mode };
  if (mode === 'OneTime') {
    const start = dateTime(fields.StartDateTime);
    const end = dateTime(fields.EndDateTime);
    if (start !== undefined) out.StartDateTime = start;
    if (end !== undefined) out.EndDateTime = end;
    return out;
  }
  if (mode === 'Weekly' && typeof fields.WeekDay === 'string') out.WeekDay = fields.WeekDay;
  if (mode === 'Monthly' && fields.MonthDay !== undefined && fields.MonthDay !== null) out.MonthDay = Number(fields.MonthDay);
  const start = time(fields.StartTime);
  const end = time(fields.EndTime);
  if (start !== undefined) out.StartTime = start;
  if (end !== undefined) out.EndTime = end;
  return out;
}

/** The key of a schedule within its operator, readable in plans: `Daily 22:00-06:00`, `Weekly Friday 18:00-23:00`. */
export function dutyLabel(content: DutyScheduleContent): string {
  const times = `${content.StartTime ?? '?'}-${content.EndTime ?? '?'}`;
  switch (content.ScheduleMode) {
    case 'Daily':
      return `Daily ${times}`;
    case 'Weekly':
      return `Weekly ${content.WeekDay ?? '?'} ${times}`;
    case 'Monthly':
      return `Monthly day ${content.MonthDay ?? '?'} ${times}`;
    case 'OneTime':
      return `OneTime ${content.StartDateTime ?? '?'}..${content.EndDateTime ?? '?'}`;
    default:
      return `${content.ScheduleMode} ${JSON.stringify(content)}`;
  }
}

