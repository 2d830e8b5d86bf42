// Site assessments (document 3, Site assessments and pins; Assessment state table): start (one
// open per job), change, complete (loose pins attached, handoff saved), reopen and duplicate.
import type { Transaction } from 'kysely';
import type { DB } from '#db/tables.ts';
import { updateChanged } from '#db/update-changed.ts';
import { findVisibleJob, jobNotFound } from '#crm/index.ts';
import { attachLoosePins } from '#field/assessment-pins/attach.ts';
import { pinsOfAssessment } from '#field/assessment-pins/repo.ts';
import { copyPinPhotos, pinObjects } from '#field/assessment-pins/photos.ts';
import { type ServiceContext, inWorkspaceTransaction } from '#platform/context.ts';
import { conflict, notFound } from '#platform/errors.ts';
import { pageOf, type Page } from '#platform/pagination.ts';
import { syncWindow } from '#platform/sync.ts';
import { now } from '#platform/time.ts';
import { handoffOf } from './handoff.ts';
import { startAssessment } from './open.ts';
import { findAssessment, findOpenAssessment, listAssessments, type AssessmentRow } from './repo.ts';
import { rollUp } from './rollup.ts';
import type {
  AssessmentDetail,
  AssessmentListInput,
  CreateAssessmentInput,
  Handoff,
  UpdateAssessmentInput,
} from './schemas.ts';
import { assessmentObject } from './serialize.ts';

export const assessmentNotFound = () => notFound('Site assessment not found');

async function mustFind(trx: Transaction<DB>, ctx: ServiceContext, id: number): Promise<AssessmentRow> {
  const row = await findAssessment(trx, ctx.auth.firm.id, id, ctx.auth.user);
  if (!row) throw assessmentNotFound();
  return row;
}

export async function listSiteAssessments(ctx: ServiceContext, q: AssessmentListInput) {
  const page: Page = pageOf(q);
  const { rows, total } = await listAssessments(
    ctx.database.db,
    ctx.auth.firm.id,
    ctx.auth.user,
    {
      jobId: q.job_id,
      locationId: q.location_id,
      status: q.status,
      scope: q.scope,
      updatedAfter: syncWindow(q.updated_after, 'second'),
    },
    page.limit,
    page.offset,
  );
  return { data: rows.map(assessmentObject), pagination: { total, limit: page.limit, offset: page.offset } };
}

/** POST: the job's open assessment if it has one (created false), else a new one with its loose pins. */
export function createSiteAssessment(ctx: ServiceContext, input: CreateAssessmentInput) {
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const job = await findVisibleJob(trx, firmId, input.job_id, ctx.auth.user);
    if (!job) throw jobNotFound();
    const open = await findOpenAssessment(trx, firmId, job.id);
    if (open) return { data: assessmentObject(open), created: false };
    const id = await startAssessment(trx, ctx, job, input);
    return { data: assessmentObject(await mustFind(trx, ctx, id)), created: true };
  });
}

export async function getSiteAssessment(
  ctx: ServiceContext,
  id: number,
  includePins: boolean,
  base: string,
): Promise<AssessmentDetail> {
  const db = ctx.database.db;
  const row = await findAssessment(db, ctx.auth.firm.id, id, ctx.auth.user);
  if (!row) throw assessmentNotFound();
  const pins = await pinsOfAssessment(db, ctx.auth.firm.id, id);
  return {
    ...assessmentObject(row),
    ...rollUp(pins),
    handoff: row.handoff === null ? null : (JSON.parse(row.handoff) as Handoff),
    ...(includePins ? { pins: await pinObjects(ctx, pins, base) } : {}),
  };
}

/** Only the fields sent change; notes null clears them. A completed assessment can be retitled too. */
export function updateSiteAssessment(ctx: ServiceContext, id: number, input: UpdateAssessmentInput) {
  return inWorkspaceTransaction(ctx, async (trx) => {
    const row = await mustFind(trx, ctx, id);
    await updateChanged(
      trx,
      'site_assessments',
      row,
      {
        ...(input.title !== undefined ? { title: input.title.trim() } : {}),
        ...(input.notes !== undefined ? { notes: input.notes?.trim() || null } : {}),
      },
      { stamp: { updated_at: now() } },
    );
    return assessmentObject(await mustFind(trx, ctx, id));
  });
}

/** open → completed: the job's loose pins are attached and the handoff saved. Completed already: unchanged. */
export function completeSiteAssessment(ctx: ServiceContext, id: number) {
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const row = await mustFind(trx, ctx, id);
    if (row.status === 'completed') return assessmentObject(row);
    await attachLoosePins(trx, firmId, row.job_id, id);
    const at = now();
    const handoff = handoffOf(await pinsOfAssessment(trx, firmId, id), at, ctx.auth.user);
    await trx
      .updateTable('site_assessments')
      .set({
        status: 'completed',
        completed_at: at,
        completed_by_user_id: ctx.auth.user.id,
        handoff: JSON.stringify(handoff),
        updated_at: at,
      })
      .where('id', '=', id)
      .execute();
    return assessmentObject(await mustFind(trx, ctx, id));
  });
}

/**
 * completed → open, so new pins join it again (and the job's loose pins, as when one is started).
 * The job may already have another open assessment: 409, since a job has at most one. Open
 * already: unchanged. The last handoff stays until the next completion replaces it.
 */
export function reopenSiteAssessment(ctx: ServiceContext, id: number) {
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const row = await mustFind(trx, ctx, id);
    if (row.status === 'open') return assessmentObject(row);
    const open = await findOpenAssessment(trx, firmId, row.job_id);
    if (open) {
      throw conflict('Job already has an open assessment', {
        code: 'open_assessment_exists',
        message: `Complete assessment ${open.id} before reopening this one: a job has at most one open assessment`,
        open_assessment_id: open.id,
      });
    }
    await trx
      .updateTable('site_assessments')
      .set({ status: 'open', completed_at: null, completed_by_user_id: null, updated_at: now() })
      .where('id', '=', id)
      .execute();
    await attachLoosePins(trx, firmId, row.job_id, id);
    return assessmentObject(await mustFind(trx, ctx, id));
  });
}

const COPY_SUFFIX = ' (copy)';
const TITLE_MAX = 200;

/**
 * A new assessment on the same job with a copy of every pin (its number and fields; made now, by
 * the caller), saved as completed with its own handoff. Pins keep who made the original.
 */
export function duplicateSiteAssessment(ctx: ServiceContext, id: number, input: { title?: string }) {
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const source = await mustFind(trx, ctx, id);
    const at = now();
    const title = input.title?.trim() || source.title.slice(0, TITLE_MAX - COPY_SUFFIX.length).trimEnd() + COPY_SUFFIX;
    const { id: copyId } = await trx
      .insertInto('site_assessments')
      .values({
        firm_id: firmId,
        job_id: source.job_id,
        location_id: source.location_id,
        scope: source.scope,
        title,
        notes: source.notes,
        status: 'completed',
        created_by_user_id: ctx.auth.user.id,
        completed_at: at,
        completed_by_user_id: ctx.auth.user.id,
        handoff: null,
        duplicated_from_id: source.id,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const pins = await trx
      .selectFrom('assessment_pins')
      .selectAll()
      .where('assessment_id', '=', id)
      .orderBy('id')
      .execute();
    for (const { id: sourcePinId, ...pin } of pins) {
      const copy = await trx
        .insertInto('assessment_pins')
        .values({ ...pin, assessment_id: copyId, created_at: now(), updated_at: now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      // The copy shows the same stored photos (shared, not uploaded again).
      await copyPinPhotos(trx, sourcePinId, copy.id);
    }
    const handoff = handoffOf(await pinsOfAssessment(trx, firmId, copyId), at, ctx.auth.user);
    await trx
      .updateTable('site_assessments')
      .set({ handoff: JSON.stringify(handoff) })
      .where('id', '=', copyId)
      .execute();
    return assessmentObject(await mustFind(trx, ctx, copyId));
  });
}
