export { GRID_LEGEND, gapLabels, localLabel, UNCOVERED_CELL, weekGrid, zoneNamed, type GridRow, type GridSubject } from './grid.js';
export {
  hourStart,
  previewOnCall,
  type OnCallGap,
  type OnCallGroup,
  type OnCallOperator,
  type OnCallOptions,
  type OnCallPreview,
  type OnCallState,
  type OnCallSubject,
} from './preview.js';
export { DUTY_SCHEDULE_READING, minutesOf, onDutyIntervals, scheduleIntervals, type DutyScheduleContent, type DutyScheduleReading } from './schedule.js';
export { fixedZone, ianaZone, readZonesBySwitchingTz, UTC, zoneOfRecord, type TimezoneRecord, type Zone } from './zone.js';
