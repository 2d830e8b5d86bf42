// Leads benchmark (docs/performance.md, "Leads"): POST /v1/leads (the full intake: match or create
// the person and their company, open the job with its site, route, add the Call new lead follow-up,
// save the lead and queue the alert, in one transaction) against POST /v1/jobs (customer, site and
// job) in the same run. The target: leads at 0.5x the job create or better.
//
//   npm run bench:leads                       SQLite file database in a temp dir
//   DATABASE_URL=postgres://… npm run bench:leads   PostgreSQL (a fresh schema, dropped afterwards)
//   npm run bench:leads -- --quick            smoke run: one short round
//
// Every request creates new records (a new person, company and address each time), so the intake
// measured is the creating one, not the cheaper matching one. The two routes alternate over several
// short rounds, so a change in the machine's other load falls on both sides of the ratio. The
// client is a fixed number of keep-alive connections (fetch) in this process, the same for both.
import { performance } from 'node:perf_hooks';
import { buildApp } from '#src/app.ts';
import { isPostgresUrl } from '#src/config.ts';
import { dropOnInterrupt, openBenchDatabase } from './database.ts';
import { fmt, listen, loadNow, ms, revision } from './load.ts';
import { benchWorkspace } from './workspace.ts';

const QUICK = process.argv.includes('--quick');
const ROUND_S = QUICK ? 2 : 4;
const ROUNDS = QUICK ? 1 : 5;
// Long enough for V8 to finish optimising both routes: with 1 s the job create was still speeding
// up by half from one round to the next, faster than the intake, which skewed the early rounds.
const WARMUP_S = QUICK ? 1 : 5;
const CONNECTIONS = 8;
const TARGET = 0.5;

const databaseUrl =
  process.env.DATABASE_URL && isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : null;

interface Result {
  done: number;
  seconds: number;
  latencies: number[];
  failures: number;
}

let serial = 0;
const bodies = {
  job: () => {
    const n = ++serial;
    return {
      name: `Bench job ${n}`,
      company: `Bench Customer ${n}`,
      address: `${n} Bench Ave, Columbus, OH 43215`,
      contact_name: `Person ${n}`,
      contact_email: `person${n}@bench.example.com`,
      contact_phone: '6145550100',
      job_type: ['Sealcoating'],
      description: 'Our lot needs sealing before winter.',
    };
  },
  lead: () => {
    const n = ++serial;
    return {
      name: `Person ${n}`,
      company: `Bench Customer ${n}`,
      address: `${n} Bench Ave, Columbus, OH 43215`,
      email: `person${n}@bench.example.com`,
      phone: `614555${String(n % 10_000).padStart(4, '0')}`,
      services: ['Sealcoating'],
      timing: 'this_season',
      message: 'Our lot needs sealing before winter.',
    };
  },
};

async function run(url: string, key: string, body: () => unknown, seconds: number): Promise<Result> {
  const end = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  let failures = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        const s = performance.now();
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify(body()),
        });
        await res.arrayBuffer();
        if (res.status !== 201) {
          failures++;
          if (failures === 1) console.error(`  ${url}: ${res.status}`);
        } else latencies.push(performance.now() - s);
      }
    }),
  );
  return { done: latencies.length, seconds: (performance.now() - t0) / 1000, latencies, failures };
}

const pct = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

async function main(): Promise<void> {
  const { database, describe, drop } = await openBenchDatabase({ url: databaseUrl, label: 'leads' });
  dropOnInterrupt(drop);
  try {
    console.error(`engine: ${describe}`);
    const { key } = await benchWorkspace(database);
    const app = await buildApp(database, {
      adminToken: null,
      rateLimit: { max: 1e9, windowMs: 1000 },
      logLevel: false,
    });
    const api = await listen(app);
    const routes = { job: `${api}/v1/jobs`, lead: `${api}/v1/leads` } as const;
    await run(routes.job, key, bodies.job, WARMUP_S);
    await run(routes.lead, key, bodies.lead, WARMUP_S);
    const all: Record<'job' | 'lead', Result[]> = { job: [], lead: [] };
    const ratios: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 === 1 ? (['job', 'lead'] as const) : (['lead', 'job'] as const);
      const got: Partial<Record<'job' | 'lead', Result>> = {};
      for (const which of order) {
        got[which] = await run(routes[which], key, bodies[which], ROUND_S);
        all[which].push(got[which]!);
      }
      const rate = (r: Result) => r.done / r.seconds;
      ratios.push(rate(got.lead!) / rate(got.job!));
      console.error(
        `round ${round}: jobs ${fmt(rate(got.job!))}/s, leads ${fmt(rate(got.lead!))}/s, ratio ${ratios.at(-1)!.toFixed(2)} (load ${loadNow()})`,
      );
    }
    const summary = (which: 'job' | 'lead') => {
      const rs = all[which];
      const lat = rs.flatMap((r) => r.latencies).sort((a, b) => a - b);
      const rps = rs.reduce((a, r) => a + r.done, 0) / rs.reduce((a, r) => a + r.seconds, 0);
      return { rps, p50: pct(lat, 0.5), p99: pct(lat, 0.99), failures: rs.reduce((a, r) => a + r.failures, 0) };
    };
    const job = summary('job');
    const lead = summary('lead');
    const ratio = lead.rps / job.rps;
    const lines = [
      `Leads benchmark, ${new Date().toISOString().slice(0, 10)}, ${revision()}`,
      `${describe}; ${CONNECTIONS} connections, ${ROUNDS} alternated rounds of ${ROUND_S} s after ${WARMUP_S} s warm-up each`,
      '',
      '| Route | req/s | p50 ms | p99 ms | failed |',
      '|---|---:|---:|---:|---:|',
      `| POST /v1/jobs (customer, site, job) | ${fmt(job.rps)} | ${ms(job.p50)} | ${ms(job.p99)} | ${job.failures} |`,
      `| POST /v1/leads (full intake) | ${fmt(lead.rps)} | ${ms(lead.p50)} | ${ms(lead.p99)} | ${lead.failures} |`,
      '',
      `Ratio leads / jobs: ${ratio.toFixed(2)} (rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')}); target ≥ ${TARGET}: ${ratio >= TARGET ? 'met' : 'NOT met'}.`,
    ];
    console.log(lines.join('\n'));
    await app.close();
  } finally {
    await drop();
  }
}

await main();
