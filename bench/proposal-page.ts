// Proposal page benchmark (docs/performance.md, "Proposals"): the customer's proposal page
// (GET /share/proposals/<token>: a customer open, which counts the view and appends an `opened`
// audit row, then renders the whole document: 40 lines, terms, acceptance form) against
// GET /v1/jobs/{id} in the same run, as p50 latency and request rates. The issue asks for the
// figures, not a target.
//
//   npm run bench:proposal-page                       SQLite file database in a temp dir
//   DATABASE_URL=postgres://… npm run bench:proposal-page   PostgreSQL
//   npm run bench:proposal-page -- --quick            one short round
//   npm run bench:proposal-page -- --smoke            seconds, for CI (bench/mode.ts)
//
// The two alternate over several rounds (autocannon in a worker thread, 8 connections), so a
// change in the machine's other load falls on both sides.
import { buildApp } from '#src/app.ts';
import { isPostgresUrl } from '#src/config.ts';
import { dropOnInterrupt, openBenchDatabase } from './database.ts';
import { fmt, listen, type LoadResult, loadNow, ms, revision, startLoadWorker } from './load.ts';
import { MODE_LABEL, sized, warnOrFail } from './mode.ts';
import { benchWorkspace } from './workspace.ts';

const ROUND_S = sized(4, 2, 0.2);
const ROUNDS = sized(5, 1, 2);
const WARMUP_S = sized(3, 1, 0.1);
const CONNECTIONS = 8;
const LINES = 40;

const databaseUrl =
  process.env.DATABASE_URL && isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : null;

async function main(): Promise<void> {
  const { database, describe, drop } = await openBenchDatabase({ url: databaseUrl, label: 'proposal_page' });
  dropOnInterrupt(drop);
  const load = startLoadWorker(CONNECTIONS);
  try {
    console.error(`engine: ${describe}`);
    const { key } = await benchWorkspace(database);
    const app = await buildApp(database, {
      adminToken: null,
      rateLimit: { max: 1e9, windowMs: 1000 },
      logLevel: false,
    });
    const api = await listen(app);
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${api}${path}`, {
        method,
        headers: { 'x-api-key': key, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await res.json()) as any;
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const job = (
      await call('POST', '/v1/jobs', {
        name: 'Northgate Plaza resurfacing',
        contact_name: 'Dana Smith',
        contact_email: 'dana@example.com',
        address: '4100 Northgate Blvd, Columbus, OH 43229',
      })
    ).data;
    const estimate = (await call('POST', '/v1/estimates', { job_id: job.id })).data;
    for (let i = 1; i <= LINES; i++)
      await call('POST', `/v1/estimates/${estimate.id}/line-items`, {
        name: `Sealcoat section ${i}`,
        unit: 'SF',
        quantity: 1000 + i * 37,
        unit_cost: 0.18,
      });
    const proposal = (await call('POST', `/v1/estimates/${estimate.id}/proposal`)).data;
    await call('PATCH', `/v1/proposals/${proposal.id}`, { deposit_percent: 25 });
    // Out for signature, as the customer finds it. (The send itself, an email, is not what is measured.)
    await database.db.updateTable('proposals').set({ status: 'sent', sent_at: '2026-11-24T12:00:00.000000' }).execute();
    const pagePath = new URL(proposal.share_url).pathname;

    const specs = {
      job: {
        url: `${api}/v1/jobs/${job.id}`,
        method: 'GET' as const,
        headers: { 'x-api-key': key },
        duration: ROUND_S,
      },
      page: { url: `${api}${pagePath}`, method: 'GET' as const, headers: {}, duration: ROUND_S },
    };
    await load.run({ ...specs.job, duration: WARMUP_S });
    await load.run({ ...specs.page, duration: WARMUP_S });
    const all: Record<'job' | 'page', LoadResult[]> = { job: [], page: [] };
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 === 1 ? (['job', 'page'] as const) : (['page', 'job'] as const);
      for (const which of order) all[which].push(await load.run(specs[which]));
      const j = all.job.at(-1)!;
      const p = all.page.at(-1)!;
      console.error(
        `round ${round}: job p50 ${ms(j.p50)} ms (${fmt(j.rps)}/s), page p50 ${ms(p.p50)} ms (${fmt(p.rps)}/s) (load ${loadNow()})`,
      );
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const summary = (rs: LoadResult[]) => ({
      rps: median(rs.map((r) => r.rps)),
      p50: median(rs.map((r) => r.p50)),
      p99: median(rs.map((r) => r.p99)),
      failed: rs.reduce((a, r) => a + r.non2xx + r.errors, 0),
      bytes: rs[0]!.maxBytes,
    });
    const j = summary(all.job);
    const p = summary(all.page);
    if (j.failed + p.failed > 0) warnOrFail(console.error, `${j.failed + p.failed} failed requests`);
    const views = await database.db
      .selectFrom('proposals')
      .select('view_count')
      .where('id', '=', proposal.id)
      .executeTakeFirstOrThrow();
    console.log(
      [
        `Proposal page benchmark${MODE_LABEL}, ${new Date().toISOString().slice(0, 10)}, ${revision()}`,
        `${describe}; ${CONNECTIONS} connections, ${ROUNDS} alternated rounds of ${ROUND_S} s after ${WARMUP_S} s warm-up; a ${LINES}-line proposal`,
        '',
        '| Route | req/s (median round) | p50 ms | p99 ms | bytes | failed |',
        '|---|---:|---:|---:|---:|---:|',
        `| GET /v1/jobs/{id} | ${fmt(j.rps)} | ${ms(j.p50)} | ${ms(j.p99)} | ${fmt(j.bytes)} | ${j.failed} |`,
        `| GET /share/proposals/<token> (customer open) | ${fmt(p.rps)} | ${ms(p.p50)} | ${ms(p.p99)} | ${fmt(p.bytes)} | ${p.failed} |`,
        '',
        `Page p50 / job p50: ${(p.p50 / j.p50).toFixed(2)}; views counted: ${fmt(views.view_count)}.`,
      ].join('\n'),
    );
    await app.close();
  } finally {
    await load.stop();
    await drop();
  }
}

await main();
