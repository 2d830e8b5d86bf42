// The list rules job follow-ups (tasks) and company follow-ups (account_tasks) share: the same
// filters on the same columns, soonest due first (undated last), or oldest change first with
// updated_after. Each list adds its own parent filter (job_id / client_account_id).
import { type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import type { DB, User } from '#db/tables.ts';
import { onVisibleJob } from '#crm/jobs/access.ts';
import type { Executor } from '#db/dialect.ts';
import { syncPage, whereInWindow, type GroupRest, type SyncWindow } from '#platform/sync.ts';

export type FollowUpTable = 'tasks' | 'account_tasks';

/** A row of a follow-up table with its assignee's name. */
export type FollowUpRowOf<T extends FollowUpTable> = Selectable<DB[T]> & { id: number; assignee_name: string | null };

export interface FollowUpFilter {
  status?: 'open' | 'done' | 'all';
  assignedToUserId?: number;
  contactId?: number;
  dueBefore?: string;
  dueAfter?: string;
  updatedAfter?: SyncWindow;
}

type Where<QB> = { where: (...args: any[]) => QB };
type OrderBy<QB> = { orderBy: (...args: any[]) => QB };

/** The workspace and the shared filters of `f` on `table` (`rest`: a sync page's last group, platform/sync.ts). */
export function whereFollowUps<QB extends Where<QB>>(
  qb: QB,
  table: FollowUpTable,
  firmId: number,
  f: FollowUpFilter,
  rest?: GroupRest,
): QB {
  const col = (c: string) => `${table}.${c}`;
  qb = qb.where(col('firm_id'), '=', firmId);
  if (f.status !== undefined && f.status !== 'all') qb = qb.where(col('status'), '=', f.status);
  if (f.assignedToUserId !== undefined) qb = qb.where(col('assigned_to_user_id'), '=', f.assignedToUserId);
  if (f.contactId !== undefined) qb = qb.where(col('contact_id'), '=', f.contactId);
  if (f.dueBefore !== undefined) qb = qb.where(col('due_at'), '<', f.dueBefore);
  if (f.dueAfter !== undefined) qb = qb.where(col('due_at'), '>', f.dueAfter);
  if (f.updatedAfter !== undefined) qb = whereInWindow(qb, table, f.updatedAfter, rest);
  return qb;
}

/** Soonest due first, undated last, ties by id; with updated_after, oldest change first. */
export function orderFollowUps<QB extends OrderBy<QB>>(
  qb: QB,
  table: FollowUpTable,
  updatedAfter: SyncWindow | undefined,
): QB {
  const col = (c: string) => `${table}.${c}`;
  if (updatedAfter !== undefined) return qb.orderBy(col('updated_at'), 'asc').orderBy(col('id'), 'asc');
  return qb
    .orderBy(sql`case when ${sql.ref(col('due_at'))} is null then 1 else 0 end`)
    .orderBy(col('due_at'), 'asc')
    .orderBy(col('id'), 'asc');
}

/** A follow-up table's rows with their assignee's name (the object's assigned_to). */
export function withAssignee<T extends FollowUpTable>(
  db: Executor,
  table: T,
): SelectQueryBuilder<DB & { au: DB['users'] }, T | 'au', FollowUpRowOf<T>> {
  const query = db
    .selectFrom(table as FollowUpTable)
    .leftJoin('users as au', 'au.id', `${table}.assigned_to_user_id`)
    .selectAll(table as FollowUpTable)
    .select('au.name as assignee_name');
  // Written over both tables (their shared columns); its rows are all of T's, which TypeScript
  // cannot follow through the generic.
  return query as unknown as SelectQueryBuilder<DB & { au: DB['users'] }, T | 'au', FollowUpRowOf<T>>;
}

/** One list call: the workspace, the shared filters, the parent's, and whose jobs (job follow-ups). */
export interface FollowUpList {
  firmId: number;
  filter: FollowUpFilter;
  /** The parent column and the id it must hold (job_id, client_account_id), when the list names one. */
  parent: { column: string; id: number | undefined };
  /** Job follow-ups: only those on jobs this user sees (crm/jobs/access.ts). */
  visibleTo?: User;
  limit: number;
  offset: number;
}

/**
 * One page of a follow-up list and the total, soonest due first (undated last), or oldest change
 * first with updated_after, paged by the sync rules (platform/sync.ts).
 */
export async function listFollowUps<T extends FollowUpTable>(
  db: Executor,
  table: T,
  l: FollowUpList,
): Promise<{ rows: FollowUpRowOf<T>[]; total: number }> {
  const narrow = <O>(qb: SelectQueryBuilder<any, any, O>, rest?: GroupRest): SelectQueryBuilder<any, any, O> => {
    let out = whereFollowUps(qb, table, l.firmId, l.filter, rest);
    if (l.parent.id !== undefined) out = out.where(l.parent.column, '=', l.parent.id);
    return l.visibleTo ? onVisibleJob(out, `${table}.job_id`, l.firmId, l.visibleTo) : out;
  };
  const rows = (rest?: GroupRest) =>
    orderFollowUps(narrow(withAssignee(db, table), rest), table, l.filter.updatedAfter);
  const count = narrow(db.selectFrom(table as FollowUpTable).select((eb) => eb.fn.countAll<number>().as('n')));
  const window = l.filter.updatedAfter;
  const data =
    window !== undefined
      ? syncPage(window, l, (rest) => (rest ? rows(rest) : rows().limit(l.limit).offset(l.offset)).execute())
      : rows().limit(l.limit).offset(l.offset).execute();
  const [page, n] = await Promise.all([data, count.executeTakeFirstOrThrow()]);
  // Kysely's simplified row type does not unify with T's through the generic; the rows are T's.
  return { rows: page as FollowUpRowOf<T>[], total: Number(n.n) };
}
