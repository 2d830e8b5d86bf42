// Where a detect run looks (document 3: one of polygon, polygons up to 20, or bounds; document 1:
// detect bounds up to 1,000 acres): each outline checked and turned into one ring of [lat, lng].
// The 1,000 acres are the outlines' area together; each outline is also held to MAX_SIDE_M a side
// so its imagery stays a bounded number of windows (detect-windows.ts). Pure.
import {
  type LatLng,
  openRing,
  pointInPolygon,
  polygonAreaM2,
  type Ring,
  SQUARE_FEET_PER_ACRE,
  squareFeet,
  whyNot,
} from '#engines/geometry/index.ts';
import { ApiError } from '#platform/errors.ts';
import { type Box, sidesM } from '../measurements/place.ts';

export const MAX_DETECT_ACRES = 1_000;
export const MAX_SIDE_M = 5_000;

export interface DetectArea {
  polygon?: LatLng[];
  polygons?: LatLng[][];
  bounds?: { north: number; south: number; east: number; west: number };
}

const invalid = (message: string, field: string) =>
  new ApiError(400, message, { code: 'invalid_outline', message, field });

/** A box in degrees, as a measurement's bounds are. */
export type BoxOf = Box;

export function boxOf(ring: Ring): BoxOf {
  const lats = ring.map((p) => p[0]);
  const lngs = ring.map((p) => p[1]);
  return { north: Math.max(...lats), south: Math.min(...lats), east: Math.max(...lngs), west: Math.min(...lngs) };
}

/** The outlines a detect body names, or its 400. */
export function outlinesOf(body: DetectArea): Ring[] {
  const given = [body.polygon, body.polygons, body.bounds].filter((v) => v !== undefined).length;
  if (given !== 1) throw invalid('Send one of polygon, polygons or bounds', 'polygon');
  let rings: { ring: Ring; field: string }[];
  if (body.bounds) {
    const b = body.bounds;
    if (b.north <= b.south) throw invalid('bounds.north must be north of bounds.south', 'bounds');
    if (b.east <= b.west) throw invalid('bounds.east must be east of bounds.west', 'bounds');
    rings = [
      {
        ring: [
          [b.north, b.west],
          [b.north, b.east],
          [b.south, b.east],
          [b.south, b.west],
        ],
        field: 'bounds',
      },
    ];
  } else if (body.polygon) rings = [{ ring: openRing(body.polygon), field: 'polygon' }];
  else rings = body.polygons!.map((p, i) => ({ ring: openRing(p), field: `polygons[${i}]` }));
  let acres = 0;
  for (const { ring, field } of rings) {
    const why = whyNot({ type: 'polygon', rings: [ring] });
    if (why) throw invalid(`${field}: ${why}`, field);
    const { width, height } = sidesM(boxOf(ring));
    if (Math.max(width, height) > MAX_SIDE_M)
      throw invalid(`${field} is ${Math.round(Math.max(width, height))} m across: at most ${MAX_SIDE_M} m`, field);
    acres += squareFeet(polygonAreaM2([ring])) / SQUARE_FEET_PER_ACRE;
  }
  if (acres > MAX_DETECT_ACRES)
    throw invalid(
      `The outline covers ${acres.toFixed(1)} acres: at most ${MAX_DETECT_ACRES} acres are detected in one run`,
      rings[0].field,
    );
  return rings.map((r) => r.ring);
}

/** Meters from a point to the nearest outline (0 inside one). */
export function distanceToOutlines(point: LatLng, outlines: Ring[]): number {
  let best = Number.POSITIVE_INFINITY;
  for (const ring of outlines) {
    if (pointInPolygon(point, [ring])) return 0;
    for (let i = 0; i < ring.length; i++)
      best = Math.min(best, segmentDistanceM(point, ring[i], ring[(i + 1) % ring.length]));
  }
  return best;
}

/** Distance to a segment in a local flat frame (meters east and north of the point): fine at a site's scale. */
function segmentDistanceM(p: LatLng, a: LatLng, b: LatLng): number {
  const k = Math.cos((p[0] * Math.PI) / 180);
  const M = 111_320;
  const ax = (a[1] - p[1]) * M * k;
  const ay = (a[0] - p[0]) * M;
  const bx = (b[1] - p[1]) * M * k;
  const by = (b[0] - p[0]) * M;
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2));
  return Math.hypot(ax + t * dx, ay + t * dy);
}
