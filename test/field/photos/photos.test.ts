// /v1/jobs/{job_id}/photos and /v1/photos (document 3, Photos, photo tags, files).
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { job, logOf, ok } from '#test/helpers/records.ts';
import { image, upload, uploadPhoto } from './upload.ts';

let t: TestApp;
let w: Workspace;
let jobId: number;
beforeAll(async () => {
  t = await startApp();
  w = await t.workspace();
  jobId = (await job(w)).id;
});
afterAll(() => t.close());

const MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;

/** Fetches a signed link with no key, as a browser would. */
async function open(url: string) {
  const u = new URL(url);
  const res = await t.app.inject({ method: 'GET', url: u.pathname + u.search });
  return { status: res.statusCode, type: String(res.headers['content-type']), body: res.rawPayload };
}

/** A phone photo: stored sideways (EXIF orientation 6), with GPS and the capture time. */
async function phonePhoto(): Promise<Buffer> {
  return sharp({ create: { width: 80, height: 40, channels: 3, background: '#cc3333' } })
    .jpeg()
    .withExif({
      IFD2: { DateTimeOriginal: '2025:06:01 14:30:00' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '40/1 26/1 4632/100',
        GPSLongitudeRef: 'W',
        GPSLongitude: '79/1 58/1 5604/100',
      },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

describe('upload', () => {
  it('stores a phone photo upright with its EXIF place and time, a thumbnail and signed links', async () => {
    const x = await t.workspace();
    const xJob = (await job(x)).id;
    const sideways = await uploadPhoto(t, x, xJob, await phonePhoto());
    expect(sideways.status).toBe(201);
    // Two objects stay: the upright copy and its thumbnail (the sideways original is removed).
    const stored = fs.readdirSync(path.join(t.dataDir, 'objects', 'firms', String(x.firmId), 'photos'));
    expect(stored.filter((name) => !name.startsWith('.'))).toHaveLength(2);

    const res = await uploadPhoto(t, w, jobId, await phonePhoto(), {
      caption: 'North lot',
      title: 'Lot',
      stage: 'before',
      latitude: '1',
      longitude: '2',
      compass_heading: '-90',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.created).toBe(true);
    const p = res.body.data;
    expect(p).toMatchObject({
      job_id: jobId,
      caption: 'North lot',
      title: 'Lot',
      stage: 'before',
      visibility: 'external',
      include_in_report: true,
      compass_heading: 270,
      tags: [],
      taken_by: { id: w.ownerId },
    });
    // EXIF GPS wins over the coordinates sent.
    expect(p.lat).toBeCloseTo(40.4462, 3);
    expect(p.lng).toBeCloseTo(-79.9822, 3);
    expect(p.taken_at).toBe('2025-06-01T14:30:00.000000');
    expect(p.created_at).toMatch(MICROS);
    const full = await open(p.url);
    expect(full.status).toBe(200);
    expect(full.type).toContain('image/jpeg');
    const meta = await sharp(full.body).metadata();
    expect([meta.width, meta.height]).toEqual([40, 80]); // turned upright
    const thumb = await open(p.thumbnail_url);
    expect(thumb.status).toBe(200);
    expect((await sharp(thumb.body).metadata()).format).toBe('jpeg');
    // The job's activity log has it.
    expect((await logOf(w, jobId)).some((e) => e.kind === 'photo_added' && e.data.photo_id === p.id)).toBe(true);
  });

  it('takes PNG, WebP and GIF, defaults taken_at to now and stage to general', async () => {
    for (const format of ['png', 'webp', 'gif'] as const) {
      const res = await uploadPhoto(t, w, jobId, await image(format));
      expect(res.status, `${format} ${JSON.stringify(res.body)}`).toBe(201);
      expect(res.body.data.stage).toBe('general');
      expect(res.body.data.lat).toBeNull();
      expect(res.body.data.taken_at).toMatch(MICROS);
      const got = await open(res.body.data.url);
      expect(got.type).toContain(`image/${format}`);
      expect((await sharp(got.body).metadata()).format).toBe(format);
    }
  });

  it('reads the workspace defaults; internal always clears include_in_report', async () => {
    const res = await uploadPhoto(t, w, jobId, await image('png'), {
      visibility: 'internal',
      include_in_report: 'true',
    });
    expect(res.body.data).toMatchObject({ visibility: 'internal', include_in_report: false });
    const v = await t.workspace({ settings: { photo_default_visibility: 'internal' } });
    const j = await job(v);
    expect((await uploadPhoto(t, v, j.id, await image('png'))).body.data.visibility).toBe('internal');
    const r = await t.workspace({ settings: { photo_include_in_report_default: false } });
    const rj = await job(r);
    expect((await uploadPhoto(t, r, rj.id, await image('png'))).body.data.include_in_report).toBe(false);
  });

  it('takes tag_ids as a JSON array, a comma list or repeated fields', async () => {
    const a = (await ok(w.api.post('/v1/photo-tags', { name: 'Cracks' }))).data;
    const b = (await ok(w.api.post('/v1/photo-tags', { name: 'Drainage' }))).data;
    const names = (res: { body: any }) => res.body.data.tags.map((x: { name: string }) => x.name);
    expect(
      names(await uploadPhoto(t, w, jobId, await image('png'), { tag_ids: JSON.stringify([a.id, b.id]) })),
    ).toEqual(['Cracks', 'Drainage']);
    expect(names(await uploadPhoto(t, w, jobId, await image('png'), { tag_ids: `${a.id},${b.id}` }))).toEqual([
      'Cracks',
      'Drainage',
    ]);
    const repeated = await upload(t, w.key, jobId, [
      { name: 'tag_ids', value: String(a.id) },
      { name: 'tag_ids', value: String(b.id) },
      { name: 'photo', filename: 'x.png', data: await image('png') },
    ]);
    expect(names(repeated)).toEqual(['Cracks', 'Drainage']);
    const missing = await uploadPhoto(t, w, jobId, await image('png'), { tag_ids: '999999' });
    expect(missing).toMatchObject({ status: 404, body: { error: 'Photo tag not found' } });
    // A tag deleted comes off the photos.
    await ok(w.api.delete(`/v1/photo-tags/${b.id}`), [204]);
    expect(names({ body: await ok(w.api.get(`/v1/photos/${repeated.body.data.id}`)) })).toEqual(['Cracks']);
  });

  it('answers a repeated client_uid, also concurrent ones, with the one earlier photo', async () => {
    const j = await job(w);
    const data = await image('jpeg');
    const results = await Promise.all(
      Array.from({ length: 5 }, () => uploadPhoto(t, w, j.id, data, { client_uid: 'phone-1-abc' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect(results.filter((r) => r.body.created === false)).toHaveLength(4);
    expect((await ok(w.api.get(`/v1/jobs/${j.id}/photos`))).data).toHaveLength(1);
    const long = await uploadPhoto(t, w, j.id, data, { client_uid: 'x'.repeat(65) });
    expect(long.status).toBe(400);
  });

  it('refuses past the photo limit with the counts', async () => {
    const v = await t.workspace({ settings: { photo_limit: 1 } });
    const j = await job(v);
    expect((await uploadPhoto(t, v, j.id, await image('png'))).status).toBe(201);
    const res = await uploadPhoto(t, v, j.id, await image('png'));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      code: 'photo_limit_reached',
      photos_used: 1,
      photos_limit: 1,
      photos_remaining: 0,
    });
  });

  it('answers every listed 400', async () => {
    const png = await image('png');
    const cases: [Parameters<typeof upload>[3], string][] = [
      [[{ name: 'caption', value: 'x' }], 'No photo provided'],
      [
        [
          { name: 'photo', filename: 'a.png', data: png },
          { name: 'photo', filename: 'b.png', data: png },
        ],
        'One photo per request',
      ],
      [
        [
          { name: 'url', value: 'https://example.com/a.jpg' },
          { name: 'photo', filename: 'a.png', data: png },
        ],
        'Send a file or a url, not both',
      ],
      [
        [{ name: 'photo', filename: 'a.jpg', data: Buffer.from('just some text, not a photo at all') }],
        'Invalid photo',
      ],
      [
        [
          {
            name: 'photo',
            filename: 'a.jpg',
            data: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)]),
          },
        ],
        'Invalid photo',
      ],
      [
        [
          { name: 'stage', value: 'later' },
          { name: 'photo', filename: 'a.png', data: png },
        ],
        'stage must be one of before, during, after, general',
      ],
      [
        [
          { name: 'colour', value: 'red' },
          { name: 'photo', filename: 'a.png', data: png },
        ],
        'Unknown fields: colour',
      ],
      [
        [
          { name: 'title', value: 'x'.repeat(101) },
          { name: 'photo', filename: 'a.png', data: png },
        ],
        'title must be at most 100 characters',
      ],
      [
        [
          { name: 'latitude', value: '40' },
          { name: 'photo', filename: 'a.png', data: png },
        ],
        'latitude and longitude are required together',
      ],
    ];
    const j = await job(w);
    for (const [parts, error] of cases) {
      const res = await upload(t, w.key, j.id, parts);
      expect(res.status, error).toBe(400);
      expect(res.body.error).toBe(error);
    }
    const text = await t.app.inject({
      method: 'POST',
      url: `/v1/jobs/${j.id}/photos`,
      headers: { 'x-api-key': w.key, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.statusCode).toBe(400);
    expect(text.json().error).toBe('Upload with multipart/form-data');
    // Nothing was recorded and nothing is left in storage.
    expect((await ok(w.api.get(`/v1/jobs/${j.id}/photos`))).data).toEqual([]);
  });

  it('answers 404 for a job of another workspace', async () => {
    const other = await t.workspace();
    const res = await uploadPhoto(t, other, jobId, await image('png'));
    expect(res).toMatchObject({ status: 404, body: { error: 'Job not found' } });
  });
});
