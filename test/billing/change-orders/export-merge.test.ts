// The change_orders export dataset (document 3, Export dataset rows; changed-since updated_at) and
// what a job merge does with change orders (they move, numbered after the kept job's own, with
// what their approvals posted).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, pauseClock, resumeClock } from '#platform/time.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { job, ok } from '#test/helpers/records.ts';
import { jsonLines, rawGet, Z } from '#test/helpers/downloads.ts';
import { addLine, changeOrder, operationsWorkspace, wonJob } from '#test/helpers/scenarios/change-order.ts';

let t: TestApp;
let w: Workspace;
beforeAll(async () => {
  t = await startApp();
  w = await operationsWorkspace(t);
});
afterAll(() => t.close());

const ROW_FIELDS = [
  'id',
  'job_id',
  'number',
  'title',
  'kind',
  'status',
  'source',
  'stage',
  'amount_delta',
  'tax_delta',
  'cost_delta',
  'days_delta',
  'ep_estimate_id',
  'decision_comment',
  'sent_at',
  'signed_at',
  'created_at',
  'updated_at',
];

describe('GET /v1/exports/change_orders.jsonl', () => {
  it("streams the spec's row shape in id order, only the workspace's, and what changed since updated_after", async () => {
    const other = await operationsWorkspace(t);
    await changeOrder(other.api, { job_id: (await job(other)).id, title: 'Not here' });
    const { job: j } = await wonJob(w.api);
    const quick = await changeOrder(w.api, { job_id: j.id, title: 'Quick', amount_delta: 12.5, days_delta: 1 });
    const tm = await changeOrder(w.api, { job_id: j.id, kind: 'tm' });
    await ok(w.api.post(`/v1/change-orders/${quick.id}/send`));
    await ok(w.api.post(`/v1/change-orders/${quick.id}/decline`, { comment: 'No thanks' }));

    const res = await rawGet(t, '/v1/exports/change_orders.jsonl', w.key);
    expect(res.status).toBe(200);
    expect(res.headers['x-service-export-dataset']).toBe('change_orders');
    const rows = jsonLines(res.bytes);
    expect(rows.map((r) => r.id)).toEqual([quick.id, tm.id]);
    for (const row of rows) expect(Object.keys(row).sort()).toEqual([...ROW_FIELDS].sort());
    const declined = (await ok(w.api.get(`/v1/change-orders/${quick.id}`))).data;
    expect(rows[0]).toEqual({
      id: quick.id,
      job_id: j.id,
      number: 1,
      title: 'Quick',
      kind: 'quick',
      status: 'declined',
      source: 'office',
      stage: 'declined',
      amount_delta: 12.5,
      tax_delta: 0,
      cost_delta: 0,
      days_delta: 1,
      ep_estimate_id: null,
      decision_comment: 'No thanks',
      sent_at: declined.sent_at,
      signed_at: null,
      created_at: declined.created_at,
      updated_at: declined.updated_at,
    });
    expect(rows[0].sent_at).toMatch(Z);
    expect(rows[1]).toMatchObject({
      number: 2,
      kind: 'tm',
      status: 'draft',
      stage: 'estimating',
      ep_estimate_id: tm.ep_estimate_id,
    });

    pauseClock();
    try {
      const mark = new Date(Date.parse(declined.updated_at) + 1000).toISOString();
      advanceClock(2000);
      // An edit of the tm change order's estimate changes the change order (its figures follow it).
      await addLine(w.api, tm.ep_estimate_id!, { name: 'Extra', quantity: 1, unit: 'EA', unit_cost: 100 });
      const since = jsonLines((await rawGet(t, `/v1/exports/change_orders.jsonl?updated_after=${mark}`, w.key)).bytes);
      const now = (await ok(w.api.get(`/v1/change-orders/${tm.id}`))).data;
      expect(since).toEqual([
        expect.objectContaining({ id: tm.id, amount_delta: now.amount_delta, updated_at: now.updated_at }),
      ]);
      expect(now.amount_delta).toBeGreaterThan(0);
    } finally {
      resumeClock();
    }
    const catalogue = (await ok(w.api.get('/v1/exports'))).data;
    expect(catalogue.find((d: any) => d.dataset === 'change_orders')).toMatchObject({
      changed_since_fields: ['updated_at'],
    });
  });
});

describe('job merge', () => {
  it("moves the change orders numbered after the kept job's, with what their approvals posted", async () => {
    const { job: kept, estimate } = await wonJob(w.api);
    const away = await job(w);
    const k1 = await changeOrder(w.api, { job_id: kept.id, title: 'Kept 1', amount_delta: 100 });
    await ok(w.api.post(`/v1/change-orders/${k1.id}/approve`));
    const a1 = await changeOrder(w.api, { job_id: away.id, title: 'Away 1', amount_delta: 40, days_delta: 2 });
    const a2 = await changeOrder(w.api, { job_id: away.id, title: 'Away 2' });
    await ok(w.api.post(`/v1/change-orders/${a1.id}/approve`));
    const merged = await w.api.post(`/v1/jobs/${away.id}/merge`, { into_job_id: kept.id });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    const list = await ok(w.api.get(`/v1/change-orders?job_id=${kept.id}`));
    expect(list.change_orders.map((r: any) => [r.title, r.co_number])).toEqual([
      ['Away 2', 3],
      ['Away 1', 2],
      ['Kept 1', 1],
    ]);
    const posted = await t.database.db
      .selectFrom('job_contracts')
      .selectAll()
      .where('job_id', '=', kept.id)
      .executeTakeFirstOrThrow();
    expect(posted).toMatchObject({ approved_amount_cents: 14000, approved_days: 2, approved_count: 2 });
    const next = await changeOrder(w.api, { job_id: kept.id, title: 'After', amount_delta: 1 });
    expect(next).toMatchObject({
      co_number: 4,
      revised_contract: (Math.round(estimate.totals!.price * 100) + 14100) / 100,
    });
    expect((await ok(w.api.get(`/v1/change-orders/${a2.id}`))).data.job_id).toBe(kept.id);
  });
});
