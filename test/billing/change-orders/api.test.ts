// Change orders over HTTP: create (quick, tm, full), read, list, edit, stages and the operations
// switch (document 3: Change order, Change orders endpoints and errors; document 2: 403
// Operations not enabled; document 1: the {change_orders, total, limit, offset} envelope and
// request_key). Decisions, sending and posting are in decisions.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { job, ok, Z_SECONDS } from '#test/helpers/records.ts';
import {
  addLine,
  changeOrder,
  jobWithContact,
  operationsWorkspace,
  wonJob,
} from '#test/helpers/scenarios/change-order.ts';

let t: TestApp;
let w: Workspace;
beforeAll(async () => {
  t = await startApp();
  w = await operationsWorkspace(t, { settings: { estimate_tax_rate: 0.08 } });
});
afterAll(() => t.close());

const WORKFLOW_FIELDS = [
  'stage',
  'stage_label',
  'lines',
  'revised_contract',
  'revised_budget',
  'approved_at',
  'approval_source',
  'signature_name',
  'signed_at',
  'declined_at',
  'voided_at',
  'sent_at',
  'decision_comment',
  'share_url',
  'signature',
  'exported_at',
  'export_ref',
];

describe('GET /v1/change-order-stages', () => {
  it('lists the default stages with their meanings', async () => {
    const res = await ok(w.api.get('/v1/change-order-stages'));
    expect(res.data).toEqual([
      { key: 'estimating', label: 'Estimating', meaning: 'working' },
      { key: 'review', label: 'Review', meaning: 'working' },
      { key: 'ready_to_send', label: 'Ready to send', meaning: 'working' },
      { key: 'sent', label: 'Sent', meaning: 'sent' },
      { key: 'approved', label: 'Approved', meaning: 'approved' },
      { key: 'declined', label: 'Declined', meaning: 'declined' },
    ]);
  });

  it("a workspace's own list: new change orders start in its first working stage; a list missing a meaning is refused", async () => {
    const own = await operationsWorkspace(t);
    const stages = [
      { key: 'pricing', label: 'Pricing', meaning: 'working' },
      { key: 'with_customer', label: 'With customer', meaning: 'sent' },
      { key: 'signed', label: 'Signed', meaning: 'approved' },
      { key: 'lost', label: 'Lost', meaning: 'declined' },
      { key: 'on_hold', label: 'On hold', meaning: 'working' },
    ];
    const missing = await t.admin.patch(`/admin/v1/workspaces/${own.firmId}`, {
      settings: { change_order_stages: stages.filter((s) => s.meaning !== 'declined') },
    });
    expect(missing.status).toBe(400);
    await ok(t.admin.patch(`/admin/v1/workspaces/${own.firmId}`, { settings: { change_order_stages: stages } }));
    expect((await ok(own.api.get('/v1/change-order-stages'))).data).toEqual(stages);
    const j = await job(own);
    const co = await changeOrder(own.api, { job_id: j.id, title: 'Extra' });
    expect(co).toMatchObject({ stage: 'pricing', stage_label: 'Pricing', status: 'draft' });
    const held = await ok(own.api.post(`/v1/change-orders/${co.id}/stage`, { stage: 'on_hold' }));
    expect(held.data).toMatchObject({ stage: 'on_hold', stage_label: 'On hold', status: 'draft' });
    const signed = await ok(own.api.post(`/v1/change-orders/${co.id}/stage`, { stage: 'signed' }));
    expect(signed.data).toMatchObject({ stage: 'signed', status: 'approved', approval_source: 'office' });
    const unknown = await own.api.post(`/v1/change-orders/${co.id}/stage`, { stage: 'review' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: 'unknown stage key', code: 'unknown_stage' });
  });
});

describe('operations off', () => {
  it('every write is 403 Operations not enabled; reads still answer', async () => {
    const off = await t.workspace();
    const j = await job(off);
    const writes: [string, string, unknown][] = [
      ['POST', '/v1/change-orders', { job_id: j.id, title: 'Extra' }],
      ['PATCH', '/v1/change-orders/1', { title: 'x' }],
      ['POST', '/v1/change-orders/1/send', {}],
      ['POST', '/v1/change-orders/1/approve', {}],
      ['POST', '/v1/change-orders/1/decline', {}],
      ['POST', '/v1/change-orders/1/stage', { stage: 'review' }],
      ['POST', '/v1/change-orders/1/void', {}],
    ];
    for (const [method, path, body] of writes) {
      const res = await off.api.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toMatchObject({ error: 'Operations not enabled', code: 'operations_disabled' });
    }
    expect((await ok(off.api.get('/v1/change-orders'))).total).toBe(0);
    expect((await ok(off.api.get('/v1/change-order-stages'))).data).toHaveLength(6);
  });
});

describe('POST /v1/change-orders: quick', () => {
  it('starts a draft in the first working stage, numbered within its job, addressed to the job contact; nothing is sent', async () => {
    const j = await jobWithContact(w.api, { company: 'Maple HOA' });
    const co = await changeOrder(w.api, {
      job_id: j.id,
      title: '  Extra patching  ',
      description: 'Two more potholes by the entrance',
      amount_delta: 1250.1,
      days_delta: 2,
    });
    expect(co).toMatchObject({
      co_number: 1,
      kind: 'quick',
      kind_label: 'Quick change order',
      pricing_mode: null,
      title: 'Extra patching',
      description: 'Two more potholes by the entrance',
      status: 'draft',
      stage: 'estimating',
      stage_label: 'Estimating',
      job_id: j.id,
      job_name: j.name,
      customer: 'Maple HOA',
      customer_name: 'Dana Customer',
      customer_email: j.contact_email,
      amount_delta: 1250.1,
      tax_delta: 0,
      cost_delta: 0,
      days_delta: 2,
      revised_contract: null,
      revised_budget: null,
      lines: [],
      ep_estimate_id: null,
      est_proposal_id: null,
      source: 'office',
      sent_at: null,
      share_url: null,
      approved_at: null,
      approval_source: null,
      exported_at: null,
      export_ref: null,
    });
    expect(co.created_at).toMatch(Z_SECONDS);
    const stored = await t.database.db
      .selectFrom('jobs')
      .select('job_number')
      .where('id', '=', j.id)
      .executeTakeFirstOrThrow();
    expect(co.job_number).toBe(stored.job_number);
    expect((await ok(w.api.get(`/v1/change-orders/${co.id}`))).data).toEqual(co);
    // Numbers count per job.
    const second = await changeOrder(w.api, { job_id: j.id, title: 'Second', amount_delta: -80 });
    expect(second).toMatchObject({ co_number: 2, amount_delta: -80 });
    const elsewhere = await changeOrder(w.api, {
      job_id: (await job(w)).id,
      title: 'Other job',
      customer_name: 'Pat',
      customer_email: 'pat@example.com',
    });
    expect(elsewhere).toMatchObject({
      co_number: 1,
      amount_delta: 0,
      customer_name: 'Pat',
      customer_email: 'pat@example.com',
    });
  });

  it('400 without a title, with a title over 200, unknown fields, pricing_mode, a bad email; 404 for a missing job', async () => {
    const j = await job(w);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ job_id: j.id }, 400, 'title'],
      [{ job_id: j.id, title: 'x'.repeat(201) }, 400, 'title'],
      [{ job_id: j.id, title: '   ' }, 400, 'title'],
      [{ job_id: j.id, title: 'X', colour: 'red' }, 400, 'colour'],
      [{ job_id: j.id, title: 'X', pricing_mode: 'additive' }, 400, 'pricing_mode'],
      [{ job_id: j.id, title: 'X', kind: 'big' }, 400, 'kind'],
      [{ job_id: j.id, title: 'X', customer_email: 'nope' }, 400, 'customer_email'],
      [{ job_id: j.id, title: 'X', request_key: 'not-a-uuid' }, 400, 'request_key'],
      [{ job_id: j.id, title: 'X', days_delta: 1.5 }, 400, 'days_delta'],
      [{ job_id: 999_999, title: 'X' }, 404, 'Job not found'],
    ];
    for (const [body, status, mention] of cases) {
      const res = await w.api.raw.post('/v1/change-orders', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(JSON.stringify(res.body), JSON.stringify(body)).toContain(mention);
    }
    expect((await ok(w.api.get(`/v1/change-orders?job_id=${j.id}`))).total).toBe(0);
  });
});

describe('POST /v1/change-orders: tm and full', () => {
  it('400 job has no estimate, 409 for an estimate never issued; 403 for a user whose estimating role cannot start change orders', async () => {
    const bare = await job(w);
    const none = await w.api.post('/v1/change-orders', { job_id: bare.id, kind: 'tm' });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ error: 'job has no estimate', code: 'job_has_no_estimate' });
    // An estimate never issued cannot take a change order yet (as POST /v1/estimates/{id}/change-orders answers).
    const drafted = await job(w);
    await addLine(w.api, (await ok(w.api.post('/v1/estimates', { job_id: drafted.id }))).data.id, {});
    const unissued = await w.api.post('/v1/change-orders', { job_id: drafted.id, kind: 'full' });
    expect(unissued.status).toBe(409);
    expect(unissued.body.code).toBe('not_issued');
    expect((await ok(w.api.get(`/v1/change-orders?job_id=${drafted.id}`))).total).toBe(0);
    const { job: j } = await wonJob(w.api);
    const sales = await t.user(w.firmId, { name: 'Sam Sales', estimating_role: 'sales' });
    const refused = await sales.api.post('/v1/change-orders', { job_id: j.id, kind: 'full' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('estimating_role_required');
    const estimator = await t.user(w.firmId, { name: 'Eve Estimator', estimating_role: 'estimator' });
    expect((await estimator.api.post('/v1/change-orders', { job_id: j.id, kind: 'full' })).status).toBe(201);
    // A quick one needs no estimating role.
    expect((await sales.api.post('/v1/change-orders', { job_id: j.id, title: 'Quick' })).status).toBe(201);
  });

  it('400 for amount_delta on a priced kind and revision on tm', async () => {
    const { job: j } = await wonJob(w.api);
    const amount = await w.api.post('/v1/change-orders', { job_id: j.id, kind: 'tm', amount_delta: 10 });
    expect(amount.status).toBe(400);
    expect(amount.body.field).toBe('amount_delta');
    const revision = await w.api.post('/v1/change-orders', { job_id: j.id, kind: 'tm', pricing_mode: 'revision' });
    expect(revision.status).toBe(400);
    expect(revision.body.field).toBe('pricing_mode');
    expect((await ok(w.api.get(`/v1/change-orders?job_id=${j.id}`))).total).toBe(0);
  });

  it("tm copies the job's estimate into an additive change-order estimate whose figures and lines it shows as they change", async () => {
    const { job: j, estimate } = await wonJob(w.api);
    const co = await changeOrder(w.api, { job_id: j.id, kind: 'tm', title: 'Added drainage', days_delta: 3 });
    expect(co).toMatchObject({
      kind: 'tm',
      kind_label: 'Time and materials',
      pricing_mode: 'additive',
      title: 'Added drainage',
      amount_delta: 0,
      tax_delta: 0,
      cost_delta: 0,
      lines: [],
      revised_contract: estimate.totals!.price,
      revised_budget: estimate.totals!.cost,
    });
    const coEstimate = (await ok(w.api.get(`/v1/estimates/${co.ep_estimate_id}`))) as any;
    expect(coEstimate).toMatchObject({
      status: 'change_order',
      is_change_order: true,
      parent_estimate_id: estimate.id,
      job_id: j.id,
      name: 'Added drainage',
    });
    const created = (await eventsOf(t.database, j.id)).filter((e) => e.event_type === 'estimate_created');
    expect(created.map((e) => e.data.estimate_id)).toContain(co.ep_estimate_id);

    await addLine(w.api, co.ep_estimate_id!, {
      name: 'Drain tile',
      quantity: 100,
      unit: 'LF',
      unit_cost: 12,
      cost_code: '03-200',
    });
    await addLine(w.api, co.ep_estimate_id!, {
      name: 'Gravel',
      quantity: 10,
      unit: 'TN',
      unit_cost: 40,
      cost_code: '03-200',
    });
    await addLine(w.api, co.ep_estimate_id!, {
      name: 'Labor',
      quantity: 8,
      unit: 'HR',
      unit_cost: 50,
      cost_code: null,
    });
    const priced = (await ok(w.api.get(`/v1/estimates/${co.ep_estimate_id}`))) as any;
    const after = (await ok(w.api.get(`/v1/change-orders/${co.id}`))).data;
    expect(after).toMatchObject({
      amount_delta: priced.totals.price,
      tax_delta: priced.totals.tax,
      cost_delta: priced.totals.cost,
      revised_contract: Math.round((estimate.totals!.price + priced.totals.price) * 100) / 100,
    });
    expect(priced.totals.tax).toBeGreaterThan(0);
    const lines = priced.areas.flatMap((a: any) => a.services);
    const sum = (code: string | null, f: string) =>
      Math.round(lines.filter((l: any) => l.cost_code === code).reduce((s: number, l: any) => s + l[f] * 100, 0)) / 100;
    expect(after.lines).toEqual([
      { cost_code: '03-200', amount: sum('03-200', 'allocated_price'), cost: sum('03-200', 'cost') },
      { cost_code: null, amount: sum(null, 'allocated_price'), cost: sum(null, 'cost') },
    ]);
    // The estimate's change moves the change order's updated_at (a sync client sees it changed).
    expect(after.updated_at >= co.updated_at).toBe(true);
    expect(after.updated_at).toBe(priced.updated_at);
    const listed = (await ok(w.api.get(`/v1/change-orders?job_id=${j.id}`))).change_orders[0];
    expect(listed).toMatchObject({ amount_delta: priced.totals.price, updated_at: priced.updated_at });
  });

  it('full with revision copies the estimate: the change is the copy less the original, by cost code', async () => {
    const { job: j, estimate } = await wonJob(w.api);
    const co = await changeOrder(w.api, { job_id: j.id, kind: 'full', pricing_mode: 'revision' });
    expect(co).toMatchObject({
      kind: 'full',
      pricing_mode: 'revision',
      title: 'Change order 1',
      amount_delta: 0,
      tax_delta: 0,
      cost_delta: 0,
      lines: [],
      revised_contract: estimate.totals!.price,
    });
    const copy = (await ok(w.api.get(`/v1/estimates/${co.ep_estimate_id}`))) as any;
    expect(copy.totals.price).toBe(estimate.totals!.price);
    const line = copy.areas[0].services[0];
    const res = await w.api.patch(`/v1/estimates/${co.ep_estimate_id}/line-items/${line.id}`, { quantity: 12_000 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const revised = (await ok(w.api.get(`/v1/estimates/${co.ep_estimate_id}`))) as any;
    const after = (await ok(w.api.get(`/v1/change-orders/${co.id}`))).data;
    const minus = (a: number, b: number) => Math.round((a - b) * 100) / 100;
    expect(after).toMatchObject({
      amount_delta: minus(revised.totals.price, estimate.totals!.price),
      tax_delta: minus(revised.totals.tax, estimate.totals!.tax),
      cost_delta: minus(revised.totals.cost, estimate.totals!.cost),
      revised_contract: revised.totals.price,
    });
    expect(after.amount_delta).toBeGreaterThan(0);
    expect(after.lines).toEqual([
      {
        cost_code: '02-100',
        amount: minus(revised.areas[0].services[0].allocated_price, estimate.areas[0].services[0].allocated_price!),
        cost: minus(revised.totals.cost, estimate.totals!.cost),
      },
    ]);
  });
});

describe('request_key', () => {
  it('a repeated create answers the first change order (200); another job or kind with the key is 409', async () => {
    const { job: j } = await wonJob(w.api);
    const key = crypto.randomUUID();
    const first = await changeOrder(w.api, { job_id: j.id, kind: 'full', request_key: key });
    const again = await w.api.post('/v1/change-orders', { job_id: j.id, kind: 'full', request_key: key.toUpperCase() });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first);
    const other = await w.api.post('/v1/change-orders', {
      job_id: (await wonJob(w.api)).job.id,
      kind: 'full',
      request_key: key,
    });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: 'request_key_reused', change_order_id: first.id });
    const quick = await w.api.post('/v1/change-orders', { job_id: j.id, title: 'Q', request_key: key });
    expect(quick.status).toBe(409);
  });

  it('ten concurrent tm creates with one request_key make one change order and one change-order estimate', async () => {
    const { job: j, estimate } = await wonJob(w.api);
    const key = crypto.randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        w.api.post('/v1/change-orders', { job_id: j.id, kind: 'tm', title: 'Concurrent', request_key: key }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    const ids = new Set(answers.map((a) => a.body.data.id));
    expect(ids.size).toBe(1);
    expect((await ok(w.api.get(`/v1/change-orders?job_id=${j.id}`))).total).toBe(1);
    const estimates = await t.database.db
      .selectFrom('estimates')
      .select('id')
      .where('parent_estimate_id', '=', estimate.id)
      .execute();
    expect(estimates.map((e) => e.id)).toEqual([answers[0].body.data.ep_estimate_id]);
  });
});

describe('GET /v1/change-orders', () => {
  it('{change_orders, total, limit, offset}, newest first, rows without workflow fields; filters by job and status', async () => {
    const j = await job(w);
    const a = await changeOrder(w.api, { job_id: j.id, title: 'A', amount_delta: 1 });
    const b = await changeOrder(w.api, { job_id: j.id, title: 'B', amount_delta: 2 });
    const c = await changeOrder(w.api, { job_id: j.id, title: 'C', amount_delta: 3 });
    await ok(w.api.post(`/v1/change-orders/${b.id}/approve`));
    const all = await ok(w.api.get(`/v1/change-orders?job_id=${j.id}`));
    expect(Object.keys(all).sort()).toEqual(['change_orders', 'limit', 'offset', 'total']);
    expect(all).toMatchObject({ total: 3, limit: 50, offset: 0 });
    expect(all.change_orders.map((r: any) => r.id)).toEqual([c.id, b.id, a.id]);
    for (const field of WORKFLOW_FIELDS) expect(all.change_orders[0]).not.toHaveProperty(field);
    const { stage: _s, stage_label: _l, ...rest } = c;
    for (const field of WORKFLOW_FIELDS) delete (rest as any)[field];
    expect(all.change_orders[0]).toEqual(rest);

    const approved = await ok(w.api.get(`/v1/change-orders?job_id=${j.id}&status=approved`));
    expect(approved.change_orders.map((r: any) => r.id)).toEqual([b.id]);
    const paged = await ok(w.api.get(`/v1/change-orders?job_id=${j.id}&limit=1&offset=1`));
    expect(paged).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(paged.change_orders.map((r: any) => r.id)).toEqual([b.id]);

    const bad = await w.api.get('/v1/change-orders?status=open');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('status must be one of draft, sent, approved, declined, void');
    expect((await w.api.get('/v1/change-orders?limit=201')).status).toBe(400);
    expect((await w.api.get('/v1/change-orders/999999')).body).toMatchObject({ error: 'Change order not found' });
  });

  it('a user who sees only their own jobs sees only their change orders', async () => {
    const own = await t.user(w.firmId, { name: 'Own Jobs', role: 'member', sees_own_jobs_only: true });
    const mine = await ok(own.api.post('/v1/jobs', { name: 'Mine' }));
    const theirs = await job(w);
    const co = await changeOrder(w.api, { job_id: theirs.id, title: 'Not yours' });
    const listed = await ok(own.api.get('/v1/change-orders'));
    expect(listed.change_orders.map((r: any) => r.job_id)).not.toContain(theirs.id);
    expect((await own.api.get(`/v1/change-orders/${co.id}`)).status).toBe(404);
    expect((await own.api.post('/v1/change-orders', { job_id: theirs.id, title: 'X' })).status).toBe(404);
    expect((await own.api.post('/v1/change-orders', { job_id: mine.data.id, title: 'X' })).status).toBe(201);
  });
});

describe('PATCH /v1/change-orders/{id}', () => {
  it('edits a draft or sent one; approved or declined is 400 already decided; void 400', async () => {
    const j = await job(w);
    const co = await changeOrder(w.api, { job_id: j.id, title: 'Edit me', amount_delta: 100 });
    const edited = await ok(
      w.api.patch(`/v1/change-orders/${co.id}`, {
        title: 'Edited',
        description: 'More work',
        amount_delta: 150.25,
        days_delta: -1,
        customer_name: 'Lee',
        customer_email: 'lee@example.com',
      }),
    );
    expect(edited.data).toMatchObject({
      title: 'Edited',
      description: 'More work',
      amount_delta: 150.25,
      days_delta: -1,
      customer_name: 'Lee',
      customer_email: 'lee@example.com',
    });
    const cleared = await ok(w.api.patch(`/v1/change-orders/${co.id}`, { description: null, customer_email: null }));
    expect(cleared.data).toMatchObject({ description: '', customer_email: null });
    expect((await w.api.raw.patch(`/v1/change-orders/${co.id}`, { kind: 'tm' })).status).toBe(400);
    expect((await w.api.patch(`/v1/change-orders/${co.id}`, { title: '' })).status).toBe(400);

    await ok(w.api.post(`/v1/change-orders/${co.id}/approve`));
    const decided = await w.api.patch(`/v1/change-orders/${co.id}`, { title: 'Too late' });
    expect(decided.status).toBe(400);
    expect(decided.body).toMatchObject({ error: 'change order already decided', code: 'change_order_decided' });

    const declined = await changeOrder(w.api, { job_id: j.id, title: 'No' });
    await ok(w.api.post(`/v1/change-orders/${declined.id}/decline`));
    expect((await w.api.patch(`/v1/change-orders/${declined.id}`, { title: 'x' })).body.code).toBe(
      'change_order_decided',
    );
    const voided = await changeOrder(w.api, { job_id: j.id, title: 'Gone' });
    await ok(w.api.post(`/v1/change-orders/${voided.id}/void`));
    const v = await w.api.patch(`/v1/change-orders/${voided.id}`, { title: 'x' });
    expect(v.status).toBe(400);
    expect(v.body.code).toBe('change_order_void');
  });

  it("a priced one's amount is its estimate's: amount_delta is 400", async () => {
    const { job: j } = await wonJob(w.api);
    const co = await changeOrder(w.api, { job_id: j.id, kind: 'tm' });
    const res = await w.api.patch(`/v1/change-orders/${co.id}`, { amount_delta: 5 });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('amount_delta');
    expect((await ok(w.api.patch(`/v1/change-orders/${co.id}`, { days_delta: 4 }))).data.days_delta).toBe(4);
  });
});
