// POST /v1/condition/paser and /pci over HTTP (document 3, "Condition ratings"; docs/condition.md):
// the result's shape for each image source (base64, data URI, multipart, image_url), clean
// pavement rating high and a cracked lot lower, the rating kept on a named site, and every
// refusal of the body as the rating's {error, code}.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { multipartBody } from '#test/field/photos/upload.ts';
import { scenePhoto } from './photo.ts';

let t: TestApp;
let w: Workspace;
let clean: Buffer;
let cracked: Buffer;
let lawn: Buffer;
let server: http.Server;
let origin: string;

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace();
  [clean, cracked, lawn] = await Promise.all([scenePhoto('clean'), scenePhoto('alligator'), scenePhoto('grass')]);
  // A web server the image_url form fetches from (the test app allows loopback).
  server = http.createServer((req, res) => {
    if (req.url === '/lot.png') res.writeHead(200, { 'content-type': 'image/png' }).end(cracked);
    else if (req.url === '/page.html') res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
    else if (req.url === '/big.png') {
      // Sent in chunks with no Content-Length, so the cap is met while reading.
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(cracked.subarray(0, 64));
      for (let i = 0; i < 16; i++) res.write(Buffer.alloc(1024 * 1024, 7));
      res.end();
    } else if (req.url === '/announced.png')
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(16 * 1024 * 1024) }).end();
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Untyped on purpose: a result has either a paser or a pci block, and the tests read both. */
const rate = (type: 'pci' | 'paser', body: Record<string, unknown>, ws = w) =>
  ws.api.request('POST', `/v1/condition/${type}`, body);

async function rateForm(type: 'pci' | 'paser', parts: Parameters<typeof multipartBody>[0]) {
  const { payload, contentType } = multipartBody(parts);
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/condition/${type}`,
    headers: { 'x-api-key': w.key, 'content-type': contentType },
    payload,
  });
  return { status: res.statusCode, body: res.json() as any };
}

describe('a rating from an uploaded image', () => {
  it('PCI: the resource exactly, clean pavement Good (≥ 86), traceable deducts', async () => {
    const res = await rate('pci', { image: clean.toString('base64'), notes: 'North lot' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const r = res.body;
    expect(r).toMatchObject({
      rating_type: 'pci',
      rubric_version: expect.any(String),
      pavement_type: 'asphalt',
      notes: 'North lot',
      location_id: null,
      request_id: expect.stringMatching(/^cr_[0-9a-f]{32}$/),
      rated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
      image: {
        source: 'upload',
        survey_id: null,
        zoom: null,
        width: 320,
        height: 320,
        meters_per_pixel: null,
        outlined: false,
        visible_pavement_pct: expect.any(Number),
      },
    });
    expect(r.image).not.toHaveProperty('capture_date');
    expect(r.paser).toBeUndefined();
    expect(r.pci.score).toBeGreaterThanOrEqual(86);
    expect(r.pci).toMatchObject({
      label: 'Good',
      method: 'astm_d6433',
      strategy: expect.any(String),
      color: expect.stringMatching(/^#/),
    });
    expect(r.confidence).toBeGreaterThan(0);
    expect(r.confidence).toBeLessThanOrEqual(1);
    expect(r.summary).toContain(`PCI ${r.pci.score} (Good)`);
    expect(r.limitations[0]).toMatch(/Screening-level/);
    expect(r.limitations.filter((l: string) => l.startsWith('Screening-level'))).toHaveLength(1);
  });

  it('PASER: clean pavement rates 9 or 10; an alligator-cracked lot lower, with the rules that limit it', async () => {
    const good = await ok(rate('paser', { image: `data:image/png;base64,${clean.toString('base64')}` }));
    expect(good.rating_type).toBe('paser');
    expect(good.paser.rating).toBeGreaterThanOrEqual(9);
    expect(good.pci).toBeUndefined();
    const bad = await ok(rate('paser', { image: cracked.toString('base64') }));
    expect(bad.paser.rating).toBeLessThan(good.paser.rating);
    expect(bad.paser.limited_by.length).toBeGreaterThan(0);
    for (const l of bad.paser.limited_by) {
      expect(l).toEqual({
        distress: expect.any(String),
        severity: expect.stringMatching(/^(low|medium|high)$/),
        density_pct: expect.any(Number),
        max_rating: expect.any(Number),
        rule: expect.any(String),
      });
      expect(l.max_rating).toBeGreaterThanOrEqual(bad.paser.rating);
    }
    expect(bad.paser.limited_by.some((l: any) => l.max_rating === bad.paser.rating)).toBe(true);
    // Every distress found is in the answer with its label and unit.
    expect(bad.distresses.length).toBeGreaterThan(0);
    for (const d of bad.distresses)
      expect(d).toMatchObject({
        type: expect.any(String),
        label: expect.any(String),
        density_unit: expect.stringMatching(/^(area|linear|pothole_area|slabs)$/),
      });
  });

  it('PCI of the cracked lot: the deducts add up to the score through the corrected-deduct rows', async () => {
    const r = await ok(rate('pci', { image: cracked.toString('base64') }));
    expect(r.pci.score).toBeLessThan(86);
    expect(r.pci.deducts.length).toBeGreaterThan(0);
    expect(r.pci.score).toBeCloseTo(100 - r.pci.max_corrected_deduct, 5);
    expect(Math.max(...r.pci.iterations.map((row: any) => row.corrected_deduct))).toBeCloseTo(
      r.pci.max_corrected_deduct,
      5,
    );
  });

  it('multipart: the file part image, fields as text (polygon ignored under an image), return_image', async () => {
    const res = await rateForm('pci', [
      { name: 'return_image', value: 'true' },
      { name: 'pavement_type', value: 'asphalt' },
      {
        name: 'polygon',
        value: JSON.stringify([
          [40, -83],
          [40.001, -83],
          [40.001, -83.001],
        ]),
      },
      { name: 'image', filename: 'lot.jpg', data: await scenePhoto('clean', 3, 'jpeg'), type: 'image/jpeg' },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.image.source).toBe('upload');
    const jpeg = Buffer.from(res.body.image.jpeg_base64, 'base64');
    const meta = await sharp(jpeg).metadata();
    expect(meta.format).toBe('jpeg');
    expect([meta.width, meta.height]).toEqual([320, 320]);
  });

  it('image_url: fetched and rated; a page is not an image, an unreachable url is image_rejected', async () => {
    const r = await ok(rate('pci', { image_url: `${origin}/lot.png` }));
    expect(r.image.source).toBe('url');
    expect(r.pci.score).toBeLessThan(86);
    const page = await rate('pci', { image_url: `${origin}/page.html` });
    expect(page.status).toBe(400);
    expect(page.body).toMatchObject({ error: 'invalid_image', code: 'invalid_image' });
    for (const big of ['big.png', 'announced.png']) {
      const res = await rate('pci', { image_url: `${origin}/${big}` });
      expect(res.status, big).toBe(413);
      expect(res.body.code).toBe('image_too_large');
    }
    const gone = await rate('pci', { image_url: `${origin}/gone.png` });
    expect(gone.status).toBe(422);
    expect(gone.body).toMatchObject({ code: 'image_rejected' });
    expect(gone.body.message).toContain('404');
  });

  it('a photo of grass is 422 no_pavement_visible, and nothing is kept', async () => {
    const before = await t.database.db
      .selectFrom('condition_ratings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const res = await rate('pci', { image: lawn.toString('base64') });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: 'no_pavement_visible', code: 'no_pavement_visible' });
    const after = await t.database.db
      .selectFrom('condition_ratings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});

describe('the body: every refusal is {error, code}', () => {
  const cases: [string, Record<string, unknown>, number, string][] = [
    ['no source', { notes: 'x' }, 400, 'missing_image'],
    ['image and image_url', { image: 'aGVsbG8=', image_url: 'https://example.com/a.png' }, 400, 'invalid_request'],
    ['not base64', { image: 'not an image!' }, 400, 'invalid_image'],
    ['base64 of text', { image: Buffer.from('hello world, not a picture').toString('base64') }, 400, 'invalid_image'],
    ['unknown field', { image_url: 'https://example.com/a.png', colour: 'red' }, 400, 'invalid_request'],
    ['zoom out of range', { lat: 40, lng: -83, zoom: 15 }, 400, 'invalid_request'],
    ['zoom not an integer', { lat: 40, lng: -83, zoom: 18.5 }, 400, 'invalid_request'],
    ['lat without lng', { lat: 40 }, 400, 'invalid_request'],
    ['lat out of range', { lat: 95, lng: 0 }, 400, 'invalid_request'],
    [
      'a polygon of two points',
      {
        polygon: [
          [40, -83],
          [40.001, -83],
        ],
      },
      400,
      'invalid_request',
    ],
    [
      'GeoJSON in lat, lng order',
      {
        polygon: {
          type: 'Polygon',
          coordinates: [
            [
              [40, -95],
              [40.1, -95],
              [40.1, -95.1],
              [40, -95],
            ],
          ],
        },
      },
      400,
      'invalid_request',
    ],
    ['a polygon that is text', { polygon: 'north lot' }, 400, 'invalid_request'],
    [
      'return_image with image_url',
      { image_url: 'https://example.com/a.png', return_image: true },
      400,
      'invalid_request',
    ],
    ['imagery_source unknown', { lat: 40, lng: -83, imagery_source: 'satellite' }, 400, 'invalid_request'],
    ['pavement_type unknown', { lat: 40, lng: -83, pavement_type: 'gravel' }, 400, 'invalid_request'],
    ['notes too long', { lat: 40, lng: -83, notes: 'x'.repeat(1001) }, 400, 'invalid_request'],
    ['image_url too long', { image_url: `https://example.com/${'a'.repeat(2000)}` }, 400, 'invalid_request'],
    ['return_image not a boolean', { lat: 40, lng: -83, return_image: 'yes' }, 400, 'invalid_request'],
    ['premium without the plan', { lat: 40, lng: -83, imagery_source: 'premium' }, 403, 'upgrade_required'],
    ['no imagery configured', { lat: 40, lng: -83 }, 500, 'imagery_unavailable'],
    ['no geocoder configured', { address: '1 Main St, Columbus, OH' }, 502, 'geocode_failed'],
  ];
  it.each(cases)('%s → %s %s', async (_name, body, status, code) => {
    const res = await rate('pci', body);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body).toMatchObject({ error: code, code, message: expect.any(String) });
  });

  it('a body that is not JSON or a form, or a JSON array, is invalid_request', async () => {
    const text = await w.api.request('POST', '/v1/condition/pci', 'lat=40', { 'content-type': 'text/plain' });
    expect(text.status).toBe(400);
    expect(text.body.code).toBe('invalid_request');
    const list = await rate('pci', [1, 2] as unknown as Record<string, unknown>);
    expect(list.status).toBe(400);
    expect(list.body.code).toBe('invalid_request');
  });

  it('image limits: under 64 px is invalid_image; over 60 megapixels or 15 MB is 413 image_too_large', async () => {
    const tiny = await sharp({ create: { width: 63, height: 200, channels: 3, background: '#555' } })
      .png()
      .toBuffer();
    const small = await rate('pci', { image: tiny.toString('base64') });
    expect(small.status).toBe(400);
    expect(small.body.code).toBe('invalid_image');
    // 7,800 × 7,800 is 60.8 megapixels; one colour compresses to a few kilobytes.
    const huge = await sharp({ create: { width: 7800, height: 7800, channels: 3, background: '#555' } })
      .png()
      .toBuffer();
    const big = await rate('pci', { image: huge.toString('base64') });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ error: 'image_too_large', code: 'image_too_large' });
    // Over 15 MB (a PNG header, then bytes): refused on its size, as JSON and as a file.
    const heavy = Buffer.concat([clean.subarray(0, 64), Buffer.alloc(15 * 1024 * 1024 + 10, 7)]);
    const json = await rate('pci', { image: heavy.toString('base64') });
    expect(json.status).toBe(413);
    expect(json.body.code).toBe('image_too_large');
    const form = await rateForm('pci', [{ name: 'image', filename: 'big.png', data: heavy, type: 'image/png' }]);
    expect(form.status).toBe(413);
    expect(form.body.code).toBe('image_too_large');
    // Encoding a 61-megapixel PNG and sending 20 MB of base64 twice: 2–4 s alone, over 30 s once
    // beside the whole suite; the limit is for a hang.
  }, 120_000);

  it('a key without Read measurements gets the standard 403', async () => {
    const key = await t.key(w.firmId, w.ownerId, ['read_jobs', 'write_jobs']);
    const res = await t.as(key).post('/v1/condition/pci', { image: clean.toString('base64') });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('API key lacks measurement read permission');
  });
});

describe('a rating of a site (location_id)', () => {
  it("joins the site's history, newest first; a PCI rating sets the site's pci (properties export); another workspace's site is 404", async () => {
    const site = (
      await ok(w.api.post('/v1/locations', { name: 'Maple HOA lot', address: '12 Maple St, Columbus, OH' }))
    ).data;
    const first = await ok(rate('pci', { image: clean.toString('base64'), location_id: site.id }));
    const second = await ok(rate('paser', { image: cracked.toString('base64'), location_id: site.id }));
    expect(first.location_id).toBe(site.id);
    const history = await ok(w.api.get(`/v1/locations/${site.id}/condition-ratings`));
    expect(history.pagination.total).toBe(2);
    expect(history.data.map((r: any) => r.request_id)).toEqual([second.request_id, first.request_id]);
    expect(history.data[1]).toEqual(first);
    // pci follows PCI ratings only: the PASER rating after it left it alone.
    const rows = await exportRows(w, 'properties');
    expect(rows.find((r: any) => r.id === site.id).pci).toBe(first.pci.score);

    const other = await t.workspace();
    const foreign = await rate('pci', { image: clean.toString('base64'), location_id: site.id }, other);
    expect(foreign.status).toBe(404);
    expect((await other.api.get(`/v1/locations/${site.id}/condition-ratings`)).status).toBe(404);
  });
});

async function exportRows(ws: Workspace, dataset: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/v1/exports/${dataset}.jsonl`,
    headers: { 'x-api-key': ws.key },
  });
  expect(res.statusCode).toBe(200);
  return res.body
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}
