// What a crew login may do (docs/api-decisions.md, "What a crew login may do"; document 1: "a crew
// login is refused" where an office user is needed): with a full key it reads the jobs of the
// published work its crew is on, and writes only through the crew app, photo uploads and schedule
// requests; every other write is 403 Office user required before any id is looked at.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { crewWithForeman, scheduleJob, scheduleWorkspace } from '#test/helpers/scenarios/operations.ts';

let t: TestApp;
let w: Workspace;
beforeAll(async () => {
  t = await startApp();
  w = await scheduleWorkspace(t);
});
afterAll(() => t.close());

describe('a crew login', () => {
  it('sees the jobs of published work on its crew, not drafts’ or other jobs', async () => {
    const { crew, foreman } = await crewWithForeman(t, w);
    const published = await scheduleJob(w, 'Crew sees this');
    const draftOnly = await scheduleJob(w, 'Crew does not see this');
    await ok(
      w.api.post('/v1/work-orders', {
        job_id: published.id,
        title: 'Seal',
        crew_id: crew.id,
        scheduled_date: '2027-04-05',
      }),
    );
    await ok(
      w.api.post('/v1/work-orders', {
        job_id: draftOnly.id,
        title: 'Later',
        crew_id: crew.id,
        scheduled_date: '2027-04-20',
      }),
    );
    await ok(w.api.post('/v1/schedule/publish', { start_date: '2027-04-05', end_date: '2027-04-05' }));
    expect((await foreman.api.get(`/v1/jobs/${published.id}`)).status).toBe(200);
    expect((await foreman.api.get(`/v1/jobs/${draftOnly.id}`)).status).toBe(404);
    const jobs = await ok(foreman.api.get('/v1/jobs'));
    expect(jobs.data.map((j) => j.id)).toEqual([published.id]);
    const work = await ok(foreman.api.get('/v1/work-orders'));
    expect(work.data.map((x) => x.job_id)).toEqual([published.id]);
  });

  it('is refused every office write with 403 Office user required, whatever the ids', async () => {
    const { foreman } = await crewWithForeman(t, w);
    const job = await scheduleJob(w);
    const refusals: [string, string, unknown][] = [
      ['PATCH', `/v1/jobs/${job.id}`, { name: 'Renamed by crew' }],
      ['POST', '/v1/jobs', { name: 'Crew job' }],
      ['POST', '/v1/webhooks', { target_url: 'https://example.com/hook' }],
      ['POST', '/v1/client-accounts', { name: 'Crew customer' }],
      ['POST', '/v1/work-orders', { job_id: job.id, title: 'x' }],
      ['POST', '/v1/crews', { name: 'Crew-made crew' }],
      ['DELETE', '/v1/contacts/999999', undefined],
    ];
    for (const [method, path, body] of refusals) {
      const res = await foreman.api.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body, `${method} ${path}`).toMatchObject({
        error: 'Office user required',
        code: 'office_user_required',
      });
    }
    expect((await ok(w.api.get(`/v1/jobs/${job.id}`))).data.name).toBe(job.name);
    expect((await ok(w.api.get('/v1/webhooks'))).data).toEqual([]);
  });

  it('may use the crew app, ask for schedule changes and read its notifications', async () => {
    const { crew, foreman } = await crewWithForeman(t, w);
    const job = await scheduleJob(w);
    const wo = (
      await ok(
        w.api.post('/v1/work-orders', {
          job_id: job.id,
          title: 'Overlay',
          crew_id: crew.id,
          scheduled_date: '2027-05-03',
        }),
      )
    ).data;
    await ok(w.api.post('/v1/schedule/publish', { start_date: '2027-05-03', end_date: '2027-05-03' }));
    const entry = await foreman.api.post('/v1/crew/time-entries', {
      work_order_id: wo.id,
      clock_in: '2026-11-02T12:00:00Z',
      clock_out: '2026-11-02T20:00:00Z',
    });
    expect(entry.status, JSON.stringify(entry.body)).toBe(201);
    const report = await foreman.api.post('/v1/crew/daily-reports', {
      work_order_id: wo.id,
      date: '2027-05-03',
      work_performed: 'Paved',
    });
    expect(report.status, JSON.stringify(report.body)).toBe(201);
    const request = await foreman.api.post('/v1/schedule/date-requests', {
      kind: 'move',
      work_order_id: wo.id,
      requested_date: '2027-05-10',
    });
    expect(request.status, JSON.stringify(request.body)).toBe(201);
    const decided = await ok(
      w.api.post(`/v1/schedule/date-requests/${request.body.data.id}/decline`, { note: 'Not that week' }),
    );
    expect(decided.data.status).toBe('declined');
    const mine = await ok(foreman.api.get('/v1/notifications'));
    expect((await foreman.api.post(`/v1/notifications/${mine.data[0]!.id}/read`)).status).toBe(200);
  });
});
