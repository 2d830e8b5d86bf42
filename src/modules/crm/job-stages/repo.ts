// Pipeline stages and job types of a workspace.
import type { Executor } from '#db/dialect.ts';
import type { JobStage } from '#db/tables.ts';

export function listStages(db: Executor, firmId: number): Promise<JobStage[]> {
  return db
    .selectFrom('job_stages')
    .selectAll()
    .where('firm_id', '=', firmId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}
