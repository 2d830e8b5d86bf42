// Estimate line items over HTTP (document 3, Estimate line item, Cost line): adding catalog and
// custom lines, reading a line with its cost lines, changing lines and cost lines, removing lines,
// and a change that would leave the estimate unpriceable (422, nothing saved). Numbers are checked
// against hand computations at the workspace default 30% markup with no tax and no job costs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import type { BodyOf } from '#test/helpers/api-types.ts';

let t: TestApp;
let w: Workspace;
let other: Workspace;
/** Catalog service ids of the starter catalog, by name. */
let svc: Record<string, number>;
let otherSvc: Record<string, number>;

const MILL = 'Mill and overlay, 2"';

/** Dollars to integer cents (inputs here have at most 4 decimals, so no half-cent ties). */
const cents = (dollars: number) => Math.round(dollars * 100);
/** A cost priced at the default 30% markup, to the cent: cost × 1.3 (exact in integers). */
const markedUp = (costCents: number) => Math.round((costCents * 13) / 10);

async function servicesOf(ws: Workspace): Promise<Record<string, number>> {
  const res = await ws.api.get('/v1/catalog/services?limit=200');
  return Object.fromEntries(res.body.data.map((s: { name: string; id: number }) => [s.name, s.id]));
}

/** A new job with a draft estimate; its id and the id of its "Main" area. */
let jobs = 0;
async function newEstimate(ws: Workspace = w): Promise<{ id: number; areaId: number }> {
  jobs++;
  const job = await ws.api.post('/v1/jobs', { name: `Maple Street Plaza ${jobs}`, address: `${jobs} Maple St` });
  expect(job.status).toBe(201);
  const est = await ws.api.post('/v1/estimates', { job_id: job.body.data.id });
  expect(est.status).toBe(201);
  return { id: est.body.data.id, areaId: est.body.data.areas[0].id };
}

async function addLine(
  estimateId: number,
  body: BodyOf<'/v1/estimates/{id}/line-items', 'post'>,
  ws: Workspace = w,
): Promise<number> {
  const res = await ws.api.post(`/v1/estimates/${estimateId}/line-items`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.line_item_id;
}

const getEstimate = async (id: number) => {
  const res = await w.api.get(`/v1/estimates/${id}`);
  expect(res.status).toBe(200);
  return res.body;
};
const getLine = async (estimateId: number, lineId: number) => {
  const res = await w.api.get(`/v1/estimates/${estimateId}/line-items/${lineId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
const patchLine = (estimateId: number, lineId: number, body: Record<string, unknown>) =>
  w.api.patch(`/v1/estimates/${estimateId}/line-items/${lineId}`, body);

/** Every line listed under the estimate's areas. */
const listed = (e: { areas: { services: any[] }[] }) => e.areas.flatMap((a) => a.services);
const lineIn = (e: { areas: { services: any[] }[] }, id: number) => listed(e).find((l) => l.id === id);
const sumCents = (values: number[]) => values.reduce((a, v) => a + cents(v), 0);

/** An estimate with three unit-priced catalog lines: striping $250, sealcoating $1,980, mowing $260. */
async function threeUnitLines() {
  const e = await newEstimate();
  const striping = await addLine(e.id, { service_id: svc['Line striping'], quantity: 1000 });
  const sealcoat = await addLine(e.id, { service_id: svc['Sealcoating, 2 coats'], quantity: 1000 });
  const mowing = await addLine(e.id, { service_id: svc['Lawn mowing'], quantity: 4 });
  return { ...e, striping, sealcoat, mowing };
}

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace();
  other = await t.workspace();
  svc = await servicesOf(w);
  otherSvc = await servicesOf(other);
});
afterAll(() => t.close());

describe('POST /v1/estimates/:id/line-items', () => {
  it("a detailed catalog line copies the service's cost lines, priced from the default price list", async () => {
    // A workspace of its own: its default price list is changed to cost HMA at $80.00 a ton (the item says $78.00).
    const ws = await t.workspace();
    const services = await servicesOf(ws);
    const list = (await ws.api.get('/v1/price-lists')).body.data.find(
      (p: { name: string }) => p.name === 'Standard 2026',
    );
    const hma = (await ws.api.get('/v1/catalog/items?limit=200')).body.data.find(
      (i: { name: string }) => i.name === 'HMA surface mix (9.5 mm)',
    );
    expect(hma!.unit_cost).toBe(78);
    const changed = await ws.api.patch(`/v1/price-lists/${list!.id}`, {
      items: [{ catalog_item_id: hma!.id, unit_cost: 80 }],
      services: [{ service_id: services['Lawn mowing'], unit_price: 70 }],
    });
    expect(changed.status).toBe(200);

    const e = await newEstimate(ws);
    const res = await ws.api.post(`/v1/estimates/${e.id}/line-items`, { service_id: services[MILL], quantity: 1000 });
    expect(res.status).toBe(201);
    const lineId = res.body.line_item_id;
    expect(Number.isInteger(lineId)).toBe(true);
    const inAnswer = lineIn(res.body.data, lineId);
    expect(inAnswer).toMatchObject({
      name: MILL,
      estimating_mode: 'detailed',
      quantity: 1000,
      unit: 'SY',
      assembly_id: services[MILL],
      area_id: e.areaId,
    });

    const catalog = (await ws.api.get(`/v1/catalog/services/${services[MILL]}`)).body.data;
    const line = (await ws.api.get(`/v1/estimates/${e.id}/line-items/${lineId}`)).body.data;
    expect(line.cost_lines.map((cl: any) => [cl.type, cl.name, cl.quantity_formula, cl.catalog_item_id])).toEqual(
      catalog.cost_lines.map((cl: any) => [cl.type, cl.name, cl.quantity_formula, cl.catalog_item_id]),
    );

    // By hand: HMA = 1,000 SY × 2 in × 0.0575 t = 115 t, + 5% waste = 120.75 t × $80.00 = $9,660.00; × 1.3 = $12,558.00.
    const hmaLine = line.cost_lines.find((cl: any) => cl.catalog_item_id === hma!.id);
    expect(hmaLine).toMatchObject({ unit_cost: 80, quantity: 120.75, cost: 9660, price: 12558 });
    // Tack = 1,000 × 0.05 = 50 gal × $4.25 = $212.50; × 1.3 = $276.25.
    expect(line.cost_lines.find((cl: any) => cl.name === 'Tack coat (SS-1h)')).toMatchObject({
      quantity: 50,
      cost: 212.5,
      price: 276.25,
    });
    // Every cost line: cost = quantity × unit cost to the cent, price = cost × 1.3; the line is their sum.
    for (const cl of line.cost_lines) {
      expect(cents(cl.cost!)).toBe(Math.round(cl.quantity! * cl.unit_cost * 100));
      expect(cents(cl.price!)).toBe(markedUp(cents(cl.cost!)));
    }
    expect(cents(line.cost!)).toBe(sumCents(line.cost_lines.map((cl: any) => cl.cost)));
    expect(cents(line.price!)).toBe(sumCents(line.cost_lines.map((cl: any) => cl.price)));
    // One line, no job-level costs, no tax: the totals are the line's.
    expect(res.body.data.totals).toMatchObject({
      subtotal: line.price,
      price: line.price,
      cost: line.cost,
      tax: 0,
      optional_total: 0,
    });
    expect(inAnswer).toMatchObject({ price: line.price, cost: line.cost, allocated_price: line.price });

    // A unit-costing service takes its unit price from the list too ($70, the catalog says $65).
    const mowing = await ws.api.post(`/v1/estimates/${e.id}/line-items`, {
      service_id: services['Lawn mowing'],
      quantity: 2,
    });
    expect(lineIn(mowing.body.data, mowing.body.line_item_id)).toMatchObject({ unit_price: 70, price: 140, cost: 76 });

    // A cost line added later from the same item is costed from the list as well.
    const more = await ws.api.patch(`/v1/estimates/${e.id}/line-items/${lineId}`, {
      cost_lines: [{ type: 'material', catalog_item_id: hma!.id, quantity_formula: '10' }],
    });
    expect(more.status, JSON.stringify(more.body)).toBe(200);
    const extra = (await ws.api.get(`/v1/estimates/${e.id}/line-items/${lineId}`)).body.data.cost_lines.at(-1);
    expect(extra).toMatchObject({ catalog_item_id: hma!.id, unit_cost: 80, quantity: 10, cost: 800 });
  });

  it('a unit-costing catalog line takes the unit cost and price, has no cost lines', async () => {
    const e = await newEstimate();
    const id = await addLine(e.id, { service_id: svc['Lawn mowing'], quantity: 4 });
    const line = await getLine(e.id, id);
    // 4 visits × $38 = $152.00 cost; 4 × $65 (the price list's) = $260.00.
    expect(line).toMatchObject({
      estimating_mode: 'unit_costing',
      unit: 'VISIT',
      unit_cost: 38,
      unit_price: 65,
      cost: 152,
      price: 260,
      cost_lines: [],
    });
    expect((await getEstimate(e.id)).totals).toMatchObject({ subtotal: 260, cost: 152, price: 260 });
  });

  it('estimating_mode comes from the catalog (a different one is 400)', async () => {
    const e = await newEstimate();
    const res = await w.api.post(`/v1/estimates/${e.id}/line-items`, {
      service_id: svc['Lawn mowing'],
      quantity: 1,
      estimating_mode: 'detailed',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_request', field: 'estimating_mode' });
  });

  it('a custom line needs name and unit (400 naming the field); with both it is priced', async () => {
    const e = await newEstimate();
    const noName = await w.api.post(`/v1/estimates/${e.id}/line-items`, { quantity: 3, unit: 'EA', unit_cost: 10 });
    expect(noName.status).toBe(400);
    expect(noName.body).toMatchObject({ code: 'invalid_request', field: 'name' });
    const noUnit = await w.api.post(`/v1/estimates/${e.id}/line-items`, {
      quantity: 3,
      name: 'Bollard paint',
      unit_cost: 10,
    });
    expect(noUnit.status).toBe(400);
    expect(noUnit.body).toMatchObject({ code: 'invalid_request', field: 'unit' });
    const noQuantity = await w.api.raw.post(`/v1/estimates/${e.id}/line-items`, { name: 'Bollard paint', unit: 'EA' });
    expect(noQuantity.status).toBe(400);
    expect((await getEstimate(e.id)).priced).toBe(false);

    const id = await addLine(e.id, { name: 'Bollard paint', unit: 'EA', quantity: 3, unit_cost: 10, unit_price: 25 });
    expect(await getLine(e.id, id)).toMatchObject({
      name: 'Bollard paint',
      estimating_mode: 'unit_costing',
      assembly_id: null,
      unit_cost: 10,
      unit_price: 25,
      cost: 30,
      price: 75,
    });
    // Without a unit price the cost is marked up: 2 × $12.34 = $24.68 → $32.08.
    const marked = await addLine(e.id, { name: 'Sign post', unit: 'EA', quantity: 2, unit_cost: 12.34 });
    expect(await getLine(e.id, marked)).toMatchObject({ cost: 24.68, price: 32.08 });
    // A custom detailed line with its own cost line.
    const detailed = await addLine(e.id, {
      name: 'Catch basin rebuild',
      unit: 'EA',
      quantity: 2,
      estimating_mode: 'detailed',
      cost_lines: [
        { type: 'misc', name: 'Brick and mortar', unit: 'EA', unit_cost: 150, quantity_formula: 'quantity * 2' },
      ],
    });
    const d = await getLine(e.id, detailed);
    expect(d.cost_lines).toHaveLength(1);
    expect(d).toMatchObject({ cost: 600, price: 780 });
  });

  it('service_id and assembly_id both name the catalog service; conflicting values are 400', async () => {
    const e = await newEstimate();
    const viaAssembly = await addLine(e.id, { assembly_id: svc['Line striping'], quantity: 10 });
    expect(await getLine(e.id, viaAssembly)).toMatchObject({
      name: 'Line striping',
      assembly_id: svc['Line striping'],
    });
    const both = await addLine(e.id, {
      service_id: svc['Line striping'],
      assembly_id: svc['Line striping'],
      quantity: 10,
    });
    expect((await getLine(e.id, both)).assembly_id).toBe(svc['Line striping']);
    const before = await getEstimate(e.id);
    const conflicting = await w.api.post(`/v1/estimates/${e.id}/line-items`, {
      service_id: svc['Line striping'],
      assembly_id: svc['Lawn mowing'],
      quantity: 10,
    });
    expect(conflicting.status).toBe(400);
    expect(conflicting.body).toMatchObject({ code: 'invalid_request', field: 'assembly_id' });
    expect(listed(await getEstimate(e.id))).toHaveLength(listed(before).length);
  });

  it('an archived, missing or other-workspace service is 404 and adds nothing', async () => {
    const e = await newEstimate();
    const created = await w.api.post('/v1/catalog/services', {
      name: 'Retired service',
      unit: 'EA',
      estimating_mode: 'unit_costing',
      unit_cost: 1,
      unit_price: 2,
    });
    expect(created.status).toBe(201);
    expect((await w.api.delete(`/v1/catalog/services/${created.body.data.id}`)).status).toBe(200);
    for (const serviceId of [created.body.data.id, otherSvc[MILL], 9_999_999]) {
      const res = await w.api.post(`/v1/estimates/${e.id}/line-items`, { service_id: serviceId, quantity: 1 });
      expect(res.status, String(serviceId)).toBe(404);
      expect(res.body).toMatchObject({ error: 'Catalog service not found', field: 'service_id' });
    }
    const after = await getEstimate(e.id);
    expect(listed(after)).toEqual([]);
    expect(after.priced).toBe(false);
  });

  it("another estimate's area_id is 404; area_name finds an area (any case) or creates it", async () => {
    const e = await newEstimate();
    const elsewhere = await newEstimate();
    const foreign = await w.api.post(`/v1/estimates/${e.id}/line-items`, {
      service_id: svc['Line striping'],
      quantity: 1,
      area_id: elsewhere.areaId,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ error: 'Area not found', field: 'area_id' });

    const first = await w.api.post(`/v1/estimates/${e.id}/line-items`, {
      service_id: svc['Line striping'],
      quantity: 1,
      area_name: 'Back lot',
    });
    expect(first.status).toBe(201);
    expect(first.body.data.areas.map((a: { name: string }) => a.name)).toEqual(['Main', 'Back lot']);
    const back = first.body.data.areas[1];
    expect(back.services.map((l: { id: number }) => l.id)).toEqual([first.body.line_item_id]);
    const second = await w.api.post(`/v1/estimates/${e.id}/line-items`, {
      service_id: svc['Lawn mowing'],
      quantity: 1,
      area_name: 'back LOT',
    });
    expect(second.body.data.areas).toHaveLength(2);
    expect((await getLine(e.id, second.body.line_item_id)).area_id).toBe(back.id);
    const main = await addLine(e.id, { service_id: svc['Lawn mowing'], quantity: 1, area_id: e.areaId });
    expect((await getLine(e.id, main)).area_id).toBe(e.areaId);
  });

  it('the estimate totals are the sum of the line prices (no job-level costs)', async () => {
    const e = await newEstimate();
    await addLine(e.id, { service_id: svc[MILL], quantity: 1234 });
    await addLine(e.id, { service_id: svc['Crack sealing'], quantity: 800 });
    await addLine(e.id, { service_id: svc['Parking stall striping'], quantity: 37 });
    const est = await getEstimate(e.id);
    const lines = listed(est);
    expect(lines).toHaveLength(3);
    expect(cents(est.totals!.subtotal)).toBe(sumCents(lines.map((l) => l.price)));
    expect(cents(est.totals!.cost)).toBe(sumCents(lines.map((l) => l.cost)));
    expect(est.totals!.price).toBe(est.totals!.subtotal);
    expect(cents(est.totals!.margin)).toBe(cents(est.totals!.subtotal) - cents(est.totals!.cost));
    expect(sumCents(lines.map((l) => l.allocated_price))).toBe(cents(est.totals!.subtotal));
  });
});

describe('who may write lines', () => {
  it("another workspace's estimate is 404; a viewer is 403; sales add unit-priced lines but not detailed ones", async () => {
    const e = await newEstimate();
    const id = await addLine(e.id, { service_id: svc['Line striping'], quantity: 10 });
    const foreign = await other.api.post(`/v1/estimates/${e.id}/line-items`, {
      service_id: otherSvc['Line striping'],
      quantity: 1,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('Estimate not found');

    const viewer = await t.user(w.firmId, { role: 'viewer', estimating_role: 'none' }, ['read_jobs']);
    expect((await viewer.api.get(`/v1/estimates/${e.id}/line-items/${id}`)).status).toBe(200);
    for (const res of [
      await viewer.api.post(`/v1/estimates/${e.id}/line-items`, { service_id: svc['Line striping'], quantity: 1 }),
      await viewer.api.patch(`/v1/estimates/${e.id}/line-items/${id}`, { quantity: 1 }),
      await viewer.api.delete(`/v1/estimates/${e.id}/line-items/${id}`),
    ])
      expect(res.status).toBe(403);

    const sales = await t.user(w.firmId, { role: 'member', estimating_role: 'sales' });
    const unit = await sales.api.post(`/v1/estimates/${e.id}/line-items`, {
      service_id: svc['Lawn mowing'],
      quantity: 1,
    });
    expect(unit.status).toBe(201);
    expect(
      (await sales.api.patch(`/v1/estimates/${e.id}/line-items/${unit.body.line_item_id}`, { quantity: 3 })).status,
    ).toBe(200);
    const detailed = await sales.api.post(`/v1/estimates/${e.id}/line-items`, { service_id: svc[MILL], quantity: 100 });
    expect(detailed.status).toBe(403);
    expect(detailed.body.code).toBe('estimating_role_required');
    expect(listed(await getEstimate(e.id)).map((l) => l.quantity)).toEqual([10, 3]);
  });
});

describe('GET /v1/estimates/:id/line-items/:line_item_id', () => {
  it('answers the line with its cost lines and how each number was reached', async () => {
    const e = await newEstimate();
    const id = await addLine(e.id, { service_id: svc['Crack sealing'], quantity: 4000 });
    const line = await getLine(e.id, id);
    expect(line.id).toBe(id);
    expect(line.explain).toMatch(/3 cost lines/);
    expect(line.cost_lines).toHaveLength(3);
    for (const cl of line.cost_lines) {
      expect(cl.line_item_id).toBe(id);
      expect(typeof cl.explain).toBe('string');
      expect(cl.explain!.length).toBeGreaterThan(0);
    }
    // Crew: ceil(4000 / 3000) = 2 days × $780 = $1,560.00.
    expect(line.cost_lines[0]).toMatchObject({ type: 'crew', quantity: 2, cost: 1560, price: 2028 });
    expect(line.cost_lines[0].explain).toContain('ceil(quantity / 3000) = 2');
  });

  // Writes store numbers only; the read builds the texts from the line alone (calculation.ts, explainLine).
  it("a bundle master's explain sums its sub-lines in the bid; a sub-line's is its own", async () => {
    const e = await newEstimate();
    const master = await addLine(e.id, {
      name: 'Lot refresh package',
      unit: 'LS',
      quantity: 1,
      is_bundle_master: true,
    });
    const a = await addLine(e.id, {
      service_id: svc['Line striping'],
      quantity: 1000,
      bundle_parent_service_id: master,
    });
    const b = await addLine(e.id, {
      service_id: svc['Sealcoating, 2 coats'],
      quantity: 1000,
      bundle_parent_service_id: master,
    });
    const out = await addLine(e.id, { service_id: svc['Lawn mowing'], quantity: 2, bundle_parent_service_id: master });
    expect((await patchLine(e.id, out, { excluded: true })).status).toBe(200);
    const m = await getLine(e.id, master);
    expect(m).toMatchObject({ price: 2230, cost: 1170 });
    expect(m.explain).toBe('bundle of 2 sub-lines: $1,170.00 cost, $2,230.00 price');
    const sub = await getLine(e.id, a);
    expect(sub.explain).toContain('= $120.00 cost');
    expect((await getLine(e.id, b)).cost_lines.every((cl) => !!cl.explain)).toBe(true);
    // Outside the bid: no numbers, so nothing to explain.
    expect(await getLine(e.id, out)).toMatchObject({ price: null, explain: null });
  });

  it('the texts describe the stored numbers: a new workspace default shows only once the estimate is re-priced', async () => {
    const e = await newEstimate();
    const id = await addLine(e.id, { service_id: svc['Crack sealing'], quantity: 4000 });
    const before = await getLine(e.id, id);
    expect(before.cost_lines[0].explain).toContain('30% markup on cost = $2,028.00 price');
    try {
      expect(
        (await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { estimate_markup_rate: 0.5 } })).status,
      ).toBe(200);
      expect(await getLine(e.id, id)).toEqual(before);
      expect((await w.api.post(`/v1/estimates/${e.id}/recalculate`)).status).toBe(200);
      const after = await getLine(e.id, id);
      expect(after.cost_lines[0]).toMatchObject({ price: 2340 });
      expect(after.cost_lines[0].explain).toContain('50% markup on cost = $2,340.00 price');
    } finally {
      await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { estimate_markup_rate: 0.3 } });
    }
  });

  it('a calculation stored with its texts (before they were built on the read) is read as stored', async () => {
    const e = await newEstimate();
    const id = await addLine(e.id, { service_id: svc['Crack sealing'], quantity: 4000 });
    const row = await t.database.db
      .selectFrom('estimates')
      .select('calculation')
      .where('id', '=', e.id)
      .executeTakeFirstOrThrow();
    const calc = JSON.parse(row.calculation!);
    expect(calc.lines[String(id)].explain).toBeUndefined();
    calc.lines[String(id)].explain = 'as stored';
    for (const n of Object.values(calc.cost_lines) as { explain?: string }[]) n.explain = 'cost line as stored';
    delete calc.markup;
    await t.database.db
      .updateTable('estimates')
      .set({ calculation: JSON.stringify(calc) })
      .where('id', '=', e.id)
      .execute();
    const line = await getLine(e.id, id);
    expect(line.explain).toBe('as stored');
    expect(line.cost_lines.map((cl) => cl.explain)).toEqual(Array(3).fill('cost line as stored'));
  });

  it("a line of another estimate, a missing line, and another workspace's estimate are 404", async () => {
    const e = await newEstimate();
    const elsewhere = await newEstimate();
    const id = await addLine(elsewhere.id, { service_id: svc['Line striping'], quantity: 5 });
    const wrongEstimate = await w.api.get(`/v1/estimates/${e.id}/line-items/${id}`);
    expect(wrongEstimate.status).toBe(404);
    expect(wrongEstimate.body.error).toBe('Line item not found');
    expect((await w.api.get(`/v1/estimates/${e.id}/line-items/9999999`)).status).toBe(404);
    const otherWorkspace = await other.api.get(`/v1/estimates/${elsewhere.id}/line-items/${id}`);
    expect(otherWorkspace.status).toBe(404);
    expect(otherWorkspace.body.error).toBe('Estimate not found');
  });
});

describe('PATCH /v1/estimates/:id/line-items/:line_item_id', () => {
  it('a new quantity is manual and re-prices the line and the totals', async () => {
    const e = await newEstimate();
    const id = await addLine(e.id, { service_id: svc[MILL], quantity: 1000 });
    const res = await patchLine(e.id, id, { quantity: 2000 });
    expect(res.status).toBe(200);
    const line = await getLine(e.id, id);
    expect(line).toMatchObject({ quantity: 2000, quantity_source: 'manual' });
    // Tack: 2,000 × 0.05 = 100 gal × $4.25 = $425.00 → $552.50. Crew: ceil(2000 / 1800) = 2 days × $1,850 = $3,700.00.
    expect(line.cost_lines.find((cl: any) => cl.name === 'Tack coat (SS-1h)')).toMatchObject({
      quantity: 100,
      cost: 425,
      price: 552.5,
    });
    expect(line.cost_lines.find((cl: any) => cl.type === 'crew')).toMatchObject({
      quantity: 2,
      cost: 3700,
      price: 4810,
    });
    expect(cents(line.price!)).toBe(sumCents(line.cost_lines.map((cl: any) => cl.price)));
    expect(res.body.data.totals).toMatchObject({ subtotal: line.price, cost: line.cost });
  });

  it('unit_cost or unit_price on a detailed line is 400; on a unit-costing line they re-price it', async () => {
    const e = await newEstimate();
    const detailed = await addLine(e.id, { service_id: svc[MILL], quantity: 1000 });
    for (const field of ['unit_cost', 'unit_price']) {
      const res = await patchLine(e.id, detailed, { [field]: 5 });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_request', field });
    }
    const unit = await addLine(e.id, { service_id: svc['Line striping'], quantity: 1000 });
    expect((await patchLine(e.id, unit, { unit_cost: 0.15, unit_price: 0.3 })).status).toBe(200);
    expect(await getLine(e.id, unit)).toMatchObject({ unit_cost: 0.15, unit_price: 0.3, cost: 150, price: 300 });
  });

  it('pricing_method and pricing_rate go together (400 naming the missing one); a line margin re-prices it', async () => {
    const e = await newEstimate();
    const id = await addLine(e.id, { name: 'Cleanup', unit: 'LS', quantity: 1, unit_cost: 100 });
    const noRate = await patchLine(e.id, id, { pricing_method: 'margin' });
    expect(noRate.status).toBe(400);
    expect(noRate.body).toMatchObject({ code: 'invalid_request', field: 'pricing_rate' });
    const noMethod = await patchLine(e.id, id, { pricing_rate: 0.2 });
    expect(noMethod.status).toBe(400);
    expect(noMethod.body).toMatchObject({ code: 'invalid_request', field: 'pricing_method' });
    expect((await getLine(e.id, id)).price).toBe(130);
    // 20% margin of price: $100 ÷ 0.8 = $125.00.
    expect((await patchLine(e.id, id, { pricing_method: 'margin', pricing_rate: 0.2 })).status).toBe(200);
    expect(await getLine(e.id, id)).toMatchObject({ pricing_method: 'margin', pricing_rate: 0.2, price: 125 });
  });

  it("price_override pins the line's allocated price; the listed lines still add up to the subtotal", async () => {
    const e = await threeUnitLines();
    const res = await patchLine(e.id, e.striping, { price_override: 300 });
    expect(res.status).toBe(200);
    const est = res.body.data;
    const striping = lineIn(est, e.striping);
    // The engine's own price stays: 1,000 LF × $0.25.
    expect(striping).toMatchObject({ price: 250, price_override: 300, allocated_price: 300 });
    expect(est.totals!.subtotal).toBe(250 + 1980 + 260);
    expect(sumCents(listed(est).map((l) => l.allocated_price))).toBe(cents(est.totals!.subtotal));
    // The $50 given away by the pin comes off the other two.
    expect(cents(lineIn(est, e.sealcoat).allocated_price) + cents(lineIn(est, e.mowing).allocated_price)).toBe(
      cents(2190),
    );
  });

  it("is_optional moves the line's price to optional_total and out of the price", async () => {
    const e = await threeUnitLines();
    const res = await patchLine(e.id, e.mowing, { is_optional: true });
    expect(res.status).toBe(200);
    expect(res.body.data.totals).toMatchObject({ subtotal: 2230, price: 2230, optional_total: 260, cost: 120 + 1050 });
    expect(lineIn(res.body.data, e.mowing)).toMatchObject({ is_optional: true, price: 260, allocated_price: 260 });
  });

  it('hide_on_proposal keeps the line priced and counted, with allocated_price null', async () => {
    const e = await threeUnitLines();
    const res = await patchLine(e.id, e.mowing, { hide_on_proposal: true });
    expect(res.status).toBe(200);
    const est = res.body.data;
    expect(est.totals!.subtotal).toBe(2490);
    expect(lineIn(est, e.mowing)).toMatchObject({ hide_on_proposal: true, price: 260, allocated_price: null });
    const shown = listed(est).filter((l) => l.id !== e.mowing);
    expect(sumCents(shown.map((l) => l.allocated_price))).toBe(cents(2490));
  });

  it('excluded takes the line out of the areas and the totals; GET line-items still reads it', async () => {
    const e = await threeUnitLines();
    const res = await patchLine(e.id, e.sealcoat, { excluded: true });
    expect(res.status).toBe(200);
    expect(listed(res.body.data).map((l) => l.id)).not.toContain(e.sealcoat);
    expect(res.body.data.totals).toMatchObject({ subtotal: 510, cost: 120 + 152 });
    const line = await getLine(e.id, e.sealcoat);
    expect(line).toMatchObject({ excluded: true, quantity: 1000, price: null, allocated_price: null });
    const back = await patchLine(e.id, e.sealcoat, { excluded: false });
    expect(back.body.data.totals!.subtotal).toBe(2490);
  });

  it('a bundle master is priced as the sum of its sub-lines and counted once', async () => {
    const e = await newEstimate();
    const master = await addLine(e.id, {
      name: 'Lot refresh package',
      unit: 'LS',
      quantity: 1,
      unit_cost: 999,
      is_bundle_master: true,
    });
    const a = await addLine(e.id, {
      service_id: svc['Line striping'],
      quantity: 1000,
      bundle_parent_service_id: master,
    });
    const b = await addLine(e.id, { service_id: svc['Sealcoating, 2 coats'], quantity: 1000 });
    // b joins the bundle by PATCH.
    const res = await patchLine(e.id, b, { bundle_parent_service_id: master });
    expect(res.status).toBe(200);
    const est = res.body.data;
    const m = lineIn(est, master);
    expect(m.bundle_child_service_ids.slice().sort()).toEqual([a, b].sort());
    // $250.00 + $1,980.00; the master's own $999 cost is ignored.
    expect(m).toMatchObject({ is_bundle_master: true, price: 2230, cost: 120 + 1050 });
    expect(est.totals).toMatchObject({ subtotal: 2230, cost: 1170 });
    expect(lineIn(est, a).bundle_parent_service_id).toBe(master);
    // The master's allocated price is split over its sub-lines.
    expect(cents(lineIn(est, a).allocated_price) + cents(lineIn(est, b).allocated_price)).toBe(
      cents(m.allocated_price),
    );
  });

  it('bundle_parent_service_id must name a bundle master line of this estimate (400)', async () => {
    const e = await newEstimate();
    const plain = await addLine(e.id, { service_id: svc['Line striping'], quantity: 10 });
    const sub = await addLine(e.id, { service_id: svc['Lawn mowing'], quantity: 1 });
    const elsewhere = await newEstimate();
    const foreignMaster = await addLine(elsewhere.id, {
      name: 'Package',
      unit: 'LS',
      quantity: 1,
      is_bundle_master: true,
    });
    for (const parent of [plain, foreignMaster, sub]) {
      const res = await patchLine(e.id, sub, { bundle_parent_service_id: parent });
      expect(res.status, String(parent)).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_request', field: 'bundle_parent_service_id' });
    }
    const post = await w.api.post(`/v1/estimates/${e.id}/line-items`, {
      service_id: svc['Lawn mowing'],
      quantity: 1,
      bundle_parent_service_id: plain,
    });
    expect(post.status).toBe(400);
    expect(post.body.field).toBe('bundle_parent_service_id');
    expect((await getLine(e.id, sub)).bundle_parent_service_id).toBeNull();
  });

  it('area_id moves the line to another area of the estimate; an unknown area is 404', async () => {
    const e = await newEstimate();
    const id = await addLine(e.id, { service_id: svc['Line striping'], quantity: 10 });
    await addLine(e.id, { service_id: svc['Lawn mowing'], quantity: 1, area_name: 'Back lot' });
    const backId = (await getEstimate(e.id)).areas.find((a: { name: string }) => a.name === 'Back lot')!.id;
    const res = await patchLine(e.id, id, { area_id: backId });
    expect(res.status).toBe(200);
    const areas = res.body.data.areas;
    expect(areas.find((a: { id: number }) => a.id === e.areaId)!.services).toEqual([]);
    expect(areas.find((a: { id: number }) => a.id === backId)!.services.map((l: { id: number }) => l.id)).toContain(id);
    expect((await getLine(e.id, id)).area_id).toBe(backId);
    const elsewhere = await newEstimate();
    const bad = await patchLine(e.id, id, { area_id: elsewhere.areaId });
    expect(bad.status).toBe(404);
    expect(bad.body).toMatchObject({ error: 'Area not found', field: 'area_id' });
  });

  it("another estimate's line and another workspace's estimate are 404", async () => {
    const e = await newEstimate();
    const elsewhere = await newEstimate();
    const id = await addLine(elsewhere.id, { service_id: svc['Line striping'], quantity: 10 });
    const res = await patchLine(e.id, id, { quantity: 20 });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Line item not found');
    const foreign = await other.api.patch(`/v1/estimates/${elsewhere.id}/line-items/${id}`, { quantity: 20 });
    expect(foreign.status).toBe(404);
    expect((await getLine(elsewhere.id, id)).quantity).toBe(10);
  });
});

describe('PATCH … cost_lines', () => {
  let e: { id: number; areaId: number };
  let lineId: number;
  const byName = (line: any, name: string) => line.cost_lines.find((cl: any) => cl.name === name);

  beforeAll(async () => {
    e = await newEstimate();
    lineId = await addLine(e.id, { service_id: svc['Crack sealing'], quantity: 4000 });
  });

  it('{id, manual_quantity} replaces the formula (waste still applies)', async () => {
    const sealant = byName(await getLine(e.id, lineId), 'Hot-pour crack sealant');
    const res = await patchLine(e.id, lineId, { cost_lines: [{ id: sealant.id, manual_quantity: 2000 }] });
    expect(res.status).toBe(200);
    // 2,000 lb + 10% waste = 2,200 lb × $1.10 = $2,420.00 → $3,146.00.
    const line = await getLine(e.id, lineId);
    expect(byName(line, 'Hot-pour crack sealant')).toMatchObject({
      manual_quantity: 2000,
      quantity: 2200,
      cost: 2420,
      price: 3146,
    });
    expect(cents(line.cost!)).toBe(sumCents(line.cost_lines.map((cl: any) => cl.cost)));
  });

  it('a new misc cost line is added and priced from its formula', async () => {
    const res = await patchLine(e.id, lineId, {
      cost_lines: [
        {
          type: 'misc',
          name: 'Traffic control',
          unit: 'DAY',
          unit_cost: 325.5,
          quantity_formula: 'ceil(quantity / 3000)',
        },
      ],
    });
    expect(res.status).toBe(200);
    // ceil(4000 / 3000) = 2 days × $325.50 = $651.00 → $846.30.
    const added = byName(await getLine(e.id, lineId), 'Traffic control');
    expect(added).toMatchObject({
      type: 'misc',
      unit: 'DAY',
      quantity: 2,
      cost: 651,
      price: 846.3,
      quantity_formula: 'ceil(quantity / 3000)',
    });
  });

  it('{id, deleted: true} removes a cost line and its cost', async () => {
    const before = await getLine(e.id, lineId);
    const melter = byName(before, 'Crack-seal melter');
    const res = await patchLine(e.id, lineId, { cost_lines: [{ id: melter.id, deleted: true }] });
    expect(res.status).toBe(200);
    const after = await getLine(e.id, lineId);
    expect(after.cost_lines.map((cl: any) => cl.id)).not.toContain(melter.id);
    expect(cents(after.cost!)).toBe(cents(before.cost!) - cents(melter.cost));
    expect(cents(after.price!)).toBe(cents(before.price!) - cents(melter.price));
  });

  it('is_alternate and suppressed cost lines are priced but not in the line total', async () => {
    const before = await getLine(e.id, lineId);
    const crew = before.cost_lines.find((cl: any) => cl.type === 'crew');
    const traffic = byName(before, 'Traffic control');
    const res = await patchLine(e.id, lineId, {
      cost_lines: [
        { id: crew!.id, is_alternate: true },
        { id: traffic.id, suppressed: true },
      ],
    });
    expect(res.status).toBe(200);
    const after = await getLine(e.id, lineId);
    expect(after.cost_lines.find((cl: any) => cl.id === crew!.id)).toMatchObject({
      is_alternate: true,
      cost: crew!.cost,
      price: crew!.price,
    });
    expect(after.cost_lines.find((cl: any) => cl.id === traffic.id)).toMatchObject({
      suppressed: true,
      cost: traffic.cost,
      price: traffic.price,
    });
    expect(cents(after.cost!)).toBe(cents(before.cost!) - cents(crew!.cost!) - cents(traffic.cost));
    expect(cents(after.price!)).toBe(cents(before.price!) - cents(crew!.price!) - cents(traffic.price));
    const counted = after.cost_lines.filter((cl: any) => !cl.is_alternate && !cl.suppressed);
    expect(cents(after.price!)).toBe(sumCents(counted.map((cl: any) => cl.price)));
    expect(res.body.data.totals!.subtotal).toBe(after.price);
    await patchLine(e.id, lineId, {
      cost_lines: [
        { id: crew!.id, is_alternate: false },
        { id: traffic.id, suppressed: false },
      ],
    });
    expect((await getLine(e.id, lineId)).price).toBe(before.price);
  });

  it('a bad formula is 400 invalid_formula and changes nothing', async () => {
    const before = await getLine(e.id, lineId);
    const crew = before.cost_lines.find((cl: any) => cl.type === 'crew');
    for (const body of [
      { cost_lines: [{ id: crew!.id, quantity_formula: 'sqrt(quantity)' }] },
      { cost_lines: [{ type: 'misc', name: 'Bad', unit: 'EA', unit_cost: 1, quantity_formula: 'quantity *' }] },
    ]) {
      const res = await patchLine(e.id, lineId, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_formula');
      expect(res.body.field).toMatch(/quantity_formula$/);
    }
    expect(await getLine(e.id, lineId)).toEqual(before);
  });

  it('an unknown cost line id, or one of another line, is 404', async () => {
    const otherLine = await addLine(e.id, { service_id: svc['Sod install'], quantity: 500 });
    const foreignCostLine = (await getLine(e.id, otherLine)).cost_lines[0].id;
    for (const id of [9_999_999, foreignCostLine]) {
      const res = await patchLine(e.id, lineId, { cost_lines: [{ id, manual_quantity: 1 }] });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: 'Cost line not found', field: 'cost_lines[0].id' });
    }
    expect((await getLine(e.id, otherLine)).cost_lines[0].manual_quantity).toBeNull();
  });

  it('cost_lines on a unit-costing line is 400', async () => {
    const unit = await addLine(e.id, { service_id: svc['Line striping'], quantity: 100 });
    const res = await patchLine(e.id, unit, {
      cost_lines: [{ type: 'misc', name: 'Paint', unit: 'GAL', unit_cost: 30, quantity_formula: '1' }],
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_request', field: 'cost_lines' });
    expect((await getLine(e.id, unit)).cost_lines).toEqual([]);
  });
});

describe('DELETE /v1/estimates/:id/line-items/:line_item_id', () => {
  it('removes the line and re-prices; a key without delete_records is 403', async () => {
    const e = await threeUnitLines();
    const noDelete = t.as(
      await t.key(
        w.firmId,
        w.ownerId,
        ALL_PERMISSIONS.filter((p) => p !== 'delete_records'),
      ),
    );
    const refused = await noDelete.delete(`/v1/estimates/${e.id}/line-items/${e.mowing}`);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'missing_permission', permission: 'delete_records' });
    expect((await getLine(e.id, e.mowing)).id).toBe(e.mowing);

    const res = await w.api.delete(`/v1/estimates/${e.id}/line-items/${e.mowing}`);
    expect(res.status).toBe(200);
    expect(
      listed(res.body.data)
        .map((l) => l.id)
        .sort(),
    ).toEqual([e.striping, e.sealcoat].sort());
    expect(res.body.data.totals!.subtotal).toBe(2230);
    expect((await w.api.get(`/v1/estimates/${e.id}/line-items/${e.mowing}`)).status).toBe(404);
    expect((await w.api.delete(`/v1/estimates/${e.id}/line-items/${e.mowing}`)).status).toBe(404);
    expect((await other.api.delete(`/v1/estimates/${e.id}/line-items/${e.striping}`)).status).toBe(404);
  });

  it('removing a bundle master removes its sub-lines', async () => {
    const e = await newEstimate();
    const master = await addLine(e.id, { name: 'Package', unit: 'LS', quantity: 1, is_bundle_master: true });
    const a = await addLine(e.id, {
      service_id: svc['Line striping'],
      quantity: 100,
      bundle_parent_service_id: master,
    });
    const b = await addLine(e.id, { service_id: svc['Lawn mowing'], quantity: 2, bundle_parent_service_id: master });
    const keep = await addLine(e.id, { service_id: svc['Parking stall striping'], quantity: 10 });
    const res = await w.api.delete(`/v1/estimates/${e.id}/line-items/${master}`);
    expect(res.status).toBe(200);
    expect(listed(res.body.data).map((l) => l.id)).toEqual([keep]);
    expect(res.body.data.totals!.subtotal).toBe(50);
    for (const id of [a, b]) expect((await w.api.get(`/v1/estimates/${e.id}/line-items/${id}`)).status).toBe(404);
  });
});

describe('a write that leaves the estimate unpriceable', () => {
  it('answers 422 pricing_error naming the line and cost line, and saves nothing', async () => {
    const e = await newEstimate();
    const id = await addLine(e.id, { service_id: svc[MILL], quantity: 1000 });
    const before = await getLine(e.id, id);
    const estimateBefore = await getEstimate(e.id);
    const revisionsBefore = (await w.api.get(`/v1/estimates/${e.id}/revisions`)).body.pagination.total;
    const tack = before.cost_lines.find((cl: any) => cl.name === 'Tack coat (SS-1h)');

    // depth_in is not an input of the line: the formula cannot be worked out.
    const res = await patchLine(e.id, id, {
      quantity: 1500,
      cost_lines: [{ id: tack!.id, quantity_formula: 'quantity * depth_in' }],
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'pricing_error', line_item_id: id, cost_line_id: tack!.id });
    expect(typeof res.body.reason).toBe('string');

    // A new cost line with such a formula is refused the same way.
    const added = await patchLine(e.id, id, {
      cost_lines: [{ type: 'misc', name: 'Extra', unit: 'EA', unit_cost: 1, quantity_formula: 'days * 2' }],
    });
    expect(added.status).toBe(422);
    // It was never saved, so it is named by its place in the body.
    expect(added.body).toMatchObject({
      code: 'pricing_error',
      line_item_id: id,
      cost_line_id: null,
      field: 'cost_lines[0].quantity_formula',
    });

    // Taking away an input a formula needs is refused too.
    const withInput = await addLine(e.id, {
      name: 'Patch',
      unit: 'SF',
      quantity: 100,
      estimating_mode: 'detailed',
      inputs: { depth_in: 4 },
      cost_lines: [
        {
          type: 'material',
          name: 'Base mix',
          unit: 'TON',
          unit_cost: 72,
          quantity_formula: 'quantity * depth_in * 0.005',
        },
      ],
    });
    const patchBefore = await getLine(e.id, withInput);
    expect(patchBefore.cost).toBe(144);
    const dropped = await patchLine(e.id, withInput, { inputs: null });
    expect(dropped.status).toBe(422);
    expect(dropped.body).toMatchObject({
      code: 'pricing_error',
      line_item_id: withInput,
      cost_line_id: patchBefore.cost_lines[0].id,
    });

    expect(await getLine(e.id, id)).toEqual(before);
    expect(await getLine(e.id, withInput)).toEqual(patchBefore);
    const after = await getEstimate(e.id);
    expect(after.totals!.subtotal).toBe(cents(estimateBefore.totals!.subtotal + patchBefore.price!) / 100);
    expect((await w.api.get(`/v1/estimates/${e.id}/revisions`)).body.pagination.total).toBe(revisionsBefore + 1);
  });
});

describe('areas, bundles and roles at the edges', () => {
  it('a line cannot go into an inactive area (409 area_inactive)', async () => {
    const e = await newEstimate();
    const res = await w.api.patch(`/v1/estimates/${e.id}`, { areas: [{ name: 'Back lot' }] });
    const back = res.body.data.areas.find((a: any) => a.name === 'Back lot');
    await w.api.patch(`/v1/estimates/${e.id}`, { areas: [{ id: back!.id, active: false }] });
    for (const body of [{ area_name: 'back lot' }, { area_id: back!.id }]) {
      const added = await w.api.post(`/v1/estimates/${e.id}/line-items`, {
        name: 'Bollard',
        unit: 'EA',
        quantity: 1,
        unit_cost: 100,
        ...body,
      });
      expect(added.status).toBe(409);
      expect(added.body.code).toBe('area_inactive');
    }
    const id = await addLine(e.id, { name: 'Bollard', unit: 'EA', quantity: 1, unit_cost: 100 });
    expect((await patchLine(e.id, id, { area_id: back!.id })).body.code).toBe('area_inactive');
  });

  it('a bundle master cannot sit inside another bundle (400)', async () => {
    const e = await newEstimate();
    const master = await addLine(e.id, {
      name: 'Bundle',
      unit: 'EA',
      quantity: 1,
      unit_cost: 0,
      is_bundle_master: true,
    });
    const inner = await w.api.post(`/v1/estimates/${e.id}/line-items`, {
      name: 'Inner',
      unit: 'EA',
      quantity: 1,
      unit_cost: 0,
      is_bundle_master: true,
      bundle_parent_service_id: master,
    });
    expect(inner.status).toBe(400);
    const child = await addLine(e.id, {
      name: 'Child',
      unit: 'EA',
      quantity: 1,
      unit_cost: 10,
      bundle_parent_service_id: master,
    });
    const promoted = await patchLine(e.id, child, { is_bundle_master: true });
    expect(promoted.status).toBe(400);
    expect(promoted.body.field).toBe('bundle_parent_service_id');
  });

  it('sales hear 404 for a line that is not on the estimate, not a role refusal', async () => {
    const sales = await t.user(w.firmId, {
      name: 'Sales Edge',
      email: 'sales-edge@lines.test',
      role: 'member',
      estimating_role: 'sales',
    });
    const e = await newEstimate();
    for (const res of [
      await sales.api.patch(`/v1/estimates/${e.id}/line-items/999999`, { quantity: 1 }),
      await sales.api.delete(`/v1/estimates/${e.id}/line-items/999999`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Line item not found');
    }
  });
});
