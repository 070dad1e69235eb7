import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError } from '@monsync/client';
import { useEmulator } from './harness.js';

const api = useEmulator('empty');

describe('SLAs against the emulator', () => {
  it('creates (the new SLA, from the answer or a re-list by Description), reads, replaces, patches and deletes an SLA', async () => {
    const gold = await api.client.slas.create({ Description: 'Gold', UptimeErrorThreshold: 99.5, UptimeWarningThreshold: 99.9 });
    expect(gold.SlaGuid).toBeTypeOf('string');
    expect((await api.client.slas.list().toArray()).map((s) => s.SlaGuid)).toEqual([gold.SlaGuid]);
    const guid = String(gold?.SlaGuid);
    expect(await api.client.slas.get(guid)).toMatchObject({ Description: 'Gold', UptimeErrorThreshold: 99.5 });
    await api.client.slas.replace(guid, { Description: 'Gold', UptimeErrorThreshold: 99, UptimeWarningThreshold: 99.5 });
    await api.client.slas.patch(guid, { LoadTimeErrorThreshold: 4 });
    expect(await api.client.slas.get(guid)).toMatchObject({ UptimeErrorThreshold: 99, LoadTimeErrorThreshold: 4 });
    await api.client.slas.delete(guid);
    await expect(api.client.slas.get(guid)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('gets a ConflictError for a duplicate Description', async () => {
    await api.client.slas.create({ Description: 'Silver' });
    await expect(api.client.slas.create({ Description: 'Silver' })).rejects.toBeInstanceOf(ConflictError);
  });

  it('manages exclusion periods', async () => {
    await api.client.slas.create({ Description: 'Gold' });
    const guid = String((await api.client.slas.list().toArray())[0]?.SlaGuid);
    const body = { Description: 'Black Friday freeze', From: '2026-11-27T00:00:00', Until: '2026-11-28T00:00:00' };
    const created = await api.client.slas.exclusionPeriods.create(guid, body);
    const [period] = await api.client.slas.exclusionPeriods.list(guid).toArray();
    expect(period).toMatchObject(body);
    expect(created.ExclusionPeriodId).toBe(period?.ExclusionPeriodId);
    const id = period?.ExclusionPeriodId ?? -1;
    expect(await api.client.slas.exclusionPeriods.get(guid, id)).toMatchObject(body);
    await api.client.slas.exclusionPeriods.replace(guid, id, { ...body, Until: '2026-11-29T00:00:00' });
    await api.client.slas.exclusionPeriods.patch(guid, id, { Description: 'Cyber week' });
    expect(await api.client.slas.exclusionPeriods.get(guid, id)).toMatchObject({ Description: 'Cyber week', Until: '2026-11-29T00:00:00' });
    await api.client.slas.exclusionPeriods.delete(guid, id);
    expect(await api.client.slas.exclusionPeriods.list(guid).toArray()).toEqual([]);
  });
});

describe('scheduled reports against the emulator', () => {
  const body = {
    DashboardGuid: '7f3c0000-0000-4000-8000-000000000001',
    FileType: 'PDFAttachment' as const,
    IsActive: true,
    Schedule: { ScheduleType: 'Weekly' as const, Time: '08:00:00', WeekDay: 'Monday' as const },
    InternalNotes: 'monsync:key=weekly-exec',
    Recipients: { ExtraEmailAddresses: ['ops@example.com'] },
  };

  it('creates (201 with the object), reads, replaces, patches and deletes a report', async () => {
    const created = await api.client.scheduledReports.create(body);
    expect(api.responses.at(-1)?.status).toBe(201);
    expect(created).toMatchObject({ FileType: 'PDFAttachment', InternalNotes: 'monsync:key=weekly-exec' });
    const guid = created.ScheduledReportGuid;
    expect(await api.client.scheduledReports.get(guid)).toMatchObject({ DashboardGuid: body.DashboardGuid });
    expect((await api.client.scheduledReports.list().toArray()).map((r) => r.ScheduledReportGuid)).toEqual([guid]);
    await api.client.scheduledReports.replace(guid, { ...body, FileType: 'ExcelAttachment' });
    await api.client.scheduledReports.patch(guid, { IsActive: false });
    expect(await api.client.scheduledReports.get(guid)).toMatchObject({ FileType: 'ExcelAttachment', IsActive: false });
    await api.client.scheduledReports.delete(guid);
    await expect(api.client.scheduledReports.get(guid)).rejects.toBeInstanceOf(NotFoundError);
  });
});
