// /v1/catalog/services and their default cost lines: create, read, list filters and order,
// update, archive and restore, cost-line add/change/move/remove, and the validation errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';

let t: TestApp;
let w: Workspace;
let truck: any;
let hma: any;

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ starter_catalog: false });
  truck = (
    await w.api.post('/v1/catalog/items', {
      kind: 'truck',
      name: 'Tri-axle',
      unit: 'HR',
      unit_cost: 105,
      attributes: { capacity_tons: 16 },
    })
  ).body.data;
  hma = (await w.api.post('/v1/catalog/items', { kind: 'material', name: 'HMA surface', unit: 'TON', unit_cost: 78 }))
    .body.data;
});
afterAll(() => t.close());

const overlay = () => ({
  name: 'Overlay 1.5in',
  category: 'Paving',
  unit: 'SY',
  estimating_mode: 'detailed',
  cost_code: '32 12 16',
  proposal_text: 'Pave it.',
  what_to_expect: '<p>Stay off</p>',
  internal_scope: '<p>1.5in</p>',
  cost_lines: [
    { type: 'material', catalog_item_id: hma.id, quantity_formula: 'quantity * 1.5 * 0.0575', waste_factor: 0.05 },
    {
      type: 'trucking',
      catalog_item_id: truck.id,
      name: 'Haul asphalt',
      quantity_formula: 'ceil(quantity * 1.5 * 0.0575 / 16) * 1.5',
      haul_material: 'asphalt',
    },
    { type: 'overhead', name: 'Permit', unit: 'EA', unit_cost: 150.5, quantity: 1, billing: 'internal_only' },
  ],
});

describe('catalog services', () => {
  it('creates a detailed service with cost lines that default from their items', async () => {
    const res = await w.api.raw.post('/v1/catalog/services', overlay());
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const s = res.body.data;
    expect(s).toMatchObject({
      name: 'Overlay 1.5in',
      service_type: 'Overlay 1.5in',
      category: 'Paving',
      unit: 'SY',
      estimating_mode: 'detailed',
      unit_cost: null,
      unit_price: null,
      pricing_method: null,
      pricing_rate: null,
      cost_code: '32 12 16',
      archived_at: null,
    });
    expect(s.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(s.cost_lines).toHaveLength(3);
    expect(s.cost_lines[0]).toMatchObject({
      position: 1,
      type: 'material',
      catalog_item_id: hma.id,
      name: 'HMA surface',
      unit: 'TON',
      unit_cost: 78,
      quantity_formula: 'quantity * 1.5 * 0.0575',
      quantity: null,
      waste_factor: 0.05,
      billing: 'billed',
      service_id: s.id,
    });
    expect(s.cost_lines[1]).toMatchObject({
      position: 2,
      name: 'Haul asphalt',
      unit: 'HR',
      unit_cost: 105,
      haul_material: 'asphalt',
    });
    expect(s.cost_lines[2]).toMatchObject({
      position: 3,
      catalog_item_id: null,
      unit_cost: 150.5,
      quantity: 1,
      quantity_formula: null,
      billing: 'internal_only',
    });
    const read = await w.api.get(`/v1/catalog/services/${s.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(s);
  });

  it('creates a unit-costing service with money in dollars and exact rates', async () => {
    const res = await w.api.post('/v1/catalog/services', {
      name: 'Sealcoat',
      category: 'Sealcoating',
      unit: 'SY',
      estimating_mode: 'unit_costing',
      unit_cost: 1.05,
      unit_price: 1.98,
      pricing_method: 'margin',
      pricing_rate: 0.35,
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      unit_cost: 1.05,
      unit_price: 1.98,
      pricing_method: 'margin',
      pricing_rate: 0.35,
      cost_lines: [],
    });
    const row = await t.database.db
      .selectFrom('catalog_services')
      .selectAll()
      .where('id', '=', res.body.data.id)
      .executeTakeFirstOrThrow();
    expect(row.unit_cost_cents).toBe(105);
    expect(row.unit_price_cents).toBe(198);
    expect(row.pricing_rate).toBe('0.35');
  });

  it('lists A to Z with category, estimating_mode and q filters', async () => {
    await w.api.post('/v1/catalog/services', {
      name: 'aeration',
      category: 'Landscaping',
      unit: 'ACRE',
      estimating_mode: 'unit_costing',
      unit_price: 120,
    });
    const all = await w.api.get('/v1/catalog/services');
    expect(all.status).toBe(200);
    const names = all.body.data.map((s: any) => s.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(all.body.pagination).toEqual({ total: names.length, limit: 50, offset: 0 });
    expect(all.body.data[0]).not.toHaveProperty('cost_lines');
    const page = await w.api.get('/v1/catalog/services?limit=1&offset=1');
    expect(page.body.data.map((s: any) => s.name)).toEqual([names[1]]);
    expect(page.body.pagination).toEqual({ total: names.length, limit: 1, offset: 1 });
    expect((await w.api.get('/v1/catalog/services?limit=500')).status).toBe(400);
    const paving = await w.api.get('/v1/catalog/services?category=Paving');
    expect(paving.body.data.map((s: any) => s.name)).toEqual(['Overlay 1.5in']);
    const unit = await w.api.get('/v1/catalog/services?estimating_mode=unit_costing');
    expect(unit.body.data.map((s: any) => s.name)).toEqual(['aeration', 'Sealcoat']);
    const q = await w.api.get('/v1/catalog/services?q=SEAL');
    expect(q.body.data.map((s: any) => s.name)).toEqual(['Sealcoat']);
    const bad = await w.api.get('/v1/catalog/services?estimating_mode=guess');
    expect(bad.status).toBe(400);
  });

  it('refuses a taken name (any case) with 409 naming the holder', async () => {
    const res = await w.api.post('/v1/catalog/services', {
      name: 'SEALCOAT',
      unit: 'SY',
      estimating_mode: 'unit_costing',
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'Catalog service name already used', code: 'name_taken', field: 'name' });
    expect(typeof res.body.existing_id).toBe('number');
  });

  it('updates fields and answers the service with its lines; DELETE archives and PATCH restores', async () => {
    const s = (
      await w.api.post('/v1/catalog/services', {
        name: 'Mowing',
        unit: 'VISIT',
        estimating_mode: 'unit_costing',
        unit_price: 65,
      })
    ).body.data;
    const up = await w.api.patch(`/v1/catalog/services/${s.id}`, {
      unit_price: 70,
      category: 'Landscaping',
      proposal_text: 'Mow weekly',
    });
    expect(up.status).toBe(200);
    expect(up.body.data).toMatchObject({
      unit_price: 70,
      category: 'Landscaping',
      proposal_text: 'Mow weekly',
      cost_lines: [],
    });
    const del = await w.api.delete(`/v1/catalog/services/${s.id}`);
    expect(del.status).toBe(200);
    expect(del.body.data.archived_at).toMatch(/Z$/);
    const list = await w.api.get('/v1/catalog/services?q=mowing');
    expect(list.body.data).toHaveLength(0);
    const withArchived = await w.api.get('/v1/catalog/services?q=mowing&include_archived=true');
    expect(withArchived.body.data).toHaveLength(1);
    expect((await w.api.get(`/v1/catalog/services/${s.id}`)).body.data.archived_at).not.toBeNull();
    // The archived service keeps its name.
    const again = await w.api.post('/v1/catalog/services', {
      name: 'mowing',
      unit: 'VISIT',
      estimating_mode: 'unit_costing',
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/archived/);
    const restored = await w.api.patch(`/v1/catalog/services/${s.id}`, { archived: false });
    expect(restored.body.data.archived_at).toBeNull();
    expect((await w.api.get('/v1/catalog/services?q=mowing')).body.data).toHaveLength(1);
  });

  it('adds, changes, moves and removes cost lines keeping positions 1..n', async () => {
    const s = (await w.api.raw.post('/v1/catalog/services', { ...overlay(), name: 'Overlay lines' })).body.data;
    const add = await w.api.post(`/v1/catalog/services/${s.id}/cost-lines`, {
      type: 'crew',
      name: 'Paving crew',
      unit: 'DAY',
      unit_cost: 1850,
      quantity_formula: 'ceil(quantity / 2500)',
      position: 1,
    });
    expect(add.status).toBe(201);
    expect(add.body.data.cost_lines.map((l: any) => [l.position, l.name])).toEqual([
      [1, 'Paving crew'],
      [2, 'HMA surface'],
      [3, 'Haul asphalt'],
      [4, 'Permit'],
    ]);
    const crew = add.body.data.cost_lines[0];
    const moved = await w.api.patch(`/v1/catalog/services/${s.id}/cost-lines/${crew.id}`, {
      position: 3,
      unit_cost: 1900.25,
    });
    expect(moved.status).toBe(200);
    expect(moved.body.data.cost_lines.map((l: any) => l.name)).toEqual([
      'HMA surface',
      'Haul asphalt',
      'Paving crew',
      'Permit',
    ]);
    expect(moved.body.data.cost_lines[2]).toMatchObject({
      position: 3,
      unit_cost: 1900.25,
      quantity_formula: 'ceil(quantity / 2500)',
    });
    // A fixed quantity replaces the formula.
    const fixed = await w.api.patch(`/v1/catalog/services/${s.id}/cost-lines/${crew.id}`, { quantity: 2 });
    expect(fixed.body.data.cost_lines[2]).toMatchObject({ quantity: 2, quantity_formula: null });
    const del = await w.api.delete(`/v1/catalog/services/${s.id}/cost-lines/${crew.id}`);
    expect(del.status).toBe(200);
    expect(del.body.data.cost_lines.map((l: any) => [l.position, l.name])).toEqual([
      [1, 'HMA surface'],
      [2, 'Haul asphalt'],
      [3, 'Permit'],
    ]);
    expect((await w.api.delete(`/v1/catalog/services/${s.id}/cost-lines/${crew.id}`)).status).toBe(404);
    // A line of another service is not found under this one.
    const other = (await w.api.post('/v1/catalog/services', { name: 'Other', unit: 'EA', estimating_mode: 'detailed' }))
      .body.data;
    const res = await w.api.patch(`/v1/catalog/services/${other.id}/cost-lines/${del.body.data.cost_lines[0].id}`, {
      quantity: 1,
    });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Cost line not found');
  });

  it("changing a line's item takes the new item's name, unit and cost unless given", async () => {
    const s = (
      await w.api.post('/v1/catalog/services', {
        name: 'Swap',
        unit: 'SY',
        estimating_mode: 'detailed',
        cost_lines: [{ type: 'material', catalog_item_id: hma.id, quantity: 3 }],
      })
    ).body.data;
    const res = await w.api.patch(`/v1/catalog/services/${s.id}/cost-lines/${s.cost_lines[0].id}`, {
      type: 'trucking',
      catalog_item_id: truck.id,
    });
    expect(res.body.data.cost_lines[0]).toMatchObject({
      catalog_item_id: truck.id,
      name: 'Tri-axle',
      unit: 'HR',
      unit_cost: 105,
      quantity: 3,
    });
  });
});

describe('catalog service validation', () => {
  it('a malformed formula is 400 invalid_formula with the parser message, and nothing is written', async () => {
    const res = await w.api.post('/v1/catalog/services', {
      name: 'Broken',
      unit: 'SY',
      estimating_mode: 'detailed',
      cost_lines: [{ type: 'material', name: 'x', unit: 'TON', unit_cost: 1, quantity_formula: 'quantity * (2 +' }],
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_formula', field: 'quantity_formula', formula: 'quantity * (2 +' });
    expect(res.body.message).toMatch(/position/);
    expect((await w.api.get('/v1/catalog/services?q=Broken')).body.data).toHaveLength(0);
    const s = (await w.api.get('/v1/catalog/services?q=overlay%201.5')).body.data[0];
    const line = await w.api.post(`/v1/catalog/services/${s.id}/cost-lines`, {
      type: 'crew',
      name: 'c',
      unit: 'HR',
      unit_cost: 1,
      quantity_formula: 'eval(1)',
    });
    expect(line.status).toBe(400);
    expect(line.body.code).toBe('invalid_formula');
  });

  it('names unknown fields and missing or wrong fields', async () => {
    const unknown = await w.api.raw.post('/v1/catalog/services', {
      name: 'X',
      unit: 'SY',
      estimating_mode: 'detailed',
      colour: 'red',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'unknown_fields', fields: ['colour'] });
    const missing = await w.api.raw.post('/v1/catalog/services', { name: 'X', unit: 'SY' });
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe('estimating_mode');
    const mode = await w.api.raw.post('/v1/catalog/services', { name: 'X', unit: 'SY', estimating_mode: 'magic' });
    expect(mode.status).toBe(400);
    const noName = await w.api.post('/v1/catalog/services', {
      name: 'X',
      unit: 'SY',
      estimating_mode: 'detailed',
      cost_lines: [{ type: 'crew' }],
    });
    expect(noName.status).toBe(400);
    expect(noName.body).toMatchObject({ field: 'name' });
    expect(noName.body.error).toMatch(/without a catalog item/);
    const both = await w.api.post('/v1/catalog/services', {
      name: 'X',
      unit: 'SY',
      estimating_mode: 'detailed',
      cost_lines: [{ type: 'crew', catalog_item_id: hma.id, quantity: 1, quantity_formula: 'quantity' }],
    });
    expect(both.status).toBe(400);
    expect(both.body.error).toMatch(/not both/);
    const haul = await w.api.post('/v1/catalog/services', {
      name: 'X',
      unit: 'SY',
      estimating_mode: 'detailed',
      cost_lines: [{ type: 'material', catalog_item_id: hma.id, haul_material: 'asphalt' }],
    });
    expect(haul.body).toMatchObject({ field: 'haul_material' });
    const dump = await w.api.raw.post('/v1/catalog/services', {
      name: 'X',
      unit: 'SY',
      estimating_mode: 'detailed',
      cost_lines: [{ type: 'misc', catalog_item_id: hma.id, dump_material: 'gold' }],
    });
    expect(dump.status).toBe(400);
    const rate = await w.api.post('/v1/catalog/services', {
      name: 'X',
      unit: 'SY',
      estimating_mode: 'detailed',
      pricing_method: 'markup',
    });
    expect(rate.body).toMatchObject({ field: 'pricing_rate' });
    const margin = await w.api.post('/v1/catalog/services', {
      name: 'X',
      unit: 'SY',
      estimating_mode: 'detailed',
      pricing_method: 'margin',
      pricing_rate: 1.2,
    });
    expect(margin.body.field).toBe('pricing_rate');
    const waste = await w.api.post('/v1/catalog/services', {
      name: 'X',
      unit: 'SY',
      estimating_mode: 'detailed',
      cost_lines: [{ type: 'material', catalog_item_id: hma.id, waste_factor: 0.1234567 }],
    });
    expect(waste.body).toMatchObject({ field: 'waste_factor' });
    const negative = await w.api.post('/v1/catalog/services', {
      name: 'X',
      unit: 'SY',
      estimating_mode: 'unit_costing',
      unit_price: -1,
    });
    expect(negative.status).toBe(400);
    expect((await w.api.get('/v1/catalog/services?q=X')).body.data.filter((s: any) => s.name === 'X')).toHaveLength(0);
  });

  it('an unknown or archived item id is 404 naming it', async () => {
    const gone = (await w.api.post('/v1/catalog/items', { kind: 'other', name: 'Gone', unit: 'EA', unit_cost: 1 })).body
      .data;
    await w.api.delete(`/v1/catalog/items/${gone.id}`);
    const res = await w.api.post('/v1/catalog/services', {
      name: 'Refs',
      unit: 'SY',
      estimating_mode: 'detailed',
      cost_lines: [
        { type: 'misc', catalog_item_id: 999999 },
        { type: 'misc', catalog_item_id: gone.id },
      ],
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'Catalog item not found', catalog_item_ids: [999999, gone.id] });
  });

  it('missing records are 404', async () => {
    expect((await w.api.get('/v1/catalog/services/999999')).body).toEqual({ error: 'Catalog service not found' });
    expect((await w.api.patch('/v1/catalog/services/999999', { name: 'y' })).status).toBe(404);
    expect(
      (
        await w.api.post('/v1/catalog/services/999999/cost-lines', {
          type: 'misc',
          name: 'a',
          unit: 'EA',
          unit_cost: 1,
        })
      ).status,
    ).toBe(404);
    expect((await w.api.get('/v1/catalog/services/abc')).status).toBe(404);
  });
});
