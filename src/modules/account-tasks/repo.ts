import { sql } from 'kysely';
import type { Executor } from '../../db/dialect.ts';
import type { AccountTaskRow } from './serialize.ts';

function withAssignee(db: Executor) {
  return db.selectFrom('account_tasks').leftJoin('users as au', 'au.id', 'account_tasks.assigned_to_user_id')
    .selectAll('account_tasks').select('au.name as assignee_name');
}

export async function findAccountTask(db: Executor, firmId: number, id: number): Promise<AccountTaskRow | undefined> {
  return withAssignee(db).where('account_tasks.firm_id', '=', firmId).where('account_tasks.id', '=', id).executeTakeFirst();
}

export interface AccountTaskFilter {
  clientAccountId?: number;
  contactId?: number;
  status?: 'open' | 'done' | 'all';
  assignedToUserId?: number;
  dueBefore?: string;
  dueAfter?: string;
  updatedAfter?: string;
}

/** Soonest due first (undated last); with updatedAfter, oldest updated first. */
export async function listAccountTasks(db: Executor, firmId: number, f: AccountTaskFilter, limit: number, offset: number) {
  const filter = <QB extends { where: (...args: any[]) => QB }>(qb: QB): QB => {
    qb = qb.where('account_tasks.firm_id', '=', firmId);
    if (f.status !== undefined && f.status !== 'all') qb = qb.where('account_tasks.status', '=', f.status);
    if (f.clientAccountId !== undefined) qb = qb.where('account_tasks.client_account_id', '=', f.clientAccountId);
    if (f.contactId !== undefined) qb = qb.where('account_tasks.contact_id', '=', f.contactId);
    if (f.assignedToUserId !== undefined) qb = qb.where('account_tasks.assigned_to_user_id', '=', f.assignedToUserId);
    if (f.dueBefore !== undefined) qb = qb.where('account_tasks.due_at', '<', f.dueBefore);
    if (f.dueAfter !== undefined) qb = qb.where('account_tasks.due_at', '>', f.dueAfter);
    if (f.updatedAfter !== undefined) qb = qb.where('account_tasks.updated_at', '>', f.updatedAfter);
    return qb;
  };
  let rows = filter(withAssignee(db));
  rows = f.updatedAfter !== undefined
    ? rows.orderBy('account_tasks.updated_at', 'asc').orderBy('account_tasks.id', 'asc')
    : rows.orderBy(sql`case when account_tasks.due_at is null then 1 else 0 end`).orderBy('account_tasks.due_at', 'asc').orderBy('account_tasks.id', 'asc');
  const count = filter(db.selectFrom('account_tasks').select((eb) => eb.fn.countAll<number>().as('n')));
  const [page, n] = await Promise.all([rows.limit(limit).offset(offset).execute(), count.executeTakeFirstOrThrow()]);
  return { rows: page as AccountTaskRow[], total: Number(n.n) };
}
