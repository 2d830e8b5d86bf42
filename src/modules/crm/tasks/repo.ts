// Job follow-ups' queries: the shared list rules of every follow-up (follow-up-query.ts) over tasks,
// narrowed to a job and to the jobs the user sees.
import type { Executor } from '#db/dialect.ts';
import type { User } from '#db/tables.ts';
import { type FollowUpFilter, listFollowUps, withAssignee } from './follow-up-query.ts';
import type { TaskRow } from './serialize.ts';

export async function findTask(db: Executor, firmId: number, id: number): Promise<TaskRow | undefined> {
  return withAssignee(db, 'tasks').where('tasks.firm_id', '=', firmId).where('tasks.id', '=', id).executeTakeFirst();
}

export interface TaskFilter extends FollowUpFilter {
  jobId?: number;
}

/** Soonest due first (undated last); with updatedAfter, oldest updated first. Only tasks of jobs the user sees. */
export function listTasks(db: Executor, firmId: number, user: User, f: TaskFilter, limit: number, offset: number) {
  return listFollowUps(db, 'tasks', {
    firmId,
    filter: f,
    parent: { column: 'tasks.job_id', id: f.jobId },
    visibleTo: user,
    limit,
    offset,
  });
}
