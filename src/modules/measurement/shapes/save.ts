// POST /v1/measurements/{id}/edits (document 3, "Saved-takeoff shapes"): the operations applied in
// order by the edit engine (apply.ts) to the shapes as saved at base_rev, then written together:
// one refusal saves nothing. The write is a compare-and-set on rev, so two saves from the same rev
// cannot both land (the second is 409 Takeoff changed); each save makes rev + 1 and one history
// row holding the shapes as they were before it, saved as the key's user. The first save of a
// detected measurement turns it into the editor's format.
import { ApiError, conflict } from '#platform/errors.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inEstimateTransaction, repullTakeoff } from '#estimating/index.ts';
import { now } from '#platform/time.ts';
import { rounded } from '#engines/geometry/index.ts';
import { visibleMeasurement } from '../measurements/service.ts';
import { type Applied, applyOperations, type CoordinateOrder } from './apply.ts';
import { loadState } from './load.ts';
import { keepState } from './state-cache.ts';
import { newShapeId, rowOfShape } from './rows.ts';
import { shapeObject } from './serialize.ts';
import { areaHolding, areasOf } from './sits-in.ts';
import type { EditState, ShapeState } from './state.ts';
import { totalsOf } from './totals.ts';
import { writeShapeRows } from './write-rows.ts';

export const MAX_OPERATIONS = 200;

export interface EditsRequest {
  base_rev?: number;
  operations?: unknown[];
  coordinate_order?: CoordinateOrder;
  confirm_remove_all_areas?: boolean;
}

const required = (field: string) =>
  new ApiError(400, `${field} is required`, { code: 'invalid_request', field, message: `Send ${field}` });

const stale = (current: number, base: number) =>
  conflict('stale_measurement', {
    code: 'stale_measurement',
    current_rev: current,
    message: `The measurement is at rev ${current}, not ${base}: read its shapes again and send base_rev ${current}`,
  });

const changedMeanwhile = () =>
  conflict('Takeoff changed', {
    code: 'takeoff_changed',
    message: 'Another save landed while this one was applied: read the shapes again and retry',
  });

const lockedForReview = () =>
  conflict('Takeoff locked for review', {
    code: 'takeoff_locked',
    message: 'The measurement is locked for review: unlock it (PATCH locked_for_review false) to edit',
  });

const isArea = (s: ShapeState) => s.kind === 'area' && s.surface !== 'hole';

function checkOutcome(after: EditState, confirmAll: boolean, hadAreas: boolean): void {
  if (after.shapes.size === 0)
    throw new ApiError(422, 'Takeoff would be empty', {
      code: 'takeoff_would_be_empty',
      message: 'The save would leave the measurement with no shapes: keep at least one, or delete the measurement',
    });
  if (hadAreas && ![...after.shapes.values()].some(isArea) && !confirmAll)
    throw conflict('would_remove_all_areas', {
      code: 'would_remove_all_areas',
      message: 'The save removes every area of the measurement: send confirm_remove_all_areas true to save it',
    });
}

export async function saveEdits(ctx: ServiceContext, id: number, body: EditsRequest) {
  if (body.base_rev === undefined) throw required('base_rev');
  if (body.operations === undefined) throw required('operations');
  if (body.operations.length < 1 || body.operations.length > MAX_OPERATIONS)
    throw new ApiError(400, 'operations must hold 1 to 200 operations', {
      code: 'invalid_request',
      field: 'operations',
      message: `Send 1 to ${MAX_OPERATIONS} operations; split a larger change into several saves`,
    });
  const firmId = ctx.auth.firm.id;
  const m = await visibleMeasurement(ctx, id);
  if (m.locked_for_review === 1) throw lockedForReview();
  if (body.base_rev !== m.rev) throw stale(m.rev, body.base_rev);

  const state = await loadState(ctx.database.db, m);
  const hadAreas = [...state.shapes.values()].some(isArea);
  const applied: Applied = applyOperations(state, body.operations, {
    coordinateOrder: body.coordinate_order ?? 'lat_lng',
    canDelete: ctx.auth.permissions.has('delete_records'),
    newId: newShapeId,
  });
  checkOutcome(state, body.confirm_remove_all_areas === true, hadAreas);
  const totals = totalsOf(state);
  const rev = m.rev + 1;
  const at = now();
  // The shapes as they were, answered as the history keeps them (their actions as they were then).
  const beforeState: EditState = { ...state, shapes: new Map(state.shapes) };
  for (const [sid, s] of applied.before) beforeState.shapes.set(sid, s);
  const areasBefore = areasOf(beforeState.shapes.values());
  const areaBefore = (s: ShapeState) => areaHolding(areasBefore, s);
  const replaced = [...applied.before.values()].map((s) => shapeObject(s, beforeState, areaBefore));

  // The workspace's estimate transaction: linked estimates re-pull in it, and a drive time a
  // re-priced line needs is looked up outside it (the save then runs again on fresh rows).
  await inEstimateTransaction(ctx, async (trx, places) => {
    const moved = await trx
      .updateTable('measurements')
      .set({
        rev,
        format: 'editor',
        area_sqft: totals.area_sqft,
        shape_count: state.shapes.size,
        totals: JSON.stringify(totals),
        updated_at: at,
      })
      .where('id', '=', m.id)
      .where('firm_id', '=', firmId)
      .where('rev', '=', m.rev)
      .where('locked_for_review', '=', 0)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) throw changedMeanwhile();
    const changed = [...applied.before.keys()]
      .filter((sid) => !applied.removed.has(sid))
      .map((sid) => state.shapes.get(sid)!);
    if (applied.newItems.length > 0)
      await trx
        .insertInto('measurement_items')
        .values(
          applied.newItems.map((i) => ({
            firm_id: firmId,
            measurement_id: m.id,
            name: i.name,
            item_type: i.item_type,
            color: i.color,
            phase_split: i.phase_split ? (1 as const) : (0 as const),
            counts_toward_area: i.counts_toward_area ? (1 as const) : (0 as const),
            created_at: at,
          })),
        )
        .execute();
    await writeShapeRows(trx, ctx.database.dialect.engine, {
      firmId,
      measurementId: m.id,
      jobId: m.job_id,
      at,
      removed: [...applied.removed],
      changed,
      added: [...applied.added].map((sid) => rowOfShape(state.shapes.get(sid)!, firmId, m.id, at)),
      history: {
        firm_id: firmId,
        measurement_id: m.id,
        rev,
        user_id: ctx.auth.user.id,
        api_key_id: ctx.auth.keyId || null,
        operations: JSON.stringify(applied.results.map((r) => ({ index: r.index, op: r.op, id: r.id }))),
        replaced: JSON.stringify(replaced),
        area_sqft_before: m.area_sqft,
        area_sqft_after: totals.area_sqft,
        created_at: at,
      },
    });
    // Document 3: "linked estimates re-pull quantities".
    await repullTakeoff(ctx, trx, places, m.id);
  });
  // The state just written is the measurement at its new rev: the next save starts from it.
  keepState(ctx.database.db, firmId, m.id, rev, state.shapes, state.items);
  return {
    data: {
      measurement_id: m.id,
      rev,
      area: totals.area_sqft,
      results: applied.results.map((r) => ({ ...r, quantity: r.quantity === null ? null : rounded(r.quantity) })),
    },
  };
}
