// What a phase of the busy day records per kind of call: every latency (so percentiles are exact),
// how many answers were the designed 4xx (a job name already taken, a declined test card), and
// every other failure (a 5xx, an unexpected status, a network error), with the first few kept
// verbatim for the report.
import { KINDS, type Group, type Kind } from './mix.ts';

export type Outcome = 'ok' | 'designed' | 'error';

interface Tally {
  latencies: number[];
  designed: number;
  errors: number;
  samples: string[];
}

export interface KindSummary {
  kind: Kind;
  label: string;
  group: Group;
  calls: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  designed: number;
  errors: number;
  samples: string[];
}

export interface GroupSummary {
  calls: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

/** The q-quantile of ascending values (the value at rank floor(q·n), as bench/load.ts takes them). */
export const quantile = (sorted: readonly number[], q: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

const SAMPLES_KEPT = 5;

export class Recorder {
  private readonly tallies = new Map<Kind, Tally>();
  /** How late the flows started against their planned arrival (the load process's own lag), ms. */
  readonly startLag: number[] = [];
  /** Arrivals not started because too many flows were still in flight (the server fell behind). */
  dropped = 0;
  /** Flows that threw (an answer not shaped as the flow expected): a bug here or in the server. */
  readonly flowErrors: string[] = [];

  record(kind: Kind, ms: number, outcome: Outcome, note?: string): void {
    let t = this.tallies.get(kind);
    if (!t) {
      t = { latencies: [], designed: 0, errors: 0, samples: [] };
      this.tallies.set(kind, t);
    }
    t.latencies.push(ms);
    if (outcome === 'designed') t.designed++;
    if (outcome === 'error') {
      t.errors++;
      if (t.samples.length < SAMPLES_KEPT && note) t.samples.push(note);
    }
  }

  /** Another recorder's failures (not its calls' times): a warm-up's errors still count. */
  takeErrors(other: Recorder): void {
    for (const [kind, t] of other.tallies) {
      if (t.errors === 0) continue;
      for (let i = 0; i < t.errors; i++) this.record(kind, 0, 'error', t.samples[i]);
      this.tallies.get(kind)!.latencies.splice(-t.errors);
    }
    this.flowErrors.push(...other.flowErrors);
  }

  /** Per kind, in the order KINDS lists them; `seconds` is the measured window. */
  kinds(seconds: number): KindSummary[] {
    const out: KindSummary[] = [];
    for (const kind of Object.keys(KINDS) as Kind[]) {
      const t = this.tallies.get(kind);
      if (!t) continue;
      const sorted = [...t.latencies].sort((a, b) => a - b);
      out.push({
        kind,
        label: KINDS[kind].label,
        group: KINDS[kind].group,
        calls: sorted.length,
        perSecond: sorted.length / seconds,
        p50: quantile(sorted, 0.5),
        p99: quantile(sorted, 0.99),
        max: sorted.at(-1) ?? Number.NaN,
        designed: t.designed,
        errors: t.errors,
        samples: t.samples,
      });
    }
    return out;
  }

  /** Every call of a group together (the read p99 is over all reads, whatever their kind). */
  group(group: Group, seconds: number): GroupSummary {
    const all: number[] = [];
    let errors = 0;
    for (const [kind, t] of this.tallies) {
      if (KINDS[kind].group !== group) continue;
      all.push(...t.latencies);
      errors += t.errors;
    }
    all.sort((a, b) => a - b);
    return {
      calls: all.length,
      perSecond: all.length / seconds,
      p50: quantile(all, 0.5),
      p99: quantile(all, 0.99),
      errors,
    };
  }
}
