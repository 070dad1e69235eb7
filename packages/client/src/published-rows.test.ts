/**
 * The rows where the service's published definition contradicts the spec, for the names and values monsync reads
 * and writes: each mock answers with the literal published body or expects the literal published request, so a
 * client speaking the spec's form fails here.
 */
import { describe, expect, it } from 'vitest';
import { FileTypes, PresetPeriods } from './enums.js';
import { mockApi } from './test-utils/mock-api.js';

const SLA = '50000000-0000-0000-0000-000000000005';
const R = '70000000-0000-0000-0000-000000000007';
const G = '30000000-0000-0000-0000-000000000003';
const OG = '40000000-0000-0000-0000-000000000004';
const M1 = '10000000-0000-0000-0000-000000000001';
const M2 = '10000000-0000-0000-0000-000000000002';

describe('SLA response-time field (published: OperatorReponseTimeThreshold)', () => {
  it('reads the published spelling from a bare SLA list', async () => {
    const api = mockApi();
    api.reply('GET', '/Sla', 200, [{ SlaGuid: SLA, Hash: 'h', Description: 'Gold', UptimeErrorThreshold: 99.5, UptimeWarningThreshold: 99.9, LoadTimeErrorThreshold: 4, OperatorReponseTimeThreshold: 15 }]);
    const [sla] = await api.client.slas.list().toArray();
    expect(sla?.OperatorReponseTimeThreshold).toBe(15);
    expect(sla).not.toHaveProperty('OperatorResponseTimeThreshold');
  });

  it('reads an older answer in the spec spelling as the published field', async () => {
    const api = mockApi();
    api.reply('GET', `/Sla/${SLA}`, 200, { SlaGuid: SLA, Description: 'Gold', OperatorResponseTimeThreshold: 30 });
    expect(await api.client.slas.get(SLA)).toEqual({ SlaGuid: SLA, Description: 'Gold', OperatorReponseTimeThreshold: 30 });
  });

  it('sends the published spelling', async () => {
    const api = mockApi();
    api.reply('PATCH', `/Sla/${SLA}`, 204);
    await api.client.slas.patch(SLA, { OperatorReponseTimeThreshold: 20 });
    expect(api.last().body).toEqual({ OperatorReponseTimeThreshold: 20 });
  });
});

describe('report FileType (published: PDFLink, ExcelLink, Html)', () => {
  const published = {
    ScheduledReportGuid: R,
    Hash: 'h',
    DashboardGuid: 'd6ddc6a1-cf25-4392-9614-a8838e252f50',
    FileType: 'PDFLink',
    IsActive: true,
    Schedule: { ScheduleType: 'Weekly', Time: '08:00:00', WeekDay: 'Monday' },
    SelectedPeriod: 'Last7DaysExcl',
    DashboardGuidSpecified: true,
  };

  it('creates with a published value and reads the 201 body back unchanged', async () => {
    const api = mockApi();
    api.reply('POST', '/ScheduledReport', 201, published);
    const created = await api.client.scheduledReports.create({
      DashboardGuid: published.DashboardGuid,
      FileType: FileTypes.PDFLink,
      Schedule: { ScheduleType: 'Weekly', Time: '08:00:00', WeekDay: 'Monday' },
      SelectedPeriod: 'Last7DaysExcl',
    });
    expect(api.last().body).toMatchObject({ FileType: 'PDFLink', SelectedPeriod: 'Last7DaysExcl' });
    expect(created).toEqual(published);
  });

  it('reads the spec values of an older answer as the published ones', async () => {
    const api = mockApi();
    api.reply('GET', '/ScheduledReport', 200, [
      { ...published, FileType: 'HTMLEmail', SelectedPeriod: 'Previous Week' },
      { ...published, ScheduledReportGuid: 'r2', FileType: 'ExcelDownloadLink' },
    ]);
    const reports = await api.client.scheduledReports.list().toArray();
    expect(reports.map((r) => [r.FileType, r.SelectedPeriod])).toEqual([
      ['Html', 'PreviousWeek'],
      ['ExcelLink', 'Last7DaysExcl'],
    ]);
  });
});

describe('PresetPeriod (published: PreviousDay without a space, and All)', () => {
  it('sends the published spelling', async () => {
    const api = mockApi();
    api.reply('GET', `/Statistics/MonitorGroup/${G}`, 200, { Data: [] });
    await api.client.statistics.group(G, { PresetPeriod: PresetPeriods.PreviousDay });
    expect(api.last().url).toBe(`/v4/Statistics/MonitorGroup/${G}?PresetPeriod=PreviousDay`);
  });

  it('sends a spec spelling given by a caller in the published form', async () => {
    const api = mockApi();
    api.reply('GET', `/Statistics/MonitorGroup/${G}`, 200, { Data: [] });
    // Cast: a JavaScript caller or an older script passes the spec's spelling.
    await api.client.statistics.group(G, { PresetPeriod: 'Previous Quarter' as 'PreviousQuarter' });
    expect(api.last().url).toBe(`/v4/Statistics/MonitorGroup/${G}?PresetPeriod=PreviousQuarter`);
  });

  it('accepts All', async () => {
    const api = mockApi();
    api.reply('GET', `/Statistics/MonitorGroup/${G}`, 200, { Data: [] });
    await api.client.statistics.group(G, { PresetPeriod: PresetPeriods.All });
    expect(api.last().url).toBe(`/v4/Statistics/MonitorGroup/${G}?PresetPeriod=All`);
  });
});

describe('group member items (published: [{MonitorGuid}] / [{OperatorGuid}])', () => {
  it('reads monitor group members from a bare array of {MonitorGuid}', async () => {
    const api = mockApi();
    api.reply('GET', `/MonitorGroup/${G}/Member`, 200, [{ MonitorGuid: M1 }, { MonitorGuid: M2 }]);
    expect((await api.client.monitorGroups.members(G).toArray()).map((m) => m.MonitorGuid)).toEqual([M1, M2]);
  });

  it('adds a member with a 201 and no body', async () => {
    const api = mockApi();
    api.reply('POST', `/MonitorGroup/${G}/Member/${M1}`, 201, '');
    await expect(api.client.monitorGroups.addMember(G, M1)).resolves.toBeUndefined();
  });

  it('reads operator group members from a bare array of {OperatorGuid}', async () => {
    const api = mockApi();
    api.reply('GET', `/OperatorGroup/${OG}/Member`, 200, [{ OperatorGuid: 'op-1' }]);
    expect((await api.client.operatorGroups.members(OG).toArray()).map((m) => m.OperatorGuid)).toEqual(['op-1']);
  });
});

describe('monitor interval (published: CheckInterval, minutes)', () => {
  it('reads a v3-era CheckFrequency as CheckInterval, the same number of minutes', async () => {
    const api = mockApi();
    api.reply('GET', '/Monitor', 200, [{ MonitorGuid: M1, Name: 'a', MonitorType: 'Https', MonitorMode: 'Production', IsActive: true, GenerateAlert: true, CheckFrequency: 5 }]);
    const [monitor] = await api.client.monitors.list().toArray();
    expect(monitor?.CheckInterval).toBe(5);
    expect(monitor).not.toHaveProperty('CheckFrequency');
  });
});
