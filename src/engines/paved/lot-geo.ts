// From a synthetic scene's local meters to Web Mercator global pixels, the frame XYZ tile servers
// cut (engines import nothing from platform/, so the two formulas are written here, with their
// sources). Local meters → lat/lng: the local tangent-plane (equirectangular) approximation on the
// sphere Web Mercator projects, radius R = 6,378,137 m (WGS 84's semi-major axis, EPSG:3857):
// Δlat = north ÷ R, Δlng = east ÷ (R cos lat₀), in radians; over a few hundred meters its error is
// far below a pixel. lat/lng → global pixels at zoom z (OpenStreetMap wiki, "Slippy map
// tilenames"): x = (lng + 180) ÷ 360 × 256·2^z, y = (1 − ln(tan φ + sec φ) ÷ π) ÷ 2 × 256·2^z.
// Meters per pixel there: 2πR cos φ ÷ (256·2^z) = 156,543.03392 × cos φ ÷ 2^z.

/** [east, north] in meters from the scene's origin. */
export type Meters = [number, number];

const R = 6378137;
const TILE = 256;
const DEG = 180 / Math.PI;

export interface GeoFrame {
  originLat: number;
  originLng: number;
  zoom: number;
}

/** Ground meters across one global pixel at the origin (the Web Mercator scale). */
export function mercatorMetersPerPixel(frame: GeoFrame): number {
  return (2 * Math.PI * R * Math.cos(frame.originLat / DEG)) / (TILE * 2 ** frame.zoom);
}

/** The point `m` meters east and north of the origin, as [lat, lng] degrees. */
export function metersToLatLng(frame: GeoFrame, m: Meters): [number, number] {
  const lat = frame.originLat + (m[1] / R) * DEG;
  const lng = frame.originLng + (m[0] / (R * Math.cos(frame.originLat / DEG))) * DEG;
  return [lat, lng];
}

/** Global pixel [x, y] (fractional) of a lat/lng at the frame's zoom. */
export function latLngToGlobalPixel(zoom: number, lat: number, lng: number): [number, number] {
  const size = TILE * 2 ** zoom;
  const phi = lat / DEG;
  const x = ((lng + 180) / 360) * size;
  const y = ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * size;
  return [x, y];
}

/** Local meters → global pixels at the frame's zoom. */
export function metersToGlobalPixel(frame: GeoFrame, m: Meters): [number, number] {
  const [lat, lng] = metersToLatLng(frame, m);
  return latLngToGlobalPixel(frame.zoom, lat, lng);
}
