// GET /v1/reports/month-end-job-cost (document 2, Owner reports; docs/reports.md, "Month-end job
// cost"): per job, the month's revenue (invoices dated in the month in the workspace's time zone,
// draft, void and uncollectible left out), its direct costs by cost type (entered job costs, whose
// type is dump when their cost code names dumping, as job-costs/service.ts stores them, and the labor of its time entries at their snapshot rates,
// the figures GET /v1/jobs/{id}/costs shows), gross profit, and the same to the month's end.
//
// One query picks the jobs (visible to the user, with revenue or cost in the month, by job number,
// 201 rows read to tell truncation); revenue, entered costs and contracts are each one GROUP BY /
// window query over those jobs; time-entry labor is the payroll engine's split of the workers' weeks
// around those jobs' entries (job-labor.ts laborOfEntries), as the job's cost read does.
import { sql } from 'kysely';
import type { InvoiceTable } from '#db/tables/billing.ts';
import { COST_TYPES, type CostType } from '#db/tables/operations.ts';
import type { ServiceContext } from '#platform/context.ts';
import { badRequest } from '#platform/errors.ts';
import { assertCrewScheduling } from '#platform/guards.ts';
import { centsToDollars } from '#platform/money.ts';
import { can } from '#platform/permissions.ts';
import { addDays } from '#platform/time.ts';
import { localToStored, todayIn } from '#platform/time-zone.ts';
import { onVisibleJob } from '#crm/index.ts';
import { assertSeesJobCosts } from '#operations/index.ts';
import { countedTime } from './counted-time.ts';
import { laborOfEntries } from './job-labor.ts';
import {
  EARLIEST_DATE,
  LATEST_DATE,
  type MonthEndInput,
  type MonthEndJobObject,
  type MonthEndObject,
} from './schemas.ts';

type InvoiceStatus = InvoiceTable['status'];

/** Document 1, Limits: the report shows at most 200 jobs. */
export const MONTH_END_JOBS = 200;
/** Invoices that are not revenue (document 2). `cancelled` is no invoice status here; kept for the rule's sake. */
export const NOT_REVENUE = ['draft', 'void', 'uncollectible', 'cancelled'] as const;
/** The same list typed as the column's values (`cancelled` widened in: the comparison is harmless). */
const NOT_REVENUE_STATUSES = [...NOT_REVENUE] as string[] as InvoiceStatus[];

const COST_LABELS: Record<CostType, string> = {
  labor: 'Labor',
  material: 'Material',
  trucking: 'Trucking',
  equipment: 'Equipment',
  dump: 'Dump',
  subcontract: 'Subcontract',
  other: 'Other',
};

export function assertMayRunMonthEnd(ctx: ServiceContext): void {
  assertCrewScheduling(ctx, 'Turn on crew scheduling to run the month-end job cost report');
  assertSeesJobCosts(ctx.auth.user);
}

export const mayRunMonthEnd = (ctx: ServiceContext) =>
  ctx.auth.settings.crew_scheduling_enabled && can(ctx.auth.user, 'can_see_job_costs');

/** The month asked for, or last month in the workspace's time zone; its first and last dates. */
export function monthRange(ctx: ServiceContext, q: MonthEndInput): { month: string; start: string; end: string } {
  let month = q.month;
  if (month === undefined) {
    const today = todayIn(ctx.auth.firm.timezone);
    month = addDays(`${today.slice(0, 7)}-01`, -1).slice(0, 7);
  }
  const start = `${month}-01`;
  if (start < EARLIEST_DATE || start > LATEST_DATE)
    throw badRequest(`month must be between ${EARLIEST_DATE.slice(0, 7)} and ${LATEST_DATE.slice(0, 7)}`, {
      code: 'invalid_request',
      field: 'month',
    });
  const [y, m] = month.split('-').map(Number) as [number, number];
  const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
  return { month, start, end: addDays(next, -1) };
}

const pct = (profitCents: number, revenueCents: number) =>
  revenueCents === 0 ? null : Math.round((profitCents / revenueCents) * 10_000) / 10_000;

const zeroCosts = () => Object.fromEntries(COST_TYPES.map((k) => [k, 0])) as Record<CostType, number>;

/** GET /v1/reports/month-end-job-cost. */
export async function monthEndJobCostReport(ctx: ServiceContext, q: MonthEndInput): Promise<MonthEndObject> {
  assertMayRunMonthEnd(ctx);
  const { month, start, end } = monthRange(ctx, q);
  const { db } = ctx.database;
  const firmId = ctx.auth.firm.id;
  const user = ctx.auth.user;
  const tz = ctx.auth.firm.timezone;
  // The month's instants [from, to): an invoice or a clock-in in them is dated in the month locally.
  const from = localToStored(start, '00:00', tz);
  const to = localToStored(addDays(end, 1), '00:00', tz);
  const invoiceAt = sql<string>`coalesce(invoices.issued_at, invoices.created_at)`;

  const picked = await onVisibleJob(
    db
      .selectFrom('jobs')
      .leftJoin('client_accounts', 'client_accounts.id', 'jobs.client_account_id')
      .select([
        'jobs.id',
        'jobs.job_number',
        'jobs.name',
        'jobs.company',
        'jobs.client_account_id',
        'client_accounts.name as account_name',
      ])
      .where('jobs.firm_id', '=', firmId)
      .where((eb) =>
        eb.or([
          eb.exists(
            eb
              .selectFrom('invoices')
              .select('invoices.id')
              .whereRef('invoices.job_id', '=', 'jobs.id')
              .where('invoices.status', 'not in', NOT_REVENUE_STATUSES)
              .where(invoiceAt, '>=', from)
              .where(invoiceAt, '<', to),
          ),
          eb.exists(
            eb
              .selectFrom('job_costs')
              .select('job_costs.id')
              .whereRef('job_costs.job_id', '=', 'jobs.id')
              .where('job_costs.date', '>=', start)
              .where('job_costs.date', '<=', end),
          ),
          eb.exists(
            eb
              .selectFrom('time_entries')
              .select('time_entries.id')
              .whereRef('time_entries.job_id', '=', 'jobs.id')
              .where(countedTime)
              .where('time_entries.pay_rate_cents', 'is not', null)
              .where('time_entries.clock_in', '>=', from)
              .where('time_entries.clock_in', '<', to),
          ),
        ]),
      ),
    'jobs.id',
    firmId,
    user,
  )
    .orderBy('jobs.job_number')
    .orderBy('jobs.id')
    .limit(MONTH_END_JOBS + 1)
    .execute();
  const truncated = picked.length > MONTH_END_JOBS;
  const jobs = picked.slice(0, MONTH_END_JOBS);
  const ids = jobs.map((j) => Number(j.id));

  const [revenue, costs, contracts, entries] =
    ids.length === 0
      ? [[], [], [], []]
      : await Promise.all([
          db
            .selectFrom('invoices')
            .select((eb) => [
              'invoices.job_id',
              sql<number>`sum(case when ${invoiceAt} >= ${from} then invoices.amount_cents - invoices.tax_cents else 0 end)`.as(
                'month_cents',
              ),
              eb.fn.sum<number>(sql`invoices.amount_cents - invoices.tax_cents`).as('to_date_cents'),
            ])
            .where('invoices.firm_id', '=', firmId)
            .where('invoices.job_id', 'in', ids)
            .where('invoices.status', 'not in', NOT_REVENUE_STATUSES)
            .where(invoiceAt, '<', to)
            .groupBy('invoices.job_id')
            .execute(),
          db
            .selectFrom('job_costs')
            .select((eb) => [
              'job_costs.job_id',
              'job_costs.cost_type',
              sql<number>`sum(case when job_costs.date >= ${start} then job_costs.amount_cents else 0 end)`.as(
                'month_cents',
              ),
              eb.fn.sum<number>('job_costs.amount_cents').as('to_date_cents'),
            ])
            .where('job_costs.firm_id', '=', firmId)
            .where('job_costs.job_id', 'in', ids)
            .where('job_costs.date', '<=', end)
            .groupBy(['job_costs.job_id', 'job_costs.cost_type'])
            .execute(),
          // The signed contract (billing/job-contracts/revised.ts): the latest accepted proposal of a
          // job estimate, plus what approved change orders posted.
          db
            .selectFrom((eb) =>
              eb
                .selectFrom('proposals')
                .leftJoin('estimates', 'estimates.id', 'proposals.estimate_id')
                .select([
                  'proposals.job_id',
                  'proposals.total_cents',
                  sql<number>`row_number() over (partition by proposals.job_id order by proposals.accepted_at desc, proposals.id desc)`.as(
                    'place',
                  ),
                ])
                .where('proposals.firm_id', '=', firmId)
                .where('proposals.job_id', 'in', ids)
                .where('proposals.status', '=', 'accepted')
                .where((w) => w.or([w('estimates.is_change_order', '=', 0), w('proposals.estimate_id', 'is', null)]))
                .as('signed'),
            )
            .leftJoin('job_contracts', 'job_contracts.job_id', 'signed.job_id')
            .select([
              'signed.job_id',
              sql<number>`signed.total_cents + coalesce(job_contracts.approved_amount_cents, 0)`.as('contract_cents'),
            ])
            .where('signed.place', '=', 1)
            .execute(),
          db
            .selectFrom('time_entries')
            .select([
              'time_entries.id',
              'time_entries.user_id',
              'time_entries.job_id',
              'time_entries.clock_in',
              'time_entries.clock_out',
              'time_entries.pay_rate_cents',
            ])
            .where('time_entries.firm_id', '=', firmId)
            .where('time_entries.job_id', 'in', ids)
            .where(countedTime)
            .where('time_entries.pay_rate_cents', 'is not', null)
            .where('time_entries.clock_in', '<', to)
            .execute(),
        ]);

  const entryById = new Map(entries.map((e) => [Number(e.id), e]));
  type Figures = { month: Record<CostType, number>; toDate: number; revenue: number; revenueToDate: number };
  const byJob = new Map<number, Figures>(
    ids.map((id) => [id, { month: zeroCosts(), toDate: 0, revenue: 0, revenueToDate: 0 }]),
  );
  for (const r of revenue) {
    const f = byJob.get(Number(r.job_id))!;
    f.revenue += Number(r.month_cents ?? 0);
    f.revenueToDate += Number(r.to_date_cents ?? 0);
  }
  for (const c of costs) {
    const f = byJob.get(Number(c.job_id))!;
    f.month[c.cost_type] += Number(c.month_cents ?? 0);
    f.toDate += Number(c.to_date_cents ?? 0);
  }
  for (const [id, cents] of await laborOfEntries(ctx, entries)) {
    const e = entryById.get(id)!;
    const f = byJob.get(Number(e.job_id))!;
    f.toDate += cents;
    if (e.clock_in >= from) f.month.labor += cents;
  }
  const contractOf = new Map(contracts.map((c) => [Number(c.job_id), Number(c.contract_cents)]));

  let revenueCents = 0;
  let directCents = 0;
  let contractCents = 0;
  const rows: MonthEndJobObject[] = jobs.map((j) => {
    const id = Number(j.id);
    const f = byJob.get(id)!;
    const direct = COST_TYPES.reduce((s, k) => s + f.month[k], 0);
    const contract = contractOf.get(id) ?? null;
    revenueCents += f.revenue;
    directCents += direct;
    contractCents += contract ?? 0;
    return {
      job_id: id,
      job_number: Number(j.job_number),
      job_name: j.name,
      customer: j.account_name ?? j.company ?? null,
      customer_number: j.client_account_id === null ? null : Number(j.client_account_id),
      contract: centsToDollars(contract),
      revenue: centsToDollars(f.revenue),
      direct_costs: Object.fromEntries(COST_TYPES.map((k) => [k, centsToDollars(f.month[k])])) as Record<
        CostType,
        number
      >,
      direct_cost: centsToDollars(direct),
      gross_profit: centsToDollars(f.revenue - direct),
      gross_profit_pct: pct(f.revenue - direct, f.revenue),
      revenue_to_date: centsToDollars(f.revenueToDate),
      cost_to_date: centsToDollars(f.toDate),
      gross_profit_to_date: centsToDollars(f.revenueToDate - f.toDate),
      gross_profit_pct_to_date: pct(f.revenueToDate - f.toDate, f.revenueToDate),
    };
  });
  return {
    month,
    start,
    end,
    cost_types: COST_TYPES.map((key) => ({ key, label: COST_LABELS[key] })),
    jobs: rows,
    totals: {
      jobs: rows.length,
      contract: centsToDollars(contractCents),
      revenue: centsToDollars(revenueCents),
      direct_cost: centsToDollars(directCents),
      gross_profit: centsToDollars(revenueCents - directCents),
      gross_profit_pct: pct(revenueCents - directCents, revenueCents),
    },
    truncated,
  };
}
