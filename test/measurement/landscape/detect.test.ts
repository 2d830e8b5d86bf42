// Detect runs over HTTP (document 3: POST /v1/landscape-takeoffs/{id}/detect, the Landscape run,
// the detect and billing rules, undo; document 1's limits; docs/landscape.md): a real local tile
// server, and a real local segmentation endpoint that answers each image with ground the test
// lays out in [lat, lng] (segmenter.ts), so every rule is checked against exact shapes. The worker
// task runs the runs as `groundwork worker` would. The built-in detector's own accuracy is held in
// test/engines/landscape and, end to end, in builtin.test.ts.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { polygonAreaM2, squareFeet, type LatLng } from '#engines/geometry/index.ts';
import { syntheticLot } from '#engines/paved/synthetic-lot.ts';
import { landscapeRunTask } from '#measurement/index.ts';
import { systemClock } from '#platform/clock.ts';
import { httpGeocoder } from '#platform/geocoding.ts';
import { imageryFor } from '#platform/imagery/select.ts';
import { httpSegmentation } from '#platform/segmentation.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { job, ok } from '#test/helpers/records.ts';
import { startServeWorker } from '#test/helpers/serve-worker.ts';
import { type LotTiles, ORIGIN, startLotTiles } from '../lot-tiles.ts';
import { pointAt, type Segmenter, squareAt, startSegmenter } from './segmenter.ts';

let tiles: LotTiles;
let seg: Segmenter;
let geocoder: http.Server;
let t: TestApp;

beforeAll(async () => {
  tiles = await startLotTiles(syntheticLot(3, { surface: 'asphalt', building: false, trees: 0, rotationDeg: 0 }));
  seg = await startSegmenter();
  geocoder = http.createServer((req, res) => {
    const q = (new URL(req.url!, 'http://x').searchParams.get('q') ?? '').toLowerCase();
    const body = q.startsWith('1 main') ? [{ lat: String(ORIGIN.lat), lon: String(ORIGIN.lng), display_name: q }] : [];
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => geocoder.listen(0, '127.0.0.1', resolve));
  t = await startApp({
    imagery: imageryFor(
      { standardUrl: tiles.template('lot'), premiumUrl: null, cacheMb: 0 },
      fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-landscape-')),
      true,
    ),
    // The limit is for a hang: a window takes well under a second alone, seconds beside the suite.
    segmentation: httpSegmentation(seg.url, { timeoutMs: 30_000 }),
    geocoder: httpGeocoder(`http://127.0.0.1:${(geocoder.address() as AddressInfo).port}`, { cacheSize: 0 }),
  });
});
afterAll(async () => {
  await t?.close();
  await tiles?.close();
  await seg?.close();
  await new Promise<void>((resolve) => geocoder.close(() => resolve()));
});

/** Runs every pending run to its end, as the worker does. */
async function work(): Promise<void> {
  const task = landscapeRunTask(t.env, { clock: systemClock, leaseMs: 60_000 });
  while ((await task.sweep()) > 0);
}

async function workspace(credits = 10): Promise<Workspace & { jobId: number }> {
  const w = await t.workspace();
  await ok(t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { takeoff_credits: credits } }));
  const jobId = (await job(w.api, { name: 'Elm Park', address: '1 Main St, Columbus' })).id;
  return { ...w, jobId };
}

const creditsOf = async (w: Workspace) =>
  (await ok(t.admin.get(`/admin/v1/workspaces/${w.firmId}`))).data.settings.takeoff_credits as number;

const takeoff = async (w: Workspace & { jobId: number }, body: Record<string, unknown> = {}) =>
  (await ok(w.api.request('POST', `/v1/jobs/${w.jobId}/landscape-takeoffs`, { type: 'aerial', ...body }))).data;

/** The outline every test detects in: an 80 m square around the origin. */
const OUTLINE = squareAt(ORIGIN, 0, 0, 80);

async function detect(w: Workspace, id: number, body: Record<string, unknown> = {}) {
  const res = await w.api.request('POST', `/v1/landscape-takeoffs/${id}/detect`, { polygon: OUTLINE, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.data;
}

async function runOf(w: Workspace, id: number) {
  return (await ok(w.api.request('GET', `/v1/landscape-runs/${id}`))).data;
}

async function itemsOf(w: Workspace, id: number) {
  return (await ok(w.api.request('GET', `/v1/landscape-takeoffs/${id}/items?limit=200`))).data as any[];
}

const sqft = (rings: LatLng[][]) => squareFeet(polygonAreaM2(rings));

describe('a detect run', () => {
  it('starts pending with its poll_url, completes in the worker with what it found inside the outline', async () => {
    const w = await workspace();
    const tk = await takeoff(w);
    seg.ground = {
      areas: [
        { class: 'lawn', rings: [squareAt(ORIGIN, 0, 0, 30)] },
        // Half of this bed lies outside the outline: only the inside half is kept.
        { class: 'mulch', rings: [squareAt(ORIGIN, 40, 0, 10)] },
      ],
      objects: [
        { class: 'deciduous', point: pointAt(ORIGIN, 5, 5) },
        { class: 'shrub', point: pointAt(ORIGIN, -10, 5) },
        { class: 'evergreen', point: pointAt(ORIGIN, 100, 100) },
      ],
    };
    const run = await detect(w, tk.id);
    expect(run).toMatchObject({
      object: 'landscape_run',
      kind: 'detect',
      status: 'pending',
      takeoff_id: tk.id,
      poll_url: `/v1/landscape-runs/${run.id}`,
      credit_used: true,
      result: null,
      failure: null,
    });
    expect(run.request).toMatchObject({ include_areas: true, include_objects: true, replace_existing: false });
    await work();
    const done = await runOf(w, run.id);
    expect(done.status, JSON.stringify(done.failure)).toBe('completed');
    expect(done.result).toMatchObject({
      takeoff_id: tk.id,
      rev: 2,
      added: { areas: 2, objects: 2 },
      removed: 0,
      detector: 'segmentation',
      imagery: { source: 'standard', zoom: 20, windows: 1 },
    });
    const items = await itemsOf(w, tk.id);
    const lawn = items.find((i) => i.class === 'lawn');
    const mulch = items.find((i) => i.class === 'mulch');
    expect(lawn).toMatchObject({ source: 'detected', run_id: run.id, phase: 'Phase 1' });
    // Placed through the image's pixels: within a pixel's share of the truth.
    expect(lawn.area_sqft / sqft([squareAt(ORIGIN, 0, 0, 30)])).toBeCloseTo(1, 2);
    expect(mulch.area_sqft / (sqft([squareAt(ORIGIN, 40, 0, 10)]) / 2)).toBeCloseTo(1, 1);
    expect(items.filter((i) => i.kind === 'object').map((i) => i.class)).toEqual(['deciduous', 'shrub']);
    const tkNow = (await ok(w.api.request('GET', `/v1/landscape-takeoffs/${tk.id}`))).data;
    expect(tkNow.quantities).toMatchObject({ tree_count: 1, object_count: 2 });
    expect(tkNow.ai_detection.credit_used).toBe(true);
    expect(seg.asked.at(-1)?.task).toBe('landscape');
    const history = (await ok(w.api.request('GET', `/v1/landscape-takeoffs/${tk.id}/history`))).data;
    expect(history[0]).toMatchObject({ change: 'detect', run_id: run.id, replaced: [] });
  });

  it('never covers road or parking; adding clips to areas already there; a tree within 1 m of a counted one is skipped', async () => {
    const w = await workspace();
    const tk = await takeoff(w);
    await ok(
      w.api.request('POST', `/v1/landscape-takeoffs/${tk.id}/items`, {
        items: [
          { class: 'parking', polygon: squareAt(ORIGIN, -10, 0, 20) },
          { class: 'mulch', polygon: squareAt(ORIGIN, 10, 0, 20) },
          { class: 'deciduous', point: pointAt(ORIGIN, 20, 20) },
        ],
      }),
    );
    // A 60 × 19 m lawn over both squares (x -20 to 0 and 0 to 20): its two ends stay, 10 × 19 m each.
    const lawn = [
      pointAt(ORIGIN, -30, 9.5),
      pointAt(ORIGIN, 30, 9.5),
      pointAt(ORIGIN, 30, -9.5),
      pointAt(ORIGIN, -30, -9.5),
    ];
    seg.ground = {
      areas: [{ class: 'lawn', rings: [lawn] }],
      objects: [
        { class: 'deciduous', point: pointAt(ORIGIN, 20.5, 20) },
        { class: 'deciduous', point: pointAt(ORIGIN, 23, 20) },
        { class: 'evergreen', point: pointAt(ORIGIN, 23.6, 20) },
      ],
    };
    const run = await detect(w, tk.id);
    await work();
    const done = await runOf(w, run.id);
    expect(done.status, JSON.stringify(done.failure)).toBe('completed');
    expect(done.result).toMatchObject({ added: { areas: 2, objects: 1 }, skipped_objects: 2 });
    const lawns = (await itemsOf(w, tk.id)).filter((i) => i.class === 'lawn');
    const end = (e: number) => [
      pointAt(ORIGIN, e - 5, 9.5),
      pointAt(ORIGIN, e + 5, 9.5),
      pointAt(ORIGIN, e + 5, -9.5),
      pointAt(ORIGIN, e - 5, -9.5),
    ];
    const expected = sqft([end(-25)]) + sqft([end(25)]);
    const got = lawns.reduce((s, i) => s + i.area_sqft, 0);
    expect(got / expected).toBeCloseTo(1, 2);
    expect(done.result.clipped_sqft / (sqft([lawn]) - expected)).toBeCloseTo(1, 2);
  });

  it('replace_existing replaces model-found items of the detected classes and keeps hand-drawn ones', async () => {
    const w = await workspace();
    const tk = await takeoff(w);
    const [drawn] = (
      await ok(
        w.api.request('POST', `/v1/landscape-takeoffs/${tk.id}/items`, {
          items: [{ class: 'lawn', polygon: squareAt(ORIGIN, -30, -30, 10) }],
        }),
      )
    ).data;
    seg.ground = { areas: [{ class: 'lawn', rings: [squareAt(ORIGIN, 10, 10, 20)] }], objects: [] };
    const first = await detect(w, tk.id);
    await work();
    seg.ground = { areas: [{ class: 'lawn', rings: [squareAt(ORIGIN, 10, 10, 30)] }], objects: [] };
    const second = await detect(w, tk.id, { replace_existing: true, area_classes: ['lawn'] });
    expect(second.credit_used).toBe(false);
    await work();
    const done = await runOf(w, second.id);
    expect(done.result).toMatchObject({ removed: 1, added: { areas: 1 } });
    const items = await itemsOf(w, tk.id);
    expect(items.map((i) => [i.id === drawn.id, i.run_id])).toEqual([
      [true, null],
      [false, second.id],
    ]);
    expect((await runOf(w, first.id)).status).toBe('completed');
  });

  it('undo puts back exactly the items before the run; undone twice or pending is 409', async () => {
    const w = await workspace();
    const tk = await takeoff(w);
    seg.ground = {
      areas: [{ class: 'lawn', rings: [squareAt(ORIGIN, 0, 0, 20)] }],
      objects: [{ class: 'deciduous', point: pointAt(ORIGIN, 1, 1) }],
    };
    await detect(w, tk.id);
    await work();
    const before = await itemsOf(w, tk.id);
    seg.ground = { areas: [{ class: 'lawn', rings: [squareAt(ORIGIN, 5, 5, 40)] }], objects: [] };
    const run = await detect(w, tk.id, { replace_existing: true });
    const pending = await w.api.request('POST', `/v1/landscape-runs/${run.id}/undo`);
    expect(pending.status).toBe(409);
    expect(pending.body.code).toBe('run_not_undoable');
    await work();
    expect((await itemsOf(w, tk.id)).map((i) => i.id)).not.toEqual(before.map((i) => i.id));
    const undone = await w.api.request('POST', `/v1/landscape-runs/${run.id}/undo`);
    expect(undone.status).toBe(200);
    expect(undone.body.data).toMatchObject({ status: 'undone', undone_at: expect.any(String) });
    const after = await itemsOf(w, tk.id);
    const strip = (items: any[]) => items.map(({ updated_at, ...rest }) => rest);
    expect(strip(after)).toEqual(strip(before));
    const tkNow = (await ok(w.api.request('GET', `/v1/landscape-takeoffs/${tk.id}`))).data;
    expect(tkNow.quantities.areas[0].area_sqft).toBe(before[0].area_sqft);
    expect(tkNow.quantities.tree_count).toBe(1);
    const twice = await w.api.request('POST', `/v1/landscape-runs/${run.id}/undo`);
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe('Run already undone');
    const history = (await ok(w.api.request('GET', `/v1/landscape-takeoffs/${tk.id}/history`))).data;
    expect(history[0]).toMatchObject({ change: 'undo', run_id: run.id });
  });
});

describe('billing and limits', () => {
  it('the first model run on a takeoff uses a credit, later ones are free; none left is 402 and costs nothing', async () => {
    const w = await workspace(2);
    seg.ground = { areas: [{ class: 'lawn', rings: [squareAt(ORIGIN, 0, 0, 10)] }], objects: [] };
    const a = await takeoff(w);
    expect((await detect(w, a.id)).credit_used).toBe(true);
    expect(await creditsOf(w)).toBe(1);
    await work();
    expect((await detect(w, a.id)).credit_used).toBe(false);
    expect(await creditsOf(w)).toBe(1);
    const b = await takeoff(w);
    await detect(w, b.id);
    expect(await creditsOf(w)).toBe(0);
    const c = await takeoff(w);
    const refused = await w.api.request('POST', `/v1/landscape-takeoffs/${c.id}/detect`, { polygon: OUTLINE });
    expect(refused.status).toBe(402);
    expect(refused.body.error).toBe('No takeoff credits remaining');
    expect(await creditsOf(w)).toBe(0);
    await work();
  });

  it('a run that fails says why and gives its credit back', async () => {
    const w = await workspace(1);
    const tk = await takeoff(w);
    seg.mode = 'fail';
    try {
      const run = await detect(w, tk.id);
      expect(await creditsOf(w)).toBe(0);
      await work();
      const failed = await runOf(w, run.id);
      expect(failed).toMatchObject({ status: 'failed', credit_used: false, failure: { code: 'detection_failed' } });
      expect(failed.failure.message).toContain('HTTP 500');
    } finally {
      seg.mode = 'answer';
    }
    expect(await creditsOf(w)).toBe(1);
    expect((await ok(w.api.request('GET', `/v1/landscape-takeoffs/${tk.id}`))).data).toMatchObject({
      rev: 1,
      ai_detection: { credit_used: false },
    });
    tiles.mode = 'missing';
    try {
      const run = await detect(w, tk.id);
      await work();
      expect((await runOf(w, run.id)).failure).toMatchObject({ code: 'no_imagery_coverage' });
    } finally {
      tiles.mode = 'lot';
    }
    expect(await creditsOf(w)).toBe(1);
  });

  it('3 runs going per workspace: the rest are 429 under concurrency, and once they finish runs start again', async () => {
    const w = await workspace(20);
    seg.ground = { areas: [], objects: [] };
    const tks = await Promise.all(Array.from({ length: 5 }, () => takeoff(w)));
    const replies = await Promise.all(
      tks.map((tk) => w.api.request('POST', `/v1/landscape-takeoffs/${tk.id}/detect`, { polygon: OUTLINE })),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([202, 202, 202, 429, 429]);
    for (const r of replies.filter((r) => r.status === 429))
      expect(r.body.error).toBe('Workspace already has 3 landscape runs going');
    // Refused runs cost nothing: three credits taken.
    expect(await creditsOf(w)).toBe(17);
    await work();
    expect(
      (await w.api.request('POST', `/v1/landscape-takeoffs/${tks[0].id}/detect`, { polygon: OUTLINE })).status,
    ).toBe(202);
    await work();
  });
});

describe('refused runs', () => {
  it('Manual Aerial, AI auto-measure off, an outline far from the site: refused, no credit taken', async () => {
    const w = await workspace(5);
    const manual = await takeoff(w, { manual: true });
    const m = await w.api.request('POST', `/v1/landscape-takeoffs/${manual.id}/detect`, { polygon: OUTLINE });
    expect(m.status).toBe(409);
    expect(m.body.code).toBe('manual_aerial');

    const tk = await takeoff(w);
    const far = await w.api.request('POST', `/v1/landscape-takeoffs/${tk.id}/detect`, {
      polygon: squareAt(ORIGIN, 20_000, 0, 50),
    });
    expect(far.status).toBe(422);
    expect(far.body.code).toBe('outline_far_from_site');

    const user = await t.user(w.firmId, { name: 'Ann', email: 'ann@example.com', role: 'member' });
    await ok(t.admin.patch(`/admin/v1/workspaces/${w.firmId}/users/${user.id}`, { ai_auto_measure: false }));
    const off = await user.api.request('POST', `/v1/landscape-takeoffs/${tk.id}/detect`, { polygon: OUTLINE });
    expect(off.status).toBe(403);
    expect(off.body.code).toBe('ai_auto_measure_off');
    expect(await creditsOf(w)).toBe(5);
  });

  it('bad outlines and classes are 400 naming the field', async () => {
    const w = await workspace();
    const tk = await takeoff(w);
    const post = (body: unknown) => w.api.request('POST', `/v1/landscape-takeoffs/${tk.id}/detect`, body);
    for (const [body, text] of [
      [{}, 'Send one of polygon, polygons or bounds'],
      [
        { polygon: OUTLINE, bounds: { north: 1, south: 0, east: 1, west: 0 } },
        'Send one of polygon, polygons or bounds',
      ],
      [
        { bounds: { north: ORIGIN.lat, south: ORIGIN.lat + 0.01, east: ORIGIN.lng + 0.01, west: ORIGIN.lng } },
        'bounds.north',
      ],
      [{ bounds: { north: ORIGIN.lat + 0.04, south: ORIGIN.lat, east: ORIGIN.lng + 0.04, west: ORIGIN.lng } }, 'acres'],
      [{ polygon: OUTLINE, area_classes: ['road'] }, 'road'],
      [{ polygon: OUTLINE, area_classes: ['fescue'] }, 'fescue'],
      [{ polygon: OUTLINE, include_areas: false, include_objects: false }, 'nothing to detect'],
    ] as const) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toContain(text);
    }
    expect((await post({ polygons: Array.from({ length: 21 }, () => OUTLINE) })).status).toBe(400);
    expect((await post({ polygon: OUTLINE, extra: 1 })).status).toBe(400);
  });

  it('without imagery configured a detect is 500 imagery_unavailable', async () => {
    const bare = await startApp();
    try {
      const w = await bare.workspace();
      await ok(bare.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { takeoff_credits: 3 } }));
      const j = await job(w.api, { name: 'No imagery' });
      const tk = (await ok(w.api.request('POST', `/v1/jobs/${j.id}/landscape-takeoffs`, { type: 'aerial' }))).data;
      const res = await w.api.request('POST', `/v1/landscape-takeoffs/${tk.id}/detect`, { polygon: OUTLINE });
      expect(res.status).toBe(500);
      expect(res.body.code).toBe('imagery_unavailable');
      expect((await ok(bare.admin.get(`/admin/v1/workspaces/${w.firmId}`))).data.settings.takeoff_credits).toBe(3);
    } finally {
      await bare.close();
    }
  });
});

describe('large outlines', () => {
  it('reads a big outline in windows and merges what they cut apart', async () => {
    const w = await workspace();
    const tk = await takeoff(w);
    const lawn = squareAt(ORIGIN, 0, 0, 120);
    seg.ground = {
      areas: [{ class: 'lawn', rings: [lawn] }],
      objects: [-40, 40].flatMap((e) => [-40, 40].map((n) => ({ class: 'deciduous', point: pointAt(ORIGIN, e, n) }))),
    };
    seg.asked = [];
    const run = await detect(w, tk.id, { polygon: squareAt(ORIGIN, 0, 0, 300) });
    await work();
    const done = await runOf(w, run.id);
    expect(done.status, JSON.stringify(done.failure)).toBe('completed');
    expect(done.result.imagery.windows).toBeGreaterThan(1);
    expect(seg.asked.length).toBe(done.result.imagery.windows);
    const lawns = (await itemsOf(w, tk.id)).filter((i) => i.class === 'lawn');
    expect(lawns).toHaveLength(1);
    expect(lawns[0].area_sqft / sqft([lawn])).toBeCloseTo(1, 2);
    expect(done.result.added.objects).toBe(4);
    // Several windows of tiles fetched, drawn and segmented: 5–10 s alone, over 30 s beside the
    // whole suite; the limit is for a hang.
  }, 120_000);
});

describe('inside serve', () => {
  it('a run starts when the request that queued it commits, not at the worker’s poll', async () => {
    const w = await workspace();
    const tk = await takeoff(w);
    seg.ground = { areas: [{ class: 'lawn', rings: [squareAt(ORIGIN, 0, 0, 30)] }], objects: [] };
    const worker = await startServeWorker(t.env, 60_000);
    try {
      const run = await detect(w, tk.id);
      await vi.waitFor(async () => expect((await runOf(w, run.id)).status).toBe('completed'), {
        timeout: 30_000,
        interval: 50,
      });
      expect((await runOf(w, run.id)).result.added.areas).toBe(1);
      expect(worker.errors).toEqual([]);
    } finally {
      await worker.stop();
    }
  }, 60_000);
});
