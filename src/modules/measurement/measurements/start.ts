// POST /v1/detect/full, /v1/detect/address and /v1/detect/tiles (document 1: "Each accepted POST
// /v1/detect/* starts a new measurement and counts as one"): the place found (the geocoder first
// for an address), its imagery read and detected, then the measurement and its shapes written in
// one short transaction. Detection finishes within the request (201 with the measurement): a
// 25-acre box is at most 2,048 px a side, a couple of seconds of work (docs/measurement.md,
// "Starting a measurement", and docs/performance.md).
import { findVisibleJob, jobNotFound } from '#crm/index.ts';
import { inTransaction, type ServiceContext } from '#platform/context.ts';
import { geocodedPoint } from '#platform/imagery/answers.ts';
import { now } from '#platform/time.ts';
import { rounded } from '#engines/geometry/index.ts';
import { newShapeId, rowOfShape } from '../shapes/rows.ts';
import type { EditState } from '../shapes/state.ts';
import { totalsOf } from '../shapes/totals.ts';
import { seePlace } from './detect.ts';
import { detectedShapes } from './detected-shapes.ts';
import { type Box, type Place, placeAround, placeOfBounds, placeOfTiles, type TileRange } from './place.ts';
import { findMeasurement, insertShapeRows, recountJob } from './repo.ts';
import { measurementObject } from './serialize.ts';

export type StartRequest = { job_id?: number; name?: string } & (
  | { from: 'bounds'; bounds: Box }
  | { from: 'address'; address: string }
  | { from: 'tiles'; tiles: TileRange }
);

async function placeOf(ctx: ServiceContext, req: StartRequest): Promise<Place> {
  if (req.from === 'bounds') return placeOfBounds(req.bounds);
  if (req.from === 'tiles') return placeOfTiles(req.tiles);
  const point = await geocodedPoint(ctx, req.address, 'send bounds to POST /v1/detect/full');
  return placeAround(point.lat, point.lng);
}

export async function startMeasurement(ctx: ServiceContext, req: StartRequest) {
  const firmId = ctx.auth.firm.id;
  const db = ctx.database.db;
  if (req.job_id !== undefined && !(await findVisibleJob(db, firmId, req.job_id, ctx.auth.user))) throw jobNotFound();
  const place = await placeOf(ctx, req);
  const seen = await seePlace(ctx, place);
  const shapes = detectedShapes(seen, newShapeId);
  const state: EditState = {
    shapes: new Map(shapes.map((s) => [s.shape_id, s])),
    items: new Map(),
    typed: {},
    frame: place.box,
  };
  const totals = totalsOf(state);
  const at = now();
  const id = await inTransaction(ctx.database, async (trx) => {
    // The job was looked up before the seconds of imagery work: one deleted meanwhile is a 404.
    if (req.job_id !== undefined && !(await findVisibleJob(trx, firmId, req.job_id, ctx.auth.user)))
      throw jobNotFound();
    const { id } = await trx
      .insertInto('measurements')
      .values({
        firm_id: firmId,
        job_id: req.job_id ?? null,
        name: req.name?.trim() || (req.from === 'address' ? req.address.trim().slice(0, 200) : 'Measurement'),
        started_from: req.from,
        address: req.from === 'address' ? req.address.trim() : null,
        tiles: req.from === 'tiles' ? JSON.stringify(req.tiles) : null,
        ...place.box,
        imagery: JSON.stringify({
          source: seen.imagery.source,
          zoom: seen.imagery.zoom,
          meters_per_pixel: rounded(seen.imagery.meters_per_pixel, 4),
          width: seen.imagery.width,
          height: seen.imagery.height,
          capture_date: seen.imagery.capture_date,
        }),
        detector: seen.detector,
        format: 'detected',
        rev: 1,
        area_sqft: totals.area_sqft,
        shape_count: shapes.length,
        totals: JSON.stringify(totals),
        locked_for_review: 0,
        typed_quantities: '{}',
        created_by_user_id: ctx.auth.user.id,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await insertShapeRows(
      trx,
      shapes.map((s) => rowOfShape(s, firmId, id, at)),
    );
    await recountJob(trx, firmId, req.job_id ?? null, at);
    return id;
  });
  const m = await findMeasurement(db, firmId, id, ctx.auth.user);
  return { data: measurementObject(m!) };
}
