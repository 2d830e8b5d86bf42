// Job costs over HTTP (docs/api-decisions.md, "Operations: time and job costs"): entering a cost,
// the dumping rule, the job's cost read (entered costs and labor at snapshot rates with overtime),
// who may see and enter them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok, Z_SECONDS } from '#test/helpers/records.ts';
import { scheduleJob, scheduleWorkspace } from '#test/helpers/scenarios/operations.ts';

let t: TestApp;
let w: Workspace;
beforeAll(async () => {
  t = await startApp();
  w = await scheduleWorkspace(t);
});
afterAll(() => t.close());

describe('POST /v1/jobs/{id}/costs', () => {
  it('enters a cost: 201 with the cost row; a cost code naming dumping is stored as dump', async () => {
    const job = await scheduleJob(w);
    const res = await w.api.post(`/v1/jobs/${job.id}/costs`, {
      cost_type: 'material',
      cost_code: 'AC-01',
      amount: 1234.56,
      date: '2026-04-02',
      description: 'Hot mix',
      quantity: 40,
      unit: 'ton',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      job_id: job.id,
      source: 'entry',
      cost_type: 'material',
      cost_code: 'AC-01',
      amount: 1234.56,
      date: '2026-04-02',
      description: 'Hot mix',
      quantity: 40,
      unit: 'ton',
      time_entry_id: null,
      user_id: w.ownerId,
      reviewed_at: null,
      reconciled_at: null,
      created_at: expect.stringMatching(Z_SECONDS),
      updated_at: expect.stringMatching(Z_SECONDS),
    });
    for (const code of ['Dump fees', 'DUMPSTER', 'landfill-dump']) {
      const dump = await ok(
        w.api.post(`/v1/jobs/${job.id}/costs`, {
          cost_type: 'trucking',
          cost_code: code,
          amount: 10,
          date: '2026-04-02',
        }),
      );
      expect(dump.data.cost_type, code).toBe('dump');
    }
    const credit = await ok(
      w.api.post(`/v1/jobs/${job.id}/costs`, { cost_type: 'other', amount: -5.5, date: '2026-04-03' }),
    );
    expect(credit.data).toMatchObject({ amount: -5.5, cost_code: null, quantity: null });
  });

  it('refuses bad bodies (400), unknown jobs (404) and users who may not see job costs (403)', async () => {
    const job = await scheduleJob(w);
    const bad: Record<string, unknown>[] = [
      { cost_type: 'fuel', amount: 1, date: '2026-04-02' },
      { cost_type: 'material', amount: 1 },
      { cost_type: 'material', amount: 1, date: '2026-02-30' },
      { cost_type: 'material', amount: 'ten', date: '2026-04-02' },
      { cost_type: 'material', amount: 1, date: '2026-04-02', colour: 'red' },
    ];
    for (const body of bad)
      expect((await w.api.raw.post(`/v1/jobs/${job.id}/costs`, body)).status, JSON.stringify(body)).toBe(400);
    const other = await t.workspace();
    const theirs = await scheduleJob(other);
    const body = { cost_type: 'material' as const, amount: 1, date: '2026-04-02' };
    expect((await w.api.post(`/v1/jobs/${theirs.id}/costs`, body)).status).toBe(404);
    expect((await w.api.get(`/v1/jobs/${theirs.id}/costs`)).status).toBe(404);
    expect((await w.api.get('/v1/jobs/999999/costs')).status).toBe(404);
    // A member is an office user but may not see job costs unless given the flag.
    const member = await t.user(w.firmId, { name: 'Mel Member', email: 'mel@office.test', role: 'member' });
    const hidden = await member.api.post(`/v1/jobs/${job.id}/costs`, body);
    expect(hidden.status).toBe(403);
    expect(hidden.body.code).toBe('job_costs_hidden');
    expect((await member.api.get(`/v1/jobs/${job.id}/costs`)).status).toBe(403);
    const costed = await t.user(w.firmId, {
      name: 'Cora Costs',
      email: 'cora@office.test',
      role: 'member',
      can_see_job_costs: true,
    });
    expect((await costed.api.post(`/v1/jobs/${job.id}/costs`, body)).status).toBe(201);
    // A crew user with the flag is still not an office user.
    const crew = await t.user(w.firmId, {
      name: 'Cy Crew',
      email: 'cy@crew.test',
      role: 'crew',
      can_see_job_costs: true,
    });
    const refused = await crew.api.post(`/v1/jobs/${job.id}/costs`, body);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('office_user_required');
  });
});

describe('GET /v1/jobs/{id}/costs', () => {
  it('entered costs and labor at the snapshot rate (overtime 1.5x), by date, with totals', async () => {
    const job = await scheduleJob(w);
    const shop = await scheduleJob(w);
    const u = await t.user(w.firmId, { name: 'Lou Labor', email: 'lou@crew.test', role: 'crew', pay_rate: 20 });
    const norate = await t.user(w.firmId, { name: 'Nora None', email: 'nora@crew.test', role: 'crew' });
    // 38 hours elsewhere in the week of Mon 2026-05-04 (UTC workspace), then 4 hours on the job:
    // 2 regular + 2 overtime = 2 x 20 + 2 x 30 = 100.
    for (const [d, from, to] of [
      ['04', '00', '19'],
      ['05', '00', '19'],
    ] as const)
      await ok(
        w.api.post('/v1/crew/time-entries', {
          user_id: u.id,
          job_id: shop.id,
          clock_in: `2026-05-${d}T${from}:00:00Z`,
          clock_out: `2026-05-${d}T${to}:00:00Z`,
        }),
      );
    const onJob = await ok(
      w.api.post('/v1/crew/time-entries', {
        user_id: u.id,
        job_id: job.id,
        cost_code: 'Paving',
        clock_in: '2026-05-06T08:00:00Z',
        clock_out: '2026-05-06T12:00:00Z',
      }),
    );
    // No rate, no labor cost row; open and void entries give none either.
    await ok(
      w.api.post('/v1/crew/time-entries', {
        user_id: norate.id,
        job_id: job.id,
        clock_in: '2026-05-06T08:00:00Z',
        clock_out: '2026-05-06T09:00:00Z',
      }),
    );
    const voided = await ok(
      w.api.post('/v1/crew/time-entries', {
        user_id: u.id,
        job_id: job.id,
        clock_in: '2026-05-07T08:00:00Z',
        clock_out: '2026-05-07T09:00:00Z',
      }),
    );
    await ok(w.api.post(`/v1/time-entries/${voided.data.id}/void`, {}));
    await ok(w.api.post('/v1/crew/time-entries', { user_id: u.id, job_id: job.id, clock_in: '2026-05-08T08:00:00Z' }));
    const late = await ok(
      w.api.post(`/v1/jobs/${job.id}/costs`, { cost_type: 'equipment', amount: 300, date: '2026-05-07' }),
    );
    const early = await ok(
      w.api.post(`/v1/jobs/${job.id}/costs`, { cost_type: 'material', amount: 50.25, date: '2026-05-06' }),
    );
    const res = await ok(w.api.get(`/v1/jobs/${job.id}/costs`));
    expect(res.data.map((r) => [r.source, r.id, r.date, r.cost_type, r.amount])).toEqual([
      ['entry', early.data.id, '2026-05-06', 'material', 50.25],
      ['labor', onJob.data.id, '2026-05-06', 'labor', 100],
      ['entry', late.data.id, '2026-05-07', 'equipment', 300],
    ]);
    expect(res.data[1]).toMatchObject({
      time_entry_id: onJob.data.id,
      user_id: u.id,
      cost_code: 'Paving',
      quantity: 4,
      unit: 'hr',
      description: 'Lou Labor',
    });
    expect(res.totals).toEqual({
      labor: 100,
      material: 50.25,
      trucking: 0,
      equipment: 300,
      dump: 0,
      subcontract: 0,
      other: 0,
      total: 450.25,
    });
  });
});
