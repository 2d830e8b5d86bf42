// Job cost queries: entered costs on jobs the user sees.
import type { SelectQueryBuilder } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { DB, JobCost, User } from '#db/tables.ts';
import { onVisibleJob } from '#crm/index.ts';

export function jobCostsOf(db: Executor, firmId: number, user: User): SelectQueryBuilder<DB, 'job_costs', JobCost> {
  return onVisibleJob(
    db.selectFrom('job_costs').selectAll('job_costs').where('job_costs.firm_id', '=', firmId),
    'job_costs.job_id',
    firmId,
    user,
  );
}

export function findJobCost(db: Executor, firmId: number, id: number): Promise<JobCost | undefined> {
  return db.selectFrom('job_costs').selectAll().where('firm_id', '=', firmId).where('id', '=', id).executeTakeFirst();
}
