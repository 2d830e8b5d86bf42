// Timing sides against each other, round by round (bench/measurement.ts, bench/landscape.ts): each
// side's calls run one at a time, the order of the sides reversed every other round so a change in
// the machine's other load falls on all of them; a round's figure is its median, and a ratio is
// taken per round and then its median over the rounds. Also the report's table and ratio lines.
import { performance } from 'node:perf_hooks';
import { fmt, loadNow, ms } from './load.ts';

const started = Date.now();
/** A progress line on stderr, stamped with the seconds since the script started. */
export const log = (msg: string) =>
  console.error(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${msg}`);

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0
    ? Number.NaN
    : s.length % 2
      ? s[(s.length - 1) / 2]!
      : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
/** This process's CPU time so far, µs (user and system). */
export const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

export interface Side {
  label: string;
  /** Untimed, before each call (a fresh copy of the state to edit, a new takeoff to detect on). */
  before?: () => Promise<void> | void;
  run: () => Promise<void>;
  /** Untimed, after each call (the measurement read again after a save). */
  after?: () => Promise<void>;
}
export interface Row {
  round: number;
  label: string;
  p50: number;
  min: number;
  /** Calls a second, one at a time: calls over the time spent in them. */
  rps: number;
  /** This process's CPU (the app, the client, the tile server, libvips) per call, ms, timed calls only. */
  cpuMs: number;
  calls: number;
  load: string;
}

export interface RoundPlan {
  /** Unmeasured calls of each side first (JIT, libvips' start, OpenCV's WebAssembly compile, the tiles drawn). */
  warmup: number;
  rounds: number;
  /** Calls of each side per round, one at a time; the round's figure is their median. */
  perRound: number;
  /** …and at least this long per side and round, so the fast sides take many samples. */
  minSideS: number;
}

/**
 * `plan.warmup` unmeasured calls of each side, then `plan.rounds` rounds of at least `perRound`
 * calls of each (and `minSideS`), one at a time, the order of the sides reversed every other
 * round. Only `run` is timed.
 */
export async function alternate(what: string, sides: Side[], plan: RoundPlan): Promise<Row[]> {
  const call = async (side: Side): Promise<{ ms: number; cpu: number }> => {
    await side.before?.();
    const cpu0 = cpuNow();
    const t0 = performance.now();
    await side.run();
    const took = performance.now() - t0;
    const cpu = cpuNow() - cpu0;
    await side.after?.();
    return { ms: took, cpu };
  };
  for (const side of sides) for (let i = 0; i < plan.warmup; i++) await call(side);
  const rows: Row[] = [];
  for (let round = 1; round <= plan.rounds; round++) {
    const order = round % 2 === 1 ? sides : [...sides].reverse();
    for (const side of order) {
      const load = loadNow();
      const times: number[] = [];
      let cpu = 0;
      const until = performance.now() + plan.minSideS * 1000;
      while (times.length < plan.perRound || performance.now() < until) {
        const c = await call(side);
        times.push(c.ms);
        cpu += c.cpu;
      }
      const row: Row = {
        round,
        label: side.label,
        p50: median(times),
        min: Math.min(...times),
        rps: (1000 * times.length) / times.reduce((a, b) => a + b, 0),
        cpuMs: cpu / 1000 / times.length,
        calls: times.length,
        load,
      };
      rows.push(row);
      log(
        `${what}, round ${round}, ${side.label}: p50 ${ms(row.p50)} ms, CPU ${fmt(row.cpuMs, 1)} ms each (load ${load})`,
      );
    }
  }
  return rows;
}

/** Per round, the measured side's p50 over the baseline's; and their median. */
export function ratios(rows: Row[], measured: string, baseline: string): { each: number[]; median: number } {
  const each: number[] = [];
  for (const round of new Set(rows.map((r) => r.round))) {
    const m = rows.find((r) => r.round === round && r.label === measured)!;
    const b = rows.find((r) => r.round === round && r.label === baseline)!;
    each.push(m.p50 / b.p50);
  }
  return { each, median: median(each) };
}

/** A side's p50, the median over the rounds. */
export const p50Of = (rows: Row[], label: string) => median(rows.filter((r) => r.label === label).map((r) => r.p50));

export function roundTable(rows: Row[], withRps = false): string[] {
  return [
    `| Round | What | calls | p50 ms | min ms |${withRps ? ' req/s |' : ''} CPU ms each | load (1/5/15 min) |`,
    `|---:|---|---:|---:|---:|${withRps ? '---:|' : ''}---:|---|`,
    ...rows.map(
      (r) =>
        `| ${r.round} | ${r.label} | ${r.calls} | ${ms(r.p50)} | ${ms(r.min)} |${withRps ? ` ${fmt(r.rps, 1)} |` : ''} ${fmt(r.cpuMs, 1)} | ${r.load} |`,
    ),
  ];
}

export const ratioLine = (r: { each: number[]; median: number }) =>
  `${r.each.map((x) => x.toFixed(2)).join(', ')} → **${r.median.toFixed(2)}**`;
export const verdict = (r: { median: number }, target: number) =>
  `target ≤ ${target}: ${r.median <= target ? 'met' : 'NOT met'}`;
