// The url form of POST /v1/jobs/{job_id}/photos: a photo copied in from a web address, fetched
// through the outbound rules (document 3: public https image, up to 15 MB, private networks
// refused). A local HTTP server plays the web; the app allows private networks for it, except in
// the refusal test.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { job } from '#test/helpers/records.ts';
import { image } from './upload.ts';

let t: TestApp;
let w: Workspace;
let jobId: number;
let server: http.Server;
let base: string;
let jpeg: Buffer;
const hits: string[] = [];

beforeAll(async () => {
  jpeg = await image('jpeg', 120, 80);
  const big = Buffer.alloc(16 * 1024 * 1024, 0);
  jpeg.copy(big); // a JPEG's first bytes, then 16 MB: an image too large
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/lot.jpg') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
    if (req.url === '/moved') return res.writeHead(302, { location: '/lot.jpg' }).end();
    if (req.url === '/page.html')
      return res.writeHead(200, { 'content-type': 'image/jpeg' }).end('<!doctype html><p>hi</p>');
    if (req.url === '/big.jpg') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(big);
    if (req.url === '/big-unannounced.jpg') {
      // Chunked: no Content-Length, so only counting while streaming can catch it.
      res.writeHead(200, { 'content-type': 'image/jpeg', 'transfer-encoding': 'chunked' });
      for (let i = 0; i < 16; i++) res.write(big.subarray(i * 1024 * 1024, (i + 1) * 1024 * 1024));
      return res.end();
    }
    res.writeHead(404).end('missing');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await startApp({ allowPrivateNetwork: true });
  w = await t.workspace();
  jobId = (await job(w)).id;
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => server.close(resolve));
});

const fromUrl = (body: Record<string, unknown>, workspace: Workspace = w, id = jobId) =>
  workspace.api.post(`/v1/jobs/${id}/photos`, body);

describe('a photo from a url', () => {
  it('copies the image in with the fields sent, and its link serves the bytes', async () => {
    const res = await fromUrl({
      url: `${base}/lot.jpg`,
      title: 'North lot',
      stage: 'before',
      latitude: 41.5,
      longitude: -81.7,
    });
    expect(res.status).toBe(201);
    expect(res.body.created).toBe(true);
    expect(res.body.data).toMatchObject({ title: 'North lot', stage: 'before', lat: 41.5, lng: -81.7 });
    expect(res.body.data.thumbnail_url).toEqual(expect.any(String));
    const link = new URL(res.body.data.url);
    const got = await t.app.inject({ method: 'GET', url: link.pathname + link.search });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/jpeg');
  });

  it('follows a redirect, and a repeated client_uid answers the earlier photo', async () => {
    const first = await fromUrl({ url: `${base}/moved`, client_uid: 'cam-77' });
    expect(first.status).toBe(201);
    const again = await fromUrl({ url: `${base}/moved`, client_uid: 'cam-77' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: false, data: { id: first.body.data.id } });
  });

  it('refuses a page, a missing file, a bad url and images over 15 MB with the spec 422s, storing nothing', async () => {
    const before = (await w.api.get(`/v1/jobs/${jobId}/photos`)).body.data.length;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ url: `${base}/page.html` }, 'url is not an image', 'url_not_image'],
      [{ url: `${base}/nothing.jpg` }, 'Could not fetch url', 'url_fetch_failed'],
      [{ url: 'ftp://example.com/a.jpg' }, 'Could not fetch url', 'url_fetch_failed'],
      [{ url: 'not a url' }, 'Could not fetch url', 'url_fetch_failed'],
      [{ url: `${base}/big.jpg` }, 'Image too large', 'image_too_large'],
      [{ url: `${base}/big-unannounced.jpg` }, 'Image too large', 'image_too_large'],
    ];
    for (const [body, error, code] of cases) {
      const res = await fromUrl(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ error, code });
    }
    expect((await w.api.get(`/v1/jobs/${jobId}/photos`)).body.data.length).toBe(before);
  });

  it('checks the fields and the job before fetching anything', async () => {
    hits.length = 0;
    const other = await t.workspace();
    expect((await fromUrl({ url: `${base}/lot.jpg` }, other)).status).toBe(404);
    expect((await fromUrl({ url: `${base}/lot.jpg`, stage: 'someday' })).status).toBe(400);
    expect((await fromUrl({ url: `${base}/lot.jpg`, latitude: 41.5 })).status).toBe(400);
    expect((await fromUrl({ url: `${base}/lot.jpg`, bogus: 1 })).body).toMatchObject({ code: 'unknown_fields' });
    expect(hits).toEqual([]);
  });
});

describe('private networks', () => {
  it('are refused unless the operator allows them', async () => {
    const strict = await startApp({ allowPrivateNetwork: false });
    const sw = await strict.workspace();
    const j = await job(sw);
    for (const url of [
      `${base}/lot.jpg`,
      'https://127.0.0.1/lot.jpg',
      'https://localhost/lot.jpg',
      'http://example.com/a.jpg',
    ]) {
      const res = await sw.api.post(`/v1/jobs/${j.id}/photos`, { url });
      expect(res.status, url).toBe(422);
      expect(res.body.code, url).toBe('url_fetch_failed');
    }
    // IPv6 forms of private and loopback IPv4 addresses are refused before any connection.
    for (const url of [
      'https://[::ffff:127.0.0.1]/lot.jpg',
      'https://[::127.0.0.1]/lot.jpg',
      'https://[64:ff9b::a00:1]/lot.jpg',
      'https://[2002:c0a8:101::1]/lot.jpg',
    ]) {
      const res = await sw.api.post(`/v1/jobs/${j.id}/photos`, { url });
      expect(res.status, url).toBe(422);
      expect(res.body, url).toMatchObject({
        code: 'url_fetch_failed',
        message: expect.stringMatching(/private or loopback/),
      });
    }
    await strict.close();
  });
});
