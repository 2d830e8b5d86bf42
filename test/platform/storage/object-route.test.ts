// GET /v1/objects/{signature}: the local adapter's keyless links through the app. No key is
// needed; a changed link is 403 link_invalid, an expired one 403 link_expired, a good link to a
// deleted object 404, and 503 storage_unavailable while the store itself is out; the secret
// outlives the process that made it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#platform/clock.ts';
import { LocalStorage } from '#platform/storage/local.ts';
import { SECRET_FILE } from '#platform/storage/secret.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { job } from '#test/helpers/records.ts';
import { image, uploadPhoto } from '#test/field/photos/upload.ts';
import { uploadJobFile } from '#test/field/files/upload.ts';

let t: TestApp;
let dataDir: string;
const clock = new ManualClock();
let storage: LocalStorage;
const BASE = 'https://files.example.com';

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-objects-'));
  storage = new LocalStorage({ dataDir, clock });
  t = await startApp({ storage });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The link's path and query, as a client would send them to this server. */
const pathOf = (url: string) => url.slice(BASE.length);

async function linkTo(key: string, body = 'site photo', seconds = 60): Promise<string> {
  await storage.put(key, Buffer.from(body), { contentType: 'image/jpeg' });
  const { url } = await storage.signedUrl(
    key,
    { expiresInSeconds: seconds, filename: 'Lot A.jpg', contentType: 'image/jpeg', disposition: 'inline' },
    BASE,
  );
  expect(url.startsWith(`${BASE}/v1/objects/`)).toBe(true);
  return pathOf(url);
}

describe('a signed object link', () => {
  it('answers the file with no key, streamed with its headers', async () => {
    const p = await linkTo('firms/1/photos/a.jpg');
    const res = await t.app.inject({ method: 'GET', url: p });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('site photo');
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['content-length']).toBe('10');
    expect(res.headers['content-disposition']).toBe('inline; filename="Lot A.jpg"');
    expect(res.headers['cache-control']).toBe('private, max-age=60');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    clock.advance(45_000);
    const later = await t.app.inject({ method: 'GET', url: p });
    expect(later.headers['cache-control']).toBe('private, max-age=15');
  });

  it('answers HEAD with the headers only', async () => {
    const p = await linkTo('firms/1/photos/head.jpg');
    const res = await t.app.inject({ method: 'HEAD', url: p });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.body).toBe('');
  });

  it('refuses a changed link: 403 link_invalid, whatever was changed', async () => {
    const p = await linkTo('firms/1/photos/b.jpg');
    await storage.put('firms/2/photos/secret.jpg', Buffer.from('other workspace'), { contentType: 'image/jpeg' });
    const url = new URL(p, BASE);
    const changed = [
      p.replace('firms%2F1%2Fphotos%2Fb.jpg', 'firms%2F2%2Fphotos%2Fsecret.jpg'),
      p.replace(/expires=\d+/, 'expires=9999999999'),
      p.replace('image%2Fjpeg', 'text%2Fhtml'),
      p.replace('inline', 'attachment'),
      p.replace(url.pathname.split('/').pop()!, 'A'.repeat(43)),
      p.replace(url.pathname.split('/').pop()!, 'short'),
    ];
    for (const bad of changed) {
      expect(bad, 'the change applies').not.toBe(p);
      const res = await t.anon.get(bad);
      expect(res.status, bad).toBe(403);
      expect(res.body).toEqual({ error: 'Invalid link', code: 'link_invalid', message: expect.any(String) });
    }
  });

  it('refuses an expired link: 403 link_expired with when it expired', async () => {
    const p = await linkTo('firms/1/photos/c.jpg', 'x', 5);
    clock.advance(5_000);
    const res = await t.anon.get(p);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'Link expired', code: 'link_expired' });
    expect(res.body.expired_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it('answers 404 for a good link whose object was deleted, and 400 for a link missing its query', async () => {
    const p = await linkTo('firms/1/photos/d.jpg');
    await storage.delete('firms/1/photos/d.jpg');
    const res = await t.anon.get(p);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Object not found');
    const bare = await t.anon.get(p.slice(0, p.indexOf('?')));
    expect(bare.status).toBe(400);
  });

  it('keeps working for another process on the same data directory (the secret is kept, mode 0600)', async () => {
    const p = await linkTo('firms/1/photos/e.jpg');
    const file = path.join(dataDir, SECRET_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const other = await startApp({ storage: new LocalStorage({ dataDir, clock }) });
    try {
      expect((await other.anon.get(p)).status).toBe(200);
    } finally {
      await other.close();
    }
    // A configured secret signs instead: links of the generated one do not work there.
    const configured = await startApp({ storage: new LocalStorage({ dataDir, clock, secret: 'x'.repeat(32) }) });
    try {
      expect((await configured.anon.get(p)).status).toBe(403);
    } finally {
      await configured.close();
    }
  });
});

describe('during a storage outage', () => {
  it("a photo's and a file's links answer 503 storage_unavailable (retryable), not 404, until the store is back", async () => {
    const app = await startApp();
    try {
      const w = await app.workspace();
      const j = await job(w);
      const photo = await uploadPhoto(app, w, j.id, await image('jpeg'));
      expect(photo.status).toBe(201);
      const file = await uploadJobFile(app, w, j.id, Buffer.from('item,qty\nSealcoat,100\n'), 'takeoff.csv');
      expect(file.status).toBe(201);
      const download = await w.api.get(`/v1/files/${file.body.data.id}/download`);
      const local = (url: string) => {
        const u = new URL(url);
        return `${u.pathname}${u.search}`;
      };
      const links = [photo.body.data.url, photo.body.data.thumbnail_url, String(download.headers.location)].map(local);
      for (const link of links) expect((await app.anon.get(link)).status).toBe(200);

      const objects = path.join(app.dataDir, 'objects');
      const expectOut = async (why: string) => {
        for (const link of links) {
          const res = await app.anon.get(link);
          expect(res.status, why).toBe(503);
          expect(res.body, why).toEqual({
            error: 'Storage unavailable',
            code: 'storage_unavailable',
            retryable: true,
            message: expect.any(String),
          });
        }
      };
      // The share the objects live on goes away: its folder is gone…
      fs.renameSync(objects, `${objects}.away`);
      await expectOut('no objects folder');
      // …or an empty mount point is left in its place.
      fs.mkdirSync(objects);
      await expectOut('an empty objects folder');
      fs.rmdirSync(objects);
      fs.renameSync(`${objects}.away`, objects);
      for (const link of links) expect((await app.anon.get(link)).status).toBe(200);

      // A photo deleted for real: its link is 404, as before.
      expect((await w.api.delete(`/v1/photos/${photo.body.data.id}`)).status).toBe(204);
      expect((await app.anon.get(links[0]!)).status).toBe(404);
    } finally {
      await app.close();
    }
  });
});
