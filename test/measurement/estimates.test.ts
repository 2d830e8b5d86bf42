// Estimates from measurements (docs/api-decisions.md, "Estimates from measurements"): an estimate
// area linked to a measurement (takeoff_id, quantity_source takeoff), lines naming the measured
// quantity they take (measurement_quantity, converted to the line's unit), re-pulled on every save
// of the measurement and logged as a revision; a typed quantity replaces the takeoff's (manual) and
// is never re-pulled; the refusals; a deleted measurement leaves the quantities, unlinked.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticLot } from '#engines/paved/synthetic-lot.ts';
import { imageryFor } from '#platform/imagery/select.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { job, ok } from '#test/helpers/records.ts';
import { boundsAround, latLngOf, type LotTiles, startLotTiles } from './lot-tiles.ts';

const scene = syntheticLot(5, { surface: 'asphalt', building: false, trees: 0, rotationDeg: 0 });
let tiles: LotTiles;
let t: TestApp;

beforeAll(async () => {
  tiles = await startLotTiles(scene);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-meas-est-'));
  t = await startApp({
    imagery: imageryFor({ standardUrl: tiles.template('lot'), premiumUrl: null, cacheMb: 0 }, dataDir, true),
  });
});
afterAll(async () => {
  await t?.close();
  await tiles.close();
});

async function setup(w: Workspace) {
  const services = (await ok(w.api.request('GET', '/v1/catalog/services?limit=200'))) as any;
  const svc = Object.fromEntries(services.data.map((s: any) => [s.name, s.id]));
  const j = await job(w.api, { name: 'Measured job' });
  const m = (await ok(w.api.request('POST', '/v1/detect/full', { bounds: boundsAround(scene), job_id: j.id }))).data;
  const e = (await ok(w.api.request('POST', '/v1/estimates', { job_id: j.id }))).data;
  return { svc, j, m, e };
}

const lineOf = (estimate: any, id: number) =>
  estimate.areas.flatMap((a: any) => a.services).find((l: any) => l.id === id);

describe('an estimate area linked to a measurement', () => {
  it('lines take the measured quantity in their unit and re-pull on every save; typed quantities stay', async () => {
    const w = await t.workspace();
    const { svc, m, e } = await setup(w);
    const linked = (
      await ok(
        w.api.request('PATCH', `/v1/estimates/${e.id}`, { areas: [{ name: 'Lot (measured)', takeoff_id: m.id }] }),
      )
    ).data;
    const area = linked.areas.find((a: any) => a.name === 'Lot (measured)');
    expect(area).toMatchObject({ quantity_source: 'takeoff', takeoff_id: m.id });
    const seal = (await ok(
      w.api.request('POST', `/v1/estimates/${e.id}/line-items`, {
        service_id: svc['Sealcoating, 2 coats'],
        area_id: area.id,
        measurement_quantity: 'area',
      }),
    )) as any;
    const sealLine = lineOf(seal.data, seal.line_item_id);
    // Square feet to the service's square yards: ÷ 9, to the hundredth.
    expect(sealLine).toMatchObject({ quantity_source: 'inherited', measurement_quantity: 'area', unit: 'SY' });
    expect(sealLine.quantity).toBeCloseTo(m.area / 9, 1);
    const stripe = (await ok(
      w.api.request('POST', `/v1/estimates/${e.id}/line-items`, {
        service_id: svc['Line striping'],
        area_id: area.id,
        measurement_quantity: 'line:curb',
      }),
    )) as any;
    expect(lineOf(stripe.data, stripe.line_item_id)).toMatchObject({ quantity: 0, quantity_source: 'inherited' });
    const typed = (await ok(
      w.api.request('POST', `/v1/estimates/${e.id}/line-items`, {
        service_id: svc['Sealcoating, 2 coats'],
        area_id: area.id,
        measurement_quantity: 'area',
        quantity: 10,
        name: 'Second coat by hand',
      }),
    )) as any;
    expect(lineOf(typed.data, typed.line_item_id)).toMatchObject({ quantity: 10, quantity_source: 'manual' });

    // The office draws a 20 m curb and a 10 m × 10 m sidewalk: the linked lines follow.
    const saved = (await ok(
      w.api.request('POST', `/v1/measurements/${m.id}/edits`, {
        base_rev: 1,
        operations: [
          { op: 'add_line', category: 'curb', coordinates: [latLngOf([-10, 0]), latLngOf([10, 0])] },
          {
            op: 'add_area',
            surface: 'sidewalk',
            coordinates: [latLngOf([200, 0]), latLngOf([210, 0]), latLngOf([210, 10]), latLngOf([200, 10])],
          },
        ],
      }),
    )) as any;
    const after = (await ok(w.api.request('GET', `/v1/estimates/${e.id}`))) as any;
    const est = after.data ?? after;
    expect(lineOf(est, seal.line_item_id).quantity).toBeCloseTo(saved.data.area / 9, 1);
    expect(lineOf(est, stripe.line_item_id).quantity).toBeCloseTo(saved.data.results[0].quantity, 1);
    expect(lineOf(est, typed.line_item_id).quantity).toBe(10);
    const revisions = (await ok(w.api.request('GET', `/v1/estimates/${e.id}/revisions`))) as any;
    const repull = (revisions.data ?? revisions).find((r: any) => /re-pulled from measurement/.test(r.summary));
    expect(repull.changes).toMatchObject({ source: 'measurement', measurement_id: m.id });
    expect(repull.changes.lines).toHaveLength(2);

    // A quantity typed over a line stops its pulls; a quantity typed over on the measurement is taken.
    await ok(w.api.request('PATCH', `/v1/estimates/${e.id}/line-items/${stripe.line_item_id}`, { quantity: 500 }));
    await ok(w.api.request('PATCH', `/v1/measurements/${m.id}`, { typed_quantities: { curb: 900 } }));
    const typedOver = (await ok(w.api.request('GET', `/v1/estimates/${e.id}`))) as any;
    expect(lineOf(typedOver.data ?? typedOver, stripe.line_item_id)).toMatchObject({
      quantity: 500,
      quantity_source: 'manual',
    });
    await ok(
      w.api.request('PATCH', `/v1/estimates/${e.id}/line-items/${stripe.line_item_id}`, {
        measurement_quantity: 'line:curb',
      }),
    );
    const relinked = (await ok(w.api.request('GET', `/v1/estimates/${e.id}`))) as any;
    expect(lineOf(relinked.data ?? relinked, stripe.line_item_id)).toMatchObject({
      quantity: 900,
      quantity_source: 'inherited',
    });

    // Deleting the measurement leaves the estimate's quantities, its area no longer linked.
    expect((await w.api.request('DELETE', `/v1/measurements/${m.id}`)).status).toBe(204);
    const unlinked = (await ok(w.api.request('GET', `/v1/estimates/${e.id}`))) as any;
    const u = unlinked.data ?? unlinked;
    expect(u.areas.find((a: any) => a.id === area.id)).toMatchObject({ quantity_source: 'manual', takeoff_id: null });
    expect(lineOf(u, stripe.line_item_id).quantity).toBe(900);
  });

  it('refuses what cannot be linked', async () => {
    const w = await t.workspace();
    const { svc, m, e } = await setup(w);
    const other = await t.workspace();
    const theirs = (await ok(other.api.request('POST', '/v1/detect/full', { bounds: boundsAround(scene) }))).data;
    const foreign = await w.api.request('PATCH', `/v1/estimates/${e.id}`, {
      areas: [{ name: 'Theirs', takeoff_id: theirs.id }],
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ error: 'Measurement not found', field: 'areas[0].takeoff_id' });
    const main = e.areas[0];
    const unlinkedArea = await w.api.request('POST', `/v1/estimates/${e.id}/line-items`, {
      service_id: svc['Sealcoating, 2 coats'],
      area_id: main.id,
      measurement_quantity: 'area',
    });
    expect(unlinkedArea.status).toBe(400);
    expect(unlinkedArea.body.field).toBe('measurement_quantity');
    await ok(w.api.request('PATCH', `/v1/estimates/${e.id}`, { areas: [{ id: main.id, takeoff_id: m.id }] }));
    for (const [key, service] of [
      ['area', 'Line striping'],
      ['nonsense', 'Sealcoating, 2 coats'],
    ]) {
      const res = await w.api.request('POST', `/v1/estimates/${e.id}/line-items`, {
        service_id: svc[service],
        area_id: main.id,
        measurement_quantity: key,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.field).toBe('measurement_quantity');
    }
    const noQuantity = await w.api.request('POST', `/v1/estimates/${e.id}/line-items`, {
      service_id: svc['Line striping'],
    });
    expect(noQuantity.status).toBe(400);
    expect(noQuantity.body).toMatchObject({ error: 'quantity is required', field: 'quantity' });
  });
});
