// The estimate state table (document 3): issue (versions frozen, estimate_issued then
// estimate_revised), mark won (estimate_approved, awarded_at, award snapshot), mark lost
// (estimate_declined), reopen, change-order estimates (estimate_created with is_change_order), the
// profit floor (approval_required) and the estimating roles of document 1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, startApp, type Client, type TestApp, type Workspace } from '#test/helpers/harness.ts';

let t: TestApp;
let w: Workspace;

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace();
});
afterAll(() => t.close());

async function estimateWithLine(api: Client = w.api, unitCost = 1000) {
  const job = (await api.post('/v1/jobs', { name: `Lifecycle ${Math.random().toString(36).slice(2, 8)}` })).body.data;
  const e = (await api.post('/v1/estimates', { job_id: job.id })).body.data;
  const added = await api.post(`/v1/estimates/${e.id}/line-items`, {
    name: 'Seal and stripe',
    unit: 'EA',
    quantity: 1,
    unit_cost: unitCost,
  });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  return { job, id: e.id as number, lineId: added.body.line_item_id as number };
}

const estimateEvents = async (jobId: number) =>
  (await eventsOf(t.database, jobId)).filter((e) => e.event_type.startsWith('estimate_'));

describe('issue, revise, win, lose', () => {
  it('issue freezes version 1 (estimate_issued); a later issue is version 2 (estimate_revised)', async () => {
    const { job, id, lineId } = await estimateWithLine();
    const first = await w.api.post(`/v1/estimates/${id}/issue`, {});
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toMatchObject({
      status: 'estimate',
      current_version: 1,
      version: null,
      totals: { price: 1300 },
    });

    await w.api.patch(`/v1/estimates/${id}/line-items/${lineId}`, { quantity: 2 });
    const live = (await w.api.get(`/v1/estimates/${id}`)).body;
    expect(live.totals!.price).toBe(2600);
    const v1 = await w.api.get(`/v1/estimates/${id}?version=1`);
    expect(v1.status).toBe(200);
    expect(v1.body).toMatchObject({
      id,
      version: 1,
      status: 'estimate',
      current_version: 1,
      issued_by_user_id: w.ownerId,
      totals: { price: 1300 },
    });
    expect(v1.body.issued_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(v1.body.areas[0].services[0].quantity).toBe(1);

    const second = await w.api.post(`/v1/estimates/${id}/issue`);
    expect(second.body.data.current_version).toBe(2);
    expect((await w.api.get(`/v1/estimates/${id}?version=1`)).body.totals!.price).toBe(1300); // still frozen
    expect((await w.api.get(`/v1/estimates/${id}?version=2`)).body.totals!.price).toBe(2600);
    const missing = await w.api.get(`/v1/estimates/${id}?version=3`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: 'Version not found', current_version: 2 });

    const versions = (await w.api.get(`/v1/estimates/${id}/versions`)).body.data;
    expect(versions.map((v: any) => [v.version, v.totals.price, v.is_current])).toEqual([
      [1, 1300, false],
      [2, 2600, true],
    ]);
    expect(versions[0]).toMatchObject({ issued_by_user_id: w.ownerId, profit_floor_overridden: false });

    const events = await estimateEvents(job.id);
    expect(events.map((e) => e.event_type)).toEqual(['estimate_created', 'estimate_issued', 'estimate_revised']);
    expect(events[0].data).toEqual({
      estimate_id: id,
      status: 'draft',
      is_change_order: false,
      parent_estimate_id: null,
    });
    expect(events[1].data).toEqual({ estimate_id: id, version: 1, issued_by_user_id: w.ownerId });
    expect(events[2]).toMatchObject({
      entity_type: 'estimate_version',
      data: { estimate_id: id, version: 2, issued_by_user_id: w.ownerId },
    });
  });

  it('an estimate with nothing in the bid cannot be issued (issue_blocked)', async () => {
    const job = (await w.api.post('/v1/jobs', { name: 'Empty Bid' })).body.data;
    const e = (await w.api.post('/v1/estimates', { job_id: job.id })).body.data;
    const res = await w.api.post(`/v1/estimates/${e.id}/issue`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('issue_blocked');
    expect((await w.api.get(`/v1/estimates/${e.id}`)).body).toMatchObject({ status: 'draft', current_version: null });
    expect(await estimateEvents(job.id)).toHaveLength(1);
  });

  it('mark won needs an issued estimate; it sets awarded_at and the award snapshot, then needs a change order for new scope', async () => {
    const { job, id, lineId } = await estimateWithLine();
    const early = await w.api.post(`/v1/estimates/${id}/mark-won`);
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('not_issued');
    await w.api.post(`/v1/estimates/${id}/issue`);
    const won = await w.api.post(`/v1/estimates/${id}/mark-won`);
    expect(won.status).toBe(200);
    expect(won.body.data).toMatchObject({
      status: 'won',
      awarded_at: expect.stringMatching(/Z$/),
      award_snapshot_id: expect.any(Number),
    });
    const award = await w.api.get(`/v1/estimates/${id}/award`);
    expect(award.status).toBe(200);
    expect(award.body).toMatchObject({ id, status: 'won', totals: { price: 1300 } });

    const events = await estimateEvents(job.id);
    const approved = events.find((e) => e.event_type === 'estimate_approved')!;
    expect(approved.data).toEqual({
      estimate_id: id,
      status: 'won',
      is_change_order: false,
      parent_estimate_id: null,
      award_snapshot_id: won.body.data.award_snapshot_id,
    });

    for (const [method, path, body] of [
      ['PATCH', `/v1/estimates/${id}/line-items/${lineId}`, { quantity: 5 }],
      ['POST', `/v1/estimates/${id}/line-items`, { name: 'More', unit: 'EA', quantity: 1, unit_cost: 1 }],
      ['PATCH', `/v1/estimates/${id}`, { tax_rate: 0.1 }],
      ['POST', `/v1/estimates/${id}/issue`, {}],
      ['POST', `/v1/estimates/${id}/mark-lost`, {}],
    ] as const) {
      const res = await w.api.request(method, path, body);
      expect(res.status, path).toBe(409);
      expect(res.body).toMatchObject({
        code: 'estimate_won',
        message: 'A won estimate needs a change order for new scope',
      });
    }
    expect((await w.api.get(`/v1/jobs/${job.id}`)).body.data).toMatchObject({ estimate_id: id, estimate_total: 1300 });
  });

  it('mark lost records estimate_declined with from_status; reopen goes back', async () => {
    const { job, id } = await estimateWithLine();
    await w.api.post(`/v1/estimates/${id}/issue`);
    const lost = await w.api.post(`/v1/estimates/${id}/mark-lost`, { reason: 'Went with a cheaper bid' });
    expect(lost.status).toBe(200);
    expect(lost.body.data).toMatchObject({
      status: 'lost',
      lost_reason: 'Went with a cheaper bid',
      lost_at: expect.stringMatching(/Z$/),
    });
    const declined = (await estimateEvents(job.id)).find((e) => e.event_type === 'estimate_declined')!;
    expect(declined.data).toEqual({
      estimate_id: id,
      status: 'lost',
      is_change_order: false,
      parent_estimate_id: null,
      from_status: 'estimate',
    });
    const edit = await w.api.patch(`/v1/estimates/${id}`, { name: 'x' });
    expect(edit.body.code).toBe('estimate_lost');
    const reopened = await w.api.post(`/v1/estimates/${id}/reopen`);
    expect(reopened.status).toBe(200);
    expect(reopened.body.data).toMatchObject({ status: 'estimate', lost_at: null, lost_reason: null });
    expect((await w.api.post(`/v1/estimates/${id}/reopen`)).body.code).toBe('invalid_status');
  });

  it('a webhook body of an estimate event carries the estimate, and issued versions as frozen', async () => {
    const hook = await w.api.post('/v1/webhooks', {
      target_url: 'https://hooks.example.com/estimates',
      event_type: 'estimate.revised',
      secret: 's',
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const { id, lineId } = await estimateWithLine();
    await w.api.post(`/v1/estimates/${id}/issue`);
    await w.api.patch(`/v1/estimates/${id}/line-items/${lineId}`, { quantity: 3 });
    await w.api.post(`/v1/estimates/${id}/issue`);
    await w.api.patch(`/v1/estimates/${id}/line-items/${lineId}`, { quantity: 4 });
    const deliveries = (await w.api.get(`/v1/webhooks/deliveries?webhook_id=${hook.body.data.id}`)).body.data;
    expect(deliveries).toHaveLength(1);
    const one = (await w.api.get(`/v1/webhooks/deliveries/${deliveries[0].id}`)).body.data;
    expect(one.payload).toMatchObject({
      event_type: 'estimate_revised',
      entity: { type: 'estimate_version' },
      data: { estimate_id: id, version: 2 },
      estimate: { id, version: 2, totals: { price: 3900 } },
      job: { id: expect.any(Number) },
    });
    await w.api.delete(`/v1/webhooks/${hook.body.data.id}`);
  });
});

describe('the profit floor', () => {
  it('below the floor an estimator gets approval_required; an estimating admin overrides it', async () => {
    await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { profit_floor_margin: 0.3 } });
    try {
      const estimator = await t.user(w.firmId, {
        name: 'Esti Mator',
        email: 'estimator@floor.test',
        role: 'member',
        estimating_role: 'estimator',
      });
      const { job, id } = await estimateWithLine(estimator.api); // 30% markup = 23% margin, below 30%
      const blocked = await estimator.api.post(`/v1/estimates/${id}/issue`);
      expect(blocked.status).toBe(409);
      expect(blocked.body).toMatchObject({
        code: 'approval_required',
        margin_pct: 0.2308,
        margin_pct_of_subtotal: 0.2308,
        profit_floor_margin: 0.3,
      });
      const notAllowed = await estimator.api.post(`/v1/estimates/${id}/issue`, { override_profit_floor: true });
      expect(notAllowed.status).toBe(403);
      expect(notAllowed.body.code).toBe('approval_required');
      expect((await w.api.get(`/v1/estimates/${id}`)).body.current_version).toBeNull();

      const adminUser = await t.user(w.firmId, {
        name: 'Est Admin',
        email: 'admin@floor.test',
        role: 'member',
        estimating_role: 'admin',
      });
      expect((await adminUser.api.post(`/v1/estimates/${id}/issue`)).body.code).toBe('approval_required');
      const issued = await adminUser.api.post(`/v1/estimates/${id}/issue`, { override_profit_floor: true });
      expect(issued.status).toBe(200);
      expect((await w.api.get(`/v1/estimates/${id}/versions`)).body.data[0].profit_floor_overridden).toBe(true);
      expect((await estimateEvents(job.id)).map((e) => e.event_type)).toEqual(['estimate_created', 'estimate_issued']);

      // Raising the markup clears the floor for the estimator.
      const { id: id2 } = await estimateWithLine(estimator.api);
      await estimator.api.patch(`/v1/estimates/${id2}`, { markup_method: 'margin', markup_rate: 0.35 });
      expect((await estimator.api.post(`/v1/estimates/${id2}/issue`)).status).toBe(200);
    } finally {
      await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { profit_floor_margin: null } });
    }
  });

  it('the floor is a margin of the pre-tax price: tax neither blocks nor clears it', async () => {
    await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { profit_floor_margin: 0.3 } });
    try {
      // Priced at a 30% margin with 8% tax: $1,000 cost, $1,428.57 subtotal, $114.29 tax, $1,542.86 price.
      const { id } = await estimateWithLine();
      const priced = await w.api.patch(`/v1/estimates/${id}`, {
        markup_method: 'margin',
        markup_rate: 0.3,
        tax_rate: 0.08,
      });
      expect(priced.body.data.totals).toMatchObject({
        subtotal: 1428.57,
        tax: 114.29,
        price: 1542.86,
        margin: 428.57,
        margin_pct: 0.2778,
        margin_pct_of_subtotal: 0.3,
      });
      const estimator = await t.user(w.firmId, {
        name: 'Tax Floor',
        email: 'taxfloor@floor.test',
        role: 'member',
        estimating_role: 'estimator',
      });
      expect((await estimator.api.post(`/v1/estimates/${id}/issue`)).status).toBe(200);
      // 30% markup (23.08% of the pre-tax price) stays below the floor whatever the tax: the answer shows both margins.
      const { id: id2 } = await estimateWithLine();
      await w.api.patch(`/v1/estimates/${id2}`, { tax_rate: 0.08 });
      const blocked = await estimator.api.post(`/v1/estimates/${id2}/issue`);
      expect(blocked.status).toBe(409);
      // $300 margin of a $1,300 subtotal and a $1,404 price.
      expect(blocked.body).toMatchObject({
        code: 'approval_required',
        margin_pct_of_subtotal: 0.2308,
        margin_pct: 0.2137,
        profit_floor_margin: 0.3,
      });
    } finally {
      await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { profit_floor_margin: null } });
    }
  });
});

describe('estimating roles', () => {
  it('sales create estimates and unit-priced lines, but do not build, price, issue or decide', async () => {
    const sales = await t.user(w.firmId, {
      name: 'Sal Es',
      email: 'sales@roles.test',
      role: 'member',
      estimating_role: 'sales',
    });
    const { id, lineId } = await estimateWithLine(sales.api);
    expect((await sales.api.patch(`/v1/estimates/${id}/line-items/${lineId}`, { quantity: 3 })).status).toBe(200);
    const overlay = (await w.api.get('/v1/catalog/services?q=overlay')).body.data.find(
      (s: any) => s.estimating_mode === 'detailed',
    );
    const refusals: [string, string, unknown, string][] = [
      [
        'POST',
        `/v1/estimates/${id}/line-items`,
        { service_id: overlay!.id, quantity: 100 },
        'estimating_role_required',
      ],
      ['PATCH', `/v1/estimates/${id}`, { markup_rate: 0.5 }, 'estimating_role_required'],
      ['POST', `/v1/estimates/${id}/issue`, {}, 'issue_blocked'],
      ['POST', `/v1/estimates/${id}/mark-lost`, {}, 'estimating_role_required'],
      ['DELETE', `/v1/estimates/${id}`, undefined, 'estimating_role_required'],
    ];
    for (const [method, path, body, code] of refusals) {
      const res = await sales.api.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body, `${method} ${path}`).toMatchObject({ code, estimating_role: 'sales' });
    }
    expect((await w.api.get(`/v1/estimates/${id}`)).body).toMatchObject({ status: 'draft', pricing: null });
  });

  it('a stored estimating role outside the known ones acts as no role: 403, never a 500', async () => {
    const odd = await t.user(w.firmId, {
      name: 'Odd Role',
      email: 'odd@roles.test',
      role: 'member',
      estimating_role: 'estimator',
    });
    // A value the API never writes (an older release's, or edited by hand), set before the key is first used.
    await t.database.db.updateTable('users').set({ estimating_role: 'manager' }).where('id', '=', odd.id).execute();
    const job = (await w.api.post('/v1/jobs', { name: 'Odd role job' })).body.data;
    const create = await odd.api.post('/v1/estimates', { job_id: job.id });
    expect(create.status).toBe(403);
    expect(create.body).toMatchObject({ code: 'estimating_role_required', estimating_role: 'none' });
    const { id } = await estimateWithLine();
    const issue = await odd.api.post(`/v1/estimates/${id}/issue`);
    expect(issue.status).toBe(403);
    expect(issue.body).toMatchObject({ code: 'issue_blocked', estimating_role: 'none' });
    // The catalog asks the same rule: not an estimating admin.
    const catalog = await odd.api.post('/v1/catalog/items', {
      kind: 'other',
      name: 'Odd cones',
      unit: 'EA',
      unit_cost: 1,
    });
    expect(catalog.status).toBe(403);
    expect(catalog.body.code).toBe('estimating_admin_required');
    // Reading is still fine.
    expect((await odd.api.get(`/v1/estimates/${id}`)).status).toBe(200);
  });

  it('a user without an estimating role cannot create; a viewer is refused with the reason', async () => {
    const none = await t.user(w.firmId, {
      name: 'No Role',
      email: 'none@roles.test',
      role: 'member',
      estimating_role: 'none',
    });
    const job = (await w.api.post('/v1/jobs', { name: 'Role Plaza' })).body.data;
    const res = await none.api.post('/v1/estimates', { job_id: job.id });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'estimating_role_required', estimating_role: 'none' });
    const viewer = await t.user(w.firmId, { name: 'View Er', email: 'viewer@roles.test', role: 'viewer' });
    const refused = await viewer.api.post('/v1/estimates', { job_id: job.id });
    expect(refused.status).toBe(403);
    expect(refused.body.message ?? refused.body.error).toBeTruthy();
    expect((await viewer.api.get(`/v1/estimates?job_id=${job.id}`)).status).toBe(200);
    expect((await w.api.get(`/v1/estimates?job_id=${job.id}`)).body.data).toEqual([]);
  });
});

describe('change-order estimates', () => {
  it('start from an issued estimate: additive is empty, revision copies the lines; estimate_created says is_change_order', async () => {
    const { job, id } = await estimateWithLine();
    const early = await w.api.post(`/v1/estimates/${id}/change-orders`, {});
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('not_issued');
    await w.api.post(`/v1/estimates/${id}/issue`);
    await w.api.post(`/v1/estimates/${id}/mark-won`);

    const additive = await w.api.post(`/v1/estimates/${id}/change-orders`, {});
    expect(additive.status, JSON.stringify(additive.body)).toBe(201);
    expect(additive.body.data).toMatchObject({
      status: 'change_order',
      is_change_order: true,
      parent_estimate_id: id,
      change_order_mode: 'additive',
      priced: false,
      areas: [{ name: 'Change order', services: [] }],
    });
    const co = additive.body.data.id;
    const line = await w.api.post(`/v1/estimates/${co}/line-items`, {
      name: 'Extra striping',
      unit: 'LF',
      quantity: 100,
      unit_cost: 1,
    });
    expect(line.body.data.totals!.price).toBe(130);

    const revision = await w.api.post(`/v1/estimates/${id}/change-orders`, {
      pricing_mode: 'revision',
      name: 'Rework',
    });
    expect(revision.status).toBe(201);
    expect(revision.body.data).toMatchObject({
      name: 'Rework',
      change_order_mode: 'revision',
      totals: { price: 1300 },
    });
    expect(revision.body.data.areas[0].services[0]).toMatchObject({ name: 'Seal and stripe', quantity: 1 });

    // A change order of a change order hangs off the original.
    await w.api.post(`/v1/estimates/${co}/issue`);
    const nested = await w.api.post(`/v1/estimates/${co}/change-orders`, {});
    expect(nested.body.data.parent_estimate_id).toBe(id);

    const created = (await estimateEvents(job.id)).filter((e) => e.event_type === 'estimate_created');
    expect(created[1].data).toEqual({
      estimate_id: co,
      status: 'change_order',
      is_change_order: true,
      parent_estimate_id: id,
    });
    expect((await w.api.get(`/v1/estimates?status=change_order&job_id=${job.id}`)).body.data).toHaveLength(3);
    // The job's estimate stays the original.
    expect((await w.api.get(`/v1/jobs/${job.id}`)).body.data.estimate_id).toBe(id);
  });
});

describe('action calls without a body', () => {
  it('issue, mark-lost, reopen, recalculate and change-orders take no body at all', async () => {
    const { id } = await estimateWithLine();
    const post = (path: string) =>
      t.app.inject({ method: 'POST', url: `/v1/estimates/${id}/${path}`, headers: { 'x-api-key': w.key } });
    expect((await post('issue')).statusCode).toBe(200);
    expect((await post('recalculate')).statusCode).toBe(200);
    expect((await post('change-orders')).statusCode).toBe(201);
    expect((await post('mark-lost')).statusCode).toBe(200);
    expect((await post('reopen')).statusCode).toBe(200);
    expect((await post('mark-won')).statusCode).toBe(200);
  });
});
