// Change-order queries: a change order the user may see (through its job) with what its wire shape
// reads beside it (the job's number and name, the customer, its estimate's totals, the estimate's
// proposal), lists, the one a customer link opens, the next number of a job, a request_key's.
import type { Executor } from '#db/dialect.ts';
import type { ChangeOrder, User } from '#db/tables.ts';
import { onVisibleJob } from '#crm/index.ts';

/** A change order with the joined fields its wire shape shows. */
export type ChangeOrderRow = ChangeOrder & {
  job_number: number;
  job_name: string;
  customer: string | null;
  est_price_cents: number | null;
  est_tax_cents: number | null;
  est_cost_cents: number | null;
  est_updated_at: string | null;
  est_proposal_id: number | null;
};

/** Change orders with their joined fields (not scoped: callers scope by workspace or token). */
function withJoins(db: Executor) {
  return db
    .selectFrom('change_orders')
    .innerJoin('jobs', 'jobs.id', 'change_orders.job_id')
    .leftJoin('client_accounts', 'client_accounts.id', 'jobs.client_account_id')
    .leftJoin('estimates', 'estimates.id', 'change_orders.ep_estimate_id')
    .selectAll('change_orders')
    .select((eb) => [
      'jobs.job_number',
      'jobs.name as job_name',
      eb.fn.coalesce('client_accounts.name', 'jobs.company').as('customer'),
      'estimates.price_cents as est_price_cents',
      'estimates.tax_cents as est_tax_cents',
      'estimates.cost_cents as est_cost_cents',
      'estimates.updated_at as est_updated_at',
      eb
        .selectFrom('proposals')
        .select((p) => p.fn.max('proposals.id').as('id'))
        .whereRef('proposals.estimate_id', '=', 'change_orders.ep_estimate_id')
        .where('proposals.is_customer_copy', '=', 0)
        .as('est_proposal_id'),
    ]);
}

/** The workspace's change orders, as the user may see them. */
export function changeOrdersOf(db: Executor, firmId: number, user: User) {
  return onVisibleJob(withJoins(db).where('change_orders.firm_id', '=', firmId), 'change_orders.job_id', firmId, user);
}

export function findChangeOrder(
  db: Executor,
  firmId: number,
  id: number,
  user: User,
): Promise<ChangeOrderRow | undefined> {
  return changeOrdersOf(db, firmId, user).where('change_orders.id', '=', id).executeTakeFirst() as Promise<
    ChangeOrderRow | undefined
  >;
}

/** The change order a customer link opens (its token's hash), with its joined fields. */
export function changeOrderByTokenHash(db: Executor, hash: string): Promise<ChangeOrderRow | undefined> {
  return withJoins(db).where('change_orders.token_hash', '=', hash).executeTakeFirst() as Promise<
    ChangeOrderRow | undefined
  >;
}

/** A change order by id with its joined fields, once its workspace is known. */
export function changeOrderById(db: Executor, id: number): Promise<ChangeOrderRow> {
  return withJoins(db).where('change_orders.id', '=', id).executeTakeFirstOrThrow() as Promise<ChangeOrderRow>;
}

export interface ChangeOrderFilter {
  jobId?: number;
  status?: ChangeOrder['status'];
}

/** Newest first. */
export async function listChangeOrders(
  db: Executor,
  firmId: number,
  user: User,
  f: ChangeOrderFilter,
  limit: number,
  offset: number,
) {
  const filtered = () => {
    let qb = onVisibleJob(
      db.selectFrom('change_orders').where('change_orders.firm_id', '=', firmId),
      'change_orders.job_id',
      firmId,
      user,
    );
    if (f.jobId !== undefined) qb = qb.where('change_orders.job_id', '=', f.jobId);
    if (f.status !== undefined) qb = qb.where('change_orders.status', '=', f.status);
    return qb;
  };
  let rows = changeOrdersOf(db, firmId, user);
  if (f.jobId !== undefined) rows = rows.where('change_orders.job_id', '=', f.jobId);
  if (f.status !== undefined) rows = rows.where('change_orders.status', '=', f.status);
  const [page, count] = await Promise.all([
    rows.orderBy('change_orders.id', 'desc').limit(limit).offset(offset).execute(),
    filtered()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: page as ChangeOrderRow[], total: Number(count.n) };
}

/** The number the job's next change order takes (numbers are never reused: void ones keep theirs). */
export async function nextCoNumber(db: Executor, jobId: number): Promise<number> {
  const row = await db
    .selectFrom('change_orders')
    .select((eb) => eb.fn.max('co_number').as('n'))
    .where('job_id', '=', jobId)
    .executeTakeFirst();
  return Number(row?.n ?? 0) + 1;
}

export function changeOrderByRequestKey(db: Executor, firmId: number, key: string) {
  return db
    .selectFrom('change_orders')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('request_key', '=', key)
    .executeTakeFirst();
}
