// /v1/catalog/items, /v1/price-lists and /v1/estimate-templates: create, read, list, update,
// archive/restore, references and their errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';

let t: TestApp;
let w: Workspace;
let seal: any;
let stripe: any;
let paint: any;

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ starter_catalog: false });
  seal = (
    await w.api.post('/v1/catalog/services', {
      name: 'Sealcoat',
      unit: 'SY',
      estimating_mode: 'unit_costing',
      unit_price: 1.98,
    })
  ).body.data;
  stripe = (
    await w.api.post('/v1/catalog/services', {
      name: 'Striping',
      unit: 'LF',
      estimating_mode: 'unit_costing',
      unit_price: 0.25,
    })
  ).body.data;
  paint = (
    await w.api.post('/v1/catalog/items', { kind: 'material', name: 'Traffic paint', unit: 'GAL', unit_cost: 32 })
  ).body.data;
});
afterAll(() => t.close());

describe('catalog items', () => {
  it('creates, reads, lists by kind and q, updates, archives and restores', async () => {
    const res = await w.api.post('/v1/catalog/items', {
      kind: 'truck',
      name: 'Tri-axle dump',
      unit: 'HR',
      unit_cost: 105,
      attributes: { capacity_tons: 16 },
    });
    expect(res.status).toBe(201);
    const item = res.body.data;
    expect(item).toMatchObject({
      kind: 'truck',
      name: 'Tri-axle dump',
      unit: 'HR',
      unit_cost: 105,
      attributes: { capacity_tons: 16 },
      archived_at: null,
    });
    expect((await w.api.get(`/v1/catalog/items/${item.id}`)).body.data).toEqual(item);
    const trucks = await w.api.get('/v1/catalog/items?kind=truck');
    expect(trucks.body.data.map((i: any) => i.name)).toEqual(['Tri-axle dump']);
    expect((await w.api.get('/v1/catalog/items?q=PAINT')).body.data.map((i: any) => i.id)).toEqual([paint.id]);
    const all = await w.api.get('/v1/catalog/items');
    expect(all.body.data.map((i: any) => i.name)).toEqual(['Traffic paint', 'Tri-axle dump']);
    const up = await w.api.patch(`/v1/catalog/items/${item.id}`, {
      unit_cost: 110.5,
      attributes: { capacity_tons: 18 },
    });
    expect(up.body.data).toMatchObject({ unit_cost: 110.5, attributes: { capacity_tons: 18 } });
    const arch = await w.api.delete(`/v1/catalog/items/${item.id}`);
    expect(arch.body.data.archived_at).not.toBeNull();
    expect((await w.api.get('/v1/catalog/items?kind=truck')).body.data).toHaveLength(0);
    expect((await w.api.get('/v1/catalog/items?kind=truck&include_archived=true')).body.data).toHaveLength(1);
    expect((await w.api.patch(`/v1/catalog/items/${item.id}`, { archived: false })).body.data.archived_at).toBeNull();
  });

  it('editing an item never changes the cost lines copied from it', async () => {
    const s = (
      await w.api.post('/v1/catalog/services', {
        name: 'Stripe detailed',
        unit: 'LF',
        estimating_mode: 'detailed',
        cost_lines: [{ type: 'material', catalog_item_id: paint.id, quantity_formula: 'quantity / 320' }],
      })
    ).body.data;
    await w.api.patch(`/v1/catalog/items/${paint.id}`, { unit_cost: 35 });
    expect((await w.api.get(`/v1/catalog/services/${s.id}`)).body.data.cost_lines[0].unit_cost).toBe(32);
  });

  it('validates kind, names unknown fields and refuses a taken name', async () => {
    expect(
      (await w.api.raw.post('/v1/catalog/items', { kind: 'robot', name: 'R', unit: 'EA', unit_cost: 1 })).status,
    ).toBe(400);
    const unknown = await w.api.raw.post('/v1/catalog/items', {
      kind: 'other',
      name: 'R',
      unit: 'EA',
      unit_cost: 1,
      price: 2,
    });
    expect(unknown.body).toMatchObject({ code: 'unknown_fields', fields: ['price'] });
    const missing = await w.api.raw.post('/v1/catalog/items', { kind: 'other', name: 'R', unit: 'EA' });
    expect(missing.body.field).toBe('unit_cost');
    const taken = await w.api.post('/v1/catalog/items', {
      kind: 'other',
      name: 'traffic PAINT',
      unit: 'EA',
      unit_cost: 1,
    });
    expect(taken.status).toBe(409);
    expect(taken.body.existing_id).toBe(paint.id);
    expect((await w.api.get('/v1/catalog/items/999999')).body).toEqual({ error: 'Catalog item not found' });
  });
});

describe('price lists', () => {
  it('creates a list with service prices and item costs; read includes entries, list does not', async () => {
    const res = await w.api.post('/v1/price-lists', {
      name: 'Commercial 2026',
      description: 'Property managers',
      is_default: true,
      services: [
        { service_id: seal.id, unit_price: 2.1 },
        { service_id: stripe.id, unit_price: 0.3 },
      ],
      items: [{ catalog_item_id: paint.id, unit_cost: 30.75 }],
    });
    expect(res.status).toBe(201);
    const pl = res.body.data;
    expect(pl).toMatchObject({
      name: 'Commercial 2026',
      description: 'Property managers',
      is_default: true,
      services: [
        { service_id: seal.id, name: 'Sealcoat', unit: 'SY', unit_price: 2.1 },
        { service_id: stripe.id, name: 'Striping', unit: 'LF', unit_price: 0.3 },
      ],
      items: [{ catalog_item_id: paint.id, name: 'Traffic paint', unit: 'GAL', unit_cost: 30.75 }],
    });
    expect((await w.api.get(`/v1/price-lists/${pl.id}`)).body.data).toEqual(pl);
    const list = await w.api.get('/v1/price-lists');
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).not.toHaveProperty('services');
  });

  it('one default at a time; PATCH arrays replace entries; archiving drops the default', async () => {
    const a = (await w.api.get('/v1/price-lists')).body.data[0];
    const b = (await w.api.post('/v1/price-lists', { name: 'Residential', is_default: true })).body.data;
    expect((await w.api.get(`/v1/price-lists/${a.id}`)).body.data.is_default).toBe(false);
    expect(b.is_default).toBe(true);
    const up = await w.api.patch(`/v1/price-lists/${a.id}`, {
      services: [{ service_id: stripe.id, unit_price: 0.28 }],
    });
    expect(up.body.data.services).toEqual([{ service_id: stripe.id, name: 'Striping', unit: 'LF', unit_price: 0.28 }]);
    expect(up.body.data.items).toHaveLength(1);
    const arch = await w.api.delete(`/v1/price-lists/${b.id}`);
    expect(arch.body.data).toMatchObject({ is_default: false });
    expect(arch.body.data.archived_at).not.toBeNull();
    const cannot = await w.api.patch(`/v1/price-lists/${b.id}`, { is_default: true });
    expect(cannot.status).toBe(400);
    expect(cannot.body.field).toBe('is_default');
    expect(
      (await w.api.patch(`/v1/price-lists/${b.id}`, { archived: false, is_default: true })).body.data,
    ).toMatchObject({ archived_at: null, is_default: true });
  });

  it('unknown service or item ids are 404 naming them; duplicates are 400', async () => {
    const res = await w.api.post('/v1/price-lists', { name: 'Bad', services: [{ service_id: 999998, unit_price: 1 }] });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'Catalog service not found', service_ids: [999998] });
    const items = await w.api.post('/v1/price-lists', {
      name: 'Bad',
      items: [{ catalog_item_id: 999997, unit_cost: 1 }],
    });
    expect(items.body).toMatchObject({ error: 'Catalog item not found', catalog_item_ids: [999997] });
    const dup = await w.api.post('/v1/price-lists', {
      name: 'Bad',
      services: [
        { service_id: seal.id, unit_price: 1 },
        { service_id: seal.id, unit_price: 2 },
      ],
    });
    expect(dup.status).toBe(400);
    expect(dup.body.field).toBe('services');
    expect((await w.api.get('/v1/price-lists?q=bad&include_archived=true')).body.data).toHaveLength(0);
    expect((await w.api.get('/v1/price-lists/999999')).body).toEqual({ error: 'Price list not found' });
  });
});

describe('estimate templates', () => {
  it('creates, reads, lists, updates, archives and restores', async () => {
    const res = await w.api.post('/v1/estimate-templates', {
      name: 'Lot refresh',
      description: 'Seal and stripe',
      areas: [
        {
          name: 'Front lot',
          services: [
            { service_id: seal.id, quantity: 1200.5 },
            { service_id: stripe.id, quantity: null },
          ],
        },
      ],
    });
    expect(res.status).toBe(201);
    const tpl = res.body.data;
    expect(tpl).toMatchObject({
      name: 'Lot refresh',
      description: 'Seal and stripe',
      archived_at: null,
      areas: [
        {
          name: 'Front lot',
          services: [
            { service_id: seal.id, name: 'Sealcoat', unit: 'SY', quantity: 1200.5 },
            { service_id: stripe.id, name: 'Striping', unit: 'LF', quantity: null },
          ],
        },
      ],
    });
    expect((await w.api.get(`/v1/estimate-templates/${tpl.id}`)).body.data).toEqual(tpl);
    expect((await w.api.get('/v1/estimate-templates?q=refresh')).body.data).toEqual([tpl]);
    const up = await w.api.patch(`/v1/estimate-templates/${tpl.id}`, {
      areas: [{ name: 'Back lot', services: [{ service_id: stripe.id }] }],
    });
    expect(up.body.data.areas).toEqual([
      { name: 'Back lot', services: [{ service_id: stripe.id, name: 'Striping', unit: 'LF', quantity: null }] },
    ]);
    expect((await w.api.delete(`/v1/estimate-templates/${tpl.id}`)).body.data.archived_at).not.toBeNull();
    expect((await w.api.get('/v1/estimate-templates')).body.data).toHaveLength(0);
    expect(
      (await w.api.patch(`/v1/estimate-templates/${tpl.id}`, { archived: false })).body.data.archived_at,
    ).toBeNull();
  });

  it('validates areas and service references', async () => {
    const none = await w.api.post('/v1/estimate-templates', { name: 'Empty', areas: [] });
    expect(none.status).toBe(400);
    expect(none.body.field).toBe('areas');
    const bad = await w.api.post('/v1/estimate-templates', {
      name: 'Bad',
      areas: [{ name: 'A', services: [{ service_id: 999999 }] }],
    });
    expect(bad.status).toBe(404);
    expect(bad.body).toMatchObject({ error: 'Catalog service not found', service_ids: [999999] });
    const extra = await w.api.raw.post('/v1/estimate-templates', {
      name: 'Bad',
      areas: [{ name: 'A', services: [], color: 'x' }],
    });
    expect(extra.status).toBe(400);
    expect((await w.api.get('/v1/estimate-templates/999999')).body).toEqual({ error: 'Estimate template not found' });
  });
});

describe('DELETE twice', () => {
  // Document 1, retry rules: "a second delete is 404, treat as done". DELETE archives, so a record
  // already archived answers its 404 and stays as it was; PATCH {archived: false} brings it back.
  it('items, services, price lists and templates: the second DELETE is 404 and changes nothing', async () => {
    const create = async (path: string, body: Record<string, unknown>) => {
      const res = await w.api.post(`/v1/${path}`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data;
    };
    const made = {
      'catalog/items': await create('catalog/items', {
        kind: 'material',
        name: 'Twice paint',
        unit: 'GAL',
        unit_cost: 30,
      }),
      'catalog/services': await create('catalog/services', {
        name: 'Twice seal',
        unit: 'SY',
        estimating_mode: 'unit_costing',
        unit_price: 2,
      }),
      'price-lists': await create('price-lists', { name: 'Twice list' }),
      'estimate-templates': await create('estimate-templates', {
        name: 'Twice template',
        areas: [{ name: 'Lot', services: [{ service_id: seal.id }] }],
      }),
    };
    const missing = {
      'catalog/items': 'Catalog item not found',
      'catalog/services': 'Catalog service not found',
      'price-lists': 'Price list not found',
      'estimate-templates': 'Estimate template not found',
    };
    for (const [path, record] of Object.entries(made)) {
      const first = await w.api.delete(`/v1/${path}/${record.id}`);
      expect(first.status, path).toBe(200);
      const again = await w.api.delete(`/v1/${path}/${record.id}`);
      expect(again.status, path).toBe(404);
      expect(again.body, path).toMatchObject({
        error: missing[path as keyof typeof missing],
        code: 'already_archived',
      });
      expect((await w.api.get(`/v1/${path}/${record.id}`)).body.data, path).toEqual(first.body.data);
      expect((await w.api.patch(`/v1/${path}/${record.id}`, { archived: false })).status, path).toBe(200);
      expect((await w.api.delete(`/v1/${path}/${record.id}`)).status, path).toBe(200);
    }
  });
});
