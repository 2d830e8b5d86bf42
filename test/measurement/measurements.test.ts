// Starting a measurement over HTTP (document 1's POST /v1/detect/*; docs/measurement.md): from
// bounds, an address (a local Nominatim-speaking geocoder) and a tile range of a real local tile
// server drawing a lot whose truth is known; the measurement's totals within the detector's stated
// tolerance; the job's measurement_count, search, list, read, change and delete; each imagery and
// geocoder failure as the spec answers it; the segmentation endpoint replacing the detector.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticLot } from '#engines/paved/synthetic-lot.ts';
import { squareFeet, feet } from '#engines/geometry/index.ts';
import { httpGeocoder } from '#platform/geocoding.ts';
import { imageryFor } from '#platform/imagery/select.ts';
import { httpSegmentation } from '#platform/segmentation.ts';
import { toPixel } from '#platform/imagery/web-mercator.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { job, ok } from '#test/helpers/records.ts';
import { boundsAround, type LotTiles, ORIGIN, startLotTiles } from './lot-tiles.ts';

const scene = syntheticLot(7, { surface: 'asphalt', building: false, trees: 0, rotationDeg: 0 });
let tiles: LotTiles;
let services: http.Server;
let base: string;
let segmentAnswer: unknown = {};
/** The geocoder answers 500 while true (a geocoder that is down). */
let geocoderDown = false;
let t: TestApp;
const dataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-meas-'));

beforeAll(async () => {
  tiles = await startLotTiles(scene);
  services = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    if (url.pathname === '/search') {
      if (geocoderDown) return res.writeHead(500).end();
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      const body = q.startsWith('1 main')
        ? [{ lat: String(ORIGIN.lat), lon: String(ORIGIN.lng), display_name: q }]
        : [];
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    }
    if (url.pathname === '/segment') {
      req.resume();
      req.on('end', () =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(segmentAnswer)),
      );
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => services.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(services.address() as AddressInfo).port}`;
  t = await startApp({
    imagery: imageryFor({ standardUrl: tiles.template('lot'), premiumUrl: null, cacheMb: 0 }, dataDir(), true),
    geocoder: httpGeocoder(base, { cacheSize: 0 }),
  });
});
afterAll(async () => {
  await t?.close();
  await tiles.close();
  await new Promise<void>((resolve) => services.close(() => resolve()));
});

const measurementCount = async (w: { api: TestApp['anon'] }, jobId: number) => {
  const res = (await ok(w.api.request('GET', `/v1/jobs/${jobId}`))) as any;
  return (res.data ?? res).measurement_count;
};

const within = (value: number, truth: number, share: number) =>
  expect(Math.abs(value - truth) / truth, `${value} vs ${truth}`).toBeLessThanOrEqual(share);

describe('POST /v1/detect/full', () => {
  it('measures the lot: its area within 5%, its paint within 10%, its stalls, on the job', async () => {
    const w = await t.workspace();
    const j = await job(w.api, { name: 'Kroger lot' });
    const res = await w.api.request('POST', '/v1/detect/full', {
      bounds: boundsAround(scene),
      job_id: j.id,
      name: 'North lot',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const m = res.body.data;
    expect(m).toMatchObject({
      object: 'measurement',
      name: 'North lot',
      job_id: j.id,
      status: 'completed',
      started_from: 'bounds',
      detector: 'built_in',
      rev: 1,
      format: 'detected',
      unit: 'sf',
      imagery: { source: 'standard', zoom: 20 },
    });
    within(m.area, squareFeet(scene.truth.pavedM2), 0.05);
    const white = m.totals.lines.find((l: any) => l.category === 'lines_white')?.linear_feet ?? 0;
    const yellow = m.totals.lines.find((l: any) => l.category === 'lines_yellow')?.linear_feet ?? 0;
    within(white + yellow, feet(scene.truth.lineLengthM.white + scene.truth.lineLengthM.yellow), 0.1);
    const stalls = m.totals.counts.find((c: any) => c.category === 'stalls')?.count ?? 0;
    expect(Math.abs(stalls - scene.truth.stalls)).toBeLessThanOrEqual(Math.max(1, scene.truth.stalls * 0.1));
    expect(m.shape_count).toBeGreaterThan(stalls);
    expect(m.screening_note).toMatch(/screening/);
    expect(await measurementCount(w, j.id)).toBe(1);
    const found = await ok(w.api.request('GET', '/v1/search?q=north+lot&types=measurement'));
    expect((found as any).data).toEqual([
      expect.objectContaining({ type: 'measurement', id: m.id, title: 'North lot' }),
    ]);
  });

  it('refuses bounds that are not a box or too big, and a job it cannot see', async () => {
    const w = await t.workspace();
    const b = boundsAround(scene);
    for (const bounds of [
      { ...b, north: b.south - 0.001 },
      { north: 40.0, south: 39.99, east: -82.98, west: -83.0 },
    ]) {
      const res = await w.api.request('POST', '/v1/detect/full', { bounds });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_request', field: 'bounds' });
    }
    const missing = await w.api.request('POST', '/v1/detect/full', { bounds: b, job_id: 999_999 });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('Job not found');
    const unknown = await w.api.request('POST', '/v1/detect/full', { bounds: b, polygon: [] });
    expect(unknown.status).toBe(400);
  });

  it('a 10-acre box works in one call', async () => {
    const w = await t.workspace();
    // 201 m × 201 m = 10 acres around the lot.
    const half = 100.6;
    const dLat = half / 111_320;
    const dLng = half / (111_320 * Math.cos((ORIGIN.lat * Math.PI) / 180));
    const bounds = {
      north: ORIGIN.lat + dLat,
      south: ORIGIN.lat - dLat,
      east: ORIGIN.lng + dLng,
      west: ORIGIN.lng - dLng,
    };
    const m = (await ok(w.api.request('POST', '/v1/detect/full', { bounds }))).data;
    within(m.area, squareFeet(scene.truth.pavedM2), 0.05);
    expect(m.imagery.width).toBeGreaterThan(1500);
  });
});

describe('a lot with a building and trees in it', () => {
  it('measures the pavement around the building within 5% of the drawn truth, its paint within 10%', async () => {
    const busy = syntheticLot(21, { surface: 'asphalt', building: true, trees: 4, rotationDeg: 0 });
    tiles.scene = busy;
    try {
      const w = await t.workspace();
      const m = (await ok(w.api.request('POST', '/v1/detect/full', { bounds: boundsAround(busy) }))).data;
      // The truth is the lot less the building; canopy over the pavement still counts (it is paved).
      within(m.area, squareFeet(busy.truth.pavedM2), 0.05);
      const lines = m.totals.lines.reduce((n: number, l: any) => n + l.linear_feet, 0);
      within(lines, feet(busy.truth.lineLengthM.white + busy.truth.lineLengthM.yellow), 0.1);
      // The building is a hole of the paved area, not pavement.
      const area = (await ok(w.api.request('GET', `/v1/measurements/${m.id}/shapes?kind=area`))) as any;
      expect(area.data[0].coordinates.length).toBeGreaterThan(1);
    } finally {
      tiles.scene = scene;
    }
  });
});

describe('POST /v1/detect/address and /v1/detect/tiles', () => {
  it('an address: the geocoder, then a 150 m box around its point', async () => {
    const w = await t.workspace();
    const m = (await ok(w.api.request('POST', '/v1/detect/address', { address: '1 Main St, Columbus, OH' }))).data;
    expect(m).toMatchObject({
      started_from: 'address',
      address: '1 Main St, Columbus, OH',
      name: '1 Main St, Columbus, OH',
    });
    expect(m.bounds.north - m.bounds.south).toBeCloseTo(150 / 111_320, 6);
    within(m.area, squareFeet(scene.truth.pavedM2), 0.05);
    const nowhere = await w.api.request('POST', '/v1/detect/address', { address: '99 Nowhere Rd' });
    expect(nowhere.status).toBe(422);
    expect(nowhere.body).toMatchObject({ error: 'address_not_found', code: 'address_not_found' });
  });

  it('a tile range: the tiles exactly', async () => {
    const w = await t.workspace();
    const c = toPixel(ORIGIN.lat, ORIGIN.lng, 20);
    const x = Math.floor(c.x / 256);
    const y = Math.floor(c.y / 256);
    const body = { z: 20, x_min: x - 1, x_max: x + 1, y_min: y - 1, y_max: y + 1 };
    const m = (await ok(w.api.request('POST', '/v1/detect/tiles', body))).data;
    expect(m).toMatchObject({ started_from: 'tiles', tiles: body, imagery: { zoom: 20, width: 768, height: 768 } });
    expect(m.area).toBeGreaterThan(0);
    const big = await w.api.request('POST', '/v1/detect/tiles', { ...body, x_max: x + 20 });
    expect(big.status).toBe(400);
    const backwards = await w.api.request('POST', '/v1/detect/tiles', { ...body, x_max: x - 2 });
    expect(backwards.status).toBe(400);
  });
});

describe('imagery and geocoder failures', () => {
  it('no imagery configured → 500 imagery_unavailable, nothing made', async () => {
    const app = await startApp();
    try {
      const w = await app.workspace();
      const res = await w.api.request('POST', '/v1/detect/full', { bounds: boundsAround(scene) });
      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({ error: 'imagery_unavailable', code: 'imagery_unavailable' });
      expect((await ok(w.api.request('GET', '/v1/measurements'))).data).toEqual([]);
    } finally {
      await app.close();
    }
  });

  const cases: [string, () => void, string, Record<string, unknown>, number, string][] = [
    [
      'a tile server that fails',
      () => (tiles.mode = 'broken'),
      '/v1/detect/full',
      { bounds: null },
      502,
      'imagery_unavailable',
    ],
    ['no tiles there', () => (tiles.mode = 'missing'), '/v1/detect/full', { bounds: null }, 422, 'no_imagery_coverage'],
    [
      'a geocoder that fails',
      () => (geocoderDown = true),
      '/v1/detect/address',
      { address: '1 Main St' },
      502,
      'geocode_failed',
    ],
  ];
  it.each(cases)('%s → %s %s, nothing made', async (_name, breakIt, route, body, status, code) => {
    const w = await t.workspace();
    breakIt();
    try {
      const res = await w.api.request('POST', route, body.bounds === null ? { bounds: boundsAround(scene) } : body);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body).toMatchObject({ error: code, code });
    } finally {
      tiles.mode = 'lot';
      geocoderDown = false;
    }
    expect((await ok(w.api.request('GET', '/v1/measurements'))).data).toEqual([]);
  });
});

describe('reading, changing and deleting', () => {
  it('lists by job, reads, renames, moves between jobs, locks, and deletes with Delete records', async () => {
    const w = await t.workspace();
    const a = await job(w.api, { name: 'Job A' });
    const b = await job(w.api, { name: 'Job B' });
    const m1 = (await ok(w.api.request('POST', '/v1/detect/full', { bounds: boundsAround(scene), job_id: a.id }))).data;
    const m2 = (await ok(w.api.request('POST', '/v1/detect/full', { bounds: boundsAround(scene) }))).data;
    const list = await ok(w.api.request('GET', `/v1/measurements?job_id=${a.id}`));
    expect((list as any).data.map((m: any) => m.id)).toEqual([m1.id]);
    expect((await ok(w.api.request('GET', '/v1/measurements'))).data.map((m: any) => m.id)).toEqual([m2.id, m1.id]);
    const moved = (await ok(w.api.request('PATCH', `/v1/measurements/${m1.id}`, { name: 'Front', job_id: b.id }))).data;
    expect(moved).toMatchObject({ name: 'Front', job_id: b.id });
    expect(await measurementCount(w, a.id)).toBe(0);
    expect(await measurementCount(w, b.id)).toBe(1);
    const typed = (await ok(w.api.request('PATCH', `/v1/measurements/${m1.id}`, { typed_quantities: { stalls: 40 } })))
      .data;
    expect(typed.totals.counts.find((c: any) => c.category === 'stalls')).toMatchObject({ count: 40, typed: true });
    const bad = await w.api.request('PATCH', `/v1/measurements/${m1.id}`, { typed_quantities: { unicorns: 1 } });
    expect(bad.status).toBe(400);
    const readWrite = await t.key(w.firmId, w.ownerId, ['read_measurements', 'write_measurements']);
    const refused = await t.as(readWrite).request('DELETE', `/v1/measurements/${m1.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('API key lacks delete permission');
    expect((await w.api.request('DELETE', `/v1/measurements/${m1.id}`)).status).toBe(204);
    expect((await w.api.request('GET', `/v1/measurements/${m1.id}`)).status).toBe(404);
    expect(await measurementCount(w, b.id)).toBe(0);
    const other = await t.workspace();
    const theirs = await other.api.request('GET', `/v1/measurements/${m2.id}`);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toBe('Measurement not found');
  });

  it('a job merge moves the measurements to the kept job; a deleted job takes them', async () => {
    const w = await t.workspace();
    const kept = await job(w.api, { name: 'Kept job' });
    const away = await job(w.api, { name: 'Away job' });
    const m = (await ok(w.api.request('POST', '/v1/detect/full', { bounds: boundsAround(scene), job_id: away.id })))
      .data;
    await ok(w.api.post(`/v1/jobs/${away.id}/merge`, { into_job_id: kept.id }));
    expect((await ok(w.api.request('GET', `/v1/measurements/${m.id}`))).data.job_id).toBe(kept.id);
    expect(await measurementCount(w, kept.id)).toBe(1);
    // A job deleted outright takes its measurements with it.
    expect((await w.api.request('DELETE', `/v1/jobs/${kept.id}`)).status).toBe(204);
    expect((await w.api.request('GET', `/v1/measurements/${m.id}`)).status).toBe(404);
  });

  it('each accepted detect counts as one call; a refused one does not', async () => {
    const app = await startApp({
      rateLimit: { max: 2, windowMs: 600_000 },
      imagery: imageryFor({ standardUrl: tiles.template('lot'), premiumUrl: null, cacheMb: 0 }, dataDir(), true),
      geocoder: httpGeocoder(base, { cacheSize: 0 }),
    });
    try {
      const w = await app.workspace();
      for (let i = 0; i < 4; i++)
        expect((await w.api.request('POST', '/v1/detect/address', { address: '99 Nowhere Rd' })).status).toBe(422);
      expect((await w.api.request('POST', '/v1/detect/full', { bounds: boundsAround(scene) })).status).toBe(201);
      // One call left: a read spends it, and the next detect is refused before any imagery is read.
      expect((await w.api.get('/v1/measurements')).status).toBe(200);
      const refused = await w.api.request('POST', '/v1/detect/full', { bounds: boundsAround(scene) });
      expect(refused.status).toBe(429);
    } finally {
      await app.close();
    }
  });
});

describe('the segmentation endpoint (GROUNDWORK_SEGMENTATION_URL)', () => {
  it('replaces the built-in detector; a bad answer is 502 detection_failed', async () => {
    const app = await startApp({
      imagery: imageryFor({ standardUrl: tiles.template('lot'), premiumUrl: null, cacheMb: 0 }, dataDir(), true),
      segmentation: httpSegmentation(`${base}/segment`, { timeoutMs: 5_000 }),
    });
    try {
      const w = await app.workspace();
      segmentAnswer = {
        surfaces: [
          {
            surface: 'concrete',
            rings: [
              [
                [10, 10],
                [110, 10],
                [110, 60],
                [10, 60],
              ],
            ],
          },
        ],
        lines: [
          {
            colour: 'yellow',
            points: [
              [20, 20],
              [100, 20],
            ],
          },
        ],
        stalls: [],
      };
      const m = (await ok(w.api.request('POST', '/v1/detect/full', { bounds: boundsAround(scene) }))).data;
      expect(m.detector).toBe('segmentation');
      expect(m.totals.areas).toEqual([expect.objectContaining({ surface: 'concrete', count: 1 })]);
      // 100 × 50 px at the image's meters per pixel.
      within(m.area, squareFeet(5000 * m.imagery.meters_per_pixel ** 2), 0.01);
      within(m.totals.lines[0].linear_feet, feet(80 * m.imagery.meters_per_pixel), 0.01);
      const shapes = (await ok(w.api.request('GET', `/v1/measurements/${m.id}/shapes`))) as any;
      const empty = await w.api.request('POST', `/v1/measurements/${m.id}/edits`, {
        base_rev: 1,
        confirm_remove_all_areas: true,
        operations: shapes.data.map((s: any) => ({ op: 'remove', id: s.id })),
      });
      expect(empty.status).toBe(422);
      expect(empty.body.error).toBe('Takeoff would be empty');
      segmentAnswer = { surfaces: 'nope' };
      const bad = await w.api.request('POST', '/v1/detect/full', { bounds: boundsAround(scene) });
      expect(bad.status).toBe(502);
      expect(bad.body).toMatchObject({ error: 'Detection failed', code: 'detection_failed' });
    } finally {
      await app.close();
    }
  });
});
