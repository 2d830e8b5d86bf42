// Runs every benchmark in its smoke mode (--smoke, bench/mode.ts: seconds each, toy sizes), one
// after another, so none rots unseen: CI runs this after the tests (.ci/run). A benchmark passes
// when it exits 0; its output is shown only when it fails.
//
//   npm run bench:smoke                             every benchmark on SQLite
//   DATABASE_URL=postgres://… npm run bench:smoke   on PostgreSQL: those with SQL of their own for it
//   DATABASE_URL=postgres://… npm run bench:smoke -- --all   every benchmark on PostgreSQL
//   npm run bench:smoke -- jobs mail                some of them
//   npm run bench:smoke -- --jobs 1                 one at a time (two by default)
//
// Two run at once: a smoke run's figures mean nothing (bench/mode.ts), and most of a smoke run is
// one core loading and compiling the server, so two side by side keep both cores of a CI machine
// busy and finish in a little over half the time of one after another.
//
// Most benchmarks reach PostgreSQL only through the app and bench/database.ts, which the test
// suite's PostgreSQL run covers; the ones marked `postgres` also run SQL written for PostgreSQL
// (bench/seed.ts's generate_series, search's trigram queries, photos' VACUUM and EXPLAIN), so CI
// smoke-runs those on both engines and the rest on SQLite only.
//
// A new script in bench/ must be listed below or be imported by one that is (a helper); this
// run fails on one that is neither, so a benchmark cannot be added without its smoke run.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { isPostgresUrl } from '#src/config.ts';

interface Bench {
  script: string;
  /** The Node flags it is documented to run with. */
  node?: string[];
  /** It runs PostgreSQL-only SQL of its own: smoke-run on PostgreSQL too. */
  postgres?: boolean;
}

export const BENCHES: readonly Bench[] = [
  { script: 'jobs.ts', postgres: true },
  { script: 'job-read.ts' },
  { script: 'webhooks.ts' },
  { script: 'exports.ts', node: ['--expose-gc'] },
  { script: 'search.ts', postgres: true },
  { script: 'estimates.ts' },
  { script: 'mcp.ts' },
  { script: 'photos.ts', postgres: true },
  { script: 'leads.ts' },
  { script: 'mail.ts' },
  { script: 'proposal-pdf.ts' },
  { script: 'proposal-page.ts' },
  { script: 'invoices.ts' },
  { script: 'operations.ts' },
  { script: 'condition.ts' },
  { script: 'measurement.ts', postgres: true },
  { script: 'landscape.ts' },
  { script: 'reports.ts', postgres: true },
  { script: 'day.ts', postgres: true },
];
/** Longest one smoke run may take before it counts as hung. */
const TIMEOUT_MS = 180_000;

const here = path.dirname(fileURLToPath(import.meta.url));

/** bench/ files that are neither listed nor imported by another bench file. */
function unlisted(): string[] {
  const files = fs.readdirSync(here).filter((f) => f.endsWith('.ts'));
  const used = new Set<string>(['smoke.ts', ...BENCHES.map((b) => b.script)]);
  for (const f of files) {
    for (const m of fs.readFileSync(path.join(here, f), 'utf8').matchAll(/from '\.\/([\w-]+\.ts)'/g)) used.add(m[1]);
  }
  return files.filter((f) => !used.has(f));
}

function run(bench: Bench): Promise<{ code: number | null; output: string; ms: number }> {
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [...(bench.node ?? []), '--import', 'tsx', path.join(here, bench.script), '--smoke'],
    { cwd: path.dirname(here), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const chunks: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => chunks.push(c));
  child.stderr.on('data', (c: Buffer) => chunks.push(c));
  const timer = setTimeout(() => {
    chunks.push(Buffer.from(`\n(killed after ${TIMEOUT_MS / 1000} s)\n`));
    child.kill('SIGKILL');
  }, TIMEOUT_MS);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output: Buffer.concat(chunks).toString(), ms: performance.now() - t0 });
    });
  });
}

/** How many benchmarks run at once: `--jobs N`, two by default. */
function jobsOption(): number {
  const at = process.argv.indexOf('--jobs');
  if (at < 0) return 2;
  const n = Number(process.argv[at + 1]);
  if (!Number.isInteger(n) || n < 1) throw new Error('--jobs takes a whole number of at least 1');
  return n;
}

async function main(): Promise<number> {
  const missing = unlisted();
  if (missing.length > 0) {
    console.error(`bench/smoke.ts: not listed in BENCHES and imported by no benchmark: ${missing.join(', ')}`);
    return 1;
  }
  const args = process.argv.slice(2);
  const only = args.filter((a, i) => !a.startsWith('-') && args[i - 1] !== '--jobs');
  const url = process.env.DATABASE_URL;
  const postgres = url !== undefined && isPostgresUrl(url);
  const engine = postgres ? 'PostgreSQL' : 'SQLite';
  const chosen = BENCHES.filter((b) =>
    only.length > 0
      ? only.includes(b.script.replace(/\.ts$/, ''))
      : !postgres || b.postgres || process.argv.includes('--all'),
  );
  const jobs = jobsOption();
  console.log(`Benchmarks in smoke mode on ${engine}, ${jobs} at a time:`);
  const t0 = performance.now();
  let failed = 0;
  // Each is reported as it ends; its own time is its wall time beside the others.
  let next = 0;
  const worker = async () => {
    while (next < chosen.length) {
      const bench = chosen[next++]!;
      const r = await run(bench);
      const ok = r.code === 0;
      console.log(
        `  ${ok ? 'ok  ' : 'FAIL'} bench/${bench.script.padEnd(18)} ${(r.ms / 1000).toFixed(1).padStart(5)} s`,
      );
      if (!ok) {
        failed++;
        const lines = r.output.trimEnd().split('\n');
        console.log(`    exit ${r.code}; last lines of its output:`);
        for (const line of lines.slice(-40)) console.log(`    | ${line}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, chosen.length) }, worker));
  console.log(
    `${chosen.length - failed} of ${chosen.length} benchmarks passed in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
  return failed > 0 ? 1 : 0;
}

process.exitCode = await main();
