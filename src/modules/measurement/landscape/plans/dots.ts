// A plan takeoff's dots through the API (document 3): the list with its plant_id, kind and page
// filters, and PATCH plant_id (moves the dot to another of the takeoff's plants) and quantity (what
// the dot counts for; null clears it). Dots are placed only in the editor (or by runs); deleting
// one is the items' DELETE. Each change is one save (save.ts): totals follow, history kept.
import type { LandscapeItem, LandscapeTakeoff } from '#db/tables.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { ApiError } from '#platform/errors.ts';
import { listEnvelope, type Page } from '#platform/pagination.ts';
import { saveChange } from '../save.ts';
import { dotObject, quantitiesOf } from '../serialize.ts';
import { plantNotFound } from './errors.ts';
import { type DotFilter, pageOfDots, plantNames } from './repo.ts';

export interface DotChange {
  plant_id?: number;
  quantity?: number | null;
}

export async function listDots(ctx: ServiceContext, t: LandscapeTakeoff, filter: DotFilter, page: Page) {
  const [{ rows, total }, names] = await Promise.all([
    pageOfDots(ctx.database.db, t.id, filter, page),
    plantNames(ctx.database.db, t.id),
  ]);
  return listEnvelope(
    rows.map((r) => dotObject(r, names)),
    total,
    page,
  );
}

export async function updateDot(
  ctx: ServiceContext,
  read: LandscapeTakeoff,
  dot: LandscapeItem,
  body: { class?: string; phase?: string | null } & DotChange,
) {
  const aerialField = ['class', 'phase'].find((k) => k in body);
  if (aerialField)
    throw new ApiError(400, `${aerialField} is an aerial item’s: a plan dot changes its plant_id or quantity`, {
      code: 'invalid_request',
      field: aerialField,
    });
  const names = await plantNames(ctx.database.db, read.id);
  const set: { plant_id?: number; quantity?: number | null } = {};
  if (body.plant_id !== undefined) {
    if (!names.has(body.plant_id)) throw plantNotFound();
    set.plant_id = body.plant_id;
  }
  if (body.quantity !== undefined) set.quantity = body.quantity;
  // An empty PATCH names no field: the dot as it is, nothing saved (document 1).
  if (Object.keys(set).length === 0)
    return { data: dotObject(dot, names), quantities: quantitiesOf(read, 'sf'), rev: read.rev };
  const saved = await inWorkspaceTransaction(ctx, (trx) =>
    saveChange(trx, read, ctx.auth.user.id, { change: 'update', update: [{ id: dot.id, set }] }),
  );
  const now = await ctx.database.db
    .selectFrom('landscape_items')
    .selectAll()
    .where('takeoff_id', '=', read.id)
    .where('id', '=', dot.id)
    .executeTakeFirstOrThrow();
  return { data: dotObject(now, names), quantities: quantitiesOf(saved.takeoff, 'sf'), rev: saved.rev };
}
