// The place a rating names (document 3, Condition ratings: "polygon [[lat, lng], ...] with 3 or
// more points, or GeoJSON Polygon or Feature in [lng, lat] order"). Read into one form, an outline
// of [lat, lng] points, whichever way it came; anything else is 400 invalid_request.
import { invalidRequest } from './errors.ts';

export type LatLng = [lat: number, lng: number];

const MAX_POINTS = 1_000;

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function checkedPoint(lat: unknown, lng: unknown, at: number): LatLng {
  if (!isNumber(lat) || !isNumber(lng)) throw invalidRequest(`polygon point ${at} is not a pair of numbers`, 'polygon');
  if (lat < -85 || lat > 85 || lng < -180 || lng > 180)
    throw invalidRequest(
      `polygon point ${at} (${lat}, ${lng}) is outside latitude -85 to 85 and longitude -180 to 180; GeoJSON is [lng, lat]`,
      'polygon',
    );
  return [lat, lng];
}

/** GeoJSON's outer ring ([lng, lat] pairs) of a Polygon, or of a Feature whose geometry is one. */
function geoJsonRing(value: Record<string, unknown>): unknown[] {
  const geometry = value.type === 'Feature' ? (value.geometry as Record<string, unknown> | null) : value;
  if (!geometry || geometry.type !== 'Polygon' || !Array.isArray(geometry.coordinates))
    throw invalidRequest('polygon must be [[lat, lng], ...] or a GeoJSON Polygon or Feature with a Polygon', 'polygon');
  const outer = geometry.coordinates[0];
  if (!Array.isArray(outer)) throw invalidRequest('The GeoJSON polygon has no outer ring', 'polygon');
  return outer;
}

/** The outline as [lat, lng] points, the closing repeat of the first point dropped. */
export function readPolygon(value: unknown): LatLng[] {
  let points: LatLng[];
  if (Array.isArray(value)) {
    points = value.map((p, i) => {
      if (!Array.isArray(p) || p.length !== 2) throw invalidRequest(`polygon point ${i} is not [lat, lng]`, 'polygon');
      return checkedPoint(p[0], p[1], i);
    });
  } else if (value !== null && typeof value === 'object') {
    points = geoJsonRing(value as Record<string, unknown>).map((p, i) => {
      if (!Array.isArray(p) || p.length < 2) throw invalidRequest(`GeoJSON position ${i} is not [lng, lat]`, 'polygon');
      return checkedPoint(p[1], p[0], i);
    });
  } else {
    throw invalidRequest('polygon must be [[lat, lng], ...] or a GeoJSON Polygon or Feature', 'polygon');
  }
  const first = points[0];
  const last = points[points.length - 1];
  if (points.length > 1 && first && last && first[0] === last[0] && first[1] === last[1]) points = points.slice(0, -1);
  if (points.length < 3) throw invalidRequest('polygon needs 3 or more distinct points', 'polygon');
  if (points.length > MAX_POINTS) throw invalidRequest(`polygon may have at most ${MAX_POINTS} points`, 'polygon');
  return points;
}
