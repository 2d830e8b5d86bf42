import type { Executor } from '#db/dialect.ts';

/** A page of a job's log, newest first. */
export async function listJobActivity(
  db: Executor,
  jobId: number,
  kind: string | undefined,
  limit: number,
  offset: number,
) {
  let base = db.selectFrom('job_activity').where('job_activity.job_id', '=', jobId);
  if (kind !== undefined) base = base.where('job_activity.kind', '=', kind);
  const [rows, count] = await Promise.all([
    base
      .leftJoin('users as u', 'u.id', 'job_activity.user_id')
      .selectAll('job_activity')
      .select('u.name as user_name')
      .orderBy('job_activity.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
