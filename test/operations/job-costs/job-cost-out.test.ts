// POST /v1/exports kind job_cost_out (document 3; docs/api-decisions.md, "Operations: time and job
// costs"): one job's cost rows dated between two days as CSV, built at once (201, ready), polled
// and downloaded like workspace_data.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { scheduleJob, scheduleWorkspace } from '#test/helpers/scenarios/operations.ts';
import { rawGet } from '#test/helpers/downloads.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const linkPath = (url: string) => new URL(url).pathname;

it("builds the job's costs between the dates as CSV, ready at once, downloadable by its link", async () => {
  const w = await scheduleWorkspace(t);
  await ok(t.admin.patch(`/admin/v1/workspaces/${w.firmId}/users/${w.ownerId}`, { pay_rate: 20 }));
  const job = await scheduleJob(w);
  const formula = await ok(
    w.api.post(`/v1/jobs/${job.id}/costs`, {
      cost_type: 'other',
      amount: 2,
      date: '2026-08-15',
      description: '=HYPERLINK("x")',
    }),
  );
  // Dated the day before and the day after the range: left out.
  await ok(w.api.post(`/v1/jobs/${job.id}/costs`, { cost_type: 'material', amount: 1, date: '2026-07-31' }));
  const inside = await ok(
    w.api.post(`/v1/jobs/${job.id}/costs`, {
      cost_type: 'other',
      cost_code: 'Dump, north yard',
      amount: 99.5,
      date: '2026-08-01',
      description: 'Load "B", =SUM(A1)',
    }),
  );
  const labor = await ok(
    w.api.post('/v1/crew/time-entries', {
      job_id: job.id,
      clock_in: '2026-08-31T08:00:00Z',
      clock_out: '2026-08-31T10:30:00Z',
    }),
  );
  await ok(w.api.post(`/v1/jobs/${job.id}/costs`, { cost_type: 'material', amount: 1, date: '2026-09-01' }));

  const res = await w.api.post('/v1/exports', {
    kind: 'job_cost_out',
    job_id: job.id,
    from: '2026-08-01',
    to: '2026-08-31',
  });
  expect(res.status).toBe(201);
  const f = res.body.data;
  expect(f).toMatchObject({
    kind: 'job_cost_out',
    status: 'ready',
    row_counts: { job_costs: 3 },
    watermark: null,
    error: null,
    download_url: expect.stringMatching(/\/v1\/export-downloads\/[A-Za-z0-9_-]{43}$/),
  });
  expect(res.headers.location).toBe(f.url);
  expect((await ok(w.api.get(f.url))).data).toEqual(f);

  const download = await rawGet(t, linkPath(f.download_url!));
  expect(download.status).toBe(200);
  expect(download.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(download.headers['content-disposition']).toBe(`attachment; filename="job_cost_out-${f.id}.csv"`);
  const lines = download.bytes.toString('utf8').split('\r\n');
  expect(lines[0]).toBe(
    'date,job_id,source,id,cost_type,cost_code,description,quantity,unit,amount,time_entry_id,user_id,created_at,reviewed_at,reconciled_at',
  );
  expect(lines[1]).toBe(
    `2026-08-01,${job.id},entry,${inside.data.id},dump,"Dump, north yard","Load ""B"", =SUM(A1)",,,99.5,,${w.ownerId},${inside.data.created_at},,`,
  );
  expect(lines[2]).toBe(
    `2026-08-15,${job.id},entry,${formula.data.id},other,,"'=HYPERLINK(""x"")",,,2,,${w.ownerId},${formula.data.created_at},,`,
  );
  expect(lines[3]).toBe(
    `2026-08-31,${job.id},labor,${labor.data.id},labor,,${labor.data.user.name},2.5,hr,50,${labor.data.id},${w.ownerId},${labor.data.created_at},,`,
  );
  expect(lines.slice(4)).toEqual(['']);
});

it('needs job_id, from and to (400), from not after to, a job the user sees (404) and one who may see job costs (403)', async () => {
  const w = await scheduleWorkspace(t);
  const job = await scheduleJob(w);
  const missing = await w.api.post('/v1/exports', { kind: 'job_cost_out', job_id: job.id });
  expect(missing.status).toBe(400);
  expect(missing.body).toMatchObject({ code: 'missing_parameter', fields: ['from', 'to'] });
  const backwards = await w.api.post('/v1/exports', {
    kind: 'job_cost_out',
    job_id: job.id,
    from: '2026-08-02',
    to: '2026-08-01',
  });
  expect(backwards.status).toBe(400);
  expect(backwards.body.field).toBe('to');
  const badDate = await w.api.raw.post('/v1/exports', {
    kind: 'job_cost_out',
    job_id: job.id,
    from: '2026-02-30',
    to: '2026-03-01',
  });
  expect(badDate.status).toBe(400);
  const other = await t.workspace();
  const theirs = await scheduleJob(other);
  const foreign = await w.api.post('/v1/exports', {
    kind: 'job_cost_out',
    job_id: theirs.id,
    from: '2026-08-01',
    to: '2026-08-31',
  });
  expect(foreign.status).toBe(404);
  expect(foreign.body.error).toBe('Job not found');
  const member = await t.user(w.firmId, { name: 'Mo Member', email: 'mo@office.test', role: 'member' });
  const hidden = await member.api.post('/v1/exports', {
    kind: 'job_cost_out',
    job_id: job.id,
    from: '2026-08-01',
    to: '2026-08-31',
  });
  expect(hidden.status).toBe(403);
  expect(hidden.body.code).toBe('job_costs_hidden');
  // Nothing was left pending: a workspace_data export can still be requested three times.
  for (let i = 0; i < 3; i++) expect((await w.api.post('/v1/exports', { kind: 'workspace_data' })).status).toBe(202);
});
