// Webhook delivery benchmark: deliveries per second out of the WebhookWorker (the worker `serve`
// runs: claim due rows with a lease, POST the stored body signed, record the attempt and the new
// state) against a bare undici loop POSTing the same body to the same receivers with the same
// concurrency, in the same run. Both against real loopback HTTP receivers that answer 200 at once.
// The worker is measured twice: through its own back-to-back loop (drain()), which is what it can
// do, and through the runner with the default 500 ms poll, which is what `serve` gets.
//
//   node --import tsx bench/webhooks.ts                 SQLite file; PostgreSQL too when DATABASE_URL names it
//   node --import tsx bench/webhooks.ts --quick         5,000 instead of 20,000 deliveries
//   node --import tsx bench/webhooks.ts --smoke         seconds, for CI (bench/mode.ts): 200 deliveries
//
// The receivers run in a worker thread, so they do not share the event loop of the worker (or
// the bare loop) being measured. Then the delivery lag as served: events written one at a time, from
// each commit to its arrival. Results go to stdout as markdown and to
// bench/results/webhooks-latest.md. See docs/performance.md, "Webhook delivery".
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { Agent, request } from 'undici';
import { buildApp } from '#src/app.ts';
import { isPostgresUrl } from '#src/config.ts';
import type { Database } from '#db/database.ts';
import { openBenchDatabase } from './database.ts';
import { benchWorkspace } from './workspace.ts';
import { WebhookWorker } from '#events/delivery-worker.ts';
import { recordEvent } from '#events/record.ts';
import { now } from '#platform/time.ts';
import { systemClock } from '#platform/clock.ts';
import { startRunner } from '#worker/index.ts';
import { inTransaction } from '#platform/context.ts';
import { MODE_LABEL, saveReport, sized } from './mode.ts';

const DELIVERIES = sized(20_000, 5_000, 200);
const ONE_ENDPOINT_DELIVERIES = sized(5_000, 2_000, 100);
/** Requests of the unmeasured warm-up of the bare loop. */
const WARMUP_REQUESTS = sized(1_000, 1_000, 50);
const CONCURRENCY = 32;
/** Receivers (distinct origins) and subscriptions per receiver in the main scenario. */
const RECEIVERS = 4;
const SUBSCRIPTIONS_PER_RECEIVER = 2;
const EVENTS_PER_TRANSACTION = 250;
/** The worker's default poll interval (GROUNDWORK_WORKER_POLL_MS). */
const POLL_MS = 500;
/** Events written one at a time for the lag measurement, and the pause after each. */
const LAG_EVENTS = sized(200, 100, 10);
const LAG_SPACING_MS = 25;
/** Longest a served-mode measurement runs. */
const SERVED_BUDGET_MS = sized(20_000, 8_000, 2_000);

const pgUrl = process.env.DATABASE_URL && isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : null;

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const started = Date.now();
const log = (msg: string) => console.error(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${msg}`);

// ---- receivers (worker thread) -------------------------------------------------------------

const RECEIVER_SOURCE = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
let count = 0;
// While on, each delivery's arrival (epoch ms, sub-millisecond) by its event's source_event_id.
let arrivals = null;
const servers = [];
(async () => {
  const ports = [];
  for (let i = 0; i < workerData.n; i++) {
    const server = http.createServer((req, res) => {
      const chunks = arrivals ? [] : null;
      req.on('data', (c) => { if (chunks) chunks.push(c); });
      req.on('end', () => {
        count++;
        if (chunks && arrivals) {
          const at = performance.timeOrigin + performance.now();
          arrivals[JSON.parse(Buffer.concat(chunks).toString()).data.source_event_id] = at;
        }
        res.writeHead(200, { 'content-type': 'text/plain' }); res.end('ok');
      });
    });
    server.keepAliveTimeout = 60000;
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    ports.push(server.address().port);
  }
  parentPort.postMessage({ ports });
})();
parentPort.on('message', (m) => {
  if (m === 'count') parentPort.postMessage({ count });
  if (m === 'reset') { count = 0; parentPort.postMessage({ count }); }
  if (m === 'arrivals-on') { arrivals = {}; parentPort.postMessage({ count }); }
  if (m === 'arrivals') { parentPort.postMessage({ count, arrivals }); arrivals = null; }
});
`;

async function startReceivers(n: number) {
  const worker = new Worker(RECEIVER_SOURCE, { eval: true, workerData: { n } });
  const ports = await new Promise<number[]>((resolve, reject) => {
    worker.once('message', (m: { ports: number[] }) => resolve(m.ports));
    worker.once('error', reject);
  });
  const ask = (m: 'count' | 'reset' | 'arrivals-on' | 'arrivals') =>
    new Promise<{ count: number; arrivals?: Record<string, number> }>((resolve) => {
      worker.once('message', resolve);
      worker.postMessage(m);
    });
  return {
    urls: ports.map((p) => `http://127.0.0.1:${p}/hooks`),
    count: async () => (await ask('count')).count,
    reset: async () => (await ask('reset')).count,
    /** Arrival times from now on, by the event's source_event_id (bodies parsed only while on). */
    recordArrivals: async () => void (await ask('arrivals-on')),
    arrivals: async () => (await ask('arrivals')).arrivals ?? {},
    stop: () => worker.terminate(),
  };
}

// ---- databases -----------------------------------------------------------------------------

interface Engine {
  name: 'sqlite' | 'postgres';
  describe: string;
  database: Database;
  drop(): Promise<void>;
}

async function openEngine(url?: string): Promise<Engine> {
  const bench = await openBenchDatabase({ url, label: 'webhooks' });
  return { name: bench.engine, database: bench.database, describe: bench.describe, drop: bench.drop };
}

// ---- setup: a workspace, a job, subscriptions, queued deliveries ----------------------------

async function setUp(database: Database) {
  const { firmId, ownerId, key } = await benchWorkspace(database);
  const app = await buildApp(database, { adminToken: null, rateLimit: { max: 1e9, windowMs: 1000 }, logLevel: false });
  const res = await app.inject({
    method: 'POST',
    url: '/v1/jobs',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    payload: JSON.stringify({
      name: 'Westfield Plaza lot',
      company: 'Westfield Properties',
      address: '1200 Commerce Dr, Springfield',
      contact_name: 'Dana Reyes',
      contact_email: 'dana@westfield.example',
      contact_phone: '(614) 555-0142',
      description: 'Crack fill, sealcoat and restripe the east lot',
      job_type: 'Sealcoating',
      estimated_value: 18450,
    }),
  });
  if (res.statusCode !== 201) throw new Error(`job create: ${res.statusCode} ${res.body}`);
  await app.close();
  return { firmId, jobId: (JSON.parse(res.body) as { data: { id: number } }).data.id };
}

async function subscribe(database: Database, firmId: number, urls: string[]): Promise<void> {
  const t = now();
  await database.db
    .insertInto('webhook_subscriptions')
    .values(
      urls.map((url, i) => ({
        firm_id: firmId,
        event_type: 'all',
        target_url: url,
        secret: `whsec_bench_${i}`,
        active: 1,
        created_by_user_id: null,
        deactivated_at: null,
        created_at: t,
        updated_at: t,
      })),
    )
    .execute();
}

async function unsubscribeAll(database: Database, firmId: number): Promise<void> {
  await database.db.updateTable('webhook_subscriptions').set({ active: 0 }).where('firm_id', '=', firmId).execute();
}

/** Records `events` job_won events through recordEvent, each queuing one delivery per active subscription. */
async function queue(database: Database, firmId: number, jobId: number, events: number): Promise<number> {
  const t0 = performance.now();
  for (let done = 0; done < events; done += EVENTS_PER_TRANSACTION) {
    await database.db.transaction().execute(async (trx) => {
      for (let i = done; i < Math.min(events, done + EVENTS_PER_TRANSACTION); i++) {
        await recordEvent(trx, {
          firmId,
          type: 'job_won',
          entity: { type: 'job', id: jobId },
          jobId,
          inFeed: true,
          data: { from_status: 'lead', to_status: 'won', source_event_id: randomUUID() },
        });
      }
    });
  }
  return performance.now() - t0;
}

async function countByStatus(database: Database, firmId: number) {
  const rows = await database.db
    .selectFrom('webhook_deliveries')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('firm_id', '=', firmId)
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])) as Record<string, number>;
}

/**
 * Pending deliveries, through the partial due index (the bench's workspace is the only one): the
 * check between drain() calls is inside the timed window, and counting the workspace's deliveries
 * by status read every one of them (44 ms at 30,000).
 */
async function pendingCount(database: Database): Promise<number> {
  const row = await database.db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(sql<boolean>`status = 'pending'`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---- the senders -----------------------------------------------------------------------------

const newWorker = (database: Database) =>
  new WebhookWorker(database, {
    clock: systemClock,
    leaseMs: 60_000,
    concurrency: CONCURRENCY,
    allowPrivateNetwork: true,
    onError: (err) => log(`worker error: ${err instanceof Error ? err.stack : String(err)}`),
  });

/**
 * The WebhookWorker's own loop, drain(): sweeps back to back until nothing is due. drain() can
 * return while deliveries are still pending (see docs/performance.md), so it is called again
 * until none is; the calls are counted. Deliveries per second.
 */
async function runDrain(database: Database, firmId: number, deliveries: number, succeededAfter: number) {
  const worker = newWorker(database);
  let drains = 0;
  const t0 = performance.now();
  for (;;) {
    await worker.drain();
    drains++;
    if ((await pendingCount(database)) === 0) break;
  }
  const seconds = (performance.now() - t0) / 1000;
  await worker.settle();
  const counts = await countByStatus(database, firmId);
  if ((counts.succeeded ?? 0) !== succeededAfter)
    throw new Error(`drain left ${JSON.stringify(counts)}, expected ${succeededAfter} succeeded`);
  return { rate: deliveries / seconds, drains };
}

/**
 * The worker as `serve` runs it: startRunner with the default poll (500 ms), measured until the
 * receivers have every delivery or `budgetMs` has passed; what is left is abandoned afterwards.
 * Deliveries per second.
 */
async function runServed(
  database: Database,
  firmId: number,
  receivers: Receivers,
  deliveries: number,
  budgetMs: number,
) {
  const start = await receivers.count();
  const runner = startRunner([newWorker(database)], POLL_MS, (_task, err) => log(`runner error: ${String(err)}`));
  const t0 = performance.now();
  let done = 0;
  while (performance.now() - t0 < budgetMs) {
    done = (await receivers.count()) - start;
    if (done >= deliveries) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const seconds = (performance.now() - t0) / 1000;
  await runner.stop();
  await database.db
    .updateTable('webhook_deliveries')
    .set({ status: 'abandoned', next_attempt_at: null })
    .where('firm_id', '=', firmId)
    .where('status', '=', 'pending')
    .execute();
  return { rate: done / seconds, done, seconds };
}

/**
 * Delivery lag as `serve` gives it: the runner running with the default poll, and events written
 * one at a time as the API writes them (each in a transaction of its own through inTransaction,
 * LAG_SPACING_MS apart), to one subscription. A delivery's lag runs from its transaction's commit
 * to its arrival at the receiver (both clocks are performance.timeOrigin + now(), one per thread).
 */
async function runLag(database: Database, firmId: number, jobId: number, receivers: Receivers, events: number) {
  await unsubscribeAll(database, firmId);
  await subscribe(database, firmId, [receivers.urls[0]!]);
  await receivers.reset();
  await receivers.recordArrivals();
  const runner = startRunner([newWorker(database)], POLL_MS, (_task, err) => log(`runner error: ${String(err)}`));
  // Its first sweep has found nothing and its loop is asleep.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const committed = new Map<string, number>();
  for (let i = 0; i < events; i++) {
    const id = randomUUID();
    await inTransaction(database, (trx) =>
      recordEvent(trx, {
        firmId,
        type: 'job_won',
        entity: { type: 'job', id: jobId },
        jobId,
        inFeed: true,
        data: { from_status: 'lead', to_status: 'won', source_event_id: id },
      }),
    );
    committed.set(id, performance.timeOrigin + performance.now());
    await new Promise((resolve) => setTimeout(resolve, LAG_SPACING_MS));
  }
  for (let waited = 0; (await receivers.count()) < events && waited < 5_000; waited += 10)
    await new Promise((resolve) => setTimeout(resolve, 10));
  await runner.stop();
  const arrivals = await receivers.arrivals();
  const lags = [...committed].map(([id, at]) => {
    const arrived = arrivals[id];
    if (arrived === undefined) throw new Error(`lag: event ${id} never arrived`);
    return arrived - at;
  });
  console.error(
    lags
      .map((l, i) => `${i}:${l.toFixed(0)}`)
      .filter((x) => +x.split(':')[1] > 20)
      .join(' '),
  );
  lags.sort((a, b) => a - b);
  const pick = (q: number) => lags[Math.min(lags.length - 1, Math.floor(q * lags.length))]!;
  return {
    events,
    p50: pick(0.5),
    p99: pick(0.99),
    max: lags[lags.length - 1]!,
    mean: lags.reduce((a, b) => a + b, 0) / lags.length,
  };
}

/**
 * A bare loop: `concurrency` loops POSTing `body` with undici, round-robin over `urls`, through an
 * A plain undici Agent (16 connections per origin; with 4 origins and 32 loops every loop has a socket). Requests per second.
 */
async function runBare(urls: string[], body: string, total: number): Promise<number> {
  const agent = new Agent({ connections: 16 });
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Service-Webhooks/1.0',
    'x-service-event': 'job_won',
    'x-service-delivery': randomUUID(),
    'x-service-timestamp': String(Math.floor(Date.now() / 1000)),
  };
  let next = 0;
  let failures = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < total; i = next++) {
        const res = await request(urls[i % urls.length]!, { method: 'POST', headers, body, dispatcher: agent });
        await res.body.dump();
        if (res.statusCode !== 200) failures++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  await agent.close();
  if (failures > 0) throw new Error(`bare loop: ${failures} non-200 replies`);
  return total / seconds;
}

// ---- the run -------------------------------------------------------------------------------

type Receivers = Awaited<ReturnType<typeof startReceivers>>;

interface Result {
  engine: string;
  scenario: string;
  deliveries: number;
  bodyBytes: number;
  queueMs: number;
  bare: number;
  drain: number;
  drains: number;
  served: number;
  servedDone: number;
  servedSeconds: number;
}

interface Lag {
  engine: string;
  events: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

async function benchEngine(engine: Engine, receivers: Receivers): Promise<{ results: Result[]; lag: Lag }> {
  const { database } = engine;
  log(`${engine.name}: ${engine.describe}`);
  const { firmId, jobId } = await setUp(database);
  const results: Result[] = [];

  const scenario = async (name: string, urls: string[], total: number) => {
    await unsubscribeAll(database, firmId);
    await subscribe(database, firmId, urls);
    // Warm the worker (JIT, its statements) on deliveries of its own, as the bare loop is warmed
    // below: the bare loop was never measured cold, and a worker's first round in a process ran at
    // 0.7–0.85 of the rounds after it (docs/performance.md, "The delivery's body out of its row").
    await queue(database, firmId, jobId, Math.max(1, Math.round(WARMUP_REQUESTS / urls.length)));
    const warming = newWorker(database);
    await warming.drain();
    await warming.settle();
    const before = (await countByStatus(database, firmId)).succeeded ?? 0;
    const queueMs = await queue(database, firmId, jobId, total / urls.length);
    const body = (
      await database.db
        .selectFrom('webhook_payloads')
        .select('payload')
        .orderBy('delivery_id', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow()
    ).payload;
    log(`  ${name}: queued ${fmt(total)} deliveries in ${fmt(queueMs / 1000, 1)} s; body ${fmt(body.length)} bytes`);
    // The bare loop warmed too (connections, JIT), then bare, worker, bare again; the baseline is their mean.
    await runBare(urls, body, WARMUP_REQUESTS);
    await receivers.reset();
    const bare1 = await runBare(urls, body, total);
    const drain = await runDrain(database, firmId, total, before + total);
    const bare2 = await runBare(urls, body, total);
    const received = await receivers.count();
    if (received !== 3 * total) throw new Error(`receivers counted ${received}, expected ${3 * total}`);
    const bare = (bare1 + bare2) / 2;
    log(
      `    drain() ${fmt(drain.rate)}/s (${drain.drains} drain calls)   bare ${fmt(bare1)}/s, ${fmt(bare2)}/s   ratio ${fmt(drain.rate / bare, 2)}`,
    );
    // As `serve` runs it: the same queue again, through the runner.
    await queue(database, firmId, jobId, total / urls.length);
    const served = await runServed(database, firmId, receivers, total, SERVED_BUDGET_MS);
    log(
      `    served (runner, poll ${POLL_MS} ms) ${fmt(served.rate)}/s: ${fmt(served.done)} of ${fmt(total)} in ${fmt(served.seconds, 1)} s   ratio ${fmt(served.rate / bare, 3)}`,
    );
    results.push({
      engine: engine.name,
      scenario: name,
      deliveries: total,
      bodyBytes: body.length,
      queueMs,
      bare,
      drain: drain.rate,
      drains: drain.drains,
      served: served.rate,
      servedDone: served.done,
      servedSeconds: served.seconds,
    });
  };

  const spread = receivers.urls.flatMap((u) =>
    Array.from({ length: SUBSCRIPTIONS_PER_RECEIVER }, (_, i) => `${u}?s=${i}`),
  );
  await scenario(`${spread.length} subscriptions on ${receivers.urls.length} receivers`, spread, DELIVERIES);
  await scenario('1 subscription', [receivers.urls[0]!], ONE_ENDPOINT_DELIVERIES);
  const lag = await runLag(database, firmId, jobId, receivers, LAG_EVENTS);
  log(
    `  lag, ${lag.events} events written one at a time: p50 ${fmt(lag.p50, 1)} ms, p99 ${fmt(lag.p99, 1)} ms, max ${fmt(lag.max, 1)} ms`,
  );
  return { results, lag: { engine: engine.name, ...lag } };
}

async function main(): Promise<void> {
  const receivers = await startReceivers(RECEIVERS);
  const engines: (() => Promise<Engine>)[] = [() => openEngine()];
  if (pgUrl) engines.push(() => openEngine(pgUrl));
  const results: Result[] = [];
  const lags: Lag[] = [];
  const cleanups = new Set<() => Promise<void>>();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void Promise.all([...cleanups].map((c) => c())).finally(() => process.exit(130));
    });
  }
  try {
    for (const open of engines) {
      const engine = await open();
      cleanups.add(engine.drop);
      try {
        const run = await benchEngine(engine, receivers);
        results.push(...run.results);
        lags.push(run.lag);
      } finally {
        cleanups.delete(engine.drop);
        await engine.drop();
      }
    }
  } finally {
    await receivers.stop();
  }

  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const lines = [
    `Webhook delivery${MODE_LABEL}, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} vCPU (${cpu})`,
    `Concurrency ${CONCURRENCY}; receivers answer 200 at once; deliveries per second (bare: requests per second). Load average at the end: ${load}.`,
    '',
    '| Engine | Scenario | Deliveries | Bare undici loop /s | Worker, drain() /s | Ratio | Worker as served (poll ' +
      POLL_MS +
      ' ms) /s | Ratio | Queueing (recordEvent) |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.engine} | ${r.scenario} | ${fmt(r.deliveries)} | ${fmt(r.bare)} | ${fmt(r.drain)} | ${fmt(r.drain / r.bare, 2)} | ` +
        `${fmt(r.served)}${r.servedDone < r.deliveries ? ` (${fmt(r.servedDone)} in ${fmt(r.servedSeconds, 0)} s)` : ''} | ${fmt(r.served / r.bare, 3)} | ${fmt(r.queueMs / 1000, 1)} s |`,
    ),
    '',
    `Body ${fmt(results[0]?.bodyBytes ?? 0)} bytes (a job_won payload with its job object). drain() returned early with deliveries still pending: ` +
      results.map((r) => `${r.engine}/${r.scenario}: ${r.drains - 1} time(s)`).join('; ') +
      '.',
    '',
    `Delivery lag as served (runner, poll ${POLL_MS} ms): events written one at a time, each in its own transaction, ${LAG_SPACING_MS} ms apart, to one subscription; from the commit to the receiver, ms.`,
    '',
    '| Engine | Events | p50 | p99 | max | mean |',
    '|---|---:|---:|---:|---:|---:|',
    ...lags.map(
      (l) =>
        `| ${l.engine} | ${fmt(l.events)} | ${fmt(l.p50, 1)} | ${fmt(l.p99, 1)} | ${fmt(l.max, 1)} | ${fmt(l.mean, 1)} |`,
    ),
  ];
  const report = lines.join('\n') + '\n';
  console.log(report);
  if (saveReport('webhooks-latest.md', report)) log('written to bench/results/webhooks-latest.md');
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
