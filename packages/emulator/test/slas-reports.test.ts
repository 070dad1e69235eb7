import { describe, expect, it } from 'vitest';
import { DEMO, SEEDED } from '../src/index.js';
import { emulator, VIEWER } from './helpers.js';

const MISSING = '00000000-0000-4000-8000-000000000000';

describe('SLAs', () => {
  it('answers POST with 201 and the SLA (as the service does), PUT, PATCH and DELETE with 204', async () => {
    const api = await emulator();
    const created = await api.post('/Sla', { Description: 'Gold', UptimeErrorThreshold: 99.5, UptimeWarningThreshold: 99.9, OperatorReponseTimeThreshold: 15 });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ Description: 'Gold', SlaGuid: expect.any(String), OperatorReponseTimeThreshold: 15 });
    const list = await api.get('/Sla');
    expect(list.json).toHaveLength(1);
    const guid = String(list.list[0]?.['SlaGuid']);
    expect(list.list[0]).toMatchObject({ Description: 'Gold', UptimeErrorThreshold: 99.5 });
    expect(typeof list.list[0]?.['Hash']).toBe('string');
    const put = await api.put(`/Sla/${guid}`, { Description: 'Gold', UptimeErrorThreshold: 99 });
    expect(put.status).toBe(204);
    expect((await api.get(`/Sla/${guid}`)).body['UptimeWarningThreshold']).toBeNull();
    const patch = await api.patch(`/Sla/${guid}`, { LoadTimeErrorThreshold: 4 });
    expect(patch.status).toBe(204);
    expect((await api.get(`/Sla/${guid}`)).json).toMatchObject({ UptimeErrorThreshold: 99, LoadTimeErrorThreshold: 4 });
    expect((await api.delete(`/Sla/${guid}`)).status).toBe(204);
    expect((await api.get(`/Sla/${guid}`)).status).toBe(404);
  });

  it('answers 409 for a duplicate Description, on create and on rename', async () => {
    const api = await emulator({ seed: 'demo' });
    const dup = await api.post('/Sla', { Description: 'Gold' });
    expect(dup.status).toBe(409);
    expect(dup.error).toMatch(/already exists/);
    expect((await api.patch(`/Sla/${DEMO.slas.silver}`, { Description: 'Gold' })).status).toBe(409);
    expect((await api.put(`/Sla/${DEMO.slas.gold}`, { Description: 'Gold', UptimeErrorThreshold: 98 })).status).toBe(204);
  });

  it('answers 404 for an unknown SLA', async () => {
    const api = await emulator();
    expect((await api.get(`/Sla/${MISSING}`)).status).toBe(404);
    expect((await api.put(`/Sla/${MISSING}`, { Description: 'x' })).status).toBe(404);
    expect((await api.delete(`/Sla/${MISSING}`)).status).toBe(404);
    expect((await api.get(`/Sla/${MISSING}/ExclusionPeriod`)).status).toBe(404);
  });

  it('answers 403 with the reasons for an invalid SLA', async () => {
    const api = await emulator();
    const res = await api.post('/Sla', { UptimeErrorThreshold: 150 });
    expect(res.status).toBe(403);
    expect(res.error).toEqual(expect.arrayContaining(['Description is required.']));
    const order = await api.post('/Sla', { Description: 'x', UptimeErrorThreshold: 99.9, UptimeWarningThreshold: 99 });
    expect(order.status).toBe(403);
  });

  it('supports exclusion period CRUD with 204 writes and 404 for unknown periods', async () => {
    const api = await emulator({ seed: 'demo' });
    const base = `/Sla/${DEMO.slas.silver}/ExclusionPeriod`;
    const created = await api.post(base, { Description: 'Release night', From: '2026-05-01T20:00:00', Until: '2026-05-01T23:00:00' });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ Description: 'Release night', ExclusionPeriodId: expect.any(Number) });
    const list = (await api.get(base)).list;
    const period = list.find((p) => p['Description'] === 'Release night');
    expect(period).toBeDefined();
    const path = `${base}/${String(period?.['ExclusionPeriodId'])}`;
    expect((await api.get(path)).json).toMatchObject({ From: '2026-05-01T20:00:00', Until: '2026-05-01T23:00:00' });
    expect((await api.patch(path, { Until: '2026-05-02T01:00:00' })).status).toBe(204);
    expect((await api.get(path)).body['Until']).toBe('2026-05-02T01:00:00');
    expect((await api.put(path, { Description: 'Release', From: '2026-05-01T20:00:00.000Z', Until: '2026-05-01T21:00:00' })).status).toBe(204);
    expect((await api.get(path)).json).toMatchObject({ Description: 'Release', From: '2026-05-01T20:00:00' });
    expect((await api.delete(path)).status).toBe(204);
    expect((await api.get(path)).status).toBe(404);
    expect((await api.delete(path)).status).toBe(404);
  });

  it('answers 403 for an exclusion period that ends before it starts', async () => {
    const api = await emulator({ seed: 'demo' });
    const res = await api.post(`/Sla/${DEMO.slas.gold}/ExclusionPeriod`, { Description: 'x', From: '2026-05-02T00:00:00', Until: '2026-05-01T00:00:00' });
    expect(res.status).toBe(403);
  });
});

const REPORT = {
  DashboardGuid: DEMO.dashboard,
  FileType: 'PDFAttachment',
  Schedule: { ScheduleType: 'Weekly', Time: '08:00:00', WeekDay: 'Monday' },
  SelectedPeriod: 'PreviousDay',
  InternalNotes: 'monsync:key=weekly',
  Recipients: { ExtraEmailAddresses: ['ops@example.com'] },
};

describe('scheduled reports', () => {
  it('answers 201 with the object to POST and 204 to PUT, PATCH and DELETE', async () => {
    const api = await emulator();
    const created = await api.post('/ScheduledReport', REPORT);
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ FileType: 'PDFAttachment', IsActive: true, InternalNotes: 'monsync:key=weekly' });
    const guid = String(created.body['ScheduledReportGuid']);
    expect((await api.put(`/ScheduledReport/${guid}`, { ...REPORT, FileType: 'Html' })).status).toBe(204);
    const patched = await api.patch(`/ScheduledReport/${guid}`, { IsActive: false });
    expect(patched.status).toBe(204);
    expect(patched.text).toBe('');
    expect((await api.get(`/ScheduledReport/${guid}`)).json).toMatchObject({ FileType: 'Html', IsActive: false });
    expect((await api.put(`/ScheduledReport/${guid}`, { ...REPORT, FileType: 'HTMLEmail' })).status).toBe(403);
    expect((await api.delete(`/ScheduledReport/${guid}`)).status).toBe(204);
    expect((await api.get(`/ScheduledReport/${guid}`)).status).toBe(404);
  });

  it('answers 403 with a message for Weekly without a weekday', async () => {
    const api = await emulator();
    const res = await api.post('/ScheduledReport', { ...REPORT, Schedule: { ScheduleType: 'Weekly', Time: '08:00:00' } });
    expect(res.status).toBe(403);
    expect(res.error).toMatch(/WeekDay is required/);
  });

  it('answers 403 for QuarterStartMonth outside 1..3', async () => {
    const api = await emulator();
    const res = await api.post('/ScheduledReport', { ...REPORT, Schedule: { ScheduleType: 'Quarterly', Time: '08:00:00', QuarterStartMonth: 4 } });
    expect(res.status).toBe(403);
    expect(res.error).toMatch(/QuarterStartMonth 4 is outside 1..3/);
    const ok = await api.post('/ScheduledReport', { ...REPORT, Schedule: { ScheduleType: 'Quarterly', Time: '08:00:00', QuarterStartMonth: 3 } });
    expect(ok.status).toBe(201);
  });

  it('answers 403 for an unknown recipient operator', async () => {
    const api = await emulator();
    const res = await api.post('/ScheduledReport', { ...REPORT, Recipients: { Operators: [MISSING] } });
    expect(res.status).toBe(403);
    expect(res.error).toMatch(/not a known operator/);
    const ok = await api.post('/ScheduledReport', { ...REPORT, Recipients: { Operators: [SEEDED.viewer.guid], OperatorGroups: [SEEDED.everyoneGroup] } });
    expect(ok.status).toBe(201);
  });

  it('hides InternalNotes from non-administrators', async () => {
    const api = await emulator({ seed: 'demo' });
    const admin = await api.get('/ScheduledReport');
    expect(admin.list.map((r) => r['InternalNotes'])).toEqual(['Weekly executive summary.\nmonsync:key=weekly-exec', 'monsync:key=monthly-ops']);
    const viewer = await api.get('/ScheduledReport', VIEWER);
    expect(viewer.json).toHaveLength(2);
    expect(viewer.list[0]?.['InternalNotes']).toBeUndefined();
  });
});
