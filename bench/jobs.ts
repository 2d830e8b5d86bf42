// Jobs API benchmark: GET /v1/jobs/{id}, GET /v1/jobs?limit=100 and POST /v1/jobs against a bare
// Fastify route in the same run, then the list cost as the workspace grows from 10k to 1M jobs.
//
//   npm run bench                      SQLite file database in a temp dir
//   DATABASE_URL=postgres://… npm run bench    PostgreSQL (a fresh schema, dropped afterwards)
//   npm run bench -- --quick           100k instead of 1M jobs, 2 s per measurement
//   npm run bench -- --smoke           seconds, for CI (bench/mode.ts): 1k and 3k jobs, 0.3 s per measurement
//
// The servers (bare route and the real app) run on this process's main thread; autocannon runs
// in a worker thread so the load generator does not share the servers' event loop. Results are
// printed as markdown and written to bench/results/latest.md. See docs/performance.md.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '#src/app.ts';
import { buildDeps } from '#platform/deps.ts';
import { isPostgresUrl } from '#src/config.ts';
import type { Database } from '#db/database.ts';
import { bareJobInsertRoute } from './bare-job-insert.ts';
import { dropOnInterrupt, openBenchDatabase } from './database.ts';
import { benchWorkspace } from './workspace.ts';
import { insertJobs } from './seed.ts';
import { fmt, type LoadSpec, listen, loadNow, type LoadResult, ms, revision, startLoadWorker } from './load.ts';
import { actingAs } from '#platform/auth.ts';
import { MODE_LABEL, QUICK, saveReport, sized, warnOrFail } from './mode.ts';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { getJob, JobSchema, listJobs } from '#crm/index.ts';
import { ListOf } from '#platform/schemas.ts';

const DURATION_S = sized(5, 2, 0.2);
const WARMUP_S = sized(1, 1, 0.1);
const CONNECTIONS = 10;
const SMALL = sized(10_000, 10_000, 1_000);
const LARGE = sized(1_000_000, 100_000, 3_000);
const CHUNK = 50_000;

const PAGE_RAW = 'the same 100 rows: one raw SQL statement compiled once, and JSON.stringify (baseline)';
const PAGE_SERVED = "a page of 100 jobs: listJobs and the route's response serializer";
const PAGE_INJECTED = 'the same page through app.inject (GET /v1/jobs?limit=100)';
/** GET /v1/jobs's response serializer, as Fastify compiles it from the route's schema. */
const pageSerializer = (SerializerSelector() as (...a: unknown[]) => (route: unknown) => (data: unknown) => string)(
  {},
  {},
)({ schema: ListOf(JobSchema), method: 'GET', url: '/v1/jobs', httpStatus: '200' });

const databaseUrl =
  process.env.DATABASE_URL && isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : null;
const engine = databaseUrl ? 'postgres' : 'sqlite';

// ---- databases -----------------------------------------------------------------------------

const READ_SPREAD = 'GET /v1/jobs/{id}, a different job each call';

/** The lowest and highest job id of the workspace (the bench's jobs are numbered without gaps). */
async function jobIdSpan(database: Database, firmId: number): Promise<{ from: number; to: number }> {
  const row = await database.db
    .selectFrom('jobs')
    .select((eb) => [eb.fn.min<number>('id').as('from'), eb.fn.max<number>('id').as('to')])
    .where('firm_id', '=', firmId)
    .executeTakeFirstOrThrow();
  return { from: Number(row.from), to: Number(row.to) };
}

async function jobCount(database: Database, firmId: number): Promise<number> {
  const row = await database.db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('firm_id', '=', firmId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The job count once it stops moving: a POST that autocannon gave up on when its run ended may
 * still be committing (on a busy machine, for a while), and growing to exactly LARGE needs it in.
 */
async function settledJobCount(database: Database, firmId: number): Promise<number> {
  let count = await jobCount(database, firmId);
  for (let i = 0; i < 50; i++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const again = await jobCount(database, firmId);
    if (again === count) break;
    count = again;
  }
  return count;
}

// ---- in-process timings of the service calls the routes wrap --------------------------------

async function timeIt(iterations: number, fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(50, iterations); i++) await fn();
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) await fn();
  return ((performance.now() - t0) * 1000) / iterations; // µs per call
}

// ---- the run -------------------------------------------------------------------------------

interface Row {
  scenario: string;
  jobs: number;
  r: LoadResult;
}

async function main(): Promise<void> {
  const started = Date.now();
  const log = (msg: string) => console.error(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${msg}`);
  const { database, describe, drop } = await openBenchDatabase({ url: databaseUrl, label: 'jobs' });
  dropOnInterrupt(drop);
  const load = startLoadWorker(CONNECTIONS);
  const apps: FastifyInstance[] = [];
  const rows: Row[] = [];
  const queries: { what: string; jobs: number; us: number }[] = [];
  const loadSamples: string[] = [`start: ${loadNow()}`];
  try {
    log(`engine: ${describe}`);
    const { firmId, ownerId, key } = await benchWorkspace(database);
    const headers = { 'x-api-key': key };

    // The app as `serve` builds it (the key memo at its default), and the same app with the memo
    // off, to show what resolving the key on every call costs.
    const rateLimit = { max: 1e9, windowMs: 1000 };
    const app = await buildApp(database, { adminToken: null, rateLimit, logLevel: false });
    apps.push(app);
    const api = await listen(app);
    const noMemo = await buildApp(database, { adminToken: null, rateLimit, logLevel: false, authCacheMs: 0 });
    apps.push(noMemo);
    const apiNoMemo = await listen(noMemo);

    log(`loading ${fmt(SMALL)} jobs`);
    let t0 = performance.now();
    await insertJobs(database, firmId, ownerId, SMALL, { namePrefix: 'Bench job', customFields: '{}', chunk: CHUNK });
    log(`  loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const readId = (
      await database.db
        .selectFrom('jobs')
        .select('id')
        .where('firm_id', '=', firmId)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow()
    ).id;

    // The bare baseline answers the same job object the API answers, from memory.
    const sample = await app.inject({ method: 'GET', url: `/v1/jobs/${readId}`, headers });
    if (sample.statusCode !== 200) throw new Error(`GET /v1/jobs/${readId}: ${sample.statusCode} ${sample.body}`);
    const jobBody = JSON.parse(sample.body) as unknown;
    const bare = Fastify({ logger: false });
    bare.get('/bare', async () => jobBody);
    bareJobInsertRoute(bare, database, firmId, ownerId);
    apps.push(bare);
    const bareUrl = await listen(bare);
    log(`job object: ${sample.body.length} bytes`);

    const measure = async (scenario: string, jobs: number, spec: Omit<LoadSpec, 'duration'>) => {
      await load.run({ ...spec, duration: WARMUP_S, namePrefix: spec.namePrefix && `${spec.namePrefix} warm-up` });
      const r = await load.run({ ...spec, duration: DURATION_S });
      if (r.non2xx > 0 || r.errors > 0) warnOrFail(log, `${scenario}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      rows.push({ scenario, jobs, r });
      log(
        `  ${scenario.padEnd(36)} ${fmt(r.rps).padStart(7)} req/s  p50 ${ms(r.p50)} ms  p99 ${ms(r.p99)} ms  (load ${loadNow()})`,
      );
      return r;
    };

    const ctx = { database, deps: buildDeps(), auth: await actingAs(database.db, firmId, ownerId) };
    const queryTimings = async (jobs: number) => {
      const iters = sized(1000, 300, 20);
      // What resolving a key costs when the app's key memo misses: the key by its prefix, then its
      // workspace and user (the lookups src/platform/auth.ts makes).
      const prefix = key.slice(0, 11);
      queries.push({
        what: 'key, workspace and user lookups (auth, memo miss)',
        jobs,
        us: await timeIt(iters, async () => {
          const row = await database.db
            .selectFrom('api_keys')
            .select(['id', 'kind', 'key_hash', 'firm_id', 'user_id', 'permissions', 'revoked_at'])
            .where('prefix', '=', prefix)
            .executeTakeFirstOrThrow();
          return Promise.all([
            database.db.selectFrom('firms').selectAll().where('id', '=', row.firm_id!).executeTakeFirst(),
            database.db.selectFrom('users').selectAll().where('id', '=', row.user_id!).executeTakeFirst(),
          ]);
        }),
      });
      queries.push({
        what: 'getJob (the job read query and its shaping)',
        jobs,
        us: await timeIt(iters, () => getJob(ctx, readId)),
      });
      queries.push({
        what: 'listJobs limit 100 (rows and total)',
        jobs,
        us: await timeIt(Math.ceil(iters / 5), () => listJobs(ctx, {}, false, 100, 0)),
      });
      // A page of 100 jobs: the list route's work (the list query and count, shaping) and its
      // response serializer (fast-json-stringify from the route's schema, built as Fastify builds
      // it), against reading the same 100 rows with one raw SQL statement compiled once and
      // JSON.stringify of them: the floor any page of these rows has. The page through app.inject
      // is printed too; light-my-request's own handling of a 126 KB body costs about as much as
      // the page (a route answering a fixed 126 KB string: 630 µs), which a socket does not.
      const rawPage = sql`select jobs.*, au.name as au_name, au.username as au_username, au.email as au_email,
          au.role as au_role, au.job_title as au_job_title, au.phone_number as au_phone_number,
          au.headshot_url as au_headshot_url, au.created_at as au_created_at, st.label as stage_label,
          ca.external_ref as ca_external_ref, lo.external_ref as lo_external_ref
        from jobs join users au on au.id = jobs.assigned_to_user_id
        left join job_stages st on st.firm_id = jobs.firm_id and st.key = jobs.status
        left join client_accounts ca on ca.id = jobs.client_account_id
        left join locations lo on lo.id = jobs.location_id
        where jobs.firm_id = ${firmId} order by jobs.id desc limit 100`.compile(database.db);
      queries.push({
        what: PAGE_RAW,
        jobs,
        us: await timeIt(Math.ceil(iters / 5), async () =>
          JSON.stringify((await database.db.executeQuery(rawPage)).rows),
        ),
      });
      queries.push({
        what: PAGE_SERVED,
        jobs,
        us: await timeIt(Math.ceil(iters / 5), async () => {
          const { data, total } = await listJobs(ctx, {}, false, 100, 0);
          return pageSerializer({ data, pagination: { total, limit: 100, offset: 0 } });
        }),
      });
      queries.push({
        what: PAGE_INJECTED,
        jobs,
        us: await timeIt(Math.ceil(iters / 5), async () => {
          const res = await app.inject({ method: 'GET', url: '/v1/jobs?limit=100', headers });
          if (res.statusCode !== 200) throw new Error(`GET /v1/jobs?limit=100: ${res.statusCode}`);
        }),
      });
      queries.push({
        what: 'listJobs limit 100, status=lead',
        jobs,
        us: await timeIt(Math.ceil(iters / 5), () => listJobs(ctx, { status: 'lead' }, false, 100, 0)),
      });
    };

    // The list total comes from job_counts; check the bulk load kept it equal to the rows.
    const assertTotal = async (jobs: number) => {
      const res = await app.inject({ method: 'GET', url: '/v1/jobs?limit=1', headers });
      const total = (JSON.parse(res.body) as { pagination?: { total?: number } }).pagination?.total;
      const counted = await jobCount(database, firmId);
      if (total !== counted || counted !== jobs)
        throw new Error(`list total ${total}, rows ${counted}, expected ${jobs}`);
    };

    const phase = async (jobs: number, withPost: boolean) => {
      await assertTotal(jobs);
      log(
        `measuring with ${fmt(jobs)} jobs in the workspace (${CONNECTIONS} connections, ${DURATION_S} s each after ${WARMUP_S} s warm-up)`,
      );
      loadSamples.push(`${fmt(jobs)} jobs: ${loadNow()}`);
      await measure('bare Fastify route (baseline)', jobs, { url: `${bareUrl}/bare`, method: 'GET', headers: {} });
      await measure('GET /v1/jobs/{id}', jobs, { url: `${api}/v1/jobs/${readId}`, method: 'GET', headers });
      // The same read with every request for a different job of the workspace: no cache of one row
      // helps, and on PostgreSQL reads of one turn share a statement only in how they travel
      // (db/batched-read.ts), each job read from its own index entry.
      const span = await jobIdSpan(database, firmId);
      await measure(READ_SPREAD, jobs, { url: `${api}/v1/jobs/{id}`, method: 'GET', headers, ids: span });
      await measure('GET /v1/jobs/{id}, key memo off', jobs, {
        url: `${apiNoMemo}/v1/jobs/${readId}`,
        method: 'GET',
        headers,
      });
      await measure('GET /v1/jobs?limit=100', jobs, { url: `${api}/v1/jobs?limit=100`, method: 'GET', headers });
      await measure('GET /v1/jobs?limit=100&offset=0&status=lead', jobs, {
        url: `${api}/v1/jobs?limit=100&offset=0&status=lead`,
        method: 'GET',
        headers,
      });
      if (withPost) {
        await measure('bare POST, the same inserts (baseline)', jobs, {
          url: `${bareUrl}/bare-jobs`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          namePrefix: `Bench bare post ${jobs}`,
        });
        await measure('POST /v1/jobs', jobs, {
          url: `${api}/v1/jobs`,
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          namePrefix: `Bench post ${jobs}`,
        });
      }
      await queryTimings(jobs);
    };

    await phase(SMALL, true);

    const have = await settledJobCount(database, firmId);
    log(`growing the workspace from ${fmt(have)} to ${fmt(LARGE)} jobs`);
    t0 = performance.now();
    await insertJobs(database, firmId, ownerId, LARGE - have, {
      namePrefix: 'Bench job',
      customFields: '{}',
      chunk: CHUNK,
    });
    log(`  loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    if (database.dialect.engine === 'sqlite') await sql`pragma wal_checkpoint(truncate)`.execute(database.db);

    await phase(LARGE, true);
    loadSamples.push(`end: ${loadNow()}`);

    const report = renderReport({ describe, rows, queries, loadSamples, seconds: (Date.now() - started) / 1000 });
    console.log(report);
    saveReport(`latest-${engine}${QUICK ? '-quick' : ''}.md`, report);
    if (saveReport('latest.md', report)) log(`written to bench/results/latest.md`);
  } finally {
    for (const a of apps) await a.close();
    await load.stop();
    await drop();
  }
}

function renderReport(o: {
  describe: string;
  rows: Row[];
  queries: { what: string; jobs: number; us: number }[];
  loadSamples: string[];
  seconds: number;
}): string {
  const find = (scenario: string, jobs: number) => o.rows.find((r) => r.scenario === scenario && r.jobs === jobs)?.r;
  const lines: string[] = [];
  lines.push(`# Jobs API benchmark — ${engine}${MODE_LABEL}`, '');
  lines.push(
    `- ${new Date().toISOString()}, Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}`,
  );
  lines.push(`- ${o.describe}`);
  lines.push(`- source: ${revision()}`);
  lines.push(
    `- autocannon: ${CONNECTIONS} connections, ${DURATION_S} s per row after a ${WARMUP_S} s warm-up; load generator in a worker thread of the same process`,
  );
  lines.push(`- load average (1/5/15 min): ${o.loadSamples.join('; ')}`);
  lines.push(`- run took ${o.seconds.toFixed(0)} s`, '');
  lines.push('| Scenario | Jobs in workspace | req/s | p50 ms | p90 ms | p99 ms | non-2xx |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|');
  for (const { scenario, jobs, r } of o.rows) {
    lines.push(
      `| ${scenario} | ${fmt(jobs)} | ${fmt(r.rps)} | ${ms(r.p50)} | ${ms(r.p90)} | ${ms(r.p99)} | ${r.non2xx + r.errors} |`,
    );
  }
  lines.push('', '| Ratio | Value | Target |', '|---|---:|---|');
  const ratio = (a: number | undefined, b: number | undefined) =>
    a !== undefined && b !== undefined && b > 0 ? (a / b).toFixed(2) : 'n/a';
  for (const jobs of [SMALL, LARGE]) {
    const bare = find('bare Fastify route (baseline)', jobs);
    lines.push(
      `| GET /v1/jobs/{id} ÷ bare route, req/s, ${fmt(jobs)} jobs | ${ratio(find('GET /v1/jobs/{id}', jobs)?.rps, bare?.rps)} | ≥ 0.50 (SQLite), ≥ 0.30 (PostgreSQL) |`,
    );
    lines.push(
      `| ${READ_SPREAD} ÷ bare route, req/s, ${fmt(jobs)} jobs | ${ratio(find(READ_SPREAD, jobs)?.rps, bare?.rps)} | ≥ 0.50 (SQLite), ≥ 0.30 (PostgreSQL) |`,
    );
    lines.push(
      `| GET /v1/jobs/{id} with the key memo off ÷ bare route, req/s, ${fmt(jobs)} jobs | ${ratio(find('GET /v1/jobs/{id}, key memo off', jobs)?.rps, bare?.rps)} | — |`,
    );
    lines.push(
      `| GET /v1/jobs?limit=100 ÷ bare route, req/s, ${fmt(jobs)} jobs | ${ratio(find('GET /v1/jobs?limit=100', jobs)?.rps, bare?.rps)} | — |`,
    );
    lines.push(
      `| POST /v1/jobs ÷ bare route, req/s, ${fmt(jobs)} jobs | ${ratio(find('POST /v1/jobs', jobs)?.rps, bare?.rps)} | — |`,
    );
    lines.push(
      `| POST /v1/jobs ÷ bare POST doing the same inserts, req/s, ${fmt(jobs)} jobs | ${ratio(find('POST /v1/jobs', jobs)?.rps, find('bare POST, the same inserts (baseline)', jobs)?.rps)} | ≥ 0.50 |`,
    );
  }
  for (const scenario of ['GET /v1/jobs?limit=100', 'GET /v1/jobs?limit=100&offset=0&status=lead']) {
    const a = find(scenario, SMALL);
    const b = find(scenario, LARGE);
    lines.push(`| ${scenario}: p50 at ${fmt(LARGE)} ÷ p50 at ${fmt(SMALL)} | ${ratio(b?.p50, a?.p50)} | ≈ 1 (flat) |`);
    lines.push(`| ${scenario}: p99 at ${fmt(LARGE)} ÷ p99 at ${fmt(SMALL)} | ${ratio(b?.p99, a?.p99)} | ≈ 1 (flat) |`);
    lines.push(
      `| ${scenario}: req/s at ${fmt(LARGE)} ÷ req/s at ${fmt(SMALL)} | ${ratio(b?.rps, a?.rps)} | ≈ 1 (flat) |`,
    );
  }
  lines.push(
    '',
    'The service calls the routes wrap (queries and row shaping, no HTTP), in process, one at a time:',
    '',
  );
  lines.push('| Query | Jobs in workspace | µs per call |', '|---|---:|---:|');
  for (const q of o.queries) lines.push(`| ${q.what} | ${fmt(q.jobs)} | ${fmt(q.us)} |`);
  lines.push('', '| Ratio | Value | Target |', '|---|---:|---|');
  for (const jobs of [SMALL, LARGE]) {
    const us = (what: string) => o.queries.find((q) => q.what === what && q.jobs === jobs)?.us;
    const served = us(PAGE_SERVED);
    const raw = us(PAGE_RAW);
    lines.push(
      `| a page of 100 jobs ÷ the raw query and JSON.stringify, ${fmt(jobs)} jobs | ${served && raw ? (served / raw).toFixed(2) : 'n/a'} | ≤ 2 |`,
    );
  }
  lines.push('');
  return lines.join('\n');
}

await main();
// pg's pool and the worker are closed in main; exit explicitly in case a handle lingers.
process.exit(0);
