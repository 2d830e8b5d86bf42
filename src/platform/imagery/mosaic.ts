// Imagery from tile servers: frame the place (framing.ts), fetch the tiles under the window a few at
// a time, decode each to 256 px RGB, lay them out with sharp and cut the window out. A tile the
// server does not have stays black and lowers coverage_pct; when none of them is there the answer
// is NoImageryCoverage. Premium's capture date is the one of the tile under the image's centre (the
// "newest survey at the point"), else the oldest any tile gave (never claiming newer than it is).
import sharp from 'sharp';
import { frameOf, type Frame } from './framing.ts';
import {
  ImageryNotConfigured,
  ImageryUnreachable,
  NoImageryCoverage,
  type Imagery,
  type ImagerySource,
  type Mosaic,
} from './imagery.ts';
import { TILE_PX } from './web-mercator.ts';
import type { FetchedTile, TileServer } from './xyz-tiles.ts';

/** Tiles asked of one server at once: browsers' six connections a host, kind to a shared server. */
const PARALLEL_TILES = 6;

interface Placed {
  /** Column and row in the grid of tiles under the window. */
  col: number;
  row: number;
  /** The tile's number (x wrapped around the antimeridian). */
  x: number;
  y: number;
}

/** The tiles under a frame, left to right and top to bottom. */
function tilesUnder(frame: Frame): { placed: Placed[]; firstX: number; firstY: number; cols: number; rows: number } {
  const n = 2 ** frame.zoom;
  const firstX = Math.floor(frame.left / TILE_PX);
  const firstY = Math.floor(frame.top / TILE_PX);
  const cols = Math.floor((frame.left + frame.width - 1) / TILE_PX) - firstX + 1;
  const rows = Math.floor((frame.top + frame.height - 1) / TILE_PX) - firstY + 1;
  const placed: Placed[] = [];
  for (let row = 0; row < rows; row++)
    for (let col = 0; col < cols; col++) placed.push({ col, row, x: (((firstX + col) % n) + n) % n, y: firstY + row });
  return { placed, firstX, firstY, cols, rows };
}

/** Runs `work` over the items, at most `limit` at a time; a failure starts no more and fails the whole. */
async function inBatches<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (next < items.length && !failed) {
      const i = next++;
      try {
        results[i] = await work(items[i]!);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  // Every lane is let finish its request before the answer, so none is still fetching or writing
  // the cache after the caller has moved on.
  const lanes = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, lane));
  const failure = lanes.find((l): l is PromiseRejectedResult => l.status === 'rejected');
  if (failure) throw failure.reason;
  return results;
}

/** A tile as 256 × 256 RGB (transparency over black; another size scaled to 256). */
async function decodeTile(tile: Buffer): Promise<Buffer> {
  try {
    return await sharp(tile)
      .resize(TILE_PX, TILE_PX, { fit: 'fill' })
      .flatten({ background: '#000000' })
      .removeAlpha()
      .raw()
      .toBuffer();
  } catch (err) {
    throw new ImageryUnreachable(`a tile is not an image (${(err as Error).message})`);
  }
}

/** Share of the frame's pixels that the found tiles cover, 0 to 100 with one decimal. */
function coverage(frame: Frame, found: Placed[], firstX: number, firstY: number): number {
  let covered = 0;
  for (const p of found) {
    const tileLeft = (firstX + p.col) * TILE_PX;
    const tileTop = (firstY + p.row) * TILE_PX;
    const w = Math.min(tileLeft + TILE_PX, frame.left + frame.width) - Math.max(tileLeft, frame.left);
    const h = Math.min(tileTop + TILE_PX, frame.top + frame.height) - Math.max(tileTop, frame.top);
    if (w > 0 && h > 0) covered += w * h;
  }
  return Math.round((1000 * covered) / (frame.width * frame.height)) / 10;
}

function captureDateOf(placed: Placed[], tiles: FetchedTile[], frame: Frame, firstX: number, firstY: number) {
  const cx = Math.floor((frame.left + frame.width / 2) / TILE_PX) - firstX;
  const cy = Math.floor((frame.top + frame.height / 2) / TILE_PX) - firstY;
  const centre = placed.findIndex((p) => p.col === cx && p.row === cy);
  const atCentre = centre >= 0 ? tiles[centre]?.captureDate : null;
  if (atCentre) return atCentre;
  const dates = tiles.map((t) => t?.captureDate).filter((d): d is string => !!d);
  return dates.length > 0 ? dates.sort()[0]! : null;
}

/** Builds the mosaic for a frame from one tile server. */
export async function mosaicOf(server: TileServer, source: ImagerySource, frame: Frame): Promise<Mosaic> {
  const { placed, firstX, firstY, cols, rows } = tilesUnder(frame);
  const tiles = await inBatches(placed, PARALLEL_TILES, (p) => server.tile(frame.zoom, p.x, p.y));
  const found = placed.filter((_, i) => tiles[i] !== null);
  if (found.length === 0) throw new NoImageryCoverage(source, frame.zoom);
  const decoded = await inBatches(
    placed.map((p, i) => ({ p, tile: tiles[i] })),
    PARALLEL_TILES,
    async ({ p, tile }) => (tile ? { p, raw: await decodeTile(tile.data) } : null),
  );
  const layers = decoded
    .filter((d): d is { p: Placed; raw: Buffer } => d !== null)
    .map(({ p, raw }) => ({
      input: raw,
      raw: { width: TILE_PX, height: TILE_PX, channels: 3 as const },
      left: p.col * TILE_PX,
      top: p.row * TILE_PX,
    }));
  // Laid out on a black sheet of whole tiles first, then cut: sharp runs a crop before a composite
  // in one pipeline, so the two are separate passes. A composite comes out with an alpha channel,
  // which the cut drops.
  const sheet = await sharp({
    create: { width: cols * TILE_PX, height: rows * TILE_PX, channels: 3, background: '#000000' },
  })
    .composite(layers)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const pixels = await sharp(sheet.data, {
    raw: { width: sheet.info.width, height: sheet.info.height, channels: sheet.info.channels },
  })
    .extract({
      left: frame.left - firstX * TILE_PX,
      top: frame.top - firstY * TILE_PX,
      width: frame.width,
      height: frame.height,
    })
    .removeAlpha()
    .raw()
    .toBuffer();
  return {
    pixels,
    channels: 3,
    meta: {
      source,
      capture_date: source === 'premium' ? captureDateOf(placed, tiles, frame, firstX, firstY) : null,
      zoom: frame.zoom,
      width: frame.width,
      height: frame.height,
      meters_per_pixel: frame.metersPerPixel,
      lat: frame.lat,
      lng: frame.lng,
      bounds: frame.bounds,
      coverage_pct: coverage(frame, found, firstX, firstY),
    },
    outline: frame.outline,
  };
}

/** The Imagery of one or two tile servers (a source without one answers ImageryNotConfigured). */
export function tileImagery(servers: Partial<Record<ImagerySource, TileServer | null>>): Imagery {
  return {
    sources: { standard: !!servers.standard, premium: !!servers.premium },
    async mosaic(place, options) {
      const server = servers[options.source];
      if (!server) throw new ImageryNotConfigured(options.source);
      return mosaicOf(server, options.source, frameOf(place, options.zoom));
    },
  };
}
