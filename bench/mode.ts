// How big a benchmark run is. Every script in bench/ takes the same two flags:
//
//   (none)     the full run: the figures docs/performance.md quotes
//   --quick    a shorter run whose figures are still worth reading
//   --smoke    seconds: every scenario runs once at toy sizes, so CI (bench/smoke.ts) sees the
//              script still starts, runs and finishes; its figures mean nothing and no report is
//              written to bench/results/. What a full run only warns about (non-2xx answers) fails
//              a smoke run.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SMOKE = process.argv.includes('--smoke');
export const QUICK = !SMOKE && process.argv.includes('--quick');

/** The value for this run's mode. */
export function sized<T>(full: T, quick: T, smoke: T): T {
  return SMOKE ? smoke : QUICK ? quick : full;
}

/** ' (quick)' or ' (smoke)' for report titles, '' for a full run. */
export const MODE_LABEL = SMOKE ? ' (smoke)' : QUICK ? ' (quick)' : '';

const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');

/** Writes a report to bench/results/<file> and answers its path; a smoke run writes nothing (null). */
export function saveReport(file: string, report: string): string | null {
  if (SMOKE) return null;
  fs.mkdirSync(resultsDir, { recursive: true });
  const target = path.join(resultsDir, file);
  fs.writeFileSync(target, report);
  return target;
}

/** A problem a full run reports and carries on past; in a smoke run it means the script is broken. */
export function warnOrFail(log: (message: string) => void, message: string): void {
  if (SMOKE) throw new Error(`smoke run: ${message}`);
  log(`WARNING ${message}`);
}
