// Invoice queries: an invoice the user may see (through its job), lists, a job's invoices, the
// workspace's last remit-to, and the count of a site's invoiced jobs.
import type { Executor } from '#db/dialect.ts';
import type { Invoice, User } from '#db/tables.ts';
import { onVisibleJob } from '#crm/index.ts';
import { newestOrSyncPage, whereInWindow, type GroupRest, type SyncWindow } from '#platform/sync.ts';
import type { InvoiceRow } from './serialize.ts';

/** Invoices with their creator's name. */
const withCreator = (db: Executor) =>
  db
    .selectFrom('invoices')
    .leftJoin('users', 'users.id', 'invoices.created_by_user_id')
    .selectAll('invoices')
    .select('users.name as created_by_name');

/** Invoices of the workspace with their creator's name. */
export function invoicesOf(db: Executor, firmId: number) {
  return withCreator(db).where('invoices.firm_id', '=', firmId);
}

/** The invoice a customer link opens (any workspace: the token is the credential). */
export function invoiceByTokenHash(db: Executor, tokenHash: string): Promise<InvoiceRow | undefined> {
  return withCreator(db).where('invoices.token_hash', '=', tokenHash).executeTakeFirst() as Promise<
    InvoiceRow | undefined
  >;
}

export function findInvoice(db: Executor, firmId: number, id: number, user: User): Promise<InvoiceRow | undefined> {
  return onVisibleJob(
    invoicesOf(db, firmId).where('invoices.id', '=', id),
    'invoices.job_id',
    firmId,
    user,
  ).executeTakeFirst() as Promise<InvoiceRow | undefined>;
}

export interface InvoiceFilter {
  jobId?: number;
  status?: Invoice['status'];
  paymentMethod?: Invoice['payment_method'];
  updatedAfter?: SyncWindow;
}

function filtered(db: Executor, firmId: number, user: User, f: InvoiceFilter, rest?: GroupRest) {
  let qb = onVisibleJob(
    db.selectFrom('invoices').where('invoices.firm_id', '=', firmId),
    'invoices.job_id',
    firmId,
    user,
  );
  if (f.jobId !== undefined) qb = qb.where('invoices.job_id', '=', f.jobId);
  if (f.status !== undefined) qb = qb.where('invoices.status', '=', f.status);
  if (f.paymentMethod !== undefined) qb = qb.where('invoices.payment_method', '=', f.paymentMethod);
  if (f.updatedAfter !== undefined) qb = whereInWindow(qb, 'invoices', f.updatedAfter, rest);
  return qb;
}

/** Newest first; with updated_after oldest updated first (document 3, Invoices and payments). */
export async function listInvoices(
  db: Executor,
  firmId: number,
  user: User,
  f: InvoiceFilter,
  limit: number,
  offset: number,
) {
  const page = newestOrSyncPage(
    (rest?: GroupRest) =>
      filtered(db, firmId, user, f, rest)
        .leftJoin('users', 'users.id', 'invoices.created_by_user_id')
        .selectAll('invoices')
        .select('users.name as created_by_name'),
    'invoices',
    f.updatedAfter,
    { limit, offset },
    'created_at',
  );
  const [rows, count] = await Promise.all([
    page,
    filtered(db, firmId, user, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as InvoiceRow[], total: Number(count.n) };
}

/** A job's invoices, oldest first (the order they were billed). */
export function invoicesOfJob(db: Executor, firmId: number, jobId: number): Promise<InvoiceRow[]> {
  return invoicesOf(db, firmId).where('invoices.job_id', '=', jobId).orderBy('invoices.id').execute() as Promise<
    InvoiceRow[]
  >;
}

/** The remit-to of the workspace's most recent invoice that named one. */
export function lastRemitTo(db: Executor, firmId: number) {
  return db
    .selectFrom('invoices')
    .select(['remit_to_name', 'remit_to_address'])
    .where('firm_id', '=', firmId)
    .where('remit_to_address', 'is not', null)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** How many of a site's jobs carry an invoice of any status (void ones too: they were billed). */
export async function countInvoicedJobsOfSite(db: Executor, firmId: number, locationId: number): Promise<number> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.count<number>('jobs.id').distinct().as('n'))
    .where('jobs.firm_id', '=', firmId)
    .where('jobs.location_id', '=', locationId)
    .where((eb) =>
      eb.exists(eb.selectFrom('invoices').select('invoices.id').whereRef('invoices.job_id', '=', 'jobs.id')),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** What the job's invoices already bill: every one but drafts and void ones, in cents. */
export async function billedOfJob(db: Executor, firmId: number, jobId: number): Promise<number> {
  const row = await db
    .selectFrom('invoices')
    .select((eb) => eb.fn.sum<number | string | null>('amount_cents').as('cents'))
    .where('firm_id', '=', firmId)
    .where('job_id', '=', jobId)
    .where('status', 'not in', ['draft', 'void'])
    .executeTakeFirstOrThrow();
  return Number(row.cents ?? 0);
}

/** The newest online invoice of the estimate of this type and amount made since `since`, not void. */
export function recentTwin(
  db: Executor,
  firmId: number,
  twin: { estimateId: number; billingType: string; amountCents: number; since: string },
) {
  return db
    .selectFrom('invoices')
    .select(['id', 'created_at'])
    .where('firm_id', '=', firmId)
    .where('estimate_id', '=', twin.estimateId)
    .where('payment_method', '=', 'online')
    .where('billing_type', '=', twin.billingType)
    .where('amount_cents', '=', twin.amountCents)
    .where('status', '!=', 'void')
    .where('created_at', '>', twin.since)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}
