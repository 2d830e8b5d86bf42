// A takeoff shape's geometry and quantity (document 3, "Saved-takeoff shape": square feet for
// areas and polygons, linear feet for lines, 1 EA for points), and the checks a drawn shape must
// pass before it is measured. Pure.
import { type LatLng, lineLengthM, pointInPolygon, polygonAreaM2, type Ring } from './sphere.ts';
import { feet, squareFeet } from './units.ts';

export type Geometry =
  | { type: 'point'; point: LatLng }
  | { type: 'line'; points: LatLng[] }
  | { type: 'polygon'; rings: Ring[] };

export type QuantityUnit = 'SF' | 'LF' | 'EA';

export const UNIT_OF: Record<Geometry['type'], QuantityUnit> = { polygon: 'SF', line: 'LF', point: 'EA' };

/** The shape's own quantity: square feet (outline less its holes), linear feet, or 1 each. */
export function quantityOf(g: Geometry): number {
  if (g.type === 'point') return 1;
  if (g.type === 'line') return feet(lineLengthM(g.points));
  return squareFeet(polygonAreaM2(g.rings));
}

const validPoint = ([lat, lng]: LatLng) =>
  Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180;

const samePoint = (a: LatLng, b: LatLng) => a[0] === b[0] && a[1] === b[1];

/** A ring as kept: open (a closing point equal to the first is dropped), consecutive repeats removed. */
export function openRing(points: LatLng[]): Ring {
  const out: Ring = [];
  for (const p of points) if (out.length === 0 || !samePoint(out[out.length - 1], p)) out.push(p);
  if (out.length > 1 && samePoint(out[0], out[out.length - 1])) out.pop();
  return out;
}

/** Why the points cannot be this geometry, or null when they can. */
export function whyNot(g: Geometry): string | null {
  const points = g.type === 'point' ? [g.point] : g.type === 'line' ? g.points : g.rings.flat();
  const bad = points.find((p) => !validPoint(p));
  if (bad) return `[${bad.join(', ')}] is not a point: latitude within ±90, longitude within ±180`;
  if (g.type === 'line' && g.points.length < 2) return 'A line needs 2 or more points';
  if (g.type === 'line' && lineLengthM(g.points) === 0) return 'A line needs two different points';
  if (g.type === 'polygon') {
    if (g.rings.length === 0) return 'A polygon needs a ring';
    for (const ring of g.rings) if (ring.length < 3) return 'A ring needs 3 or more different points';
    if (polygonAreaM2([g.rings[0]]) === 0) return 'A ring needs some area';
    for (const hole of g.rings.slice(1))
      if (!hole.every((p) => pointInPolygon(p, [g.rings[0]]))) return "A hole's points must lie inside its outline";
  }
  return null;
}

/** Every point of `inner` lies within `outer` (outline, not in its holes). */
export function ringInside(inner: Ring, outer: Ring[]): boolean {
  return inner.every((p) => pointInPolygon(p, outer));
}

/** Points of the geometry, for distances and bounding boxes. */
export function pointsOf(g: Geometry): LatLng[] {
  return g.type === 'point' ? [g.point] : g.type === 'line' ? g.points : g.rings.flat();
}

/** The point a count or line "sits" at, for finding the area it sits in: the point, or a line's first point. */
export function anchorOf(g: Geometry): LatLng {
  return g.type === 'point' ? g.point : g.type === 'line' ? g.points[0] : g.rings[0][0];
}
