// The ratings kept (034_condition_ratings): one row per successful rating, and a site's history.
import type { Executor } from '#db/dialect.ts';
import type { ConditionRating } from '#db/tables.ts';

export type NewRating = Omit<ConditionRating, 'id'>;

export async function insertRating(db: Executor, row: NewRating): Promise<void> {
  await db.insertInto('condition_ratings').values(row).execute();
}

/** A site's ratings, newest first. */
export function ratingsOfSite(db: Executor, firmId: number, locationId: number, limit: number, offset: number) {
  return db
    .selectFrom('condition_ratings')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('location_id', '=', locationId)
    .orderBy('rated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function countOfSite(db: Executor, firmId: number, locationId: number): Promise<number> {
  const row = await db
    .selectFrom('condition_ratings')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('firm_id', '=', firmId)
    .where('location_id', '=', locationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
