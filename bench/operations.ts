// Operations benchmark (docs/performance.md, "Operations"), issue 25's two targets:
//
// 1. GET /v1/work-orders for one month stays flat as the workspace grows from 10k to 1M work
//    orders (at most 1.3 times the small workspace's time per request): the month is read through
//    the day index (work_order_days), so its cost follows the days asked for. The measured month
//    always holds the same 300 visits; the rest are spread over other years.
// 2. POST /v1/schedule/holds (a hold with a crew: the crew-day lock check reads the crew's days,
//    writes the hold and its days) against POST /v1/jobs in the same run (target ≥ 0.5×), through
//    compare-creates.ts.
//
//   npm run bench:operations                 SQLite file database in a temp dir
//   DATABASE_URL=postgres://… npm run bench:operations   PostgreSQL (a fresh schema, dropped afterwards)
//   npm run bench:operations -- --quick      100k instead of 1M work orders, short rounds
//   npm run bench:operations -- --smoke      seconds, for CI (bench/mode.ts)
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { buildApp } from '#src/app.ts';
import { isPostgresUrl } from '#src/config.ts';
import type { Database } from '#db/database.ts';
import { addDays, now } from '#platform/time.ts';
import { compareCreates } from './compare-creates.ts';
import { dropOnInterrupt, openBenchDatabase } from './database.ts';
import { jobBody } from './job-body.ts';
import { fmt, listen, loadNow, ms, revision } from './load.ts';
import { MODE_LABEL, saveReport, sized, warnOrFail } from './mode.ts';
import { benchWorkspace } from './workspace.ts';

const SMALL = sized(10_000, 10_000, 1_000);
const LARGE = sized(1_000_000, 100_000, 3_000);
/** Visits in the measured month, whatever the workspace's size. */
const IN_MONTH = sized(300, 300, 30);
const MONTH = { start: '2027-03-01', end: '2027-03-31' };
const SECONDS = sized(5, 2, 0.2);
const CONNECTIONS = 8;
const BATCH = 500;
const OPERATIONS_ON = { operations_enabled: true, crew_scheduling_enabled: true };

async function turnOperationsOn(database: Database, firmId: number): Promise<void> {
  const firm = await database.db
    .selectFrom('firms')
    .select('settings')
    .where('id', '=', firmId)
    .executeTakeFirstOrThrow();
  await database.db
    .updateTable('firms')
    .set({ settings: JSON.stringify({ ...JSON.parse(firm.settings), ...OPERATIONS_ON }) })
    .where('id', '=', firmId)
    .execute();
}

/**
 * Adds work orders (one job, ten crews, 1 to 3 days each, half published) with their day rows, as
 * the API writes them: `inMonth` in the measured month, the rest spread one a day from year 2100
 * on, so no other month grows with the workspace's size near the measured one.
 */
async function seedWorkOrders(
  database: Database,
  firmId: number,
  jobId: number,
  crews: number[],
  from: number,
  to: number,
  inMonth: number,
) {
  const at = now();
  for (let start = from; start < to; start += BATCH) {
    const rows: { i: number; days: number; date: string }[] = [];
    for (let i = start; i < Math.min(to, start + BATCH); i++) {
      const days = 1 + (i % 3);
      const date = i < inMonth ? addDays(MONTH.start, i % 28) : addDays('2100-01-01', i);
      rows.push({ i, days, date });
    }
    await database.db.transaction().execute(async (trx) => {
      const made = await trx
        .insertInto('work_orders')
        .values(
          rows.map((r) => ({
            firm_id: firmId,
            job_id: jobId,
            title: `Visit ${r.i}`,
            status: 'scheduled' as const,
            is_hold: 0 as const,
            published: (r.i % 2) as 0 | 1,
            crew_id: crews[r.i % crews.length]!,
            estimated_days: r.days,
            scheduled_date: r.date,
            end_date: addDays(r.date, r.days - 1),
            job_is_placeholder: 0 as const,
            created_at: at,
            updated_at: at,
          })),
        )
        .returning(['id'])
        .execute();
      const dayRows = made.flatMap((m, k) => {
        const r = rows[k]!;
        return Array.from({ length: r.days }, (_, d) => ({
          firm_id: firmId,
          work_order_id: m.id,
          date: addDays(r.date, d),
          crew_id: crews[r.i % crews.length]!,
          locks: (r.i % 2) as 0 | 1,
          is_hold: 0 as const,
        }));
      });
      for (let k = 0; k < dayRows.length; k += BATCH)
        await trx
          .insertInto('work_order_days')
          .values(dayRows.slice(k, k + BATCH))
          .execute();
    });
  }
}

async function getRate(url: string, key: string): Promise<{ rps: number; p50: number; failures: number }> {
  const end = performance.now() + SECONDS * 1000;
  const latencies: number[] = [];
  let failures = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        const s = performance.now();
        const res = await fetch(url, { headers: { 'x-api-key': key } });
        const body = (await res.json()) as { pagination?: { total: number } };
        if (res.status !== 200 || body.pagination?.total !== IN_MONTH) {
          failures++;
          if (failures === 1) console.error(`  ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
        } else latencies.push(performance.now() - s);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / ((performance.now() - t0) / 1000),
    p50: latencies[Math.floor(latencies.length / 2)] ?? 0,
    failures,
  };
}

async function monthList(): Promise<string> {
  const url = process.env.DATABASE_URL && isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : null;
  const { database, describe, drop } = await openBenchDatabase({ url, label: 'operations' });
  dropOnInterrupt(drop);
  try {
    console.error(`engine: ${describe}`);
    const { firmId, ownerId, key } = await benchWorkspace(database);
    await turnOperationsOn(database, firmId);
    const app = await buildApp(database, {
      adminToken: null,
      rateLimit: { max: 1e9, windowMs: 1000 },
      logLevel: false,
    });
    const api = await listen(app);
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${api}${path}`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return (await res.json()) as { data: { id: number } };
    };
    const job = (await post('/v1/jobs', { name: 'Bench schedule job', assigned_to_user_id: ownerId })).data;
    const crews: number[] = [];
    for (let c = 0; c < 10; c++) crews.push((await post('/v1/crews', { name: `Crew ${c}` })).data.id);
    const listUrl = `${api}/v1/work-orders?start_date=${MONTH.start}&end_date=${MONTH.end}&limit=50`;
    const rows: string[] = [];
    let seeded = 0;
    const results: { size: number; rps: number; p50: number }[] = [];
    for (const size of [SMALL, LARGE]) {
      const t0 = performance.now();
      await seedWorkOrders(database, firmId, job.id, crews, seeded, size, IN_MONTH);
      seeded = size;
      // Rows written in bulk, then planned at once: PostgreSQL's autovacuum would have analyzed the
      // tables by now; without statistics it plans the month as a one-row join and walks the
      // workspace (5.8 s at 100k, docs/performance.md, "Operations").
      if (database.dialect.engine === 'postgres') await sql`analyze work_orders, work_order_days`.execute(database.db);
      console.error(`seeded ${fmt(size)} work orders in ${fmt((performance.now() - t0) / 1000, 1)} s`);
      await getRate(listUrl, key); // warm-up
      const r = await getRate(listUrl, key);
      if (r.failures > 0) warnOrFail(console.error, `${r.failures} failed month lists at ${size}`);
      results.push({ size, rps: r.rps, p50: r.p50 });
      rows.push(`| ${fmt(size)} | ${fmt(r.rps)} | ${ms(r.p50)} |`);
      console.error(`${fmt(size)} work orders: ${fmt(r.rps)} req/s, p50 ${ms(r.p50)} ms (load ${loadNow()})`);
    }
    await app.close();
    const slower = results[0]!.rps / results[1]!.rps;
    return [
      `Operations benchmark: one month of work orders${MODE_LABEL}, ${new Date().toISOString().slice(0, 10)}, ${revision()}`,
      `${describe}; GET /v1/work-orders?start_date=…&end_date=… (${IN_MONTH} visits in the month, first page of 50), ${CONNECTIONS} connections, ${SECONDS} s per size`,
      '',
      '| Work orders in the workspace | req/s | p50 ms |',
      '|---:|---:|---:|',
      ...rows,
      '',
      `Time per request at ${fmt(LARGE)} ÷ at ${fmt(SMALL)}: ${slower.toFixed(2)}; target ≤ 1.3: ${slower <= 1.3 ? 'met' : 'NOT met'}.`,
    ].join('\n');
  } finally {
    await drop();
  }
}

const report = await monthList();
console.log(report);
saveReport('operations-month.md', report);

// Holds against jobs: each hold takes a fresh crew day (its crew and date move on per request), so
// every one passes the lock check having read the crew's days.
let crewIds: number[] = [];
let jobId = 0;
let serial = 0;
await compareCreates({
  name: 'operations-holds',
  title: 'Operations benchmark: holds',
  target: 0.5,
  baseline: { label: 'POST /v1/jobs (customer, site, job)', path: '/v1/jobs', body: jobBody },
  measured: {
    label: 'POST /v1/schedule/holds (crew-day lock check, hold and its days)',
    path: '/v1/schedule/holds',
    body: () => {
      const n = ++serial;
      return {
        job_id: jobId,
        crew_id: crewIds[n % crewIds.length],
        scheduled_date: addDays('2030-01-01', Math.floor(n / crewIds.length) * 2),
        estimated_days: 2,
        scope: `Hold ${n}`,
      };
    },
  },
  async prepare(call, db) {
    const firm = await db
      .selectFrom('firms')
      .select(['id', 'settings'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    await db
      .updateTable('firms')
      .set({ settings: JSON.stringify({ ...JSON.parse(firm.settings), ...OPERATIONS_ON }) })
      .where('id', '=', firm.id)
      .execute();
    jobId = (await call('/v1/jobs', { name: 'Bench hold job' })).data.id;
    crewIds = [];
    for (let c = 0; c < 20; c++) crewIds.push((await call('/v1/crews', { name: `Hold crew ${c}` })).data.id);
  },
});
