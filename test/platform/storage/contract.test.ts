// One contract for both storage adapters: the local data directory (its links served by the app
// on a real port) and S3 (s3rver, a real S3-protocol server on loopback). Every case runs against
// both, so `npm test` (and with it .ci/run, on either database) checks both adapters.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#platform/clock.ts';
import { ApiError } from '#platform/errors.ts';
import { contentDisposition } from '#platform/storage/disposition.ts';
import { InvalidStorageKey, ObjectNotFound, ObjectTooLarge } from '#platform/storage/errors.ts';
import { LocalStorage } from '#platform/storage/local.ts';
import { S3Storage } from '#platform/storage/s3.ts';
import type { Storage } from '#platform/storage/storage.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { startS3, type LocalS3 } from '#test/helpers/s3.ts';

const MB = 1024 * 1024;

// Live memory, not garbage: a collection before each sample (the flag can be turned on at run time).
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const liveBuffers = () => {
  gc();
  return process.memoryUsage().arrayBuffers;
};

interface Subject {
  storage: Storage;
  /** Moved to sign links "in the past" (the server checking them keeps real time). */
  clock: ManualClock;
  /** The origin links are made for. */
  base: string;
  /** The same adapter on a store it cannot reach (S3 on a closed port, a data directory under a file). */
  unreachable: Storage;
  close(): Promise<void>;
}

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-storage-'));

/** A data directory that cannot exist: its parent is a file. */
function impossibleDir(): string {
  const file = path.join(tempDir(), 'not-a-folder');
  fs.writeFileSync(file, '');
  return path.join(file, 'data');
}

async function local(): Promise<Subject> {
  const dataDir = tempDir();
  const clock = new ManualClock();
  const storage = new LocalStorage({ dataDir, clock });
  const t: TestApp = await startApp({ storage });
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    storage,
    clock,
    base,
    unreachable: new LocalStorage({ dataDir: impossibleDir(), clock }),
    async close() {
      await t.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function s3(): Promise<Subject> {
  const server: LocalS3 = await startS3();
  const clock = new ManualClock();
  const storage = new S3Storage(server.settings, clock);
  // A port that was just free: nothing listens there.
  const unreachable = new S3Storage({ ...server.settings, endpoint: 'http://127.0.0.1:9' }, clock);
  return {
    storage,
    clock,
    base: 'http://unused.example',
    unreachable,
    async close() {
      await storage.close();
      await unreachable.close();
      await server.close();
    },
  };
}

async function read(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** `mb` megabytes made a chunk at a time (never held whole), with their hash once read. */
function generated(mb: number, seed = 1, onChunk?: (i: number) => void): { stream: Readable; digest: () => string } {
  const hash = createHash('sha256');
  let done = '';
  async function* chunks() {
    for (let i = 0; i < mb; i++) {
      onChunk?.(i);
      const chunk = Buffer.alloc(MB, (i * 7 + seed) % 251);
      hash.update(chunk);
      yield chunk;
    }
    done = hash.digest('hex');
  }
  return { stream: Readable.from(chunks()), digest: () => done };
}

async function streamDigest(stream: Readable): Promise<{ bytes: number; digest: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream) {
    bytes += (chunk as Buffer).length;
    hash.update(chunk as Buffer);
  }
  return { bytes, digest: hash.digest('hex') };
}

async function absent(storage: Storage, key: string): Promise<boolean> {
  return storage.get(key).then(
    (s) => (s.destroy(), false),
    (err) => {
      if (err instanceof ObjectNotFound) return true;
      throw err;
    },
  );
}

let n = 0;
const freshKey = (name = 'file.bin') => `firms/1/contract/${++n}-${name}`;

describe.each([
  ['local', local],
  ['s3', s3],
])('storage contract: %s', (_name, make) => {
  let s: Subject;
  beforeAll(async () => {
    s = await make();
  });
  afterAll(() => s?.close());

  it('stores a Buffer and gives it back', async () => {
    const key = freshKey();
    const body = Buffer.from('field photo bytes');
    expect(await s.storage.put(key, body, { contentType: 'image/jpeg' })).toEqual({ bytes: body.length });
    expect(await read(await s.storage.get(key))).toEqual(body);
  });

  it('stores a stream, replacing what was under the key', async () => {
    const key = freshKey();
    await s.storage.put(key, Buffer.from('old'), { contentType: 'text/plain' });
    const { stream } = generated(1);
    expect(await s.storage.put(key, stream, { contentType: 'application/octet-stream' })).toEqual({ bytes: MB });
    expect((await read(await s.storage.get(key))).equals(Buffer.alloc(MB, 1))).toBe(true);
  });

  it('streams a 50 MB object in and out without holding it, counting its bytes', async () => {
    const key = freshKey('large.bin');
    const before = liveBuffers();
    let peak = 0;
    const sample = (i: number) => {
      if (i % 5 === 4) peak = Math.max(peak, liveBuffers() - before);
    };
    const { stream, digest } = generated(50, 3, sample);
    expect(await s.storage.put(key, stream, { contentType: 'application/octet-stream', maxBytes: 60 * MB })).toEqual({
      bytes: 50 * MB,
    });
    // Held whole, 45 MB would be live by the last samples; streamed, what is in flight at most
    // (S3: the part being gathered, two 5 MB parts being sent and their copies, about 27 MB).
    expect(peak).toBeLessThan(35 * MB);
    expect(await streamDigest(await s.storage.get(key))).toEqual({ bytes: 50 * MB, digest: digest() });
    await s.storage.delete(key);
  });

  it('refuses a body past maxBytes and leaves nothing under the key', async () => {
    const small = freshKey();
    await expect(
      s.storage.put(small, Buffer.alloc(2000), { contentType: 'image/png', maxBytes: 1000 }),
    ).rejects.toThrow(ObjectTooLarge);
    expect(await absent(s.storage, small)).toBe(true);
    // Past the limit in the middle of a stream, after several S3 parts went up.
    const large = freshKey();
    const err = await s.storage
      .put(large, generated(12).stream, { contentType: 'image/png', maxBytes: 11 * MB })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ObjectTooLarge);
    expect(err.limit).toBe(11 * MB);
    expect(await absent(s.storage, large)).toBe(true);
  });

  it('passes an error of the body stream on unchanged and stores nothing', async () => {
    const key = freshKey();
    const broken = new Error('client went away');
    async function* failing() {
      yield Buffer.alloc(1000);
      throw broken;
    }
    await expect(s.storage.put(key, Readable.from(failing()), { contentType: 'image/png' })).rejects.toBe(broken);
    expect(await absent(s.storage, key)).toBe(true);
  });

  it('deletes, and deleting again (or what never was) is not an error', async () => {
    const key = freshKey();
    await s.storage.put(key, Buffer.from('x'), { contentType: 'text/plain' });
    await s.storage.delete(key);
    expect(await absent(s.storage, key)).toBe(true);
    await s.storage.delete(key);
    await s.storage.delete(freshKey('never.bin'));
    await expect(s.storage.get(freshKey('never.bin'))).rejects.toThrow(ObjectNotFound);
  });

  it('makes a keyless link that answers the bytes with the type and disposition asked for', async () => {
    const key = freshKey('photo.png');
    const body = Buffer.from('png bytes here');
    await s.storage.put(key, body, { contentType: 'image/png' });
    const now = s.clock.now();
    const link = await s.storage.signedUrl(
      key,
      { expiresInSeconds: 600, filename: 'Drive été "north".png', contentType: 'image/png', disposition: 'attachment' },
      s.base,
    );
    expect(link.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(Math.abs(link.expiresAt - (now + 600_000))).toBeLessThan(2000);
    const res = await fetch(link.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toBe(contentDisposition('attachment', 'Drive été "north".png'));
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Drive _t_ _north_.png"; filename*=UTF-8''Drive%20%C3%A9t%C3%A9%20%22north%22.png`,
    );
    expect(Buffer.from(await res.arrayBuffer())).toEqual(body);

    const inline = await fetch(
      (
        await s.storage.signedUrl(
          key,
          { expiresInSeconds: 60, disposition: 'inline', contentType: 'image/png' },
          s.base,
        )
      ).url,
    );
    expect(inline.status).toBe(200);
    expect(inline.headers.get('content-disposition')).toBe('inline');
    await inline.arrayBuffer();
  });

  it('refuses a link once it has expired', async () => {
    const key = freshKey();
    await s.storage.put(key, Buffer.from('old news'), { contentType: 'text/plain' });
    // Signed two minutes "ago" for one minute; the server checking it keeps real time.
    const clock = s.clock;
    const realNow = clock.now();
    (clock as unknown as { t: number }).t = realNow - 120_000;
    const link = await s.storage.signedUrl(key, { expiresInSeconds: 60, disposition: 'inline' }, s.base);
    clock.advance(120_000);
    expect(link.expiresAt).toBeLessThan(Date.now());
    const res = await fetch(link.url);
    expect(res.status).toBe(403);
    await res.arrayBuffer();
  });

  it('refuses keys that could leave the namespace', async () => {
    for (const key of [
      '../x',
      '/x',
      'firms/1/../../x',
      'firms//1',
      'firms/./1',
      'firms/1/.hidden',
      'a\\b',
      '',
      'a b',
    ]) {
      await expect(s.storage.put(key, Buffer.from('x'), { contentType: 'text/plain' }), key).rejects.toThrow(
        InvalidStorageKey,
      );
      await expect(s.storage.get(key), key).rejects.toThrow(InvalidStorageKey);
      await expect(s.storage.delete(key), key).rejects.toThrow(InvalidStorageKey);
      await expect(s.storage.signedUrl(key, { expiresInSeconds: 60, disposition: 'inline' }, s.base)).rejects.toThrow(
        InvalidStorageKey,
      );
    }
    await expect(
      s.storage.signedUrl(freshKey(), { expiresInSeconds: 8 * 24 * 3600, disposition: 'inline' }, s.base),
    ).rejects.toThrow(RangeError);
    await expect(
      s.storage.signedUrl(
        freshKey(),
        { expiresInSeconds: 60, disposition: 'inline', contentType: 'text/html\r\nX: y' },
        s.base,
      ),
    ).rejects.toThrow(RangeError);
  });

  it('answers 503 storage_unavailable, retryable, when the store cannot be reached', async () => {
    const err = await s.unreachable.put(freshKey(), Buffer.from('x'), { contentType: 'text/plain' }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(503);
    expect(err.body).toEqual({
      error: 'Storage unavailable',
      code: 'storage_unavailable',
      retryable: true,
      message: expect.any(String),
    });
    const streamed = await s.unreachable
      .put(freshKey(), generated(2).stream, { contentType: 'text/plain' })
      .catch((e) => e);
    expect(streamed.status).toBe(503);
  });
});
