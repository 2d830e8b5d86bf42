// GET /v1/landscape-takeoffs/{id}/history: the takeoff's saved changes, newest first, each with
// the items as they were before it (what it replaced or removed) and the ids it added (document 3:
// "the replaced version kept in history"; the measurement's history answers alike).
import { Type } from '@sinclair/typebox';
import type { ServiceContext } from '#platform/context.ts';
import { listEnvelope, type Page } from '#platform/pagination.ts';
import { NullableInteger, OneOf } from '#platform/schemas.ts';
import { zWire } from '#platform/time.ts';
import { AnyItemSchema } from './schemas.ts';
import { visibleTakeoff } from './takeoffs.ts';

export const HistoryEntrySchema = Type.Object({
  rev: Type.Integer({ description: 'the rev this change made' }),
  change: OneOf(['add', 'update', 'delete', 'detect', 'undo', 'plan_run', 'schedule'] as const),
  run_id: NullableInteger(),
  user_id: NullableInteger(),
  replaced: Type.Array(AnyItemSchema, { description: 'the items as they were before the change (changed or removed)' }),
  added: Type.Array(Type.Integer(), { description: 'ids of the items the change added' }),
  created_at: Type.String(),
});

export async function takeoffHistory(ctx: ServiceContext, id: number, page: Page) {
  const t = await visibleTakeoff(ctx, id);
  const qb = ctx.database.db.selectFrom('landscape_history').where('takeoff_id', '=', t.id);
  const [rows, count] = await Promise.all([
    qb.selectAll().orderBy('rev', 'desc').limit(page.limit).offset(page.offset).execute(),
    qb.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return listEnvelope(
    rows.map((h) => ({
      rev: h.rev,
      change: h.change,
      run_id: h.run_id,
      user_id: h.user_id,
      replaced: JSON.parse(h.replaced),
      added: JSON.parse(h.added),
      created_at: zWire(h.created_at),
    })),
    Number(count.n),
    page,
  );
}
