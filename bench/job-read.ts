// A cached job read against the bare route, in interleaved rounds: GET /v1/jobs/{id} (one job, the
// key memoised, as a sync client calls it) and a bare Fastify route answering the same job object
// from memory, one after the other, round after round. Each round's ratio is to the bare route of
// that round, so a host whose speed drifts over minutes moves both sides of a ratio together; and
// each side's CPU on the main thread per request (Linux's per-thread schedstat) is reported too,
// which counts work rather than wall time and so moves far less with the host's noise.
//
//   npm run bench:job-read                             SQLite file; PostgreSQL when DATABASE_URL names it
//   npm run bench:job-read -- --quick                  fewer, shorter rounds
//   npm run bench:job-read -- --smoke                  seconds, for CI (bench/mode.ts)
//
// bench/jobs.ts measures the same read once per phase, each side once; this script is for telling
// two versions of the request path apart (docs/performance.md, "The hooks without promises").
import fs from 'node:fs';
import Fastify from 'fastify';
import { buildApp } from '#src/app.ts';
import { isPostgresUrl } from '#src/config.ts';
import { dropOnInterrupt, openBenchDatabase } from './database.ts';
import { fmt, listen, loadNow, revision, startLoadWorker } from './load.ts';
import { MODE_LABEL, QUICK, saveReport, sized, warnOrFail } from './mode.ts';
import { insertJobs } from './seed.ts';
import { benchWorkspace } from './workspace.ts';

const ROUNDS = sized(7, 5, 2);
const ROUND_S = sized(3, 2, 0.2);
const JOBS = sized(100_000, 10_000, 1_000);
const CONNECTIONS = 10;

const databaseUrl =
  process.env.DATABASE_URL && isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : null;

/** Microseconds this process's main thread has spent on a core, or null off Linux. */
function mainThreadCpuUs(): number | null {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8');
    return Number(stat.split(' ')[0]) / 1000;
  } catch {
    return null;
  }
}

const median = (values: number[]) => {
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

interface Round {
  bare: number;
  app: number;
  bareCpu: number | null;
  appCpu: number | null;
}

async function main(): Promise<void> {
  const started = Date.now();
  const log = (msg: string) => console.error(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${msg}`);
  const { database, describe, drop } = await openBenchDatabase({ url: databaseUrl, label: 'job-read' });
  dropOnInterrupt(drop);
  const load = startLoadWorker(CONNECTIONS);
  const closing: { close(): Promise<unknown> }[] = [];
  try {
    log(`engine: ${describe}`);
    const { firmId, ownerId, key } = await benchWorkspace(database);
    await insertJobs(database, firmId, ownerId, JOBS, { namePrefix: 'Bench job', customFields: '{}', chunk: 50_000 });
    const app = await buildApp(database, {
      adminToken: null,
      rateLimit: { max: 1e9, windowMs: 1000 },
      logLevel: false,
    });
    closing.push(app);
    const api = await listen(app);
    const { id } = await database.db
      .selectFrom('jobs')
      .select('id')
      .where('firm_id', '=', firmId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    const headers = { 'x-api-key': key };
    const sample = await app.inject({ method: 'GET', url: `/v1/jobs/${id}`, headers });
    if (sample.statusCode !== 200) throw new Error(`GET /v1/jobs/${id}: ${sample.statusCode} ${sample.body}`);
    const job = JSON.parse(sample.body) as unknown;
    const bare = Fastify({ logger: false });
    bare.get('/bare', async () => job);
    closing.push(bare);
    const bareSpec = { url: `${await listen(bare)}/bare`, method: 'GET' as const, headers: {} };
    const appSpec = { url: `${api}/v1/jobs/${id}`, method: 'GET' as const, headers };

    // Warm both sides (JIT, connections, the key memo) before the first round.
    await load.run({ ...bareSpec, duration: sized(2, 2, 0.2) });
    await load.run({ ...appSpec, duration: sized(2, 2, 0.2) });
    const rounds: Round[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const c0 = mainThreadCpuUs();
      const b = await load.run({ ...bareSpec, duration: ROUND_S });
      const c1 = mainThreadCpuUs();
      const a = await load.run({ ...appSpec, duration: ROUND_S });
      const c2 = mainThreadCpuUs();
      if (a.non2xx > 0 || a.errors > 0) warnOrFail(log, `round ${i + 1}: ${a.non2xx} non-2xx, ${a.errors} errors`);
      const round = {
        bare: b.rps,
        app: a.rps,
        bareCpu: c0 === null || c1 === null ? null : (c1 - c0) / b.total,
        appCpu: c1 === null || c2 === null ? null : (c2 - c1) / a.total,
      };
      rounds.push(round);
      log(
        `  round ${i + 1}: bare ${fmt(b.rps)} req/s, GET /v1/jobs/{id} ${fmt(a.rps)} req/s, ratio ${fmt(a.rps / b.rps, 3)}` +
          (round.appCpu === null
            ? ''
            : `; main thread ${fmt(round.bareCpu!, 1)} and ${fmt(round.appCpu, 1)} µs/request`),
      );
    }
    const report = renderReport({ describe, rounds, seconds: (Date.now() - started) / 1000 });
    console.log(report);
    const engine = databaseUrl ? 'postgres' : 'sqlite';
    if (saveReport(`job-read-latest-${engine}${QUICK ? '-quick' : ''}.md`, report)) log('written to bench/results/');
  } finally {
    for (const c of closing) await c.close();
    await load.stop();
    await drop();
  }
}

function renderReport(o: { describe: string; rounds: Round[]; seconds: number }): string {
  const cpu = o.rounds.every((r) => r.appCpu !== null);
  const lines = [
    `GET /v1/jobs/{id} against the bare route, interleaved${MODE_LABEL}: ${new Date().toISOString().slice(0, 16)} UTC, ${revision()}`,
    `${o.describe}; ${fmt(JOBS)} jobs; ${CONNECTIONS} connections; ${ROUNDS} rounds of ${ROUND_S} s a side; load ${loadNow()}; ${fmt(o.seconds)} s`,
    '',
    `| Round | Bare route req/s | GET /v1/jobs/{id} req/s | Ratio |${cpu ? ' Bare µs/request (main thread) | App µs/request | Bare ÷ app CPU |' : ''}`,
    `|---:|---:|---:|---:|${cpu ? '---:|---:|---:|' : ''}`,
    ...o.rounds.map(
      (r, i) =>
        `| ${i + 1} | ${fmt(r.bare)} | ${fmt(r.app)} | ${fmt(r.app / r.bare, 3)} |` +
        (cpu ? ` ${fmt(r.bareCpu!, 1)} | ${fmt(r.appCpu!, 1)} | ${fmt(r.bareCpu! / r.appCpu!, 3)} |` : ''),
    ),
    `| median | | | ${fmt(median(o.rounds.map((r) => r.app / r.bare)), 3)} |` +
      (cpu
        ? ` ${fmt(median(o.rounds.map((r) => r.bareCpu!)), 1)} | ${fmt(median(o.rounds.map((r) => r.appCpu!)), 1)} | ${fmt(median(o.rounds.map((r) => r.bareCpu! / r.appCpu!)), 3)} |`
        : ''),
  ];
  return lines.join('\n');
}

await main();
// The pool and the load worker are closed in main; exit explicitly in case a handle lingers.
process.exit(0);
