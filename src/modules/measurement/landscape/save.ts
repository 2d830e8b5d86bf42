// Saving a change to a landscape takeoff "like the editor's" (document 3): the items it names are
// added, changed or removed and no other item is touched; the quantities follow; the items it
// replaced or removed are kept in the takeoff's history with the ids it added (so a run can be
// undone exactly). The save is a compare-and-set on the takeoff's rev as it was read: a concurrent
// save that got there first answers 409 Takeoff changed (read again, retry). One short transaction
// under the workspace lock; every geometry was worked out before it.
import type { Insertable, Updateable } from 'kysely';
import type { LandscapeItem, LandscapeTakeoff } from '#db/tables.ts';
import type { LandscapeChange, LandscapeItemTable } from '#db/tables/landscape.ts';
import type { Executor } from '#db/dialect.ts';
import { conflict } from '#platform/errors.ts';
import { now } from '#platform/time.ts';
import { touchJob } from '../measurements/repo.ts';
import { storedQuantities } from './quantities.ts';
import { insertItems } from './repo.ts';
import { currentPlanQuantities, plantNames } from './plans/repo.ts';
import type { StoredIrrigation } from './plans/quantities.ts';
import { answeredItem } from './serialize.ts';

export type NewItem = Omit<
  Insertable<LandscapeItemTable>,
  'id' | 'firm_id' | 'takeoff_id' | 'created_at' | 'updated_at'
>;

export interface Change {
  change: LandscapeChange;
  runId?: number | null;
  add?: NewItem[];
  update?: { id: number; set: Updateable<LandscapeItemTable> }[];
  remove?: number[];
  /** Items put back under their own ids (an undo). */
  restore?: LandscapeItem[];
  /** Plans: the irrigation a run applies (or an undo puts back); undefined leaves it as it is. */
  irrigation?: StoredIrrigation | null;
}

export interface Saved {
  rev: number;
  added: number[];
  takeoff: LandscapeTakeoff;
}

export const takeoffChanged = () =>
  conflict('Takeoff changed', {
    code: 'takeoff_changed',
    message: 'The takeoff was saved by someone else meanwhile: read it again and retry',
  });

/** Runs inside the caller's workspace transaction. `read` is the takeoff as the change was worked out on. */
export async function saveChange(
  trx: Executor,
  read: LandscapeTakeoff,
  userId: number | null,
  c: Change,
): Promise<Saved> {
  const at = now();
  const rev = read.rev + 1;
  const bumped = await trx
    .updateTable('landscape_takeoffs')
    .set({ rev, updated_at: at })
    .where('id', '=', read.id)
    .where('rev', '=', read.rev)
    .executeTakeFirst();
  if (Number(bumped.numUpdatedRows) !== 1) throw takeoffChanged();

  const touched = [...(c.update ?? []).map((u) => u.id), ...(c.remove ?? [])];
  const before: LandscapeItem[] =
    touched.length === 0
      ? []
      : await trx
          .selectFrom('landscape_items')
          .selectAll()
          .where('takeoff_id', '=', read.id)
          .where('id', 'in', touched)
          .execute();
  if (c.remove?.length)
    await trx.deleteFrom('landscape_items').where('takeoff_id', '=', read.id).where('id', 'in', c.remove).execute();
  for (const u of c.update ?? [])
    await trx
      .updateTable('landscape_items')
      .set({ ...u.set, updated_at: at })
      .where('takeoff_id', '=', read.id)
      .where('id', '=', u.id)
      .execute();
  if (c.restore?.length) await trx.insertInto('landscape_items').values(c.restore).execute();
  const inserted = c.add?.length
    ? await insertItems(
        trx,
        c.add.map((i) => ({ ...i, firm_id: read.firm_id, takeoff_id: read.id, created_at: at, updated_at: at })),
      )
    : [];
  const added = [...(c.restore ?? []).map((i) => i.id), ...inserted].sort((a, b) => a - b);

  const irrigation =
    c.irrigation !== undefined
      ? c.irrigation
      : read.irrigation === null
        ? null
        : (JSON.parse(read.irrigation) as StoredIrrigation);
  let quantities: unknown;
  let itemCount: number;
  if (read.type === 'blueprint') {
    const q = await currentPlanQuantities(trx, read.id, irrigation);
    quantities = q;
    const n = await trx
      .selectFrom('landscape_items')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('takeoff_id', '=', read.id)
      .executeTakeFirstOrThrow();
    itemCount = Number(n.n);
  } else {
    const counted = await trx
      .selectFrom('landscape_items')
      .select(['kind', 'class', 'area_sqft'])
      .where('takeoff_id', '=', read.id)
      .execute();
    quantities = storedQuantities(counted);
    itemCount = counted.length;
  }
  const takeoff = await trx
    .updateTable('landscape_takeoffs')
    .set({
      quantities: JSON.stringify(quantities),
      item_count: itemCount,
      ...(c.irrigation !== undefined
        ? { irrigation: c.irrigation === null ? null : JSON.stringify(c.irrigation) }
        : {}),
    })
    .where('id', '=', read.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const names = before.some((i) => i.kind === 'dot') ? await plantNames(trx, read.id) : new Map<number, string>();
  await trx
    .insertInto('landscape_history')
    .values({
      firm_id: read.firm_id,
      takeoff_id: read.id,
      rev,
      change: c.change,
      run_id: c.runId ?? null,
      user_id: userId,
      replaced: JSON.stringify(before.map((i) => answeredItem(i, names))),
      added: JSON.stringify(added),
      created_at: at,
    })
    .execute();
  await touchJob(trx, read.firm_id, read.job_id, at);
  return { rev, added, takeoff };
}
