import type { Executor } from '#db/dialect.ts';
import type { JobTag } from '#db/tables.ts';

export function tagsOfJob(db: Executor, jobId: number): Promise<JobTag[]> {
  return db
    .selectFrom('job_tags')
    .innerJoin('job_tag_links as l', 'l.tag_id', 'job_tags.id')
    .selectAll('job_tags')
    .where('l.job_id', '=', jobId)
    .orderBy('job_tags.name_key')
    .execute();
}

export function findTagsByIds(db: Executor, firmId: number, ids: number[]): Promise<JobTag[]> {
  return db.selectFrom('job_tags').selectAll().where('firm_id', '=', firmId).where('id', 'in', ids).execute();
}

export function findTagByName(db: Executor, firmId: number, key: string): Promise<JobTag | undefined> {
  return db
    .selectFrom('job_tags')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('name_key', '=', key)
    .executeTakeFirst();
}
