// A plan takeoff's queries: its plants, sheets and dots, and the quantities a save keeps.
import type { Executor } from '#db/dialect.ts';
import type { LandscapeItem, LandscapePlant, LandscapeSheet } from '#db/tables.ts';
import type { Page } from '#platform/pagination.ts';
import type { SheetText } from '#engines/plans/index.ts';
import { type DotKind, planQuantities, type StoredIrrigation, type StoredPlanQuantities } from './quantities.ts';

export function plantsOf(db: Executor, takeoffId: number): Promise<LandscapePlant[]> {
  return db
    .selectFrom('landscape_plants')
    .selectAll()
    .where('takeoff_id', '=', takeoffId)
    .orderBy('position')
    .execute();
}

export function sheetOf(db: Executor, takeoffId: number, page: number): Promise<LandscapeSheet | undefined> {
  return db
    .selectFrom('landscape_sheets')
    .selectAll()
    .where('takeoff_id', '=', takeoffId)
    .where('page', '=', page)
    .executeTakeFirst();
}

/** The stored sheets' text layers, in page order (only `pages` when given). */
export async function sheetTexts(db: Executor, takeoffId: number, pages?: readonly number[]): Promise<SheetText[]> {
  let qb = db.selectFrom('landscape_sheets').select('text').where('takeoff_id', '=', takeoffId);
  if (pages) qb = qb.where('page', 'in', pages.length ? [...pages] : [-1]);
  const rows = await qb.orderBy('page').execute();
  return rows.map((r) => JSON.parse(r.text) as SheetText);
}

export async function storedPages(db: Executor, takeoffId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('landscape_sheets')
    .select('page')
    .where('takeoff_id', '=', takeoffId)
    .orderBy('page')
    .execute();
  return rows.map((r) => r.page);
}

export interface DotFilter {
  plant_id?: number;
  kind?: DotKind;
  page?: number;
}

export async function pageOfDots(
  db: Executor,
  takeoffId: number,
  filter: DotFilter,
  page: Page,
): Promise<{ rows: LandscapeItem[]; total: number }> {
  let qb = db.selectFrom('landscape_items').where('takeoff_id', '=', takeoffId).where('kind', '=', 'dot');
  if (filter.plant_id !== undefined) qb = qb.where('plant_id', '=', filter.plant_id);
  if (filter.kind !== undefined) qb = qb.where('class', '=', filter.kind);
  if (filter.page !== undefined) qb = qb.where('page', '=', filter.page);
  const [rows, count] = await Promise.all([
    qb.selectAll().orderBy('id').limit(page.limit).offset(page.offset).execute(),
    qb.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Plant id → name (the botanical name, else the code), for answering dots. */
export async function plantNames(db: Executor, takeoffId: number): Promise<Map<number, string>> {
  const rows = await db
    .selectFrom('landscape_plants')
    .select(['id', 'code', 'name'])
    .where('takeoff_id', '=', takeoffId)
    .execute();
  return new Map(rows.map((p) => [p.id, p.name ?? p.code]));
}

/** The plan takeoff's quantities as they stand in the transaction (what a save keeps). */
export async function currentPlanQuantities(
  trx: Executor,
  takeoffId: number,
  irrigation: StoredIrrigation | null,
): Promise<StoredPlanQuantities> {
  const [plants, dots] = await Promise.all([
    plantsOf(trx, takeoffId),
    trx
      .selectFrom('landscape_items')
      .select(['plant_id', 'class', 'page', 'quantity', 'callout_quantity'])
      .where('takeoff_id', '=', takeoffId)
      .where('kind', '=', 'dot')
      .execute(),
  ]);
  return planQuantities(plants, dots, irrigation);
}
