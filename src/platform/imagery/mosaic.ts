// Imagery from tile servers: frame the place (framing.ts), fetch the tiles under the window a few at
// a time, decode each to 256 px RGB as it arrives (fetching and decoding overlap) and copy its part
// of the window straight into the image. A tile the server does not have stays black and lowers
// coverage_pct; when none of them is there the answer is NoImageryCoverage. Premium's capture date
// is the one of the tile under the image's centre (the "newest survey at the point"), else the
// oldest any tile gave (never claiming newer than it is).
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

/**
 * A tile as 256 × 256 RGB (transparency over black; another size scaled to 256). A tile that is
 * already 256 px RGB (a JPEG, an opaque PNG) is taken as sharp decodes it, in one pass.
 */
async function decodeTile(tile: Buffer): Promise<Buffer> {
  try {
    const { data, info } = await sharp(tile).raw().toBuffer({ resolveWithObject: true });
    if (
      info.width === TILE_PX &&
      info.height === TILE_PX &&
      info.channels === 3 &&
      data.length === TILE_PX * TILE_PX * 3
    )
      return data;
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

/** Copies the part of a decoded tile (256 px RGB, at `tileLeft, tileTop` in global pixels) that lies in the frame into its pixels. */
function blit(out: Buffer, frame: Frame, raw: Buffer, tileLeft: number, tileTop: number): void {
  const x0 = Math.max(tileLeft, frame.left);
  const x1 = Math.min(tileLeft + TILE_PX, frame.left + frame.width);
  const y0 = Math.max(tileTop, frame.top);
  const y1 = Math.min(tileTop + TILE_PX, frame.top + frame.height);
  if (x1 <= x0 || y1 <= y0) return;
  const bytes = (x1 - x0) * 3;
  for (let y = y0; y < y1; y++) {
    const from = ((y - tileTop) * TILE_PX + (x0 - tileLeft)) * 3;
    raw.copy(out, ((y - frame.top) * frame.width + (x0 - frame.left)) * 3, from, from + bytes);
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
  const { placed, firstX, firstY } = tilesUnder(frame);
  // Each tile is decoded in its lane as soon as it arrives (fetching and decoding overlap) and
  // copied straight into the frame's pixels, which start black (a missing tile stays so).
  const pixels = Buffer.alloc(frame.width * frame.height * 3);
  const tiles = await inBatches(placed, PARALLEL_TILES, async (p) => {
    const tile = await server.tile(frame.zoom, p.x, p.y);
    if (tile) blit(pixels, frame, await decodeTile(tile.data), (firstX + p.col) * TILE_PX, (firstY + p.row) * TILE_PX);
    return tile;
  });
  const found = placed.filter((_, i) => tiles[i] !== null);
  if (found.length === 0) throw new NoImageryCoverage(source, frame.zoom);
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
