// The labor cost of time entries, as month-end-job-cost.ts and bid-vs-actual.ts count it: each
// closed, not void entry with a pay rate, at its snapshot rate with overtime 1.5x and doubletime 2x, by the
// payroll engine's split of each worker's whole week (shop time and other jobs included): the labor
// rows of GET /v1/jobs/{id}/costs. Two queries: the jobs' entries, then those workers' entries from a
// week before the first to a week after the last; the split is the engine's, in JavaScript (the
// overtime rule needs each worker-week's running total in clock-in order and local weeks in an IANA
// zone). Another part of a report may share it by passing its jobs as a subquery of ids.
import type { SelectQueryBuilder } from 'kysely';
import type { DB } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { millisOf, storedAt } from '#platform/time.ts';
import { laborCostCents, splitOvertime } from '#engines/payroll/overtime.ts';
import { countedTime } from './counted-time.ts';

/** A week and a day on each side cover every zone's offset: all entries sharing a week with these. */
const REACH_MS = 8 * 86_400_000;

/**
 * The labor cost (cents) of each job time entry: the payroll engine's split of each worker's weeks
 * (every closed, not void entry of those workers in the weeks around them, on any job or shop time),
 * at the entry's snapshot rate: what GET /v1/jobs/{id}/costs shows for it (time-entries/hours.ts).
 */
export async function laborOfEntries(
  ctx: ServiceContext,
  entries: readonly {
    id: number;
    user_id: number;
    clock_in: string;
    clock_out: string | null;
    pay_rate_cents: number | null;
  }[],
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (entries.length === 0) return out;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const e of entries) {
    const at = millisOf(e.clock_in);
    if (at < min) min = at;
    if (at > max) max = at;
  }
  const userIds = [...new Set(entries.map((e) => Number(e.user_id)))];
  const weeks = await ctx.database.db
    .selectFrom('time_entries')
    .select(['id', 'user_id', 'clock_in', 'clock_out'])
    .where('firm_id', '=', ctx.auth.firm.id)
    .where('user_id', 'in', userIds)
    .where('clock_in', '>=', storedAt(min - REACH_MS))
    .where('clock_in', '<', storedAt(max + REACH_MS))
    .where(countedTime)
    .execute();
  const splits = splitOvertime(
    weeks.map((e) => ({
      id: Number(e.id),
      userId: Number(e.user_id),
      clockInMs: millisOf(e.clock_in),
      clockOutMs: millisOf(e.clock_out!),
    })),
    ctx.auth.firm.timezone,
    ctx.auth.settings.week_start,
  );
  for (const e of entries) {
    const split = splits.get(Number(e.id));
    if (split && e.pay_rate_cents !== null) out.set(Number(e.id), laborCostCents(Number(e.pay_rate_cents), split));
  }
  return out;
}

/** Labor cost in cents per job id, over the time entries of the jobs `jobIds` selects (one column, the id). */
export async function laborCentsByJob(
  ctx: ServiceContext,
  // biome-ignore lint/suspicious/noExplicitAny: a subquery of job ids from any scope
  jobIds: SelectQueryBuilder<DB, any, { id: number }>,
): Promise<Map<number, number>> {
  const entries = await ctx.database.db
    .selectFrom('time_entries')
    .select(['id', 'user_id', 'job_id', 'clock_in', 'clock_out', 'pay_rate_cents'])
    .where('firm_id', '=', ctx.auth.firm.id)
    .where('job_id', 'in', jobIds)
    .where(countedTime)
    .where('pay_rate_cents', 'is not', null)
    .execute();
  const jobOf = new Map(entries.map((e) => [Number(e.id), Number(e.job_id)]));
  const out = new Map<number, number>();
  for (const [id, cents] of await laborOfEntries(ctx, entries)) {
    const job = jobOf.get(id)!;
    out.set(job, (out.get(job) ?? 0) + cents);
  }
  return out;
}
