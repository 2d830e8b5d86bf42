// Landscape benchmark (docs/performance.md, "Landscape"), issue 28's two measurements: a detect
// over 10 acres (a 201 m × 201 m square outline) timed end to end, against fetching and decoding
// the same tiles alone; and a 20-page plan stored and read, against rendering its pages with MuPDF
// alone, with an advanced run on it against the plan engine alone (bench/landscape-plans.ts).
//
// - The detect: POST /v1/landscape-takeoffs/{id}/detect (202, a pending run) over real HTTP on the
//   app as buildApp makes it, then the worker task (landscapeRunTask(env).sweep(), in this process,
//   as `groundwork serve`'s worker runs it) until the run is done, then GET /v1/landscape-runs/{id}
//   showing it completed: what an integrator waits from asking to reading the answer, less the
//   worker's polling interval. Each detect is on a new takeoff (made untimed before it), so each
//   is a takeoff's first run and finds nothing already there.
// - The baseline: the tiles the run's window mosaic fetches, fetched and decoded to raw pixels with
//   sharp, 6 at a time as the mosaic does (bench/tiles.ts).
// - Where the time goes: the imagery service's mosaic of the same window alone, and the built-in
//   detector (detectLandscape) alone on the mosaic's pixels.
//
// The imagery is a local XYZ server (bench/tile-server.ts) of synthetic front yards
// (engines/landscape's generator) repeated over the site: the world at each zoom is cut into cells
// of CELL_TILES × CELL_TILES tiles, each cell holding one yard (one of YARD_SEEDS, chosen by the
// cell) centred in it, plain ground between them. So the outline holds lawns, beds, mulch, drives,
// houses and trees, as a neighbourhood does. JPEG tiles, drawn on first request, served from
// memory afterwards; the tile cache is off, so every detect fetches its tiles.
//
//   npm run bench:landscape                SQLite file database in a temp dir
//   DATABASE_URL=postgres://… npm run bench:landscape   PostgreSQL (a fresh schema, dropped afterwards)
//   npm run bench:landscape -- --quick     fewer rounds
//   npm run bench:landscape -- --smoke     seconds, for CI (bench/mode.ts): a 60 m outline and a 3-page
//                                          plan, one call of each
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { buildApp } from '#src/app.ts';
import { isPostgresUrl } from '#src/config.ts';
import { startEnv } from '#src/env.ts';
import type { Database } from '#db/database.ts';
import type { LatLng } from '#engines/geometry/index.ts';
import { detectLandscape } from '#engines/landscape/index.ts';
import { syntheticYard, type YardScene } from '#engines/landscape/synthetic-yard.ts';
import { drawYardWindow } from '#engines/landscape/synthetic-yard-draw.ts';
import { metersToLatLng } from '#engines/paved/lot-geo.ts';
import { updateWorkspace } from '#admin/workspaces.ts';
import { boxOf } from '#measurement/landscape/outline.ts';
import { landscapeRunTask } from '#measurement/landscape/run-worker.ts';
import { windowsOf } from '#measurement/landscape/windows.ts';
import { systemClock } from '#platform/clock.ts';
import type { ImageryPlace } from '#platform/imagery/imagery.ts';
import { imageryFor } from '#platform/imagery/select.ts';
import { fromPixel, metersPerPixel, TILE_PX, toPixel } from '#platform/imagery/web-mercator.ts';
import { call } from './api-call.ts';
import { readsMeanwhile } from './meanwhile.ts';
import { dropOnInterrupt, openBenchDatabase } from './database.ts';
import { jobBody } from './job-body.ts';
import { planBench, planReport } from './landscape-plans.ts';
import { fmt, listen, ms, revision } from './load.ts';
import { MODE_LABEL, saveReport, sized } from './mode.ts';
import { alternate, log, median, p50Of, type RoundPlan, ratioLine, ratios, roundTable, verdict } from './rounds.ts';
import { startTileServer } from './tile-server.ts';
import { fetchTiles, PARALLEL_TILES, tileUrls } from './tiles.ts';
import { benchWorkspace } from './workspace.ts';

const databaseUrl =
  process.env.DATABASE_URL && isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : null;

/** The outline's side: 201 m is 10 acres. */
const SITE_M = sized(201, 201, 60);
const SITE_CENTRE = { lat: 39.9612, lng: -82.9988 };
const PLAN: RoundPlan = {
  warmup: sized(2, 1, 1),
  rounds: sized(5, 3, 1),
  /** A detect takes a second or more: 3 calls of each side a round, no minimum time. */
  perRound: sized(3, 2, 1),
  minSideS: 0,
};
const TARGET = 2;
/** The yards drawn, one per cell (generator defaults: some rotated, 3–6 trees, beds, mulch, soil). */
const YARD_SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
/** Plain ground kept between a yard's drawn extent and its cell's edge, m. */
const GAP_M = 1;

const scenes = new Map<number, YardScene>(YARD_SEEDS.map((seed) => [seed, syntheticYard(seed)]));
/** Cell side in tiles: the largest yard with its gap fits a cell at zoom 20 at the site's latitude. */
const CELL_TILES = (() => {
  const tileM = TILE_PX * metersPerPixel(SITE_CENTRE.lat, 20);
  const side = Math.max(...[...scenes.values()].map(({ extent: [w, s, e, n] }) => Math.max(e - w, n - s) + 2 * GAP_M));
  return Math.ceil(side / tileM);
})();

/** The yard of cell (cx, cy): a seed from the pool, neighbours differing. */
function yardOfCell(cx: number, cy: number): YardScene {
  const n = YARD_SEEDS.length;
  return scenes.get(YARD_SEEDS[(((cx * 5 + cy * 7) % n) + n) % n]!)!;
}

/** One tile: the yard of its cell, the yard's extent centred in the cell. */
function drawTile(zoom: number, x: number, y: number) {
  const cx = Math.floor(x / CELL_TILES);
  const cy = Math.floor(y / CELL_TILES);
  const scene = yardOfCell(cx, cy);
  const [w, s, e, n] = scene.extent;
  const centre = fromPixel((cx + 0.5) * CELL_TILES * TILE_PX, (cy + 0.5) * CELL_TILES * TILE_PX, zoom);
  const mpp = metersPerPixel(centre.lat, zoom);
  // The scene's origin (its meters' 0, 0) so that the extent's middle lands on the cell's centre.
  const origin = fromPixel(
    (cx + 0.5) * CELL_TILES * TILE_PX - (w + e) / 2 / mpp,
    (cy + 0.5) * CELL_TILES * TILE_PX + (s + n) / 2 / mpp,
    zoom,
  );
  return drawYardWindow(scene, {
    originLat: origin.lat,
    originLng: origin.lng,
    zoom,
    left: x * TILE_PX,
    top: y * TILE_PX,
    width: TILE_PX,
    height: TILE_PX,
  });
}

/** The outline: a SITE_M square centred on SITE_CENTRE, as [lat, lng] from its north-west corner. */
function outline(): LatLng[] {
  const frame = { originLat: SITE_CENTRE.lat, originLng: SITE_CENTRE.lng, zoom: 20 };
  const [south, west] = metersToLatLng(frame, [-SITE_M / 2, -SITE_M / 2]);
  const [north, east] = metersToLatLng(frame, [SITE_M / 2, SITE_M / 2]);
  return [
    [north, west],
    [north, east],
    [south, east],
    [south, west],
  ];
}

/** Yards centred inside the outline at `zoom` (their cell's centre inside its box), and their trees. */
function yardsInside(ring: LatLng[], zoom: number): { yards: number; trees: number } {
  const b = boxOf(ring);
  const nw = toPixel(b.north, b.west, zoom);
  const se = toPixel(b.south, b.east, zoom);
  const cell = CELL_TILES * TILE_PX;
  let yards = 0;
  let trees = 0;
  for (let cy = Math.ceil(nw.y / cell - 0.5); (cy + 0.5) * cell <= se.y; cy++)
    for (let cx = Math.ceil(nw.x / cell - 0.5); (cx + 0.5) * cell <= se.x; cx++) {
      yards++;
      trees += yardOfCell(cx, cy).truth.trees.length;
    }
  return { yards, trees };
}

async function detectBench(database: Database, { key, firmId }: { key: string; firmId: number }) {
  // Every detect is a new takeoff's first model run, which takes a credit.
  await updateWorkspace(database, firmId, { settings: { takeoff_credits: 100_000 } });
  const tiles = await startTileServer(drawTile);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-bench-landscape-'));
  // The tile cache off (0 MB): every detect and every mosaic fetches its tiles.
  const imagery = imageryFor({ standardUrl: tiles.template, premiumUrl: null, cacheMb: 0 }, dataDir, true);
  const env = startEnv(database, { dataDir, imagery });
  const worker = landscapeRunTask(env, { clock: systemClock, leaseMs: 10 * 60_000 });
  const app = await buildApp(database, {
    env,
    adminToken: null,
    rateLimit: { max: 1e9, windowMs: 1000 },
    logLevel: false,
  });
  try {
    const api = await listen(app);
    const ring = outline();
    const job = (await call(api, key, 'POST', '/v1/jobs', 201, jobBody())).data;
    const newTakeoff = async () =>
      (await call(api, key, 'POST', `/v1/jobs/${job.id}/landscape-takeoffs`, 201, { type: 'aerial' })).data
        .id as number;

    // The run's windows (windows.ts), as places the imagery frames with its margin (see.ts).
    const plan = windowsOf(boxOf(ring));
    const places: ImageryPlace[] = plan.windows.map((w) => ({
      polygon: [
        [w.north, w.west],
        [w.north, w.east],
        [w.south, w.east],
        [w.south, w.west],
      ],
    }));
    const urls = places.flatMap((place) => tileUrls(tiles.template, place, plan.zoom));

    // One detect end to end; each one's parts kept, to tell the POST, the worker and the GET apart.
    const parts = { post: [] as number[], sweep: [] as number[], get: [] as number[] };
    let takeoffId = 0;
    const detect = async () => {
      const t0 = performance.now();
      const run = (await call(api, key, 'POST', `/v1/landscape-takeoffs/${takeoffId}/detect`, 202, { polygon: ring }))
        .data;
      const t1 = performance.now();
      let swept = 0;
      while ((await worker.sweep()) > 0) swept++;
      const t2 = performance.now();
      const done = (await call(api, key, 'GET', `/v1/landscape-runs/${run.id}`, 200)).data;
      const t3 = performance.now();
      if (done.status !== 'completed' || swept !== 1)
        throw new Error(`run ${run.id}: ${done.status} after ${swept} sweeps ${JSON.stringify(done.failure)}`);
      parts.post.push(t1 - t0);
      parts.sweep.push(t2 - t1);
      parts.get.push(t3 - t2);
      return done;
    };

    takeoffId = await newTakeoff();
    tiles.requests = 0;
    const first = await detect();
    if (tiles.requests !== urls.length)
      throw new Error(`the detect fetched ${tiles.requests} tiles, the baseline fetches ${urls.length}`);
    const takeoff = (await call(api, key, 'GET', `/v1/landscape-takeoffs/${takeoffId}`, 200)).data;

    const mosaics = await Promise.all(
      places.map((place) => imagery.mosaic(place, { source: 'standard', zoom: plan.zoom })),
    );
    const inputs = mosaics.map((m) => ({ width: m.meta.width, height: m.meta.height, channels: 3 as const }));
    let copies: Uint8Array[] = [];
    const size = inputs.map((i) => `${fmt(i.width)} × ${fmt(i.height)}`).join(', ');
    const FETCH = `the ${urls.length} tiles fetched and decoded alone, ${PARALLEL_TILES} at a time (baseline)`;
    const MOSAIC = `the imagery service's mosaic alone (fetch, decode, lay out, cut), ${plan.windows.length} window(s)`;
    const DETECTOR = `detectLandscape alone on the ${size} px mosaic`;
    const API = 'POST …/detect, the worker until completed, GET the run';
    parts.post.length = parts.sweep.length = parts.get.length = 0;
    const rows = await alternate(
      'detect',
      [
        { label: FETCH, run: () => fetchTiles(urls, true) },
        {
          label: MOSAIC,
          run: async () => {
            for (const place of places) await imagery.mosaic(place, { source: 'standard', zoom: plan.zoom });
          },
        },
        {
          label: DETECTOR,
          // A copy of the pixels, as see.ts hands the detector one.
          before: () => {
            copies = mosaics.map((m) => new Uint8Array(m.pixels));
          },
          run: async () => {
            for (const [i, m] of mosaics.entries())
              await detectLandscape({ ...inputs[i]!, data: copies[i]! }, { metersPerPixel: m.meta.meters_per_pixel });
          },
        },
        {
          label: API,
          before: async () => {
            takeoffId = await newTakeoff();
          },
          run: async () => {
            await detect();
          },
        },
      ],
      PLAN,
    );
    // The server's other answers while a detect runs: the worker task shares this process's event
    // loop, as it does inside `serve`.
    takeoffId = await newTakeoff();
    const meanwhile = await readsMeanwhile(api, key, detect);
    return {
      rows,
      meanwhile,
      ratio: ratios(rows, API, FETCH),
      overMosaic: ratios(rows, API, MOSAIC),
      detectorShare: ratios(rows, DETECTOR, API),
      mosaicShare: ratios(rows, MOSAIC, API),
      apiMs: p50Of(rows, API),
      detectorMs: p50Of(rows, DETECTOR),
      mosaicMs: p50Of(rows, MOSAIC),
      fetchMs: p50Of(rows, FETCH),
      // The warm-up detects left out.
      parts: {
        post: median(parts.post.slice(PLAN.warmup)),
        sweep: median(parts.sweep.slice(PLAN.warmup)),
        get: median(parts.get.slice(PLAN.warmup)),
      },
      first,
      quantities: takeoff.quantities as {
        areas: { class: string; count: number; area_sqft: number }[];
        objects: { class: string; count: number }[];
        tree_count: number;
      },
      itemCount: takeoff.item_count as number,
      urls: urls.length,
      plan,
      meta: mosaics.map((m) => m.meta),
      tileBytes: tiles.drawn(),
      inside: yardsInside(ring, plan.zoom),
    };
  } finally {
    await app.close();
    await tiles.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<string> {
  const { database, describe, drop } = await openBenchDatabase({ url: databaseUrl, label: 'landscape' });
  dropOnInterrupt(drop);
  try {
    log(`engine: ${describe}`);
    const ws = await benchWorkspace(database);
    const d = await detectBench(database, ws);
    const p = await planBench(database, ws);
    const result = d.first.result as {
      added: { areas: number; objects: number; area_sqft: number };
      imagery: { zoom: number; meters_per_pixel: number; windows: number };
    };
    const meta = d.meta[0]!;
    const q = d.quantities;
    return [
      `# Landscape benchmark${MODE_LABEL}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${revision()}`,
      '',
      `- ${describe}; app, worker task, client and tile server in one process (Node ${process.version}), one detect at a time`,
      `- sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips}; ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'})`,
      `- ${PLAN.warmup} warm-up call(s) of each side, then ${PLAN.rounds} round(s) of ${PLAN.perRound} call(s) of each, order reversed every other round; a round's figure is its median`,
      '',
      `## A detect over a ${SITE_M} m × ${SITE_M} m outline`,
      '',
      `Zoom ${d.plan.zoom} (${fmt(meta.meters_per_pixel, 3)} m a pixel), ${d.plan.windows.length} window(s), a ${meta.width} × ${meta.height} px mosaic from ${d.urls} JPEG tiles ` +
        `(${fmt(d.tileBytes.min / 1024, 1)}–${fmt(d.tileBytes.max / 1024, 1)} KiB) served from memory by a local XYZ server; tile cache off. ` +
        `Synthetic yards (seeds ${YARD_SEEDS[0]}–${YARD_SEEDS.at(-1)}) repeated in cells of ${CELL_TILES} × ${CELL_TILES} tiles: ${d.inside.yards} yards centred inside the outline, ${d.inside.trees} trees in them. ` +
        `The first detect added ${result.added.areas} areas (${fmt(result.added.area_sqft)} sq ft) and ${result.added.objects} objects (${d.itemCount} items): ` +
        `${q.areas.map((a) => `${a.class} ${a.count} (${fmt(a.area_sqft)} sq ft)`).join(', ')}; ${q.objects.map((o) => `${o.class} ${o.count}`).join(', ')}; ${q.tree_count} trees.`,
      '',
      ...roundTable(d.rows),
      '',
      `- Detect ÷ the tiles fetched and decoded alone (p50), each round → median: ${ratioLine(d.ratio)}; ${verdict(d.ratio, TARGET)}.`,
      `- Detect ÷ the mosaic alone: ${ratioLine(d.overMosaic)}.`,
      `- The detector's share of a detect (detectLandscape alone ÷ detect): ${ratioLine(d.detectorShare)}; the mosaic's: ${ratioLine(d.mosaicShare)}.`,
      `- p50s over the rounds: detect ${ms(d.apiMs)} ms, detector ${ms(d.detectorMs)} ms, mosaic ${ms(d.mosaicMs)} ms, tiles fetched and decoded ${ms(d.fetchMs)} ms.`,
      `- Inside a detect (medians of the timed ones): POST …/detect ${ms(d.parts.post)} ms, the worker's sweep ${ms(d.parts.sweep)} ms, GET the run ${ms(d.parts.get)} ms; ` +
        `the sweep beyond the mosaic and the detector (claim, lease, merging, the change, the write) ≈ ${ms(d.parts.sweep - d.mosaicMs - d.detectorMs)} ms.`,
      `- While one more detect ran, \`GET /v1/landscape/classes\` back to back on the same server: ${fmt(d.meanwhile.calls)} answers, p50 ${ms(d.meanwhile.p50)} ms, slowest ${ms(d.meanwhile.max)} ms; the event loop's longest delay ${ms(d.meanwhile.loopDelayMax)} ms (the detector runs on the engine thread, platform/engine-thread.ts).`,
      '',
      ...planReport(p),
    ].join('\n');
  } finally {
    await drop();
  }
}

const report = await main();
console.log(report);
const saved = saveReport(`landscape-${databaseUrl ? 'postgres' : 'sqlite'}.md`, report);
if (saved) log(`report written to ${path.relative(process.cwd(), saved)}`);
