// Where a measurement looks (document 1: POST /v1/detect/full takes bounds, /v1/detect/address an
// address, /v1/detect/tiles a tile range of the configured imagery), turned into one box and the
// zoom its imagery is read at. Pure. The numbers (docs/measurement.md, "Starting a measurement"):
// - bounds up to MAX_ACRES (25 acres, so a 10-acre lot with its edges fits) and MAX_SIDE_M on a side;
// - an address measures a DEFAULT_BOX_M square around the geocoded point (a small commercial lot
//   and its drive aisles);
// - a tile range is at most MAX_TILES_SIDE tiles a side, at zoom 16 to 21;
// - imagery is read at the largest zoom up to 20 at which the box is at most DETECT_PX on its longer
//   side (a 10-acre square is zoom 20 to about 45° of latitude: 0.1 m pixels, so a 10 cm stall line
//   is a pixel wide), and never below MIN_DETECT_ZOOM (a pixel over 0.6 m hides paint).
import { fromPixel, metersPerPixel, toPixel } from '#platform/imagery/web-mercator.ts';
import { distanceM } from '#engines/geometry/index.ts';
import { SQUARE_FEET_PER_ACRE, squareFeet } from '#engines/geometry/index.ts';
import { ApiError } from '#platform/errors.ts';

export const MAX_ACRES = 25;
export const MAX_SIDE_M = 1_000;
export const DEFAULT_BOX_M = 150;
export const MAX_TILES_SIDE = 8;
export const DETECT_PX = 2_048;
export const MAX_DETECT_ZOOM = 20;
export const MIN_DETECT_ZOOM = 18;

export interface Box {
  north: number;
  south: number;
  east: number;
  west: number;
}

export interface Place {
  box: Box;
  zoom: number;
}

export const invalidPlace = (message: string, field: string) =>
  new ApiError(400, message, { code: 'invalid_request', message, field });

const LAT_LIMIT = 85;

export function checkedBox(b: Box, field = 'bounds'): Box {
  for (const k of ['north', 'south', 'east', 'west'] as const)
    if (!Number.isFinite(b[k])) throw invalidPlace(`${field}.${k} must be a number`, `${field}.${k}`);
  if (Math.abs(b.north) > LAT_LIMIT || Math.abs(b.south) > LAT_LIMIT)
    throw invalidPlace(`${field} latitudes must be within ±${LAT_LIMIT}`, field);
  if (Math.abs(b.east) > 180 || Math.abs(b.west) > 180)
    throw invalidPlace(`${field} longitudes must be within ±180`, field);
  if (b.north <= b.south) throw invalidPlace(`${field}.north must be north of ${field}.south`, field);
  if (b.east <= b.west) throw invalidPlace(`${field}.east must be east of ${field}.west`, field);
  const { width, height } = sidesM(b);
  const acres = squareFeet(width * height) / SQUARE_FEET_PER_ACRE;
  if (Math.max(width, height) > MAX_SIDE_M || acres > MAX_ACRES)
    throw invalidPlace(
      `${field} covers ${acres.toFixed(1)} acres, ${Math.round(width)} × ${Math.round(height)} m: at most ${MAX_ACRES} acres and ${MAX_SIDE_M} m a side are measured in one call`,
      field,
    );
  return b;
}

/** A box's width (east–west, at its middle latitude) and height in meters. */
export function sidesM(b: Box): { width: number; height: number } {
  const mid = (b.north + b.south) / 2;
  return { width: distanceM([mid, b.west], [mid, b.east]), height: distanceM([b.north, b.west], [b.south, b.west]) };
}

/** The largest zoom from `most` down to `least` at which the box's longer side is at most `maxPx`; `least` when none is. */
export function largestZoomWithin(b: Box, maxPx: number, least: number, most: number): number {
  for (let z = most; z > least; z--) {
    const nw = toPixel(b.north, b.west, z);
    const se = toPixel(b.south, b.east, z);
    if (Math.max(se.x - nw.x, se.y - nw.y) <= maxPx) return z;
  }
  return least;
}

/** The zoom a box is read at: the largest ≤ 20 where its longer side is at most DETECT_PX. */
export const detectZoom = (b: Box): number => largestZoomWithin(b, DETECT_PX, MIN_DETECT_ZOOM, MAX_DETECT_ZOOM);

export function placeOfBounds(b: Box): Place {
  const box = checkedBox(b);
  return { box, zoom: detectZoom(box) };
}

/** The DEFAULT_BOX_M square centred on a point. */
export function placeAround(lat: number, lng: number): Place {
  const half = DEFAULT_BOX_M / 2;
  const dLat = half / 111_320;
  const dLng = half / (111_320 * Math.cos((lat * Math.PI) / 180));
  const box = checkedBox({ north: lat + dLat, south: lat - dLat, east: lng + dLng, west: lng - dLng }, 'address');
  return { box, zoom: detectZoom(box) };
}

export interface TileRange {
  z: number;
  x_min: number;
  x_max: number;
  y_min: number;
  y_max: number;
}

/** The box a tile range covers, read at the range's own zoom. */
export function placeOfTiles(t: TileRange): Place {
  const n = 2 ** t.z;
  for (const k of ['x_min', 'x_max', 'y_min', 'y_max'] as const)
    if (t[k] >= n) throw invalidPlace(`${k} must be below ${n} at zoom ${t.z}`, k);
  if (t.x_max < t.x_min) throw invalidPlace('x_max must be at least x_min', 'x_max');
  if (t.y_max < t.y_min) throw invalidPlace('y_max must be at least y_min', 'y_max');
  if (t.x_max - t.x_min + 1 > MAX_TILES_SIDE || t.y_max - t.y_min + 1 > MAX_TILES_SIDE)
    throw invalidPlace(`At most ${MAX_TILES_SIDE} × ${MAX_TILES_SIDE} tiles are measured in one call`, 'x_max');
  const nw = fromPixel(t.x_min * 256, t.y_min * 256, t.z);
  const se = fromPixel((t.x_max + 1) * 256, (t.y_max + 1) * 256, t.z);
  // A tile range is held to the same size as bounds (at low zooms a few tiles are kilometres).
  const box = checkedBox({ north: nw.lat, south: se.lat, east: se.lng, west: nw.lng }, 'tiles');
  return { box, zoom: t.z };
}

/** Ground meters per pixel at the box's middle at this zoom (for the answer). */
export const boxMetersPerPixel = (b: Box, zoom: number) => metersPerPixel((b.north + b.south) / 2, zoom);
