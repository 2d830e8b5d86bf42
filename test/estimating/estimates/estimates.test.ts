// /v1/estimates: create (from a job, from a template), read (live, ?version=N), list filters and
// order, pricing inputs, stored numbers on read, archive and restore, the edit log, and the job's
// estimate fields. Lifecycle, roles and change orders: lifecycle.test.ts; lines: lines.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { advanceClock } from '#platform/time.ts';
import type { BodyOf } from '#test/helpers/api-types.ts';

let t: TestApp;
let w: Workspace;
let services: any[];
const svc = (prefix: string) => services.find((s) => s.name.startsWith(prefix));

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace();
  services = (await w.api.get('/v1/catalog/services?limit=200')).body.data;
});
afterAll(() => t.close());

async function newJob(name: string) {
  const res = await w.api.post('/v1/jobs', { name, address: '100 Main St, Springfield' });
  expect(res.status).toBe(201);
  return res.body.data;
}

async function newEstimate(jobId: number, body: Record<string, unknown> = {}) {
  const res = await w.api.post('/v1/estimates', { job_id: jobId, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function addLine(id: number, body: BodyOf<'/v1/estimates/{id}/line-items', 'post'>) {
  const res = await w.api.post(`/v1/estimates/${id}/line-items`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const sum = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) * 100) / 100;
const linesOf = (e: any) => e.areas.flatMap((a: any) => a.services);

describe('create and read', () => {
  it('creates a draft estimate for a job: one area, not priced, numbered', async () => {
    const job = await newJob('Create Plaza');
    const e = await newEstimate(job.id);
    expect(e).toMatchObject({
      name: 'Create Plaza',
      status: 'draft',
      job_id: job.id,
      parent_estimate_id: null,
      is_change_order: false,
      current_version: null,
      version: null,
      priced: false,
      totals: null,
      awarded_at: null,
      archived_at: null,
      pricing: null,
    });
    expect(e.areas).toEqual([
      { id: expect.any(Number), name: 'Main', position: 1, quantity_source: 'manual', takeoff_id: null, services: [] },
    ]);
    expect(e.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const second = await newEstimate(job.id, { name: 'Alternate scope' });
    expect(second.name).toBe('Alternate scope');
    expect(second.doc_number).toBe(e.doc_number! + 1);

    const read = await w.api.get(`/v1/estimates/${e.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toBeUndefined(); // unwrapped
    expect(read.body.id).toBe(e.id);
  });

  it('creates from a template: its areas and the catalog lines, quantities to be typed', async () => {
    const job = await newJob('Template Plaza');
    const templates = (await w.api.get('/v1/estimate-templates')).body.data;
    const template = (await w.api.get(`/v1/estimate-templates/${templates[0].id}`)).body.data;
    const e = await newEstimate(job.id, { template_id: template.id });
    expect(e.template_id).toBe(template.id);
    expect(e.areas.map((a: any) => a.name)).toEqual(template.areas.map((a: any) => a.name));
    const first = e.areas[0].services[0];
    const tplFirst = template.areas[0].services[0];
    expect(first).toMatchObject({
      assembly_id: tplFirst.service_id,
      quantity: tplFirst.quantity ?? 0,
      quantity_source: 'inherited',
    });
  });

  it('refuses a missing or unknown job or template', async () => {
    expect((await w.api.raw.post('/v1/estimates', {})).status).toBe(400);
    const missing = await w.api.post('/v1/estimates', { job_id: 999999 });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('Job not found');
    const job = await newJob('No Template');
    const tpl = await w.api.post('/v1/estimates', { job_id: job.id, template_id: 999999 });
    expect(tpl.status).toBe(404);
    expect(tpl.body).toMatchObject({ error: 'Template not found', field: 'template_id' });
    expect((await w.api.get(`/v1/estimates?job_id=${job.id}`)).body.data).toEqual([]); // nothing half-written
    const unknown = await w.api.raw.post('/v1/estimates', { job_id: job.id, colour: 'red' });
    expect(unknown.status).toBe(400);
    expect((await w.api.get('/v1/estimates/999999')).body).toEqual({ error: 'Estimate not found' });
  });
});

describe('list', () => {
  let jobId: number;
  let ids: number[];
  beforeAll(async () => {
    const job = await newJob('List Plaza');
    jobId = job.id;
    ids = [];
    for (let i = 0; i < 3; i++) ids.push((await newEstimate(jobId, { name: `List ${i}` })).id);
    // Touch the first so it is the most recently updated.
    await w.api.patch(`/v1/estimates/${ids[0]}`, { name: 'List 0 renamed' });
  });

  it('answers summary rows, most recently updated first', async () => {
    const res = await w.api.get(`/v1/estimates?job_id=${jobId}`);
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ total: 3, limit: 50, offset: 0 });
    expect(res.body.data.map((e: any) => e.id)).toEqual([ids[0], ids[2], ids[1]]);
    expect(res.body.data[0]).not.toHaveProperty('areas');
    expect(res.body.data[0]).not.toHaveProperty('pricing');
    expect(res.body.data[0]).toHaveProperty('totals');
  });

  it('with updated_after answers oldest first', async () => {
    // Rows of the running second are held back from updated_after lists until it ends (platform/sync.ts).
    advanceClock(1000);
    const all = (await w.api.get(`/v1/estimates?job_id=${jobId}`)).body.data;
    const oldest = all[all.length - 1];
    const res = await w.api.get(`/v1/estimates?job_id=${jobId}&updated_after=2000-01-01T00:00:00Z`);
    expect(res.body.data.map((e: any) => e.id)).toEqual([ids[1], ids[2], ids[0]]);
    expect(oldest.id).toBe(ids[1]);
    const later = await w.api.get(`/v1/estimates?job_id=${jobId}&updated_after=2999-01-01T00:00:00Z`);
    expect(later.body.data).toEqual([]);
  });

  it('filters by status and refuses bad filters with the documented errors', async () => {
    expect((await w.api.get(`/v1/estimates?job_id=${jobId}&status=draft`)).body.data).toHaveLength(3);
    expect((await w.api.get(`/v1/estimates?job_id=${jobId}&status=won`)).body.data).toHaveLength(0);
    const bad = await w.api.get('/v1/estimates?status=open');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('status must be one of draft, estimate, won, lost, change_order');
    const when = await w.api.get('/v1/estimates?updated_after=yesterday');
    expect(when.status).toBe(400);
    expect(when.body.error).toBe('updated_after must be an ISO 8601 timestamp');
    expect((await w.api.get('/v1/estimates?limit=101')).status).toBe(400);
    expect((await w.api.get('/v1/estimates?limit=100')).status).toBe(200);
  });

  it('archives with DELETE, hides archived rows unless include_archived, restores with PATCH archived false', async () => {
    const del = await w.api.delete(`/v1/estimates/${ids[1]}`);
    expect(del.status).toBe(200);
    expect(del.body.data.archived_at).toMatch(/Z$/);
    expect((await w.api.get(`/v1/estimates?job_id=${jobId}`)).body.data.map((e: any) => e.id)).not.toContain(ids[1]);
    expect(
      (await w.api.get(`/v1/estimates?job_id=${jobId}&include_archived=true`)).body.data.map((e: any) => e.id),
    ).toContain(ids[1]);
    const write = await w.api.patch(`/v1/estimates/${ids[1]}`, { name: 'x' });
    expect(write.status).toBe(409);
    expect(write.body.code).toBe('estimate_archived');
    const restored = await w.api.patch(`/v1/estimates/${ids[1]}`, { archived: false });
    expect(restored.status).toBe(200);
    expect(restored.body.data.archived_at).toBeNull();
    expect((await w.api.patch(`/v1/estimates/${ids[1]}`, { archived: false, name: 'both' })).status).toBe(400);
  });

  it('a second DELETE is 404 and changes nothing; PATCH archived true repeats; restored, it deletes again', async () => {
    const e = await newEstimate(jobId, { name: 'Deleted twice' });
    expect((await w.api.delete(`/v1/estimates/${e.id}`)).status).toBe(200);
    const revisions = async () => (await w.api.get(`/v1/estimates/${e.id}/revisions`)).body.pagination.total;
    const before = { read: await w.api.get(`/v1/estimates/${e.id}`), revisions: await revisions() };
    // Document 1, retry rules: a second delete is 404 (treat as done).
    const again = await w.api.delete(`/v1/estimates/${e.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ error: 'Estimate not found', code: 'already_archived' });
    expect((await w.api.get(`/v1/estimates/${e.id}`)).body).toEqual(before.read.body);
    expect(await revisions()).toBe(before.revisions);
    // PATCH is safe to repeat with the same fields: archived true on an archived estimate answers it.
    expect((await w.api.patch(`/v1/estimates/${e.id}`, { archived: true })).status).toBe(200);
    expect((await w.api.patch(`/v1/estimates/${e.id}`, { archived: false })).status).toBe(200);
    expect((await w.api.delete(`/v1/estimates/${e.id}`)).status).toBe(200);
  });
});

describe('pricing inputs', () => {
  let id: number;
  let lineId: number;
  beforeAll(async () => {
    const job = await newJob('Pricing Plaza');
    id = (await newEstimate(job.id)).id;
    lineId = (await addLine(id, { name: 'Catch basin rebuild', unit: 'EA', quantity: 2, unit_cost: 1000 }))
      .line_item_id;
  });

  it('prices with the workspace default (30% markup) while pricing is null', async () => {
    const e = (await w.api.get(`/v1/estimates/${id}`)).body;
    expect(e.pricing).toBeNull();
    expect(e.priced).toBe(true);
    expect(e.totals).toEqual({
      price: 2600,
      subtotal: 2600,
      tax: 0,
      cost: 2000,
      margin: 600,
      margin_pct: 0.2308,
      margin_pct_of_subtotal: 0.2308,
      optional_total: 0,
    });
  });

  it('PATCH sets the fields of pricing; margin of price, tax, minimum charge; pricing null goes back', async () => {
    let res = await w.api.patch(`/v1/estimates/${id}`, { markup_method: 'margin', markup_rate: 0.2 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.pricing).toEqual({
      markup_method: 'margin',
      markup_rate: 0.2,
      contingency_rate: null,
      tax_rate: null,
      minimum_charge: null,
      price_list_id: null,
    });
    expect(res.body.data.totals).toMatchObject({ price: 2500, cost: 2000, margin: 500, margin_pct: 0.2 });

    res = await w.api.patch(`/v1/estimates/${id}`, { tax_rate: 0.07 });
    expect(res.body.data.totals).toMatchObject({ subtotal: 2500, tax: 175, price: 2675 });
    expect(res.body.data.totals!.price).toBe(res.body.data.totals!.subtotal + res.body.data.totals!.tax);
    // Document 3: margin_pct is a fraction of price, the total including tax: 500 ÷ 2,675 = 0.18691…;
    // margin ÷ subtotal (the 20% the margin was set to) is margin_pct_of_subtotal. A line's price has no tax.
    expect(res.body.data.totals).toMatchObject({ margin: 500, margin_pct: 0.1869, margin_pct_of_subtotal: 0.2 });
    expect(linesOf(res.body.data)[0]).toMatchObject({ price: 2500, margin: 500, margin_pct: 0.2 });
    // The list row, the versions and the export show the same numbers (read from what was stored).
    const row = (await w.api.get(`/v1/estimates?include_archived=true&limit=100`)).body.data.find(
      (x: any) => x.id === id,
    );
    expect(row!.totals).toMatchObject({ margin_pct: 0.1869, margin_pct_of_subtotal: 0.2 });

    res = await w.api.patch(`/v1/estimates/${id}`, { minimum_charge: 5000, tax_rate: null });
    expect(res.body.data.totals).toMatchObject({ subtotal: 5000, price: 5000, cost: 2000 });
    // The uplift is spread onto the listed line's proposal price.
    expect(linesOf(res.body.data)[0]).toMatchObject({ price: 2500, allocated_price: 5000 });

    res = await w.api.patch(`/v1/estimates/${id}`, { pricing: null });
    expect(res.body.data.pricing).toBeNull();
    expect(res.body.data.totals!.price).toBe(2600);
  });

  it('job-level costs count in totals.cost but not in line costs', async () => {
    const res = await w.api.patch(`/v1/estimates/${id}`, { job_costs: { mobilization: 500 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const e = res.body.data;
    expect(e.job_costs).toMatchObject({ mobilization: 500 });
    expect(e.totals).toMatchObject({ cost: 2500, subtotal: 3250 });
    expect(sum(linesOf(e).map((l: any) => l.cost))).toBe(2000);
    expect(e.job_level_costs.find((c: any) => c.kind === 'mobilization')).toMatchObject({ cost: 500, price: 650 });
    expect(sum(linesOf(e).map((l: any) => l.allocated_price))).toBe(e.totals!.subtotal);
    await w.api.patch(`/v1/estimates/${id}`, { job_costs: null });
  });

  it('refuses bad pricing input with 400 and changes nothing', async () => {
    const before = (await w.api.get(`/v1/estimates/${id}`)).body;
    for (const body of [
      { markup_method: 'margin', markup_rate: 1 },
      { markup_rate: -1 },
      { markup_method: 'cost_plus' },
      { pricing: null, markup_rate: 0.5 },
      { tax_rate: 2 },
      { job_costs: { rounding: { increment: 0 } } },
    ]) {
      const res = await w.api.raw.patch(`/v1/estimates/${id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const list = await w.api.patch(`/v1/estimates/${id}`, { price_list_id: 999999 });
    expect(list.status).toBe(404);
    expect(list.body).toMatchObject({ error: 'Price list not found', field: 'price_list_id' });
    const after = (await w.api.get(`/v1/estimates/${id}`)).body;
    expect(after).toEqual(before);
  });

  it('reads return the stored numbers; recalculate re-prices with the current workspace default', async () => {
    const before = (await w.api.get(`/v1/estimates/${id}`)).body;
    const admin = await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { estimate_markup_rate: 0.5 } });
    expect(admin.status).toBe(200);
    expect((await w.api.get(`/v1/estimates/${id}`)).body.totals).toEqual(before.totals);
    const recalculated = await w.api.post(`/v1/estimates/${id}/recalculate`);
    expect(recalculated.status).toBe(200);
    expect(recalculated.body.data.totals).toMatchObject({ cost: 2000, price: 3000 });
    await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { estimate_markup_rate: 0.3 } });
    await w.api.post(`/v1/estimates/${id}/recalculate`);
  });

  it('a price list change re-prices catalog lines except typed prices', async () => {
    const mowing = svc('Lawn mowing');
    const job = await newJob('Price List Plaza');
    const e = await newEstimate(job.id);
    const added = await addLine(e.id, { service_id: mowing.id, quantity: 10 });
    const line = linesOf(added.data).find((l: any) => l.id === added.line_item_id);
    const list = await w.api.post('/v1/price-lists', {
      name: 'Premium mowing',
      services: [{ service_id: mowing.id, unit_price: line.unit_price + 10 }],
    });
    expect(list.status, JSON.stringify(list.body)).toBe(201);
    const res = await w.api.patch(`/v1/estimates/${e.id}`, { price_list_id: list.body.data.id });
    expect(res.status).toBe(200);
    const repriced = linesOf(res.body.data)[0];
    expect(repriced.unit_price).toBe(line.unit_price + 10);
    expect(repriced.price).toBe(Math.round((line.unit_price + 10) * 10 * 100) / 100);
    // A typed unit price stays when the list changes back.
    await w.api.patch(`/v1/estimates/${e.id}/line-items/${added.line_item_id}`, { unit_price: 99 });
    const back = await w.api.patch(`/v1/estimates/${e.id}`, { price_list_id: null });
    expect(linesOf(back.body.data)[0].unit_price).toBe(99);
  });
});

describe('the job and the edit log', () => {
  it('the job shows its estimate id, number and total without moving its updated_at', async () => {
    const job = await newJob('Job Fields Plaza');
    const e = await newEstimate(job.id);
    await addLine(e.id, { name: 'Speed bump', unit: 'EA', quantity: 3, unit_cost: 100, unit_price: 250 });
    const read = (await w.api.get(`/v1/jobs/${job.id}`)).body.data;
    expect(read).toMatchObject({ estimate_id: e.id, estimate_number: String(e.doc_number), estimate_total: 750 });
    expect(read.updated_at).toBe(job.updated_at);
    await w.api.delete(`/v1/estimates/${e.id}`);
    expect((await w.api.get(`/v1/jobs/${job.id}`)).body.data).toMatchObject({
      estimate_id: null,
      estimate_number: null,
      estimate_total: null,
    });
  });

  it('a job merge moves estimates to the kept job', async () => {
    const kept = await newJob('Merge Kept');
    const away = await newJob('Merge Away');
    const e = await newEstimate(away.id);
    const merged = await w.api.post(`/v1/jobs/${away.id}/merge`, { into_job_id: kept.id });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect((await w.api.get(`/v1/estimates/${e.id}`)).body.job_id).toBe(kept.id);
    expect((await w.api.get(`/v1/jobs/${kept.id}`)).body.data.estimate_id).toBe(e.id);
  });

  it('the edit log lists every change, newest first, with who and the totals', async () => {
    const job = await newJob('Revision Plaza');
    const e = await newEstimate(job.id);
    const { line_item_id: lineId } = await addLine(e.id, { name: 'Sign', unit: 'EA', quantity: 1, unit_cost: 50 });
    await w.api.patch(`/v1/estimates/${e.id}/line-items/${lineId}`, { quantity: 2 });
    await w.api.patch(`/v1/estimates/${e.id}`, { tax_rate: 0.05 });
    const res = await w.api.get(`/v1/estimates/${e.id}/revisions`);
    expect(res.status).toBe(200);
    expect(res.body.pagination.total).toBe(4);
    expect(res.body.data.map((r: any) => r.action)).toEqual([
      'pricing_changed',
      'line_changed',
      'line_added',
      'created',
    ]);
    expect(res.body.data[1]).toMatchObject({
      revision: 3,
      total_before: 65,
      total_after: 130,
      user: { id: w.ownerId, name: expect.any(String) },
      changes: { line_item_id: lineId, fields: { quantity: { from: '1', to: '2' } } },
    });
    expect(res.body.data[3]).toMatchObject({ revision: 1, total_before: null });
  });
});

describe('export datasets', () => {
  it('estimates and estimate_lines export their rows (hidden lines left out)', async () => {
    const job = await newJob('Export Plaza');
    const e = await newEstimate(job.id);
    const shown = await addLine(e.id, { name: 'Shown', unit: 'EA', quantity: 1, unit_cost: 10 });
    const hidden = await addLine(e.id, {
      name: 'Hidden',
      unit: 'EA',
      quantity: 1,
      unit_cost: 5,
      hide_on_proposal: true,
    });
    const rows = async (name: string) =>
      String((await t.app.inject({ url: `/v1/exports/${name}.jsonl`, headers: { 'x-api-key': w.key } })).body)
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
    const estimates = await rows('estimates');
    const row = estimates.find((r) => r.id === e.id);
    expect(row).toMatchObject({ id: e.id, job_id: job.id, status: 'draft', totals: { cost: 15 } });
    expect(row.areas).toBeUndefined();
    const lines = (await rows('estimate_lines')).filter((r) => r.estimate_id === e.id);
    expect(lines.map((l) => l.id)).toEqual([shown.line_item_id]);
    expect(lines[0]).toMatchObject({
      name: 'Shown',
      estimate_id: e.id,
      job_id: job.id,
      area_name: 'Main',
      cost: 10,
      price: 13,
    });
    expect(lines[0].estimate_updated_at).toMatch(/Z$/);
    expect(hidden.line_item_id).toBeGreaterThan(0);
  });
});

describe('totals on the wire', () => {
  it('a priced estimate with nothing to charge answers zeros and a null margin_pct, never a coerced value', async () => {
    const job = await newJob('Zero Plaza');
    const e = await newEstimate(job.id);
    const added = await addLine(e.id, { name: 'Courtesy check', unit: 'EA', quantity: 0, unit_cost: 0, unit_price: 0 });
    expect(added.data.priced).toBe(true);
    expect(added.data.totals).toEqual({
      price: 0,
      subtotal: 0,
      tax: 0,
      cost: 0,
      margin: 0,
      margin_pct: null,
      margin_pct_of_subtotal: null,
      optional_total: 0,
    });
    const listed = (await w.api.get(`/v1/estimates?job_id=${job.id}`)).body.data;
    expect(listed[0].totals).toEqual(added.data.totals);
    const bare = await newEstimate(job.id, { name: 'Nothing yet' });
    expect(bare.totals).toBeNull();
  });
});
