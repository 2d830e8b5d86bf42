// One-way truck driving time between two places, for hauls with automatic_driving_time. There is
// no routing service, so the time is estimated from the straight-line distance. No I/O here
// beyond the geocoder the caller hands in.
import type { GeoPoint, Geocoder } from './geocoding.ts';

/** Mean Earth radius (IUGG R1), km: the sphere that best fits the WGS84 ellipsoid on average. */
const EARTH_RADIUS_KM = 6371.0088;
/** Roads are longer than the straight line: ~1.2× on average in circuity studies (Newell 1980), more on the
 *  short local trips hauls are; 1.3 leans long so an estimate under-prices less often. */
const ROAD_FACTOR = 1.3;
/** A loaded dump truck averages ~35 mph (56 km/h) door to door, mixing streets, lights and highway. */
const TRUCK_SPEED_KMH = 56;
/** Any real trip (leave the plant, park at the job) takes a few minutes however close the two points. */
const MIN_HOURS = 0.05;

const rad = (deg: number) => (deg * Math.PI) / 180;

function checkPoint(p: GeoPoint, name: string): void {
  if (!Number.isFinite(p.lat) || !Number.isFinite(p.lng) || Math.abs(p.lat) > 90) {
    throw new RangeError(`${name} is not a valid coordinate: ${p.lat}, ${p.lng}`);
  }
}

/** Great-circle distance in km (haversine on the mean-radius sphere; within ~0.5% of the ellipsoid). */
export function greatCircleKm(a: GeoPoint, b: GeoPoint): number {
  checkPoint(a, 'a');
  checkPoint(b, 'b');
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  // min(): rounding can push h a hair over 1 for antipodal points.
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * Estimated one-way driving hours: great-circle km × roadFactor ÷ speedKmh, rounded to 2 decimals
 * (what drive_hr carries), at least 0.05 h for two distinct points and 0 for the same point.
 */
export function estimateDriveHours(
  a: GeoPoint,
  b: GeoPoint,
  opts: { roadFactor?: number; speedKmh?: number } = {},
): number {
  const roadFactor = opts.roadFactor ?? ROAD_FACTOR;
  const speedKmh = opts.speedKmh ?? TRUCK_SPEED_KMH;
  if (!(roadFactor > 0) || !Number.isFinite(roadFactor))
    throw new RangeError(`roadFactor must be a positive number, got ${roadFactor}`);
  if (!(speedKmh > 0) || !Number.isFinite(speedKmh))
    throw new RangeError(`speedKmh must be a positive number, got ${speedKmh}`);
  const km = greatCircleKm(a, b);
  if (km === 0) return 0;
  return Math.max(MIN_HOURS, Math.round((km * roadFactor * 100) / speedKmh) / 100);
}

/** An address the geocoder answered for but could not place (the spec's `address_not_found`). */
export class AddressNotFound extends Error {
  readonly address: string;
  constructor(address: string) {
    super(`address not found: ${address}`);
    this.name = 'AddressNotFound';
    this.address = address;
  }
}

/**
 * Geocodes both addresses (concurrently) and estimates the one-way drive. `km` is the great-circle
 * distance rounded to 2 decimals. Throws AddressNotFound (`from` checked first) or the geocoder's
 * GeocoderUnavailable.
 */
export async function driveHoursBetween(
  geocoder: Geocoder,
  from: string,
  to: string,
): Promise<{ hours: number; km: number; from: GeoPoint; to: GeoPoint }> {
  const [a, b] = await Promise.all([geocoder.geocode(from), geocoder.geocode(to)]);
  if (!a) throw new AddressNotFound(from);
  if (!b) throw new AddressNotFound(to);
  return { hours: estimateDriveHours(a, b), km: Math.round(greatCircleKm(a, b) * 100) / 100, from: a, to: b };
}
