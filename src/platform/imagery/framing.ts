// Where the image goes: from a place and an optional zoom to the window of global pixels to cut,
// before any tile is fetched. Pure. The numbers (decided in docs/api-decisions.md, "Condition
// ratings: imagery"):
// - a polygon gets a margin of 5% of its bounding box's longer side, at least 5 m, on every side,
//   so its edges and a strip of surroundings are in the picture;
// - a point gets a 60 m square around it (a driveway or a small lot with its street edge);
// - the default zoom is the largest ≤ 20 (and ≥ 16) at which the image's longer side fits
//   FIT_PX = 1,280 px: at zoom 20 that is 191 m at the equator, 146 m at 40° and 123 m at 50°, so a
//   polygon 120 m across (132 m with its margin) gets zoom 20 up to 46° of latitude: "a polygon up
//   to about 120 m across is rated at full detail";
// - no image is cut larger than MAX_PX = 4,096 px a side (at most 17 × 17 tiles): a bigger place,
//   or a zoom too fine for it, is ImageryPlaceRefused rather than a minute of tile fetching.
import { ImageryPlaceRefused, type Bounds, type ImageryPlace, type LatLng } from './imagery.ts';
import { fromPixel, MAX_LATITUDE, metersPerPixel, toPixel, worldPx } from './web-mercator.ts';

export const MIN_ZOOM = 16;
export const MAX_ZOOM = 21;
/** The finest zoom the default picks (21 only when asked: few servers have it everywhere). */
export const DEFAULT_MAX_ZOOM = 20;
export const FIT_PX = 1280;
export const MAX_PX = 4096;
export const MARGIN_SHARE = 0.05;
export const MIN_MARGIN_M = 5;
export const POINT_SQUARE_M = 60;

export interface Frame {
  zoom: number;
  /** The image's window in global pixels at `zoom`: whole pixels, right and bottom exclusive. */
  left: number;
  top: number;
  width: number;
  height: number;
  /** The image's centre, its edges and its ground resolution there. */
  lat: number;
  lng: number;
  bounds: Bounds;
  metersPerPixel: number;
  /** The polygon in the image's pixels; null for a point. */
  outline: Array<[number, number]> | null;
}

/** A longitude brought into -180..180 (180 stays 180). */
const wrapLng = (lng: number) => (lng >= -180 && lng <= 180 ? lng : ((((lng + 180) % 360) + 360) % 360) - 180);

function validPoint(lat: number, lng: number): boolean {
  return Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= MAX_LATITUDE && Math.abs(lng) <= 180;
}

/** The place's points, checked: a polygon needs 3+ points inside Web Mercator's range. */
function pointsOf(place: ImageryPlace): LatLng[] {
  const points: LatLng[] = 'polygon' in place ? place.polygon : [[place.point.lat, place.point.lng]];
  if ('polygon' in place && points.length < 3) throw new ImageryPlaceRefused('A polygon needs 3 or more points');
  for (const [lat, lng] of points) {
    if (!validPoint(lat, lng))
      throw new ImageryPlaceRefused(
        `Every point needs a latitude within ±${MAX_LATITUDE.toFixed(4)} and a longitude within ±180, got [${lat}, ${lng}]`,
      );
  }
  return points;
}

/** The window at zoom 0 (fractional pixels) around the place with its margin. */
function windowAtZoom0(place: ImageryPlace, points: LatLng[]) {
  const px = points.map(([lat, lng]) => toPixel(lat, lng, 0));
  const minX = Math.min(...px.map((p) => p.x));
  const maxX = Math.max(...px.map((p) => p.x));
  const minY = Math.min(...px.map((p) => p.y));
  const maxY = Math.max(...px.map((p) => p.y));
  // The margin is in meters on the ground, turned into pixels at the box's middle latitude.
  const mid = fromPixel((minX + maxX) / 2, (minY + maxY) / 2, 0);
  const mpp0 = metersPerPixel(mid.lat, 0);
  const margin =
    'polygon' in place
      ? Math.max(MIN_MARGIN_M, MARGIN_SHARE * Math.max(maxX - minX, maxY - minY) * mpp0) / mpp0
      : POINT_SQUARE_M / 2 / mpp0;
  return { minX: minX - margin, maxX: maxX + margin, minY: minY - margin, maxY: maxY + margin, px };
}

/** The window's pixel size at a zoom (both sides scale with 2^zoom). */
function sizeAt(w: { minX: number; maxX: number; minY: number; maxY: number }, zoom: number): number {
  const scale = 2 ** zoom;
  return Math.max(
    Math.ceil(w.maxX * scale) - Math.floor(w.minX * scale),
    Math.ceil(w.maxY * scale) - Math.floor(w.minY * scale),
  );
}

/** The zoom a place gets when none is asked: the largest from 20 down to 16 whose image fits FIT_PX. */
export function defaultZoom(place: ImageryPlace): number {
  const w = windowAtZoom0(place, pointsOf(place));
  for (let zoom = DEFAULT_MAX_ZOOM; zoom > MIN_ZOOM; zoom--) if (sizeAt(w, zoom) <= FIT_PX) return zoom;
  return MIN_ZOOM;
}

/** The window to cut for a place: at the zoom asked, or the default one. */
export function frameOf(place: ImageryPlace, zoom?: number): Frame {
  if (zoom !== undefined && (!Number.isInteger(zoom) || zoom < MIN_ZOOM || zoom > MAX_ZOOM))
    throw new ImageryPlaceRefused(`zoom must be a whole number from ${MIN_ZOOM} to ${MAX_ZOOM}, got ${zoom}`);
  const points = pointsOf(place);
  const w = windowAtZoom0(place, points);
  const z = zoom ?? defaultZoom(place);
  const scale = 2 ** z;
  const left = Math.floor(w.minX * scale);
  const right = Math.ceil(w.maxX * scale);
  // Past the poles' limit there is no map: the window stops at the world's top and bottom edges.
  const top = Math.max(0, Math.floor(w.minY * scale));
  const bottom = Math.min(worldPx(z), Math.ceil(w.maxY * scale));
  const width = right - left;
  const height = bottom - top;
  if (Math.max(width, height) > MAX_PX)
    throw new ImageryPlaceRefused(
      `The place is too large for zoom ${z}: its image would be ${width} × ${height} px, over ${MAX_PX}; ` +
        (zoom === undefined ? 'rate a smaller polygon' : 'ask a lower zoom or leave zoom out'),
    );
  const centre = fromPixel(left + width / 2, top + height / 2, z);
  const nw = fromPixel(left, top, z);
  const se = fromPixel(right, bottom, z);
  return {
    zoom: z,
    left,
    top,
    width,
    height,
    lat: centre.lat,
    // A window over the antimeridian names its longitudes in -180..180 like any other, so its west
    // edge is then east of its east edge (as GeoJSON bounding boxes say it).
    lng: wrapLng(centre.lng),
    bounds: { north: nw.lat, south: se.lat, west: wrapLng(nw.lng), east: wrapLng(se.lng) },
    metersPerPixel: metersPerPixel(centre.lat, z),
    outline: 'polygon' in place ? w.px.map((p) => [p.x * scale - left, p.y * scale - top]) : null,
  };
}
