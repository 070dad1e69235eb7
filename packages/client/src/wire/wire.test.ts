import { describe, expect, it } from 'vitest';
import { ErrorConditionTypes, FileTypes, MonitorModes, PresetPeriods, SelectedPeriods, Sortings } from '../enums.js';
import {
  CHECK_INTERVAL_UNIT,
  FIELD_RENAMES,
  FILE_TYPES,
  PRESET_PERIODS,
  PRESET_PERIODS_WITH_EXCLUSIVE,
  VALUE_RENAMES,
  fieldRename,
  serverAddedKeys,
  toPublished,
  valueRename,
} from './index.js';

describe('the published enumerations', () => {
  it('lists every error condition type, PageElementUrlMatch included', () => {
    expect(Object.keys(ErrorConditionTypes)).toHaveLength(21);
    expect(ErrorConditionTypes.PageElementUrlMatch).toBe('PageElementUrlMatch');
    expect(ErrorConditionTypes.UseRecommendedCoreWebVitals).toBe('UseRecommendedCoreWebVitals');
  });

  it('spells modes, sorting and report file types as the service does', () => {
    expect(Object.values(MonitorModes)).toEqual(['Development', 'Staging', 'Production']);
    expect(Object.values(Sortings)).toEqual(['Ascending', 'Descending']);
    expect(Object.values(FileTypes)).toEqual(['PDFAttachment', 'PDFLink', 'ExcelAttachment', 'ExcelLink', 'Html']);
  });

  it('has the Previous periods without a space, All, and the exclusive variants for reports', () => {
    expect(PRESET_PERIODS.filter((p) => p.includes(' '))).toEqual([]);
    expect(PresetPeriods.All).toBe('All');
    expect(PRESET_PERIODS_WITH_EXCLUSIVE).toHaveLength(25 + 14);
    expect(SelectedPeriods.Last24MonthsExcl).toBe('Last24MonthsExcl');
    expect(PRESET_PERIODS_WITH_EXCLUSIVE.at(-1)).toBe('All');
  });
});

describe('the rename table', () => {
  it('renames only to published names and values, never from one', () => {
    for (const rename of VALUE_RENAMES) {
      if (rename.field === 'FileType') expect(FILE_TYPES).toContain(rename.to);
      else expect(PRESET_PERIODS).toContain(rename.to);
      expect([...FILE_TYPES, ...PRESET_PERIODS_WITH_EXCLUSIVE]).not.toContain(rename.from);
    }
    expect(new Set(FIELD_RENAMES.map((r) => r.to)).size).toBe(FIELD_RENAMES.length);
  });

  it('keeps the minutes of CheckFrequency in CheckInterval', () => {
    expect(fieldRename('monitor', 'CheckFrequency')).toMatchObject({ to: 'CheckInterval', unit: CHECK_INTERVAL_UNIT });
    expect(CHECK_INTERVAL_UNIT).toEqual({ from: 'minutes', to: 'minutes', factor: 1 });
  });

  it('finds value renames by kind and field only', () => {
    expect(valueRename('scheduledReport', 'FileType', 'HTMLEmail')?.to).toBe('Html');
    expect(valueRename('scheduledReport', 'SelectedPeriod', 'Previous Week')?.to).toBe('PreviousWeek');
    expect(valueRename('sla', 'FileType', 'HTMLEmail')).toBeUndefined();
    expect(valueRename('scheduledReport', 'FileType', 'Html')).toBeUndefined();
  });
});

describe('toPublished', () => {
  it('renames an older field and value on read', () => {
    expect(toPublished('monitor', { Name: 'a', CheckFrequency: 5 })).toEqual({ Name: 'a', CheckInterval: 5 });
    expect(toPublished('sla', { Description: 'Gold', OperatorResponseTimeThreshold: 15 })).toEqual({ Description: 'Gold', OperatorReponseTimeThreshold: 15 });
    expect(toPublished('scheduledReport', { FileType: 'PDFDownloadLink', SelectedPeriod: 'Previous Month' })).toEqual({ FileType: 'PDFLink', SelectedPeriod: 'PreviousMonth' });
  });

  it('lets the published field win when both spellings are present', () => {
    expect(toPublished('monitor', { CheckFrequency: 60, CheckInterval: 5 })).toEqual({ CheckInterval: 5 });
  });

  it('returns an object already in the published form itself, not a copy', () => {
    const monitor = { Name: 'a', CheckInterval: 5, ErrorConditions: [] };
    expect(toPublished('monitor', monitor)).toBe(monitor);
  });
});

describe('server-added entries', () => {
  it('names the load-time conditions the service adds to every monitor', () => {
    expect(serverAddedKeys('monitor', 'ErrorConditions')).toEqual(['LoadTimeLimit1', 'LoadTimeLimit2']);
    expect(serverAddedKeys('monitor', 'PredefinedVariables')).toEqual([]);
  });
});
