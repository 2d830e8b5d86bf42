// A busy day, measured (docs/performance.md, "A busy day"): the server run as `npm start` runs it
// (a process of its own, its worker on) and, from a separate load process, the traffic of 50
// workspaces of a typical size for a fixed time: sync clients paging updated_after lists and
// exports, an integrator creating customers, sites, jobs and estimates, webhook receivers (some
// slow, some failing, one down), customers opening proposal and invoice pages and paying with a
// test card, photo uploads, MCP tool calls and search (bench/day/mix.ts has the rates). Then the
// same traffic for more and more workspaces, to find how many one server carries with reads' p99
// under 100 ms. Per kind of call: throughput, p50 and p99, designed 4xx and errors; webhook delivery
// lag; the server's RSS and CPU. SQLite, then PostgreSQL when DATABASE_URL names it, side by side.
//
//   npm run bench:day                                 SQLite (about 12 min)
//   DATABASE_URL=postgres://… npm run bench:day       SQLite, then PostgreSQL (about 35 min)
//   npm run bench:day -- --quick                      a 60 s day and 15 s sizing steps (5–10 min an engine)
//   npm run bench:day -- --smoke                      seconds, 2 small workspaces, every flow once, for CI (bench/mode.ts)
//   npm run bench:day -- --engine=postgres            one engine only (sqlite or postgres)
//
// Results go to stdout as markdown and to bench/results/day-latest.md.
import { isPostgresUrl } from '#src/config.ts';
import { log } from './rounds.ts';
import { type EngineResult, type Plan, runEngine } from './day/engine-run.ts';
import { dayReport } from './day/report.ts';
import { saveReport, sized, warnOrFail } from './mode.ts';

const PLAN: Plan = {
  dayS: sized(240, 60, 3),
  warmupS: sized(15, 5, 1),
  stepS: sized(45, 15, 2),
  maxSteps: sized(8, 6, 2),
  resolution: sized(1.2, 1.4, 100),
  confirm: sized(true, true, false),
  tour: sized(false, false, true),
  sampleMs: sized(2_000, 1_000, 250),
  settleS: sized(10, 5, 2),
};

const pgUrl = process.env.DATABASE_URL && isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : null;
const only = process.argv.find((a) => a.startsWith('--engine='))?.slice('--engine='.length);
if (only !== undefined && only !== 'sqlite' && only !== 'postgres')
  throw new Error('--engine takes sqlite or postgres');
if (only === 'postgres' && !pgUrl) throw new Error('--engine=postgres needs DATABASE_URL=postgres://…');
const engines = (['sqlite', 'postgres'] as const).filter(
  (e) => (only === undefined || only === e) && (e === 'sqlite' || pgUrl),
);

async function main(): Promise<void> {
  const cleanups = new Set<() => Promise<void>>();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      // What was running fails as its server, database or connection goes away: that is expected now.
      process.on('unhandledRejection', () => {});
      process.on('uncaughtException', () => {});
      void (async () => {
        for (const c of [...cleanups].reverse()) await c().catch(() => {});
      })().finally(() => process.exit(130));
    });
  }
  const results: EngineResult[] = [];
  for (const engine of engines) results.push(await runEngine(engine, pgUrl, PLAN, cleanups));
  const report = dayReport(results, PLAN);
  console.log(report);
  const saved = saveReport('day-latest.md', report);
  // Every figure of every step, for a closer look than the report's tables.
  saveReport('day-latest.json', JSON.stringify(results, null, 1));
  if (saved) log(`written to ${saved} (and day-latest.json beside it)`);
  for (const r of results) {
    const errors = r.steps.reduce((a, s) => a + s.phase.kinds.reduce((b, k) => b + k.errors, 0), 0);
    const flowErrors = r.steps.reduce((a, s) => a + s.phase.flowErrors.length, 0);
    if (errors + flowErrors > 0)
      warnOrFail(log, `${r.engine}: ${errors + flowErrors} calls failed (not the designed 4xx)`);
    if (r.log.fiveXx + r.log.errors > 0)
      warnOrFail(log, `${r.engine}: the server logged ${r.log.fiveXx} answers of 5xx and ${r.log.errors} errors`);
  }
}

await main();
