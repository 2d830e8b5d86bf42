// Geocoding (guide, "Outside services"): the embedded default is none (callers answer
// address_not_found / geocode_failed style errors); production speaks a Nominatim- or
// Photon-compatible HTTP API at GROUNDWORK_GEOCODER_URL. That URL is the operator's, not a
// workspace's, so it may be private (a self-hosted Nominatim on the LAN is the usual setup) and is
// not run through platform/outbound.ts.
import { askOutside, cappedBytes, whyFailed } from './outside-answer.ts';

export interface GeoPoint {
  lat: number;
  lng: number;
}

export interface Geocoder {
  /** false for the embedded default, whose every lookup throws GeocoderUnavailable. */
  readonly configured: boolean;
  /** null = the service answered but found nothing; GeocoderUnavailable = it could not answer. */
  geocode(address: string): Promise<GeoPoint | null>;
}

/** The geocoder could not answer (not configured, network error, non-2xx, bad JSON, timeout). */
export class GeocoderUnavailable extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(reason);
    this.name = 'GeocoderUnavailable';
    this.reason = reason;
  }
}

export const noGeocoder: Geocoder = {
  configured: false,
  async geocode() {
    throw new GeocoderUnavailable('no geocoder configured: set GROUNDWORK_GEOCODER_URL');
  },
};

export interface HttpGeocoderOptions {
  timeoutMs?: number;
  userAgent?: string;
  /** Addresses remembered, found or not (0 turns the cache off). */
  cacheSize?: number;
  /** Which endpoint to call: Nominatim's /search or Photon's /api. Either answer shape is read. */
  flavor?: 'nominatim' | 'photon';
}

// A geocoder answer for one address is a few hundred bytes; anything far bigger is not one.
const MAX_BODY_BYTES = 1024 * 1024;

/** Trimmed, inner whitespace collapsed: what is sent. */
function tidy(address: string): string {
  return address.normalize('NFC').trim().replace(/\s+/g, ' ');
}

export function httpGeocoder(baseUrl: string, options: HttpGeocoderOptions = {}): Geocoder {
  const timeoutMs = options.timeoutMs ?? 5000;
  const userAgent = options.userAgent ?? 'Groundwork/0.1';
  const cacheSize = options.cacheSize ?? 1000;
  const flavor = options.flavor ?? 'nominatim';
  // Map keeps insertion order: re-inserting on a hit makes the first key the least recently used.
  const cache = new Map<string, GeoPoint | null>();
  // Concurrent lookups of one address (both ends of a route, parallel estimates) share one request.
  const inFlight = new Map<string, Promise<GeoPoint | null>>();

  // Query parameters already in the base URL (a hosted service's `key=`) are kept.
  const endpoint = new URL(baseUrl);
  endpoint.pathname = `${endpoint.pathname.replace(/\/+$/, '')}/${flavor === 'photon' ? 'api' : 'search'}`;

  function urlFor(q: string): string {
    const url = new URL(endpoint);
    url.searchParams.set('q', q);
    if (flavor === 'nominatim') url.searchParams.set('format', 'jsonv2');
    url.searchParams.set('limit', '1');
    return url.toString();
  }

  async function fetchPoint(q: string): Promise<GeoPoint | null> {
    let text: string;
    try {
      const res = await askOutside(urlFor(q), {
        method: 'GET',
        headers: { 'user-agent': userAgent, accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (res.statusCode < 200 || res.statusCode >= 300) {
        res.body.dump({ limit: 64 * 1024 }).catch(() => {});
        throw new GeocoderUnavailable(`HTTP ${res.statusCode}`);
      }
      const bytes = await cappedBytes(res.body, MAX_BODY_BYTES);
      if (!bytes) throw new GeocoderUnavailable('response too large');
      text = bytes.toString('utf8');
    } catch (err) {
      if (err instanceof GeocoderUnavailable) throw err;
      throw new GeocoderUnavailable(whyFailed(err, timeoutMs));
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new GeocoderUnavailable('response is not JSON');
    }
    return readAnswer(body);
  }

  return {
    configured: true,
    async geocode(address: string): Promise<GeoPoint | null> {
      const q = tidy(address);
      if (q === '') return null;
      const key = q.toLowerCase();
      if (cache.has(key)) {
        const hit = cache.get(key)!;
        cache.delete(key);
        cache.set(key, hit);
        return hit;
      }
      const pending = inFlight.get(key);
      if (pending) return pending;
      const lookup = fetchPoint(q)
        .then((point) => {
          if (cacheSize > 0) {
            cache.set(key, point);
            if (cache.size > cacheSize) cache.delete(cache.keys().next().value!);
          }
          return point;
        })
        .finally(() => inFlight.delete(key));
      inFlight.set(key, lookup);
      return lookup;
    },
  };
}

/** Nominatim json/jsonv2 (`[{lat, lon}]`, strings) or GeoJSON as Photon answers (`{features: [{geometry: {coordinates: [lng, lat]}}]}`). */
function readAnswer(body: unknown): GeoPoint | null {
  if (Array.isArray(body)) {
    if (body.length === 0) return null;
    const first = body[0] as { lat?: unknown; lon?: unknown } | null;
    return point(first?.lat, first?.lon);
  }
  const features = (body as { features?: unknown } | null)?.features;
  if (Array.isArray(features)) {
    if (features.length === 0) return null;
    const coords = (features[0] as { geometry?: { coordinates?: unknown } } | null)?.geometry?.coordinates;
    if (Array.isArray(coords)) return point(coords[1], coords[0]);
  }
  throw new GeocoderUnavailable('unexpected response shape');
}

function point(latRaw: unknown, lngRaw: unknown): GeoPoint {
  const lat = typeof latRaw === 'string' ? Number(latRaw) : latRaw;
  const lng = typeof lngRaw === 'string' ? Number(lngRaw) : lngRaw;
  if (
    typeof lat !== 'number' ||
    typeof lng !== 'number' ||
    !Number.isFinite(lat) ||
    !Number.isFinite(lng) ||
    Math.abs(lat) > 90 ||
    Math.abs(lng) > 180
  ) {
    throw new GeocoderUnavailable('response has no valid coordinates');
  }
  // Frozen: the cache hands the same object to every caller.
  return Object.freeze({ lat, lng });
}

/**
 * The geocoder for GROUNDWORK_GEOCODER_URL: unset or empty is the embedded default (none). A URL
 * ending in `/api` is Photon's search endpoint; any other is a Nominatim base (`/search` is added).
 */
export function geocoderFor(url: string | null | undefined): Geocoder {
  const raw = url?.trim();
  if (!raw) return noGeocoder;
  let parsed: URL | null = null;
  try {
    parsed = new URL(raw);
  } catch {
    /* reported below */
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new Error(`GROUNDWORK_GEOCODER_URL must be an http(s) URL, got "${url}"`);
  }
  const path = parsed.pathname.replace(/\/+$/, '');
  if (path.endsWith('/api')) {
    parsed.pathname = path.slice(0, -'/api'.length);
    return httpGeocoder(parsed.toString(), { flavor: 'photon' });
  }
  parsed.pathname = path.replace(/\/search$/, '');
  return httpGeocoder(parsed.toString());
}
