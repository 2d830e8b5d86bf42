// Bulk export benchmark: GET /v1/exports/jobs.jsonl (and .jsonl.gz) over a real socket against
// the raw loop it wraps (the same keyset batches and JSON.stringify, no HTTP) in the same run,
// the server's memory while it streams, and the workspace_data file build, with 100k and then
// 1M jobs in the workspace.
//
//   node --expose-gc --import tsx bench/exports.ts            SQLite file database in a temp dir
//   DATABASE_URL=postgres://… node --expose-gc --import tsx bench/exports.ts    PostgreSQL (fresh schema, dropped)
//   node --expose-gc --import tsx bench/exports.ts --quick    10k and 100k jobs
//   node --expose-gc --import tsx bench/exports.ts --smoke    seconds, for CI (bench/mode.ts): 2k and 5k jobs
//
// --expose-gc is optional: with it the idle figures are taken after a collection and a third,
// untimed export reports the live heap (what survives collections) while it streams.
//
// The server runs on this process's main thread; the HTTP client runs in a worker thread (it
// only counts bytes and lines), so it does not share the server's event loop. Memory is sampled
// every 50 ms on the main thread: heap figures are the server's own isolate, RSS is the whole
// process (server, client thread and, on SQLite, the database's page cache). The report is
// printed as markdown and written to bench/results/exports-<engine>.md. See docs/performance.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { buildApp } from '#src/app.ts';
import { buildDeps } from '#platform/deps.ts';
import { isPostgresUrl } from '#src/config.ts';
import type { Database } from '#db/database.ts';
import { dropOnInterrupt, openBenchDatabase } from './database.ts';
import { benchWorkspace } from './workspace.ts';
import { jobsDataset } from '#crm/jobs/export.ts';
import { datasetLines } from '#integrations/exports/stream.ts';
import { requestExport } from '#integrations/exports/file-exports.ts';
import { workspaceExportTask } from '#integrations/exports/workspace-file.ts';
import { actingAs } from '#platform/auth.ts';
import { systemClock } from '#platform/clock.ts';
import { insertJobs } from './seed.ts';
import { MODE_LABEL, saveReport, sized } from './mode.ts';

const PHASES = sized([100_000, 1_000_000], [10_000, 100_000], [2_000, 5_000]);
const databaseUrl =
  process.env.DATABASE_URL && isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : null;
const engine = databaseUrl ? 'postgres' : 'sqlite';
const MB = 1024 * 1024;

// ---- the client: a worker thread that downloads and counts ----------------------------------

const CLIENT_SOURCE = `
const { parentPort } = require('node:worker_threads');
const http = require('node:http');
parentPort.on('message', ({ url, key }) => {
  const started = process.hrtime.bigint();
  http.get(url, { headers: { 'x-api-key': key } }, (res) => {
    let bytes = 0, lines = 0, firstByteMs = null;
    res.on('data', (chunk) => {
      if (firstByteMs === null) firstByteMs = Number(process.hrtime.bigint() - started) / 1e6;
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    });
    res.on('end', () => parentPort.postMessage({
      status: res.statusCode, bytes, lines, firstByteMs, ms: Number(process.hrtime.bigint() - started) / 1e6,
    }));
  }).on('error', (err) => parentPort.postMessage({ error: String(err) }));
});
`;

interface Download {
  status: number;
  bytes: number;
  lines: number;
  firstByteMs: number;
  ms: number;
}

function download(worker: Worker, url: string, key: string): Promise<Download> {
  return new Promise((resolve, reject) => {
    worker.once('message', (m: Download & { error?: string }) => (m.error ? reject(new Error(m.error)) : resolve(m)));
    worker.postMessage({ url, key });
  });
}

// ---- memory sampling -----------------------------------------------------------------------

interface MemoryPeak {
  rss: number;
  heapUsed: number;
  external: number;
}

function sampleMemory(): { stop(): MemoryPeak } {
  const peak: MemoryPeak = { rss: 0, heapUsed: 0, external: 0 };
  const take = () => {
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss);
    peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
    peak.external = Math.max(peak.external, m.external + m.arrayBuffers);
  };
  take();
  const timer = setInterval(take, 50);
  return {
    stop() {
      clearInterval(timer);
      take();
      return peak;
    },
  };
}

/**
 * The live heap (what survives a full collection) at its highest, sampled every 250 ms while an
 * export runs: garbage-free, so it shows what the export keeps, not what the collector has not
 * yet cleared. Needs --expose-gc; slows the export it watches, so its run is not timed.
 */
function sampleLiveHeap(): { stop(): number } | null {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return null;
  let peak = 0;
  const take = () => {
    gc();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  };
  take();
  const timer = setInterval(take, 250);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

function settle(): MemoryPeak {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, external: m.external + m.arrayBuffers };
}

// ---- database ------------------------------------------------------------------------------

async function openExportBench(): Promise<{
  database: Database;
  describe: string;
  dataDir: string;
  drop: () => Promise<void>;
}> {
  // The app's data directory (export files) and, on SQLite, the database file share one temp dir.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-bench-exports-'));
  const bench = await openBenchDatabase({ url: databaseUrl, label: 'exports', dir: dataDir });
  return {
    database: bench.database,
    describe: bench.describe,
    dataDir,
    drop: async () => {
      await bench.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// ---- the run -------------------------------------------------------------------------------

interface Phase {
  jobs: number;
  /** 1-minute load average when the phase's measurements began (other work on the machine skews them). */
  load: number;
  raw: { ms: number; rows: number; bytes: number };
  http: Download;
  gzip: Download;
  idle: MemoryPeak;
  peak: MemoryPeak;
  /** Peak heap after forced collections during a third, untimed export (null without --expose-gc). */
  liveHeap: number | null;
  zip: { ms: number; bytes: number; peak: MemoryPeak };
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const mb = (n: number) => fmt(n / MB, 0);
const perSecond = (rows: number, ms: number) => (rows * 1000) / ms;

async function main(): Promise<void> {
  const started = Date.now();
  const log = (msg: string) => console.error(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${msg}`);
  const { database, describe, dataDir, drop } = await openExportBench();
  dropOnInterrupt(drop);
  const client = new Worker(CLIENT_SOURCE, { eval: true });
  const phases: Phase[] = [];
  try {
    log(
      `engine: ${describe}${(globalThis as { gc?: unknown }).gc ? '' : ' (run with --expose-gc for settled idle figures)'}`,
    );
    const { firmId, ownerId, key } = await benchWorkspace(database, ['read_jobs']);
    const ctx = { database, deps: buildDeps(), auth: await actingAs(database.db, firmId, ownerId, ['read_jobs']) };
    const user = ctx.auth.user;
    const app = await buildApp(database, {
      adminToken: null,
      rateLimit: { max: 1e9, windowMs: 1000 },
      logLevel: false,
      dataDir,
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const port = (app.server.address() as { port: number }).port;
    const base = `http://127.0.0.1:${port}`;

    let loaded = 0;
    for (const jobs of PHASES) {
      log(`loading to ${fmt(jobs)} jobs`);
      const t0 = performance.now();
      await insertJobs(database, firmId, ownerId, jobs - loaded);
      loaded = jobs;
      log(`  loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

      // Warm both paths (statement caches, JIT) on a small slice.
      for await (const _ of datasetLines(database.db, jobsDataset, { firmId, user }, { batchSize: 1000 })) break;
      await download(client, `${base}/v1/exports/customers.jsonl`, key);

      const load = os.loadavg()[0];
      log(`  load average ${load.toFixed(2)}`);
      // Two rounds, alternating, best of each: neither path gains from running second (warmer
      // caches) or loses to a burst of other work on the machine.
      const raws: Phase['raw'][] = [];
      const https: Download[] = [];
      const peak: MemoryPeak = { rss: 0, heapUsed: 0, external: 0 };
      let idle: MemoryPeak = settle();
      for (let round = 1; round <= 2; round++) {
        // Rows are counted per batch and text by its length: the loop does nothing the server would not.
        let rows = 0;
        let bytes = 0;
        const t1 = performance.now();
        for await (const chunk of datasetLines(
          database.db,
          jobsDataset,
          { firmId, user },
          {
            onBatch: (n) => {
              rows += n;
            },
          },
        )) {
          bytes += chunk.length;
        }
        raws.push({ ms: performance.now() - t1, rows, bytes });
        log(
          `  raw loop (keyset batches + JSON.stringify, no HTTP), round ${round}: ${fmt(perSecond(rows, raws.at(-1)!.ms))} rows/s, ${mb(bytes)} MB`,
        );

        idle = settle();
        const memory = sampleMemory();
        const http = await download(client, `${base}/v1/exports/jobs.jsonl`, key);
        const seen = memory.stop();
        if (http.status !== 200 || http.lines !== jobs)
          throw new Error(`jobs.jsonl: status ${http.status}, ${http.lines} lines`);
        https.push(http);
        for (const k of ['rss', 'heapUsed', 'external'] as const) peak[k] = Math.max(peak[k], seen[k]);
        log(
          `  GET /v1/exports/jobs.jsonl, round ${round}: ${fmt(perSecond(http.lines, http.ms))} rows/s, peak RSS ${mb(seen.rss)} MB, peak heap ${mb(seen.heapUsed)} MB`,
        );
      }
      const raw = raws.reduce((a, b) => (b.ms < a.ms ? b : a));
      const http = https.reduce((a, b) => (b.ms < a.ms ? b : a));
      const live = sampleLiveHeap();
      let liveHeap: number | null = null;
      if (live) {
        await download(client, `${base}/v1/exports/jobs.jsonl`, key);
        liveHeap = live.stop();
        log(`  GET /v1/exports/jobs.jsonl, live heap watched: peak ${mb(liveHeap)} MB (idle ${mb(idle.heapUsed)} MB)`);
      }

      log('  GET /v1/exports/jobs.jsonl.gz');
      const gzip = await download(client, `${base}/v1/exports/jobs.jsonl.gz`, key);
      log(`    ${fmt(perSecond(jobs, gzip.ms))} rows/s, ${mb(gzip.bytes)} MB`);

      log('  workspace_data file (task sweep)');
      await requestExport(ctx, { kind: 'workspace_data' });
      const task = workspaceExportTask(database, { dataDir, clock: systemClock, leaseMs: 60_000 });
      settle();
      const zipMemory = sampleMemory();
      const t = performance.now();
      if ((await task.sweep()) !== 1) throw new Error('the export task built nothing');
      const zipMs = performance.now() - t;
      const zipPeak = zipMemory.stop();
      const built = await database.db
        .selectFrom('export_files')
        .select(['size_bytes', 'status'])
        .where('firm_id', '=', firmId)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow();
      if (built.status !== 'ready') throw new Error(`export ${built.status}`);
      log(
        `    ${(zipMs / 1000).toFixed(1)} s, ${mb(Number(built.size_bytes))} MB zip, peak heap ${mb(zipPeak.heapUsed)} MB`,
      );
      fs.rmSync(path.join(dataDir, 'exports'), { recursive: true, force: true });

      phases.push({
        jobs,
        load,
        raw,
        http,
        gzip,
        idle,
        peak,
        liveHeap,
        zip: { ms: zipMs, bytes: Number(built.size_bytes), peak: zipPeak },
      });
    }
    await app.close();

    const report = render(describe, phases);
    console.log(report);
    saveReport(`exports-${engine}.md`, report);
  } finally {
    await client.terminate();
    await drop();
  }
}

function render(describe: string, phases: Phase[]): string {
  const lines = [
    `## Bulk export benchmark: ${engine}${MODE_LABEL}`,
    '',
    `${describe}; Node ${process.version}; ${os.cpus().length} CPUs; ${new Date().toISOString()}`,
    '',
    '| Jobs | Load avg | Raw loop rows/s (best of 2) | GET .jsonl rows/s (best of 2) | ratio | first byte ms | GET .jsonl.gz rows/s | JSON MB | gzip MB |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const p of phases) {
    const raw = perSecond(p.raw.rows, p.raw.ms);
    const http = perSecond(p.http.lines, p.http.ms);
    lines.push(
      `| ${fmt(p.jobs)} | ${p.load.toFixed(2)} | ${fmt(raw)} | ${fmt(http)} | **${(http / raw).toFixed(2)}** | ${fmt(p.http.firstByteMs, 1)} | ` +
        `${fmt(perSecond(p.jobs, p.gzip.ms))} | ${mb(p.http.bytes)} | ${mb(p.gzip.bytes)} |`,
    );
  }
  lines.push(
    '',
    '| Jobs | Idle RSS MB | Peak RSS MB (export) | Idle heap MB | Peak heap used MB (export) | Peak live heap MB (export) | Peak external MB |',
    '|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const p of phases) {
    lines.push(
      `| ${fmt(p.jobs)} | ${mb(p.idle.rss)} | ${mb(p.peak.rss)} | ${mb(p.idle.heapUsed)} | ${mb(p.peak.heapUsed)} | ` +
        `${p.liveHeap === null ? 'n/a' : mb(p.liveHeap)} | ${mb(p.peak.external)} |`,
    );
  }
  lines.push(
    '',
    '| Jobs | workspace_data build s | rows/s (all datasets) | zip MB | Peak heap MB (build) | Peak RSS MB (build) |',
    '|---:|---:|---:|---:|---:|---:|',
  );
  for (const p of phases) {
    lines.push(
      `| ${fmt(p.jobs)} | ${(p.zip.ms / 1000).toFixed(1)} | ${fmt(perSecond(p.jobs, p.zip.ms))} | ${mb(p.zip.bytes)} | ${mb(p.zip.peak.heapUsed)} | ${mb(p.zip.peak.rss)} |`,
    );
  }
  lines.push('');
  return lines.join('\n');
}

await main();
process.exit(0);
