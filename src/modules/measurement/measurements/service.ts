// Reading, changing and deleting measurements (docs/measurement.md): GET /v1/measurements (by
// job, newest first), GET /v1/measurements/{id}, PATCH (name, job, the review lock, quantities
// typed over) and DELETE.
import type { Measurement } from '#db/tables.ts';
import { findVisibleJob, jobNotFound } from '#crm/index.ts';
import { inTransaction, type ServiceContext } from '#platform/context.ts';
import { inEstimateTransaction, repullTakeoff, unlinkTakeoff } from '#estimating/index.ts';
import { notFound } from '#platform/errors.ts';
import { assertDeletionAllowed } from '#platform/guards.ts';
import { listEnvelope, type Page } from '#platform/pagination.ts';
import { now } from '#platform/time.ts';
import { loadState } from '../shapes/load.ts';
import { totalsOf } from '../shapes/totals.ts';
import { COUNT_CATEGORIES, LINE_CATEGORIES } from '../shapes/vocabulary.ts';
import { ApiError } from '#platform/errors.ts';
import { findMeasurement, listMeasurements, recountJob } from './repo.ts';
import { measurementObject } from './serialize.ts';

export const measurementNotFound = () => notFound('Measurement not found', { code: 'measurement_not_found' });

export async function visibleMeasurement(ctx: ServiceContext, id: number, db = ctx.database.db): Promise<Measurement> {
  const m = await findMeasurement(db, ctx.auth.firm.id, id, ctx.auth.user);
  if (!m) throw measurementNotFound();
  return m;
}

export async function getMeasurement(ctx: ServiceContext, id: number) {
  return { data: measurementObject(await visibleMeasurement(ctx, id)) };
}

export async function measurementList(ctx: ServiceContext, query: { job_id?: number }, page: Page) {
  const { rows, total } = await listMeasurements(
    ctx.database.db,
    ctx.auth.firm.id,
    ctx.auth.user,
    { jobId: query.job_id },
    page,
  );
  return listEnvelope(rows.map(measurementObject), total, page);
}

export interface MeasurementChanges {
  name?: string;
  job_id?: number | null;
  locked_for_review?: boolean;
  typed_quantities?: Record<string, number | null>;
}

const TYPEABLE = new Set<string>([...COUNT_CATEGORIES, ...LINE_CATEGORIES]);

export async function updateMeasurement(ctx: ServiceContext, id: number, changes: MeasurementChanges) {
  const firmId = ctx.auth.firm.id;
  for (const category of Object.keys(changes.typed_quantities ?? {}))
    if (!TYPEABLE.has(category))
      throw new ApiError(400, 'Unknown category', {
        code: 'unknown_category',
        field: 'typed_quantities',
        message: `${category} is not a count or line category`,
      });
  await inEstimateTransaction(ctx, async (trx, places) => {
    const m = await visibleMeasurement(ctx, id, trx);
    if (changes.job_id !== undefined && changes.job_id !== null)
      if (!(await findVisibleJob(trx, firmId, changes.job_id, ctx.auth.user))) throw jobNotFound();
    const at = now();
    const set: Partial<Measurement> = {};
    if (changes.name !== undefined && changes.name.trim() !== m.name) set.name = changes.name.trim();
    if (changes.job_id !== undefined && changes.job_id !== m.job_id) set.job_id = changes.job_id;
    const locked = changes.locked_for_review === undefined ? undefined : changes.locked_for_review ? 1 : 0;
    if (locked !== undefined && locked !== m.locked_for_review) set.locked_for_review = locked;
    if (changes.typed_quantities !== undefined) {
      const typed = JSON.parse(m.typed_quantities) as Record<string, number>;
      for (const [category, quantity] of Object.entries(changes.typed_quantities))
        if (quantity === null) delete typed[category];
        else typed[category] = quantity;
      if (JSON.stringify(typed) !== m.typed_quantities) {
        const state = await loadState(trx, m);
        state.typed = typed;
        const totals = totalsOf(state);
        set.typed_quantities = JSON.stringify(typed);
        set.totals = JSON.stringify(totals);
        set.area_sqft = totals.area_sqft;
      }
    }
    // A PATCH that changes nothing writes nothing (updated_at stays).
    if (Object.keys(set).length === 0) return;
    set.updated_at = at;
    await trx.updateTable('measurements').set(set).where('id', '=', id).where('firm_id', '=', firmId).execute();
    if (set.job_id !== undefined && set.job_id !== m.job_id) {
      await recountJob(trx, firmId, m.job_id, at);
      await recountJob(trx, firmId, set.job_id, at);
    }
    // A quantity typed over changes what linked estimates take.
    if (set.totals !== undefined) await repullTakeoff(ctx, trx, places, m.id);
  });
  return getMeasurement(ctx, id);
}

export async function deleteMeasurement(ctx: ServiceContext, id: number): Promise<void> {
  assertDeletionAllowed(ctx);
  await inTransaction(ctx.database, async (trx) => {
    const m = await visibleMeasurement(ctx, id, trx);
    const at = now();
    await trx.deleteFrom('measurements').where('id', '=', m.id).where('firm_id', '=', ctx.auth.firm.id).execute();
    await recountJob(trx, ctx.auth.firm.id, m.job_id, at);
    // Estimates keep the quantities they took; their areas are no longer linked.
    await unlinkTakeoff(trx, ctx.auth.firm.id, m.id, at);
  });
}
