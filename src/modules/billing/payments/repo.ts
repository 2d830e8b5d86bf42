// Payments: one per paid invoice (document 3: partial payments are not tracked), so they are read
// from the invoices, most recently paid first.
import type { Executor } from '#db/dialect.ts';
import type { User } from '#db/tables.ts';
import { onVisibleJob } from '#crm/index.ts';

export interface PaymentFilter {
  jobId?: number;
  /** Stored-form instant: payments made after it. */
  paidAfter?: string;
}

function paid(db: Executor, firmId: number, user: User, f: PaymentFilter) {
  let qb = onVisibleJob(
    db
      .selectFrom('invoices')
      .where('invoices.firm_id', '=', firmId)
      .where('invoices.status', '=', 'paid')
      .where('invoices.paid_at', 'is not', null),
    'invoices.job_id',
    firmId,
    user,
  );
  if (f.jobId !== undefined) qb = qb.where('invoices.job_id', '=', f.jobId);
  if (f.paidAfter !== undefined) qb = qb.where('invoices.paid_at', '>', f.paidAfter);
  return qb;
}

export async function listPayments(
  db: Executor,
  firmId: number,
  user: User,
  f: PaymentFilter,
  limit: number,
  offset: number,
) {
  const [rows, count] = await Promise.all([
    paid(db, firmId, user, f)
      .select([
        'invoices.id',
        'invoices.job_id',
        'invoices.doc_number',
        'invoices.amount_cents',
        'invoices.currency',
        'invoices.paid_at',
        'invoices.payment_method',
        'invoices.client_name',
      ])
      .orderBy('invoices.paid_at', 'desc')
      .orderBy('invoices.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    paid(db, firmId, user, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export type PaymentRow = Awaited<ReturnType<typeof listPayments>>['rows'][number];
