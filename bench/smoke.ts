// Runs every benchmark in its smoke mode (--smoke, bench/mode.ts: seconds each, toy sizes), one
// after another, so none rots unseen: CI runs this after the tests (.ci/run). A benchmark passes
// when it exits 0; its output is shown only when it fails.
//
//   npm run bench:smoke                             every benchmark on SQLite
//   DATABASE_URL=postgres://… npm run bench:smoke   on PostgreSQL: those with SQL of their own for it
//   DATABASE_URL=postgres://… npm run bench:smoke -- --all   every benchmark on PostgreSQL
//   npm run bench:smoke -- jobs mail                some of them
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

async function main(): Promise<number> {
  const missing = unlisted();
  if (missing.length > 0) {
    console.error(`bench/smoke.ts: not listed in BENCHES and imported by no benchmark: ${missing.join(', ')}`);
    return 1;
  }
  const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const url = process.env.DATABASE_URL;
  const postgres = url !== undefined && isPostgresUrl(url);
  const engine = postgres ? 'PostgreSQL' : 'SQLite';
  const chosen = BENCHES.filter((b) =>
    only.length > 0
      ? only.includes(b.script.replace(/\.ts$/, ''))
      : !postgres || b.postgres || process.argv.includes('--all'),
  );
  console.log(`Benchmarks in smoke mode on ${engine}:`);
  const t0 = performance.now();
  let failed = 0;
  for (const bench of chosen) {
    const r = await run(bench);
    const ok = r.code === 0;
    console.log(`  ${ok ? 'ok  ' : 'FAIL'} bench/${bench.script.padEnd(18)} ${(r.ms / 1000).toFixed(1).padStart(5)} s`);
    if (!ok) {
      failed++;
      const lines = r.output.trimEnd().split('\n');
      console.log(`    exit ${r.code}; last lines of its output:`);
      for (const line of lines.slice(-40)) console.log(`    | ${line}`);
    }
  }
  console.log(
    `${chosen.length - failed} of ${chosen.length} benchmarks passed in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
  return failed > 0 ? 1 : 0;
}

process.exitCode = await main();
