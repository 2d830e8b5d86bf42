// The bid-schedule report (docs/reports.md, "Bid schedule"): the bids due from start to end, so the
// estimators see what is coming due and what is still to send. A job is listed when its bid due
// date (job details' bid_due_date, a plain date) falls from start to end, with the job filters;
// the date basis is `all` (the due date is a date, not an instant, and is the report's own range).
//
// Each row: the due date, days until due counted from today in the workspace's time zone (negative
// once past), the job, its customer, estimator (its estimate's creator), salesperson, status, value
// (JOB_VALUE_CENTS) and the local date its first proposal was sent (bid_at), null when none was.
// Earliest due first, then by job number. Summary: bids due and their value, already sent (a
// proposal went out), and still open (no proposal yet and the job still in an open stage: a lost
// or excluded job that was never bid is neither).
//
// One query lists the jobs; the summary counts the rows it lists.
import { sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { centsToDollars, formatCents } from '#platform/money.ts';
import { daysBetween } from '#platform/time.ts';
import { storedToLocal, todayIn } from '#platform/time-zone.ts';
import { CUSTOMER_NAME, JOB_VALUE_CENTS, jobScope } from './job-scope.ts';
import type { ReportDefinition } from './run.ts';
import type { FullTable } from './run-result.ts';
import { JOB_FILTERS } from './sales-measures.ts';
import { sumMoney } from './table-math.ts';

export const bidSchedule: ReportDefinition = {
  key: 'bid-schedule',
  title: 'Bid schedule',
  section: 'Sales',
  description:
    'The bids due between start and end (by the job’s bid due date), earliest first, with days until due, estimator, salesperson, value and whether the proposal was sent',
  date_basis: 'all',
  uses: [...JOB_FILTERS],
  async run(ctx: ServiceContext, p) {
    // The jobs with a bid due in the range (the cap counts those).
    const scope = await jobScope(ctx, p, {
      ranged: false,
      narrow: (qb) => qb.where('jobs.bid_due_date', '>=', p.start).where('jobs.bid_due_date', '<=', p.end),
    });
    const jobs = await scope
      .jobs()
      .select([
        'jobs.id',
        'jobs.job_number',
        'jobs.name',
        'jobs.bid_due_date',
        'jobs.bid_at',
        CUSTOMER_NAME.as('customer'),
        sql<string>`coalesce(estimator.name, '')`.as('estimator'),
        sql<string>`coalesce(salesperson.name, '')`.as('salesperson'),
        'stage.label as status',
        'stage.type as outcome',
        JOB_VALUE_CENTS.as('value_cents'),
      ])
      .orderBy('jobs.bid_due_date')
      .orderBy('jobs.job_number')
      .orderBy('jobs.id')
      .execute();
    const tz = ctx.auth.firm.timezone;
    const today = todayIn(tz);
    const rows = jobs.map((j) => ({
      job_id: Number(j.id),
      due_date: String(j.bid_due_date),
      days_until_due: daysBetween(today, String(j.bid_due_date)),
      job_number: Number(j.job_number),
      job_name: String(j.name),
      customer: String(j.customer),
      estimator: String(j.estimator),
      salesperson: String(j.salesperson),
      status: String(j.status),
      value: centsToDollars(Number(j.value_cents)),
      proposal_sent: j.bid_at === null ? null : storedToLocal(String(j.bid_at), tz).date,
    }));
    const sent = jobs.filter((j) => j.bid_at !== null).length;
    const open = jobs.filter((j) => j.bid_at === null && j.outcome === 'open').length;
    const table: FullTable = {
      key: 'bids',
      title: 'Bids due',
      columns: [
        { key: 'due_date', label: 'Due', kind: 'date' },
        { key: 'days_until_due', label: 'Days until due', kind: 'int' },
        { key: 'job_number', label: 'Job #', kind: 'int' },
        { key: 'job_name', label: 'Job', kind: 'text' },
        { key: 'customer', label: 'Customer', kind: 'text' },
        { key: 'estimator', label: 'Estimator', kind: 'text' },
        { key: 'salesperson', label: 'Salesperson', kind: 'text' },
        { key: 'status', label: 'Status', kind: 'text' },
        { key: 'value', label: 'Value', kind: 'money' },
        { key: 'proposal_sent', label: 'Proposal sent', kind: 'date' },
      ],
      rows,
      total: (kept) => ({ due_date: null, job_name: 'Total', value: sumMoney(kept, 'value') }),
      note: scope.note ?? `Days until due are counted from today (${today}); negative once past`,
    };
    return {
      summary: [
        { label: 'Bids due', value: String(rows.length) },
        { label: 'Value', value: formatCents(Math.round(sumMoney(rows, 'value') * 100)) },
        { label: 'Already sent', value: String(sent) },
        { label: 'Still open', value: String(open) },
      ],
      tables: [table],
      truncated: scope.truncated,
    };
  },
};
