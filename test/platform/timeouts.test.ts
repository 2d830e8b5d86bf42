// How long the server waits on a client (platform/timeouts.ts), over a real port with a client
// that goes quiet: an upload that stops sending is cut off with 408 request_timeout and leaves no
// partial object (local temporary file, S3 multipart upload); a JSON body that stops, a request
// that takes too long as a whole, headers that never finish and an idle kept-alive connection are
// ended too. A client that hangs up mid-upload is an ordinary event: logged below error, nothing
// kept. The limits are a few hundred milliseconds here (the test's app options).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { systemClock } from '#platform/clock.ts';
import { S3Storage } from '#platform/storage/s3.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { connect, requestHead } from '#test/helpers/raw-http.ts';
import { startS3, type LocalS3 } from '#test/helpers/s3.ts';
import { job, ok } from '#test/helpers/records.ts';
import { image } from '#test/field/photos/upload.ts';

const IDLE_MS = 300;
let t: TestApp;
let port: number;
let w: Workspace;

beforeAll(async () => {
  t = await startApp({ timeouts: { uploadIdleMs: IDLE_MS }, logLevel: 'debug' });
  port = portOf(await t.app.listen({ port: 0, host: '127.0.0.1' }));
  w = await t.workspace();
});
afterAll(() => t.close());

const portOf = (address: string) => Number(new URL(address).port);

/** Every file a workspace has in the app's objects folder, temporary ones (.…tmp) included. */
function storedFiles(app: TestApp, firmId: number): string[] {
  const root = path.join(app.dataDir, 'objects', 'firms', String(firmId));
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((p) =>
    fs.statSync(path.join(root, p)).isFile(),
  );
}

const BOUNDARY = 'groundworkstall';
const filePart = (field: string, filename: string, type: string) =>
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
      `Content-Type: ${type}\r\n\r\n`,
  );

/** Sends the head of a multipart POST announcing `announced` bytes, then `sent` of them, and stops. */
async function stalledUpload(to: number, key: string, url: string, sent: Buffer, announced = sent.length + 1_000_000) {
  const c = await connect(to);
  await c.write(
    requestHead('POST', url, {
      'x-api-key': key,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      'content-length': announced,
    }),
  );
  await c.write(sent);
  return c;
}

function expectTimeoutAnswer(answer: { status: number; headers: Record<string, string>; body: string }) {
  expect(answer.status).toBe(408);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(JSON.parse(answer.body)).toEqual({
    error: 'Request timeout',
    code: 'request_timeout',
    message: expect.stringMatching(/nothing was saved/),
  });
}

describe('an upload that stops sending', () => {
  it('a photo: 408 request_timeout, the connection closed, no partial object left', async () => {
    const j = await job(w);
    const jpeg = await image('jpeg', 800, 600);
    const c = await stalledUpload(
      port,
      w.key,
      `/v1/jobs/${j.id}/photos`,
      Buffer.concat([filePart('photo', 'lot.jpg', 'image/jpeg'), jpeg, Buffer.alloc(256 * 1024, 7)]),
    );
    expectTimeoutAnswer(await c.answer);
    expect((await c.answer).headers.connection).toBe('close');
    await c.closed;
    expect(storedFiles(t, w.firmId)).toEqual([]);
    expect((await ok(w.api.get(`/v1/jobs/${j.id}/photos`))).data).toEqual([]);
  });

  it('a file, stalled before its file part: 408 all the same', async () => {
    const j = await job(w);
    const c = await stalledUpload(
      port,
      w.key,
      `/v1/jobs/${j.id}/files`,
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="description"\r\n\r\nTakeoff`),
    );
    expectTimeoutAnswer(await c.answer);
    expect(storedFiles(t, w.firmId)).toEqual([]);
    expect((await ok(w.api.get(`/v1/jobs/${j.id}/files`))).data).toEqual([]);
  });

  it('a file stored in S3: 408, its multipart upload aborted and no object made', async () => {
    const s3 = await startS3();
    const proxy = await recordingProxy(s3);
    const app = await startApp({
      storage: new S3Storage({ ...s3.settings, endpoint: proxy.url }, systemClock),
      timeouts: { uploadIdleMs: IDLE_MS },
    });
    try {
      const appPort = portOf(await app.app.listen({ port: 0, host: '127.0.0.1' }));
      const owner = await app.workspace();
      const j = await job(owner);
      // Past S3's 5 MB part, so the adapter has opened a multipart upload and sent its first part.
      const c = await stalledUpload(
        appPort,
        owner.key,
        `/v1/jobs/${j.id}/files`,
        Buffer.concat([filePart('file', 'takeoff.csv', 'text/csv'), Buffer.alloc(6 * 1024 * 1024, 'a')]),
      );
      expectTimeoutAnswer(await c.answer);
      const opened = proxy.seen.find((r) => r.method === 'POST' && /\?uploads=?$/.test(r.url));
      expect(opened, proxy.seen.map((r) => `${r.method} ${r.url}`).join('\n')).toBeDefined();
      const key = opened!.url.split('?')[0];
      expect(proxy.seen.some((r) => r.method === 'PUT' && r.url.startsWith(`${key}?`))).toBe(true);
      // s3rver does not implement AbortMultipartUpload (it answers 405), so what counts is that it was asked.
      expect(proxy.seen.some((r) => r.method === 'DELETE' && r.url.startsWith(`${key}?uploadId=`))).toBe(true);
      const client = new S3Client({
        endpoint: s3.settings.endpoint!,
        region: s3.settings.region,
        forcePathStyle: true,
        credentials: { accessKeyId: s3.settings.accessKeyId, secretAccessKey: s3.settings.secretAccessKey },
      });
      const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.settings.bucket }));
      client.destroy();
      expect(listed.Contents ?? []).toEqual([]);
      expect((await ok(owner.api.get(`/v1/jobs/${j.id}/files`))).data).toEqual([]);
    } finally {
      await app.close();
      await proxy.close();
      await s3.close();
    }
  }, 60_000);

  it('a JSON body that stops: 408 request_timeout, nothing made', async () => {
    const owner = await t.workspace();
    const c = await connect(port);
    const body = JSON.stringify({ name: 'Half a job' });
    await c.write(
      requestHead('POST', '/v1/jobs', {
        'x-api-key': owner.key,
        'content-type': 'application/json',
        'content-length': body.length + 10,
      }),
    );
    await c.write(body);
    expectTimeoutAnswer(await c.answer);
    expect((await ok(owner.api.get('/v1/jobs'))).data).toEqual([]);
  });

  it('a slow upload that keeps sending is not cut off', async () => {
    const owner = await t.workspace();
    const j = await job(owner);
    const jpeg = await image('jpeg', 80, 60);
    const rest = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
    const start = filePart('photo', 'slow.jpg', 'image/jpeg');
    const c = await stalledUpload(
      port,
      owner.key,
      `/v1/jobs/${j.id}/photos`,
      start,
      start.length + jpeg.length + rest.length,
    );
    // Each piece comes well inside the idle limit, the whole well past it.
    for (let at = 0; at < jpeg.length; at += Math.ceil(jpeg.length / 4)) {
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS / 2));
      await c.write(jpeg.subarray(at, at + Math.ceil(jpeg.length / 4)));
    }
    await c.write(rest);
    const answer = await c.answer;
    expect(answer.status, answer.body).toBe(201);
    c.socket.destroy();
  });
});

describe("Node's limits on the whole request", () => {
  it('a request whose body trickles past the request timeout is answered 408 with the error body', async () => {
    const app = await startApp({ timeouts: { requestMs: 600, headersMs: 300, uploadIdleMs: 60_000 } });
    try {
      const appPort = portOf(await app.app.listen({ port: 0, host: '127.0.0.1' }));
      const owner = await app.workspace();
      const c = await connect(appPort);
      await c.write(
        requestHead('POST', '/v1/jobs', {
          'x-api-key': owner.key,
          'content-type': 'application/json',
          'content-length': 100,
        }),
      );
      const drip = setInterval(() => void c.write(' ').catch(() => {}), 100);
      try {
        expectTimeoutAnswer(await c.answer);
      } finally {
        clearInterval(drip);
      }
      await c.closed;
    } finally {
      await app.close();
    }
  });

  it('headers that never finish: 408 with the error body', async () => {
    const app = await startApp({ timeouts: { headersMs: 300, requestMs: 600 } });
    try {
      const c = await connect(portOf(await app.app.listen({ port: 0, host: '127.0.0.1' })));
      await c.write('GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
      expectTimeoutAnswer(await c.answer);
      await c.closed;
    } finally {
      await app.close();
    }
  });

  it('an idle kept-alive connection is closed after the keep-alive timeout', async () => {
    const app = await startApp({ timeouts: { keepAliveMs: 200 } });
    try {
      const c = await connect(portOf(await app.app.listen({ port: 0, host: '127.0.0.1' })));
      await c.write(requestHead('GET', '/v1/health', {}));
      expect((await c.answer).status).toBe(200);
      await c.closed;
    } finally {
      await app.close();
    }
  });
});

describe('a client that hangs up mid-upload', () => {
  it('is logged below error level, and nothing is kept', async () => {
    const j = await job(w);
    const jpeg = await image('jpeg', 800, 600);
    const before = t.logs.length;
    const c = await stalledUpload(
      port,
      w.key,
      `/v1/jobs/${j.id}/photos`,
      Buffer.concat([filePart('photo', 'gone.jpg', 'image/jpeg'), jpeg, Buffer.alloc(512 * 1024, 3)]),
    );
    c.socket.destroy();
    // The server notices the hang-up and finishes the request (its log line says how it ended).
    await vi.waitFor(() => expect(t.logs.slice(before).some((l) => /aborted|closed/i.test(String(l.msg)))).toBe(true), {
      timeout: 10_000,
    });
    const logged = t.logs.slice(before);
    expect(
      logged.filter((l) => l.level >= 50),
      JSON.stringify(logged),
    ).toEqual([]);
    await vi.waitFor(() => expect(storedFiles(t, w.firmId)).toEqual([]), { timeout: 10_000 });
    expect((await ok(w.api.get(`/v1/jobs/${j.id}/photos`))).data).toEqual([]);
  });
});

/** An HTTP proxy in front of the S3 server that notes each request's method and path. */
async function recordingProxy(s3: LocalS3) {
  const target = new URL(s3.settings.endpoint!);
  const seen: { method: string; url: string }[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url! });
    const out = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
