// The top-customers report (docs/reports.md, "Top customers"): who the work was won from. The jobs
// decided from start to end (date basis `decided`: they entered a won, lost or excluded stage,
// unless the request names another basis), with the job filters, by customer: the job's client
// account, else the company typed on the job, else "(no customer)". Ranked by won value, largest
// first (then by jobs decided, then by name).
//
// Per customer: jobs decided, won (count and value: JOB_VALUE_CENTS), the share of all the won
// value, and what the customer was billed and paid in the range on any of its jobs that pass the
// same filters (decided in the range or not): invoiced is the invoices issued from start to end
// (issued_at, else created_at, local dates) that are not draft, void or uncollectible, as the
// receivables report counts billed; collected is the invoices paid from start to end. Only the
// customers with a job decided in the range are listed.
//
// One GROUP BY customer over the decided jobs, one GROUP BY customer over the invoices of the
// filtered jobs (conditional sums for invoiced and collected); the two are matched here by
// customer, one row each.
import { sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { centsToDollars, formatCents } from '#platform/money.ts';
import { addDays } from '#platform/time.ts';
import { CUSTOMER_NAME, JOB_VALUE_CENTS, jobScope, startOfDay } from './job-scope.ts';
import type { ReportDefinition } from './run.ts';
import type { FullTable, Row } from './run-result.ts';
import { JOB_FILTERS } from './sales-measures.ts';
import { countOf, formatPct, ratio, sumMoney } from './table-math.ts';

/** Never billed: not sent, cancelled, or written off (receivables.ts's rule for billed). */
const NOT_BILLED = ['draft', 'void', 'uncollectible'] as const;

const keyOf = (accountId: unknown, name: unknown) => `${accountId ?? ''}|${String(name)}`;

export const topCustomers: ReportDefinition = {
  key: 'top-customers',
  title: 'Top customers',
  section: 'Sales',
  description:
    'Customers ranked by the value of the jobs won from them (decided between start and end), with their share of the won value and what they were invoiced and paid in the range',
  date_basis: 'decided',
  uses: ['date_basis', ...JOB_FILTERS],
  async run(ctx: ServiceContext, p) {
    const [scope, allJobs] = await Promise.all([jobScope(ctx, p), jobScope(ctx, p, { ranged: false })]);
    const from = startOfDay(ctx, p.start);
    const to = startOfDay(ctx, addDays(p.end, 1));
    const issuedAt = sql<string>`coalesce(invoices.issued_at, invoices.created_at)`;
    const wonCents = sql<number>`sum(case when stage.type = 'won' then ${JOB_VALUE_CENTS} else 0 end)`;
    const [customers, billing] = await Promise.all([
      scope
        .jobs()
        .select([
          'jobs.client_account_id',
          CUSTOMER_NAME.as('customer'),
          sql<number>`count(*)`.as('decided'),
          sql<number>`sum(case when stage.type = 'won' then 1 else 0 end)`.as('won'),
          wonCents.as('won_cents'),
        ])
        .groupBy(['jobs.client_account_id', CUSTOMER_NAME])
        .orderBy(wonCents, 'desc')
        .orderBy(sql`count(*)`, 'desc')
        .orderBy(CUSTOMER_NAME)
        .execute(),
      allJobs
        .jobs()
        .innerJoin('invoices', 'invoices.job_id', 'jobs.id')
        .where('invoices.status', 'not in', [...NOT_BILLED])
        .where((eb) =>
          eb.or([
            eb.and([eb(issuedAt, '>=', from), eb(issuedAt, '<', to)]),
            eb.and([eb('invoices.paid_at', '>=', from), eb('invoices.paid_at', '<', to)]),
          ]),
        )
        .select([
          'jobs.client_account_id',
          CUSTOMER_NAME.as('customer'),
          sql<number>`sum(case when ${issuedAt} >= ${from} and ${issuedAt} < ${to} then invoices.amount_cents else 0 end)`.as(
            'invoiced',
          ),
          sql<number>`sum(case when invoices.status = 'paid' and invoices.paid_at >= ${from} and invoices.paid_at < ${to} then invoices.amount_cents else 0 end)`.as(
            'collected',
          ),
        ])
        .groupBy(['jobs.client_account_id', CUSTOMER_NAME])
        .execute(),
    ]);
    const billed = new Map(billing.map((b) => [keyOf(b.client_account_id, b.customer), b]));
    const allWonCents = customers.reduce((s, c) => s + Number(c.won_cents ?? 0), 0);
    const rowOf = (c: (typeof customers)[number]): Row => {
      const b = billed.get(keyOf(c.client_account_id, c.customer));
      const won = Number(c.won_cents ?? 0);
      return {
        customer: String(c.customer),
        client_account_id: c.client_account_id === null ? null : Number(c.client_account_id),
        decided: Number(c.decided),
        won: Number(c.won ?? 0),
        won_value: centsToDollars(won),
        won_share: ratio(won, allWonCents),
        invoiced: centsToDollars(Number(b?.invoiced ?? 0)),
        collected: centsToDollars(Number(b?.collected ?? 0)),
      };
    };
    const rows = customers.map(rowOf);
    const table: FullTable = {
      key: 'customers',
      title: 'Customers by won value',
      columns: [
        { key: 'customer', label: 'Customer', kind: 'text' },
        { key: 'client_account_id', label: 'Customer id', kind: 'int' },
        { key: 'decided', label: 'Jobs decided', kind: 'int' },
        { key: 'won', label: 'Won', kind: 'int' },
        { key: 'won_value', label: 'Won value', kind: 'money' },
        { key: 'won_share', label: 'Share of won value', kind: 'pct' },
        { key: 'invoiced', label: 'Invoiced', kind: 'money' },
        { key: 'collected', label: 'Collected', kind: 'money' },
      ],
      rows,
      total: (kept) => {
        const won = sumMoney(kept, 'won_value');
        return {
          customer: 'Total',
          client_account_id: null,
          decided: countOf(kept, 'decided'),
          won: countOf(kept, 'won'),
          won_value: won,
          won_share: ratio(Math.round(won * 100), allWonCents),
          invoiced: sumMoney(kept, 'invoiced'),
          collected: sumMoney(kept, 'collected'),
        };
      },
      note:
        scope.note ??
        'Invoiced and collected are over all of the customer’s jobs that pass the filters, not only those decided in the range',
    };
    const top = rows[0];
    return {
      summary: [
        { label: 'Customers', value: String(rows.length) },
        { label: 'Won', value: `${countOf(rows, 'won')} (${formatCents(allWonCents)})` },
        {
          label: 'Top customer',
          value:
            top && Number(top.won) > 0
              ? `${top.customer} (${formatPct(top.won_share as number | null)} of won value)`
              : '—',
        },
        { label: 'Invoiced', value: formatCents(Math.round(sumMoney(rows, 'invoiced') * 100)) },
        { label: 'Collected', value: formatCents(Math.round(sumMoney(rows, 'collected') * 100)) },
      ],
      tables: [table],
      truncated: scope.truncated || allJobs.truncated,
    };
  },
};
