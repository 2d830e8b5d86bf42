// The imagery interface with its XYZ tile adapter against a real local tile server (tile-server.ts)
// whose tiles carry their own coordinates in their pixels: the mosaic (tiles placed right), the crop
// to the polygon, meters per pixel at two latitudes, the zoom it picks, premium capture dates, the
// tile cache, and every error an endpoint maps.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeps } from '#platform/deps.ts';
import { frameOf, MIN_MARGIN_M } from '#platform/imagery/framing.ts';
import {
  ImageryNotConfigured,
  ImageryPlaceRefused,
  ImageryUnreachable,
  NoImageryCoverage,
  noImagery,
  type ImageryError,
  type ImageryPlace,
  type LatLng,
  type Mosaic,
} from '#platform/imagery/imagery.ts';
import { tileImagery } from '#platform/imagery/mosaic.ts';
import { imageryFor } from '#platform/imagery/select.ts';
import { diskTileCache } from '#platform/imagery/tile-cache.ts';
import { metersPerPixel, toPixel } from '#platform/imagery/web-mercator.ts';
import { xyzTileServer, type TileServer } from '#platform/imagery/xyz-tiles.ts';
import { expectedPixel, startTileServer, type Mode, type TileServerHandle } from './tile-server.ts';

let tiles: TileServerHandle;
let dataDir: string;

beforeAll(async () => {
  tiles = await startTileServer();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-imagery-'));
});
afterAll(async () => {
  await tiles.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A tile server on the local test server, with no cache unless one is given. */
const server = (mode: Mode, cache?: Parameters<typeof xyzTileServer>[1]['cache']): TileServer =>
  xyzTileServer(tiles.template(mode), { allowPrivate: true, cache });

/** A lot about 60 m × 40 m whose south-west corner is at (lat, lng). */
function lot(lat: number, lng: number): { polygon: LatLng[] } {
  const dLat = 40 / 111_320;
  const dLng = 60 / (111_320 * Math.cos((lat * Math.PI) / 180));
  return {
    polygon: [
      [lat, lng],
      [lat + dLat, lng],
      [lat + dLat, lng + dLng],
      [lat, lng + dLng],
    ],
  };
}

/** Every pixel of the mosaic that does not hold what its global pixel's tile drew there. */
function misplaced(mosaic: Mosaic, left: number, top: number, tolerance = 0): number {
  let wrong = 0;
  const { width, height } = mosaic.meta;
  for (let row = 0; row < height; row++)
    for (let col = 0; col < width; col++) {
      const want = expectedPixel(left + col, top + row);
      const at = (row * width + col) * 3;
      for (let c = 0; c < 3; c++) if (Math.abs(mosaic.pixels[at + c]! - want[c]!) > tolerance) wrong++;
    }
  return wrong;
}

async function failure(promise: Promise<unknown>): Promise<ImageryError> {
  try {
    await promise;
  } catch (err) {
    return err as ImageryError;
  }
  throw new Error('expected the imagery to fail');
}

describe('the mosaic', () => {
  it('lays every tile where it belongs and cuts the window to the pixel', async () => {
    const place = lot(0.0004, 0.0003);
    const frame = frameOf(place);
    const mosaic = await tileImagery({ standard: server('png') }).mosaic(place, { source: 'standard' });
    expect(mosaic.channels).toBe(3);
    expect(mosaic.meta.width).toBe(frame.width);
    expect(mosaic.meta.height).toBe(frame.height);
    expect(mosaic.pixels.length).toBe(frame.width * frame.height * 3);
    // The window crosses tile edges both ways (3+ tiles each way), and not on a tile edge.
    expect(Math.floor((frame.left + frame.width) / 256) - Math.floor(frame.left / 256)).toBeGreaterThanOrEqual(2);
    expect(frame.left % 256).not.toBe(0);
    expect(misplaced(mosaic, frame.left, frame.top)).toBe(0);
    expect(mosaic.meta.coverage_pct).toBe(100);
  });

  it('wraps around the antimeridian: the tiles east of 180° are the ones at the west edge of the world', async () => {
    const place = { point: { lat: 0, lng: 179.99995 } };
    const frame = frameOf(place);
    const world = 256 * 2 ** frame.zoom;
    expect(frame.left + frame.width).toBeGreaterThan(world);
    const mosaic = await tileImagery({ standard: server('png') }).mosaic(place, { source: 'standard' });
    let wrong = 0;
    for (let row = 0; row < frame.height; row++)
      for (let col = 0; col < frame.width; col++) {
        const want = expectedPixel((frame.left + col) % world, frame.top + row);
        const at = (row * frame.width + col) * 3;
        for (let c = 0; c < 3; c++) if (mosaic.pixels[at + c] !== want[c]) wrong++;
      }
    expect(wrong).toBe(0);
    expect(tiles.seen.some((s) => s.startsWith('png/20/0/'))).toBe(true);
    expect(mosaic.meta.bounds.west).toBeGreaterThan(179.999);
    expect(mosaic.meta.bounds.east).toBeLessThan(-179.999);
  });

  it('reads JPEG tiles as well as PNG', async () => {
    const place = { point: { lat: 45.5, lng: -122.6 } };
    const frame = frameOf(place);
    const mosaic = await tileImagery({ standard: server('jpeg') }).mosaic(place, { source: 'standard' });
    // JPEG is lossy: the gradients come back within a few levels.
    const wrong = misplaced(mosaic, frame.left, frame.top, 12);
    expect(wrong / mosaic.pixels.length).toBeLessThan(0.01);
  });

  it('crops to the polygon with its margin: the outline sits inside, a margin from every edge', async () => {
    const place = lot(33.75, -84.39);
    const mosaic = await tileImagery({ standard: server('png') }).mosaic(place, { source: 'standard' });
    const { width, height, meters_per_pixel: mpp, zoom, bounds } = mosaic.meta;
    const outline = mosaic.outline!;
    expect(outline).toHaveLength(4);
    const xs = outline.map((p) => p[0]);
    const ys = outline.map((p) => p[1]);
    // The lot is 60 m wide: its margin is max(5 m, 5% of 60 m) = 5 m on each side, give or take the
    // pixel the window's edges are rounded out to.
    const margin = MIN_MARGIN_M / mpp;
    for (const gap of [Math.min(...xs), width - Math.max(...xs), Math.min(...ys), height - Math.max(...ys)]) {
      expect(gap).toBeGreaterThanOrEqual(margin - 0.01);
      expect(gap).toBeLessThan(margin + 1.01);
    }
    // The outline's pixels are where the polygon's points fall at the zoom, less the window's corner.
    const corner = toPixel(bounds.north, bounds.west, zoom);
    const first = toPixel(place.polygon[0]![0], place.polygon[0]![1], zoom);
    expect(outline[0]![0]).toBeCloseTo(first.x - corner.x, 3);
    expect(outline[0]![1]).toBeCloseTo(first.y - corner.y, 3);
    // The pixels under the outline are the tiles' pixels there.
    expect(misplaced(mosaic, Math.round(corner.x), Math.round(corner.y))).toBe(0);
    // The bounds contain the polygon, and the centre is the bounds' middle.
    for (const [lat, lng] of place.polygon) {
      expect(lat).toBeGreaterThan(bounds.south);
      expect(lat).toBeLessThan(bounds.north);
      expect(lng).toBeGreaterThan(bounds.west);
      expect(lng).toBeLessThan(bounds.east);
    }
    expect(mosaic.meta.lng).toBeCloseTo((bounds.west + bounds.east) / 2, 9);
  });

  it('frames a point in a 60 m square at zoom 20 with no outline', async () => {
    const mosaic = await tileImagery({ standard: server('png') }).mosaic(
      { point: { lat: 0.0001, lng: 0.0001 } },
      { source: 'standard' },
    );
    expect(mosaic.meta.zoom).toBe(20);
    expect(mosaic.outline).toBeNull();
    expect(mosaic.meta.width * mosaic.meta.meters_per_pixel).toBeCloseTo(60, -0.5);
    expect(mosaic.meta.lat).toBeCloseTo(0.0001, 6);
    expect(mosaic.meta.lng).toBeCloseTo(0.0001, 6);
  });
});

describe('meters per pixel', () => {
  it('is 156543.03392 × cos(lat) ÷ 2^z: 0.1493 m at the equator and half that at 60° (zoom 20)', async () => {
    const imagery = tileImagery({ standard: server('png') });
    const equator = await imagery.mosaic({ point: { lat: 0, lng: 10 } }, { source: 'standard' });
    const sixty = await imagery.mosaic({ point: { lat: 60, lng: 10 } }, { source: 'standard' });
    expect(equator.meta.meters_per_pixel).toBeCloseTo(0.149291, 5);
    expect(sixty.meta.meters_per_pixel).toBeCloseTo(0.0746455, 5);
    // The same 60 m square takes twice the pixels at 60°.
    expect(sixty.meta.width / equator.meta.width).toBeCloseTo(2, 1);
    const z18 = await imagery.mosaic({ point: { lat: 60, lng: 10 } }, { source: 'standard', zoom: 18 });
    expect(z18.meta.meters_per_pixel).toBeCloseTo(metersPerPixel(z18.meta.lat, 18), 12);
    expect(z18.meta.meters_per_pixel).toBeCloseTo(0.298582, 5);
  });
});

describe('the zoom', () => {
  const imagery = () => tileImagery({ standard: server('png') });
  /** A square polygon `meters` across centred at (lat, lng). */
  const square = (lat: number, lng: number, meters: number): ImageryPlace => {
    const dLat = meters / 2 / 111_320;
    const dLng = meters / 2 / (111_320 * Math.cos((lat * Math.PI) / 180));
    return {
      polygon: [
        [lat - dLat, lng - dLng],
        [lat + dLat, lng - dLng],
        [lat + dLat, lng + dLng],
        [lat - dLat, lng + dLng],
      ],
    };
  };

  it('fits the polygon up to 20: at 40°, 120 m gets 20, 200 m 19, 300 m 18 and 2 km 16', async () => {
    const full = await imagery().mosaic(square(40, -75, 120), { source: 'standard' });
    expect(full.meta.zoom).toBe(20);
    expect(Math.max(full.meta.width, full.meta.height)).toBeLessThanOrEqual(1280);
    expect((await imagery().mosaic(square(40, -75, 200), { source: 'standard' })).meta.zoom).toBe(19);
    expect(frameOf(square(40, -75, 300)).zoom).toBe(18);
    expect(frameOf(square(40, -75, 2000)).zoom).toBe(16);
    // A small lot never goes past 20 by default.
    expect(frameOf(square(40, -75, 10)).zoom).toBe(20);
  });

  it('takes the zoom asked, 16 to 21', async () => {
    const at21 = await imagery().mosaic(square(40, -75, 30), { source: 'standard', zoom: 21 });
    expect(at21.meta.zoom).toBe(21);
    const at17 = await imagery().mosaic(square(40, -75, 30), { source: 'standard', zoom: 17 });
    expect(at17.meta.zoom).toBe(17);
    expect(at21.meta.width / at17.meta.width).toBeCloseTo(16, 0);
  });

  it('refuses a zoom outside 16 to 21, and a place too large for its zoom (400 invalid_request)', async () => {
    for (const zoom of [15, 22, 18.5]) {
      const err = await failure(imagery().mosaic(square(40, -75, 30), { source: 'standard', zoom }));
      expect(err).toBeInstanceOf(ImageryPlaceRefused);
    }
    const big = await failure(imagery().mosaic(square(40, -75, 1000), { source: 'standard', zoom: 21 }));
    expect(big).toBeInstanceOf(ImageryPlaceRefused);
    expect([big.status, big.code]).toEqual([400, 'invalid_request']);
    expect(big.message).toMatch(/too large for zoom 21/);
    const notAPolygon = await failure(
      imagery().mosaic(
        {
          polygon: [
            [1, 2],
            [1, 3],
          ],
        },
        { source: 'standard' },
      ),
    );
    expect(notAPolygon).toBeInstanceOf(ImageryPlaceRefused);
    const offTheMap = await failure(imagery().mosaic({ point: { lat: 89, lng: 0 } }, { source: 'standard' }));
    expect(offTheMap).toBeInstanceOf(ImageryPlaceRefused);
  });
});

describe('premium capture dates', () => {
  const place = { point: { lat: 51.5, lng: -0.12 } };
  const premium = (mode: Mode) => tileImagery({ standard: server('png'), premium: server(mode) });

  it('come from X-Capture-Date, before Last-Modified', async () => {
    const mosaic = await premium('dated').mosaic(place, { source: 'premium' });
    expect(mosaic.meta.source).toBe('premium');
    expect(mosaic.meta.capture_date).toBe('2026-05-14');
  });

  it('come from Last-Modified (its UTC date) without X-Capture-Date, or when it is no date', async () => {
    expect((await premium('modified').mosaic(place, { source: 'premium' })).meta.capture_date).toBe('2026-03-03');
    expect((await premium('baddate').mosaic(place, { source: 'premium' })).meta.capture_date).toBe('2026-01-07');
  });

  it('are null when the tiles carry none, and always for standard imagery', async () => {
    expect((await premium('png').mosaic(place, { source: 'premium' })).meta.capture_date).toBeNull();
    const standard = tileImagery({ standard: server('dated') });
    const mosaic = await standard.mosaic(place, { source: 'standard' });
    expect(mosaic.meta.source).toBe('standard');
    expect(mosaic.meta.capture_date).toBeNull();
  });
});

describe('the tile cache', () => {
  it('answers a second mosaic of the same place without asking the server, capture date included', async () => {
    const dir = path.join(dataDir, 'cache-a');
    const template = tiles.template('dated');
    const cache = diskTileCache({ dir, source: 'premium', template, maxBytes: 50 << 20, maxAgeMs: 86_400_000 });
    const imagery = tileImagery({ premium: xyzTileServer(template, { allowPrivate: true, cache }) });
    const place = lot(-33.86, 151.2);
    const before = tiles.seen.length;
    const first = await imagery.mosaic(place, { source: 'premium' });
    const fetched = tiles.seen.length - before;
    expect(fetched).toBeGreaterThan(0);
    const second = await imagery.mosaic(place, { source: 'premium' });
    expect(tiles.seen.length - before).toBe(fetched);
    expect(second.pixels.equals(first.pixels)).toBe(true);
    expect(second.meta.capture_date).toBe('2026-05-14');
    // One file a tile, under <dir>/<source>-<template hash>/z/x/y.tile.
    const files = fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.tile'));
    expect(files).toHaveLength(fetched);
    expect(String(files[0])).toMatch(/^premium-[0-9a-f]{12}\/20\/\d+\/\d+\.tile$/);

    // A new process (a new cache over the same folder) reads what the first one kept.
    const again = diskTileCache({ dir, source: 'premium', template, maxBytes: 50 << 20, maxAgeMs: 86_400_000 });
    const restarted = tileImagery({ premium: xyzTileServer(template, { allowPrivate: true, cache: again }) });
    await restarted.mosaic(place, { source: 'premium' });
    expect(tiles.seen.length - before).toBe(fetched);
  });

  it('fetches again without a cache', async () => {
    const imagery = tileImagery({ standard: server('png') });
    const place = lot(10, 10);
    const before = tiles.seen.length;
    await imagery.mosaic(place, { source: 'standard' });
    const once = tiles.seen.length - before;
    await imagery.mosaic(place, { source: 'standard' });
    expect(tiles.seen.length - before).toBe(2 * once);
  });

  it('keeps under its size, dropping the least recently used tiles first', async () => {
    const dir = path.join(dataDir, 'cache-b');
    let clock = 1_000_000;
    const tile = (n: number) => ({ data: Buffer.alloc(1000, n), captureDate: null });
    const cache = diskTileCache({
      dir,
      source: 'standard',
      template: 'x',
      maxBytes: 5000,
      maxAgeMs: 1e12,
      now: () => clock,
    });
    for (let i = 0; i < 4; i++) {
      clock += 1000;
      await cache.put(20, i, 0, tile(i));
    }
    clock += 1000;
    expect(await cache.get(20, 0, 0)).not.toBeNull(); // tile 0 is now the most recently used
    clock += 1000;
    await cache.put(20, 4, 0, tile(4)); // five tiles of ~1,050 bytes pass 5,000: down to 4,000 or less
    const left = await Promise.all([0, 1, 2, 3, 4].map(async (x) => (await cache.get(20, x, 0)) !== null));
    expect(left).toEqual([true, false, false, true, true]);
    const bytes = fs
      .readdirSync(dir, { recursive: true })
      .filter((f) => String(f).endsWith('.tile'))
      .reduce((sum, f) => sum + fs.statSync(path.join(dir, String(f))).size, 0);
    expect(bytes).toBeLessThanOrEqual(4000);
  });

  it('fetches a tile again once it is older than its age limit', async () => {
    const dir = path.join(dataDir, 'cache-c');
    let clock = 0;
    const cache = diskTileCache({
      dir,
      source: 'standard',
      template: 'y',
      maxBytes: 1 << 20,
      maxAgeMs: 1000,
      now: () => clock,
    });
    await cache.put(18, 1, 2, { data: Buffer.from('tile'), captureDate: '2026-01-01' });
    clock = 999;
    expect(await cache.get(18, 1, 2)).toEqual({ data: Buffer.from('tile'), captureDate: '2026-01-01' });
    clock = 1001;
    expect(await cache.get(18, 1, 2)).toBeNull();
  });
});

describe('a connection cut with no answer', () => {
  it('is asked once more on a fresh connection: the mosaic is whole', async () => {
    const imagery = tileImagery({ standard: server('reset') });
    const place = lot(40, -83);
    const mosaic = await imagery.mosaic(place, { source: 'standard', zoom: 20 });
    const frame = frameOf(place, 20);
    expect(misplaced(mosaic, frame.left, frame.top)).toBe(0);
    const asked = tiles.seen.filter((s) => s.startsWith('reset/'));
    // Every tile was asked twice: cut once, then answered.
    expect(asked.length).toBe(2 * new Set(asked).size);
  });
});

describe('errors an endpoint maps', () => {
  const place = lot(40, -105);

  it('not configured: the embedded default, or a source without a server (500 imagery_unavailable)', async () => {
    const none = await failure(noImagery.mosaic(place, { source: 'standard' }));
    expect(none).toBeInstanceOf(ImageryNotConfigured);
    expect([none.status, none.code]).toEqual([500, 'imagery_unavailable']);
    expect(none.message).toMatch(/GROUNDWORK_IMAGERY_URL/);
    const premium = await failure(tileImagery({ standard: server('png') }).mosaic(place, { source: 'premium' }));
    expect(premium).toBeInstanceOf(ImageryNotConfigured);
    expect(premium.message).toMatch(/GROUNDWORK_PREMIUM_IMAGERY_URL/);
    expect(imageryFor({ standardUrl: null, premiumUrl: null, cacheMb: 200 }, dataDir, false)).toBe(noImagery);
  });

  it('a server that is down (502 imagery_unavailable)', async () => {
    const gone = await startTileServer();
    const template = gone.template('png');
    await gone.close();
    const err = await failure(
      tileImagery({ standard: xyzTileServer(template, { allowPrivate: true }) }).mosaic(place, { source: 'standard' }),
    );
    expect(err).toBeInstanceOf(ImageryUnreachable);
    expect([err.status, err.code]).toEqual([502, 'imagery_unavailable']);
  });

  it('5xx, 403 and a tile that is no image (502 imagery_unavailable)', async () => {
    for (const mode of ['broken', 'forbidden', 'garbage'] as const) {
      const err = await failure(tileImagery({ standard: server(mode) }).mosaic(place, { source: 'standard' }));
      expect(err, mode).toBeInstanceOf(ImageryUnreachable);
      expect(err.status).toBe(502);
    }
  });

  it('stops asking a failing server: at most one request per lane, and nothing it sent is cached', async () => {
    const big = lot(20, 20);
    const many = frameOf(big, 21);
    expect(Math.ceil(many.width / 256) * Math.ceil(many.height / 256)).toBeGreaterThanOrEqual(12);
    for (const mode of ['broken', 'garbage'] as const) {
      const dir = path.join(dataDir, `cache-${mode}`);
      const template = tiles.template(mode);
      const cache = diskTileCache({ dir, source: 'standard', template, maxBytes: 1 << 20, maxAgeMs: 86_400_000 });
      const imagery = tileImagery({ standard: xyzTileServer(template, { allowPrivate: true, cache }) });
      for (let attempt = 0; attempt < 2; attempt++) {
        const before = tiles.seen.length;
        expect(await failure(imagery.mosaic(big, { source: 'standard', zoom: 21 }))).toBeInstanceOf(ImageryUnreachable);
        expect(tiles.seen.length - before, mode).toBeGreaterThan(0);
        expect(tiles.seen.length - before, mode).toBeLessThanOrEqual(6);
      }
      expect(
        fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.tile')) : [],
      ).toEqual([]);
    }
  });

  it('no tiles there: every tile 404 or 204 (422 no_imagery_coverage; premium says to retry with standard)', async () => {
    for (const mode of ['missing', 'empty'] as const) {
      const err = await failure(tileImagery({ standard: server(mode) }).mosaic(place, { source: 'standard' }));
      expect(err, mode).toBeInstanceOf(NoImageryCoverage);
      expect([err.status, err.code]).toEqual([422, 'no_imagery_coverage']);
    }
    const premium = await failure(tileImagery({ premium: server('missing') }).mosaic(place, { source: 'premium' }));
    expect(premium.message).toMatch(/retry with imagery_source standard/);
  });

  it('some tiles missing: a mosaic with black where they are, and its coverage', async () => {
    const partial = lot(0.0004, 0.0003);
    const frame = frameOf(partial);
    const mosaic = await tileImagery({ standard: server('partial') }).mosaic(partial, { source: 'standard' });
    expect(mosaic.meta.coverage_pct).toBeGreaterThan(0);
    expect(mosaic.meta.coverage_pct).toBeLessThan(100);
    // Tiles with an odd x are missing: black there, the drawn pixels elsewhere.
    let black = 0;
    let wrong = 0;
    for (let row = 0; row < frame.height; row++)
      for (let col = 0; col < frame.width; col++) {
        const gx = frame.left + col;
        const at = (row * frame.width + col) * 3;
        const missing = Math.floor(gx / 256) % 2 === 1;
        const want = missing ? [0, 0, 0] : expectedPixel(gx, frame.top + row);
        if (missing) black++;
        for (let c = 0; c < 3; c++) if (mosaic.pixels[at + c] !== want[c]) wrong++;
      }
    expect(wrong).toBe(0);
    expect(black).toBeGreaterThan(0);
    expect(mosaic.meta.coverage_pct).toBeCloseTo(100 - (100 * black) / (frame.width * frame.height), 1);
  });

  it('goes through the outbound rules: plain http and loopback addresses are refused unless allowed', async () => {
    const attempt = (template: string) =>
      failure(
        tileImagery({ standard: xyzTileServer(template, { allowPrivate: false }) }).mosaic(place, {
          source: 'standard',
        }),
      );
    const before = tiles.seen.length;
    const http = await attempt(tiles.template('png'));
    expect(http).toBeInstanceOf(ImageryUnreachable);
    expect(http.message).toMatch(/Only https/);
    const loopback = await attempt(tiles.template('png').replace('http:', 'https:'));
    expect(loopback).toBeInstanceOf(ImageryUnreachable);
    expect(loopback.message).toMatch(/private or loopback/);
    expect(tiles.seen.length).toBe(before);
  });
});

describe('wiring', () => {
  it('the deps bag builds imagery from the settings: a template on the operator`s own host is reached', async () => {
    const deps = buildDeps({
      dataDir,
      imagerySettings: { standardUrl: tiles.template('png'), premiumUrl: null, cacheMb: 10 },
    });
    expect(deps.imagery.sources).toEqual({ standard: true, premium: false });
    const before = tiles.seen.length;
    const mosaic = await deps.imagery.mosaic({ point: { lat: -1, lng: 36.8 } }, { source: 'standard' });
    expect(mosaic.meta.zoom).toBe(20);
    expect(tiles.seen.length).toBeGreaterThan(before);
    // Its cache lives under the data directory.
    expect(fs.readdirSync(path.join(dataDir, 'imagery-tiles'))[0]).toMatch(/^standard-[0-9a-f]{12}$/);
    expect(buildDeps({ dataDir }).imagery).toBe(noImagery);
  });

  it('takes a WMTS RESTful template ({TileMatrix}/{TileCol}/{TileRow}) as the same z/x/y', async () => {
    const wmts = tiles.template('png').replace('{z}/{x}/{y}', '{TileMatrix}/{TileCol}/{TileRow}');
    expect(wmts).toContain('{TileMatrix}');
    const place = { point: { lat: 12, lng: 12 } };
    const frame = frameOf(place);
    const mosaic = await tileImagery({ standard: xyzTileServer(wmts, { allowPrivate: true }) }).mosaic(place, {
      source: 'standard',
    });
    expect(misplaced(mosaic, frame.left, frame.top)).toBe(0);
  });

  it('refuses a template without {z}, {x} and {y}', () => {
    expect(() => xyzTileServer('https://tiles.example/{z}/{x}.png', { allowPrivate: false })).toThrow(/\{y\}/);
    expect(() => xyzTileServer('ftp://tiles.example/{z}/{x}/{y}.png', { allowPrivate: false })).toThrow(/http/);
  });
});
