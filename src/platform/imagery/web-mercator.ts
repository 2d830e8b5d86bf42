// Web Mercator (EPSG:3857) as XYZ "slippy map" tile servers cut it: at zoom z the world is a square
// of 256 × 2^z pixels, x growing east from 180° W and y growing south from 85.0511° N. Formulas as
// the OpenStreetMap wiki gives them ("Slippy map tilenames", wiki.openstreetmap.org), in global
// pixels rather than whole tiles so a crop can be cut to the pixel. Pure: numbers in, numbers out.

export const TILE_PX = 256;

/** Web Mercator's latitude limit: the one at which the world comes out square (atan(sinh(π))). */
export const MAX_LATITUDE = (Math.atan(Math.sinh(Math.PI)) * 180) / Math.PI;

/** The ground size of one pixel at the equator at zoom 0: the equator's 40,075,016.686 m ÷ 256. */
export const EQUATOR_METERS_PER_PIXEL = 156543.03392;

/** Ground meters across one pixel at this latitude and zoom: 156543.03392 × cos(lat) ÷ 2^z. */
export function metersPerPixel(lat: number, zoom: number): number {
  return (EQUATOR_METERS_PER_PIXEL * Math.cos((lat * Math.PI) / 180)) / 2 ** zoom;
}

/** The world's width (and height) in pixels at this zoom. */
export function worldPx(zoom: number): number {
  return TILE_PX * 2 ** zoom;
}

const clampLat = (lat: number) => Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat));

/** Global pixel coordinates (fractional) of a point at this zoom; latitudes past the limit are clamped. */
export function toPixel(lat: number, lng: number, zoom: number): { x: number; y: number } {
  const size = worldPx(zoom);
  const phi = (clampLat(lat) * Math.PI) / 180;
  const x = ((lng + 180) / 360) * size;
  const y = ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * size;
  return { x, y };
}

/** The point at global pixel coordinates (fractional) at this zoom: toPixel's inverse. */
export function fromPixel(x: number, y: number, zoom: number): { lat: number; lng: number } {
  const size = worldPx(zoom);
  const lng = (x / size) * 360 - 180;
  const n = Math.PI * (1 - (2 * y) / size);
  const lat = (Math.atan(Math.sinh(n)) * 180) / Math.PI;
  return { lat, lng };
}

/** The tile holding a global pixel: {x, y} in tile numbers at this zoom. */
export function tileOf(px: number, py: number): { x: number; y: number } {
  return { x: Math.floor(px / TILE_PX), y: Math.floor(py / TILE_PX) };
}
