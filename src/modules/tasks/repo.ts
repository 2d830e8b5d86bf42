import { sql } from 'kysely';
import type { Executor } from '../../db/dialect.ts';
import type { User } from '../../db/tables.ts';
import { onVisibleJob } from '../jobs/repo.ts';
import type { TaskRow } from './serialize.ts';

function withAssignee(db: Executor) {
  return db.selectFrom('tasks').leftJoin('users as au', 'au.id', 'tasks.assigned_to_user_id')
    .selectAll('tasks').select('au.name as assignee_name');
}

export async function findTask(db: Executor, firmId: number, id: number): Promise<TaskRow | undefined> {
  return withAssignee(db).where('tasks.firm_id', '=', firmId).where('tasks.id', '=', id).executeTakeFirst();
}

export interface TaskFilter {
  jobId?: number;
  status?: 'open' | 'done' | 'all';
  assignedToUserId?: number;
  contactId?: number;
  dueBefore?: string;
  dueAfter?: string;
  updatedAfter?: string;
}

/** Soonest due first (undated last); with updatedAfter, oldest updated first. Only tasks of jobs the user sees. */
export async function listTasks(db: Executor, firmId: number, user: User, f: TaskFilter, limit: number, offset: number) {
  const filter = <QB extends { where: (...args: any[]) => QB }>(qb: QB): QB => {
    qb = qb.where('tasks.firm_id', '=', firmId);
    if (f.status !== undefined && f.status !== 'all') qb = qb.where('tasks.status', '=', f.status);
    if (f.jobId !== undefined) qb = qb.where('tasks.job_id', '=', f.jobId);
    if (f.assignedToUserId !== undefined) qb = qb.where('tasks.assigned_to_user_id', '=', f.assignedToUserId);
    if (f.contactId !== undefined) qb = qb.where('tasks.contact_id', '=', f.contactId);
    if (f.dueBefore !== undefined) qb = qb.where('tasks.due_at', '<', f.dueBefore);
    if (f.dueAfter !== undefined) qb = qb.where('tasks.due_at', '>', f.dueAfter);
    if (f.updatedAfter !== undefined) qb = qb.where('tasks.updated_at', '>', f.updatedAfter);
    return qb;
  };
  let rows = onVisibleJob(filter(withAssignee(db)), 'tasks.job_id', firmId, user);
  rows = f.updatedAfter !== undefined
    ? rows.orderBy('tasks.updated_at', 'asc').orderBy('tasks.id', 'asc')
    : rows.orderBy(sql`case when tasks.due_at is null then 1 else 0 end`).orderBy('tasks.due_at', 'asc').orderBy('tasks.id', 'asc');
  const count = onVisibleJob(filter(db.selectFrom('tasks').select((eb) => eb.fn.countAll<number>().as('n'))), 'tasks.job_id', firmId, user);
  const [page, n] = await Promise.all([rows.limit(limit).offset(offset).execute(), count.executeTakeFirstOrThrow()]);
  return { rows: page as TaskRow[], total: Number(n.n) };
}
