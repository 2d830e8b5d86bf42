// Starting an assessment on a job: by POST /v1/site-assessments, and by a service pin on a job
// with no open assessment. Loose pins of the job join it (document 3, Assessment state table).
import type { Executor } from '#db/dialect.ts';
import type { Job } from '#db/tables.ts';
import { attachLoosePins } from '#field/assessment-pins/attach.ts';
import type { ServiceContext } from '#platform/context.ts';
import { storedToLocal } from '#platform/time-zone.ts';
import { now } from '#platform/time.ts';

/** "Site assessment 2026-03-14": the day it was started in the workspace's time zone. */
export function datedTitle(stored: string, timeZone: string): string {
  return `Site assessment ${storedToLocal(stored, timeZone).date}`;
}

/**
 * Inserts an open job-scope assessment (the API never starts a location-scope one: whole-site
 * walkthroughs are started in the app) and attaches the job's loose pins. The caller holds the
 * workspace lock and has checked that the job has no open assessment.
 */
export async function startAssessment(
  db: Executor,
  ctx: ServiceContext,
  job: Job,
  fields: { title?: string; notes?: string | null } = {},
): Promise<number> {
  const at = now();
  const firmId = ctx.auth.firm.id;
  const { id } = await db
    .insertInto('site_assessments')
    .values({
      firm_id: firmId,
      job_id: job.id,
      location_id: job.location_id,
      scope: 'job',
      title: fields.title?.trim() || datedTitle(at, ctx.auth.firm.timezone),
      notes: fields.notes?.trim() || null,
      status: 'open',
      created_by_user_id: ctx.auth.user.id,
      completed_at: null,
      completed_by_user_id: null,
      handoff: null,
      duplicated_from_id: null,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await attachLoosePins(db, firmId, job.id, id);
  return id;
}
