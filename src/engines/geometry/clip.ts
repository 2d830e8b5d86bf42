// Clipping polygons on lat/lng (issue 28: new landscape areas never cover road or parking already on
// a takeoff, an "add" run is clipped to what is there, a detect stays inside its outline). turf's
// intersect, difference and union (polyclip-ts, a Martinez–Rueda sweep) in the plane of the
// coordinates: at a site's scale (well under a kilometre) the difference from cutting on the
// sphere is far below a pixel of imagery. Areas are then taken on the sphere (sphere.ts). A polygon
// here is its rings, outline first, each open, [lat, lng]. Pure.
import turfDifference from '@turf/difference';
import turfIntersect from '@turf/intersect';
import turfUnion from '@turf/union';
import type { Feature, FeatureCollection, MultiPolygon, Polygon, Position } from 'geojson';
import type { Ring } from './sphere.ts';
import { openRing } from './shapes.ts';

export type PolygonRings = Ring[];

const closed = (ring: Ring): Position[] => {
  const out = ring.map(([lat, lng]): Position => [lng, lat]);
  out.push(out[0]);
  return out;
};

const feature = (rings: PolygonRings): Feature<Polygon> => ({
  type: 'Feature',
  properties: {},
  geometry: { type: 'Polygon', coordinates: rings.map(closed) },
});

const collection = (polys: PolygonRings[]): FeatureCollection<Polygon> => ({
  type: 'FeatureCollection',
  features: polys.map(feature),
});

function polygonsOf(f: Feature<Polygon | MultiPolygon> | null): PolygonRings[] {
  if (!f) return [];
  const polys = f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates;
  return polys
    .map((rings) => rings.map((r) => openRing(r.map(([lng, lat]) => [lat, lng]))).filter((r) => r.length >= 3))
    .filter((rings) => rings.length > 0);
}

/** One polygon less everything any of `cutters` covers (each piece left its own polygon). */
export function cutOut(polygon: PolygonRings, cutters: PolygonRings[]): PolygonRings[] {
  if (cutters.length === 0) return [polygon];
  return polygonsOf(turfDifference(collection([polygon, ...cutters])));
}

/** The parts of a polygon inside any of `outlines`. */
export function keepInside(polygon: PolygonRings, outlines: PolygonRings[]): PolygonRings[] {
  const within = outlines.length === 1 ? feature(outlines[0]) : turfUnion(collection(outlines));
  if (!within) return [];
  return polygonsOf(turfIntersect({ type: 'FeatureCollection', features: [feature(polygon), within] }));
}

/** The polygons merged where they touch or overlap (what windows cut apart, put back together). */
export function unionOf(polygons: PolygonRings[]): PolygonRings[] {
  if (polygons.length < 2) return polygons;
  return polygonsOf(turfUnion(collection(polygons)));
}
