// The crew app's report endpoints (issue 25, "The crew app's interface"): POST /v1/crew/daily-reports
// and POST /v1/crew/daily-logs/submit. Who may call (a crew member of the work order's crew, an
// office user for anyone; nobody else), the day's draft log made on the first report, photos
// linked by daily_report_id through the photo upload, and the 404s for another workspace's ids.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { ok, Z_SECONDS } from '#test/helpers/records.ts';
import { scheduleJob } from '#test/helpers/scenarios/operations.ts';
import { image, uploadPhoto } from '#test/field/photos/upload.ts';
import { crewDay, DAY, fileReport, SIGNOFF, submitDay, workOrderOn } from '../daily-logs/kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

describe('POST /v1/crew/daily-reports', () => {
  it("a crew member files a report: 201, and the day's draft log is made with it", async () => {
    const { w, foreman, workOrder, job } = await crewDay(t);
    const res = await foreman.api.post('/v1/crew/daily-reports', {
      work_order_id: workOrder.id,
      date: DAY,
      weather: 'Sunny, 72F',
      work_performed: 'Sealed the north lot',
      delay_notes: ' ',
      safety_notes: 'Cones out',
      material_notes: '40 gal sealer',
      equipment_notes: 'Sprayer 2',
      completed_quantity: 1250.5,
      completed_unit: 'SF',
      answers: { 'Site cleaned?': true, 'Crew size': 4 },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      job_id: job.id,
      work_order_id: workOrder.id,
      estimate_service_id: null,
      date: DAY,
      submitted_by: { id: foreman.id, name: expect.stringMatching(/^Foreman/) },
      weather: 'Sunny, 72F',
      work_performed: 'Sealed the north lot',
      delay_notes: null,
      safety_notes: 'Cones out',
      material_notes: '40 gal sealer',
      equipment_notes: 'Sprayer 2',
      completed_quantity: 1250.5,
      completed_unit: 'SF',
      answers: { 'Site cleaned?': true, 'Crew size': 4 },
      photo_count: 0,
      created_at: expect.stringMatching(Z_SECONDS),
    });
    const second = await fileReport(foreman.api, workOrder.id, { weather: 'Rain later' });
    const logs = await ok(w.api.get(`/v1/daily-logs?work_order_id=${workOrder.id}`));
    expect(logs.data).toHaveLength(1);
    expect(logs.data[0]).toMatchObject({ status: 'draft', date: DAY, job_id: job.id });
    const log = await ok(w.api.get(`/v1/daily-logs/${logs.data[0]!.id}`));
    expect(log.data.daily_reports.map((r) => r.id)).toEqual([res.body.data.id, second.id]);
  });

  it("a report naming no line is about its work order's line, and its quantity counts toward the allocation", async () => {
    const { w, foreman, crew, job } = await crewDay(t);
    const estimate = (await ok(w.api.post('/v1/estimates', { job_id: job.id }))).data;
    const line = (
      await ok(
        w.api.post(`/v1/estimates/${estimate.id}/line-items`, {
          name: 'Sealcoat',
          unit: 'SF',
          quantity: 8000,
          unit_cost: 0.2,
        }),
      )
    ).line_item_id;
    const visit = (
      await ok(
        w.api.post('/v1/work-orders', {
          job_id: job.id,
          title: 'Sealcoat',
          crew_id: crew.id,
          scheduled_date: DAY,
          estimate_service_id: line,
        }),
      )
    ).data;
    await ok(w.api.post('/v1/schedule/publish', { start_date: DAY, end_date: DAY }));
    const report = await fileReport(foreman.api, visit.id, { completed_quantity: 2500, completed_unit: 'SF' });
    expect(report.estimate_service_id).toBe(line);
    const allocation = (await ok(w.api.get(`/v1/jobs/${job.id}/allocation`))).data;
    expect(allocation).toEqual([
      expect.objectContaining({ work_order_id: visit.id, estimate_service_id: line, completed_quantity: 2500 }),
    ]);
  });

  it('a crew user not on the crew is 403 not_on_crew; an office user files for anyone, naming user_id', async () => {
    const { w, foreman, workOrder } = await crewDay(t);
    const stranger = await t.user(w.firmId, { name: 'Sam Stranger', role: 'crew' });
    const refused = await stranger.api.post('/v1/crew/daily-reports', { work_order_id: workOrder.id, date: DAY });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'Not on the crew', code: 'not_on_crew' });
    const borrowed = await foreman.api.post('/v1/crew/daily-reports', {
      work_order_id: workOrder.id,
      date: DAY,
      user_id: stranger.id,
    });
    expect(borrowed.status).toBe(403);
    expect(borrowed.body.code).toBe('office_user_required');
    const office = await t.user(w.firmId, { name: 'Olive Office', role: 'member' });
    const forForeman = await fileReport(office.api, workOrder.id, { user_id: foreman.id });
    expect(forForeman.submitted_by).toEqual({ id: foreman.id, name: expect.stringMatching(/^Foreman/) });
    const own = await fileReport(office.api, workOrder.id);
    expect(own.submitted_by).toEqual({ id: office.id, name: 'Olive Office' });
    const other = await t.workspace();
    const foreignUser = await office.api.post('/v1/crew/daily-reports', {
      work_order_id: workOrder.id,
      date: DAY,
      user_id: other.ownerId,
    });
    expect(foreignUser.status).toBe(404);
    expect(foreignUser.body.error).toBe('User not found');
    expect((await ok(w.api.get('/v1/daily-reports'))).pagination.total).toBe(2);
  });

  it("another workspace's work order, or an estimate line not on the job, is 404; unknown fields are 400", async () => {
    const { foreman, workOrder } = await crewDay(t);
    const other = await crewDay(t);
    const foreign = await foreman.api.post('/v1/crew/daily-reports', { work_order_id: other.workOrder.id, date: DAY });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('Work order not found');
    const line = await foreman.api.post('/v1/crew/daily-reports', {
      work_order_id: workOrder.id,
      date: DAY,
      estimate_service_id: 999999,
    });
    expect(line.status).toBe(404);
    expect(line.body).toMatchObject({ error: 'Estimate service not found', field: 'estimate_service_id' });
    const unknown = await foreman.api.raw.post('/v1/crew/daily-reports', {
      work_order_id: workOrder.id,
      date: DAY,
      mood: 'good',
    });
    expect(unknown.status).toBe(400);
    expect((await ok(other.w.api.get('/v1/daily-logs'))).data).toEqual([]);
  });

  it("photos uploaded with daily_report_id count on the report; another job's report is 400, a foreign one 404", async () => {
    const { w, foreman, workOrder, job } = await crewDay(t);
    const report = await fileReport(foreman.api, workOrder.id);
    const jpeg = await image('jpeg');
    const up = await uploadPhoto(t, w, job.id, jpeg, { daily_report_id: String(report.id) });
    expect(up.status).toBe(201);
    expect(up.body.data.daily_report_id).toBe(report.id);
    await uploadPhoto(t, w, job.id, jpeg, { daily_report_id: String(report.id) });
    await uploadPhoto(t, w, job.id, jpeg);
    expect((await ok(w.api.get(`/v1/daily-reports/${report.id}`))).data.photo_count).toBe(2);

    const otherJob = await scheduleJob(w);
    const wrongJob = await uploadPhoto(t, w, otherJob.id, jpeg, { daily_report_id: String(report.id) });
    expect(wrongJob.status).toBe(400);
    expect(wrongJob.body.field).toBe('daily_report_id');
    const elsewhere = await crewDay(t);
    const theirs = await fileReport(elsewhere.foreman.api, elsewhere.workOrder.id);
    const foreign = await uploadPhoto(t, w, job.id, jpeg, { daily_report_id: String(theirs.id) });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('Daily report not found');
    const bad = await uploadPhoto(t, w, job.id, jpeg, { daily_report_id: 'first' });
    expect(bad.status).toBe(400);
    expect((await ok(w.api.get(`/v1/jobs/${job.id}/photos`))).data).toHaveLength(3);
    expect((await ok(elsewhere.w.api.get(`/v1/daily-reports/${theirs.id}`))).data.photo_count).toBe(0);
  });
});

describe('POST /v1/crew/daily-logs/submit', () => {
  it('submits the day (made when absent); a day already submitted is 409; a stranger is 403', async () => {
    const { w, foreman, workOrder, job, crew } = await crewDay(t, SIGNOFF);
    const day = await submitDay(foreman.api, workOrder.id);
    expect(day).toMatchObject({ status: 'submitted', daily_reports: [], submitted_by: { id: foreman.id } });
    const again = await foreman.api.post('/v1/crew/daily-logs/submit', { work_order_id: workOrder.id, date: DAY });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('invalid_transition');
    const stranger = await t.user(w.firmId, { name: 'Sam Stranger', role: 'crew' });
    const refused = await stranger.api.post('/v1/crew/daily-logs/submit', { work_order_id: workOrder.id, date: DAY });
    expect(refused.status).toBe(403);
    // A day with reports submits with them; the office may submit for the crew.
    const next = await workOrderOn(w, job.id, crew.id, '2026-03-12');
    const report = await fileReport(foreman.api, next.id, {}, '2026-03-12');
    const office = await t.user(w.firmId, { name: 'Olive Office', role: 'member' });
    const submitted = await ok(
      office.api.post('/v1/crew/daily-logs/submit', {
        work_order_id: next.id,
        date: '2026-03-12',
        user_id: foreman.id,
      }),
    );
    expect(submitted.data).toMatchObject({ status: 'submitted', submitted_by: { id: foreman.id } });
    expect(submitted.data.daily_reports.map((r) => r.id)).toEqual([report.id]);
  });
});
