// Saved-takeoff shapes over HTTP (document 3, "Saved-takeoff shapes"): the listing with its
// filters, header and options; the edit save with each op, all or nothing (a refusal saves nothing
// and names operation_index), rev once per save, base_rev checks, Delete records for removing,
// confirm_remove_all_areas, the review lock, and the history kept as the key's user. The
// measurement comes from detect/full over a local tile server drawing a known lot.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LatLng } from '#engines/geometry/index.ts';
import { syntheticLot } from '#engines/paved/synthetic-lot.ts';
import { imageryFor } from '#platform/imagery/select.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { boundsAround, latLngOf, type LotTiles, startLotTiles } from './lot-tiles.ts';

const scene = syntheticLot(11, { surface: 'asphalt', building: false, trees: 0, rotationDeg: 0 });
let tiles: LotTiles;
let t: TestApp;

beforeAll(async () => {
  tiles = await startLotTiles(scene);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-edit-'));
  t = await startApp({
    imagery: imageryFor({ standardUrl: tiles.template('lot'), premiumUrl: null, cacheMb: 0 }, dataDir, true),
  });
});
afterAll(async () => {
  await t?.close();
  await tiles.close();
});

const box = (x0: number, y0: number, x1: number, y1: number): LatLng[] => [
  latLngOf([x0, y0]),
  latLngOf([x1, y0]),
  latLngOf([x1, y1]),
  latLngOf([x0, y1]),
];

async function measured(w: Workspace) {
  return (await ok(w.api.request('POST', '/v1/detect/full', { bounds: boundsAround(scene) }))).data;
}

const qs = (q: Record<string, unknown>) =>
  new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)])).toString();

const shapesOf = (w: Workspace, id: number, query: Record<string, unknown> = {}) =>
  ok(w.api.request('GET', `/v1/measurements/${id}/shapes?${qs({ limit: 500, ...query })}`)) as Promise<any>;

describe('GET /v1/measurements/{id}/shapes', () => {
  it('every field of the shape, its actions, the header and the options; filters and paging', async () => {
    const w = await t.workspace();
    const m = await measured(w);
    const all = await shapesOf(w, m.id);
    expect(all.measurement).toEqual({
      id: m.id,
      name: m.name,
      job_id: null,
      area: m.area,
      rev: 1,
      coordinate_order: 'lat_lng',
    });
    expect(all.pagination).toMatchObject({ total: m.shape_count, limit: 500, offset: 0 });
    expect(all.options).toMatchObject({
      count_categories: ['arrows', 'abc', 'wheel_stop', 'bollard'],
      surfaces: ['main', 'concrete', 'sidewalk', 'driveway', 'carport'],
      phases: ['Phase 1', 'Phase 2', 'Phase 3'],
      custom_items: [],
    });
    expect(all.options.line_categories).toContain('curb_blue');
    expect(all.options.types.lines_white).toEqual(['4 in', '6 in', '12 in']);
    const area = all.data.find((s: any) => s.kind === 'area');
    expect(Object.keys(area).sort()).toEqual(
      [
        'actions',
        'category',
        'coordinates',
        'geometry',
        'id',
        'item',
        'item_key',
        'item_name',
        'kind',
        'label',
        'phase',
        'quantity',
        'service_id',
        'service_labels',
        'spec',
        'surface',
        'unit',
        'work_area',
      ].sort(),
    );
    expect(area).toMatchObject({
      surface: 'main',
      geometry: 'polygon',
      unit: 'SF',
      actions: ['remove', 'set_phase', 'set_surface'],
    });
    expect(area.coordinates[0][0]).toHaveLength(2);
    const stall = all.data.find((s: any) => s.category === 'stalls');
    expect(stall).toMatchObject({ kind: 'count', geometry: 'point', quantity: 1, unit: 'EA', actions: [] });
    const lines = await shapesOf(w, m.id, { kind: 'line', include_coordinates: false, limit: 2, offset: 1 });
    expect(lines.data.every((s: any) => s.kind === 'line' && !('coordinates' in s))).toBe(true);
    expect(lines.pagination.limit).toBe(2);
    const geo = await shapesOf(w, m.id, { kind: 'area', coordinate_order: 'lng_lat' });
    expect(geo.data[0].coordinates[0][0]).toEqual([...area.coordinates[0][0]].reverse());
    expect((await w.api.request('GET', `/v1/measurements/${m.id}/shapes?limit=501`)).status).toBe(400);
  });
});

describe('deep pages (page-anchors.ts)', () => {
  it('a page far in answers the rows an offset would, filtered or not, and follows a save', async () => {
    const w = await t.workspace();
    const m = await measured(w);
    // Over 600 shapes: four saves of 133 bollards and 67 curbs each.
    let rev = m.rev ?? 1;
    for (let save = 0; save < 4; save++) {
      const operations = Array.from({ length: 200 }, (_, i) =>
        i % 3 === 2
          ? {
              op: 'add_line',
              category: 'curb',
              coordinates: [latLngOf([i / 10, -20 - save]), latLngOf([i / 10 + 1, -20 - save])],
            }
          : { op: 'add_count', category: 'bollard', coordinates: latLngOf([i / 10, 20 + save]) },
      );
      rev = ((await ok(w.api.request('POST', `/v1/measurements/${m.id}/edits`, { base_rev: rev, operations }))) as any)
        .data.rev;
    }
    const truth = async (kind?: string) => {
      let qb = t.database.db.selectFrom('measurement_shapes').select('shape_id').where('measurement_id', '=', m.id);
      if (kind) qb = qb.where('kind', '=', kind as 'line');
      return (await qb.orderBy('id').execute()).map((r) => r.shape_id);
    };
    const check = async (kind?: string) => {
      const ids = await truth(kind);
      expect(ids.length).toBeGreaterThan(kind ? 250 : 800);
      for (const [offset, limit] of [
        [0, 500],
        [249, 3],
        [250, 7],
        [251, 250],
        [499, 1],
        [500, 100],
        [ids.length - 5, 10],
        [ids.length, 10],
        [ids.length + 300, 10],
      ] as const) {
        const page = await shapesOf(w, m.id, { limit, offset, include_coordinates: false, ...(kind ? { kind } : {}) });
        expect(
          page.data.map((s: any) => s.id),
          `${kind ?? 'all'} offset ${offset} limit ${limit}`,
        ).toEqual(ids.slice(offset, offset + limit));
      }
      return ids;
    };
    await check();
    await check('line');
    // A filter holding fewer rows than an anchor stride, on a measurement large enough for anchors.
    const areas = await truth('area');
    expect(areas.length).toBeGreaterThan(0);
    expect(areas.length).toBeLessThan(250);
    const areaPage = await shapesOf(w, m.id, { limit: 500, offset: 0, kind: 'area', include_coordinates: false });
    expect(areaPage.data.map((s: any) => s.id)).toEqual(areas);
    // A save moves rev: the pages follow it (removed shapes gone, the rest in place).
    const ids = await truth();
    const gone = [ids[260], ids[510], ids[ids.length - 1]];
    await ok(
      w.api.request('POST', `/v1/measurements/${m.id}/edits`, {
        base_rev: rev,
        operations: gone.map((id) => ({ op: 'remove', id })),
      }),
    );
    const after = await check();
    expect(after).toHaveLength(ids.length - 3);
    expect(after.some((id) => gone.includes(id))).toBe(false);
    await check('line');
  });
});

describe('a hole in an area the takeoff editor owns', () => {
  it('lists set_phase alone once the area it cuts carries a work area (the editable-areas read)', async () => {
    const w = await t.workspace();
    const m = await measured(w);
    const saved = (await ok(
      w.api.request('POST', `/v1/measurements/${m.id}/edits`, {
        base_rev: 1,
        operations: [{ op: 'add_area', surface: 'hole', coordinates: box(-5, -5, 5, 5) }],
      }),
    )) as any;
    const holeId = saved.data.results[0].id;
    const holeActions = async () =>
      ((await shapesOf(w, m.id, { include_coordinates: false })).data as any[]).find((s) => s.id === holeId).actions;
    expect(await holeActions()).toEqual(['remove', 'set_phase']);
    // The editor gives the area the hole cuts a work area (the API cannot: written as the editor would).
    const cut = (await t.database.db
      .selectFrom('measurement_shapes')
      .select('id')
      .where('measurement_id', '=', m.id)
      .where('kind', '=', 'area')
      .where('surface', '!=', 'hole')
      .execute()) as any[];
    await t.database.db
      .updateTable('measurement_shapes')
      .set({ work_area: 'North lot' })
      .where(
        'id',
        'in',
        cut.map((r) => r.id),
      )
      .execute();
    expect(await holeActions()).toEqual(['set_phase']);
  });
});

describe('POST /v1/measurements/{id}/edits', () => {
  it('applies every op in order, saves once (rev + 1), answers each result, and keeps the history as the key user', async () => {
    const w = await t.workspace();
    const m = await measured(w);
    const before = await shapesOf(w, m.id);
    const area = before.data.find((s: any) => s.kind === 'area');
    const line = before.data.find((s: any) => s.category === 'lines_white' || s.category === 'lines_yellow');
    const res = await ok(
      w.api.request('POST', `/v1/measurements/${m.id}/edits`, {
        base_rev: 1,
        operations: [
          { op: 'set_phase', id: area.id, phase: 'Phase 2' },
          { op: 'add_area', surface: 'hole', coordinates: box(-5, -5, 5, 5) },
          { op: 'add_count', category: 'bollard', coordinates: latLngOf([0, 8]), spec: 'steel' },
          { op: 'add_line', category: 'curb', coordinates: [latLngOf([-10, -12]), latLngOf([10, -12])] },
          {
            op: 'add_custom_shape',
            item: 'Planters',
            item_type: 'polygon',
            coordinates: box(8, 8, 10, 10),
            color: '#00aa00',
          },
          { op: 'reclassify', id: line.id, category: 'red_line' },
          { op: 'set_spec', id: line.id, spec: '4 in' },
          { op: 'add_area', coordinates: box(60, 0, 70, 10), surface: 'sidewalk' },
          { op: 'set_surface', id: area.id, surface: 'concrete' },
        ],
      }),
    );
    const d = (res as any).data;
    expect(d.measurement_id).toBe(m.id);
    expect(d.rev).toBe(2);
    expect(d.results.map((r: any) => r.op)).toEqual([
      'set_phase',
      'add_area',
      'add_count',
      'add_line',
      'add_custom_shape',
      'reclassify',
      'set_spec',
      'add_area',
      'set_surface',
    ]);
    const hole = d.results[1];
    // 10 m × 10 m = 107.64 sq ft.
    expect(hole.quantity).toBeCloseTo(1076.4, -1);
    expect(hole.unit).toBe('SF');
    expect(d.results[3]).toMatchObject({ unit: 'LF', quantity: expect.closeTo(65.6, 0) });
    // The area: the lot's, less the hole, plus the sidewalk.
    expect(d.area).toBeCloseTo(m.area - hole.quantity + d.results[7].quantity, 0);
    const after = await shapesOf(w, m.id);
    expect(after.measurement.rev).toBe(2);
    const byId = new Map(after.data.map((s: any) => [s.id, s]));
    expect(byId.get(hole.id)).toMatchObject({ surface: 'hole', phase: 'Phase 2' });
    expect(byId.get(d.results[2].id)).toMatchObject({ category: 'bollard', spec: 'steel', phase: 'Phase 2' });
    expect(byId.get(line.id)).toMatchObject({ category: 'red_line', spec: '4 in', label: 'Red lines' });
    expect(byId.get(area.id)).toMatchObject({ surface: 'concrete', phase: 'Phase 2' });
    expect(after.options.custom_items).toEqual([
      { name: 'Planters', type: 'polygon', color: '#00aa00', on_takeoff: true },
    ]);
    const read = (await ok(w.api.request('GET', `/v1/measurements/${m.id}`))).data;
    expect(read).toMatchObject({ rev: 2, format: 'editor', area: d.area });
    const history = (await ok(w.api.request('GET', `/v1/measurements/${m.id}/history`))) as any;
    expect(history.data).toHaveLength(1);
    expect(history.data[0]).toMatchObject({ rev: 2, user: { id: w.ownerId }, area_before: m.area, area_after: d.area });
    expect(history.data[0].replaced.map((s: any) => s.id).sort()).toEqual([area.id, line.id].sort());
    expect(history.data[0].replaced.find((s: any) => s.id === line.id).category).toBe(line.category);
  });

  it('edited text is stored exactly as sent, whatever it holds (quotes, commas, braces, backslashes, the word NULL)', async () => {
    const w = await t.workspace();
    const m = await measured(w);
    const all = (await shapesOf(w, m.id)).data as any[];
    const phases = ['Phase "A", {B}', 'C:\\temp\\x', 'NULL', "it's; drop table jobs", 'two  spaces', 'Ünïcødé ✓'];
    const targets = all.slice(0, phases.length);
    await ok(
      w.api.request('POST', `/v1/measurements/${m.id}/edits`, {
        base_rev: 1,
        operations: targets.map((s, i) => ({ op: 'set_phase', id: s.id, phase: phases[i] })),
      }),
    );
    const byId = new Map(((await shapesOf(w, m.id)).data as any[]).map((s) => [s.id, s]));
    expect(targets.map((s) => byId.get(s.id).phase)).toEqual(phases);
    // A shape the save did not name kept its phase.
    const untouched = all[phases.length];
    expect(byId.get(untouched.id).phase).toBe(untouched.phase);
  });

  it('one refusal saves nothing and names operation_index; rev does not move', async () => {
    const w = await t.workspace();
    const m = await measured(w);
    const cases: [unknown[], number, string][] = [
      [
        [{ op: 'add_count', category: 'bollard', coordinates: latLngOf([0, 0]) }, { op: 'explode' }],
        400,
        'Invalid operation',
      ],
      [[{ op: 'add_count', category: 'unicorn', coordinates: latLngOf([0, 0]) }], 400, 'Unknown category'],
      [
        [{ op: 'add_line', category: 'curb', coordinates: [latLngOf([0, 0]), latLngOf([1, 1])], color: 'red' }],
        400,
        'Unknown fields: color',
      ],
      [[{ op: 'add_count', category: 'bollard', coordinates: [40.5, -83] }], 400, 'Shape is far from the takeoff'],
      [[{ op: 'add_custom_shape', item: 'Signs', coordinates: latLngOf([0, 0]) }], 400, 'item_type is required'],
      [[{ op: 'set_phase', id: 'shp_nope', phase: 'A' }], 404, 'Shape not found'],
      [[{ op: 'add_count', category: 'stalls', coordinates: latLngOf([0, 0]) }], 422, 'Edit in the takeoff editor'],
      [[{ op: 'add_count', category: 'arrows', spec: 'sideways', coordinates: latLngOf([0, 0]) }], 422, 'Unknown type'],
    ];
    for (const [operations, status, error] of cases) {
      const res = await w.api.request('POST', `/v1/measurements/${m.id}/edits`, { base_rev: 1, operations });
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.error).toBe(error);
      expect(res.body.operation_index).toBe(operations.length - 1);
    }
    const custom = await w.api.request('POST', `/v1/measurements/${m.id}/edits`, {
      base_rev: 1,
      operations: [
        { op: 'add_custom_shape', item: 'Signs', item_type: 'point', coordinates: latLngOf([0, 0]) },
        { op: 'add_custom_shape', item: 'Signs', coordinates: [latLngOf([0, 0]), latLngOf([2, 2])] },
      ],
    });
    expect(custom.body).toMatchObject({ error: 'Wrong shape for item', operation_index: 1 });
    const now = await shapesOf(w, m.id);
    expect(now.measurement.rev).toBe(1);
    expect(now.pagination.total).toBe(m.shape_count);
    expect(now.options.custom_items).toEqual([]);
  });

  it('base_rev, operations, stale saves, the review lock', async () => {
    const w = await t.workspace();
    const m = await measured(w);
    const add = { op: 'add_count', category: 'wheel_stop', coordinates: latLngOf([1, 1]) };
    const url = `/v1/measurements/${m.id}/edits`;
    expect((await w.api.request('POST', url, { operations: [add] })).body.error).toBe('base_rev is required');
    expect((await w.api.request('POST', url, { base_rev: 1 })).body.error).toBe('operations is required');
    expect((await w.api.request('POST', url, { base_rev: 1, operations: [] })).status).toBe(400);
    expect((await w.api.request('POST', url, { base_rev: 1, operations: Array(201).fill(add) })).status).toBe(400);
    expect((await w.api.request('POST', url, { base_rev: 1, operations: [add], extra: 1 })).status).toBe(400);
    const first = await ok(w.api.request('POST', url, { base_rev: 1, operations: [add] }));
    expect((first as any).data.rev).toBe(2);
    const stale = await w.api.request('POST', url, { base_rev: 1, operations: [add] });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ error: 'stale_measurement', code: 'stale_measurement', current_rev: 2 });
    await ok(w.api.request('PATCH', `/v1/measurements/${m.id}`, { locked_for_review: true }));
    const locked = await w.api.request('POST', url, { base_rev: 2, operations: [add] });
    expect(locked.status).toBe(409);
    expect(locked.body.error).toBe('Takeoff locked for review');
    await ok(w.api.request('PATCH', `/v1/measurements/${m.id}`, { locked_for_review: false }));
    // Two saves racing from the same rev: exactly one lands.
    const raced = await Promise.all(
      [1, 2, 3].map(() => w.api.request('POST', url, { base_rev: 2, operations: [add] })),
    );
    expect(raced.filter((r) => r.status === 200)).toHaveLength(1);
    expect(raced.filter((r) => r.status === 409)).toHaveLength(2);
    expect((await shapesOf(w, m.id)).measurement.rev).toBe(3);
  });

  it('removing needs Delete records; removing every area needs confirm_remove_all_areas', async () => {
    const w = await t.workspace();
    const m = await measured(w);
    const shapes = (await shapesOf(w, m.id)).data;
    const areas = shapes.filter((s: any) => s.kind === 'area').map((s: any) => ({ op: 'remove', id: s.id }));
    const url = `/v1/measurements/${m.id}/edits`;
    const readWrite = await t.key(w.firmId, w.ownerId, ['read_measurements', 'write_measurements']);
    const refused = await t.as(readWrite).request('POST', url, { base_rev: 1, operations: areas });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'API key lacks delete permission', operation_index: 0 });
    const unconfirmed = await w.api.request('POST', url, { base_rev: 1, operations: areas });
    expect(unconfirmed.status).toBe(409);
    expect(unconfirmed.body.error).toBe('would_remove_all_areas');
    const confirmed = await ok(
      w.api.request('POST', url, { base_rev: 1, operations: areas, confirm_remove_all_areas: true }),
    );
    expect((confirmed as any).data.area).toBe(0);
    // Detected stalls stay (edited only in the takeoff editor), so the measurement is not empty.
    expect((await shapesOf(w, m.id)).data.every((s: any) => s.kind !== 'area')).toBe(true);
  });

  it('another workspace cannot read or edit it', async () => {
    const w = await t.workspace();
    const m = await measured(w);
    const other = await t.workspace();
    for (const res of [
      await other.api.request('GET', `/v1/measurements/${m.id}/shapes`),
      await other.api.request('GET', `/v1/measurements/${m.id}/history`),
      await other.api.request('POST', `/v1/measurements/${m.id}/edits`, {
        base_rev: 1,
        operations: [{ op: 'remove', id: 'x' }],
      }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Measurement not found');
    }
  });
});

describe('properties of saves (fast-check)', () => {
  it('a save is atomic and rev is monotone: +1 when every operation holds, unchanged with every shape when one does not', async () => {
    const w = await t.workspace();
    const m = await measured(w);
    let rev = 1;
    let count = m.shape_count;
    const good = fc.record({
      op: fc.constant('add_count'),
      category: fc.constantFrom('arrows', 'abc', 'wheel_stop', 'bollard'),
      coordinates: fc
        .tuple(fc.double({ min: -20, max: 20, noNaN: true }), fc.double({ min: -15, max: 15, noNaN: true }))
        .map((p) => latLngOf(p)),
    });
    const bad = fc.constantFrom<Record<string, unknown>>(
      { op: 'add_count', category: 'unicorn', coordinates: latLngOf([0, 0]) },
      { op: 'set_phase', id: 'shp_missing', phase: 'A' },
      { op: 'add_line', category: 'curb', coordinates: [latLngOf([0, 0])] },
      { op: 'fly' },
    );
    const save = fc.record({
      ops: fc.array(good, { minLength: 1, maxLength: 6 }),
      poison: fc.option(fc.tuple(bad, fc.nat()), { nil: null }),
    });
    await fc.assert(
      fc.asyncProperty(save, async ({ ops, poison }) => {
        const operations: unknown[] = [...ops];
        if (poison) operations.splice(poison[1] % (operations.length + 1), 0, poison[0]);
        const res = await w.api.request('POST', `/v1/measurements/${m.id}/edits`, { base_rev: rev, operations });
        const now = await shapesOf(w, m.id, { include_coordinates: false, limit: 1 });
        if (poison) {
          expect(res.status).toBeGreaterThanOrEqual(400);
          expect(res.body.operation_index).toBe(operations.indexOf(poison[0]));
        } else {
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          rev += 1;
          count += ops.length;
          expect(res.body.data.rev).toBe(rev);
        }
        expect(now.measurement.rev).toBe(rev);
        expect(now.pagination.total).toBe(count);
      }),
      { numRuns: 25 },
    );
  });
});
