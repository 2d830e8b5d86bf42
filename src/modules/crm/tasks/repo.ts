import type { Executor } from '#db/dialect.ts';
import type { User } from '#db/tables.ts';
import { onVisibleJob } from '#crm/jobs/access.ts';
import { syncPage, type GroupRest } from '#platform/sync.ts';
import { orderFollowUps, whereFollowUps, type FollowUpFilter } from './follow-up-query.ts';
import type { TaskRow } from './serialize.ts';

function withAssignee(db: Executor) {
  return db
    .selectFrom('tasks')
    .leftJoin('users as au', 'au.id', 'tasks.assigned_to_user_id')
    .selectAll('tasks')
    .select('au.name as assignee_name');
}

export async function findTask(db: Executor, firmId: number, id: number): Promise<TaskRow | undefined> {
  return withAssignee(db).where('tasks.firm_id', '=', firmId).where('tasks.id', '=', id).executeTakeFirst();
}

export interface TaskFilter extends FollowUpFilter {
  jobId?: number;
}

/** Soonest due first (undated last); with updatedAfter, oldest updated first. Only tasks of jobs the user sees. */
export async function listTasks(
  db: Executor,
  firmId: number,
  user: User,
  f: TaskFilter,
  limit: number,
  offset: number,
) {
  const filter = <QB extends { where: (...args: any[]) => QB }>(qb: QB, rest?: GroupRest): QB => {
    qb = whereFollowUps(qb, 'tasks', firmId, f, rest);
    return f.jobId === undefined ? qb : qb.where('tasks.job_id', '=', f.jobId);
  };
  const rows = (rest?: GroupRest) =>
    orderFollowUps(onVisibleJob(filter(withAssignee(db), rest), 'tasks.job_id', firmId, user), 'tasks', f.updatedAfter);
  const count = onVisibleJob(
    filter(db.selectFrom('tasks').select((eb) => eb.fn.countAll<number>().as('n'))),
    'tasks.job_id',
    firmId,
    user,
  );
  const window = f.updatedAfter;
  const data =
    window !== undefined
      ? syncPage(
          window,
          { limit, offset },
          (rest) => (rest ? rows(rest) : rows().limit(limit).offset(offset)).execute() as Promise<TaskRow[]>,
        )
      : rows().limit(limit).offset(offset).execute();
  const [page, n] = await Promise.all([data, count.executeTakeFirstOrThrow()]);
  return { rows: page as TaskRow[], total: Number(n.n) };
}
