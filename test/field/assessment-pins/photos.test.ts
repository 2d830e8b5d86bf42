// POST /v1/assessment-pins/{id}/photos (document 3, Site assessments and pins): files or a url
// become photos of the pin's job and show on the pin; the roll-up counts them; a duplicate's pins
// share them; deleting a pin deletes the photos no other pin shows.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { job, ok } from '#test/helpers/records.ts';
import { image, multipartBody, type Part } from '../photos/upload.ts';

let t: TestApp;
let server: http.Server;
let base: string;
let jpeg: Buffer;

beforeAll(async () => {
  jpeg = await image('jpeg', 120, 80);
  server = http.createServer((req, res) => {
    if (req.url === '/lot.jpg') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
    if (req.url === '/page.html') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end('<p>hi</p>');
    res.writeHead(404).end('missing');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await startApp({ allowPrivateNetwork: true });
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => server.close(resolve));
});

const AT = { latitude: 39.78, longitude: -89.65 };

async function pinOn(w: Workspace) {
  const j = await job(w);
  const a = (await ok(w.api.post('/v1/site-assessments', { job_id: j.id }))).data;
  const service = (await ok(w.api.get('/v1/assessment-services'))).data[0];
  const pin = (await ok(w.api.post('/v1/assessment-pins', { ...AT, assessment_id: a.id, service_type_id: service.id })))
    .data;
  return { jobId: j.id, assessmentId: a.id, pin };
}

async function send(w: Workspace, pinId: number, parts: Part[]) {
  const { payload, contentType } = multipartBody(parts);
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/assessment-pins/${pinId}/photos`,
    headers: { 'x-api-key': w.key, 'content-type': contentType },
    payload,
  });
  return { status: res.statusCode, body: res.json() as any };
}

const file = (data: Buffer, name = 'site.jpg'): Part => ({ name: 'photo', filename: name, data, type: 'image/jpeg' });

/** The signed link answers the bytes without a key. */
async function fetches(link: string) {
  const u = new URL(link);
  const got = await t.app.inject({ method: 'GET', url: u.pathname + u.search });
  return got.statusCode;
}

describe('POST /v1/assessment-pins/{id}/photos', () => {
  it('adds one photo with its fields; the pin lists it with working links', async () => {
    const w = await t.workspace();
    const { pin, jobId } = await pinOn(w);
    const res = await send(w, pin.id, [
      { name: 'caption', value: 'Wide crack' },
      { name: 'stage', value: 'before' },
      file(jpeg),
    ]);
    expect(res.status).toBe(201);
    expect(res.body.photo_ids).toEqual([expect.any(Number)]);
    const [id] = res.body.photo_ids;
    expect(res.body.data.id).toBe(pin.id);
    expect(res.body.data.photos).toEqual([
      {
        id,
        url: expect.any(String),
        thumbnail_url: expect.any(String),
        title: null,
        caption: 'Wide crack',
        stage: 'before',
        visibility: expect.any(String),
        is_video: false,
        taken_at: expect.any(String),
      },
    ]);
    expect(await fetches(res.body.data.photos[0].url)).toBe(200);
    expect(await fetches(res.body.data.photos[0].thumbnail_url)).toBe(200);
    // The photo is the job's, with the same links as /v1/photos.
    const photo = (await ok(w.api.get(`/v1/photos/${id}`))).data;
    expect(photo.job_id).toBe(jobId);
    expect(photo.url).toBe(res.body.data.photos[0].url);
    expect((await ok(w.api.get(`/v1/assessment-pins/${pin.id}`))).data.photos.map((p: any) => p.id)).toEqual([id]);
  });

  it('adds two photos in one request, after the ones already there', async () => {
    const w = await t.workspace();
    const { pin, assessmentId } = await pinOn(w);
    const first = await send(w, pin.id, [file(jpeg)]);
    const png = await image('png');
    const res = await send(w, pin.id, [
      file(jpeg, 'a.jpg'),
      { name: 'photo', filename: 'b.png', data: png, type: 'image/png' },
    ]);
    expect(res.status).toBe(201);
    expect(res.body.photo_ids).toHaveLength(2);
    expect(res.body.data.photos.map((p: any) => p.id)).toEqual([...first.body.photo_ids, ...res.body.photo_ids]);
    for (const p of res.body.data.photos) expect(await fetches(p.url)).toBe(200);
    const detail = (await ok(w.api.get(`/v1/site-assessments/${assessmentId}`))).data;
    expect(detail.services[0]).toMatchObject({ pin_count: 1, photo_count: 3 });
    expect(detail.pins![0].photos).toHaveLength(3);
  });

  it('copies a photo in from a url', async () => {
    const w = await t.workspace();
    const { pin } = await pinOn(w);
    const res = await w.api.post(`/v1/assessment-pins/${pin.id}/photos`, {
      url: `${base}/lot.jpg`,
      title: 'North lot',
    });
    expect(res.status).toBe(201);
    expect(res.body.data.photos).toEqual([expect.objectContaining({ id: res.body.photo_ids[0], title: 'North lot' })]);
    expect(await fetches(res.body.data.photos[0].url)).toBe(200);
    const page = await w.api.post(`/v1/assessment-pins/${pin.id}/photos`, { url: `${base}/page.html` });
    expect(page.status).toBe(422);
    expect(page.body.error).toBe('url is not an image');
  });

  it('refuses no photo, an invalid photo, a completed assessment, and another workspace’s pin', async () => {
    const w = await t.workspace();
    const { pin, assessmentId } = await pinOn(w);
    const none = await send(w, pin.id, [{ name: 'caption', value: 'x' }]);
    expect(none.status).toBe(400);
    expect(none.body.error).toBe('No photo provided');
    expect((await w.api.post(`/v1/assessment-pins/${pin.id}/photos`, { caption: 'x' })).body.error).toBe(
      'No photo provided',
    );
    const bad = await send(w, pin.id, [file(Buffer.from('not an image at all, just some text here'))]);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Invalid photo');
    const other = await t.workspace();
    const foreign = await send(other, pin.id, [file(jpeg)]);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('Pin not found');
    expect((await ok(w.api.get(`/v1/assessment-pins/${pin.id}`))).data.photos).toEqual([]);
    expect((await ok(w.api.get('/v1/photos'))).pagination.total).toBe(0);
    await ok(w.api.post(`/v1/site-assessments/${assessmentId}/complete`));
    const done = await send(w, pin.id, [file(jpeg)]);
    expect(done.status).toBe(409);
    expect(done.body.error).toBe('Assessment is completed');
  });

  it('a duplicate shares the photos; a pin delete keeps a shared photo and removes the last copy', async () => {
    const w = await t.workspace();
    const { pin, assessmentId } = await pinOn(w);
    const added = await send(w, pin.id, [file(jpeg)]);
    const [photoId] = added.body.photo_ids;
    const copy = (await ok(w.api.post(`/v1/site-assessments/${assessmentId}/duplicate`))).data;
    const copyDetail = (await ok(w.api.get(`/v1/site-assessments/${copy.id}`))).data;
    expect(copyDetail.pins![0].photos.map((p: any) => p.id)).toEqual([photoId]);
    expect(copyDetail.services[0].photo_count).toBe(1);
    expect(copyDetail.handoff!.services[0].photo_count).toBe(1);
    expect((await ok(w.api.get('/v1/photos'))).pagination.total).toBe(1);

    const dir = path.join(t.dataDir, 'objects', 'firms', String(w.firmId), 'photos');
    const stored = fs.readdirSync(dir).length;
    expect(stored).toBeGreaterThan(0);
    expect((await w.api.delete(`/v1/assessment-pins/${copyDetail.pins![0].id}`)).status).toBe(204);
    expect((await w.api.get(`/v1/photos/${photoId}`)).status).toBe(200);
    expect((await ok(w.api.get(`/v1/assessment-pins/${pin.id}`))).data.photos.map((p: any) => p.id)).toEqual([photoId]);
    expect((await w.api.delete(`/v1/assessment-pins/${pin.id}`)).status).toBe(204);
    const gone = await w.api.get(`/v1/photos/${photoId}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe('Photo not found');
    expect(fs.readdirSync(dir)).toHaveLength(0);
  });
});
