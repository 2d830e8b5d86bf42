// What the "create X against POST /v1/jobs" benchmarks share (bench/leads.ts, bench/invoices.ts):
// a workspace and app on a fresh bench database, two POST routes with a body made per request, a
// warm-up of each, then alternated rounds (so a change in the machine's other load falls on both
// sides of the ratio) from a fixed number of keep-alive connections (fetch) in this process, and
// the markdown report with the ratio against the target.
import { performance } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import { buildApp } from '#src/app.ts';
import { isPostgresUrl } from '#src/config.ts';
import type { DB } from '#db/tables.ts';
import { dropOnInterrupt, openBenchDatabase } from './database.ts';
import { fmt, listen, loadNow, ms, revision } from './load.ts';
import { MODE_LABEL, sized, warnOrFail } from './mode.ts';
import { benchWorkspace } from './workspace.ts';

export interface Side {
  /** The table's row label: "POST /v1/jobs (customer, site, job)". */
  label: string;
  path: string;
  body: () => unknown;
}

export interface Comparison {
  /** The bench's name (its database label and the report's title). */
  name: string;
  title: string;
  baseline: Side;
  measured: Side;
  /** measured ÷ baseline request rates must reach this. */
  target: number;
  /** Records the measured side needs (a job to bill), made once over HTTP before the warm-up. */
  prepare?: (call: (path: string, body: unknown) => Promise<any>, db: Kysely<DB>) => Promise<void>;
}

interface Result {
  done: number;
  seconds: number;
  latencies: number[];
  failures: number;
}

const ROUND_S = sized(4, 2, 0.25);
const ROUNDS = sized(5, 1, 2);
// Long enough for V8 to finish optimising both routes: with 1 s the job create was still speeding
// up by half from one round to the next, which skewed the early rounds.
const WARMUP_S = sized(5, 1, 0.1);
const CONNECTIONS = 8;

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
        const text = await res.text();
        if (res.status !== 201) {
          failures++;
          if (failures === 1) console.error(`  ${url}: ${res.status} ${text.slice(0, 300)}`);
        } else latencies.push(performance.now() - s);
      }
    }),
  );
  return { done: latencies.length, seconds: (performance.now() - t0) / 1000, latencies, failures };
}

const pct = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

export async function compareCreates(c: Comparison): Promise<void> {
  const url = process.env.DATABASE_URL && isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : null;
  const { database, describe, drop } = await openBenchDatabase({ url, label: c.name });
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
    if (c.prepare)
      await c.prepare(async (path, body) => {
        const res = await fetch(`${api}${path}`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const json = await res.json();
        if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
        return json;
      }, database.db);
    const sides = { baseline: c.baseline, measured: c.measured } as const;
    const urlOf = (s: Side) => `${api}${s.path}`;
    await run(urlOf(c.baseline), key, c.baseline.body, WARMUP_S);
    await run(urlOf(c.measured), key, c.measured.body, WARMUP_S);
    const all: Record<'baseline' | 'measured', Result[]> = { baseline: [], measured: [] };
    const ratios: number[] = [];
    const rate = (r: Result) => r.done / r.seconds;
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 === 1 ? (['baseline', 'measured'] as const) : (['measured', 'baseline'] as const);
      const got: Partial<Record<'baseline' | 'measured', Result>> = {};
      for (const which of order) {
        got[which] = await run(urlOf(sides[which]), key, sides[which].body, ROUND_S);
        all[which].push(got[which]!);
      }
      ratios.push(rate(got.measured!) / rate(got.baseline!));
      console.error(
        `round ${round}: baseline ${fmt(rate(got.baseline!))}/s, measured ${fmt(rate(got.measured!))}/s, ratio ${ratios.at(-1)!.toFixed(2)} (load ${loadNow()})`,
      );
    }
    const summary = (which: 'baseline' | 'measured') => {
      const rs = all[which];
      const lat = rs.flatMap((r) => r.latencies).sort((a, b) => a - b);
      const rps = rs.reduce((a, r) => a + r.done, 0) / rs.reduce((a, r) => a + r.seconds, 0);
      return { rps, p50: pct(lat, 0.5), p99: pct(lat, 0.99), failures: rs.reduce((a, r) => a + r.failures, 0) };
    };
    const b = summary('baseline');
    const m = summary('measured');
    if (b.failures + m.failures > 0) warnOrFail(console.error, `${b.failures + m.failures} failed requests`);
    const ratio = m.rps / b.rps;
    console.log(
      [
        `${c.title}${MODE_LABEL}, ${new Date().toISOString().slice(0, 10)}, ${revision()}`,
        `${describe}; ${CONNECTIONS} connections, ${ROUNDS} alternated rounds of ${ROUND_S} s after ${WARMUP_S} s warm-up each`,
        '',
        '| Route | req/s | p50 ms | p99 ms | failed |',
        '|---|---:|---:|---:|---:|',
        `| ${c.baseline.label} | ${fmt(b.rps)} | ${ms(b.p50)} | ${ms(b.p99)} | ${b.failures} |`,
        `| ${c.measured.label} | ${fmt(m.rps)} | ${ms(m.p50)} | ${ms(m.p99)} | ${m.failures} |`,
        '',
        `Ratio: ${ratio.toFixed(2)} (rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')}); target ≥ ${c.target}: ${ratio >= c.target ? 'met' : 'NOT met'}.`,
      ].join('\n'),
    );
    await app.close();
  } finally {
    await drop();
  }
}
