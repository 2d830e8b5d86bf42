// The geocoding adapter against a real local HTTP server speaking Nominatim's /search (jsonv2)
// and Photon's /api (GeoJSON).
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { geocoderFor, GeocoderUnavailable, httpGeocoder, noGeocoder, type Geocoder } from '#platform/geocoding.ts';
import { AddressNotFound, driveHoursBetween } from '#platform/drive-time.ts';

// Known places, keyed by the lower-cased query: [lat, lng].
const PLACES: Record<string, [number, number]> = {
  '1600 pennsylvania ave nw, washington, dc': [38.8976763, -77.0365298],
  'asphalt plant, 100 industrial way, springfield': [39.7817, -89.6501],
  'job site, 2 main st, springfield': [39.8017, -89.6437],
};

interface Seen {
  path: string;
  query: URLSearchParams;
  userAgent: string | undefined;
}

/** 'normal' answers from PLACES; the others misbehave on purpose. */
type Mode = 'normal' | 'error500' | 'hang' | 'hang-body' | 'not-json' | 'odd-shape' | 'bad-coords' | 'slow';

let server: http.Server;
let base: string;
let mode: Mode = 'normal';
const seen: Seen[] = [];
const sockets = new Set<Socket>();

function answer(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    seen.push({ path: url.pathname, query: url.searchParams, userAgent: req.headers['user-agent'] });
    const place = PLACES[(url.searchParams.get('q') ?? '').toLowerCase()];
    if (mode === 'hang') return;
    if (mode === 'hang-body') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[{"lat": "38.');
      return;
    }
    if (mode === 'error500') return answer(res, 500, { error: 'internal' });
    if (mode === 'not-json') return answer(res, 200, '<html>maintenance</html>');
    if (mode === 'odd-shape') return answer(res, 200, { results: [] });
    if (mode === 'bad-coords') return answer(res, 200, [{ lat: 'north', lon: '-77.0' }]);
    const reply = () => {
      if (url.pathname === '/search') {
        // Nominatim jsonv2: an array, coordinates as strings.
        if (url.searchParams.get('format') !== 'jsonv2') return answer(res, 400, { error: 'format' });
        return answer(
          res,
          200,
          place
            ? [
                {
                  place_id: 1,
                  lat: String(place[0]),
                  lon: String(place[1]),
                  category: 'building',
                  type: 'yes',
                  display_name: url.searchParams.get('q'),
                  boundingbox: ['0', '0', '0', '0'],
                },
              ]
            : [],
        );
      }
      if (url.pathname === '/photon/api') {
        // Photon: GeoJSON FeatureCollection, [lng, lat].
        return answer(res, 200, {
          type: 'FeatureCollection',
          features: place
            ? [
                {
                  type: 'Feature',
                  geometry: { type: 'Point', coordinates: [place[1], place[0]] },
                  properties: { name: 'x' },
                },
              ]
            : [],
        });
      }
      answer(res, 404, { error: 'not found' });
    };
    if (mode === 'slow') setTimeout(reply, 100);
    else reply();
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  mode = 'normal';
  seen.length = 0;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function unavailable(geocoder: Geocoder, address: string): Promise<GeocoderUnavailable> {
  const err = await geocoder.geocode(address).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GeocoderUnavailable);
  return err as GeocoderUnavailable;
}

describe('httpGeocoder (Nominatim)', () => {
  it('finds a known address with a Nominatim jsonv2 query and a User-Agent', async () => {
    const g = httpGeocoder(base);
    expect(g.configured).toBe(true);
    expect(await g.geocode('1600 Pennsylvania Ave NW, Washington, DC')).toEqual({ lat: 38.8976763, lng: -77.0365298 });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.path).toBe('/search');
    expect(seen[0]!.query.get('q')).toBe('1600 Pennsylvania Ave NW, Washington, DC');
    expect(seen[0]!.query.get('format')).toBe('jsonv2');
    expect(seen[0]!.query.get('limit')).toBe('1');
    expect(seen[0]!.userAgent).toBe('Groundwork/0.1');
  });

  it('answers null for an address the service does not know', async () => {
    expect(await httpGeocoder(base).geocode('nowhere at all 99999')).toBeNull();
    expect(seen).toHaveLength(1);
  });

  it('caches by the normalised address: other case and spacing make no request', async () => {
    const g = httpGeocoder(base);
    const first = await g.geocode('  1600 Pennsylvania Ave NW,   Washington, DC ');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.query.get('q')).toBe('1600 Pennsylvania Ave NW, Washington, DC');
    expect(await g.geocode('1600 PENNSYLVANIA AVE NW, washington,\tdc')).toEqual(first);
    expect(seen).toHaveLength(1);
  });

  it('caches "not found" too', async () => {
    const g = httpGeocoder(base);
    expect(await g.geocode('Unknown Road 1')).toBeNull();
    expect(await g.geocode('unknown road 1')).toBeNull();
    expect(seen).toHaveLength(1);
  });

  it('forgets the least recently used address past cacheSize', async () => {
    const g = httpGeocoder(base, { cacheSize: 2 });
    await g.geocode('a');
    await g.geocode('b');
    await g.geocode('a'); // a is now the most recent
    await g.geocode('c'); // evicts b
    expect(seen).toHaveLength(3);
    await g.geocode('a');
    expect(seen).toHaveLength(3);
    await g.geocode('b');
    expect(seen).toHaveLength(4);
  });

  it('cacheSize 0 turns the cache off', async () => {
    const g = httpGeocoder(base, { cacheSize: 0 });
    await g.geocode('a');
    await g.geocode('a');
    expect(seen).toHaveLength(2);
  });

  it('concurrent lookups of one address share one request', async () => {
    mode = 'slow';
    const g = httpGeocoder(base);
    const [x, y] = await Promise.all([
      g.geocode('job site, 2 main st, springfield'),
      g.geocode('Job Site, 2 Main St, Springfield'),
    ]);
    expect(x).toEqual({ lat: 39.8017, lng: -89.6437 });
    expect(y).toEqual(x);
    expect(seen).toHaveLength(1);
  });

  it('a blank address is not found without asking', async () => {
    expect(await httpGeocoder(base).geocode('   ')).toBeNull();
    expect(seen).toHaveLength(0);
  });

  it('sends the configured User-Agent and keeps query parameters of the base URL', async () => {
    await httpGeocoder(`${base}/?key=secret`, { userAgent: 'Groundwork-test/9' }).geocode('a');
    expect(seen[0]!.path).toBe('/search');
    expect(seen[0]!.query.get('key')).toBe('secret');
    expect(seen[0]!.userAgent).toBe('Groundwork-test/9');
  });

  it('a 500 answer is GeocoderUnavailable, and failures are not cached', async () => {
    const g = httpGeocoder(base);
    mode = 'error500';
    expect((await unavailable(g, '1600 Pennsylvania Ave NW, Washington, DC')).reason).toBe('HTTP 500');
    mode = 'normal';
    expect(await g.geocode('1600 Pennsylvania Ave NW, Washington, DC')).not.toBeNull();
    expect(seen).toHaveLength(2);
  });

  it('a server that never answers is GeocoderUnavailable after the timeout', async () => {
    mode = 'hang';
    const started = Date.now();
    const err = await unavailable(httpGeocoder(base, { timeoutMs: 200 }), 'a');
    expect(err.reason).toBe('no answer within 200 ms');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('an answer whose body never ends is GeocoderUnavailable after the timeout', async () => {
    mode = 'hang-body';
    expect((await unavailable(httpGeocoder(base, { timeoutMs: 200 }), 'a')).reason).toBe('no answer within 200 ms');
  });

  it('a non-JSON, oddly shaped or coordinate-less answer is GeocoderUnavailable', async () => {
    const g = httpGeocoder(base);
    mode = 'not-json';
    expect((await unavailable(g, 'a')).reason).toBe('response is not JSON');
    mode = 'odd-shape';
    expect((await unavailable(g, 'a')).reason).toBe('unexpected response shape');
    mode = 'bad-coords';
    expect((await unavailable(g, 'a')).reason).toBe('response has no valid coordinates');
  });

  it('a refused connection is GeocoderUnavailable', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect((await unavailable(httpGeocoder(`http://127.0.0.1:${port}`), 'a')).reason).toBe('ECONNREFUSED');
  });
});

describe('httpGeocoder (Photon)', () => {
  it('calls /api and reads GeoJSON [lng, lat]; unknown is null', async () => {
    const g = httpGeocoder(`${base}/photon`, { flavor: 'photon' });
    expect(await g.geocode('1600 Pennsylvania Ave NW, Washington, DC')).toEqual({ lat: 38.8976763, lng: -77.0365298 });
    expect(seen[0]!.path).toBe('/photon/api');
    expect(seen[0]!.query.get('limit')).toBe('1');
    expect(seen[0]!.query.has('format')).toBe(false);
    expect(await g.geocode('nowhere')).toBeNull();
  });
});

describe('noGeocoder and geocoderFor', () => {
  it('noGeocoder is not configured and every lookup is GeocoderUnavailable', async () => {
    expect(noGeocoder.configured).toBe(false);
    expect((await unavailable(noGeocoder, '1600 Pennsylvania Ave NW')).reason).toBe(
      'no geocoder configured: set GROUNDWORK_GEOCODER_URL',
    );
  });

  it('null, undefined and empty select noGeocoder; a bad URL is refused at start', () => {
    expect(geocoderFor(null)).toBe(noGeocoder);
    expect(geocoderFor(undefined)).toBe(noGeocoder);
    expect(geocoderFor('  ')).toBe(noGeocoder);
    expect(() => geocoderFor('not a url')).toThrow(/GROUNDWORK_GEOCODER_URL/);
    expect(() => geocoderFor('ftp://example.com')).toThrow(/GROUNDWORK_GEOCODER_URL/);
  });

  it('a base URL speaks Nominatim (a trailing /search is tolerated); one ending in /api speaks Photon', async () => {
    for (const url of [base, `${base}/`, `${base}/search`]) {
      expect(await geocoderFor(url).geocode('job site, 2 main st, springfield')).toEqual({
        lat: 39.8017,
        lng: -89.6437,
      });
    }
    expect(await geocoderFor(`${base}/photon/api`).geocode('job site, 2 main st, springfield')).toEqual({
      lat: 39.8017,
      lng: -89.6437,
    });
    expect(seen.map((s) => s.path)).toEqual(['/search', '/search', '/search', '/photon/api']);
  });
});

describe('driveHoursBetween over the real geocoder', () => {
  it('geocodes both ends and estimates the drive', async () => {
    const r = await driveHoursBetween(
      httpGeocoder(base),
      'Asphalt Plant, 100 Industrial Way, Springfield',
      'Job Site, 2 Main St, Springfield',
    );
    expect(r.from).toEqual({ lat: 39.7817, lng: -89.6501 });
    expect(r.to).toEqual({ lat: 39.8017, lng: -89.6437 });
    expect(r.km).toBe(2.29);
    expect(r.hours).toBe(0.05); // 2.29 × 1.3 / 56 = 0.053 h
  });

  it('an unknown address is AddressNotFound naming it; no geocoder is GeocoderUnavailable', async () => {
    const err = await driveHoursBetween(httpGeocoder(base), 'job site, 2 main st, springfield', 'Nowhere Lane 7').catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AddressNotFound);
    expect((err as AddressNotFound).address).toBe('Nowhere Lane 7');
    await expect(driveHoursBetween(noGeocoder, 'a', 'b')).rejects.toBeInstanceOf(GeocoderUnavailable);
  });
});
