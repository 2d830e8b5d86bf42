// The list rules job follow-ups (tasks) and company follow-ups (account_tasks) share: the same
// filters on the same columns, soonest due first (undated last), or oldest change first with
// updated_after. Each list adds its own parent filter (job_id / client_account_id).
import { sql } from 'kysely';
import { whereInWindow, type GroupRest, type SyncWindow } from '#platform/sync.ts';

export type FollowUpTable = 'tasks' | 'account_tasks';

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
