// What the period reports (kpi, weekly-sales, week-glance, weekly-summary, cash-forecast) share:
// how a record that is not a job (a lead, an invoice, a time entry, a work order) is narrowed by
// the job filters and job visibility, and a time entry's length in SQL.
//
// A record on a job counts when its job is in the report's job scope (jobScope with ranged: false
// and capped: false: every filter and job visibility; the records are bounded by their own dates,
// so no job cap). Without a job filter and for a user who sees every job no subquery is added.
// Leads go by their own columns (assignee, customer) and, for a division or work type filter, by
// their job.
import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { DB } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { can } from '#platform/permissions.ts';
import { addDays } from '#platform/time.ts';
import { ownedBy } from '#crm/index.ts';
import { type JobScope, startOfDay } from './job-scope.ts';
import type { RunParams } from './run-query.ts';

// biome-ignore lint/suspicious/noExplicitAny: the builders join tables Kysely's DB type does not alias
type Builder = SelectQueryBuilder<DB, any, any>;

/** Whether the request names a filter on the job (salesperson, customer, division, work type). */
export const namesJobFilter = (p: RunParams) =>
  p.salespersonIds !== null || p.customerIds !== null || p.divisionKeys !== null || p.workTypes !== null;

const seesOwnOnly = (ctx: ServiceContext) => can(ctx.auth.user, 'sees_own_jobs_only');

/**
 * Records whose job (`column`, never null for invoices and work orders) is in the scope: no
 * condition when nothing narrows the jobs.
 */
export function onScopedJob<QB extends Builder>(
  ctx: ServiceContext,
  p: RunParams,
  scope: JobScope,
  qb: QB,
  column: string,
): QB {
  if (!namesJobFilter(p) && !seesOwnOnly(ctx)) return qb;
  return qb.where(sql.ref(column), 'in', scope.jobs().select('jobs.id')) as QB;
}

/**
 * Time entries counted for the scope: with a job filter, the entries on the scoped jobs (shop time
 * has no job, so none); without one, every entry the user may see as the time-entry list shows them
 * (all, or for a user who sees only their own jobs, their own and those on jobs they see).
 */
export function onScopedTime<QB extends Builder>(ctx: ServiceContext, p: RunParams, scope: JobScope, qb: QB): QB {
  if (namesJobFilter(p)) return qb.where('time_entries.job_id', 'in', scope.jobs().select('jobs.id')) as QB;
  if (!seesOwnOnly(ctx)) return qb;
  const firmId = ctx.auth.firm.id;
  const user = ctx.auth.user;
  return qb.where((eb) =>
    eb.or([
      eb('time_entries.user_id', '=', user.id),
      eb(
        'time_entries.job_id',
        'in',
        ownedBy(eb.selectFrom('jobs').select('jobs.id').where('jobs.firm_id', '=', firmId), user.id),
      ),
    ]),
  ) as QB;
}

/**
 * The leads counted: not spam and not replaced by a newer lead (a restored auto-spam lead comes back
 * as a new one), assigned to a named salesperson, of a named customer; with a division or work type
 * filter, those whose job is in the scope. A user who sees only their own jobs counts the leads
 * assigned to them (as the lead inbox shows them).
 */
export function leadsOf(ctx: ServiceContext, p: RunParams, scope: JobScope) {
  let qb = ctx.database.db
    .selectFrom('leads')
    .where('leads.firm_id', '=', ctx.auth.firm.id)
    .where('leads.status', '!=', 'spam')
    .where('leads.replaced_by_lead_id', 'is', null);
  if (p.salespersonIds) qb = qb.where('leads.assigned_to_user_id', 'in', p.salespersonIds);
  if (p.customerIds) qb = qb.where('leads.client_account_id', 'in', p.customerIds);
  if (p.divisionKeys || p.workTypes) qb = qb.where('leads.job_id', 'in', scope.jobs().select('jobs.id'));
  if (seesOwnOnly(ctx)) qb = qb.where('leads.assigned_to_user_id', '=', ctx.auth.user.id);
  return qb;
}

/** A closed time entry's length in milliseconds (real elapsed time between two stored UTC instants). */
export const entryMs = (ctx: ServiceContext) =>
  ctx.database.dialect.millisBetween(sql`time_entries.clock_in`, sql`time_entries.clock_out`);

/** Milliseconds as hours to two places. */
export const hoursOfMs = (ms: number) => Math.round(Math.round(ms) / 36_000) / 100;

/** Not billed or no longer owed: never sent, cancelled, written off (as receivables.ts). */
export const NOT_BILLED = ['draft', 'void', 'uncollectible'] as const;

/** An invoice's date: when it was issued (sent), else when it was made (as receivables.ts). */
export const ISSUED_AT = sql<string>`coalesce(invoices.issued_at, invoices.created_at)`;

/** `at` (a stored instant, or a column) from `from` (included) to `to` (not included). */
export const within = (at: RawBuilder<unknown> | string, from: string, to: string) => {
  const ref = typeof at === 'string' ? sql.ref(at) : at;
  return sql<boolean>`(${ref} >= ${from} and ${ref} < ${to})`;
};
/** How many rows meet `cond`. */
export const countIf = (cond: RawBuilder<boolean>) => sql<number>`sum(case when ${cond} then 1 else 0 end)`;
/** The sum of `value` over the rows meeting `cond`. */
export const sumIf = (cond: RawBuilder<boolean>, value: RawBuilder<unknown> | string) =>
  sql<number>`sum(case when ${cond} then ${typeof value === 'string' ? sql.ref(value) : value} else 0 end)`;

const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/**
 * The days from `start` to `end` (local dates), each with a column key (its weekday, `mon`, for a
 * week; `d_YYYY_MM_DD` otherwise), a label ("Mon 06-01") and the instants it starts and ends.
 */
export function daysOf(ctx: ServiceContext, start: string, end: string, keyBy: 'weekday' | 'date' = 'weekday') {
  const days: { date: string; key: string; label: string; from: string; to: string }[] = [];
  for (let date = start; date <= end; date = addDays(date, 1)) {
    const weekday = WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()]!;
    days.push({
      date,
      key: keyBy === 'weekday' ? weekday : `d_${date.replaceAll('-', '_')}`,
      label: `${weekday[0]!.toUpperCase()}${weekday.slice(1)} ${date.slice(5)}`,
      from: startOfDay(ctx, date),
      to: startOfDay(ctx, addDays(date, 1)),
    });
  }
  return days;
}
