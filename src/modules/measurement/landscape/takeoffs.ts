// Landscape takeoffs (document 3, "Landscape takeoffs"): the list, reading one (areas in the asked
// unit), and starting one on a job. An aerial takeoff starts empty (201); Manual Aerial needs the
// plan's Manual Aerial (Gold and above: 402 otherwise) and never runs the model. Plan takeoffs
// (type blueprint) are read from a PDF by a run: docs/landscape.md says what is built of them.
import type { LandscapeTakeoff } from '#db/tables.ts';
import { findVisibleJob, jobNotFound } from '#crm/index.ts';
import type { AreaUnit } from '#engines/geometry/index.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { ApiError, forbidden, notFound, paymentRequired } from '#platform/errors.ts';
import { listEnvelope, type Page } from '#platform/pagination.ts';
import { planIncludes } from '#platform/plans.ts';
import { now } from '#platform/time.ts';
import { storedQuantities } from './quantities.ts';
import { findTakeoff, listTakeoffs } from './repo.ts';
import { takeoffObject, takeoffRow } from './serialize.ts';

export const takeoffNotFound = () => notFound('Landscape takeoff not found', { code: 'landscape_takeoff_not_found' });

export async function visibleTakeoff(ctx: ServiceContext, id: number, db = ctx.database.db): Promise<LandscapeTakeoff> {
  const t = await findTakeoff(db, ctx.auth.firm.id, id, ctx.auth.user);
  if (!t) throw takeoffNotFound();
  return t;
}

export async function getTakeoff(ctx: ServiceContext, id: number, unit: AreaUnit) {
  return { data: takeoffObject(await visibleTakeoff(ctx, id), unit) };
}

export async function takeoffList(
  ctx: ServiceContext,
  query: { job_id?: number; type?: 'aerial' | 'blueprint' },
  page: Page,
) {
  const { rows, total } = await listTakeoffs(
    ctx.database.db,
    ctx.auth.firm.id,
    ctx.auth.user,
    { jobId: query.job_id, type: query.type },
    page,
  );
  return listEnvelope(rows.map(takeoffRow), total, page);
}

export interface CreateTakeoff {
  type: 'aerial' | 'blueprint';
  name?: string;
  manual?: boolean;
  file_url?: string;
  file_id?: number;
  pages?: number[];
}

const badStart = (message: string, field?: string) =>
  new ApiError(400, message, { code: 'invalid_request', message, ...(field ? { field } : {}) });

export async function createAerialTakeoff(ctx: ServiceContext, jobId: number, body: CreateTakeoff) {
  if (body.file_url !== undefined || body.file_id !== undefined || body.pages !== undefined)
    throw badStart('file_url, file_id and pages are for blueprint takeoffs', 'type');
  const manual = body.manual === true;
  if (manual && !planIncludes(ctx.auth.firm.plan, 'manual_aerial'))
    throw paymentRequired('Manual Aerial is available on Gold and above');
  const firmId = ctx.auth.firm.id;
  const at = now();
  const id = await inWorkspaceTransaction(ctx, async (trx) => {
    if (!(await findVisibleJob(trx, firmId, jobId, ctx.auth.user))) throw jobNotFound();
    const { id } = await trx
      .insertInto('landscape_takeoffs')
      .values({
        firm_id: firmId,
        job_id: jobId,
        name: body.name?.trim() || (manual ? 'Manual Aerial' : 'Auto Aerial'),
        type: 'aerial',
        mode: manual ? 'manual' : 'auto',
        editor: null,
        rev: 1,
        quantities: JSON.stringify(storedQuantities([])),
        item_count: 0,
        cleanup: null,
        created_by_user_id: ctx.auth.user.id,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  });
  return { data: takeoffObject((await findTakeoff(ctx.database.db, firmId, id, ctx.auth.user))!) };
}

/** Plan takeoffs need Blueprint takeoffs on the plan (Gold and above), then a file. */
export function checkBlueprintStart(ctx: ServiceContext, body: CreateTakeoff): void {
  if (!planIncludes(ctx.auth.firm.plan, 'blueprint_takeoffs'))
    throw forbidden('Blueprint Takeoffs require a Gold plan or above');
  if (body.manual !== undefined) throw badStart('manual is for aerial takeoffs', 'manual');
  if (body.file_url === undefined && body.file_id === undefined) throw badStart('Send file_url or file_id', 'file_url');
  if (body.file_url !== undefined && body.file_id !== undefined)
    throw badStart('Send file_url or file_id, not both', 'file_url');
}
