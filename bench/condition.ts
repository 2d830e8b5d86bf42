// Condition-ratings benchmark (docs/performance.md, "Condition ratings"), issue 26's three
// measurements, each figure a ratio against a baseline measured in the same run:
//
// 1. A rating of a 2,048 × 2,048 photo end to end: POST /v1/condition/pci with the JPEG as a
//    multipart upload over real HTTP (the app as buildApp makes it, on a bench database), against
//    sharp alone doing the decode the route starts with on the same bytes (rotate upright, shrink
//    to PHOTO_ANALYSIS_MAX_PX, raw pixels). Target: at most 10× (the spec allows 10 to 20 s a rating).
// 2. A rating from imagery at a point: POST /v1/condition/pci with lat and lng, the app's standard
//    imagery a local XYZ tile server (bench/aerial-tile-server.ts) with the tile cache off, against
//    fetching the same tiles alone from the same server (plain fetches, as many at once as the
//    mosaic asks), and against the imagery service's mosaic alone (fetch, decode, lay out, cut).
// 3. The built-in detector's accuracy on generated images (bench/condition-detector.ts's table:
//    at least 200 images in a full run).
//
// Everything runs in this process, one request at a time (a rating is one user's wait), the sides
// alternated round by round so a change in the machine's other load falls on both.
//
//   npm run bench:condition                SQLite file database in a temp dir
//   DATABASE_URL=postgres://… npm run bench:condition   PostgreSQL (a fresh schema, dropped afterwards)
//   npm run bench:condition -- --quick     fewer rounds, 104 accuracy images
//   npm run bench:condition -- --smoke     seconds, for CI (bench/mode.ts): a 512 px photo, one of everything
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { buildApp } from '#src/app.ts';
import { isPostgresUrl } from '#src/config.ts';
import { PHOTO_ANALYSIS_MAX_PX } from '#condition/index.ts';
import { generateScene } from '#engines/distress/synthetic.ts';
import { frameOf } from '#platform/imagery/framing.ts';
import type { ImageryPlace } from '#platform/imagery/imagery.ts';
import { imageryFor, type ImagerySettings } from '#platform/imagery/select.ts';
import { TILE_PX } from '#platform/imagery/web-mercator.ts';
import { startAerialTileServer } from './aerial-tile-server.ts';
import { detectorAccuracy, FULL_PER_CATEGORY } from './condition-detector.ts';
import { dropOnInterrupt, openBenchDatabase } from './database.ts';
import { fmt, listen, loadNow, revision } from './load.ts';
import { MODE_LABEL, saveReport, sized } from './mode.ts';
import { alternate, log, type RoundPlan, ratioLine, ratios, roundTable } from './rounds.ts';
import { fetchTiles, PARALLEL_TILES } from './tiles.ts';
import { benchWorkspace } from './workspace.ts';

const PHOTO_PX = sized(2048, 2048, 512);
const ROUNDS = sized(5, 3, 1);
/** Calls of each side per round, one at a time; the round's figure is their median. */
const PER_ROUND = sized(8, 4, 1);
/**
 * …and at least this long per side and round: the fast sides (a few ms) then take hundreds of
 * samples, so one scheduling hiccup on the shared cores does not move their median.
 */
const MIN_SIDE_S = sized(1, 0.5, 0);
/** Unmeasured calls of each side first (JIT, libvips' start, OpenCV's WebAssembly compile). */
const WARMUP = sized(3, 2, 1);
const PLAN: RoundPlan = { warmup: WARMUP, rounds: ROUNDS, perRound: PER_ROUND, minSideS: MIN_SIDE_S };
const PER_CATEGORY = sized(FULL_PER_CATEGORY, 8, 1);
const PHOTO_TARGET = 10;
/** A parking lot in Columbus, Ohio: zoom 20 there is 0.114 m a pixel, the 60 m square 3 or 4 tiles a side. */
const POINT = { lat: 39.9612, lng: -82.9988 };
/**
 * The lot the tile server repeats: 4 × 4 tiles of patched asphalt (patches are a share of the
 * drawn square, so they stay visible at imagery's scale, where the generator's cracks and
 * potholes, drawn at 5 mm a pixel, would be under a pixel).
 */
const LOT = { category: 'patches', seed: 11, tiles: 4 } as const;

interface Rated {
  pci: { score: number; label: string };
  distresses: { type: string; severity: string; density_pct: number }[];
  image: { source: string; width: number; height: number; zoom: number | null; meters_per_pixel: number | null };
}

/** One rating through the API; anything but a 200 with a PCI stops the run (its times would mean nothing). */
async function rate(api: string, key: string, body: FormData | object): Promise<Rated> {
  const form = body instanceof FormData;
  const res = await fetch(`${api}/v1/condition/pci`, {
    method: 'POST',
    headers: form ? { 'x-api-key': key } : { 'x-api-key': key, 'content-type': 'application/json' },
    body: form ? body : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST /v1/condition/pci: HTTP ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Rated;
}

/** The upload's form; the Blob is made once, so no request copies the photo on the client. */
function photoForm(photo: Blob): FormData {
  const form = new FormData();
  form.append('image', photo, 'lot.jpg');
  return form;
}

/** The tile URLs under the frame the imagery cuts around a place (the same window mosaic.ts fetches). */
function tileUrls(template: string, place: ImageryPlace): string[] {
  const frame = frameOf(place);
  const n = 2 ** frame.zoom;
  const urls: string[] = [];
  for (let y = Math.floor(frame.top / TILE_PX); y <= Math.floor((frame.top + frame.height - 1) / TILE_PX); y++)
    for (let x = Math.floor(frame.left / TILE_PX); x <= Math.floor((frame.left + frame.width - 1) / TILE_PX); x++)
      urls.push(
        template
          .replace('{z}', String(frame.zoom))
          .replace('{x}', String(((x % n) + n) % n))
          .replace('{y}', String(y)),
      );
  return urls;
}

const databaseUrl =
  process.env.DATABASE_URL && isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : null;

async function main(): Promise<string> {
  const { database, describe, drop } = await openBenchDatabase({ url: databaseUrl, label: 'condition' });
  dropOnInterrupt(drop);
  const tiles = await startAerialTileServer(LOT);
  // Closed in `finally`, so a failed run exits (a smoke run fails at once rather than hanging).
  let app: Awaited<ReturnType<typeof buildApp>> | null = null;
  try {
    log(`engine: ${describe}`);
    const { key } = await benchWorkspace(database);
    // The tile cache off (0 MB): every rating and every mosaic fetches its tiles.
    const imagery: ImagerySettings = { standardUrl: tiles.template, premiumUrl: null, cacheMb: 0 };
    app = await buildApp(database, {
      adminToken: null,
      rateLimit: { max: 1e9, windowMs: 1000 },
      logLevel: false,
      imagery,
    });
    const api = await listen(app);

    // ---- 1. a photo
    const scene = generateScene('cracks', 7, { size: PHOTO_PX });
    const jpeg = await sharp(Buffer.from(scene.pixels.data), {
      raw: { width: PHOTO_PX, height: PHOTO_PX, channels: 3 },
    })
      .jpeg({ quality: 90 })
      .toBuffer();
    const photo = new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' });
    log(`photo: ${PHOTO_PX} × ${PHOTO_PX} JPEG, ${fmt(jpeg.length / 1024)} KiB`);
    const photoRated = await rate(api, key, photoForm(photo));
    const SHARP = `sharp alone: decode, rotate, resize to ${PHOTO_ANALYSIS_MAX_PX} px, raw (baseline)`;
    const PHOTO_API = 'POST /v1/condition/pci, the photo as multipart';
    const photoRows = await alternate(
      'photo',
      [
        {
          label: SHARP,
          // A fresh copy each time, as the route reads fresh bytes from each request (libvips caches
          // operations on the same buffer).
          run: async () => {
            await sharp(Buffer.from(jpeg))
              .rotate()
              .resize({
                width: PHOTO_ANALYSIS_MAX_PX,
                height: PHOTO_ANALYSIS_MAX_PX,
                fit: 'inside',
                withoutEnlargement: true,
              })
              .raw()
              .toBuffer();
          },
        },
        {
          label: PHOTO_API,
          run: async () => {
            await rate(api, key, photoForm(photo));
          },
        },
      ],
      PLAN,
    );
    const photoRatio = ratios(photoRows, PHOTO_API, SHARP);

    // ---- 2. a point in aerial imagery
    const place: ImageryPlace = { point: POINT };
    const urls = tileUrls(tiles.template, place);
    tiles.requests = 0;
    const pointRated = await rate(api, key, { lat: POINT.lat, lng: POINT.lng });
    if (tiles.requests !== urls.length)
      throw new Error(`the rating fetched ${tiles.requests} tiles, the baseline fetches ${urls.length}`);
    const service = imageryFor(imagery, os.tmpdir(), false);
    const FETCH = `the ${urls.length} tiles fetched alone, ${PARALLEL_TILES} at a time (baseline)`;
    const MOSAIC = "the imagery service's mosaic alone (fetch, decode, lay out, cut)";
    const POINT_API = 'POST /v1/condition/pci with lat and lng';
    const pointRows = await alternate(
      'point',
      [
        { label: FETCH, run: () => fetchTiles(urls, false) },
        {
          label: MOSAIC,
          run: async () => {
            await service.mosaic(place, { source: 'standard' });
          },
        },
        {
          label: POINT_API,
          run: async () => {
            await rate(api, key, { lat: POINT.lat, lng: POINT.lng });
          },
        },
      ],
      PLAN,
    );
    const pointRatio = ratios(pointRows, POINT_API, FETCH);
    const pointOverMosaic = ratios(pointRows, POINT_API, MOSAIC);
    await app.close();
    app = null;

    // ---- 3. the detector's accuracy
    log(`accuracy: ${PER_CATEGORY} generated images per category…`);
    const accuracy = await detectorAccuracy(PER_CATEGORY);
    log(`accuracy: ${accuracy.images} images in ${fmt(accuracy.seconds, 1)} s`);

    const found = (r: Rated) =>
      r.distresses.length === 0
        ? 'no distress'
        : r.distresses.map((d) => `${d.type} ${d.severity} ${fmt(d.density_pct, 1)}%`).join(', ');
    return [
      `# Condition ratings benchmark${MODE_LABEL}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${revision()}`,
      '',
      `- ${describe}; app, client and tile server in one process (Node ${process.version}), one request at a time`,
      `- sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips}; ${os.cpus().length} CPUs`,
      `- ${WARMUP} warm-up call(s) of each side, then ${ROUNDS} round(s) of at least ${PER_ROUND} call(s) and ${MIN_SIDE_S} s of each, order reversed every other round; a round's figure is its median`,
      '',
      `## 1. A ${PHOTO_PX} × ${PHOTO_PX} photo`,
      '',
      `A generated lot with cracks (the detector's synthetic generator, \`cracks\`, seed 7, 5 mm a pixel), JPEG quality 90, ${fmt(jpeg.length / 1024)} KiB. ` +
        `Rated PCI ${photoRated.pci.score} (${photoRated.pci.label}) at ${photoRated.image.width} × ${photoRated.image.height}: ${found(photoRated)}.`,
      '',
      ...roundTable(photoRows),
      '',
      `API ÷ sharp alone (p50), each round → median: ${ratioLine(photoRatio)}; target ≤ ${PHOTO_TARGET}: ${photoRatio.median <= PHOTO_TARGET ? 'met' : 'NOT met'}.`,
      '',
      `## 2. A point in aerial imagery`,
      '',
      `[${POINT.lat}, ${POINT.lng}] at zoom ${pointRated.image.zoom} (${fmt(pointRated.image.meters_per_pixel ?? 0, 3)} m a pixel): a ${pointRated.image.width} × ${pointRated.image.height} px image from ${urls.length} JPEG tiles ` +
        `(a lot drawn by the generator, \`${LOT.category}\`, seed ${LOT.seed}, repeated every ${LOT.tiles} tiles) of ${fmt(tiles.tileBytes.min / 1024)}–${fmt(tiles.tileBytes.max / 1024)} KiB, served from memory by a local XYZ server; tile cache off. ` +
        `Rated PCI ${pointRated.pci.score} (${pointRated.pci.label}): ${found(pointRated)}.`,
      '',
      ...roundTable(pointRows),
      '',
      `API ÷ tiles fetched alone (p50), each round → median: ${ratioLine(pointRatio)} (no target set).`,
      `API ÷ the mosaic alone: ${ratioLine(pointOverMosaic)}.`,
      '',
      `## 3. The detector's accuracy`,
      '',
      accuracy.markdown,
      '',
      `${accuracy.images} images in ${fmt(accuracy.seconds, 1)} s (${fmt((accuracy.seconds * 1000) / accuracy.images)} ms each, 320 × 320 px at 5 mm a pixel; load ${loadNow()}).`,
    ].join('\n');
  } finally {
    await app?.close();
    await tiles.close();
    await drop();
  }
}

const report = await main();
console.log(report);
const saved = saveReport(`condition-${databaseUrl ? 'postgres' : 'sqlite'}.md`, report);
if (saved) log(`report written to ${path.relative(process.cwd(), saved)}`);
