// GET /v1/measurements/{id}/history (docs/measurement.md, "History"): every saved edit, newest
// first: the rev it made, who saved it (the key's user) and when, its operations, and the shapes
// as they were before it (those it changed or removed), so any version can be read back.
import type { ServiceContext } from '#platform/context.ts';
import { zWire } from '#platform/time.ts';
import { visibleMeasurement } from '../measurements/service.ts';

export async function measurementHistory(ctx: ServiceContext, id: number, page: { limit?: number; offset?: number }) {
  const db = ctx.database.db;
  const m = await visibleMeasurement(ctx, id);
  const limit = page.limit ?? 50;
  const offset = page.offset ?? 0;
  const base = db.selectFrom('measurement_history as h').where('h.measurement_id', '=', m.id);
  const [rows, count] = await Promise.all([
    base
      .leftJoin('users as u', 'u.id', 'h.user_id')
      .select([
        'h.rev',
        'h.user_id',
        'u.name as user_name',
        'h.created_at',
        'h.operations',
        'h.replaced',
        'h.area_sqft_before',
        'h.area_sqft_after',
      ])
      .orderBy('h.rev', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    data: rows.map((r) => ({
      rev: r.rev,
      user: r.user_id === null ? null : { id: r.user_id, name: r.user_name ?? '' },
      saved_at: zWire(r.created_at),
      operations: JSON.parse(r.operations),
      replaced: JSON.parse(r.replaced),
      area_before: r.area_sqft_before,
      area_after: r.area_sqft_after,
    })),
    pagination: { total: Number(count.n), limit, offset },
  };
}
