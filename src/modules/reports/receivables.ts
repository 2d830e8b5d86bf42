// The receivables report (document 2, Owner reports: "aging buckets current, 1-30, 31-60, 61-90, over
// 90; billed and collected"; docs/reports.md, "Receivables"): who owes the workspace money at `end`,
// how late it is, and what was billed and collected from `start` to `end`.
//
// An invoice is owed at `end` when it was issued by then (issued_at, else created_at), is not a
// draft, void or written off as uncollectible, and was not yet paid at `end`. It is due `net_days`
// after the local date it was issued (the report's terms, so every customer is aged on one footing;
// its own due date is shown beside), and its bucket is how many days past that `end` is. The bucket
// edges are local dates, so each is turned into the instant it starts in the workspace's zone and
// the database sorts invoices into buckets by comparing instants: one GROUP BY by customer for the
// aging, one sum of what was billed and collected, and the open invoices as a list table (a page of
// them, picked before their jobs are read; the GROUP BY's sums are its count and total unless q
// narrows it, run-result.ts).
import { sql } from 'kysely';
import { onVisibleJob } from '#crm/index.ts';
import { localDates } from '#engines/payroll/index.ts';
import type { ServiceContext } from '#platform/context.ts';
import { centsToDollars, formatCents } from '#platform/money.ts';
import { addDays, daysBetween, millisOf } from '#platform/time.ts';
import { localToStored } from '#platform/time-zone.ts';
import type { ReportDefinition } from './run.ts';
import type { FullTable, ListTable, Row } from './run-result.ts';

const BUCKETS = [
  { key: 'current', label: 'Current' },
  { key: 'days_1_30', label: '1-30 days' },
  { key: 'days_31_60', label: '31-60 days' },
  { key: 'days_61_90', label: '61-90 days' },
  { key: 'over_90', label: 'Over 90 days' },
] as const;
type Bucket = (typeof BUCKETS)[number]['key'];

/** Not owed: never sent, cancelled, or written off. */
const NOT_OWED = ['draft', 'void', 'uncollectible'] as const;

const money = (key: string, label: string) => ({ key, label, kind: 'money' as const });

export const receivables: ReportDefinition = {
  key: 'receivables',
  title: 'Receivables',
  section: 'Financial',
  description:
    'What customers owe at the end date, aged current, 1-30, 31-60, 61-90 and over 90 days past the report’s terms (net_days after the invoice date), and what was billed and collected between start and end',
  date_basis: 'all',
  uses: ['customer_ids', 'salesperson_ids', 'net_days'],
  async run(ctx: ServiceContext, p) {
    const { db } = ctx.database;
    const firmId = ctx.auth.firm.id;
    const tz = ctx.auth.firm.timezone;
    const at = (date: string) => localToStored(date, '00:00', tz);
    const issuedAt = sql<string>`coalesce(invoices.issued_at, invoices.created_at)`;
    const endsAt = at(addDays(p.end, 1));
    // Due = issued date + net; days past due at `end` = end - due. The instant each bucket's oldest
    // issue date starts: current from due >= end, 1-30 from end - 30 <= due, and so on.
    const dueBy = (daysPast: number) => at(addDays(p.end, -p.netDays - daysPast));
    const edges = { current: dueBy(0), d30: dueBy(30), d60: dueBy(60), d90: dueBy(90) };
    const bucketOf = sql<Bucket>`case
      when ${issuedAt} >= ${edges.current} then 'current'
      when ${issuedAt} >= ${edges.d30} then 'days_1_30'
      when ${issuedAt} >= ${edges.d60} then 'days_31_60'
      when ${issuedAt} >= ${edges.d90} then 'days_61_90'
      else 'over_90' end`;
    const customerName = sql<string>`coalesce(client_accounts.name, jobs.company, '')`;

    // The invoices the report reads: billed, on a job the request's filters keep and the user sees;
    // only the columns it reads. The job filters are semi-joins, so the open invoices' page is
    // picked and cut before any job is read (ListTable.page).
    const invoicesIn = () => {
      let qb = db
        .selectFrom('invoices')
        .where('invoices.firm_id', '=', firmId)
        .where('invoices.status', 'not in', [...NOT_OWED]);
      if (p.customerIds || p.salespersonIds) {
        let jobs = db.selectFrom('jobs').select('jobs.id').where('jobs.firm_id', '=', firmId);
        if (p.customerIds) jobs = jobs.where('jobs.client_account_id', 'in', p.customerIds);
        if (p.salespersonIds) jobs = jobs.where('jobs.assigned_to_user_id', 'in', p.salespersonIds);
        qb = qb.where('invoices.job_id', 'in', jobs);
      }
      return onVisibleJob(qb, 'invoices.job_id', firmId, ctx.auth.user).select([
        'invoices.id',
        'invoices.invoice_number',
        'invoices.job_id',
        'invoices.status',
        'invoices.issued_at',
        'invoices.created_at',
        'invoices.paid_at',
        'invoices.due_date',
        'invoices.amount_cents',
      ]);
    };
    // Those invoices with their job and customer (every invoice has its job). Both databases merge
    // the derived table into the query, unless it is limited (the page).
    const withCustomer = (invoices: ReturnType<typeof invoicesIn>) =>
      db
        .selectFrom(invoices.as('invoices'))
        .innerJoin('jobs', 'jobs.id', 'invoices.job_id')
        .leftJoin('client_accounts', 'client_accounts.id', 'jobs.client_account_id');
    const owedAtEnd = sql<boolean>`(${issuedAt} < ${endsAt} and (invoices.paid_at is null or invoices.paid_at >= ${endsAt}))`;
    const owedIn = (b: Bucket) => sql<number>`sum(case when owed.bucket = ${b} then owed.cents else 0 end)`;
    const from = at(p.start);
    const billedIn = sql<boolean>`(${issuedAt} >= ${from} and ${issuedAt} < ${endsAt})`;
    const collectedIn = sql<boolean>`(invoices.status = 'paid' and invoices.paid_at >= ${from} and invoices.paid_at < ${endsAt})`;
    // What each customer owes at `end`, by bucket (a customer who owes nothing is not in the aging
    // table); and, apart, what was billed and collected from start to end: totals only, so those
    // invoices are summed without their jobs, each job a lookup of a wide row.
    // Each invoice's bucket is worked out once: summed by customer and bucket first, then each
    // customer's buckets side by side. A sum per bucket over the invoices tested every invoice's
    // date against the edges five times (on PostgreSQL, a text collation each).
    const byBucket = withCustomer(invoicesIn().where(owedAtEnd))
      .select([
        'jobs.client_account_id',
        customerName.as('customer'),
        bucketOf.as('bucket'),
        sql<number>`sum(invoices.amount_cents)`.as('cents'),
        sql<number>`count(*)`.as('invoices'),
        sql<string>`min(${issuedAt})`.as('oldest'),
      ])
      .groupBy(sql.raw('1, 2, 3'));
    const [customers, flows] = await Promise.all([
      db
        .selectFrom(byBucket.as('owed'))
        .select([
          'owed.customer',
          owedIn('current').as('current'),
          owedIn('days_1_30').as('days_1_30'),
          owedIn('days_31_60').as('days_31_60'),
          owedIn('days_61_90').as('days_61_90'),
          owedIn('over_90').as('over_90'),
          sql<number>`sum(owed.cents)`.as('total'),
          sql<number>`sum(owed.invoices)`.as('invoices'),
          sql<string>`min(owed.oldest)`.as('oldest'),
        ])
        .groupBy(['owed.client_account_id', 'owed.customer'])
        .orderBy(sql`sum(owed.cents)`, 'desc')
        .orderBy('owed.customer')
        .execute(),
      db
        .selectFrom(invoicesIn().where(sql<boolean>`(${billedIn} or ${collectedIn})`).as('invoices'))
        .select([
          sql<number>`coalesce(sum(case when ${billedIn} then invoices.amount_cents else 0 end), 0)`.as('billed'),
          sql<number>`coalesce(sum(case when ${collectedIn} then invoices.amount_cents else 0 end), 0)`.as('collected'),
        ])
        .executeTakeFirstOrThrow(),
    ]);

    // Each customer's oldest invoice and each listed invoice as a local date, a quarter hour of
    // instants read at a time (Intl's zone reading was most of the report's time in JavaScript).
    const localDateOf = localDates(tz);
    const localDate = (stored: string) => localDateOf(millisOf(stored));
    const sumOf = (rows: Row[], key: string) =>
      rows.reduce((s, r) => s + Math.round(Number(r[key] ?? 0) * 100), 0) / 100;
    const bucketLabel = new Map(BUCKETS.map((b) => [b.key as string, b.label]));

    const customerTable: FullTable = {
      key: 'aging',
      title: 'Aging by customer',
      columns: [
        { key: 'customer', label: 'Customer', kind: 'text' },
        ...BUCKETS.map((b) => money(b.key, b.label)),
        money('total', 'Total owed'),
        { key: 'invoices', label: 'Invoices', kind: 'int' },
        { key: 'oldest_invoice', label: 'Oldest invoice', kind: 'date' },
      ],
      rows: customers.map((c) => ({
        customer: c.customer === '' ? '(no customer)' : c.customer,
        ...Object.fromEntries(BUCKETS.map((b) => [b.key, centsToDollars(Number(c[b.key]))])),
        total: centsToDollars(Number(c.total)),
        invoices: Number(c.invoices),
        oldest_invoice: localDate(c.oldest),
      })),
      total: (rows) => ({
        customer: 'Total',
        ...Object.fromEntries(BUCKETS.map((b) => [b.key, sumOf(rows, b.key)])),
        total: sumOf(rows, 'total'),
        invoices: rows.reduce((s, r) => s + Number(r.invoices), 0),
        oldest_invoice: null,
      }),
    };
    const bucketName = sql<string>`(case ${bucketOf} ${sql.join(
      BUCKETS.map((b) => sql`when ${b.key} then ${b.label}`),
      sql` `,
    )} end)`;
    const owedCents = customers.reduce((s, c) => s + Number(c.total), 0);
    const pastDueCents = owedCents - customers.reduce((s, c) => s + Number(c.current), 0);
    const openInvoices = customers.reduce((n, c) => n + Number(c.invoices), 0);
    // The open invoices as the table shows them, oldest first.
    const shownOwed = (owed: ReturnType<typeof invoicesIn>) =>
      withCustomer(owed)
        .select([
          'invoices.invoice_number',
          'invoices.job_id',
          'jobs.name as job_name',
          customerName.as('customer'),
          issuedAt.as('issued'),
          'invoices.due_date',
          'invoices.amount_cents',
          bucketOf.as('bucket'),
        ])
        .orderBy(issuedAt)
        .orderBy('invoices.id');
    const invoiceTable: ListTable = {
      key: 'invoices',
      title: 'Open invoices',
      columns: [
        { key: 'invoice_number', label: 'Invoice', kind: 'text' },
        { key: 'job_name', label: 'Job', kind: 'text' },
        { key: 'customer', label: 'Customer', kind: 'text' },
        { key: 'issued', label: 'Invoice date', kind: 'date' },
        { key: 'due', label: `Due (net ${p.netDays})`, kind: 'date' },
        { key: 'invoice_due_date', label: 'Due date on the invoice', kind: 'date' },
        { key: 'days_past_due', label: 'Days past due', kind: 'int' },
        { key: 'bucket', label: 'Bucket', kind: 'text' },
        money('amount', 'Amount owed'),
      ],
      query: shownOwed(invoicesIn().where(owedAtEnd)),
      page: (limit) =>
        shownOwed(invoicesIn().where(owedAtEnd).orderBy(issuedAt).orderBy('invoices.id').limit(limit)).execute(),
      row: (i) => {
        const issued = localDate(String(i.issued));
        const due = addDays(issued, p.netDays);
        const customer = String(i.customer);
        return {
          invoice_number: String(i.invoice_number),
          job_id: Number(i.job_id),
          job_name: String(i.job_name),
          customer: customer === '' ? '(no customer)' : customer,
          issued,
          due,
          invoice_due_date: String(i.due_date),
          days_past_due: Math.max(0, daysBetween(due, p.end)),
          bucket: bucketLabel.get(String(i.bucket)) ?? String(i.bucket),
          amount: centsToDollars(Number(i.amount_cents)),
        };
      },
      text: {
        invoice_number: sql`invoices.invoice_number`,
        job_name: sql`jobs.name`,
        customer: sql`(case when ${customerName} = '' then '(no customer)' else ${customerName} end)`,
        bucket: bucketName,
      },
      total: {
        sums: { amount_cents: sql`sum(invoices.amount_cents)` },
        row: (t) => ({ invoice_number: 'Total', amount: centsToDollars(Number(t.amount_cents ?? 0)) }),
      },
      // The aging table's totals are the open invoices' count and sum.
      whole: { rows_total: openInvoices, amount_cents: owedCents },
    };
    return {
      summary: [
        { label: `Billed ${p.start} to ${p.end}`, value: formatCents(Number(flows.billed)) },
        { label: `Collected ${p.start} to ${p.end}`, value: formatCents(Number(flows.collected)) },
        { label: `Owed at ${p.end}`, value: formatCents(owedCents) },
        { label: `Past due at ${p.end} (net ${p.netDays})`, value: formatCents(pastDueCents) },
        { label: 'Open invoices', value: String(openInvoices) },
      ],
      tables: [customerTable, invoiceTable],
    };
  },
};
