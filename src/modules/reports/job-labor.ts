// The labor cost of time entries, as month-end-job-cost.ts and bid-vs-actual.ts count it: each
// closed, not void entry with a pay rate, at its snapshot rate with overtime 1.5x and doubletime 2x,
// by the payroll engine's split of each worker's whole week (shop time and other jobs included): the
// labor rows of GET /v1/jobs/{id}/costs. The workers' entries from a week before the first counted
// one to a week after the last are read once; the split is the engine's, in JavaScript (the
// overtime rule needs each worker-week's running total in clock-in order and local weeks in an IANA
// zone). Another part of a report may share it by passing its jobs as a subquery of ids.
import { type SelectQueryBuilder, sql } from 'kysely';
import type { DB } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { millisOf, storedAt } from '#platform/time.ts';
import { laborCostCents, splitOvertime } from '#engines/payroll/index.ts';
import { countedTime } from './counted-time.ts';

/** A week and a day on each side cover every zone's offset: all entries sharing a week with these. */
const REACH_MS = 8 * 86_400_000;

/** A closed, not void time entry as the overtime split reads it. */
interface ClockedEntry {
  id: number;
  user_id: number;
  clock_in: string;
  clock_out: string | null;
}

/**
 * Every counted entry of `userIds` clocked in from `fromMs` - REACH_MS to `toMs` + REACH_MS (a week
 * and a day around: all entries sharing a week with an entry in between), with `extra` columns.
 */
function workerWeeks(
  ctx: ServiceContext,
  userIds: readonly number[],
  fromMs: number,
  toMs: number,
  // biome-ignore lint/suspicious/noExplicitAny: extra selections of the report's own
  extra: readonly any[] = [],
) {
  return ctx.database.db
    .selectFrom('time_entries')
    .select(['id', 'user_id', 'clock_in', 'clock_out', ...extra])
    .where('firm_id', '=', ctx.auth.firm.id)
    .where('user_id', 'in', [...userIds])
    .where('clock_in', '>=', storedAt(fromMs - REACH_MS))
    .where('clock_in', '<', storedAt(toMs + REACH_MS))
    .where(countedTime)
    .execute() as Promise<(ClockedEntry & Record<string, unknown>)[]>;
}

/** The payroll engine's split of each worker's weeks, by entry id. */
const splitOf = (ctx: ServiceContext, weeks: readonly ClockedEntry[]) =>
  splitOvertime(
    weeks.map((e) => ({
      id: Number(e.id),
      userId: Number(e.user_id),
      clockInMs: millisOf(e.clock_in),
      clockOutMs: millisOf(e.clock_out!),
    })),
    ctx.auth.firm.timezone,
    ctx.auth.settings.week_start,
  );

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
  const splits = splitOf(ctx, await workerWeeks(ctx, userIds, min, max));
  for (const e of entries) {
    const split = splits.get(Number(e.id));
    if (split && e.pay_rate_cents !== null) out.set(Number(e.id), laborCostCents(Number(e.pay_rate_cents), split));
  }
  return out;
}

/**
 * Labor cost in cents per job id, over the time entries of the jobs `jobIds` selects (one column, the
 * id). Two reads: the workers with paid time on those jobs and its first and last clock-in (a
 * GROUP BY), then every counted entry of those workers' weeks, each marked whether it is one of the
 * jobs' (read once, where reading the jobs' entries and then the weeks around them read those twice).
 */
export async function laborCentsByJob(
  ctx: ServiceContext,
  // biome-ignore lint/suspicious/noExplicitAny: a subquery of job ids from any scope
  jobIds: SelectQueryBuilder<DB, any, { id: number }>,
): Promise<Map<number, number>> {
  // Paid time on one of the jobs: what the workers are found by, and the entries whose labor counts.
  const paidOnJob = sql<boolean>`(time_entries.job_id in (${jobIds}) and time_entries.pay_rate_cents is not null)`;
  const workers = await ctx.database.db
    .selectFrom('time_entries')
    .select(['user_id', sql<string>`min(clock_in)`.as('first'), sql<string>`max(clock_in)`.as('last')])
    .where('firm_id', '=', ctx.auth.firm.id)
    .where(countedTime)
    .where(paidOnJob)
    .groupBy('user_id')
    .execute();
  const out = new Map<number, number>();
  if (workers.length === 0) return out;
  const first = Math.min(...workers.map((w) => millisOf(w.first)));
  const last = Math.max(...workers.map((w) => millisOf(w.last)));
  const weeks = await workerWeeks(
    ctx,
    workers.map((w) => Number(w.user_id)),
    first,
    last,
    ['job_id', 'pay_rate_cents', sql<number>`case when ${paidOnJob} then 1 else 0 end`.as('on_job')],
  );
  const splits = splitOf(ctx, weeks);
  for (const e of weeks) {
    if (Number(e.on_job) !== 1) continue;
    const job = Number(e.job_id);
    const cents = laborCostCents(Number(e.pay_rate_cents), splits.get(Number(e.id))!);
    out.set(job, (out.get(job) ?? 0) + cents);
  }
  return out;
}
