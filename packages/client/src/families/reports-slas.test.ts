import { describe, expect, it } from 'vitest';
import { ConflictError } from '../errors.js';
import { mockApi } from '../test-utils/mock-api.js';

const R = '70000000-0000-0000-0000-000000000007';
const SLA = '50000000-0000-0000-0000-000000000005';

describe('scheduledReports', () => {
  const report = {
    ScheduledReportGuid: R,
    Hash: 'h1',
    DashboardGuid: 'dash',
    FileType: 'PDFAttachment',
    IsActive: true,
    Schedule: { ScheduleType: 'Weekly', Time: '08:00:00', WeekDay: 'Monday' },
    InternalNotes: 'monsync:key=weekly-exec',
    Recipients: { ExtraEmailAddresses: ['ops@example.com'] },
  };
  const body = { DashboardGuid: 'dash', FileType: 'PDFAttachment' as const, Schedule: { ScheduleType: 'Weekly' as const, Time: '08:00:00', WeekDay: 'Monday' as const } };

  it('lists with GET /ScheduledReport and reads one with GET /ScheduledReport/{guid}', async () => {
    const api = mockApi();
    api.reply('GET', '/ScheduledReport', 200, [report]);
    api.reply('GET', `/ScheduledReport/${R}`, 200, report);
    await expect(api.client.scheduledReports.list().toArray()).resolves.toEqual([report]);
    await expect(api.client.scheduledReports.get(R)).resolves.toEqual(report);
  });

  it('creates with POST /ScheduledReport, reading the 201 answer', async () => {
    const api = mockApi();
    api.reply('POST', '/ScheduledReport', 201, report);
    await expect(api.client.scheduledReports.create(body)).resolves.toEqual(report);
    expect(api.last()).toMatchObject({ method: 'POST', url: '/v4/ScheduledReport', body });
  });

  it('replaces with PUT, patches with PATCH and deletes with DELETE, each answering 204', async () => {
    const api = mockApi();
    api.reply('PUT', `/ScheduledReport/${R}`, 204);
    api.reply('PATCH', `/ScheduledReport/${R}`, 204);
    api.reply('DELETE', `/ScheduledReport/${R}`, 204);
    await expect(api.client.scheduledReports.replace(R, body)).resolves.toBeUndefined();
    await expect(api.client.scheduledReports.patch(R, { IsActive: false })).resolves.toBeUndefined();
    await api.client.scheduledReports.delete(R);
    expect(api.calls().map((c) => [c.method, c.url, c.body])).toEqual([
      ['PUT', `/v4/ScheduledReport/${R}`, body],
      ['PATCH', `/v4/ScheduledReport/${R}`, { IsActive: false }],
      ['DELETE', `/v4/ScheduledReport/${R}`, undefined],
    ]);
  });
});

describe('slas', () => {
  const sla = { SlaGuid: SLA, Hash: 'x', Description: 'Gold', UptimeErrorThreshold: 99.5, UptimeWarningThreshold: 99.9 };

  it('lists with GET /Sla and reads one with GET /Sla/{guid}', async () => {
    const api = mockApi();
    api.reply('GET', '/Sla', 200, [sla]);
    api.reply('GET', `/Sla/${SLA}`, 200, sla);
    await expect(api.client.slas.list().toArray()).resolves.toEqual([sla]);
    await expect(api.client.slas.get(SLA)).resolves.toEqual(sla);
  });

  it('creates with POST /Sla, which answers 204 with no body, and learns the SlaGuid by re-listing', async () => {
    const api = mockApi();
    api.reply('POST', '/Sla', 204);
    api.reply('GET', '/Sla', 200, [{ SlaGuid: SLA, Description: 'Gold', UptimeErrorThreshold: 99.5 }]);
    await expect(api.client.slas.create({ Description: 'Gold', UptimeErrorThreshold: 99.5 })).resolves.toMatchObject({ SlaGuid: SLA });
    expect(api.calls()[0]).toMatchObject({ method: 'POST', url: '/v4/Sla', body: { Description: 'Gold', UptimeErrorThreshold: 99.5 } });
  });

  it('reports a duplicate Description as ConflictError', async () => {
    const api = mockApi();
    api.reply('POST', '/Sla', 409, { ErrorDescription: 'An SLA named Gold already exists' });
    await expect(api.client.slas.create({ Description: 'Gold' })).rejects.toBeInstanceOf(ConflictError);
  });

  it('replaces, patches and deletes under /Sla/{guid}', async () => {
    const api = mockApi();
    api.reply('PUT', `/Sla/${SLA}`, 204);
    api.reply('PATCH', `/Sla/${SLA}`, 204);
    api.reply('DELETE', `/Sla/${SLA}`, 204);
    await api.client.slas.replace(SLA, { Description: 'Gold', UptimeErrorThreshold: 99 });
    await api.client.slas.patch(SLA, { UptimeWarningThreshold: 99.95 });
    await api.client.slas.delete(SLA);
    expect(api.calls().map((c) => [c.method, c.url, c.body])).toEqual([
      ['PUT', `/v4/Sla/${SLA}`, { Description: 'Gold', UptimeErrorThreshold: 99 }],
      ['PATCH', `/v4/Sla/${SLA}`, { UptimeWarningThreshold: 99.95 }],
      ['DELETE', `/v4/Sla/${SLA}`, undefined],
    ]);
  });

  it('manages exclusion periods under /Sla/{guid}/ExclusionPeriod', async () => {
    const api = mockApi();
    const period = { ExclusionPeriodId: 12, Description: 'Black Friday freeze', From: '2026-11-27T00:00:00', Until: '2026-11-28T00:00:00' };
    const base = `/Sla/${SLA}/ExclusionPeriod`;
    api.reply('GET', base, 200, [period]);
    api.reply('GET', `${base}/12`, 200, period);
    api.reply('POST', base, 204);
    api.reply('GET', base, 200, [period]);
    api.reply('PUT', `${base}/12`, 204);
    api.reply('PATCH', `${base}/12`, 204);
    api.reply('DELETE', `${base}/12`, 204);
    const { ExclusionPeriodId: _id, ...create } = period;
    await expect(api.client.slas.exclusionPeriods.list(SLA).toArray()).resolves.toEqual([period]);
    await expect(api.client.slas.exclusionPeriods.get(SLA, 12)).resolves.toEqual(period);
    await expect(api.client.slas.exclusionPeriods.create(SLA, create)).resolves.toEqual(period);
    await api.client.slas.exclusionPeriods.replace(SLA, 12, { ...create, Until: '2026-11-29T00:00:00' });
    await api.client.slas.exclusionPeriods.patch(SLA, 12, { Description: 'Cyber week' });
    await api.client.slas.exclusionPeriods.delete(SLA, 12);
    expect(api.calls().map((c) => [c.method, c.url, c.body])).toEqual([
      ['GET', `/v4${base}`, undefined],
      ['GET', `/v4${base}/12`, undefined],
      ['POST', `/v4${base}`, create],
      ['GET', `/v4${base}`, undefined],
      ['PUT', `/v4${base}/12`, { ...create, Until: '2026-11-29T00:00:00' }],
      ['PATCH', `/v4${base}/12`, { Description: 'Cyber week' }],
      ['DELETE', `/v4${base}/12`, undefined],
    ]);
  });
});
