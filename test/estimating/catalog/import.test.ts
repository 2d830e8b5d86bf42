// The starter catalog of a new workspace, the admin export and import (merge, replace,
// all-or-nothing) and their round trip.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileFormula } from '#engines/pricing/formula.ts';
import { STARTER_CATALOG } from '#seed/starter-catalog.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const exportOf = async (firmId: number) => {
  const res = await t.admin.get(`/admin/v1/workspaces/${firmId}/catalog`);
  expect(res.status).toBe(200);
  return res.body.data;
};
const importInto = (firmId: number, doc: unknown, mode?: string) =>
  t.admin.post(`/admin/v1/workspaces/${firmId}/catalog/import${mode ? `?mode=${mode}` : ''}`, doc);

describe('starter catalog', () => {
  it('every formula of the starter catalog compiles', () => {
    const formulas = STARTER_CATALOG.services!.flatMap((s) =>
      (s.cost_lines ?? []).map((l) => l.quantity_formula).filter(Boolean),
    ) as string[];
    expect(formulas.length).toBeGreaterThan(20);
    for (const f of formulas) expect(compileFormula(f).variables, f).toEqual(['quantity']);
  });

  it('a new workspace has the starter services, items, default price list and two templates', async () => {
    const w = await t.workspace();
    const services = (await w.api.get('/v1/catalog/services?limit=200')).body;
    expect(services.pagination.total).toBe(STARTER_CATALOG.services!.length);
    const names = services.data.map((s: any) => s.name);
    for (const n of [
      'Asphalt overlay, 1.5"',
      'Asphalt overlay, 2"',
      'Mill and overlay, 2"',
      'Crack sealing',
      'Sealcoating, 2 coats',
      'Line striping',
      'Mulch install',
      'Lawn mowing',
    ]) {
      expect(names).toContain(n);
    }
    expect(new Set(services.data.map((s: any) => s.category))).toEqual(
      new Set(['Paving', 'Sealcoating', 'Striping', 'Landscaping', 'Concrete', 'Snow']),
    );
    const overlay = services.data.find((s: any) => s.name === 'Asphalt overlay, 1.5"');
    const full = (await w.api.get(`/v1/catalog/services/${overlay!.id}`)).body.data;
    expect(full).toMatchObject({ unit: 'SY', estimating_mode: 'detailed', category: 'Paving' });
    const hma = full.cost_lines.find((l: any) => l.name.startsWith('HMA'));
    expect(hma).toMatchObject({
      type: 'material',
      unit: 'TON',
      unit_cost: 78,
      waste_factor: 0.05,
      quantity_formula: 'quantity * 1.5 * 0.0575',
    });
    expect(full.cost_lines.find((l: any) => l.type === 'trucking')).toMatchObject({
      haul_material: 'asphalt',
      unit_cost: 105,
    });
    const mill = (
      await w.api.get(`/v1/catalog/services/${services.data.find((s: any) => s.name === 'Mill and overlay, 2"')!.id}`)
    ).body.data;
    expect(mill.cost_lines.find((l: any) => l.dump_material === 'millings')).toMatchObject({
      type: 'misc',
      unit: 'TON',
      unit_cost: 8,
    });
    const seal = services.data.find((s: any) => s.name === 'Sealcoating, 2 coats');
    expect(seal).toMatchObject({ estimating_mode: 'unit_costing', unit_price: 1.98 });
    const truck = (await w.api.get('/v1/catalog/items?kind=truck')).body.data[0];
    expect(truck).toMatchObject({ unit: 'HR', unit_cost: 105, attributes: { capacity_tons: 16 } });
    const lists = (await w.api.get('/v1/price-lists')).body.data;
    expect(lists).toHaveLength(1);
    expect(lists[0].is_default).toBe(true);
    const templates = (await w.api.get('/v1/estimate-templates')).body.data;
    expect(templates.map((x: any) => x.name)).toEqual(['Mill and overlay', 'Parking lot refresh']);
    expect(templates[1].areas[0].services.map((s: any) => s.name)).toContain('Sealcoating, 2 coats');
  });

  it('starter_catalog: false makes an empty catalog; workspaces get their own copies', async () => {
    const empty = await t.workspace({ starter_catalog: false });
    expect((await empty.api.get('/v1/catalog/services')).body.pagination.total).toBe(0);
    const a = await t.workspace();
    const b = await t.workspace();
    const sa = (await a.api.get('/v1/catalog/services?q=crack')).body.data[0];
    await a.api.patch(`/v1/catalog/services/${sa.id}`, { estimating_mode: 'unit_costing', unit_price: 0.85 });
    expect((await b.api.get('/v1/catalog/services?q=crack')).body.data[0].estimating_mode).toBe('detailed');
  });
});

const SMALL = {
  version: 1,
  items: [
    { key: 'crew', kind: 'crew', name: 'Seal crew', unit: 'DAY', unit_cost: 800 },
    { kind: 'material', name: 'Sealer', unit: 'GAL', unit_cost: 2.85, attributes: { coal_tar_free: true } },
  ],
  services: [
    {
      name: 'Seal detailed',
      category: 'Sealcoating',
      unit: 'SY',
      estimating_mode: 'detailed',
      cost_lines: [
        { type: 'crew', item: 'crew', quantity_formula: 'ceil(quantity / 4000)' },
        { type: 'material', item: 'sealer', quantity_formula: 'quantity * 0.11', waste_factor: 0.03 },
      ],
    },
    {
      name: 'Stalls',
      category: 'Striping',
      unit: 'EA',
      estimating_mode: 'unit_costing',
      unit_cost: 2.4,
      unit_price: 5,
    },
  ],
  price_lists: [
    {
      name: 'Spring promo',
      is_default: true,
      services: [{ service: 'Stalls', unit_price: 4.5 }],
      items: [{ item: 'crew', unit_cost: 750 }],
    },
  ],
  templates: [
    {
      name: 'Seal and stripe',
      areas: [{ name: 'Lot', services: [{ service: 'Seal detailed', quantity: 3000 }, { service: 'stalls' }] }],
    },
  ],
};

describe('admin catalog import and export', () => {
  it('merge creates by name, then finds everything unchanged; changes count as updated', async () => {
    const w = await t.workspace({ starter_catalog: false });
    const first = await importInto(w.firmId, SMALL);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toEqual({
      mode: 'merge',
      items: { created: 2, updated: 0, unchanged: 0, archived: 0 },
      services: { created: 2, updated: 0, unchanged: 0, archived: 0 },
      price_lists: { created: 1, updated: 0, unchanged: 0, archived: 0 },
      templates: { created: 1, updated: 0, unchanged: 0, archived: 0 },
    });
    const seal = (await w.api.get('/v1/catalog/services?q=seal')).body.data[0];
    const full = (await w.api.get(`/v1/catalog/services/${seal.id}`)).body.data;
    expect(full.cost_lines.map((l: any) => [l.name, l.unit_cost, l.waste_factor])).toEqual([
      ['Seal crew', 800, 0],
      ['Sealer', 2.85, 0.03],
    ]);
    const pl = (await w.api.get(`/v1/price-lists/${(await w.api.get('/v1/price-lists')).body.data[0].id}`)).body.data;
    expect(pl).toMatchObject({
      name: 'Spring promo',
      is_default: true,
      services: [{ name: 'Stalls', unit_price: 4.5 }],
      items: [{ name: 'Seal crew', unit_cost: 750 }],
    });
    const tpl = (await w.api.get('/v1/estimate-templates')).body.data[0];
    expect(tpl.areas[0].services.map((s: any) => [s.name, s.quantity])).toEqual([
      ['Seal detailed', 3000],
      ['Stalls', null],
    ]);

    const again = await importInto(w.firmId, SMALL);
    expect(again.body.data.items).toEqual({ created: 0, updated: 0, unchanged: 2, archived: 0 });
    expect(again.body.data.services).toEqual({ created: 0, updated: 0, unchanged: 2, archived: 0 });
    expect(again.body.data.templates.unchanged).toBe(1);

    const changed = structuredClone(SMALL) as any;
    changed.items[1].unit_cost = 3.1;
    changed.services[0].cost_lines[1].waste_factor = 0.05;
    changed.items.push({ kind: 'equipment', name: 'Spray rig', unit: 'HR', unit_cost: 38 });
    const third = await importInto(w.firmId, changed);
    expect(third.body.data.items).toEqual({ created: 1, updated: 1, unchanged: 1, archived: 0 });
    expect(third.body.data.services).toEqual({ created: 0, updated: 1, unchanged: 1, archived: 0 });
    const lines = (await w.api.get(`/v1/catalog/services/${seal.id}`)).body.data.cost_lines;
    // A document line without its own unit_cost takes its item's cost from the document.
    expect(lines[1]).toMatchObject({ unit_cost: 3.1, waste_factor: 0.05 });
  });

  it('replace archives what the file does not name and restores archived matches', async () => {
    const w = await t.workspace({ starter_catalog: false });
    await importInto(w.firmId, SMALL);
    const extra = (await w.api.post('/v1/catalog/items', { kind: 'other', name: 'Cones', unit: 'EA', unit_cost: 12 }))
      .body.data;
    const stalls = (await w.api.get('/v1/catalog/services?q=stalls')).body.data[0];
    await w.api.delete(`/v1/catalog/services/${stalls.id}`);
    const res = await importInto(w.firmId, SMALL, 'replace');
    expect(res.status).toBe(200);
    expect(res.body.data.mode).toBe('replace');
    expect(res.body.data.items).toEqual({ created: 0, updated: 0, unchanged: 2, archived: 1 });
    expect(res.body.data.services).toEqual({ created: 0, updated: 1, unchanged: 1, archived: 0 });
    expect((await w.api.get(`/v1/catalog/items/${extra.id}`)).body.data.archived_at).not.toBeNull();
    expect((await w.api.get(`/v1/catalog/services/${stalls.id}`)).body.data.archived_at).toBeNull();
    // A replace with fewer records archives the rest, and the default list goes with its list.
    const onlyItems = await importInto(w.firmId, { items: SMALL.items }, 'replace');
    expect(onlyItems.body.data.services.archived).toBe(2);
    expect(onlyItems.body.data.price_lists.archived).toBe(1);
    expect(onlyItems.body.data.templates.archived).toBe(1);
    expect((await w.api.get('/v1/catalog/services')).body.data).toEqual([]);
    expect((await w.api.get('/v1/price-lists?include_archived=true')).body.data[0].is_default).toBe(false);
  });

  it('a bad file is 400 listing every problem, and nothing is written', async () => {
    const w = await t.workspace();
    const before = await exportOf(w.firmId);
    const bad = structuredClone(SMALL) as any;
    bad.items.push({ kind: 'material', name: 'sealer', unit: 'GAL', unit_cost: 3 }); // duplicate name
    bad.services[0].cost_lines.push({ type: 'material', item: 'Unobtainium', quantity: 1 });
    bad.services[0].cost_lines.push({ type: 'crew', item: 'crew', quantity_formula: 'quantity +* 2' });
    bad.price_lists[0].services.push({ service: 'Nope', unit_price: 1 });
    bad.templates[0].areas[0].services.push({ service: 'Ghost' });
    const res = await importInto(w.firmId, bad, 'replace');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'Invalid catalog', code: 'invalid_catalog' });
    expect(res.body.message).toMatch(/nothing was imported/);
    const paths = res.body.errors.map((e: any) => e.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/items/2/name',
        '/services/0/cost_lines/2/item',
        '/services/0/cost_lines/3/quantity_formula',
        '/price_lists/0/services/1/service',
        '/templates/0/areas/0/services/2/service',
      ]),
    );
    expect(res.body.errors.find((e: any) => e.path.endsWith('quantity_formula')).code).toBe('invalid_formula');
    expect(await exportOf(w.firmId)).toEqual(before);
    // Shape errors name the field.
    const shape = await importInto(w.firmId, {
      services: [{ name: 'X', unit: 'SY', estimating_mode: 'detailed', colour: 1 }],
    });
    expect(shape.status).toBe(400);
    expect(shape.body).toMatchObject({ code: 'unknown_fields' });
    const mode = await importInto(w.firmId, SMALL, 'overwrite');
    expect(mode.status).toBe(400);
    expect(mode.body.field).toBe('mode');
    expect((await importInto(999999, SMALL)).status).toBe(404);
    expect((await t.admin.get('/admin/v1/workspaces/999999/catalog')).status).toBe(404);
    expect((await t.anon.get(`/admin/v1/workspaces/${w.firmId}/catalog`)).status).toBe(401);
    expect(await exportOf(w.firmId)).toEqual(before);
  });

  it('import(export(x)) round-trips: unchanged in place, identical in another workspace', async () => {
    const a = await t.workspace();
    // Make the catalog a little different from the starter one first.
    const seal = (await a.api.get('/v1/catalog/services?q=sealcoating')).body.data[0];
    await a.api.patch(`/v1/catalog/services/${seal.id}`, {
      unit_price: 2.05,
      pricing_method: 'markup',
      pricing_rate: 0.425,
    });
    const doc = await exportOf(a.firmId);
    expect(doc.version).toBe(1);
    expect(doc.services.find((s: any) => s.name === seal.name)).toMatchObject({
      unit_price: 2.05,
      pricing_rate: 0.425,
    });
    const same = await importInto(a.firmId, doc);
    for (const kind of ['items', 'services', 'price_lists', 'templates']) {
      expect(same.body.data[kind], kind).toMatchObject({ created: 0, updated: 0, archived: 0 });
    }
    const b = await t.workspace({ starter_catalog: false });
    const copy = await importInto(b.firmId, doc, 'replace');
    expect(copy.body.data.services.created).toBe(doc.services.length);
    expect(await exportOf(b.firmId)).toEqual(doc);
  });
});
