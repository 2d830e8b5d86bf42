// What the HTTP benchmarks share: autocannon in a worker thread (so the load generator does not
// share the servers' event loop) with exact latency percentiles, listening on a random loopback
// port, number formatting for the markdown reports, the load average and the measured commit.
import { execSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FastifyInstance } from 'fastify';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  duration: number;
  /** POST only: each request sends a job with a unique name starting with this prefix. */
  namePrefix?: string;
  /** POST only: the same body on every request. */
  body?: string;
  /**
   * GET only: `{id}` in the URL's path becomes a different id on each request, spread over
   * from…to (a stride through the range, the same sequence every run).
   */
  ids?: { from: number; to: number };
}

export interface LoadResult {
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  mean: number;
  total: number;
  non2xx: number;
  errors: number;
  /** Smallest and largest 2xx response in bytes (headers and body), to spot a changed answer. */
  minBytes: number;
  maxBytes: number;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const autocannon = require('node:module').createRequire(workerData.base)('autocannon');
parentPort.on('message', async ({ id, spec }) => {
  const u = new URL(spec.url);
  let n = 0;
  const request = { method: spec.method, path: u.pathname + u.search, headers: spec.headers };
  if (spec.body !== undefined) request.body = spec.body;
  if (spec.ids) {
    const span = spec.ids.to - spec.ids.from + 1;
    request.setupRequest = (req) => {
      n++;
      req.path = request.path.replace('%7Bid%7D', String(spec.ids.from + ((n * 7919) % span)));
      return req;
    };
  }
  if (spec.namePrefix) {
    request.setupRequest = (req) => {
      n++;
      req.body = JSON.stringify({
        name: spec.namePrefix + ' ' + n, allow_duplicate_name: false, contact_email: 'bench' + n + '@example.com',
        job_type: 'Sealcoating', estimated_value: 1250.5, source: 'bench',
      });
      return req;
    };
  }
  try {
    // autocannon checks its stop time every sampleInt ms (1 s by default): shorter runs (a smoke
    // run's) sample more often, or each would last a whole second.
    const opts = {
      url: u.origin, connections: workerData.connections, duration: spec.duration,
      sampleInt: Math.min(1000, Math.max(50, spec.duration * 1000)),
    };
    // autocannon's own latency histogram has 1 ms resolution; keep every 2xx response time
    // (milliseconds, sub-millisecond precision) and take exact percentiles instead.
    const times = [];
    let minBytes = Infinity;
    let maxBytes = 0;
    const instance = autocannon({ ...opts, requests: [request] });
    instance.on('response', (_client, status, bytes, ms) => {
      if (status >= 200 && status < 300) {
        times.push(ms);
        if (bytes < minBytes) minBytes = bytes;
        if (bytes > maxBytes) maxBytes = bytes;
      }
    });
    const raw = await instance;
    times.sort((a, b) => a - b);
    const at = (q) => times.length === 0 ? 0 : times[Math.min(times.length - 1, Math.floor(q * times.length))];
    const mean = times.reduce((a, b) => a + b, 0) / Math.max(1, times.length);
    parentPort.postMessage({ id, result: {
      rps: times.length / raw.duration, p50: at(0.5), p90: at(0.9), p99: at(0.99), mean,
      total: raw.totalCompletedRequests, non2xx: raw.non2xx, errors: raw.errors,
      minBytes: times.length ? minBytes : 0, maxBytes,
    } });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.stack || err) });
  }
});
`;

export interface LoadWorker {
  run(spec: LoadSpec): Promise<LoadResult>;
  stop(): Promise<number>;
}

/** autocannon in a worker thread, `connections` connections per run. */
export function startLoadWorker(connections: number): LoadWorker {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { base: path.join(here, 'load.ts'), connections },
    execArgv: [],
  });
  let next = 0;
  const pending = new Map<number, { resolve: (r: LoadResult) => void; reject: (e: Error) => void }>();
  worker.on('message', (m: { id: number; result?: LoadResult; error?: string }) => {
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (m.error) p?.reject(new Error(m.error));
    else p?.resolve(m.result!);
  });
  worker.on('error', (err: Error) => {
    for (const p of pending.values()) p.reject(err);
  });
  return {
    run(spec: LoadSpec): Promise<LoadResult> {
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, spec });
      });
    },
    stop: () => worker.terminate(),
  };
}

/** Listens on a random port on 127.0.0.1 and answers the base URL. */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('no address');
  return `http://127.0.0.1:${addr.port}`;
}

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
export const ms = (n: number) => fmt(n, 2);
export const loadNow = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The commit measured, and whether src/ had uncommitted changes. */
export function revision(): string {
  try {
    const head = execSync('git rev-parse --short HEAD', { cwd: here, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
    const dirty = execSync('git status --porcelain -- :/src', { cwd: here, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
    return `commit ${head}${dirty ? ' with uncommitted changes in src/' : ''}`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}
