// Which jobs a user may see, for every record that hangs on a job (document 1: users who see only
// their own jobs see those they own or are assigned to; a crew login also sees the jobs of the
// published work its crews are on: the operations area's crews and work orders, read here by their
// tables so the rule stays in one place). Other areas scope their queries with these
// (through the crm entry, src/modules/crm/index.ts), so the rule lives in one place.
import type { SelectQueryBuilder } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { DB, Job, User } from '#db/tables.ts';
import { can } from '#platform/permissions.ts';

/** Restricts to jobs the user may see: all of them, or those they own or are assigned to. */
export function visibleTo<O>(qb: SelectQueryBuilder<DB, 'jobs' | any, O>, user: User): SelectQueryBuilder<DB, any, O> {
  return can(user, 'sees_own_jobs_only') ? ownedBy(qb, user.id) : qb;
}

/** Jobs the user owns, is an assignee of, or works on (published, uncancelled work of a crew they are on). */
export function ownedBy<O>(
  qb: SelectQueryBuilder<DB, 'jobs' | any, O>,
  userId: number,
): SelectQueryBuilder<DB, any, O> {
  return qb.where((eb) =>
    eb.or([
      eb('jobs.assigned_to_user_id', '=', userId),
      eb.exists(
        eb
          .selectFrom('job_assignees as ja')
          .select('ja.job_id')
          .whereRef('ja.job_id', '=', 'jobs.id')
          .where('ja.user_id', '=', userId),
      ),
      eb.exists(
        eb
          .selectFrom('work_orders as wo')
          .innerJoin('crew_members as cm', 'cm.crew_id', 'wo.crew_id')
          .select('wo.id')
          .whereRef('wo.job_id', '=', 'jobs.id')
          .where('cm.user_id', '=', userId)
          .where('wo.published', '=', 1)
          .where('wo.status', '!=', 'cancelled'),
      ),
    ]),
  );
}

export async function findVisibleJob(db: Executor, firmId: number, id: number, user: User): Promise<Job | undefined> {
  return visibleTo(
    db.selectFrom('jobs').selectAll('jobs').where('jobs.firm_id', '=', firmId).where('jobs.id', '=', id),
    user,
  ).executeTakeFirst() as Promise<Job | undefined>;
}

/**
 * For records that belong to a job (events, deliveries): a filter keeping those whose job the
 * user may see, and those that belong to no job. Users who see every job get no filter.
 */
export function onVisibleJob<QB extends SelectQueryBuilder<DB, any, any>>(
  qb: QB,
  jobIdColumn: string,
  firmId: number,
  user: User,
): QB {
  if (!can(user, 'sees_own_jobs_only')) return qb;
  return qb.where((eb: any) =>
    eb.or([
      eb(jobIdColumn, 'is', null),
      eb(
        jobIdColumn,
        'in',
        ownedBy(eb.selectFrom('jobs').select('jobs.id').where('jobs.firm_id', '=', firmId), user.id),
      ),
    ]),
  ) as QB;
}
