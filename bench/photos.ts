// Photos benchmark (docs/performance.md, "Photos"): three measurements the photos issue asks for.
//
//   npm run bench:photos                           SQLite file database in a temp dir
//   DATABASE_URL=postgres://… npm run bench:photos     PostgreSQL (a fresh schema, dropped afterwards)
//   npm run bench:photos -- --quick                100k photos at most, one short round
//   npm run bench:photos -- --smoke                seconds, for CI (bench/mode.ts): one image, an 8 MiB
//                                                  video, 10k photos, one sample of everything
//   BENCH_PHOTOS_MAX=100000 npm run bench:photos   the largest workspace the list is timed at
//   npm run bench:photos -- --concurrency=8        uploads in flight (default 4)
//   BENCH_PHOTOS_UPLOAD_BYTES=…                    size of the large streamed upload (default 200 MiB)
//   npm run bench:photos -- --only=list            some of the three parts: memory, uploads, list
//
// 1. Upload throughput: POST /v1/jobs/{job_id}/photos (multipart, ~1 MB 2000×1500 JPEGs, thumbnail
//    made, upright copy made for the EXIF-turned set) over real HTTP, against sharp alone doing the
//    image work platform/imagery/examine.ts does on the same images, in the same run, with the same concurrency; and
//    the same route with a phone video of the same size, which it stores without decoding.
// 2. Server memory while one 200 MiB phone video (the largest upload the photos route takes)
//    streams in: idle and peak RSS of the server process. uploadMemory() takes the path and the
//    field, so it can point at any multipart upload route.
// 3. GET /v1/photos?limit=200 latency as the workspace grows from 10k to 1M photos: the first
//    page, a deep page (offset 5,000) and two updated_after pages, with the queries behind them
//    timed on their own and their plans.
//
// The server runs in a child process (bench/photos-server.ts) so its RSS and CPU are its own; the
// client (http.request with keep-alive, multipart bodies written from buffers or a generator) and
// the sharp baseline run here. Results are printed as markdown and written to
// bench/results/photos-<engine>.md.
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { CompiledQuery, createQueryId, type KyselyPlugin, type RootOperationNode, sql } from 'kysely';
import sharp from 'sharp';
import { isPostgresUrl } from '#src/config.ts';
import type { Database } from '#db/database.ts';
import { actingAs } from '#platform/auth.ts';
import { syncWindow } from '#platform/sync.ts';
import { VIDEO_MAX_BYTES } from '#field/photos/limits.ts';
import { THUMBNAIL_PX } from '#platform/imagery/examine.ts';
import { listPhotos, tagsOf } from '#field/photos/repo.ts';
import { dropOnInterrupt, openBenchDatabase } from './database.ts';
import { fmt, loadNow, ms, revision } from './load.ts';
import type { PeakAnswer, PhotoServerOptions } from './photos-server.ts';
import { insertJobs, insertPhotos, photoInstant } from './seed.ts';
import { benchWorkspace } from './workspace.ts';
import { MODE_LABEL, QUICK, saveReport, sized } from './mode.ts';

const PARTS = ['memory', 'uploads', 'list'] as const;
const ONLY = new Set<string>(
  process.argv
    .find((a) => a.startsWith('--only='))
    ?.slice(7)
    .split(',') ?? PARTS,
);
const CONCURRENCY = Number(process.argv.find((a) => a.startsWith('--concurrency='))?.slice(14) ?? 4);
/** Upload rows: short and alternated over several rounds, so a change in the machine's other load
 * falls on both sides of a ratio. */
const UPLOAD_S = sized(5, 3, 0.3);
const UPLOAD_WARMUP_S = sized(1, 1, 0.1);
/** The unmeasured first pass of each side, seconds. */
const UPLOAD_PASS_S = sized(3, 1, 0.2);
const ROUNDS = sized(3, 1, 1);
const DISTINCT_IMAGES = sized(4, 4, 1);
const MAX_PHOTOS = Number(process.env.BENCH_PHOTOS_MAX ?? sized(1_000_000, 100_000, 10_000));
const SIZES = [...[10_000, 100_000, 1_000_000].filter((n) => n < MAX_PHOTOS), MAX_PHOTOS];
// The deep page and the windows need this many: 5,000 + 200 rows, and 1,000 photos on each side.
if (!(MAX_PHOTOS >= 10_000)) throw new Error('BENCH_PHOTOS_MAX must be at least 10000');
const BIG_BYTES = Number(process.env.BENCH_PHOTOS_UPLOAD_BYTES ?? sized(VIDEO_MAX_BYTES, VIDEO_MAX_BYTES, 8 << 20));
const LIST_LIMIT = 200;
const DEEP_OFFSET = 5_000;
/** Requests per list scenario and size (after LIST_WARMUP), interleaved; fewer if LIST_MAX_S runs out. */
const LIST_SAMPLES = sized(50, 20, 2);
const LIST_WARMUP = sized(5, 5, 1);
const LIST_MAX_S = sized(25, 8, 2);
/** Runs of each query timed on its own (after two unmeasured ones). */
const QUERY_RUNS = sized(15, 5, 1);
/** The issue's targets. */
const UPLOAD_TARGET = 0.5;
const SHARP_ALONE = 'sharp alone (baseline)';
const RSS_TARGET_MB = 50;

const here = path.dirname(fileURLToPath(import.meta.url));
const databaseUrl =
  process.env.DATABASE_URL && isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : null;
const engine = databaseUrl ? 'postgres' : 'sqlite';
const MB = 1024 * 1024;
const mb = (n: number) => fmt(n / MB, 0);

const started = Date.now();
const log = (msg: string) => console.error(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${msg}`);

const quantile = (sorted: number[], q: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const median = (xs: number[]) =>
  quantile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

// ---- the server process ----------------------------------------------------------------------

interface ServerProcess {
  base: string;
  pid: number;
  ask<T>(cmd: 'mark' | 'peak' | 'cpu' | 'stop'): Promise<T>;
  kill(): void;
}

async function startServer(options: PhotoServerOptions): Promise<ServerProcess> {
  const child: ChildProcess = fork(path.join(here, 'photos-server.ts'), [JSON.stringify(options)], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let next = 0;
  const pending = new Map<number, { resolve: (m: never) => void; reject: (e: Error) => void }>();
  const { base, pid } = await new Promise<{ base: string; pid: number }>((resolve, reject) => {
    child.on('exit', (code, signal) => {
      const err = new Error(`the server process exited (${code ?? signal})`);
      reject(err);
      for (const p of pending.values()) p.reject(err);
    });
    child.on('message', (m: { ready?: boolean; base: string; pid: number; id: number }) => {
      if (m.ready) resolve(m);
      else {
        pending.get(m.id)?.resolve(m as never);
        pending.delete(m.id);
      }
    });
  });
  return {
    base,
    pid,
    ask<T>(cmd: 'mark' | 'peak' | 'cpu' | 'stop') {
      const id = next++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (m: never) => void, reject });
        child.send({ id, cmd });
      });
    },
    kill: () => child.kill('SIGKILL'),
  };
}

// ---- images ----------------------------------------------------------------------------------

const WIDTH = 2000;
const HEIGHT = 1500;

/**
 * `count` distinct 2000×1500 JPEGs of about 1 MB, each twice: upright (EXIF orientation 1) and
 * turned (orientation 6, as a phone held upright writes it), with the same pixels. A blotchy
 * low-frequency "scene" under film-like grain, so it compresses like a photo and not to nothing;
 * EXIF with a camera, a capture time and a GPS position, as a phone writes.
 */
async function makeImages(count: number): Promise<{ upright: Buffer[]; turned: Buffer[] }> {
  const upright: Buffer[] = [];
  const turned: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const noise = (width: number, height: number, sigma: number) =>
      sharp({
        create: {
          width,
          height,
          channels: 3,
          background: { r: 128, g: 128, b: 128 },
          noise: { type: 'gaussian', mean: 128, sigma },
        },
      });
    const scene = await noise(32, 24, 70).resize(WIDTH, HEIGHT, { kernel: 'cubic' }).png().toBuffer();
    const grain = await noise(WIDTH, HEIGHT, 29).png().toBuffer();
    const raw = { raw: { width: WIDTH, height: HEIGHT, channels: 3 as const } };
    const mixed = await sharp(scene)
      .composite([{ input: grain, blend: 'soft-light' }])
      .raw()
      .toBuffer();
    const pixels = await sharp(mixed, raw).blur(0.6).raw().toBuffer();
    const encode = (orientation: number) =>
      sharp(pixels, raw)
        .jpeg({ quality: 86 })
        .withExif({
          IFD0: { Make: 'Bench', Model: 'Phone 12' },
          IFD2: { DateTimeOriginal: `2026:05:0${i + 1} 10:00:00`, OffsetTimeOriginal: '-05:00' },
          IFD3: {
            GPSLatitudeRef: 'N',
            GPSLatitude: '39/1 46/1 4800/100',
            GPSLongitudeRef: 'W',
            GPSLongitude: '89/1 39/1 0/1',
          },
        })
        .withMetadata({ orientation })
        .toBuffer();
    upright.push(await encode(1));
    turned.push(await encode(6));
  }
  return { upright, turned };
}

/**
 * What examineImage (platform/imagery/examine.ts) asks of sharp for one JPEG, called on sharp directly: the metadata,
 * the 400 px thumbnail (turned upright by EXIF, flattened, JPEG 80) and, when EXIF says the image
 * is turned, the whole image re-encoded upright in its own format. The bytes are a fresh copy, as
 * the server reads a fresh copy of each upload back from storage (libvips caches operations on
 * the same buffer).
 */
async function sharpAlone(image: Buffer): Promise<void> {
  const data = Buffer.from(image);
  const meta = await sharp(data).metadata();
  await sharp(data)
    .rotate()
    .resize(THUMBNAIL_PX, THUMBNAIL_PX, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 80 })
    .toBuffer();
  if (meta.orientation !== undefined && meta.orientation > 1) {
    await sharp(data, { animated: false }).rotate().toFormat('jpeg').toBuffer({ resolveWithObject: true });
  }
}

// ---- 1. upload throughput ---------------------------------------------------------------------

interface Throughput {
  what: string;
  set: string;
  round: number;
  photos: number;
  perSecond: number;
  p50: number;
  p95: number;
  /** CPU time of the process doing the work (all its threads) per upload, ms: the server's, or sharp's. */
  cpuMs: number;
  /** This process's CPU per upload, ms: the client's for the API rows (the same as cpuMs for sharp's). */
  clientCpuMs: number;
}

/**
 * `concurrency` loops calling `work` back to back for warm-up + `seconds`; counts the calls that
 * end in the measured window, and the CPU `cpu()` reports across it.
 */
async function closedLoop(
  seconds: number,
  warmupS: number,
  work: (n: number) => Promise<void>,
  cpu: () => Promise<number>,
): Promise<{ photos: number; perSecond: number; p50: number; p95: number; cpuMs: number; clientCpuMs: number }> {
  const t0 = performance.now();
  const from = t0 + warmupS * 1000;
  const until = from + seconds * 1000;
  let n = 0;
  let done = 0;
  const latencies: number[] = [];
  const ownCpu = () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  };
  const cpuAt = (t: number) =>
    new Promise<[number, number]>((resolve) =>
      setTimeout(() => {
        const own = ownCpu();
        void cpu().then((c) => resolve([c, own]));
      }, t - t0),
    );
  const [cpuFrom, cpuUntil] = [cpuAt(from), cpuAt(until)];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const s = performance.now();
        await work(n++);
        const e = performance.now();
        if (e >= from && e <= until) done++;
        if (s >= from && e <= until) latencies.push(e - s);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const [[cpuA, ownA], [cpuB, ownB]] = [await cpuFrom, await cpuUntil];
  return {
    photos: done,
    perSecond: done / seconds,
    p50: quantile(latencies, 0.5),
    p95: quantile(latencies, 0.95),
    cpuMs: (cpuB - cpuA) / 1000 / Math.max(1, done),
    clientCpuMs: (ownB - ownA) / 1000 / Math.max(1, done),
  };
}

// ---- the HTTP client: multipart bodies sent a chunk at a time with http.request ---------------

/** A multipart/form-data body: text fields, then one file whose bytes come from `chunks`. */
function multipartBody(
  fields: Record<string, string>,
  file: {
    field: string;
    filename: string;
    contentType: string;
    bytes: number;
    chunks: () => AsyncIterable<Buffer> | Iterable<Buffer>;
  },
): { contentType: string; length: number; body: () => AsyncGenerator<Buffer> } {
  const boundary = `----groundwork-bench-${randomBytes(8).toString('hex')}`;
  const text = Object.entries(fields)
    .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join('');
  const before = Buffer.from(
    `${text}--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\n` +
      `Content-Type: ${file.contentType}\r\n\r\n`,
  );
  const after = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: before.length + file.bytes + after.length,
    async *body() {
      yield before;
      yield* file.chunks();
      yield after;
    },
  };
}

/** POSTs a body with a known length, a chunk at a time under backpressure; answers the reply. */
async function post(
  url: string,
  headers: Record<string, string>,
  form: ReturnType<typeof multipartBody>,
  agent?: http.Agent,
): Promise<{ status: number; body: string; ms: number }> {
  const t0 = performance.now();
  const req = http.request(url, {
    method: 'POST',
    agent,
    headers: { ...headers, 'content-type': form.contentType, 'content-length': String(form.length) },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  // An early answer (a refusal) may close the socket under the body; the answer is what counts.
  await pipeline(Readable.from(form.body()), req).catch(() => undefined);
  const { status, body } = await answer;
  return { status, body, ms: performance.now() - t0 };
}

let uploads = 0;
/** Keep-alive connections for the upload loops, one per upload in flight. */
const uploadAgent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/**
 * One photo (or video) through the API, as a phone app sends it: multipart with a stage and a
 * unique client_uid. The file's bytes are sent from the buffer as they are (no copy, no encoding),
 * so the client costs the shared CPUs as little as it can.
 */
async function uploadOne(base: string, key: string, jobId: number, file: Buffer, type: string): Promise<void> {
  const n = ++uploads;
  const video = type === 'video/mp4';
  const form = multipartBody(
    { stage: 'during', client_uid: `bench-upload-${n}` },
    {
      field: 'photo',
      filename: video ? `VID_${n}.mp4` : `IMG_${String(n).padStart(4, '0')}.jpg`,
      contentType: type,
      bytes: file.length,
      chunks: () => [file],
    },
  );
  const res = await post(`${base}/v1/jobs/${jobId}/photos`, { 'x-api-key': key }, form, uploadAgent);
  const body = JSON.parse(res.body) as { data?: { thumbnail_url?: string | null } };
  if (res.status !== 201 || (!video && !body.data?.thumbnail_url))
    throw new Error(`upload ${n}: HTTP ${res.status} ${res.body.slice(0, 300)}`);
}

// ---- 2. server memory during a large streamed upload ----------------------------------------

export interface StreamedUpload {
  /** The route, e.g. /v1/jobs/12/photos (or a files route taking large bodies). */
  path: string;
  /** The multipart field of the file. */
  field: string;
  filename: string;
  contentType: string;
  bytes: number;
  /** The file's first bytes (what the server sniffs); the rest is filler. */
  head: Buffer;
  headers: Record<string, string>;
  /** Text fields sent before the file. */
  fields?: Record<string, string>;
}

/**
 * Sends one multipart upload of `spec.bytes`, made by a generator 64 KiB at a time: the client
 * never holds the file either.
 */
function streamUpload(base: string, spec: StreamedUpload): Promise<{ status: number; body: string; ms: number }> {
  const filler = randomBytes(64 * 1024);
  const form = multipartBody(spec.fields ?? {}, {
    field: spec.field,
    filename: spec.filename,
    contentType: spec.contentType,
    bytes: spec.bytes,
    *chunks() {
      yield spec.head;
      for (let left = spec.bytes - spec.head.length; left > 0; left -= filler.length)
        yield left >= filler.length ? filler : filler.subarray(0, left);
    },
  });
  return post(`${base}${spec.path}`, spec.headers, form);
}

export interface UploadMemory {
  /** RSS after a warm-up upload of the same kind and a garbage collection. */
  idle: number;
  /** Highest RSS the 10 ms sampler saw during the upload. */
  peak: number;
  /** The kernel's high-water mark over the same span (null where /proc cannot tell). */
  hwm: number | null;
  ms: number;
  status: number;
  body: string;
}

/**
 * The server's RSS while one large upload streams in. A 1 MiB upload of the same kind first (so
 * the route's code and buffers are warm and not counted as the upload's), then a mark, then the
 * upload, then the peak since the mark.
 */
async function uploadMemory(server: ServerProcess, spec: StreamedUpload): Promise<UploadMemory> {
  const warm = await streamUpload(server.base, { ...spec, bytes: Math.min(spec.bytes, MB) });
  if (warm.status >= 300) throw new Error(`warm-up upload: HTTP ${warm.status} ${warm.body.slice(0, 300)}`);
  await new Promise((r) => setTimeout(r, 500));
  const { rss: idle } = await server.ask<{ rss: number }>('mark');
  const sent = await streamUpload(server.base, spec);
  const peak = await server.ask<PeakAnswer>('peak');
  return { idle, peak: peak.sampled, hwm: peak.hwm, ms: sent.ms, status: sent.status, body: sent.body };
}

/** The first bytes of an MP4 (an ftyp box of brand isom), which is all the server sniffs. */
const MP4_HEAD = Buffer.concat([
  Buffer.from([0, 0, 0, 0x20]),
  Buffer.from('ftypisom'),
  Buffer.from([0, 0, 2, 0]),
  Buffer.from('isomiso2avc1mp41'),
]);

// ---- 3. list latency --------------------------------------------------------------------------

interface ListScenario {
  name: string;
  query: string;
  /** The page's expected pagination.total. */
  total: number;
  /** The same call to the repository (listPhotos), to record its queries. */
  filter: { offset: number; updatedAfter?: string };
}

interface ListRow {
  size: number;
  scenario: string;
  p50: number;
  p95: number;
  samples: number;
  bytes: number;
}

interface QueryTiming {
  size: number;
  scenario: string;
  /** What the query is: page, group rest, count, tags. */
  what: string;
  ms: number;
  plan: string;
}

/** Records the queries a repository call runs (Kysely operation nodes), to time and explain them alone. */
function recorder(database: Database) {
  const nodes: RootOperationNode[] = [];
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      nodes.push(node);
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return {
    db: database.db.withPlugin(plugin),
    take(): CompiledQuery[] {
      const compiled = nodes.map((n) => database.db.getExecutor().compileQuery(n, createQueryId()));
      nodes.length = 0;
      return compiled;
    },
  };
}

function queryKind(q: CompiledQuery): string {
  const s = q.sql.toLowerCase();
  if (s.includes('photo_tag_links')) return 'tags of the page (photo_tag_links ⋈ photo_tags)';
  if (s.includes('count(*)')) return 'count(*) for pagination.total';
  if (s.includes('<=')) return 'rest of the last group (sync page)';
  return 'page (photos ⟕ users, order, limit/offset)';
}

async function planOf(database: Database, q: CompiledQuery): Promise<string> {
  const prefix = database.dialect.engine === 'sqlite' ? 'explain query plan ' : 'explain (analyze, costs off) ';
  const { rows } = await database.db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(prefix + q.sql, [...q.parameters]),
  );
  return rows
    .map((r) => String(r['QUERY PLAN'] ?? r.detail).replace(/'\{[\d,]{40,}\}'/g, "'{…the page's ids…}'"))
    .join('\n');
}

/** Median of `runs` runs after two unmeasured ones; fewer (at least 3) when they take over 3 s. */
async function timeQuery(database: Database, q: CompiledQuery, runs: number): Promise<number> {
  const times: number[] = [];
  const until = performance.now() + 3000;
  for (let i = 0; i < runs + 2 && (i < 5 || performance.now() < until); i++) {
    const t = performance.now();
    await database.db.executeQuery(q);
    if (i >= 2) times.push(performance.now() - t);
  }
  return median(times);
}

/** The wire form of bulk photo k's time (whole seconds: updated_after then means "after that second"). */
const wireInstant = (k: number) => `${photoInstant(k).slice(0, 19)}Z`;

// ---- the run ----------------------------------------------------------------------------------

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-bench-photos-'));
  const bench = await openBenchDatabase({ url: databaseUrl, label: 'photos', dir: dataDir });
  const { database, describe } = bench;
  let server: ServerProcess | null = null;
  const drop = async () => {
    server?.kill();
    await bench.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  dropOnInterrupt(drop);
  const loads: string[] = [`start: ${loadNow()}`];
  try {
    log(`engine: ${describe}; data directory ${dataDir}`);
    const { firmId, ownerId, key } = await benchWorkspace(database);
    const JOBS = 100;
    await insertJobs(database, firmId, ownerId, JOBS, { namePrefix: 'Bench job', customFields: '{}' });
    const jobs = await database.db
      .selectFrom('jobs')
      .select((eb) => [eb.fn.min('id').as('first'), eb.fn.max('id').as('last'), eb.fn.countAll<number>().as('n')])
      .where('firm_id', '=', firmId)
      .executeTakeFirstOrThrow();
    const firstJob = Number(jobs.first);
    if (Number(jobs.last) - firstJob + 1 !== Number(jobs.n)) throw new Error('job ids are not contiguous');
    const jobId = firstJob;
    const tagIds: number[] = [];
    for (const [i, name] of ['Cracks', 'Potholes', 'Drainage', 'Striping', 'Damage', 'Finished'].entries()) {
      const at = photoInstant(0);
      const row = await database.db
        .insertInto('photo_tags')
        .values({
          firm_id: firmId,
          name,
          name_key: name.toLowerCase(),
          color: `#33669${i}`,
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      tagIds.push(row.id);
    }
    if (tagIds.at(-1)! - tagIds[0]! + 1 !== tagIds.length) throw new Error('photo tag ids are not contiguous');

    log('making test images');
    const images = await makeImages(ONLY.has('uploads') ? DISTINCT_IMAGES : 0);
    const sizes = [...images.upright, ...images.turned].map((b) => b.length);
    if (sizes.length > 0)
      log(
        `  ${images.upright.length} + ${images.turned.length} JPEGs, ${fmt(Math.min(...sizes))}–${fmt(Math.max(...sizes))} bytes`,
      );

    server = await startServer({
      url: databaseUrl ?? path.join(dataDir, 'bench.sqlite'),
      schema: database.schema,
      dataDir,
    });
    log(`server process ${server.pid} at ${server.base}`);

    // ---- 2 first, on a server that has done nothing else yet.
    let memory: UploadMemory | null = null;
    if (ONLY.has('memory')) {
      log(`streaming a ${mb(BIG_BYTES)} MiB phone video to POST /v1/jobs/${jobId}/photos`);
      loads.push(`memory: ${loadNow()}`);
      memory = await uploadMemory(server, {
        path: `/v1/jobs/${jobId}/photos`,
        field: 'photo',
        filename: 'walkthrough.mp4',
        contentType: 'video/mp4',
        bytes: BIG_BYTES,
        head: MP4_HEAD,
        headers: { 'x-api-key': key },
        fields: { stage: 'before', caption: 'Walk-through before work' },
      });
      if (memory.status !== 201) throw new Error(`large upload: HTTP ${memory.status} ${memory.body.slice(0, 300)}`);
      const videoId = (JSON.parse(memory.body) as { data: { id: number } }).data.id;
      const stored = await database.db
        .selectFrom('photos')
        .select(['bytes', 'is_video', 'storage_key'])
        .where('id', '=', videoId)
        .executeTakeFirstOrThrow();
      const onDisk = fs.statSync(path.join(dataDir, 'objects', ...stored.storage_key.split('/'))).size;
      if (Number(stored.bytes) !== BIG_BYTES || onDisk !== BIG_BYTES || stored.is_video !== 1)
        throw new Error(`large upload stored ${stored.bytes} bytes (${onDisk} on disk), sent ${BIG_BYTES}`);
      // Removed at once, so the disk is not still writing it back while the next rows are measured.
      fs.rmSync(path.join(dataDir, 'objects', ...stored.storage_key.split('/')));
      log(
        `  201 in ${fmt(memory.ms / 1000, 1)} s (${fmt(BIG_BYTES / MB / (memory.ms / 1000))} MiB/s): idle RSS ${mb(memory.idle)} MiB, peak ${mb(memory.peak)} MiB sampled, ${memory.hwm === null ? 'n/a' : mb(memory.hwm)} MiB VmHWM`,
      );
    }

    // ---- 1. upload throughput: sharp alone against the API, alternating, per image set.
    const throughput: Throughput[] = [];
    if (ONLY.has('uploads')) {
      const selfCpu = async () => {
        const { user, system } = process.cpuUsage();
        return user + system;
      };
      const serverCpu = async () => (await server!.ask<{ us: number }>('cpu')).us;
      // The same upload with no image work: a phone video of the images' size (sniffed, stored and
      // recorded, never decoded), to show what the route costs apart from sharp.
      const videos = images.upright.map((b) => Buffer.concat([MP4_HEAD, randomBytes(b.length - MP4_HEAD.length)]));
      const sets = [
        { set: 'upright (EXIF orientation 1)', files: images.upright, type: 'image/jpeg', baseline: true },
        { set: 'turned (EXIF orientation 6)', files: images.turned, type: 'image/jpeg', baseline: true },
        { set: 'phone video, same size (no image work)', files: videos, type: 'video/mp4', baseline: false },
      ];
      const api = (files: Buffer[], type: string) => (n: number) =>
        uploadOne(server!.base, key, jobId, files[n % files.length]!, type);
      const alone = (imgs: Buffer[]) => (n: number) => sharpAlone(imgs[n % imgs.length]!);
      // One unmeasured pass of each, so neither side's first round pays for the JIT or libvips' start.
      for (const { files, type, baseline } of sets) {
        if (baseline) await closedLoop(UPLOAD_PASS_S, 0, alone(files), selfCpu);
        await closedLoop(UPLOAD_PASS_S, 0, api(files, type), serverCpu);
      }
      for (let round = 1; round <= ROUNDS; round++) {
        for (const { set, files, type, baseline } of sets) {
          loads.push(`uploads, ${set}, round ${round}: ${loadNow()}`);
          const order = !baseline
            ? (['api'] as const)
            : round % 2 === 1
              ? (['sharp', 'api'] as const)
              : (['api', 'sharp'] as const);
          for (const which of order) {
            const r =
              which === 'sharp'
                ? await closedLoop(UPLOAD_S, UPLOAD_WARMUP_S, alone(files), selfCpu)
                : await closedLoop(UPLOAD_S, UPLOAD_WARMUP_S, api(files, type), serverCpu);
            const what = which === 'sharp' ? SHARP_ALONE : 'POST /v1/jobs/{job_id}/photos';
            throughput.push({ what, set, round, ...r });
            log(
              `  ${set}, round ${round}, ${what}: ${fmt(r.perSecond, 1)} uploads/s, p50 ${fmt(r.p50)} ms, CPU ${fmt(r.cpuMs, 1)} ms each${which === 'api' ? ` (client ${fmt(r.clientCpuMs, 1)} ms)` : ''} (load ${loadNow()})`,
            );
          }
        }
      }
    }

    // ---- 3. list latency at each size. The uploads' rows go, so the workspace holds exactly the
    // bulk photos (their stored files stay until the data directory is removed).
    await database.db.deleteFrom('photos').where('firm_id', '=', firmId).execute();
    const auth = await actingAs(database.db, firmId, ownerId);
    const listRows: ListRow[] = [];
    const timings: QueryTiming[] = [];
    let loaded = 0;
    for (const size of ONLY.has('list') ? SIZES : []) {
      log(`loading to ${fmt(size)} photos`);
      const t0 = performance.now();
      await insertPhotos(database, firmId, ownerId, loaded, size - loaded, {
        jobs: { first: firstJob, count: JOBS },
        tags: { first: tagIds[0]!, count: tagIds.length },
      });
      loaded = size;
      // As autovacuum would soon after a bulk insert: statistics, and the visibility map that lets a
      // count read the index alone.
      if (database.dialect.engine === 'postgres')
        await sql`vacuum analyze photos, photo_tag_links`.execute(database.db);
      log(`  loaded in ${fmt((performance.now() - t0) / 1000, 1)} s`);

      const scenarios: ListScenario[] = [
        { name: 'first page (newest first)', query: '', total: size, filter: { offset: 0 } },
        {
          name: `offset ${fmt(DEEP_OFFSET)}`,
          query: `&offset=${DEEP_OFFSET}`,
          total: size,
          filter: { offset: DEEP_OFFSET },
        },
        {
          name: 'updated_after: all but the oldest 1,000',
          query: `&updated_after=${wireInstant(999)}`,
          total: size - 1000,
          filter: { offset: 0, updatedAfter: wireInstant(999) },
        },
        {
          name: 'updated_after: the newest 1,000',
          query: `&updated_after=${wireInstant(size - 1001)}`,
          total: 1000,
          filter: { offset: 0, updatedAfter: wireInstant(size - 1001) },
        },
      ];
      const get = async (s: ListScenario): Promise<{ ms: number; bytes: number }> => {
        const t = performance.now();
        const res = await fetch(`${server!.base}/v1/photos?limit=${LIST_LIMIT}${s.query}`, {
          headers: { 'x-api-key': key },
        });
        const text = await res.text();
        const elapsed = performance.now() - t;
        if (res.status !== 200) throw new Error(`${s.name}: HTTP ${res.status} ${text.slice(0, 300)}`);
        const body = JSON.parse(text) as { data: unknown[]; pagination: { total: number } };
        if (body.data.length !== LIST_LIMIT || body.pagination.total !== s.total)
          throw new Error(`${s.name}: ${body.data.length} rows, total ${body.pagination.total}; expected ${s.total}`);
        return { ms: elapsed, bytes: Buffer.byteLength(text) };
      };
      loads.push(`list at ${fmt(size)}: ${loadNow()}`);
      for (let i = 0; i < LIST_WARMUP; i++) for (const s of scenarios) await get(s);
      const samples = scenarios.map(() => [] as number[]);
      const bytes = scenarios.map(() => 0);
      const deadline = performance.now() + LIST_MAX_S * 1000;
      for (let i = 0; i < LIST_SAMPLES && (i < 10 || performance.now() < deadline); i++) {
        for (const [j, s] of scenarios.entries()) {
          const r = await get(s);
          samples[j]!.push(r.ms);
          bytes[j] = r.bytes;
        }
      }
      for (const [j, s] of scenarios.entries()) {
        const sorted = samples[j]!.sort((a, b) => a - b);
        const row = {
          size,
          scenario: s.name,
          p50: quantile(sorted, 0.5),
          p95: quantile(sorted, 0.95),
          samples: sorted.length,
          bytes: bytes[j]!,
        };
        listRows.push(row);
        log(`  ${s.name.padEnd(42)} p50 ${ms(row.p50)} ms  p95 ${ms(row.p95)} ms  (${row.samples} requests)`);
      }

      // The same calls to the repository, recorded: each query timed on its own (no HTTP) and explained.
      for (const s of scenarios) {
        const rec = recorder(database);
        const { rows } = await listPhotos(
          rec.db,
          firmId,
          auth.user,
          { updatedAfter: syncWindow(s.filter.updatedAfter, 'second') },
          LIST_LIMIT,
          s.filter.offset,
        );
        // As photoObjects does for the page: the page's tags.
        await tagsOf(
          rec.db,
          rows.map((r) => r.id),
        );
        const queries = rec.take();
        for (const q of queries) {
          const what = queryKind(q);
          const t = await timeQuery(database, q, QUERY_RUNS);
          timings.push({ size, scenario: s.name, what, ms: t, plan: await planOf(database, q) });
        }
      }
      for (const t of timings.filter((x) => x.size === size))
        log(`  in process: ${t.scenario} — ${t.what}: ${ms(t.ms)} ms`);
    }
    loads.push(`end: ${loadNow()}`);

    const report = render({ describe, images: sizes, memory, throughput, listRows, timings, loads });
    console.log(report);
    const file = `photos-${engine}${QUICK ? '-quick' : ''}${ONLY.size < PARTS.length ? `-${[...ONLY].join('-')}` : ''}.md`;
    if (saveReport(file, report)) log(`written to bench/results/${file}`);
    await server.ask('stop').catch(() => undefined);
    server = null;
  } finally {
    await drop();
  }
}

function render(o: {
  describe: string;
  images: number[];
  memory: UploadMemory | null;
  throughput: Throughput[];
  listRows: ListRow[];
  timings: QueryTiming[];
  loads: string[];
}): string {
  const lines: string[] = [];
  const cpu = os.cpus();
  lines.push(`# Photos — ${engine}${MODE_LABEL}`, '');
  lines.push(`- ${new Date().toISOString()}, Node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? '?'}`);
  lines.push(`- ${o.describe}; local storage in the same temporary directory`);
  lines.push(`- source: ${revision()}; sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips}`);
  lines.push(
    `- server in its own process (bench/photos-server.ts); client and sharp baseline in the parent; load average (1/5/15 min): ${o.loads.join('; ')}`,
  );
  lines.push(`- run took ${fmt((Date.now() - started) / 1000)} s`, '');

  if (o.throughput.length > 0) {
    lines.push('## Upload throughput', '');
    lines.push(
      `${DISTINCT_IMAGES} distinct ${WIDTH}×${HEIGHT} JPEGs per set, ${fmt(Math.min(...o.images))}–${fmt(Math.max(...o.images))} bytes, ` +
        `${CONCURRENCY} in flight, ${UPLOAD_S} s per row after ${UPLOAD_WARMUP_S} s warm-up, ${ROUNDS} round(s), order alternating. ` +
        'CPU: the server process (every thread) for the API, this process for sharp alone, over the measured seconds.',
      '',
    );
    lines.push('| Upload | Round | What | uploads/s | p50 ms | p95 ms | CPU ms per upload | client CPU ms |');
    lines.push('|---|---:|---|---:|---:|---:|---:|---:|');
    for (const t of o.throughput)
      lines.push(
        `| ${t.set} | ${t.round} | ${t.what} | ${fmt(t.perSecond, 1)} | ${fmt(t.p50)} | ${fmt(t.p95)} | ${fmt(t.cpuMs, 1)} | ${t.what === SHARP_ALONE ? '—' : fmt(t.clientCpuMs, 1)} |`,
      );
    lines.push(
      '',
      '| Images | API ÷ sharp alone, photos/s, each round | **median** | CPU per photo, sharp ÷ API, each round | Target |',
    );
    lines.push('|---|---|---:|---|---|');
    for (const set of [...new Set(o.throughput.filter((x) => x.what === SHARP_ALONE).map((x) => x.set))]) {
      const pairs = o.throughput
        .filter((x) => x.set === set && x.what !== SHARP_ALONE)
        .map((api) => [
          api,
          o.throughput.find((x) => x.set === set && x.round === api.round && x.what === SHARP_ALONE)!,
        ]);
      const ratios = pairs.map(([api, b]) => api!.perSecond / b.perSecond);
      const cpuRatios = pairs.map(([api, b]) => b.cpuMs / api!.cpuMs);
      lines.push(
        `| ${set} | ${ratios.map((r) => r.toFixed(2)).join(', ')} | **${median(ratios).toFixed(2)}** | ${cpuRatios.map((r) => r.toFixed(2)).join(', ')} | ≥ ${UPLOAD_TARGET} |`,
      );
    }
  }
  if (o.memory) {
    const m = o.memory;
    lines.push('', '## Server memory during one large streamed upload', '');
    lines.push(
      `${fmt(BIG_BYTES)} bytes (${mb(BIG_BYTES)} MiB) as a phone video to POST /v1/jobs/{job_id}/photos, streamed by the client from a generator; ` +
        `answered 201 in ${fmt(m.ms / 1000, 1)} s (${fmt(BIG_BYTES / MB / (m.ms / 1000))} MiB/s); the stored object checked at ${fmt(BIG_BYTES)} bytes.`,
      '',
    );
    lines.push('| Idle RSS MiB | Peak RSS MiB (10 ms samples) | Peak RSS MiB (VmHWM) | Peak − idle MiB | Target |');
    lines.push('|---:|---:|---:|---:|---|');
    const top = Math.max(m.peak, m.hwm ?? 0);
    lines.push(
      `| ${mb(m.idle)} | ${mb(m.peak)} | ${m.hwm === null ? 'n/a' : mb(m.hwm)} | **${mb(top - m.idle)}** | < ${RSS_TARGET_MB} |`,
    );
  }
  if (o.listRows.length > 0) {
    lines.push('', '## GET /v1/photos?limit=200', '');
    lines.push(
      `One request at a time over HTTP, the four scenarios interleaved, ${LIST_WARMUP} warm-up rounds then up to ${LIST_SAMPLES} (at most ${LIST_MAX_S} s per size).`,
      '',
    );
    lines.push('| Photos | Scenario | p50 ms | p95 ms | requests | answer bytes |');
    lines.push('|---:|---|---:|---:|---:|---:|');
    for (const r of o.listRows)
      lines.push(`| ${fmt(r.size)} | ${r.scenario} | ${ms(r.p50)} | ${ms(r.p95)} | ${r.samples} | ${fmt(r.bytes)} |`);
    const small = SIZES[0]!;
    const large = SIZES.at(-1)!;
    lines.push('', `| ${fmt(large)} ÷ ${fmt(small)} | p50 | p95 | Target |`, '|---|---:|---:|---|');
    for (const r of o.listRows.filter((x) => x.size === large)) {
      const s = o.listRows.find((x) => x.size === small && x.scenario === r.scenario);
      if (s && large !== small)
        lines.push(`| ${r.scenario} | **${(r.p50 / s.p50).toFixed(2)}** | ${(r.p95 / s.p95).toFixed(2)} | ≈ 1 |`);
    }
    lines.push('', 'The queries behind each call, run on their own (median ms, no HTTP):', '');
    const kinds = [...new Set(o.timings.map((t) => `${t.scenario}\u0000${t.what}`))];
    lines.push(`| Scenario | Query | ${SIZES.map((s) => fmt(s)).join(' | ')} |`);
    lines.push(`|---|---|${SIZES.map(() => '---:').join('|')}|`);
    for (const k of kinds) {
      const [scenario, what] = k.split('\u0000') as [string, string];
      const cells = SIZES.map((size) => {
        const t = o.timings.find((x) => x.size === size && x.scenario === scenario && x.what === what);
        return t ? ms(t.ms) : '—';
      });
      lines.push(`| ${scenario} | ${what} | ${cells.join(' | ')} |`);
    }
    lines.push('', `Plans at ${fmt(large)} photos (each distinct plan once):`, '');
    const shown = new Set<string>();
    for (const t of o.timings.filter((x) => x.size === large)) {
      if (shown.has(t.what + t.plan)) continue;
      shown.add(t.what + t.plan);
      lines.push(`- ${t.scenario} — ${t.what}:`, '', '```', t.plan, '```', '');
    }
  }
  return lines.join('\n');
}

await main();
process.exit(0);
