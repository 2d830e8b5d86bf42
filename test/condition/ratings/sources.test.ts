// Ratings from a place and from the vision endpoint, over HTTP: aerial imagery from a real local
// XYZ tile server (a point, a polygon with its outline, premium with its capture date, no
// coverage, a server that fails, grass), the geocoder for an address (a local Nominatim-speaking
// server), the operator's vision endpoint replacing the built-in detector (and 502 rating_failed
// when it answers nonsense), and document 1's usage rule: a success counts as one call, an error
// does not.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpGeocoder } from '#platform/geocoding.ts';
import { imageryFor } from '#platform/imagery/select.ts';
import { httpVision } from '#platform/vision.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { type AerialTiles, startAerialTiles } from '../aerial-tiles.ts';
import { scenePhoto } from './photo.ts';

let tiles: AerialTiles;
let premiumTiles: AerialTiles;
let services: http.Server;
let base: string;
/** What the vision endpoint answers next, and what it was sent. */
let visionAnswer: { status: number; body: unknown } = { status: 200, body: {} };
let visionSeen: any[] = [];

const dataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-cond-'));

beforeAll(async () => {
  tiles = await startAerialTiles();
  premiumTiles = await startAerialTiles({ 'x-capture-date': '2026-06-02' });
  // One local server speaking the geocoder's protocol (/search) and the vision contract (/vision).
  services = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    if (url.pathname === '/search') {
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      const body = q.startsWith('1 main') ? [{ lat: '39.9612', lon: '-82.9988', display_name: q }] : [];
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    }
    if (url.pathname === '/vision') {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        visionSeen.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        res
          .writeHead(visionAnswer.status, { 'content-type': 'application/json' })
          .end(JSON.stringify(visionAnswer.body));
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => services.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(services.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await tiles.close();
  await premiumTiles.close();
  await new Promise<void>((resolve) => services.close(() => resolve()));
});

// A 60 m lot in Columbus, Ohio.
const LOT = [
  [39.96, -83.0],
  [39.96, -82.9993],
  [39.9605, -82.9993],
  [39.9605, -83.0],
];

describe('a rating from aerial imagery', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({
      imagery: imageryFor(
        { standardUrl: tiles.template('asphalt'), premiumUrl: premiumTiles.template('asphalt'), cacheMb: 0 },
        dataDir(),
        true,
      ),
      geocoder: httpGeocoder(base, { cacheSize: 0 }),
    });
  });
  afterAll(() => t.close());

  it('a polygon: the image facts of the mosaic, outlined, rated as an aerial view', async () => {
    const w = await t.workspace();
    const r = await ok(w.api.request('POST', '/v1/condition/pci', { polygon: LOT, return_image: true }));
    expect(r.image).toMatchObject({
      source: 'standard',
      capture_date: null,
      survey_id: null,
      zoom: 20,
      outlined: true,
      view: 'aerial',
    });
    // Web Mercator at the lot's centre and zoom 20 (156543.03392 × cos(lat) ÷ 2^20).
    expect(r.image.meters_per_pixel).toBeCloseTo((156543.03392 * Math.cos((r.image.lat * Math.PI) / 180)) / 2 ** 20, 6);
    expect(r.image.lat).toBeCloseTo(39.96025, 3);
    expect(r.image.lng).toBeCloseTo(-82.99965, 3);
    expect(r.image.width).toBeGreaterThan(400);
    expect(r.image.jpeg_base64.length).toBeGreaterThan(1000);
    expect(r.pci.score).toBeGreaterThanOrEqual(86);
  });

  it('GeoJSON, a point, a zoom asked for, and an address through the geocoder', async () => {
    const w = await t.workspace();
    const feature = {
      type: 'Feature',
      geometry: { type: 'Polygon', coordinates: [LOT.map(([lat, lng]) => [lng, lat])] },
    };
    const geo = await ok(w.api.request('POST', '/v1/condition/paser', { polygon: feature, zoom: 19 }));
    expect(geo.image.zoom).toBe(19);
    const point = await ok(w.api.request('POST', '/v1/condition/paser', { lat: 39.96, lng: -83 }));
    expect(point.image).toMatchObject({ zoom: 20, outlined: false, lat: expect.closeTo(39.96, 3) });
    const address = await ok(w.api.request('POST', '/v1/condition/pci', { address: '1 Main St, Columbus, OH' }));
    expect(address.image.lat).toBeCloseTo(39.9612, 3);
    const nowhere = await w.api.request('POST', '/v1/condition/pci', { address: '99 Nowhere Rd' });
    expect(nowhere.status).toBe(422);
    expect(nowhere.body).toMatchObject({ error: 'address_not_found', code: 'address_not_found' });
  });

  it('premium: needs the plan (403 upgrade_required), then answers its capture date', async () => {
    const w = await t.workspace();
    const refused = await w.api.request('POST', '/v1/condition/pci', {
      lat: 39.96,
      lng: -83,
      imagery_source: 'premium',
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'upgrade_required', code: 'upgrade_required' });
    const gold = await t.workspace({ settings: { premium_imagery_enabled: true } });
    const r = await ok(
      gold.api.request('POST', '/v1/condition/pci', { lat: 39.96, lng: -83, imagery_source: 'premium' }),
    );
    expect(r.image).toMatchObject({ source: 'premium', capture_date: '2026-06-02' });
  });
});

describe('imagery that cannot show the place', () => {
  const cases: [string, () => string, number, string][] = [
    ['no tiles there', () => tiles.template('missing'), 422, 'no_imagery_coverage'],
    ['a server that is down', () => 'http://127.0.0.1:9/{z}/{x}/{y}.png', 502, 'imagery_unavailable'],
    ['a lawn, not pavement', () => tiles.template('lawn'), 422, 'no_pavement_visible'],
  ];
  it.each(cases)('%s → %s %s', async (_name, template, status, code) => {
    const t = await startApp({
      imagery: imageryFor({ standardUrl: template(), premiumUrl: null, cacheMb: 0 }, dataDir(), true),
    });
    try {
      const w = await t.workspace();
      const res = await w.api.request('POST', '/v1/condition/pci', { lat: 39.96, lng: -83 });
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body).toMatchObject({ error: code, code });
    } finally {
      await t.close();
    }
  });
});

describe('the vision endpoint (GROUNDWORK_VISION_URL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ vision: httpVision(`${base}/vision`, { timeoutMs: 5_000 }) });
  });
  afterAll(() => t.close());

  it('replaces the built-in detector: the image goes to it and its findings are rated', async () => {
    const w = await t.workspace();
    visionSeen = [];
    visionAnswer = {
      status: 200,
      body: {
        visible_pavement_pct: 92,
        pavement_type: 'asphalt',
        view: 'ground',
        quality: 'good',
        confidence: 0.8,
        limitations: ['Wet surface'],
        distresses: [
          { type: 'potholes', severity: 'low', density_pct: 0.04, where: 'near the entrance' },
          { type: 'longitudinal_transverse_cracking', severity: 'medium', density_pct: 6 },
          { type: 'frost_heave', severity: 'high', density_pct: 3 },
        ],
      },
    };
    const r = await ok(
      w.api.request('POST', '/v1/condition/pci', { image: (await scenePhoto('clean')).toString('base64') }),
    );
    expect(visionSeen).toHaveLength(1);
    expect(visionSeen[0]).toMatchObject({
      image: { width: 320, height: 320, meters_per_pixel: null, source: 'upload', jpeg_base64: expect.any(String) },
      pavement_type: 'auto',
      rating_type: 'pci',
    });
    expect(r.confidence).toBe(0.8);
    expect(r.image).toMatchObject({ view: 'ground', quality: 'good', visible_pavement_pct: 92 });
    expect(r.distresses.map((d: any) => d.type)).toEqual(['potholes', 'longitudinal_transverse_cracking']);
    expect(r.distresses[0]).toMatchObject({
      label: 'Potholes',
      density_unit: 'pothole_area',
      where: 'near the entrance',
    });
    expect(r.pci.deducts.map((d: any) => d.distress).sort()).toEqual(['longitudinal_transverse_cracking', 'potholes']);
    expect(r.limitations).toContain('Wet surface');
    expect(r.limitations.some((l: string) => l.includes('frost_heave'))).toBe(true);
  });

  it('an answer that is not the contract, or an error status, is 502 rating_failed', async () => {
    const w = await t.workspace();
    const photo = (await scenePhoto('clean')).toString('base64');
    for (const answer of [
      { status: 200, body: { visible_pavement_pct: 'lots', pavement_type: 'asphalt', distresses: [] } },
      {
        status: 200,
        body: {
          visible_pavement_pct: 90,
          pavement_type: 'asphalt',
          distresses: [{ type: 'potholes', severity: 'extreme', density_pct: 1 }],
        },
      },
      { status: 503, body: { error: 'busy' } },
    ]) {
      visionAnswer = answer;
      const res = await w.api.request('POST', '/v1/condition/pci', { image: photo });
      expect(res.status, JSON.stringify(answer)).toBe(502);
      expect(res.body).toMatchObject({ error: 'rating_failed', code: 'rating_failed' });
    }
  });
});

describe('usage (document 1: each successful rating counts as one call; errors are not counted)', () => {
  it('errors spend nothing; each success spends one call of the key; an exhausted key is refused before rating', async () => {
    const t = await startApp({ rateLimit: { max: 3, windowMs: 60_000 } });
    try {
      const w = await t.workspace();
      const photo = (await scenePhoto('clean')).toString('base64');
      for (let i = 0; i < 5; i++)
        expect((await w.api.request('POST', '/v1/condition/pci', { notes: 'no image' })).status).toBe(400);
      expect((await w.api.request('POST', '/v1/condition/pci', { image: photo })).status).toBe(200);
      expect((await w.api.request('POST', '/v1/condition/paser', { image: photo })).status).toBe(200);
      // One call left: an ordinary read spends it.
      expect((await w.api.get('/v1/jobs')).status).toBe(200);
      const refused = await w.api.request('POST', '/v1/condition/pci', { image: photo });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ error: 'Too many requests', usage: { limit: 3, remaining: 0 } });
      const kept = await t.database.db.selectFrom('condition_ratings').select(['rating_type']).execute();
      expect(kept.map((r) => r.rating_type).sort()).toEqual(['paser', 'pci']);
      // The operator's count: the successes, none of the errors.
      const usage = await t.admin.get(`/admin/v1/workspaces/${w.firmId}/usage`);
      expect(usage.status).toBe(200);
      expect(usage.body.data).toEqual({
        condition_ratings: { total: 2, this_month: 2, last_30_days: 2, by_type: { paser: 1, pci: 1 } },
      });
      expect((await t.admin.get('/admin/v1/workspaces/999999/usage')).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});
