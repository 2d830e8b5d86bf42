// Site assessment queries: one or a page, with who started it and how many pins it holds.
import type { Executor } from '#db/dialect.ts';
import type { SiteAssessment, User } from '#db/tables.ts';
import { onVisibleJob } from '#crm/index.ts';
import { newestOrSyncPage, whereInWindow, type GroupRest, type SyncWindow } from '#platform/sync.ts';

export type AssessmentRow = SiteAssessment & { created_by_name: string | null; pin_count: number | string | null };

function assessmentRows(db: Executor, firmId: number) {
  return db
    .selectFrom('site_assessments as a')
    .leftJoin('users as u', 'u.id', 'a.created_by_user_id')
    .selectAll('a')
    .select('u.name as created_by_name')
    .select((eb) =>
      eb
        .selectFrom('assessment_pins as p')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('p.assessment_id', '=', 'a.id')
        .as('pin_count'),
    )
    .where('a.firm_id', '=', firmId);
}

/** An assessment of the workspace on a job the user sees. */
export function findAssessment(
  db: Executor,
  firmId: number,
  id: number,
  user: User,
): Promise<AssessmentRow | undefined> {
  return onVisibleJob(assessmentRows(db, firmId).where('a.id', '=', id), 'a.job_id', firmId, user).executeTakeFirst();
}

/** The job's open assessment (a job has at most one). */
export function findOpenAssessment(db: Executor, firmId: number, jobId: number): Promise<AssessmentRow | undefined> {
  return assessmentRows(db, firmId).where('a.job_id', '=', jobId).where('a.status', '=', 'open').executeTakeFirst();
}

export interface AssessmentFilter {
  jobId?: number;
  locationId?: number;
  status?: string;
  scope?: string;
  updatedAfter?: SyncWindow;
}

/** Most recently changed first; with updated_after oldest changed first. */
export async function listAssessments(
  db: Executor,
  firmId: number,
  user: User,
  f: AssessmentFilter,
  limit: number,
  offset: number,
) {
  const filtered = <QB extends { where: (...args: any[]) => QB }>(qb: QB, rest?: GroupRest): QB => {
    if (f.jobId !== undefined) qb = qb.where('a.job_id', '=', f.jobId);
    if (f.locationId !== undefined) qb = qb.where('a.location_id', '=', f.locationId);
    if (f.status !== undefined) qb = qb.where('a.status', '=', f.status);
    if (f.scope !== undefined) qb = qb.where('a.scope', '=', f.scope);
    if (f.updatedAfter !== undefined) qb = whereInWindow(qb, 'a', f.updatedAfter, rest);
    return qb;
  };
  const rows = (rest?: GroupRest) => onVisibleJob(filtered(assessmentRows(db, firmId), rest), 'a.job_id', firmId, user);
  const page = newestOrSyncPage(rows, 'a', f.updatedAfter, { limit, offset }, 'updated_at');
  const count = onVisibleJob(
    filtered(db.selectFrom('site_assessments as a').where('a.firm_id', '=', firmId)),
    'a.job_id',
    firmId,
    user,
  )
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const [data, n] = await Promise.all([page, count]);
  return { rows: data as AssessmentRow[], total: Number(n.n) };
}
