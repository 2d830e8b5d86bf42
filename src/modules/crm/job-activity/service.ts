// GET /v1/jobs/{id}/activity: the job page's activity log.
import type { ServiceContext } from '#platform/context.ts';
import type { Page } from '#platform/pagination.ts';
import { findVisibleJob } from '#crm/jobs/access.ts';
import { jobNotFound } from '#crm/jobs/service.ts';
import { listJobActivity } from './repo.ts';
import { jobActivityEntryObject } from './serialize.ts';

export async function jobActivityOf(ctx: ServiceContext, jobId: number, kind: string | undefined, page: Page) {
  const db = ctx.database.db;
  if (!(await findVisibleJob(db, ctx.auth.firm.id, jobId, ctx.auth.user))) throw jobNotFound();
  const { rows, total } = await listJobActivity(db, jobId, kind, page.limit, page.offset);
  return { data: rows.map(jobActivityEntryObject), total };
}
