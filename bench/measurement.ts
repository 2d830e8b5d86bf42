// Measurement benchmark (docs/performance.md, "Measurement"), issue 27's three measurements, each
// figure a ratio against a baseline measured in the same run:
//
// 1. A 200-operation save on a 5,000-shape measurement: POST /v1/measurements/{id}/edits over real
//    HTTP (the app as buildApp makes it, on a bench database), against the edit engine alone
//    (applyOperations) applying the same 200 operations to a copy of the same loaded state.
//    Target: at most 3×.
// 2. GET /v1/measurements/{id}/shapes?limit=500 on measurements of 1k, 10k and 100k shapes, at
//    offset 0, the middle and the last page: requests a second one at a time, and the 100k
//    measurement's time over the 1k one's at each offset. Target: flat, at most 1.3×. The
//    listing's queries are then timed alone and explained on the largest measurement.
// 3. POST /v1/detect/full over a 10-acre site (201 m × 201 m), the app's standard imagery a local
//    XYZ server (bench/tile-server.ts drawing a synthetic lot, JPEG tiles served from memory) with the
//    tile cache off, against fetching the same tiles and decoding each to raw pixels with sharp
//    alone (6 at a time, as the mosaic does); the imagery service's mosaic alone and the built-in
//    detector alone on the same pixels tell where the rest goes.
//
// Everything runs in this process, one request at a time (a save, a page and a detect are each one
// user's wait), the sides alternated round by round so a change in the machine's other load falls
// on both. Measurements are seeded straight into the tables (bench/measurement-seed.ts).
//
//   npm run bench:measurement                SQLite file database in a temp dir
//   DATABASE_URL=postgres://… npm run bench:measurement   PostgreSQL (a fresh schema, dropped afterwards)
//   npm run bench:measurement -- --quick     fewer rounds; listings of 1k and 10k shapes
//   npm run bench:measurement -- --smoke     seconds, for CI (bench/mode.ts): 500 shapes, a 1k
//                                            listing, a 60 m site, one call of everything
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { CompiledQuery, sql } from 'kysely';
import sharp from 'sharp';
import { buildApp } from '#src/app.ts';
import { isPostgresUrl } from '#src/config.ts';
import type { Database } from '#db/database.ts';
import { detectPaved, type RawPixels } from '#engines/paved/index.ts';
import { metersToLatLng } from '#engines/paved/lot-geo.ts';
import { drawLotWindow } from '#engines/paved/synthetic-lot-draw.ts';
import { syntheticLot } from '#engines/paved/synthetic-lot.ts';
import { detectZoom } from '#measurement/measurements/place.ts';
import { applyOperations } from '#measurement/shapes/apply.ts';
import { editableAreasQuery, pageQuery } from '#measurement/shapes/list.ts';
import { loadState } from '#measurement/shapes/load.ts';
import { pageStart } from '#measurement/shapes/page-anchors.ts';
import type { EditState } from '#measurement/shapes/state.ts';
import type { ImageryPlace } from '#platform/imagery/imagery.ts';
import { imageryFor } from '#platform/imagery/select.ts';
import { TILE_PX } from '#platform/imagery/web-mercator.ts';
import { dropOnInterrupt, openBenchDatabase } from './database.ts';
import { call } from './api-call.ts';
import { fmt, listen, ms, revision } from './load.ts';
import { editOperations, MIX } from './measurement-edits.ts';
import { insertMeasurement, lotShapes, seeded } from './measurement-seed.ts';
import { MODE_LABEL, saveReport, sized } from './mode.ts';
import {
  alternate,
  log,
  median,
  p50Of,
  type RoundPlan,
  ratioLine,
  ratios,
  roundTable,
  type Side,
  verdict,
} from './rounds.ts';
import { startTileServer } from './tile-server.ts';
import { fetchTiles, PARALLEL_TILES, tileUrls } from './tiles.ts';
import { benchWorkspace } from './workspace.ts';

const EDIT_SHAPES = sized(5_000, 5_000, 500);
const LIST_SIZES = sized([1_000, 10_000, 100_000], [1_000, 10_000], [1_000]);
const PAGE = 500;
/** The site's side: 201 m is 10 acres. */
const SITE_M = sized(201, 201, 60);
const ROUNDS = sized(5, 3, 1);
const PER_ROUND = sized(8, 4, 1);
const MIN_SIDE_S = sized(1, 0.5, 0);
/** Detects take a second or more: fewer of them a round, and no minimum time. */
const DETECT_PER_ROUND = sized(3, 2, 1);
const WARMUP = sized(3, 2, 1);
const PLAN: RoundPlan = { warmup: WARMUP, rounds: ROUNDS, perRound: PER_ROUND, minSideS: MIN_SIDE_S };
const SAVE_TARGET = 3;
const LIST_TARGET = 1.3;
/** The lot the tile server draws (engines/paved's generator), centred on the site. */
const SCENE = { seed: 11, options: { surface: 'asphalt', building: false, trees: 2, rotationDeg: 0 } } as const;
const SITE_CENTRE = { lat: 39.9612, lng: -82.9988 };

async function measurementRow(database: Database, id: number) {
  return database.db.selectFrom('measurements').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

// ---- 1. a 200-operation save

async function saveBench(database: Database, api: string, key: string, firmId: number, userId: number) {
  const id = await insertMeasurement(database, firmId, userId, lotShapes(EDIT_SHAPES, 1), 'Bench edits');
  // Analyzed as the listing's measurements are (below): autovacuum would have done it within a minute
  // of the load on a live database, and a save's plan finds the shapes by (measurement_id, shape_id).
  if (database.dialect.engine === 'postgres') await sql`analyze measurement_shapes`.execute(database.db);
  const rand = seeded(27);
  let state: EditState = await loadState(database.db, await measurementRow(database, id));
  let rev = 1;
  // The next save's operations, chosen against the measurement as it now stands: the engine alone
  // applies exactly these to a copy of the state, and the next save sends them.
  let ops = editOperations(state, rand);
  let copy: EditState = state;
  let newIds = 0;
  const ENGINE = `applyOperations alone, ${ops.length} operations on a copy of the loaded state (baseline)`;
  const API = `POST /v1/measurements/{id}/edits, ${ops.length} operations`;
  const LOAD = `loadState alone: the measurement's ${fmt(EDIT_SHAPES)} shape rows read and parsed`;
  const rows = await alternate(
    'save',
    [
      {
        label: LOAD,
        run: async () => {
          await loadState(database.db, await measurementRow(database, id));
        },
      },
      {
        label: ENGINE,
        before: () => {
          copy = structuredClone(state);
        },
        run: async () => {
          applyOperations(copy, ops, {
            coordinateOrder: 'lat_lng',
            canDelete: true,
            newId: () => `shp_bench${++newIds}`,
          });
        },
      },
      {
        label: API,
        run: async () => {
          const saved = await call(api, key, 'POST', `/v1/measurements/${id}/edits`, 200, {
            base_rev: rev,
            operations: ops,
          });
          rev = saved.data.rev as number;
        },
        after: async () => {
          state = await loadState(database.db, await measurementRow(database, id));
          ops = editOperations(state, rand);
        },
      },
    ],
    PLAN,
  );
  const m = await measurementRow(database, id);
  return {
    rows,
    ratio: ratios(rows, API, ENGINE),
    loadShare: ratios(rows, LOAD, API),
    shapesAtEnd: m.shape_count,
    saves: m.rev - 1,
  };
}

// ---- 2. the shapes listing

interface Explained {
  label: string;
  ms: number;
  plan: string;
}

/**
 * The queries listShapes (measurement/shapes/list.ts) runs for an unfiltered page beyond the
 * measurement's header, as it builds them: the page from its anchor (page-anchors.ts; the anchors
 * are read once per rev, so not timed here), and the editable areas a page holding a hole reads.
 * The total and the options come from the measurement row, so they read no shapes.
 */
async function listingQueries(database: Database, m: { id: number; rev: number; shape_count: number }, offset: number) {
  const db = database.db;
  const start = await pageStart(db, m, {}, offset);
  const shapes = db.selectFrom('measurement_shapes').where('measurement_id', '=', m.id);
  return [
    {
      label: start
        ? `page: id ≥ the anchor, order by id, limit ${PAGE} offset ${start.skip} (offset ${offset})`
        : `page: order by id, limit ${PAGE} offset ${offset}`,
      q: pageQuery(shapes, start, PAGE, offset).compile(),
    },
    {
      label: 'the areas the editor owns (a page holding a hole)',
      q: editableAreasQuery(database.dialect.engine, m.id).compile(db),
    },
  ];
}

async function planOf(database: Database, q: CompiledQuery): Promise<string> {
  const prefix = database.dialect.engine === 'sqlite' ? 'explain query plan ' : 'explain (analyze, costs off) ';
  const { rows } = await database.db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(prefix + q.sql, [...q.parameters]),
  );
  return rows.map((r) => String(r['QUERY PLAN'] ?? r.detail)).join('\n');
}

/** Median of at least 5 runs after two unmeasured ones, more while under 2 s. */
async function timeQuery(database: Database, q: CompiledQuery): Promise<number> {
  const times: number[] = [];
  const until = performance.now() + sized(2000, 1000, 0);
  for (let i = 0; i < 7 || performance.now() < until; i++) {
    const t = performance.now();
    await database.db.executeQuery(q);
    if (i >= 2) times.push(performance.now() - t);
  }
  return median(times);
}

async function listBench(database: Database, api: string, key: string, firmId: number, userId: number) {
  const seededAt: string[] = [];
  const measurements: { size: number; id: number }[] = [];
  for (const size of LIST_SIZES) {
    const t0 = performance.now();
    const id = await insertMeasurement(database, firmId, userId, lotShapes(size, size), `Bench ${size} shapes`);
    measurements.push({ size, id });
    seededAt.push(`${fmt(size)} shapes in ${fmt((performance.now() - t0) / 1000, 1)} s`);
    log(`list: seeded ${seededAt.at(-1)}`);
  }
  // Rows written in bulk, then planned at once: PostgreSQL's autovacuum would have analyzed the
  // table within a minute of such a load on a live database; here it is done before measuring.
  if (database.dialect.engine === 'postgres') await sql`analyze measurement_shapes`.execute(database.db);
  const offsets = (size: number) => [
    { name: 'the first page', offset: 0 },
    { name: 'the middle', offset: Math.floor(size / 2 / PAGE) * PAGE },
    { name: 'the last page', offset: size - PAGE },
  ];
  const label = (size: number, name: string, offset: number) => `${fmt(size)} shapes, ${name} (${fmt(offset)})`;
  const sides: Side[] = [];
  for (const { size, id } of measurements)
    for (const { name, offset } of offsets(size))
      sides.push({
        label: label(size, name, offset),
        run: async () => {
          const page = await call(api, key, 'GET', `/v1/measurements/${id}/shapes?limit=${PAGE}&offset=${offset}`, 200);
          if ((page.data as unknown as unknown[]).length !== PAGE) throw new Error(`${size} shapes: a short page`);
        },
      });
  const rows = await alternate('list', sides, PLAN);
  const smallest = measurements[0]!;
  const largest = measurements.at(-1)!;
  const flat = offsets(0).map((_, i) => {
    const small = offsets(smallest.size)[i]!;
    const large = offsets(largest.size)[i]!;
    return {
      name: small.name,
      ratio: ratios(
        rows,
        label(largest.size, large.name, large.offset),
        label(smallest.size, small.name, small.offset),
      ),
    };
  });
  // The queries behind one page, alone, on the largest measurement and the smallest.
  const explained: { size: number; offset: number; queries: Explained[] }[] = [];
  for (const { size, id } of [smallest, largest]) {
    const m = await measurementRow(database, id);
    for (const offset of [0, Math.floor(size / 2 / PAGE) * PAGE]) {
      const queries: Explained[] = [];
      for (const { label: what, q } of await listingQueries(database, m, offset))
        queries.push({ label: what, ms: await timeQuery(database, q), plan: await planOf(database, q) });
      explained.push({ size, offset, queries });
    }
    if (size === largest.size) break;
  }
  return { rows, flat, seededAt, explained, largest: largest.size, smallest: smallest.size };
}

// ---- 3. a detect

/** The site: a SITE_M square centred on SITE_CENTRE. */
function siteBounds() {
  const frame = { originLat: SITE_CENTRE.lat, originLng: SITE_CENTRE.lng, zoom: 20 };
  const [south, west] = metersToLatLng(frame, [-SITE_M / 2, -SITE_M / 2]);
  const [north, east] = metersToLatLng(frame, [SITE_M / 2, SITE_M / 2]);
  return { north, south, east, west };
}

/** The pixels a detect hands the detector: the mosaic cut to the polygon's pixel box. */
async function detectorInput(mosaic: Awaited<ReturnType<ReturnType<typeof imageryFor>['mosaic']>>): Promise<RawPixels> {
  const { meta } = mosaic;
  const xs = mosaic.outline!.map((p) => p[0]);
  const ys = mosaic.outline!.map((p) => p[1]);
  const left = Math.max(0, Math.floor(Math.min(...xs)));
  const top = Math.max(0, Math.floor(Math.min(...ys)));
  const width = Math.min(meta.width, Math.ceil(Math.max(...xs))) - left;
  const height = Math.min(meta.height, Math.ceil(Math.max(...ys))) - top;
  const data = await sharp(mosaic.pixels, { raw: { width: meta.width, height: meta.height, channels: 3 } })
    .extract({ left, top, width, height })
    .raw()
    .toBuffer();
  return { width, height, channels: 3, data: new Uint8Array(data) };
}

async function detectBench(database: Database, key: string) {
  const scene = syntheticLot(SCENE.seed, { ...SCENE.options });
  // The lot centred on the site, grass all around it.
  const tiles = await startTileServer((zoom, x, y) =>
    drawLotWindow(scene, {
      originLat: SITE_CENTRE.lat,
      originLng: SITE_CENTRE.lng,
      zoom,
      left: x * TILE_PX,
      top: y * TILE_PX,
      width: TILE_PX,
      height: TILE_PX,
    }),
  );
  const settings = { standardUrl: tiles.template, premiumUrl: null, cacheMb: 0 };
  // The tile cache off (0 MB): every detect and every mosaic fetches its tiles.
  const imagery = imageryFor(settings, os.tmpdir(), true);
  const app = await buildApp(database, {
    adminToken: null,
    rateLimit: { max: 1e9, windowMs: 1000 },
    logLevel: false,
    imageryAdapter: imagery,
  });
  try {
    const api = await listen(app);
    const bounds = siteBounds();
    const corners: [number, number][] = [
      [bounds.north, bounds.west],
      [bounds.north, bounds.east],
      [bounds.south, bounds.east],
      [bounds.south, bounds.west],
    ];
    const place: ImageryPlace = { polygon: corners };
    const zoom = detectZoom(bounds);
    const urls = tileUrls(tiles.template, place, zoom);
    tiles.requests = 0;
    const first = (await call(api, key, 'POST', '/v1/detect/full', 201, { bounds, name: 'Bench site' })).data;
    if (tiles.requests !== urls.length)
      throw new Error(`the detect fetched ${tiles.requests} tiles, the baseline fetches ${urls.length}`);
    const mosaic = await imagery.mosaic(place, { source: 'standard', zoom });
    const pixels = await detectorInput(mosaic);
    let input = pixels;
    const FETCH = `the ${urls.length} tiles fetched and decoded alone, ${PARALLEL_TILES} at a time (baseline)`;
    const MOSAIC = "the imagery service's mosaic alone (fetch, decode, lay out, cut)";
    const DETECTOR = `detectPaved alone on the ${pixels.width} × ${pixels.height} px cut`;
    const API = 'POST /v1/detect/full';
    const rows = await alternate(
      'detect',
      [
        { label: FETCH, run: () => fetchTiles(urls, true) },
        {
          label: MOSAIC,
          run: async () => {
            await imagery.mosaic(place, { source: 'standard', zoom });
          },
        },
        {
          label: DETECTOR,
          before: () => {
            input = { ...pixels, data: pixels.data.slice() };
          },
          run: async () => {
            await detectPaved(input, { metersPerPixel: mosaic.meta.meters_per_pixel });
          },
        },
        {
          label: API,
          run: async () => {
            await call(api, key, 'POST', '/v1/detect/full', 201, { bounds, name: 'Bench site' });
          },
        },
      ],
      { ...PLAN, perRound: DETECT_PER_ROUND, minSideS: 0 },
    );
    return {
      rows,
      ratio: ratios(rows, API, FETCH),
      overMosaic: ratios(rows, API, MOSAIC),
      detectorShare: ratios(rows, DETECTOR, API),
      detectorMs: p50Of(rows, DETECTOR),
      apiMs: p50Of(rows, API),
      mosaicMs: p50Of(rows, MOSAIC),
      fetchMs: p50Of(rows, FETCH),
      first,
      urls: urls.length,
      zoom,
      meta: mosaic.meta,
      tileBytes: tiles.drawn(),
      scene,
    };
  } finally {
    await app.close();
    await tiles.close();
  }
}

const databaseUrl =
  process.env.DATABASE_URL && isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : null;

async function main(): Promise<string> {
  const { database, describe, drop } = await openBenchDatabase({ url: databaseUrl, label: 'measurement' });
  dropOnInterrupt(drop);
  // Closed in `finally`, so a failed run exits (a smoke run fails at once rather than hanging).
  let app: Awaited<ReturnType<typeof buildApp>> | null = null;
  try {
    log(`engine: ${describe}`);
    const { key, firmId, ownerId } = await benchWorkspace(database);
    app = await buildApp(database, { adminToken: null, rateLimit: { max: 1e9, windowMs: 1000 }, logLevel: false });
    const api = await listen(app);
    const save = await saveBench(database, api, key, firmId, ownerId);
    const list = await listBench(database, api, key, firmId, ownerId);
    await app.close();
    app = null;
    const detect = await detectBench(database, key);

    const found = detect.first as { area?: number; shape_count?: number };
    const mix = Object.entries(MIX)
      .map(([op, n]) => `${n} ${op}`)
      .join(', ');
    return [
      `# Measurement benchmark${MODE_LABEL}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${revision()}`,
      '',
      `- ${describe}; app, client and tile server in one process (Node ${process.version}), one request at a time`,
      `- sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips}; ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'})`,
      `- ${WARMUP} warm-up call(s) of each side, then ${ROUNDS} round(s) of at least ${PER_ROUND} call(s) and ${MIN_SIDE_S} s of each (detects: ${DETECT_PER_ROUND} calls), order reversed every other round; a round's figure is its median`,
      '',
      `## 1. A 200-operation save on a ${fmt(EDIT_SHAPES)}-shape measurement`,
      '',
      `Operations per save: ${mix} (removes as many shapes as it adds); ${save.saves} saves made, ${fmt(save.shapesAtEnd)} shapes at the end.`,
      '',
      ...roundTable(save.rows),
      '',
      `API ÷ the engine alone (p50), each round → median: ${ratioLine(save.ratio)}; ${verdict(save.ratio, SAVE_TARGET)}.`,
      `Reading the state (loadState alone ÷ API): ${ratioLine(save.loadShare)}.`,
      '',
      `## 2. GET /v1/measurements/{id}/shapes?limit=${PAGE}`,
      '',
      `Seeded: ${list.seededAt.join('; ')}.`,
      '',
      ...roundTable(list.rows, true),
      '',
      ...list.flat.map(
        (f) =>
          `- ${fmt(list.largest)} ÷ ${fmt(list.smallest)} shapes at ${f.name} (p50), each round → median: ${ratioLine(f.ratio)}; ${verdict(f.ratio, LIST_TARGET)}.`,
      ),
      '',
      ...list.explained.flatMap((e) => [
        `### The page's queries alone, ${fmt(e.size)} shapes, offset ${fmt(e.offset)}`,
        '',
        '| Query | ms (median) |',
        '|---|---:|',
        ...e.queries.map((q) => `| ${q.label} | ${ms(q.ms)} |`),
        '',
        ...e.queries.flatMap((q) => [`${q.label}:`, '', '```', q.plan, '```', '']),
      ]),
      `## 3. POST /v1/detect/full over a ${SITE_M} m × ${SITE_M} m site`,
      '',
      `Zoom ${detect.zoom} (${fmt(detect.meta.meters_per_pixel, 3)} m a pixel), a ${detect.meta.width} × ${detect.meta.height} px mosaic from ${detect.urls} JPEG tiles ` +
        `(${fmt(detect.tileBytes.min / 1024, 1)}–${fmt(detect.tileBytes.max / 1024, 1)} KiB; a synthetic lot, seed ${SCENE.seed}, ${fmt(detect.scene.truth.pavedM2)} m² paved, ${detect.scene.truth.stalls} stalls, grass around it) served from memory by a local XYZ server; tile cache off. ` +
        `The detect found ${fmt(found.area ?? 0)} sq ft in ${found.shape_count ?? '?'} shapes.`,
      '',
      ...roundTable(detect.rows),
      '',
      `- API ÷ the tiles fetched and decoded alone (p50), each round → median: ${ratioLine(detect.ratio)} (no target set).`,
      `- API ÷ the mosaic alone: ${ratioLine(detect.overMosaic)}.`,
      `- The detector's share of a detect (detectPaved alone ÷ API): ${ratioLine(detect.detectorShare)}; p50s over the rounds: detect ${ms(detect.apiMs)} ms, detector ${ms(detect.detectorMs)} ms, mosaic ${ms(detect.mosaicMs)} ms, tiles fetched and decoded ${ms(detect.fetchMs)} ms.`,
    ].join('\n');
  } finally {
    await app?.close();
    await drop();
  }
}

const report = await main();
console.log(report);
const saved = saveReport(`measurement-${databaseUrl ? 'postgres' : 'sqlite'}.md`, report);
if (saved) log(`report written to ${path.relative(process.cwd(), saved)}`);
