// A landscape takeoff's items through the API (document 3): list them (class filter), add up to 200
// areas (a polygon, for an area class) or objects (a point, for an object class) with a phase
// (Phase 1 unless said; null for none), change one's class within its kind or its phase, delete
// one. Each is one save (save.ts). A takeoff sent for cleanup is 403 until done; plant dots on plan
// takeoffs are placed only in the editor (422).
import type { LandscapeItem, LandscapeTakeoff } from '#db/tables.ts';
import { type LatLng, openRing, polygonAreaM2, rounded, squareFeet, whyNot } from '#engines/geometry/index.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { ApiError, forbidden, notFound, unprocessable } from '#platform/errors.ts';
import { listEnvelope, type Page } from '#platform/pagination.ts';
import { areaClass, labelOf, objectClass } from './classes.ts';
import { pageOfItems } from './repo.ts';
import { type DotChange, listDots, updateDot } from './plans/dots.ts';
import type { DotFilter } from './plans/repo.ts';
import { type NewItem, saveChange } from './save.ts';
import { itemObject, quantitiesOf } from './serialize.ts';
import { visibleTakeoff } from './takeoffs.ts';

export const DEFAULT_PHASE = 'Phase 1';

export const itemNotFound = () => notFound('Item not found', { code: 'landscape_item_not_found' });

const badItem = (message: string, code: 'invalid_request' | 'unknown_class' | 'wrong_class_kind', extra = {}) =>
  new ApiError(400, message, { code, message, ...extra });

/** The takeoff, when its items may change through the API. */
export async function changeableTakeoff(ctx: ServiceContext, id: number): Promise<LandscapeTakeoff> {
  const t = await visibleTakeoff(ctx, id);
  if (t.cleanup === 'sent')
    throw forbidden('Takeoff sent for cleanup', {
      code: 'takeoff_sent_for_cleanup',
      message: 'The takeoff is out for cleanup: its items can change again once the cleanup is done',
    });
  if (t.editor === 'standalone')
    throw unprocessable('Edit in the takeoff editor', {
      code: 'edit_in_takeoff_editor',
      message: 'A standalone plan takeoff is read-only through the API',
    });
  return t;
}

/** The takeoff when it is an aerial one (what adding areas and detect need). */
export async function changeableAerial(
  ctx: ServiceContext,
  id: number,
  refusal: () => ApiError = () =>
    unprocessable('Plant dots on plan takeoffs are placed only in the takeoff editor', {
      code: 'edit_in_takeoff_editor',
    }),
): Promise<LandscapeTakeoff> {
  const t = await changeableTakeoff(ctx, id);
  if (t.type !== 'aerial') throw refusal();
  return t;
}

const planFilterOnAerial = (q: object) => ['plant_id', 'kind', 'page'].find((k) => k in q);

export async function listItems(ctx: ServiceContext, id: number, query: { class?: string } & DotFilter, page: Page) {
  const t = await visibleTakeoff(ctx, id);
  if (t.type === 'blueprint') {
    if (query.class !== undefined)
      throw badItem(
        'class filters an aerial takeoff’s items: a plan’s dots filter by plant_id, kind and page',
        'invalid_request',
        { field: 'class' },
      );
    return listDots(ctx, t, query, page);
  }
  const planOnly = planFilterOnAerial(query);
  if (planOnly)
    throw badItem(
      `${planOnly} filters a plan takeoff’s dots: an aerial takeoff’s items filter by class`,
      'invalid_request',
      {
        field: planOnly,
      },
    );
  const { rows, total } = await pageOfItems(ctx.database.db, t.id, { class: query.class }, page);
  return listEnvelope(rows.map(itemObject), total, page);
}

export interface ItemInput {
  class: string;
  polygon?: LatLng[];
  point?: LatLng;
  phase?: string | null;
}

/** One added item as stored, or the 400 that says which one is wrong. */
export function newItemOf(input: ItemInput, index: number): NewItem {
  const at = { index, field: `items[${index}]` };
  const phase = input.phase === undefined ? DEFAULT_PHASE : input.phase === null ? null : input.phase.trim();
  if (areaClass(input.class)) {
    if (!input.polygon || input.point)
      throw badItem(`items[${index}]: ${labelOf(input.class)} is an area class: send polygon`, 'wrong_class_kind', at);
    const ring = openRing(input.polygon);
    const why = whyNot({ type: 'polygon', rings: [ring] });
    if (why) throw badItem(`items[${index}]: ${why}`, 'invalid_request', at);
    return {
      kind: 'area',
      class: input.class,
      phase,
      rings: JSON.stringify([ring]),
      lat: null,
      lng: null,
      area_sqft: rounded(squareFeet(polygonAreaM2([ring])), 2),
      source: 'manual',
      run_id: null,
    };
  }
  if (objectClass(input.class)) {
    if (!input.point || input.polygon)
      throw badItem(`items[${index}]: ${labelOf(input.class)} is an object class: send point`, 'wrong_class_kind', at);
    const why = whyNot({ type: 'point', point: input.point });
    if (why) throw badItem(`items[${index}]: ${why}`, 'invalid_request', at);
    return {
      kind: 'object',
      class: input.class,
      phase,
      rings: null,
      lat: input.point[0],
      lng: input.point[1],
      area_sqft: null,
      source: 'manual',
      run_id: null,
    };
  }
  throw badItem(
    `items[${index}]: Unknown class ${input.class} (GET /v1/landscape/classes lists them)`,
    'unknown_class',
    at,
  );
}

export async function addItems(ctx: ServiceContext, id: number, items: ItemInput[]) {
  const read = await changeableAerial(ctx, id);
  const rows = items.map(newItemOf);
  const saved = await inWorkspaceTransaction(ctx, (trx) =>
    saveChange(trx, read, ctx.auth.user.id, { change: 'add', add: rows }),
  );
  const added = await ctx.database.db
    .selectFrom('landscape_items')
    .selectAll()
    .where('takeoff_id', '=', read.id)
    .where('id', 'in', saved.added)
    .orderBy('id')
    .execute();
  return { data: added.map(itemObject), quantities: quantitiesOf(saved.takeoff, 'sf'), rev: saved.rev };
}

export async function itemOf(ctx: ServiceContext, takeoffId: number, itemId: number): Promise<LandscapeItem> {
  const item = await ctx.database.db
    .selectFrom('landscape_items')
    .selectAll()
    .where('takeoff_id', '=', takeoffId)
    .where('id', '=', itemId)
    .executeTakeFirst();
  if (!item) throw itemNotFound();
  return item;
}

export async function updateItem(
  ctx: ServiceContext,
  id: number,
  itemId: number,
  body: { class?: string; phase?: string | null } & DotChange,
) {
  const read = await changeableTakeoff(ctx, id);
  const item = await itemOf(ctx, read.id, itemId);
  if (item.kind === 'dot') return updateDot(ctx, read, item, body);
  const planField = ['plant_id', 'quantity'].find((k) => k in body);
  if (planField)
    throw badItem(`${planField} is a plan dot’s: an aerial item changes its class or phase`, 'invalid_request', {
      field: planField,
    });
  const set: { class?: string; phase?: string | null } = {};
  if (body.class !== undefined) {
    const sameKind = item.kind === 'area' ? areaClass(body.class) : objectClass(body.class);
    if (!sameKind) {
      const known = areaClass(body.class) || objectClass(body.class);
      throw badItem(
        known
          ? `class: an ${item.kind} stays an ${item.kind} class (${body.class} is not one)`
          : `Unknown class ${body.class} (GET /v1/landscape/classes lists them)`,
        known ? 'wrong_class_kind' : 'unknown_class',
        { field: 'class' },
      );
    }
    set.class = body.class;
  }
  if (body.phase !== undefined) set.phase = body.phase === null ? null : body.phase.trim();
  // An empty PATCH names no field: the item as it is, nothing saved (document 1).
  if (Object.keys(set).length === 0)
    return { data: itemObject(item), quantities: quantitiesOf(read, 'sf'), rev: read.rev };
  const saved = await inWorkspaceTransaction(ctx, (trx) =>
    saveChange(trx, read, ctx.auth.user.id, { change: 'update', update: [{ id: item.id, set }] }),
  );
  const now = await itemOf(ctx, read.id, item.id);
  return { data: itemObject(now), quantities: quantitiesOf(saved.takeoff, 'sf'), rev: saved.rev };
}

export async function deleteItem(ctx: ServiceContext, id: number, itemId: number): Promise<void> {
  const read = await changeableTakeoff(ctx, id);
  const item = await itemOf(ctx, read.id, itemId);
  await inWorkspaceTransaction(ctx, (trx) =>
    saveChange(trx, read, ctx.auth.user.id, { change: 'delete', remove: [item.id] }),
  );
}
