// Areas, lengths and distances on the sphere, by @turf (GUIDE, libraries: "geometry on lat/lng").
// turf's area is the spherical excess method of Chamberlain and Duquette ("Some Algorithms for
// Polygons on a Sphere", JPL 2007) on a sphere of the mean Earth radius, 6,371,008.8 m (IUGG);
// lengths and distances are haversine on the same sphere. Points here are [lat, lng] (the API's order); GeoJSON's [lng, lat]
// is made only at the call into turf. Pure.
import turfArea from '@turf/area';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import turfDistance from '@turf/distance';
import turfLength from '@turf/length';
import type { Feature, LineString, Polygon, Position } from 'geojson';

/** [lat, lng] in degrees. */
export type LatLng = [number, number];
/** An open ring: 3 or more points, the first not repeated at the end. */
export type Ring = LatLng[];

const position = ([lat, lng]: LatLng): Position => [lng, lat];

/** GeoJSON's closed ring of [lng, lat]. */
function closed(ring: Ring): Position[] {
  const out = ring.map(position);
  out.push(out[0]);
  return out;
}

function polygon(rings: Ring[]): Feature<Polygon> {
  return { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: rings.map(closed) } };
}

/** Square meters inside one ring, whichever way it winds. */
export function ringAreaM2(ring: Ring): number {
  return turfArea(polygon([ring]));
}

/** Square meters of a polygon: its outline less each hole (each hole taken whole, as turf does). */
export function polygonAreaM2(rings: Ring[]): number {
  return turfArea(polygon(rings));
}

/** Meters along a line of 2 or more points. */
export function lineLengthM(points: LatLng[]): number {
  const line: Feature<LineString> = {
    type: 'Feature',
    properties: {},
    geometry: { type: 'LineString', coordinates: points.map(position) },
  };
  return turfLength(line, { units: 'meters' });
}

export function distanceM(a: LatLng, b: LatLng): number {
  return turfDistance(position(a), position(b), { units: 'meters' });
}

/** True when the point is inside the polygon's outline and outside its holes (edges count as inside). */
export function pointInPolygon(point: LatLng, rings: Ring[]): boolean {
  return booleanPointInPolygon(position(point), polygon(rings));
}
